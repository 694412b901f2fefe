"""`rtok doctor [--agent NAME]... [--json]`."""

from __future__ import annotations

import json
import os
from typing import Annotated

import typer

from rtok.cli import output
from rtok.cli.known_agent import agent_option, exit_if_any_unknown
from rtok.cli.shared_options import json_option
from rtok.integrity import doctor as diagnosis
from rtok.integrity.check import FAIL, WARN, Check

HELP = """Run every installed hook the way its agent runs it and check the replies.

Hook-tier agents: the registered command runs through /bin/sh in the agent's environment
on sample payloads (a rewrite, another tool's call, a command a temporary permission rule
denies); each reply must parse in the agent's format. Plugin-tier agents: the plugin file
must be stock and `rtok rewrite` must answer as the plugin expects. Codex: the hook must be
trusted in config.toml. Other hooks that run for the same calls are a warning (the agent
may drop rtok's rewrite). One line per check: PASS / FAIL / WARN / SKIP, with the fix.
--json prints {"schema": 1, "ok", "exit_code", "checks": [...]} (docs/verify-json.md).

Exit status: 0 no FAIL; 1 any FAIL; 2 usage error (e.g. unknown agent).
"""


def register(app: typer.Typer) -> None:
    app.command(name="doctor", help=HELP)(doctor_command)


def doctor_command(
    agents: Annotated[
        list[str] | None, agent_option("Only this agent (repeat the option for several).")
    ] = None,
    as_json: Annotated[bool, json_option("Print the checks as JSON.")] = False,
) -> None:
    exit_if_any_unknown("doctor", agents)
    checks = _checks(agents or [], os.getcwd())
    code = diagnosis.exit_code(checks)
    if as_json:
        typer.echo(
            json.dumps(
                {
                    "schema": 1,
                    "ok": code == 0,
                    "exit_code": code,
                    "checks": [c.to_json() for c in checks],
                },
                indent=2,
            )
        )
        raise typer.Exit(code)
    if not checks:
        typer.echo(
            "No hook or plugin installed by rtok"
            + (f" for {', '.join(agents)}" if agents else "")
            + ": nothing to run."
        )
    for check in checks:
        line = (
            f"{output.level(check.level)}  {check.agent} ({check.scope}) {check.sample}: "
            f"{check.message}"
        )
        if check.fix and check.level in (FAIL, WARN):
            line += f"  (fix: {check.fix})"
        typer.echo(line)
    raise typer.Exit(code)


def _checks(agents: list[str], cwd: str) -> list[Check]:
    """Every named agent's checks (every agent's when none is named), in the order named;
    a check they share (the launcher) once."""
    names: list[str | None] = [*agents] or [None]
    found: list[Check] = []
    for name in names:
        found.extend(
            check for check in diagnosis.doctor(name, cwd, env=os.environ) if check not in found
        )
    return found
