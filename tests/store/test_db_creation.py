"""Many rtok processes creating the store at the same moment: each one must get it.

SQLite refuses a switch to WAL at once ("database is locked", no busy handler) while
another connection is switching or creating the same file; `db.connect` must wait for it.
"""

from __future__ import annotations

import multiprocessing
from pathlib import Path

from rtok.store import db

TYPE_CHECKING = False
if TYPE_CHECKING:
    from multiprocessing.queues import Queue
    from multiprocessing.synchronize import Barrier

SCHEMA = "CREATE TABLE IF NOT EXISTS t (x INTEGER); CREATE TABLE IF NOT EXISTS u (y TEXT)"
ROUNDS = 30
OPENERS = 12


def _open_one(path: str, start: Barrier, errors: Queue[str]) -> None:
    start.wait()
    try:
        db.connect(path, SCHEMA, 1).close()
    except Exception as exc:  # the failure this test is about
        errors.put(repr(exc))


def _open_all_at_once(path: Path) -> list[str]:
    """Separate processes (forked: cheap), released together by a barrier."""
    context = multiprocessing.get_context("fork")
    start = context.Barrier(OPENERS, timeout=30)
    errors: Queue[str] = context.Queue()
    openers = [
        context.Process(target=_open_one, args=(str(path), start, errors)) for _ in range(OPENERS)
    ]
    for opener in openers:
        opener.start()
    for opener in openers:
        opener.join(60)
    assert all(opener.exitcode == 0 for opener in openers)
    found = []
    while not errors.empty():
        found.append(errors.get(timeout=5))
    return found


def test_concurrent_creation_never_fails(tmp_path: Path) -> None:
    failures = []
    for n in range(ROUNDS):
        path = tmp_path / f"store{n}.db"
        failures += _open_all_at_once(path)
        conn = db.connect(str(path), SCHEMA, 1)
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert conn.execute("PRAGMA user_version").fetchone()[0] == 1
        conn.close()
    assert failures == []
