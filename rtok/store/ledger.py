"""The savings ledger: one row per shortened (or passed-through) output.

Stdlib only (hot path). Estimated tokens are ceil(bytes / 4). Rows older than 90 days are
deleted on every write, so the file maintains itself.

A run whose output was shortened writes its row in the archive's transaction. A run left
uncut never loads SQLite (the extension alone costs more than the rest of such a run): its
row is appended as one JSON line to `ledger.pending` (O_APPEND, 0600), and the next
transaction that writes the ledger, or `rtok gain`, moves the pending rows into the
database. The file is claimed by renaming it first, so a row is never counted twice; a
process killed between the claim and its commit loses the rows it claimed.
"""

from __future__ import annotations

import time

from rtok import oslite as os
from rtok import paths
from rtok.store.db import FILE_MODE, connect, release

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


class Row:
    """One ledger row before it is written (the archive id is added at write time)."""

    __slots__ = ("command", "exec_ms", "exit_code", "family", "project", "raw_bytes",
                 "shown_bytes", "source", "time")

    def __init__(self, command: str, family: str, source: str, raw_bytes: int,
                 shown_bytes: int, exec_ms: int, exit_code: int | None, project: str,
                 now: float | None = None) -> None:
        self.command = command[:COMMAND_CHARS]
        self.family = family
        self.source = source
        self.raw_bytes = raw_bytes
        self.shown_bytes = shown_bytes
        self.exec_ms = exec_ms
        self.exit_code = exit_code
        self.project = project
        self.time = time.time() if now is None else now


def insert(conn: sqlite3.Connection, schema: str, row: Row, archive_id: str | None) -> None:
    """Add `row` and drop rows past the retention, inside the caller's transaction."""
    conn.execute(
        f"INSERT INTO {schema}.runs (time, command, family, source, raw_bytes, shown_bytes,"
        " raw_tokens, shown_tokens, exec_ms, exit_code, project, archive_id)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (row.time, row.command, row.family, row.source, row.raw_bytes, row.shown_bytes,
         estimate_tokens(row.raw_bytes), estimate_tokens(row.shown_bytes), row.exec_ms,
         row.exit_code, row.project, archive_id),
    )
    conn.execute(f"DELETE FROM {schema}.runs WHERE time < ?",
                 (row.time - RETENTION_DAYS * 86400,))


def write(row: Row | None, archive_id: str | None = None) -> None:
    """Record `row` (None: only the pending rows) in its own transaction."""
    conn = open_ledger()
    try:
        conn.execute("BEGIN IMMEDIATE")
        try:
            claimed = fold_pending(conn, "main")
            if row is not None:
                insert(conn, "main", row, archive_id)
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        done_with(claimed)
    finally:
        release(conn)


def append_pending(row: Row) -> None:
    """Queue `row` for the database without opening it (one write of one line)."""
    from rtok import fastjson

    line = fastjson.dumps([row.time, row.command, row.family, row.source, row.raw_bytes,
                           row.shown_bytes, row.exec_ms, row.exit_code, row.project],
                          separators=(",", ":")) + "\n"
    path = paths.ledger_pending()
    paths.private_dir(os.path.dirname(path))
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_CLOEXEC, FILE_MODE)
    try:
        os.write(fd, line.encode("utf-8", "surrogateescape"))
    finally:
        os.close(fd)


def fold_pending(conn: sqlite3.Connection, schema: str) -> str | None:
    """Insert the pending rows inside the caller's transaction; the claimed file to delete
    after COMMIT (`done_with`), or None when there was nothing pending."""
    path = paths.ledger_pending()
    claimed = f"{path}.{os.getpid()}"
    try:
        os.rename(path, claimed)
    except OSError:
        return None
    from rtok import fastjson

    with open(claimed, "rb") as handle:
        lines = handle.read().split(b"\n")
    for raw in lines:
        try:
            (stamp, command, family, source, raw_bytes, shown_bytes, exec_ms, exit_code,
             project) = fastjson.loads(raw.decode("utf-8", "surrogateescape"))
            row = Row(str(command), str(family), str(source), int(raw_bytes),
                      int(shown_bytes), int(exec_ms),
                      None if exit_code is None else int(exit_code), str(project),
                      float(stamp))
        except (ValueError, TypeError):
            continue  # an empty or torn line
        insert(conn, schema, row, None)
    return claimed


def done_with(claimed: str | None) -> None:
    if claimed is not None:
        try:  # noqa: SIM105 (contextlib costs start-up time)
            os.unlink(claimed)
        except OSError:
            pass


def record(command: str, family: str, source: str, raw_bytes: int, shown_bytes: int,
           exec_ms: int, exit_code: int | None, project: str, archive_id: str | None,
           now: float | None = None) -> None:
    write(Row(command, family, source, raw_bytes, shown_bytes, exec_ms, exit_code, project,
              now), archive_id)
