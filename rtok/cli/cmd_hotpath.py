"""Help entries for the hot-path verbs.

`rtok.cli.entry` runs these verbs before typer is imported; they are registered here only
so that `rtok --help` lists them. Their real argument parsing lives in their own modules.
"""

from __future__ import annotations

import typer

from rtok.cli.entry import HOT_PATH_VERBS

_HELP = {
    "hook": "Answer an agent's pre-tool hook (agent JSON on stdin, reply on stdout). Never blocks.",
    "rewrite": "Print the rtok form of a shell command. Exit 0 allow, 1 none, 2 deny, 3 ask.",
    "run": "Run a command, archive its raw output, print the shortened output, keep its exit code.",
    "filter": "Shorten piped output with the same rules as `rtok run`.",
    "expand": "Print archived raw output byte for byte.",
}


def register(app: typer.Typer) -> None:
    for verb in HOT_PATH_VERBS:
        _add(app, verb)


def _add(app: typer.Typer, verb: str) -> None:
    @app.command(
        name=verb,
        help=_HELP.get(verb, ""),
        context_settings={"allow_extra_args": True, "ignore_unknown_options": True},
        add_help_option=False,
    )
    def _command(ctx: typer.Context) -> None:
        from rtok.cli.entry import main

        raise typer.Exit(main([verb, *ctx.args]))
