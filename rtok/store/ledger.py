"""The savings ledger: one row per shortened (or passed-through) output.

Stdlib only (hot path). Each row books, in bytes and estimated tokens (ceil(bytes / 4);
`rtok gain` recounts with a real tokenizer where one is installed, see rtok/store/tokens.py):
the raw output, what was shown, and the counterfactual: what the agent the run was for
would have put in its context without rtok, the raw output cut at that agent's own
tool-result cap (rtok/store/host.py; an agent whose cap is not known counts as uncapped).
`rtok expand` adds what it wrote back to the row of the entry it read (`add_reread`): in
bytes, and in bytes as they reached the agent (each expand cut at the same cap). The net
saving of a row is counterfactual - shown - re-read in context, and may be negative.

Rows older than 90 days are deleted on every write and at most `MAX_ROWS` are kept (the
oldest go first), so the file maintains itself. Schema version 2 added the agent, session,
cap, counterfactual and re-read columns; a version 1 file is upgraded in place when it is
next opened (its rows: agent `unknown`, uncapped, counterfactual = raw).

A run whose output was shortened writes its row in the archive's transaction. A run left
uncut never loads SQLite (the extension alone costs more than the rest of such a run): its
row is appended as one JSON line to `ledger.pending` (O_APPEND, 0600), and the next
transaction that writes the ledger, or `rtok gain`, moves the pending rows into the
database. The file is claimed by renaming it first, so a row is never counted twice; a
process killed between the claim and its commit loses the rows it claimed.
"""

from __future__ import annotations

import time

from rtok import paths
from rtok._fast import oslite as os
from rtok.store import host
from rtok.store.db import FILE_MODE, connect, release

TYPE_CHECKING = False
if TYPE_CHECKING:
    import sqlite3

RETENTION_DAYS = 90
MAX_ROWS = 50_000
SCHEMA_VERSION = 2
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
    archive_id TEXT,
    agent TEXT NOT NULL DEFAULT 'unknown',
    session TEXT NOT NULL DEFAULT '',
    cap_chars INTEGER,
    cf_bytes INTEGER NOT NULL DEFAULT 0,
    cf_tokens INTEGER NOT NULL DEFAULT 0,
    reread_bytes INTEGER NOT NULL DEFAULT 0,
    reread_ctx_bytes INTEGER NOT NULL DEFAULT 0,
    rereads INTEGER NOT NULL DEFAULT 0,
    tokenizer TEXT NOT NULL DEFAULT 'estimate'
);
CREATE INDEX IF NOT EXISTS runs_time ON runs (time);
CREATE INDEX IF NOT EXISTS runs_project ON runs (project);
CREATE INDEX IF NOT EXISTS runs_archive ON runs (archive_id)
"""
UPGRADES = {
    2: """
