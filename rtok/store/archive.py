"""The raw-output archive: content-addressed, gzip-compressed, capped, written as it streams.

Stdlib only (hot path). An entry holds up to two streams: the command's stdout (stream 1)
and its stderr (stream 2), or one merged stream (0) when both went to the same place, as
every entry written before the streams were kept apart does. Its id is the first 12 hex
digits of a SHA-256: of the output itself for one stream, of the streams' digests for two
(`entry_digest`). Each stream is one gzip stream split into pieces of about 256 KiB. A
large output's pieces are inserted as they arrive, each in its own short transaction, so a
long-running command never holds the write lock and memory stays bounded; `finish` names
the entry and records its ledger row in one transaction.

Past the per-entry cap (`max_entry_bytes`) an entry keeps a head and a tail: the first
`head_cap(cap)` bytes of the run (three quarters of the cap, shared by its streams in the
order they were written) and, of each stream that went past it, its last `tail_cap(cap)`
bytes (a quarter of the cap, kept in a ring buffer while the output streams). An output of
at most `cap` bytes is therefore always whole. Where a stream's head and tail do not meet,
a `cuts` row records the byte range left out (`start`, `resume`) and the stream's length;
`iter_marked` puts a marker line there (`gap_marker`), `iter_raw` returns only the kept
bytes.
"""

from __future__ import annotations

import time
import zlib

from rtok import paths
from rtok.store import ledger
from rtok.store.db import attach, connect, release
from rtok.store.entry_id import ID_LENGTH as ID_LENGTH
from rtok.store.entry_id import content_id as content_id
from rtok.store.entry_id import entry_digest as entry_digest
from rtok.store.slices import Cut, head_cap, tail_cap, with_marker
from rtok.store.slices import gap_marker as gap_marker
from rtok.store.slices import kept_ranges as kept_ranges

TYPE_CHECKING = False
if TYPE_CHECKING:
    import sqlite3
    from collections.abc import Iterator
    from typing import Any

