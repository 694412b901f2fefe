"""`rtok session`: per recent agent session, how many shell calls went through rtok and how
many ran raw (from the transcripts and the hook's decision log; rtok/store/discover.py)."""

from __future__ import annotations

import json
import time
from dataclasses import asdict
from typing import Annotated

import typer

from rtok.cli.cmd_gain import _project_path, _when
from rtok.cli.shared_options import SinceOption, json_option, project_option
from rtok.store.discover import SESSION_SCHEMA, SessionRow, sessions


def register(app: typer.Typer) -> None:
    app.command(name="session", help="Per recent agent session: shell calls through rtok and raw.")(
        run
    )


def run(
    since: SinceOption = "",
    project: Annotated[bool, project_option("sessions")] = False,
    limit: int = typer.Option(20, "--limit", min=1, help="How many sessions."),
    as_json: Annotated[bool, json_option("The report as JSON.")] = False,
) -> None:
    rows = sessions(_when(since, "--since", end=False), _project_path() if project else None, limit)
    if as_json:
        typer.echo(
            json.dumps(
                {"schema": SESSION_SCHEMA, "sessions": [asdict(row) for row in rows]}, indent=2
            )
        )
        return
    typer.echo(render(rows))


def render(rows: list[SessionRow]) -> str:
    if not rows:
        return "No agent sessions found."
    lines = [
        f"{'last call':<16} {'agent':<8} {'calls':>5} {'rtok':>5} {'raw':>5}"
        f" {'missed':>6} {'denied':>6}  session"
    ]
    for row in rows:
        stamp = time.strftime("%Y-%m-%d %H:%M", time.localtime(row.last))
        lines.append(
            f"{stamp:<16} {row.agent:<8} {row.shell_calls:>5} {row.via_rtok:>5}"
            f" {row.raw + row.missed:>5} {row.missed:>6} {row.denied:>6}"
            f"  {row.session[:36]}"
        )
    return "\n".join(lines)
