"""`rtok gain`: groups, periods, chart and tables at two widths, JSON and CSV schemas, reset.

Ledger rows are written with the ledger code into the test's real SQLite file; the report is
read back from real `rtok gain` subprocesses.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
import os
import select
import subprocess
import sys
import time

from rtok import paths
from rtok.store import ledger
from rtok_testing import run_rtok

ENV = {"RTOK_TOKENIZER": "estimate"}
DOC = os.path.join(os.path.dirname(__file__), "..", "..", "docs", "gain.md")


def _at(day: str, hour: int = 12) -> float:
    return dt.datetime.fromisoformat(f"{day}T{hour:02d}:00").timestamp()


def _book(
    day: str,
    agent: str,
    family: str,
    project: str,
    raw: int,
    shown: int,
    cap: int | None,
    reread: int = 0,
) -> None:
    row = ledger.Row(
        f"{family} x",
        family,
        "run",
        raw,
        shown,
        3,
        0,
        project,
        now=_at(day),
        agent=agent,
        session="s",
        cap_chars=cap,
    )
    ledger.write(row, None)
    if reread:
        conn = ledger.open_ledger()
        conn.execute(
            "UPDATE runs SET reread_bytes = ?, reread_ctx_bytes = ?, rereads = 1"
            " WHERE id = (SELECT MAX(id) FROM runs)",
            (reread, reread if cap is None else min(reread, cap)),
        )
        conn.close()


def _sample() -> None:
    today = dt.date.today()
    days = [(today - dt.timedelta(days=n)).isoformat() for n in (40, 9, 8, 1, 0)]
    _book(days[0], "opencode", "git", "/w/a", 400_000, 4_000, 30_000)  # 7500-1000
    _book(days[1], "opencode", "cargo", "/w/a", 80_000, 8_000, 30_000, 30_000)  # 7500-2000-7500
    _book(days[2], "gemini", "pytest", "/w/b", 20_000, 2_000, 40_000)  # 5000-500
    _book(days[3], "unknown", "git", "/w/b/sub", 8_000, 800, None)  # 2000-200
    _book(days[4], "codex", "ls", "/w/c", 400, 400, 10_240)  # 100-100


def _json(*args: str) -> dict[str, object]:
    result = run_rtok(["gain", "--json", *args], env=ENV)
    assert result.returncode == 0, result.stderr
    data: dict[str, object] = json.loads(result.stdout)
    return data


def _runs(data: dict[str, object]) -> int:
    totals = data["totals"]
    assert isinstance(totals, dict)
    runs = totals["runs"]
    assert isinstance(runs, int)
    return runs


def _keyed(data: dict[str, object], group: str) -> dict[str, int]:
    groups = data["groups"]
    assert isinstance(groups, dict)
    return {row["key"]: row["net_saved_tokens"] for row in groups[group]}


def test_totals_and_every_group_carry_net_saved() -> None:
    _sample()
    data = _json()
    assert data["schema"] == "rtok.gain/1"
    _check_totals(data)
    _check_groups(data)
    _check_hosts(data)


def _check_totals(data: dict[str, object]) -> None:
    totals = data["totals"]
    assert isinstance(totals, dict)
    assert totals["runs"] == 5
    assert totals["counterfactual_tokens"] == 7500 + 7500 + 5000 + 2000 + 100
    assert totals["net_saved_tokens"] == 6500 - 2000 + 4500 + 1800 + 0
    assert totals["uncapped_runs"] == 1
    assert totals["rereads"] == 1
    assert _keyed(data, "agent") == {"opencode": 4500, "gemini": 4500, "unknown": 1800, "codex": 0}
    assert _keyed(data, "family") == {"git": 8300, "pytest": 4500, "cargo": -2000, "ls": 0}
    assert _keyed(data, "project") == {"/w/a": 4500, "/w/b": 4500, "/w/b/sub": 1800, "/w/c": 0}
    for period in ("day", "week", "month"):
        assert sum(_keyed(data, period).values()) == totals["net_saved_tokens"]
    assert len(_keyed(data, "day")) == 5


def _check_groups(data: dict[str, object]) -> None:
    groups = data["groups"]
    assert isinstance(groups, dict)
    for group in ("agent", "project", "family", "day", "week", "month"):
        for row in groups[group]:
            assert row["net_saved_tokens"] == (
                row["counterfactual_tokens"] - row["shown_tokens"] - row["reread_tokens"]
            )


def _check_hosts(data: dict[str, object]) -> None:
    hosts = data["hosts"]
    assert isinstance(hosts, dict)
    assert hosts["claude"]["cap_chars"] == 30000
    assert hosts["copilot"]["cap_chars"] is None
    assert hosts["claude"]["over_cap_chars"] == 2000
    assert hosts["codex"]["over_cap_chars"] is None
    assert "30,000" in hosts["claude"]["source"]


def test_since_until_and_project_scope() -> None:
    _sample()
    today = dt.date.today()
    week_ago = (today - dt.timedelta(days=7)).isoformat()
    recent = _json("--since", week_ago)
    assert _runs(recent) == 2
    assert _runs(_json("--since", "30d")) == 4
    older = _json("--until", (today - dt.timedelta(days=8)).isoformat())
    assert _runs(older) == 3  # until: the end of that day
    assert _runs(_json("--since", "30d", "--until", "2d")) == 2
    bad = run_rtok(["gain", "--since", "last tuesday"], env=ENV)
    assert bad.returncode == 2 and b"--since takes" in bad.stderr
    swapped = run_rtok(["gain", "--since", "1d", "--until", "9d"], env=ENV)
    assert swapped.returncode == 2 and b"before --until" in swapped.stderr


def test_top_keeps_the_largest_savings() -> None:
    _sample()
    assert list(_keyed(_json("--top", "2"), "family")) == ["git", "pytest"]


def _lines(columns: int, *args: str) -> list[str]:
    result = run_rtok(["gain", *args], env={**ENV, "COLUMNS": str(columns)})
    assert result.returncode == 0, result.stderr
    text = result.stdout.decode()
    assert "\x1b" not in text  # no colour: readable anywhere
    return text.splitlines()


def test_chart_and_tables_fit_40_and_120_columns() -> None:
    _sample()
    for columns in (40, 120):
        _check_fits(_lines(columns), columns)
    wide = _lines(120)
    heading = next(x for x in wide if x.startswith("family "))
    for column in ("raw", "counterf.", "shown", "re-read", "net saved", "net %"):
        assert column in heading  # every honest column at 120
    narrow_heading = next(x for x in _lines(40) if x.startswith("family "))
    assert "net saved" in narrow_heading
    assert "re-read" not in narrow_heading
    weeks = _lines(120, "--by", "month")
    assert "net saved per month" in weeks


def _check_fits(lines: list[str], columns: int) -> None:
    """The chart and the family table of a report `columns` wide."""
    assert max(len(line) for line in lines) <= columns
    chart = lines[lines.index("net saved per day") + 1 :]
    assert len(chart) == 5
    bars = {line.split()[0]: line for line in chart}
    today = dt.date.today()
    top_day = (today - dt.timedelta(days=40)).isoformat()  # 6500: the longest bar
    minus_day = (today - dt.timedelta(days=9)).isoformat()  # -2000: drawn with '-'
    assert bars[top_day].count("#") > bars[minus_day].count("-") > 0
    assert bars[minus_day].rstrip().endswith("-2000")
    family = lines[lines.index(next(x for x in lines if x.startswith("family "))) :]
    assert "net saved" in family[0]
    assert family[1].startswith("git ")


def test_csv_schema() -> None:
    _sample()
    result = run_rtok(["gain", "--csv"], env=ENV)
    rows = list(csv.DictReader(io.StringIO(result.stdout.decode())))
    assert list(rows[0]) == [
        "group",
        "key",
        "runs",
        "raw_bytes",
        "raw_tokens",
        "counterfactual_tokens",
        "shown_tokens",
        "reread_tokens",
        "net_saved_tokens",
        "net_saved_pct",
        "rereads",
        "reread_raw_bytes",
        "uncapped_runs",
    ]
    assert rows[0]["group"] == "total" and rows[0]["net_saved_tokens"] == "10800"
    groups = {row["group"] for row in rows}
    assert groups == {"total", "agent", "project", "family", "day", "week", "month"}
    git = next(r for r in rows if r["group"] == "family" and r["key"] == "git")
    assert git["net_saved_tokens"] == "8300" and git["runs"] == "2"


def test_json_and_csv_schemas_are_the_documented_ones() -> None:
    with open(DOC, encoding="utf-8") as handle:
        doc = handle.read()
    _sample()
    data = _json("--history")
    for key in data:
        assert f"`{key}`" in doc, key
    totals = data["totals"]
    assert isinstance(totals, dict)
    for key in totals:
        assert f"`{key}`" in doc, key
    history = data["history"]
    assert isinstance(history, list)
    for key in history[0]:
        assert f"`{key}`" in doc, key
    header = run_rtok(["gain", "--csv"], env=ENV).stdout.decode().splitlines()[0]
    assert f"`{header}`" in doc


def test_json_and_csv_together_is_an_error() -> None:
    result = run_rtok(["gain", "--json", "--csv"], env=ENV)
    assert result.returncode == 2 and b"cannot be combined" in result.stderr


def test_reset_without_terminal_needs_yes() -> None:
    _sample()
    result = run_rtok(["gain", "--reset"], env=ENV, input=b"y\n")
    assert result.returncode == 2 and b"--yes" in result.stderr
    assert _runs(_json()) == 5
    done = run_rtok(["gain", "--reset", "--yes"], env=ENV)
    assert done.returncode == 0 and b"Deleted 5 ledger rows." in done.stdout
    assert _runs(_json()) == 0


def _in_terminal(answer: bytes) -> str:
    """`rtok gain --reset` with a pseudo-terminal on stdin and stdout, answering `answer`."""
    import pty

    master, slave = pty.openpty()
    process = subprocess.Popen(
        [sys.executable, "-m", "rtok", "gain", "--reset"],
        stdin=slave,
        stdout=slave,
        stderr=slave,
        env=dict(os.environ),
    )
    os.close(slave)
    seen = b""
    deadline = time.monotonic() + 30
    while b"[y/N]" not in seen and time.monotonic() < deadline:
        if select.select([master], [], [], 1)[0]:
            seen += os.read(master, 4096)
    os.write(master, answer)
    process.wait(timeout=30)
    while select.select([master], [], [], 0.2)[0]:
        try:
            chunk = os.read(master, 4096)
        except OSError:
            break
        if not chunk:
            break
        seen += chunk
    os.close(master)
    return seen.decode(errors="replace")


def test_reset_in_a_terminal_asks_and_defaults_to_no() -> None:
    _sample()
    assert os.path.exists(paths.ledger_db())
    said = _in_terminal(b"\n")
    assert "[y/N]" in said and "Nothing deleted." in said
    assert _runs(_json()) == 5
    said = _in_terminal(b"y\n")
    assert "Deleted 5 ledger rows." in said
    assert _runs(_json()) == 0
