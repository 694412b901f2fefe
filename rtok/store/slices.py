"""Which bytes of an output an archive entry keeps, past the per-entry cap (stdlib only).

An entry of at most `cap` bytes is whole. Past it, the entry keeps the run's first
`head_cap(cap)` bytes (three quarters of the cap) and the last `tail_cap(cap)` bytes (a
quarter) of each stream that went past its head part. A `Cut` says where one stream's
kept bytes stop and start again; `rtok expand` shows the gap as one marker line
(`gap_marker`) and names the ranges it has (`kept_ranges`).
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator


def tail_cap(cap: int) -> int:
    """Bytes each cut stream keeps at its end: a quarter of the entry's cap."""
    return cap // 4


def head_cap(cap: int) -> int:
    """Bytes a run keeps from its start, over all its streams: the rest of the cap."""
    return cap - tail_cap(cap)


class Cut:
    """One stream's gap: bytes `start` up to (not including) `resume` of `total` are not
    archived; the stream's bytes before and after it are."""

    __slots__ = ("resume", "start", "total")

    def __init__(self, start: int, resume: int, total: int) -> None:
        self.start = start
        self.resume = resume
        self.total = total

    @property
    def left_out(self) -> int:
        return self.resume - self.start


def kept_ranges(cut: Cut) -> str:
    """`bytes 0-7864319 and 1071644672-1073741823 of 1073741824` (inclusive ranges)."""
    parts = [f"0-{cut.start - 1}"] if cut.start else []
    if cut.resume < cut.total:
        parts.append(f"{cut.resume}-{cut.total - 1}")
    kept = " and ".join(parts) if parts else "none"
    return f"bytes {kept} of {cut.total}"


def gap_marker(cut: Cut, after: bytes = b"\n") -> bytes:
    """The line `rtok expand` writes where bytes were left out; it starts a line of its own
    (a newline first when the head ends inside a line, `after` being its last byte)."""
    lead = b"\n" if after not in (b"", b"\n") else b""
    text = (
        f"[rtok: {cut.left_out} bytes left out here: bytes {cut.start}-{cut.resume - 1}"
        f" of {cut.total} were counted, not archived]\n"
    )
    return lead + text.encode()


def with_marker(chunks: Iterable[bytes], cut: Cut) -> Iterator[bytes]:
    """The kept bytes of a stream (`chunks`), with the gap marker where the gap is."""
    remaining = cut.start  # kept bytes still to pass before the gap
    last = b""
    marked = False
    for chunk in chunks:
        if not marked and len(chunk) >= remaining:
            if remaining:
                yield chunk[:remaining]
                last = chunk[remaining - 1 : remaining]
            yield gap_marker(cut, last)
            marked = True
            chunk = chunk[remaining:]
        elif not marked:
            remaining -= len(chunk)
            last = chunk[-1:]
        if chunk:
            yield chunk
    if not marked:
        yield gap_marker(cut, last)
