"""The typer application for every verb that is not on the hot path.

Each verb lives in its own module `rtok/cli/cmd_<verb>.py` exposing `register(app)`;
this module only assembles them. Business logic lives outside `rtok/cli/`.
"""

from __future__ import annotations

import importlib
import os

import typer

from rtok import __version__
from rtok.cli import output

# Modules that register commands, in `rtok --help` order.
COMMAND_MODULES: tuple[str, ...] = (
    "rtok.cli.cmd_hotpath",
    "rtok.cli.cmd_init",
    "rtok.cli.cmd_agents",
    "rtok.cli.cmd_verify",
    "rtok.cli.cmd_doctor",
    "rtok.cli.cmd_trust",
    "rtok.cli.cmd_config",
    "rtok.cli.cmd_gain",
    "rtok.cli.cmd_discover",
    "rtok.cli.cmd_session",
    "rtok.cli.cmd_mcp",
    "rtok.cli.cmd_help",
    "rtok.cli.cmd_completion",
)

# The module that registers each verb. Running one verb imports only its module: every
# command module costs start-up time (typer builds each parameter), and `rtok init` is run
# interactively, so its latency is felt. Anything else (`--help`, a typo) builds them all.
VERB_MODULES: dict[str, str] = {
    "hook": "rtok.cli.cmd_hotpath",
    "rewrite": "rtok.cli.cmd_hotpath",
    "run": "rtok.cli.cmd_hotpath",
    "filter": "rtok.cli.cmd_hotpath",
    "expand": "rtok.cli.cmd_hotpath",
    "init": "rtok.cli.cmd_init",
    "uninstall": "rtok.cli.cmd_init",
    "agents": "rtok.cli.cmd_agents",
    "verify": "rtok.cli.cmd_verify",
    "doctor": "rtok.cli.cmd_doctor",
    "trust": "rtok.cli.cmd_trust",
    "untrust": "rtok.cli.cmd_trust",
    "config": "rtok.cli.cmd_config",
    "gain": "rtok.cli.cmd_gain",
    "discover": "rtok.cli.cmd_discover",
    "session": "rtok.cli.cmd_session",
    "mcp": "rtok.cli.cmd_mcp",
    "completion": "rtok.cli.cmd_completion",
}
# What the shell completion scripts set to ask rtok for completions (click's protocol).
COMPLETE_VAR = "_RTOK_COMPLETE"
NO_COLOR_OPTION = "--no-color"


def _version_callback(value: bool) -> None:
    if value:
        typer.echo(f"rtok {__version__}")
        raise typer.Exit(0)


def _no_color_callback(value: bool) -> None:
    if value:
        output.disable_colour()


def build_app(verb: str | None = None) -> typer.Typer:
    """The typer app; with `verb`, only the module registering that verb is imported."""
    app = typer.Typer(
        name="rtok",
        help="Shortens the shell output AI coding agents read, losing nothing.",
        no_args_is_help=True,
        add_completion=False,
        pretty_exceptions_enable=False,
        rich_markup_mode=None,
        context_settings={"help_option_names": ["-h", "--help"]},
    )

    @app.callback()
    def _root(
        version: bool = typer.Option(
            False,
            "--version",
            "-V",
            callback=_version_callback,
            is_eager=True,
            help="Print the version and exit.",
        ),
        no_color: bool = typer.Option(
            False,
            NO_COLOR_OPTION,
            callback=_no_color_callback,
            is_eager=True,
            help="No colour (also: the NO_COLOR environment variable). Colour is only "
            "ever used on a terminal.",
        ),
    ) -> None:
        """rtok: installs into your coding agents and shortens what their shell calls return."""

    single = VERB_MODULES.get(verb or "")
    for name in (single,) if single else COMMAND_MODULES:
        importlib.import_module(name).register(app)
    return app


def run_app(args: list[str]) -> int:
    """Run one typer verb as the whole process; its exit status."""
    args = _take_no_color(args)
    if args[:1] != ["mcp"]:  # the MCP proxy stops when its client's end of stdout closes
        output.guard_stdout()
    if os.environ.get(COMPLETE_VAR):
        from typer._completion_classes import completion_init

        completion_init()
    app = build_app(args[0] if args else None)
    code = _exit_status(app, args)
    if code != CANCELLED:  # a cancelled run leaves no cache behind
        _flush_caches()
    output.finish_stdout()
    return code


# The exit status of a run cancelled with Ctrl-C (typer's, and `rtok init`'s).
CANCELLED = 130


def _exit_status(app: typer.Typer, args: list[str]) -> int:
    try:
        app(args=args, prog_name="rtok", standalone_mode=True)
    except SystemExit as exc:
        code = exc.code
        if code is None:
            return 0
        if isinstance(code, int):
            return code
        print(code)
        return 1
    return 0


def _take_no_color(args: list[str]) -> list[str]:
    """`--no-color` among rtok's own options (`rtok verify --no-color` as well as
    `rtok --no-color verify`), never in a command rtok runs (after `--`, or after `run`,
    `mcp`, ...); the arguments without it."""
    from rtok.cli.process import HOT_PATH_VERBS

    end = args.index("--") if "--" in args else len(args)
    for index, word in enumerate(args[:end]):
        if word in HOT_PATH_VERBS or word == "mcp":
            end = index + 1
            break
    if NO_COLOR_OPTION not in args[:end]:
        return args
    output.disable_colour()
    return [a for a in args[:end] if a != NO_COLOR_OPTION] + args[end:]


def _flush_caches() -> None:
    from rtok.cli.process import flush_caches

    flush_caches()