PIECE_BYTES = 256 * 1024
SCHEMA_VERSION = 3
MERGED, STDOUT, STDERR = 0, 1, 2
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
    stream INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (entry, seq)
);
CREATE TABLE IF NOT EXISTS cuts (
    entry INTEGER NOT NULL REFERENCES entries (key) ON DELETE CASCADE,
    stream INTEGER NOT NULL,
    start INTEGER NOT NULL,
    resume INTEGER NOT NULL,
    total INTEGER NOT NULL,
    PRIMARY KEY (entry, stream)
)
"""
UPGRADES = {
    2: "ALTER TABLE pieces ADD COLUMN stream INTEGER NOT NULL DEFAULT 0",
    3: SCHEMA[SCHEMA.index("CREATE TABLE IF NOT EXISTS cuts") :],
}
# A half-written entry (its writer died) is removed after this many seconds.
PENDING_GRACE_S = 6 * 3600


def open_archive() -> sqlite3.Connection:
    return connect(paths.archive_db(), SCHEMA, SCHEMA_VERSION, UPGRADES)


class _Stream:
    """One stream being archived: its gzip stream, how much of it the head holds, and the
    ring of its last bytes past the head."""

    __slots__ = ("compressor", "head", "past", "pending", "ring", "ring_bytes")

    def __init__(self) -> None:
        self.compressor = zlib.compressobj(6, zlib.DEFLATED, 31)
        self.pending = b""
        self.head = 0  # bytes of this stream in the run's head
        self.past = 0  # bytes of this stream after its head part
        self.ring: list[bytes] = []
        self.ring_bytes = 0

    def keep_tail(self, data: bytes, cap: int) -> None:
        """Add `data` to the ring, dropping whole chunks that the last `cap` bytes no
        longer need (memory: `cap` plus one chunk)."""
        self.past += len(data)
        ring = self.ring
        ring.append(data)
        self.ring_bytes += len(data)
        drop = 0
        while drop < len(ring) - 1 and self.ring_bytes - len(ring[drop]) >= cap:
            self.ring_bytes -= len(ring[drop])
            drop += 1
        if drop:
            del ring[:drop]

    def tail(self, cap: int) -> bytes:
        """The tail slice: the last `cap` bytes after the head (all of them if fewer)."""
        data = b"".join(self.ring)
        self.ring = []
        keep = min(len(data), cap)
        return data[len(data) - keep :] if keep < len(data) else data

    def cut(self, tail_bytes: int) -> Cut:
        total = self.head + self.past
        return Cut(self.head, total - tail_bytes, total)


class ArchiveWriter:
    """Streams one output into the archive; `finish` names it by its content hash."""

    __slots__ = (
        "_command",
        "_conn",
        "_family",
        "_head_room",
        "_key",
        "_ledger",
        "_seq",
        "_streams",
        "_tail_cap",
        "cap",
        "stored",
    )

    def __init__(self, command: str, family: str, cap: int) -> None:
        self._command = command
        self._family = family
        self.cap = cap
        self.stored = 0
        self._conn: sqlite3.Connection | None = None
        self._key = 0
        self._seq = 0
        self._ledger = False  # the ledger file is attached to the connection
        self._head_room = head_cap(cap)
        self._tail_cap = tail_cap(cap)
        self._streams: dict[int, _Stream] = {}

    @property
    def head_full(self) -> bool:
        """True once the run's head slice is full (later bytes only feed the tail rings)."""
        return self._head_room <= 0

    def _connect(self) -> sqlite3.Connection:
        """The archive's connection, with the ledger attached when it can be: a corrupt,
        unreadable or locked ledger never keeps an output from being archived."""
        if self._conn is None:
            conn = open_archive()
            try:
                attach(
                    conn,
                    paths.ledger_db(),
                    "ledger",
                    ledger.SCHEMA,
                    ledger.SCHEMA_VERSION,
                    ledger.UPGRADES,
                )
                self._ledger = True
            except Exception:
                try:  # noqa: SIM105 (contextlib costs start-up time)
                    conn.execute("DETACH DATABASE ledger")
                except Exception:
                    pass
            self._conn = conn
        return self._conn

    def _open(self) -> sqlite3.Connection:
        self._connect()
        assert self._conn is not None
        if not self._key:
            # A pending entry (no id yet): its pieces can be stored before it is named.
            cursor = self._conn.execute(
                "INSERT INTO entries (id, created, command, family) VALUES (NULL, ?, ?, ?)",
                (time.time(), self._command, self._family),
            )
            self._key = int(cursor.lastrowid or 0)
        return self._conn

    def write(self, data: bytes, stream: int = MERGED) -> None:
        """Store `data` of `stream`: the part that fits in the run's head, the rest in the
        stream's tail ring (stored by `finish`)."""
        if not data:
            return
        state = self._streams.get(stream)
        if state is None:
            state = self._streams[stream] = _Stream()
        room = self._head_room
        if room > 0:
            head = data[:room] if len(data) > room else data
            self._head_room -= len(head)
            self.stored += len(head)
            state.head += len(head)
            self._compress(stream, state, head)
            data = data[len(head) :]
            if not data:
                return
        state.keep_tail(data, self._tail_cap)

    def _compress(self, stream: int, state: _Stream, data: bytes) -> None:
        state.pending += state.compressor.compress(data)
        if len(state.pending) >= PIECE_BYTES:
            self._flush_piece(stream, state)

    def _flush_piece(self, stream: int, state: _Stream) -> None:
        conn = self._open()
        conn.execute(
            "INSERT INTO pieces (entry, seq, data, stream) VALUES (?, ?, ?, ?)",
            (self._key, self._seq, state.pending, stream),
        )
        self._seq += 1
        state.pending = b""

    def _store_tails(self, conn: sqlite3.Connection) -> None:
        """Each stream's tail slice after its head, and a `cuts` row where they do not meet."""
        for stream, state in sorted(self._streams.items()):
            tail = state.tail(self._tail_cap)
            if tail:
                self.stored += len(tail)
                self._compress(stream, state, tail)
            if state.past > len(tail):
                cut = state.cut(len(tail))
                conn.execute(
                    "INSERT INTO cuts (entry, stream, start, resume, total) VALUES (?, ?, ?, ?, ?)",
                    (self._key, stream, cut.start, cut.resume, cut.total),
                )

    def finish(
        self,
        sha256_hex: str,
        raw_bytes: int,
        lines: int,
        exit_code: int,
        max_entries: int,
        max_age_days: int,
        ledger_row: ledger.Row | None = None,
    ) -> str:
        """Name the entry, replace an older entry of the same content, apply the caps and
        record `ledger_row` (see `ledger.row`): one transaction."""
        entry_id = content_id(sha256_hex)
        conn = self._connect()
        self._begin(conn)
        try:
            conn = self._open()
            self._store_tails(conn)
            for stream, state in sorted(self._streams.items()):
                state.pending += state.compressor.flush()
                self._flush_piece(stream, state)
            conn.execute("DELETE FROM entries WHERE id = ?", (entry_id,))
            conn.execute(
                "UPDATE entries SET id = ?, created = ?, exit_code = ?, raw_bytes = ?,"
                " stored_bytes = ?, lines = ? WHERE key = ?",
                (entry_id, time.time(), exit_code, raw_bytes, self.stored, lines, self._key),
            )
            prune(conn, max_entries, max_age_days)
            claimed = booked = None
            if ledger_row is not None and self._ledger:
                claimed, booked = self._book(conn, ledger_row, entry_id)
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        ledger.done_with(claimed)
        if ledger_row is not None and not booked:
            self._queue(ledger_row, entry_id)
        return entry_id

    def _begin(self, conn: sqlite3.Connection) -> None:
        """BEGIN IMMEDIATE, which locks every attached file: when it times out with the
        ledger attached, the ledger is let go and the entry is written without it."""
        try:
            conn.execute("BEGIN IMMEDIATE")
        except Exception:
            if not self._ledger:
                raise
            conn.execute("DETACH DATABASE ledger")
            self._ledger = False
            conn.execute("BEGIN IMMEDIATE")

    def _book(
        self, conn: sqlite3.Connection, row: ledger.Row, entry_id: str
    ) -> tuple[str | None, bool]:
        """Insert the ledger row in the entry's transaction, inside a savepoint: a ledger
        that is locked or broken is rolled back alone. (claimed pending file, booked)."""
        conn.execute("SAVEPOINT ledger_row")
        try:
            claimed = ledger.fold_pending(conn, "ledger")
        except Exception:
            conn.execute("ROLLBACK TO ledger_row")
            conn.execute("RELEASE ledger_row")
            return None, False
        try:
            ledger.insert(conn, "ledger", row, entry_id)
        except Exception:
            conn.execute("ROLLBACK TO ledger_row")
            conn.execute("RELEASE ledger_row")
            ledger.restore_claimed(claimed)
            return None, False
        conn.execute("RELEASE ledger_row")
        return claimed, True

    @staticmethod
    def _queue(row: ledger.Row, entry_id: str) -> None:
        """The row goes to the pending file when the ledger could not take it."""
        try:  # noqa: SIM105 (contextlib costs start-up time)
            ledger.append_pending(row, entry_id)
        except Exception:
            pass

    def abandon(self) -> None:
        if self._conn is not None and self._key:
            try:  # noqa: SIM105 (contextlib costs start-up time)
                self._conn.execute("DELETE FROM entries WHERE key = ?", (self._key,))
            except Exception:
                pass  # a half-written entry is pruned after PENDING_GRACE_S
            self._conn.close()
            self._conn = None

    def close(self) -> None:
        if self._conn is not None:
            release(self._conn)
            self._conn = None


