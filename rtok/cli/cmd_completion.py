"""`rtok completion SHELL`: the shell completion script for bash, zsh or fish.

The script is typer's own; it asks rtok for completions through click's completion protocol
(`_RTOK_COMPLETE=complete_bash COMP_WORDS=... COMP_CWORD=... rtok`), which `rtok.cli.app`
answers. Verbs, options and agent names (`--agent`) complete.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated

import typer

HELP = """Print the shell completion script for SHELL (bash, zsh or fish).

\b
Load it in the current shell, or put the line in your shell's start-up file:
  bash:  eval "$(rtok completion bash)"          (~/.bashrc)
  zsh:   eval "$(rtok completion zsh)"           (~/.zshrc, after compinit)
  fish:  rtok completion fish | source           (~/.config/fish/config.fish)
"""


class Shell(StrEnum):
    bash = "bash"
    zsh = "zsh"
    fish = "fish"


def register(app: typer.Typer) -> None:
    @app.command(name="completion", help=HELP)
    def completion_command(
        shell: Annotated[
            Shell, typer.Argument(metavar="SHELL", help="bash, zsh or fish.", show_default=False)
        ],
    ) -> None:
        typer.echo(script(shell.value))


def script(shell: str) -> str:
    """Typer's completion script for `shell`, naming `rtok`."""
    from typer._completion_shared import get_completion_script

    from rtok.cli.app import COMPLETE_VAR

    return get_completion_script(prog_name="rtok", complete_var=COMPLETE_VAR, shell=shell)
