"""Honest accounting: the host's own cap, re-reads, schema upgrade, tokenizer, robustness.

Real `rtok run` / `rtok expand` / `rtok gain` subprocesses with the test's temporary HOME,
real SQLite files.
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import stat
import time
from pathlib import Path

from rtok import paths
from rtok.store import ledger
from rtok_testing import run_rtok

FIXTURES = Path(__file__).parent / "fixtures"
SEQ_BYTES = len("".join(f"{i}\n" for i in range(1, 300001)).encode())
ESTIMATE = {"RTOK_TOKENIZER": "estimate"}


def _est(size: int) -> int:
    return (size + 3) // 4


def _rows() -> list[dict[str, object]]:
    conn = sqlite3.connect(paths.ledger_db())
    conn.row_factory = sqlite3.Row
    try:
        return [dict(row) for row in conn.execute("SELECT * FROM runs ORDER BY id")]
    finally:
        conn.close()


def _run_and_expand(env: dict[str, str], expand: list[str] | None = None) -> str:
    """`rtok run seq 1 300000` then `rtok expand ID ...`; the archive id."""
    run = run_rtok(["run", "seq", "1", "300000"], env=env)
    assert run.returncode == 0
    trailer = run.stdout.decode().strip().splitlines()[-1]
    assert trailer.startswith("[rtok expand ")
    entry_id = trailer.split()[2]
    if expand is not None:
        back = run_rtok(["expand", entry_id, *expand], env=env)
        assert back.returncode == 0
        if expand == ["--full"]:
            assert len(back.stdout) == SEQ_BYTES
    return entry_id


def _gain_json(env: dict[str, str] | None = None, *args: str) -> dict[str, object]:
    result = run_rtok(["gain", "--json", *args], env={**ESTIMATE, **(env or {})})
    assert result.returncode == 0, result.stderr
    data: dict[str, object] = json.loads(result.stdout)
    return data


def test_claude_run_and_full_expand_books_no_more_than_cap_minus_shown_minus_reread() -> None:
    env = {"CLAUDECODE": "1", **ESTIMATE}
    _run_and_expand(env, ["--full"])
    (row,) = _rows()
    assert row["agent"] == "claude" and row["cap_chars"] == 30000
    # Over its 30,000-character cap Claude Code keeps a 2,000-character preview (and the
    # path of a file holding the rest): that is what it would have kept without rtok.
    assert row["raw_bytes"] == SEQ_BYTES and row["cf_bytes"] == 2000
    assert row["reread_bytes"] == SEQ_BYTES  # what expand wrote
    assert row["reread_ctx_bytes"] == 2000  # what reached Claude: its preview again
    shown = int(str(row["shown_bytes"]))
    totals = _gain_json()["totals"]
    assert isinstance(totals, dict)
    # The bound of the issue, in tokens and in bytes: cap - shown - re-read; Claude's
    # preview is below the cap, so the booked saving is below the bound.
    booked = _est(2000) - _est(shown) - _est(2000)
    assert totals["net_saved_tokens"] == booked
    assert booked <= _est(30000) - _est(shown) - _est(int(str(row["reread_ctx_bytes"])))
    assert totals["net_saved_tokens"] < 0  # the full expand cost more than rtok saved
    assert totals["counterfactual_tokens"] == _est(2000)
    assert totals["raw_tokens"] == _est(SEQ_BYTES)
    assert totals["reread_raw_bytes"] == SEQ_BYTES  # written back; Claude kept 2,000


def test_a_host_that_cuts_books_cap_minus_shown_minus_reread() -> None:
    env = {"RTOK_AGENT": "codex", **ESTIMATE}
    _run_and_expand(env, ["--full"])
    (row,) = _rows()
    assert row["agent"] == "codex" and row["cf_bytes"] == 10240
    assert row["reread_ctx_bytes"] == 10240  # Codex cuts the expand to its cap too
    shown = int(str(row["shown_bytes"]))
    totals = _gain_json()["totals"]
    assert isinstance(totals, dict)
    assert totals["net_saved_tokens"] == _est(10240) - _est(shown) - _est(10240) < 0


def test_unknown_host_books_raw_minus_shown_minus_reread() -> None:
    _run_and_expand(dict(ESTIMATE), ["--full"])
    (row,) = _rows()
    assert row["agent"] == "unknown" and row["cap_chars"] is None
    assert row["cf_bytes"] == SEQ_BYTES and row["reread_ctx_bytes"] == SEQ_BYTES
    data = _gain_json()
    totals = data["totals"]
    assert isinstance(totals, dict)
    shown = int(str(row["shown_bytes"]))
    assert totals["net_saved_tokens"] == _est(SEQ_BYTES) - _est(shown) - _est(SEQ_BYTES)
    assert totals["uncapped_runs"] == 1
    text = run_rtok(["gain"], env={**ESTIMATE, "COLUMNS": "120"}).stdout.decode()
    assert "not known: counted as uncapped" in text


def test_without_expand_the_saving_is_the_cap_minus_shown() -> None:
    _run_and_expand({"CLAUDECODE": "1", **ESTIMATE})
    (row,) = _rows()
    totals = _gain_json()["totals"]
    assert isinstance(totals, dict)
    assert totals["net_saved_tokens"] == _est(2000) - _est(int(str(row["shown_bytes"])))
    assert totals["reread_tokens"] == 0


def test_partial_expands_add_up_and_cap_env_and_rtok_agent_choose_the_cap() -> None:
    env = {"CLAUDECODE": "1", "BASH_MAX_OUTPUT_LENGTH": "50000", **ESTIMATE}
    entry_id = _run_and_expand(env, ["--lines", "10"])
    assert run_rtok(["expand", entry_id, "--grep", "^29999.$"], env=env).returncode == 0
    (row,) = _rows()
    assert row["cap_chars"] == 50000 and row["cf_bytes"] == 2000  # over it: the preview
    first_ten = len("".join(f"{i}\n" for i in range(1, 11)))
    grep = len("".join(f"{n}:{n}\n" for n in range(299990, 300000)))
    assert row["reread_bytes"] == first_ten + grep and row["rereads"] == 2
    _run_and_expand({"RTOK_AGENT": "codex", "CLAUDECODE": "1", **ESTIMATE})
    assert _rows()[-1]["agent"] == "codex" and _rows()[-1]["cf_bytes"] == 10240


def _copy_v1_ledger() -> None:
    """ledger-v1.sqlite3 was written by the ledger code of schema 1 (two rows: `git log`
    40000 -> 1000 bytes archived as abcdef123456, `ls -la` 400 -> 400, dated 2023: their
    times are moved to now, or the 90-day retention would drop them)."""
    paths.private_dir(paths.data_dir())
    shutil.copy(FIXTURES / "ledger-v1.sqlite3", paths.ledger_db())
    conn = sqlite3.connect(paths.ledger_db())
    assert conn.execute("PRAGMA user_version").fetchone()[0] == 1
    conn.execute("UPDATE runs SET time = ? + id", (time.time() - 3600,))
    conn.commit()
    conn.close()


def test_version_1_ledger_is_upgraded_in_place() -> None:
    _copy_v1_ledger()
    data = _gain_json()
    conn = sqlite3.connect(paths.ledger_db())
    assert conn.execute("PRAGMA user_version").fetchone()[0] == ledger.SCHEMA_VERSION == 2
    conn.close()
    rows = _rows()
    assert [
        (r["command"], r["agent"], r["cap_chars"], r["cf_bytes"], r["reread_bytes"]) for r in rows
    ] == [("git log", "unknown", None, 40000, 0), ("ls -la", "unknown", None, 400, 0)]
    totals = data["totals"]
    assert isinstance(totals, dict)
    assert totals["runs"] == 2 and totals["net_saved_tokens"] == 10000 - 250
    assert totals["uncapped_runs"] == 2
    # New rows go in beside the old ones, and an expand of an old entry is booked.
    assert ledger.add_reread("abcdef123456", 100, None)
    ledger.write(ledger.Row("git status", "git", "run", 800, 200, 1, 0, "/p"))
    assert [r["reread_bytes"] for r in _rows()] == [100, 0, 0]


def test_version_1_ledger_is_upgraded_through_the_archive_transaction() -> None:
    _copy_v1_ledger()
    _run_and_expand({"CLAUDECODE": "1"})  # the row goes in with the archive entry
    rows = _rows()
    assert len(rows) == 3 and rows[-1]["agent"] == "claude" and rows[-1]["archive_id"]


def test_version_1_pending_lines_are_still_read() -> None:
    paths.private_dir(paths.data_dir())
    with open(paths.ledger_pending(), "w") as handle:
        handle.write(json.dumps([time.time(), "ls", "ls", "run", 80, 80, 1, 0, "/p"]) + "\n")
        handle.write('[1, "torn"\n')
    ledger.write(None)
    (row,) = _rows()
    assert row["command"] == "ls" and row["agent"] == "unknown" and row["cf_bytes"] == 80


BLOCKERS = {
    "tiktoken.py": "raise ImportError('not installed')\n",
    "bpe_openai.py": "raise ImportError('not installed')\n",
}


def _without_tokenizers(tmp_path: Path) -> dict[str, str]:
    blockers = tmp_path / "no-tokenizers"
    blockers.mkdir()
    for name, text in BLOCKERS.items():
        (blockers / name).write_text(text)
    return {"PYTHONPATH": str(blockers)}


def test_gain_counts_with_the_installed_tokenizer() -> None:
    import bpe_openai  # noqa: F401 (the `test` extra installs it; missing = a failure)

    _run_and_expand({"CLAUDECODE": "1"}, ["--full"])
    result = run_rtok(["gain", "--json"])
    data = json.loads(result.stdout)
    assert data["tokenizer"]["installed"] == "bpe-openai o200k_base"
    assert data["tokenizer"]["rows_by_method"] == {"bpe-openai o200k_base": 1}
    totals = data["totals"]
    # Real counts differ from bytes / 4 for this output (digits and newlines).
    assert totals["raw_tokens"] != _est(SEQ_BYTES) and totals["raw_tokens"] > 0
    assert totals["counterfactual_tokens"] < totals["raw_tokens"]
    # The full re-read reached Claude cut like the counterfactual: net = -shown.
    assert totals["reread_tokens"] == totals["counterfactual_tokens"]
    assert totals["net_saved_tokens"] == -totals["shown_tokens"]
    text = run_rtok(["gain"], env={"COLUMNS": "120"}).stdout.decode()
    assert "1 rows by bpe-openai o200k_base" in text


def test_gain_estimates_when_no_tokenizer_is_installed(tmp_path: Path) -> None:
    env = _without_tokenizers(tmp_path)
    _run_and_expand({"CLAUDECODE": "1", **env})
    data = json.loads(run_rtok(["gain", "--json"], env=env).stdout)
    assert data["tokenizer"]["installed"] is None
    assert data["tokenizer"]["rows_by_method"] == {"estimate": 1}
    assert data["totals"]["raw_tokens"] == _est(SEQ_BYTES)
    text = run_rtok(["gain"], env={**env, "COLUMNS": "120"}).stdout.decode()
    assert "estimated as bytes / 4 (no tokenizer installed" in text


def test_corrupt_ledger_never_blocks_a_run() -> None:
    paths.private_dir(paths.data_dir())
    Path(paths.ledger_db()).write_bytes(os.urandom(8192))
    entry_id = _run_and_expand({"CLAUDECODE": "1"}, ["--full"])  # printed, archived, read
    assert len(run_rtok(["expand", entry_id]).stdout) == SEQ_BYTES
    queued = Path(paths.ledger_pending()).read_text()
    assert entry_id in queued  # the row waits for a ledger that works
    result = run_rtok(["gain"])
    assert result.returncode == 2 and b"cannot be read" in result.stderr
    assert run_rtok(["gain", "--reset", "--yes"]).returncode == 0
    ledger.write(None)
    assert _rows() == []  # the queued rows went with the reset


def test_locked_ledger_never_blocks_a_run() -> None:
    ledger.write(ledger.Row("x", "x", "run", 4, 4, 1, 0, "/p"))
    holder = sqlite3.connect(paths.ledger_db(), isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    holder.execute(
        "INSERT INTO runs (time, command, family, source, raw_bytes, shown_bytes,"
        " raw_tokens, shown_tokens, exec_ms, project) VALUES"
        " (0, 'y', 'y', 'run', 1, 1, 1, 1, 1, '/p')"
    )
    try:
        entry_id = _run_and_expand({"CLAUDECODE": "1"})
        assert entry_id in Path(paths.ledger_pending()).read_text()
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    ledger.write(None)
    rows = _rows()
    assert [r["archive_id"] for r in rows] == [None, entry_id]
    assert rows[-1]["agent"] == "claude" and rows[-1]["cf_bytes"] == 2000


def test_row_cap_holds_under_100k_runs() -> None:
    ledger.write(ledger.Row("first", "git", "run", 4, 4, 1, 0, "/p"))
    conn = ledger.open_ledger()
    sizes = []
    try:
        now = time.time()
        for batch in range(10):
            conn.execute("BEGIN")
            for i in range(10_000):
                row = ledger.Row(
                    f"git log {i}",
                    "git",
                    "run",
                    40_000,
                    1_000,
                    3,
                    0,
                    "/work/project",
                    now=now + batch,
                    agent="claude",
                    session="s",
                    cap_chars=30000,
                )
                ledger.insert(conn, "main", row, "abcdef123456")
            conn.execute("COMMIT")
            conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            sizes.append(os.path.getsize(paths.ledger_db()))
        count = conn.execute("SELECT COUNT(*) FROM runs").fetchone()[0]
        first = conn.execute("SELECT COUNT(*) FROM runs WHERE command = 'first'").fetchone()[0]
    finally:
        conn.close()
    assert count == ledger.MAX_ROWS and first == 0
    # Past the cap the file stops growing: freed pages are used again.
    assert sizes[-1] <= sizes[5] * 1.05
    assert stat.S_IMODE(os.stat(paths.ledger_db()).st_mode) == 0o600
    assert stat.S_IMODE(os.stat(paths.data_dir()).st_mode) == 0o700


def test_rtok_run_through_the_launcher_has_no_tokenizer_cost() -> None:
    # The run books the estimate whatever is installed: recounting is `rtok gain`'s job.
    _run_and_expand({"CLAUDECODE": "1"})
    (row,) = _rows()
    assert row["tokenizer"] == "estimate"
    assert row["raw_tokens"] == _est(SEQ_BYTES)
