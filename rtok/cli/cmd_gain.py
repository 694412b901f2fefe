"""`rtok gain`: what rtok saved, net of what the agents would have cut anyway and of what
was read back (rtok/store/gain.py says how each figure is counted; docs/gain.md)."""

from __future__ import annotations

import datetime as dt
import json
import os
import shutil
import sqlite3
import sys
import time
from typing import Annotated

import typer

from rtok import paths
from rtok.cli.gain_render import render_csv, render_text
from rtok.cli.shared_options import SinceOption, json_option, project_option
from rtok.store.gain import Filters, build_report, reset

HISTORY_ROWS = 30
BUCKETS = ("day", "week", "month")
_UNITS = {"h": 3600, "d": 86400, "w": 7 * 86400}


HELP = "Tokens saved by rtok, net of the agents' own output caps and of re-reads (docs/gain.md)."


def register(app: typer.Typer) -> None:
    app.command(name="gain", help=HELP)(gain)


def gain(
    history: bool = typer.Option(False, "--history", help=f"List the last {HISTORY_ROWS} runs."),
    project: Annotated[bool, project_option("runs")] = False,
    since: SinceOption = "",
    until: str = typer.Option("", "--until", help="Before this time (a date: up to its end)."),
    by: str = typer.Option("day", "--by", help="Chart buckets: day, week or month."),
    top: int = typer.Option(
        10, "--top", min=1, help="Rows of the agent, family and project tables."
    ),
    as_json: Annotated[bool, json_option("The report as JSON (docs/gain.md).")] = False,
    as_csv: bool = typer.Option(False, "--csv", help="The report as CSV (docs/gain.md)."),
    do_reset: bool = typer.Option(False, "--reset", help="Delete every ledger row (asks)."),
    yes: bool = typer.Option(False, "--yes", "-y", help="With --reset: do not ask."),
) -> None:
    if do_reset:
        _reset(yes)
        return
    if by not in BUCKETS:
        _fail(f"--by must be one of {', '.join(BUCKETS)}, not {by!r}")
    if as_json and as_csv:
        _fail("--json and --csv cannot be combined")
    filters = Filters(
        _project_path() if project else None,
        _when(since, "--since", end=False),
        _when(until, "--until", end=True),
    )
    if filters.since is not None and filters.until is not None and filters.since >= filters.until:
        _fail("--since must be before --until")
    try:
        report = build_report(filters, HISTORY_ROWS if history else 0, top)
    except sqlite3.DatabaseError as exc:
        _fail(
            f"the ledger {paths.ledger_db()} cannot be read ({exc}); `rtok gain --reset`"
            " starts a new one"
        )
        return
    if as_json:
        typer.echo(json.dumps(report.as_dict(), indent=2))
    elif as_csv:
        typer.echo(render_csv(report), nl=False)
    else:
        typer.echo(render_text(report, _width(), by, history))


def _fail(message: str) -> None:
    typer.echo(f"rtok gain: {message}", err=True)
    raise typer.Exit(2)


def _width() -> int:
    return max(shutil.get_terminal_size((100, 24)).columns, 20)


def _when(text: str, option: str, end: bool) -> float | None:
    """Epoch seconds for a --since/--until value ("" -> None)."""
    text = text.strip()
    if not text:
        return None
    if text[:-1].isdigit() and text[-1:] in _UNITS:
        return time.time() - int(text[:-1]) * _UNITS[text[-1]]
    try:
        moment = dt.datetime.fromisoformat(text)
    except ValueError:
        _fail(f"{option} takes YYYY-MM-DD, YYYY-MM-DDTHH:MM or a span like 7d, not {text!r}")
        raise  # unreachable: _fail exits
    if end and len(text) == 10:  # a date alone: up to the end of that day
        moment += dt.timedelta(days=1)
    return moment.timestamp()


def _reset(yes: bool) -> None:
    if not yes:
        if not sys.stdin.isatty():
            _fail("--reset deletes every ledger row; add --yes to do it without a terminal")
        if not typer.confirm("Delete every row of rtok's savings ledger?", default=False):
            typer.echo("Nothing deleted.")
            return
    removed = reset()
    typer.echo(f"Deleted {removed} ledger rows.")


def _project_path() -> str:
    cwd = os.path.realpath(os.getcwd())
    try:
        from rtok.trust import project_root
    except ImportError:
        return cwd
    root = project_root(cwd)
    return os.path.realpath(root) if root else cwd
