"""The savings ledger: one row per shortened (or passed-through) output.

Stdlib only for `record` (hot path). Estimated tokens are ceil(bytes / 4). Rows older than
90 days are deleted on every write, so the file maintains itself.
"""

from __future__ import annotations

import time

from rtok import paths
from rtok.store.db import connect

TYPE_CHECKING = False
if TYPE_CHECKING:
    import sqlite3

RETENTION_DAYS = 90
SCHEMA_VERSION = 1
SCHEMA = """
CREATE TABLE IF NOT EXISTS runs (
    id INTEGER PRIMARY KEY,
    time REAL NOT NULL,
    command TEXT NOT NULL,
    family TEXT NOT NULL,
    source TEXT NOT NULL,
    raw_bytes INTEGER NOT NULL,
    shown_bytes INTEGER NOT NULL,
    raw_tokens INTEGER NOT NULL,
    shown_tokens INTEGER NOT NULL,
    exec_ms INTEGER NOT NULL,
    exit_code INTEGER,
    project TEXT NOT NULL,
    archive_id TEXT
);
CREATE INDEX IF NOT EXISTS runs_time ON runs (time);
CREATE INDEX IF NOT EXISTS runs_project ON runs (project)
"""
COMMAND_CHARS = 300


def estimate_tokens(size: int) -> int:
    return (size + 3) // 4


def open_ledger() -> sqlite3.Connection:
    return connect(paths.ledger_db(), SCHEMA, SCHEMA_VERSION)


def record(command: str, family: str, source: str, raw_bytes: int, shown_bytes: int,
           exec_ms: int, exit_code: int | None, project: str, archive_id: str | None,
           now: float | None = None) -> None:
    stamp = time.time() if now is None else now
    conn = open_ledger()
    try:
        conn.execute("BEGIN IMMEDIATE")
        conn.execute(
            "INSERT INTO runs (time, command, family, source, raw_bytes, shown_bytes,"
            " raw_tokens, shown_tokens, exec_ms, exit_code, project, archive_id)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (stamp, command[:COMMAND_CHARS], family, source, raw_bytes, shown_bytes,
             estimate_tokens(raw_bytes), estimate_tokens(shown_bytes), exec_ms, exit_code,
             project, archive_id),
        )
        conn.execute("DELETE FROM runs WHERE time < ?", (stamp - RETENTION_DAYS * 86400,))
        conn.execute("COMMIT")
    finally:
        conn.close()
