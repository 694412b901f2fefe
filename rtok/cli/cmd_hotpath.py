"""The hot-path verbs in the typer app: their `--help`, and `rtok --help`'s list.

`rtok.cli.entry` runs these verbs before typer is imported; their real argument parsing
lives in their own stdlib-only modules. `rtok VERB --help` (and `-h`, as the first word
after the verb) is the one case that comes here: entry routes it to typer so that every
verb's help has the same form (usage line, description, options). Each verb's options are
declared below as typer parameters for that help only; `tests/cli/test_help.py` checks
they are the options the verb's own parser takes.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any

import typer

from rtok.cli.entry import HELP_OPTIONS
from rtok.cli.process import HOT_PATH_VERBS

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
        if ctx.args[:1] and ctx.args[0] in HELP_OPTIONS:
            typer.echo(help_text(verb, ctx.parent), nl=False)
            raise typer.Exit(0)
        from rtok.cli.entry import main

        raise typer.Exit(main([verb, *ctx.args]))


def help_text(verb: str, parent: Any = None) -> str:
    """`rtok VERB --help` of a hot-path verb, in click's form (`parent`: the root
    command's context, of the click typer carries)."""
    helper = typer.Typer(
        add_completion=False,
        rich_markup_mode=None,
        context_settings={"help_option_names": ["-h", "--help"]},
    )
    helper.command(name=verb, help=_keep_layout(_description(verb)))(_SIGNATURES[verb])
    command = typer.main.get_command(helper)
    ctx = command.make_context(verb, [], parent=parent, resilient_parsing=True)
    if parent is None:
        ctx.info_name = f"rtok {verb}"
    return command.get_help(ctx) + "\n"


def _keep_layout(text: str) -> str:
    """Click rewraps every paragraph; an indented one (a table, an example) is marked to be
    kept as written."""
    paragraphs = text.strip("\n").split("\n\n")
    return "\n\n".join(f"\b\n{p}" if p.startswith((" ", "\t")) else p for p in paragraphs)


def _description(verb: str) -> str:
    """The verb's own help text without its usage line and option list."""
    if verb == "hook":
        from rtok.hooks.main import HELP as hook_help

        return hook_help.split("\n\n", 1)[1]
    if verb == "rewrite":
        from rtok.rewrite import main as rewrite_main

        doc = rewrite_main.__doc__ or ""
        return doc.split("\n\n", 1)[-1].split("\n\nHot path:")[0]
    if verb == "run":
        from rtok.filter.run_main import HELP as run_help
        from rtok.filter.run_main import USAGE as run_usage

        return run_help[len(run_usage) :].strip()
    if verb == "filter":
        from rtok.filter.filter_main import HELP as filter_help
        from rtok.filter.filter_main import USAGE as filter_usage

        return filter_help[len(filter_usage) :].strip()
    from rtok.store.expand_main import HELP as expand_help

    return expand_help.strip().split("\n\n", 1)[0]


def _argument(metavar: str, help_text: str) -> Any:
    """A positional parameter as the verbs' help shows it (a required one: no default)."""
    return typer.Argument(metavar=metavar, help=help_text, show_default=False)


# The parameters of each verb, as its own parser reads them (only ever shown, never run).
def _hook(
    agent: Annotated[
        str, _argument("AGENT", "The agent whose hook payload comes on stdin (see `rtok agents`).")
    ],
) -> None:
    """Shown by `rtok hook --help`."""


def _rewrite(
    command: Annotated[
        list[str], _argument("[--] COMMAND...", "The shell command (one word or several).")
    ],
    rtok_bin: Annotated[
        str | None,
        typer.Option(
            "--rtok-bin",
            metavar="PATH",
            help="The rtok to name in the rewritten command (default: RTOK_REWRITE_BIN, else "
            "`rtok`).",
        ),
    ] = None,
    agent: Annotated[
        str | None,
        typer.Option(
            "--agent", metavar="NAME", help="The calling agent: whose permission rules apply."
        ),
    ] = None,
) -> None:
    """Shown by `rtok rewrite --help`."""


def _run(
    command: Annotated[
        list[str], _argument("[--] COMMAND [ARGS]...", "The command to run, with its arguments.")
    ],
) -> None:
    """Shown by `rtok run --help`."""


def _filter(
    stdin: Annotated[bool, typer.Option("--stdin", help="Read the output from stdin.")] = False,
    cmd: Annotated[
        str | None,
        typer.Option(
            "--cmd", metavar="COMMAND", help="The command that printed it (picks the rules)."
        ),
    ] = None,
    exit_code: Annotated[
        int,
        typer.Option("--exit-code", metavar="N", help="Its exit status (non-zero keeps the tail)."),
    ] = 0,
) -> None:
    """Shown by `rtok filter --help`."""


def _expand(
    entry_id: Annotated[
        str | None,
        typer.Argument(
            metavar="[ID]",
            help="The id from the `[rtok expand ID ...]` line (a prefix of 4 or "
            "more characters will do).",
            show_default=False,
        ),
    ] = None,
    full: Annotated[
        bool, typer.Option("--full", help="Everything, exactly as archived (the default).")
    ] = False,
    merged: Annotated[
        bool, typer.Option("--merged", help="stdout's bytes, then stderr's, all on stdout.")
    ] = False,
    first: Annotated[
        int | None,
        typer.Option(
            "--from",
            metavar="N",
            help="Start at line N (1-based); stdout and stderr read as one text.",
        ),
    ] = None,
    count: Annotated[
        int | None, typer.Option("--lines", metavar="N", help="Stop after N lines.")
    ] = None,
    grep: Annotated[
        str | None, typer.Option("--grep", metavar="RE", help="Only lines matching RE, as N:line.")
    ] = None,
    listing: Annotated[
        bool, typer.Option("--list", help="The archived entries, newest first.")
    ] = False,
) -> None:
    """Shown by `rtok expand --help`."""


_SIGNATURES: dict[str, Callable[..., None]] = {
    "hook": _hook,
    "rewrite": _rewrite,
    "run": _run,
    "filter": _filter,
    "expand": _expand,
}
