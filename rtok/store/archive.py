"""The raw-output archive: content-addressed, gzip-compressed, capped, written as it streams.

Stdlib only (hot path). An entry's id is the first 12 hex digits of the SHA-256 of the whole
output. Bytes are stored as one gzip stream split into pieces of about 256 KiB, each piece
inserted in its own short transaction, so a long-running command never holds the write lock
and memory stays bounded. Only the first `max_entry_bytes` are stored; the rest of a larger
output is counted and hashed, and the entry says it is incomplete.
"""

from __future__ import annotations

import time
import zlib

from rtok import paths
from rtok.store.db import connect

TYPE_CHECKING = False
if TYPE_CHECKING:
    import sqlite3
    from collections.abc import Iterator
    from typing import Any

ID_LENGTH = 12
PIECE_BYTES = 256 * 1024
SCHEMA_VERSION = 1
SCHEMA = """
CREATE TABLE IF NOT EXISTS entries (
    key INTEGER PRIMARY KEY,
    id TEXT UNIQUE,
    created REAL NOT NULL,
    command TEXT NOT NULL,
    family TEXT NOT NULL,
    exit_code INTEGER,
    raw_bytes INTEGER NOT NULL DEFAULT 0,
    stored_bytes INTEGER NOT NULL DEFAULT 0,
    lines INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS entries_created ON entries (created);
CREATE TABLE IF NOT EXISTS pieces (
    entry INTEGER NOT NULL REFERENCES entries (key) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    data BLOB NOT NULL,
    PRIMARY KEY (entry, seq)
)
"""
# A half-written entry (its writer died) is removed after this many seconds.
PENDING_GRACE_S = 6 * 3600


def open_archive() -> sqlite3.Connection:
    return connect(paths.archive_db(), SCHEMA, SCHEMA_VERSION)


def content_id(sha256_hex: str) -> str:
    return sha256_hex[:ID_LENGTH]


class ArchiveWriter:
    """Streams one output into the archive; `finish` names it by its content hash."""

    __slots__ = ("_buffer", "_command", "_compressor", "_conn", "_family", "_key", "_seq",
                 "cap", "stored")

    def __init__(self, command: str, family: str, cap: int) -> None:
        self._command = command
        self._family = family
        self.cap = cap
        self.stored = 0
        self._conn: sqlite3.Connection | None = None
        self._key = 0
        self._seq = 0
        self._buffer = bytearray()
        self._compressor = zlib.compressobj(6, zlib.DEFLATED, 31)

    def _open(self) -> sqlite3.Connection:
        if self._conn is None:
            self._conn = open_archive()
            cursor = self._conn.execute(
                "INSERT INTO entries (id, created, command, family) VALUES (NULL, ?, ?, ?)",
                (time.time(), self._command, self._family),
            )
            self._key = int(cursor.lastrowid or 0)
        return self._conn

    def write(self, data: bytes) -> None:
        """Store `data` (the part of it that still fits under the cap)."""
        room = self.cap - self.stored
        if room <= 0 or not data:
            return
        if len(data) > room:
            data = data[:room]
        self.stored += len(data)
        self._buffer += self._compressor.compress(data)
        if len(self._buffer) >= PIECE_BYTES:
            self._flush_piece()

    def _flush_piece(self) -> None:
        conn = self._open()
        conn.execute("INSERT INTO pieces (entry, seq, data) VALUES (?, ?, ?)",
                     (self._key, self._seq, bytes(self._buffer)))
        self._seq += 1
        self._buffer.clear()

    def finish(self, sha256_hex: str, raw_bytes: int, lines: int, exit_code: int,
               max_entries: int, max_age_days: int) -> str:
        """Name the entry, replace an older entry of the same content, apply the caps."""
        entry_id = content_id(sha256_hex)
        self._buffer += self._compressor.flush()
        self._flush_piece()
        conn = self._open()
        conn.execute("BEGIN IMMEDIATE")
        try:
            conn.execute("DELETE FROM entries WHERE id = ?", (entry_id,))
            conn.execute(
                "UPDATE entries SET id = ?, created = ?, exit_code = ?, raw_bytes = ?,"
                " stored_bytes = ?, lines = ? WHERE key = ?",
                (entry_id, time.time(), exit_code, raw_bytes, self.stored, lines, self._key),
            )
            prune(conn, max_entries, max_age_days)
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        return entry_id

    def abandon(self) -> None:
        if self._conn is not None:
            self._conn.execute("DELETE FROM entries WHERE key = ?", (self._key,))
            self._conn.close()
            self._conn = None

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None


def prune(conn: sqlite3.Connection, max_entries: int, max_age_days: int) -> None:
    now = time.time()
    conn.execute("DELETE FROM entries WHERE (id IS NOT NULL AND created < ?)"
                 " OR (id IS NULL AND created < ?)",
                 (now - max_age_days * 86400, now - PENDING_GRACE_S))
    conn.execute("DELETE FROM entries WHERE id IS NOT NULL AND key NOT IN"
                 " (SELECT key FROM entries WHERE id IS NOT NULL"
                 "  ORDER BY created DESC, key DESC LIMIT ?)", (max_entries,))


class Entry:
    __slots__ = ("command", "created", "exit_code", "family", "id", "key", "lines",
                 "raw_bytes", "stored_bytes")

    key: int
    id: str
    created: float
    command: str
    family: str
    exit_code: int | None
    raw_bytes: int
    stored_bytes: int
    lines: int

    def __init__(self, row: tuple[Any, ...]) -> None:
        (self.key, self.id, self.created, self.command, self.family, self.exit_code,
         self.raw_bytes, self.stored_bytes, self.lines) = row

    @property
    def complete(self) -> bool:
        return self.stored_bytes == self.raw_bytes


_COLUMNS = "key, id, created, command, family, exit_code, raw_bytes, stored_bytes, lines"


def find_entries(conn: sqlite3.Connection, prefix: str) -> list[Entry]:
    """Entries whose id starts with `prefix` (hex digits only)."""
    if not prefix or any(c not in "0123456789abcdef" for c in prefix):
        return []
    rows = conn.execute(f"SELECT {_COLUMNS} FROM entries WHERE id >= ? AND id < ?"
                        " ORDER BY created DESC", (prefix, prefix + "g")).fetchall()
    return [Entry(row) for row in rows]


def list_entries(conn: sqlite3.Connection) -> list[Entry]:
    rows = conn.execute(f"SELECT {_COLUMNS} FROM entries WHERE id IS NOT NULL"
                        " ORDER BY created DESC, key DESC").fetchall()
    return [Entry(row) for row in rows]


def iter_raw(conn: sqlite3.Connection, key: int) -> Iterator[bytes]:
    """The stored bytes of one entry, decompressed piece by piece."""
    decompressor = zlib.decompressobj(31)
    cursor = conn.execute("SELECT data FROM pieces WHERE entry = ? ORDER BY seq", (key,))
    for (data,) in cursor:
        chunk = decompressor.decompress(data)
        if chunk:
            yield chunk
    tail = decompressor.flush()
    if tail:
        yield tail