def prune(conn: sqlite3.Connection, max_entries: int, max_age_days: int) -> None:
    now = time.time()
    conn.execute(
        "DELETE FROM entries WHERE (id IS NOT NULL AND created < ?)"
        " OR (id IS NULL AND created < ?)",
        (now - max_age_days * 86400, now - PENDING_GRACE_S),
    )
    conn.execute(
        "DELETE FROM entries WHERE id IS NOT NULL AND key NOT IN"
        " (SELECT key FROM entries WHERE id IS NOT NULL"
        "  ORDER BY created DESC, key DESC LIMIT ?)",
        (max_entries,),
    )


class Entry:
    __slots__ = (
        "command",
        "created",
        "exit_code",
        "family",
        "id",
        "key",
        "lines",
        "raw_bytes",
        "stored_bytes",
    )

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
        (
            self.key,
            self.id,
            self.created,
            self.command,
            self.family,
            self.exit_code,
            self.raw_bytes,
            self.stored_bytes,
            self.lines,
        ) = row

    @property
    def complete(self) -> bool:
        return self.stored_bytes == self.raw_bytes


_COLUMNS = "key, id, created, command, family, exit_code, raw_bytes, stored_bytes, lines"


def find_entries(conn: sqlite3.Connection, prefix: str) -> list[Entry]:
    """Entries whose id starts with `prefix` (hex digits only)."""
    if not prefix or any(c not in "0123456789abcdef" for c in prefix):
        return []
    rows = conn.execute(
        f"SELECT {_COLUMNS} FROM entries WHERE id >= ? AND id < ? ORDER BY created DESC",
        (prefix, prefix + "g"),
    ).fetchall()
    return [Entry(row) for row in rows]


