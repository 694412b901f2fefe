"""Reading back and pruning the hook decision log that rtok/store/decisions.py writes.

Kept apart from the writer so that the hook, which only appends, never loads it: `rtok
gain`, `rtok discover` and doctor read the log. Stdlib only.
"""

from __future__ import annotations

import time

from rtok._fast import oslite as os
from rtok.store.decisions import FILE_MODE, MAX_AGE_DAYS, log_path

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator


def read(path: str | None = None, since: float | None = None) -> Iterator[dict[str, object]]:
    """Every decision not older than `MAX_AGE_DAYS` (and not before `since`), oldest
    first, from the rotated file then the current one; torn or foreign lines skipped."""

    target = path or log_path()
    floor = time.time() - MAX_AGE_DAYS * 86400
    if since is not None:
        floor = max(floor, since)
    for name in (target + ".1", target):
        try:
            with open(name, "rb") as handle:
                data = handle.read()
        except OSError:
            continue
        for raw in data.split(b"\n"):
            record = _parse(raw)
            if (
                isinstance(record, dict)
                and isinstance(record.get("t"), (int, float))
                and float(record["t"]) >= floor
            ):
                yield record


def _parse(raw: bytes) -> object:
    """One line's record; a line whose start was overwritten (garbage before the last
    record start) still gives its record."""
    from rtok._fast import fastjson

    for start in (0, raw.rfind(b'{"t":')):
        if start < 0:
            break
        try:
            return fastjson.loads(raw[start:].decode("utf-8", "surrogateescape"))
        except ValueError:
            continue
    return None


def prune(path: str | None = None, now: float | None = None) -> int:
    """Drop lines older than `MAX_AGE_DAYS` from both files; how many were dropped. A file
    with nothing left is removed."""
    from rtok._fast import fastjson

    target = path or log_path()
    floor = (time.time() if now is None else now) - MAX_AGE_DAYS * 86400
    dropped = 0
    for name in (target + ".1", target):
        try:
            with open(name, "rb") as handle:
                lines = handle.read().split(b"\n")
        except OSError:
            continue
        keep = []
        for raw in lines:
            if not raw:
                continue
            try:
                stamp = float(fastjson.loads(raw.decode("utf-8", "surrogateescape"))["t"])
            except (ValueError, KeyError, TypeError):
                stamp = 0.0  # a torn line goes too
            if stamp >= floor:
                keep.append(raw + b"\n")
            else:
                dropped += 1
        if len(keep) == len([raw for raw in lines if raw]):
            continue
        if not keep:
            os.unlink(name)
            continue
        temporary = f"{name}.{os.getpid()}.tmp"
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC, FILE_MODE)
        try:
            os.write(fd, b"".join(keep))
        finally:
            os.close(fd)
        os.rename(temporary, name)
    return dropped
