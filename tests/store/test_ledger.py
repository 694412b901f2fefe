"""Ledger rows, 90-day retention, and `rtok gain` (totals, families, history, project, JSON)."""

from __future__ import annotations

import json
import os
import sqlite3
import time
from pathlib import Path

from rtok import paths
from rtok.store import ledger
from rtok.store.gain import Filters, build_report, like_prefix
from rtok_testing import run_rtok


def _row(project: str, family: str, raw: int, shown: int, now: float | None = None) -> None:
    ledger.write(ledger.Row(f"{family} x", family, "run", raw, shown, 5, 0, project, now))


def test_estimated_tokens_round_up() -> None:
    assert [ledger.estimate_tokens(n) for n in (0, 1, 4, 5, 8)] == [0, 1, 1, 2, 2]


def test_retention_drops_rows_older_than_90_days() -> None:
    now = time.time()
    _row("/p", "git", 400, 100, now=now - 91 * 86400)
    _row("/p", "git", 400, 100, now=now - 89 * 86400)
    _row("/p", "git", 400, 100, now=now)
    conn = sqlite3.connect(paths.ledger_db())
    assert conn.execute("SELECT COUNT(*) FROM runs").fetchone()[0] == 2
    conn.close()


def test_totals_are_token_weighted() -> None:
    _row("/p", "git", 4000, 400)  # 1000 -> 100 tokens
    _row("/p", "ls", 40, 40)  # 10 -> 10 tokens
    report = build_report()
    assert report.totals.raw_tokens == 1010 and report.totals.shown_tokens == 110
    # No agent is known here: uncapped, so the counterfactual is the raw output.
    assert report.totals.counterfactual_tokens == 1010
    assert report.totals.net_saved_pct == round(100 * 900 / 1010, 1)
    assert [f.key for f in report.groups["family"]] == ["git", "ls"]


def test_project_scope_treats_underscore_and_percent_literally() -> None:
    _row("/work/my_app", "git", 400, 100)
    _row("/work/my_app/sub", "git", 400, 100)
    _row("/work/myXapp", "git", 400, 100)  # `_` as a wildcard would match this
    _row("/work/my_app2", "git", 400, 100)  # a sibling, not below
    _row("/work/100%", "git", 400, 100)
    _row("/work/100%x/y", "git", 400, 100)
    assert build_report(Filters(project="/work/my_app")).totals.runs == 2
    assert build_report(Filters(project="/work/100%")).totals.runs == 1
    assert like_prefix("/a_b%c\\d") == "/a\\_b\\%c\\\\d/%"


def test_gain_cli_json_history_and_project(tmp_path: Path) -> None:
    project = tmp_path / "proj_1"
    (project / ".git").mkdir(parents=True)
    sub = project / "src"
    sub.mkdir()
    script = "for i in range(300): print('row', i)"
    import sys

    assert run_rtok(["run", sys.executable, "-c", script], cwd=str(sub)).returncode == 0
    assert run_rtok(["run", sys.executable, "-c", script], cwd=str(tmp_path)).returncode == 0
    everything = json.loads(run_rtok(["gain", "--json"]).stdout)
    assert everything["totals"]["runs"] == 2
    scoped = json.loads(run_rtok(["gain", "--json", "--project", "--history"], cwd=str(sub)).stdout)
    assert scoped["scope"] == os.path.realpath(project)
    assert scoped["totals"]["runs"] == 1
    assert len(scoped["history"]) == 1 and scoped["history"][0]["archive_id"]
    text = run_rtok(["gain", "--history"]).stdout.decode()
    assert "net saved" in text and "python" in text


def test_gain_with_no_ledger() -> None:
    result = run_rtok(["gain"])
    assert result.returncode == 0 and b"No runs recorded yet." in result.stdout
