"""A real stdio MCP server (built with the `mcp` package) for the proxy tests."""

from __future__ import annotations

import sys

from mcp.server.mcpserver import MCPServer

server = MCPServer("rtok-test-server")


@server.tool()
def long_text(count: int) -> str:
    """`count` numbered lines, one of them an error line."""
    return "\n".join("ERROR: row 50 is broken" if i == 50 else f"row {i}" for i in range(count))


@server.tool()
def short_text() -> str:
    """A few lines, under any cut."""
    return "one\ntwo\nthree"


@server.tool()
def failing(count: int) -> str:
    """Raises: the result is an error result with a long text."""
    raise RuntimeError("\n".join(f"failure detail {i}" for i in range(count)))


if __name__ == "__main__":
    if sys.argv[1:] == ["--exit"]:
        raise SystemExit(5)
    server.run("stdio")
