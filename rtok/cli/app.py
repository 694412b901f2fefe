"""The typer application for every verb that is not on the hot path.

Each verb lives in its own module `rtok/cli/cmd_<verb>.py` exposing `register(app)`;
this module only assembles them. Business logic lives outside `rtok/cli/`.
"""

from __future__ import annotations

import importlib

import typer

from rtok import __version__

# Modules that register commands. A module listed here but not present yet is skipped,
# so verbs can land one at a time.
COMMAND_MODULES: tuple[str, ...] = (
    "rtok.cli.cmd_hotpath",
    "rtok.cli.cmd_init",
    "rtok.cli.cmd_agents",
    "rtok.cli.cmd_verify",
    "rtok.cli.cmd_doctor",
    "rtok.cli.cmd_trust",
    "rtok.cli.cmd_config",
    "rtok.cli.cmd_gain",
    "rtok.cli.cmd_mcp",
)


def _version_callback(value: bool) -> None:
    if value:
        typer.echo(f"rtok {__version__}")
        raise typer.Exit(0)


def build_app() -> typer.Typer:
    app = typer.Typer(
        name="rtok",
        help="Shortens the shell output AI coding agents read, losing nothing.",
        no_args_is_help=True,
        add_completion=False,
        pretty_exceptions_enable=False,
        rich_markup_mode=None,
    )

    @app.callback()
    def _root(
        version: bool = typer.Option(
            False, "--version", callback=_version_callback, is_eager=True,
            help="Print the version and exit.",
        ),
    ) -> None:
        """rtok: installs into your coding agents and shortens what their shell calls return."""

    for name in COMMAND_MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name == name:
                continue
            raise
        module.register(app)
    return app


def run_app(args: list[str]) -> int:
    app = build_app()
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
