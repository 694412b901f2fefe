"""`rtok help [COMMAND...]`: the help of rtok or of one command, the same text as
`rtok COMMAND --help`."""

from __future__ import annotations

import difflib
from typing import Annotated, Any, NoReturn

import typer

from rtok.cli import cmd_hotpath
from rtok.cli.process import HOT_PATH_VERBS


def register(app: typer.Typer) -> None:
    @app.command(
        name="help",
        help="Show the help of rtok, or of COMMAND (the same as `rtok COMMAND --help`).",
    )
    def help_command(
        ctx: typer.Context,
        words: Annotated[
            list[str] | None,
            typer.Argument(
                metavar="[COMMAND]...",
                help="A command, e.g. `init` or `config show`.",
                show_default=False,
            ),
        ] = None,
    ) -> None:
        typer.echo(help_for(ctx, list(words or [])), nl=False)


def help_for(ctx: typer.Context, words: list[str]) -> str:
    """The help text `rtok WORDS... --help` prints; exit status 2 for an unknown command."""
    root = ctx.find_root()
    if not words:
        return root.get_help() + "\n"
    if words[0] in HOT_PATH_VERBS and len(words) == 1:
        return cmd_hotpath.help_text(words[0], root)
    # typer's own click (typer vendors one): groups are known by what they can do.
    command: Any = root.command
    parent = root
    for depth, word in enumerate(words):
        get_command = getattr(command, "get_command", None)
        sub = get_command(parent, word) if get_command is not None else None
        if sub is None:
            known = command.list_commands(parent) if get_command is not None else []
            _unknown(words[: depth + 1], known)
        parent = sub.make_context(word, [], parent=parent, resilient_parsing=True)
        command = sub
    text: str = command.get_help(parent)
    return text + "\n"


def _unknown(words: list[str], known: list[str]) -> NoReturn:
    near = difflib.get_close_matches(words[-1], known, n=2, cutoff=0.6)
    hint = f"; did you mean {' or '.join(repr(n) for n in near)}?" if near else ""
    typer.echo(
        f"rtok help: unknown command {' '.join(words)!r}{hint} (see `rtok --help`)", err=True
    )
    raise typer.Exit(2)