ALTER TABLE runs ADD COLUMN agent TEXT NOT NULL DEFAULT 'unknown';
ALTER TABLE runs ADD COLUMN session TEXT NOT NULL DEFAULT '';
ALTER TABLE runs ADD COLUMN cap_chars INTEGER;
ALTER TABLE runs ADD COLUMN cf_bytes INTEGER NOT NULL DEFAULT 0;
ALTER TABLE runs ADD COLUMN cf_tokens INTEGER NOT NULL DEFAULT 0;
ALTER TABLE runs ADD COLUMN reread_bytes INTEGER NOT NULL DEFAULT 0;
ALTER TABLE runs ADD COLUMN reread_ctx_bytes INTEGER NOT NULL DEFAULT 0;
ALTER TABLE runs ADD COLUMN rereads INTEGER NOT NULL DEFAULT 0;
ALTER TABLE runs ADD COLUMN tokenizer TEXT NOT NULL DEFAULT 'estimate';
UPDATE runs SET cf_bytes = raw_bytes, cf_tokens = raw_tokens;
CREATE INDEX IF NOT EXISTS runs_archive ON runs (archive_id)
"""
}
COMMAND_CHARS = 300


def estimate_tokens(size: int) -> int:
    return (size + 3) // 4


def open_ledger() -> sqlite3.Connection:
    return connect(paths.ledger_db(), SCHEMA, SCHEMA_VERSION, UPGRADES)


class Row:
    """One ledger row before it is written (the archive id is added at write time)."""

    __slots__ = (
        "agent",
        "cap_chars",
        "command",
        "exec_ms",
        "exit_code",
        "family",
        "project",
        "raw_bytes",
        "session",
        "shown_bytes",
        "source",
        "time",
    )

    def __init__(
        self,
        command: str,
        family: str,
        source: str,
        raw_bytes: int,
        shown_bytes: int,
        exec_ms: int,
        exit_code: int | None,
        project: str,
        now: float | None = None,
        agent: str | None = None,
        session: str | None = None,
        cap_chars: int | str | None = "env",
    ) -> None:
        """`agent`, `session` and `cap_chars` default to what the environment says
        (rtok.store.host); `cap_chars=None` means not known (uncapped)."""
        self.command = command[:COMMAND_CHARS]
        self.family = family
        self.source = source
        self.raw_bytes = raw_bytes
        self.shown_bytes = shown_bytes
        self.exec_ms = exec_ms
        self.exit_code = exit_code
        self.project = project
        self.time = time.time() if now is None else now
        self.agent = host.agent() if agent is None else agent
        self.session = host.session(self.agent) if session is None else session
        self.cap_chars = host.cap(self.agent) if cap_chars == "env" else cap_chars

    @property
    def cf_bytes(self) -> int:
        cap = self.cap_chars
        return host.counterfactual(
            self.raw_bytes, cap if isinstance(cap, int) else None, host.over_cap(self.agent)
        )


# A row's own fields, in the order of a pending line (which ends with the archive id; a
# line written before schema 2 stops after `project`), all of them columns of `runs`.
_ROW_COLUMNS = (
    "time",
    "command",
    "family",
    "source",
    "raw_bytes",
    "shown_bytes",
    "exec_ms",
    "exit_code",
    "project",
    "agent",
    "session",
    "cap_chars",
)
# The columns an insert fills: the row's fields and what is worked out when it is written.
_INSERT_COLUMNS = (
    *_ROW_COLUMNS,
    "archive_id",
    "raw_tokens",
    "shown_tokens",
    "cf_bytes",
    "cf_tokens",
)
_INSERT = (
    f"INSERT INTO {{schema}}.runs ({', '.join(_INSERT_COLUMNS)})"
    f" VALUES ({', '.join(':' + name for name in _INSERT_COLUMNS)})"
)


def insert(conn: sqlite3.Connection, schema: str, row: Row, archive_id: str | None) -> None:
    """Add `row` and drop rows past the retention and the row cap, inside the caller's
    transaction."""
    values = {name: getattr(row, name) for name in _ROW_COLUMNS}
    cf_bytes = row.cf_bytes
    values.update(
        archive_id=archive_id,
        raw_tokens=estimate_tokens(row.raw_bytes),
        shown_tokens=estimate_tokens(row.shown_bytes),
        cf_bytes=cf_bytes,
        cf_tokens=estimate_tokens(cf_bytes),
    )
    cursor = conn.execute(_INSERT.format(schema=schema), values)
    conn.execute(
        f"DELETE FROM {schema}.runs WHERE time < ? OR id <= ?",
        (row.time - RETENTION_DAYS * 86400, int(cursor.lastrowid or 0) - MAX_ROWS),
    )


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


# The pending file stops growing here (a ledger that stays broken is not emptied into it).
MAX_PENDING_BYTES = 8 * 1024 * 1024


def append_pending(row: Row, archive_id: str | None = None) -> None:
    """Queue `row` for the database without opening it (one write of one line)."""
    from rtok._fast import fastjson

    fields = [getattr(row, name) for name in _ROW_COLUMNS]
    line = fastjson.dumps([*fields, archive_id], separators=(",", ":")) + "\n"
    path = paths.ledger_pending()
    paths.private_dir(os.path.dirname(path))
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_CLOEXEC, FILE_MODE)
    try:
        if os.fstat(fd).st_size < MAX_PENDING_BYTES:
            os.write(fd, line.encode("utf-8", "surrogateescape"))
    finally:
        os.close(fd)


def restore_claimed(claimed: str | None) -> None:
    """Put a claimed pending file back (its rows could not be inserted after all)."""
    if claimed is None:
        return
    try:
        with open(claimed, "rb") as handle:
            data = handle.read()
        path = paths.ledger_pending()
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_CLOEXEC, FILE_MODE)
        try:
            os.write(fd, data)
        finally:
            os.close(fd)
        os.unlink(claimed)
    except OSError:
        pass


def fold_pending(conn: sqlite3.Connection, schema: str) -> str | None:
    """Insert the pending rows inside the caller's transaction; the claimed file to delete
    after COMMIT (`done_with`), or None when there was nothing pending."""
    path = paths.ledger_pending()
    claimed = f"{path}.{os.getpid()}"
    try:
        os.rename(path, claimed)
    except OSError:
        return None

    with open(claimed, "rb") as handle:
        lines = handle.read().split(b"\n")
    for raw in lines:
        parsed = _pending_row(raw)
        if parsed is not None:
            insert(conn, schema, parsed[0], parsed[1])
    return claimed


def _pending_row(raw: bytes) -> tuple[Row, str | None] | None:
    """The row of one pending line and its archive id (a line written before schema 2 has
    9 fields: its agent is unknown), or None for an empty or torn line."""
    from rtok._fast import fastjson

    try:
        fields = fastjson.loads(raw.decode("utf-8", "surrogateescape"))
        (stamp, command, family, source, raw_bytes, shown_bytes, exec_ms, exit_code, project) = (
            fields[:9]
        )
        agent, session, cap = fields[9:12] if len(fields) >= 12 else (host.UNKNOWN, "", None)
        archive_id = fields[12] if len(fields) >= 13 and fields[12] else None
        row = Row(
            str(command),
            str(family),
            str(source),
            int(raw_bytes),
            int(shown_bytes),
            int(exec_ms),
            None if exit_code is None else int(exit_code),
            str(project),
            float(stamp),
            str(agent),
            str(session),
            None if cap is None else int(cap),
        )
        return row, None if archive_id is None else str(archive_id)
    except (ValueError, TypeError):
        return None


def done_with(claimed: str | None) -> None:
    if claimed is not None:
        try:  # noqa: SIM105 (contextlib costs start-up time)
            os.unlink(claimed)
        except OSError:
            pass


def add_reread(
    archive_id: str, written: int, cap_chars: int | None, preview_chars: int | None = None
) -> bool:
    """Book `written` bytes that `rtok expand` wrote back from entry `archive_id` against
    the latest run that archived it (the agent got at most `cap_chars` of them, or the
    `preview_chars` it keeps of a result over the cap); False when no run of the ledger
    archived it."""
    in_context = host.counterfactual(written, cap_chars, preview_chars)
    conn = open_ledger()
    try:
        cursor = conn.execute(
            "UPDATE runs SET reread_bytes = reread_bytes + ?,"
            " reread_ctx_bytes = reread_ctx_bytes + ?, rereads = rereads + 1"
            " WHERE id = (SELECT id FROM runs WHERE archive_id = ?"
            " ORDER BY time DESC, id DESC LIMIT 1)",
            (written, in_context, archive_id),
        )
        return bool(cursor.rowcount)
    finally:
        release(conn)
