"""Opening rtok's SQLite files: WAL, a busy timeout, the schema created once per file.

Stdlib only (hot path). SQLite does its own locking; concurrent `rtok run` processes each
write in short autocommit transactions and wait (busy timeout) for one another.
"""

from __future__ import annotations

import os
import sqlite3

BUSY_TIMEOUT_MS = 10_000


def connect(path: str, schema: str, version: int) -> sqlite3.Connection:
    """A connection to `path` with `schema` applied when its user_version is older."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    conn = sqlite3.connect(path, timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None)
    conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    current = conn.execute("PRAGMA user_version").fetchone()[0]
    if current < version:
        conn.execute("PRAGMA journal_mode = WAL")
        conn.execute("BEGIN IMMEDIATE")
        try:
            if conn.execute("PRAGMA user_version").fetchone()[0] < version:
                for statement in schema.split(";"):
                    if statement.strip():
                        conn.execute(statement)
                conn.execute(f"PRAGMA user_version = {version}")
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
    conn.execute("PRAGMA synchronous = NORMAL")
    conn.execute("PRAGMA foreign_keys = ON")
    return conn
