"""The typer application for every verb that is not on the hot path.

Each verb lives in its own module `rtok/cli/cmd_<verb>.py` exposing `register(app)`;
this module only assembles them. Business logic lives outside `rtok/cli/`.
"""

from __future__ import annotations

import importlib

import typer

from rtok import __version__

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
)

# The module that registers each verb. Running one verb imports only its module: every
# command module costs start-up time (typer builds each parameter), and `rtok init` is run
# interactively, so its latency is felt. Anything else (`--help`, a typo) builds them all.
VERB_MODULES: dict[str, str] = {
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
}


def _version_callback(value: bool) -> None:
    if value:
        typer.echo(f"rtok {__version__}")
        raise typer.Exit(0)


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
            False, "--version", callback=_version_callback, is_eager=True,
            help="Print the version and exit.",
        ),
    ) -> None:
        """rtok: installs into your coding agents and shortens what their shell calls return."""

    single = VERB_MODULES.get(verb or "")
    for name in (single,) if single else COMMAND_MODULES:
        importlib.import_module(name).register(app)
    return app


def run_app(args: list[str]) -> int:
    app = build_app(args[0] if args else None)
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