def list_entries(conn: sqlite3.Connection) -> list[Entry]:
    rows = conn.execute(
        f"SELECT {_COLUMNS} FROM entries WHERE id IS NOT NULL ORDER BY created DESC, key DESC"
    ).fetchall()
    return [Entry(row) for row in rows]


def streams_of(conn: sqlite3.Connection, key: int) -> list[int]:
    """The streams an entry holds: [0] (merged, every older entry) or [1], [2], [1, 2]."""
    rows = conn.execute(
        "SELECT DISTINCT stream FROM pieces WHERE entry = ? ORDER BY stream", (key,)
    ).fetchall()
    return [int(row[0]) for row in rows]


def iter_raw(conn: sqlite3.Connection, key: int, stream: int | None = None) -> Iterator[bytes]:
    """The stored bytes of one stream of an entry (every stream, one after the other, when
    `stream` is None), decompressed piece by piece."""
    if stream is None:
        for one in streams_of(conn, key):
            yield from iter_raw(conn, key, one)
        return
    decompressor = zlib.decompressobj(31)
    cursor = conn.execute(
        "SELECT data FROM pieces WHERE entry = ? AND stream = ? ORDER BY seq", (key, stream)
    )
    for (data,) in cursor:
        chunk = decompressor.decompress(data)
        if chunk:
            yield chunk
    tail = decompressor.flush()
    if tail:
        yield tail


def cuts_of(conn: sqlite3.Connection, key: int) -> dict[int, Cut]:
    """stream -> its gap, for the streams of an entry that were cut at the cap."""
    rows = conn.execute(
        "SELECT stream, start, resume, total FROM cuts WHERE entry = ?", (key,)
    ).fetchall()
    return {int(stream): Cut(start, resume, total) for stream, start, resume, total in rows}


def all_cuts(conn: sqlite3.Connection) -> dict[int, dict[int, Cut]]:
    """entry key -> stream -> its gap, for every entry cut at the cap (for `--list`)."""
    found: dict[int, dict[int, Cut]] = {}
    for key, stream, start, resume, total in conn.execute(
        "SELECT entry, stream, start, resume, total FROM cuts"
    ):
        found.setdefault(int(key), {})[int(stream)] = Cut(start, resume, total)
    return found


def iter_marked(conn: sqlite3.Connection, key: int, stream: int | None = None) -> Iterator[bytes]:
    """Like `iter_raw`, with a marker line (`gap_marker`) where a cut stream's bytes were
    left out: what `rtok expand` writes back."""
    cuts = cuts_of(conn, key)
    for one in streams_of(conn, key) if stream is None else [stream]:
        cut = cuts.get(one)
        if cut is None:
            yield from iter_raw(conn, key, one)
        else:
            yield from with_marker(iter_raw(conn, key, one), cut)
