"""`rtok gain [--history] [--project] [--json]`: what rtok saved, from the ledger."""

from __future__ import annotations

import json
import os
import time

import typer

from rtok.store.gain import Report, build_report

HISTORY_ROWS = 30


def register(app: typer.Typer) -> None:
    app.command(name="gain", help="Tokens saved by `rtok run` (estimated as bytes / 4).")(gain)


def gain(
    history: bool = typer.Option(False, "--history", help=f"List the last {HISTORY_ROWS} runs."),
    project: bool = typer.Option(False, "--project", help="Only runs in this project."),
    as_json: bool = typer.Option(False, "--json", help="Print the report as JSON."),
) -> None:
    scope = _project_path() if project else None
    report = build_report(scope, HISTORY_ROWS if history else 0)
    if as_json:
        typer.echo(json.dumps(report.as_dict(), indent=2))
        return
    typer.echo(render_text(report, history))


def _project_path() -> str:
    cwd = os.path.realpath(os.getcwd())
    try:
        from rtok.trust import project_root
    except ImportError:
        return cwd
    root = project_root(cwd)
    return os.path.realpath(root) if root else cwd


def render_text(report: Report, history: bool) -> str:
    t = report.totals
    lines = [f"rtok gain ({report.scope})"]
    if not t.runs:
        lines.append("No runs recorded yet.")
        return "\n".join(lines)
    lines += [
        f"runs          {t.runs}",
        f"raw tokens    {t.raw_tokens}",
        f"shown tokens  {t.shown_tokens}",
        f"saved tokens  {t.saved_tokens} ({t.saved_pct:.1f}%)",
        f"avg run time  {t.avg_exec_ms:.0f} ms",
        "",
        f"{'family':<16} {'runs':>6} {'raw':>10} {'shown':>10} {'saved':>7}",
    ]
    for f in report.families:
        lines.append(f"{f.family:<16} {f.runs:>6} {f.raw_tokens:>10} {f.shown_tokens:>10}"
                     f" {f.saved_pct:>6.1f}%")
    if history:
        lines += ["", f"{'time':<16} {'raw':>8} {'shown':>8} {'saved':>7}  command"]
        for h in report.history:
            stamp = time.strftime("%Y-%m-%d %H:%M", time.localtime(h.time))
            lines.append(f"{stamp:<16} {h.raw_tokens:>8} {h.shown_tokens:>8}"
                         f" {h.saved_pct:>6.1f}%  {h.command}")
    return "\n".join(lines)
