"""Options that several verbs take, declared once: each verb names what its own takes
(the `--agent` option is `known_agent.agent_option`; `rtok init` and `rtok uninstall`
share theirs in cmd_init.py)."""

from __future__ import annotations

from typing import Annotated, Any

import typer

# `rtok gain`, `rtok discover`, `rtok session`: where the report starts.
SinceOption = Annotated[
    str, typer.Option("--since", help="From this time: YYYY-MM-DD[THH:MM] or 24h, 7d, 2w ago.")
]


def project_option(what: str) -> Any:
    """`--project`: only the `what` (runs, calls, sessions) of the current project."""
    return typer.Option("--project", help=f"Only {what} in this project.")


def json_option(help_text: str) -> Any:
    """`--json`: the verb's result as JSON instead of text."""
    return typer.Option("--json", help=help_text)
