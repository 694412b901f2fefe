"""A log read with cat/head/tail: repeated messages shown once with their count.

A line's message is the line with its time stamps, numbers and ids masked; the first line
of each message is shown (with `(×N)` when it recurs), later ones are counted. Protected
lines (errors, warnings, secrets) are always shown as they are, each one, and so are the
last lines of the log. A long log then keeps its first LOG_HEAD and last LOG_TAIL lines
(a log's end is where it stands now) and every protected line between them. Returns
None for text that is not a log (most lines carry no time stamp near their start), so
reading an ordinary file is left to the rule.
"""

from __future__ import annotations

from rtok._fast import regex
from rtok.filter.formatters import declare_complete
from rtok.filter.protect import is_protected

# A time stamp near the start of a line: ISO date/time, syslog `Dec  1 10:16:20`, or the
# common log format `[01/Dec/2026:09:57:02` / `[01/Dec/2026 09:57:02]`.
_STAMP = regex.compile(
    r"^.{0,40}?(?:\d{4}-\d\d-\d\d[T ]\d\d:\d\d(?::\d\d)?"
    r"|[A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d"
    r"|\[\d\d/[A-Z][a-z]{2}/\d{4}[: ]\d\d:\d\d)"
)
_MASK = regex.compile(r"0x[0-9a-fA-F]+|\b[0-9a-f]{8,}\b|\d+")
LAST_LINES = 3
MIN_LINES = 20
LOG_HEAD = 20
LOG_TAIL = 60


def is_stamped(line: str) -> bool:
    return _STAMP.match(line) is not None


def message_of(line: str) -> str:
    return _MASK.sub("#", line)


def log_lines(text: str) -> list[str] | None:
    from rtok.filter.engine import normalise

    lines = normalise(text)
    filled = [line for line in lines if line.strip()]
    if len(filled) < MIN_LINES:
        return None
    stamped = sum(1 for line in filled if _STAMP.match(line))
    if stamped * 10 < len(filled) * 8:
        return None
    out: list[str] = []
    first: dict[str, int] = {}
    counts: dict[int, int] = {}
    end = len(lines) - LAST_LINES
    for i, line in enumerate(lines):
        if i >= end or is_protected(line):
            out.append(line)
            continue
        message = message_of(line)
        at = first.get(message)
        if at is None:
            first[message] = len(out)
            counts[len(out)] = 1
            out.append(line)
        else:
            counts[at] += 1
    for at, count in counts.items():
        if count > 1:
            out[at] = f"{out[at]} (×{count})"
    if len(out) > LOG_HEAD + LOG_TAIL:
        from rtok.filter.engine import cut_lines
        from rtok.filter.rule import default_rule

        out = cut_lines(out, default_rule("log"), LOG_HEAD, LOG_TAIL, LOG_HEAD + LOG_TAIL)
    return out if len(out) < len(lines) else None


declare_complete(log_lines)
