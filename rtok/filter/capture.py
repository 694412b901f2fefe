"""Capturing an output of any size with bounded memory.

Stdlib only (hot path). Up to `MEMORY_BYTES` the whole output is kept and the full rule
engine runs on it. Past that, the capture streams: the raw bytes go to the archive as they
arrive (which keeps a head and a tail of an output past its per-entry cap, see
rtok/store/slices.py), the first `HEAD_BYTES` and the last `TAIL_BYTES` are kept for
display, and everything is counted and hashed. Protected lines are looked for in the whole
output, however long (scanning is not storing): error, warning and secret lines while the
archive's head is filling, error and warning lines past it. Up to `PROTECTED_LIMIT` are
kept with their line numbers: the first `PROTECTED_LIMIT // 2` as they come, then only
lines of a shape not kept yet (`shape`: digits and ids masked), so a new error late in a
long log of repeated warnings is still shown; the others are counted.

`rtok run` keeps one capture per stream of the command (stdout, stderr; or one merged
stream); `stream` is the archive stream its bytes go to, and the captures of one run share
one archive writer (`writer_factory` returns the same writer to each).
"""

from __future__ import annotations

from rtok.fileio import sha256

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections import deque
    from typing import Any

    from rtok.store.archive import ArchiveWriter

MEMORY_BYTES = 4 * 1024 * 1024
HEAD_BYTES = 64 * 1024
TAIL_BYTES = 256 * 1024
PROTECTED_LIMIT = 200
CARRY_LIMIT = 64 * 1024
LINE_CHARS = 2000


def shape(line: str) -> tuple[bytes, ...]:
    """A line's words with every value masked (each run of digits, the part after `=`):
    `WARN slow id=3f2a took 812ms` and `WARN slow id=ff took 95ms` have one shape, while
    `--- FAIL: TestSort#04` and `--- FAIL: TestDiff/Map (0.01s)` keep their names apart."""
    return tuple(_masked(word) for word in line.encode("utf-8", "replace").split())


_DIGITS_MASKED = bytes.maketrans(b"0123456789", b"##########")


def _masked(word: bytes) -> bytes:
    key, equals, _value = word.partition(b"=")
    if equals:
        return key + b"=#"
    masked = word.translate(_DIGITS_MASKED)
    while b"##" in masked:  # a run of digits is one mark, whatever its length
        masked = masked.replace(b"##", b"#")
    return masked


class Capture:
    """Everything `rtok run` needs to know about an output after it ends."""

    __slots__ = (
        "_carry",
        "_carry_line",
        "_chunks",
        "_hasher",
        "_shapes",
        "_tail",
        "_tail_size",
        "archive",
        "archive_error",
        "head",
        "last_byte",
        "newlines",
        "protected",
        "protected_more",
        "scanned_bytes",
        "stream",
        "streaming",
        "total",
        "writer_factory",
    )

    def __init__(self, writer_factory: object, stream: int = 0) -> None:
        self.stream = stream
        self.total = 0
        self.newlines = 0
        self.last_byte = b""
        self.streaming = False
        self._chunks: list[bytes] = []
        self.head = b""
        # A deque once streaming (made then: `collections` costs every run its import).
        self._tail: deque[bytes] | list[bytes] = []
        self._tail_size = 0
        self._hasher: Any = None
        self.archive: ArchiveWriter | None = None
        self.archive_error = ""
        self.writer_factory = writer_factory
        # line number -> text of protected lines found while streaming
        self.protected: dict[int, str] = {}
        self.protected_more = 0
        self._shapes: set[tuple[bytes, ...]] = set()
        self.scanned_bytes = 0
        self._carry = b""
        self._carry_line = 0

    def feed(self, chunk: bytes) -> None:
        if not chunk:
            return
        if self._hasher is None:
            self._hasher = sha256()
        self._hasher.update(chunk)
        line_before = self.newlines
        self.total += len(chunk)
        self.newlines += chunk.count(b"\n")
        self.last_byte = chunk[-1:]
        if not self.streaming:
            self._chunks.append(chunk)
            if self.total > MEMORY_BYTES:
                self._start_streaming()
            return
        self._stream(chunk, line_before)

    def _start_streaming(self) -> None:
        data = b"".join(self._chunks)
        self._chunks = []
        self.streaming = True
        # A streamed output is hashed by OpenSSL (several times faster than the builtin
        # module; its import costs milliseconds, which only an output this large pays).
        import hashlib

        self._hasher = hashlib.sha256(data)
        self.head = data[:HEAD_BYTES]
        from collections import deque

        self._tail = deque()
        factory = self.writer_factory
        try:
            self.archive = factory()  # type: ignore[operator]
        except Exception as exc:
            self.archive_error = str(exc) or type(exc).__name__
        self._stream(data, 0)

    def _stream(self, chunk: bytes, line_before: int) -> None:
        archive = self.archive
        whole = archive is not None and not archive.head_full
        if archive is not None:
            try:
                archive.write(chunk, self.stream)
            except Exception as exc:
                # No archive (disk full, unwritable data dir): keep going without one;
                # the command must still run to its end and keep its exit status.
                self.archive = None
                self.archive_error = str(exc) or type(exc).__name__
        self._scan(chunk, line_before, whole)
        self._tail.append(chunk)
        self._tail_size += len(chunk)
        while self._tail_size - len(self._tail[0]) >= TAIL_BYTES:
            self._tail_size -= len(self._tail.popleft())  # type: ignore[union-attr]

    def _scan(self, chunk: bytes, line_before: int, whole: bool) -> None:
        """Collect protected lines of a chunk, with their line numbers (only error and
        warning lines unless `whole`)."""
        data = self._carry + chunk if self._carry else chunk
        start_line = self._carry_line if self._carry else line_before
        cut = data.rfind(b"\n")
        complete, rest = (data[: cut + 1], data[cut + 1 :]) if cut >= 0 else (b"", data)
        self._carry = rest[-CARRY_LIMIT:]
        self._carry_line = start_line + complete.count(b"\n")
        self.scanned_bytes += len(chunk)
        if not complete:
            return
        from rtok.filter.protect import error_hints, protected_lines

        for offset, text in protected_lines(complete, None if whole else error_hints()):
            self._keep(start_line + offset, text)

    def _keep(self, line_no: int, text: str) -> None:
        """Keep one protected line, or count it (see the module's docstring)."""
        kept = len(self.protected)
        form = shape(text)
        if kept >= PROTECTED_LIMIT or (kept >= PROTECTED_LIMIT // 2 and form in self._shapes):
            self.protected_more += 1
            return
        self.protected[line_no] = text
        self._shapes.add(form)

    def finish(self) -> None:
        """Scan what is left: the incomplete last line and the kept tail."""
        if self.streaming and self._carry:
            from rtok.filter.protect import is_protected

            text = self._carry.decode("utf-8", "replace")
            if is_protected(text):
                self._keep(self._carry_line, text)

    @property
    def lines(self) -> int:
        return self.newlines + (1 if self.total and self.last_byte != b"\n" else 0)

    def sha256_hex(self) -> str:
        if self._hasher is None:
            return str(sha256().hexdigest())
        return str(self._hasher.hexdigest())

    def data(self) -> bytes:
        """The whole output (only while not streaming)."""
        return b"".join(self._chunks)

    def tail_bytes(self) -> bytes:
        return b"".join(self._tail)
