"""`rtok mcp -- SERVER ARGV...`: wrap a stdio MCP server and shorten its long tool results."""

from __future__ import annotations

import typer


def register(app: typer.Typer) -> None:
    @app.command(
        name="mcp",
        help="Wrap a stdio MCP server (rtok mcp -- SERVER ARGS...) and shorten the long text"
        " of its tools/call results; the raw text stays in the archive.",
        context_settings={"allow_extra_args": True, "ignore_unknown_options": True},
    )
    def mcp_command(ctx: typer.Context) -> None:
        from rtok.mcp.proxy import main

        raise typer.Exit(main(list(ctx.args)))
