"""Line helpers the engine and the formatters share: a line as a terminal shows it, the
cut that keeps a list's head, tail and the lines of its middle that must stay, and the
fair share of a budget of lines among groups (grep's files, a diff's files, a listing's
folders).

Stdlib only (hot path).
"""

from __future__ import annotations

from rtok._fast import regex

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

_ANSI = regex.compile(
    r"\x1b(?:\[[0-9;?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)|[()][0-9A-Za-z])"
)


def terminal_line(line: str) -> str:
    """A line as a terminal leaves it: colours removed, `\\r` overwrites applied (a CRLF
    ending read as LF)."""
    if "\x1b" in line:
        line = _ANSI.sub("", line)
    if "\r" in line:
        line = line.rstrip("\r")
        if "\r" in line:
            line = line.rsplit("\r", 1)[1]
    return line


def omitted(count: int) -> str:
    return f"… {count} lines omitted"


def cut_middle(lines: list[str], head: int, tail: int, keep: Callable[[str], bool]) -> list[str]:
    """The first `head` and last `tail` lines, and the lines between for which `keep` is
    true; each run of lines left out is counted in their place."""
    end = max(head, len(lines) - tail)
    out = lines[:head]
    gap = 0
    for line in lines[head:end]:
        if keep(line):
            if gap:
                out.append(omitted(gap))
                gap = 0
            out.append(line)
        else:
            gap += 1
    if gap:
        out.append(omitted(gap))
    return out + lines[end:]


def fair_share(counts: list[int], budget: int, cap: int) -> list[int]:
    """How many of its `counts[i]` lines group i shows: `budget` handed out one line at a
    time to each group in turn, none past its count or `cap`."""
    share = [0] * len(counts)
    left = budget
    while left > 0:
        grew = False
        for i, count in enumerate(counts):
            if left and share[i] < min(count, cap):
                share[i] += 1
                left -= 1
                grew = True
        if not grew:
            break
    return share
