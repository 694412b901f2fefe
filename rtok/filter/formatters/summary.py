"""What the summarising formatters (test runners, builds, linters) share.

Stdlib only (hot path). A summariser reads the whole output, failures included, and its
result is shown as it is: the engine neither cuts it nor runs the failure tail. In return a
summariser keeps every error and warning line itself: `finish` appends each protected raw
line that the summary neither shows nor stands for, unless the formatter knows the line is
not one (a passing test whose id happens to contain "Error").
"""

from __future__ import annotations

from rtok.filter.protect import is_protected
from rtok.filter.textlines import terminal_line

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable


# The formatters whose result is final (see the module docstring).
SUMMARISERS: set[object] = set()


def summariser(function: Callable[[str], list[str] | None]) -> Callable[[str], list[str] | None]:
    SUMMARISERS.add(function)
    return function


def is_summariser(function: object) -> bool:
    return function in SUMMARISERS


def clean_lines(text: str) -> list[str]:
    """Lines without colours, `\\r` overwrites or trailing blanks (CRLF read as LF)."""
    out = [terminal_line(line).rstrip() for line in text.split("\n")]
    if out and out[-1] == "":
        out.pop()
    return out


def count_lines(lines: list[str]) -> list[tuple[str, int]]:
    """Each line once (the same text whatever its indent), in first-seen order, with how
    often it came."""
    first: dict[str, str] = {}
    seen: dict[str, int] = {}
    for line in lines:
        key = line.strip()
        first.setdefault(key, line)
        seen[key] = seen.get(key, 0) + 1
    return [(first[key], n) for key, n in seen.items()]


def counted(lines: list[str]) -> list[str]:
    """Identical lines once, in first-seen order, with `(×N)` when seen N > 1 times."""
    seen: dict[str, int] = {}
    for line in lines:
        seen[line] = seen.get(line, 0) + 1
    return [line if n == 1 else f"{line} (×{n})" for line, n in seen.items()]


# A reason line longer than this is shown up to REASON_KEEP characters and its length (a
# dumped value, not a message); error and warning lines are never shortened.
REASON_CHARS = 320
REASON_KEEP = 240


def shortened(line: str) -> str:
    if len(line) <= REASON_CHARS or is_protected(line):
        return line
    return f"{line[:REASON_KEEP]}… ({len(line)} chars)"


def plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


class Summary:
    """The lines being built, and the raw lines they already stand for."""

    __slots__ = ("covered", "lines")

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.covered: set[str] = set()

    def add(self, line: str, *stands_for: str) -> None:
        self.lines.append(line)
        self.covered.add(line.strip())
        for raw in stands_for:
            self.covered.add(raw.strip())

    def cover(self, raw: str) -> None:
        self.covered.add(raw.strip())

    def finish(self, raw_lines: list[str],
               not_an_error: Callable[[str], object] | None = None) -> list[str]:
        """The lines, plus every protected raw line they neither show nor stand for."""
        covered = self.covered
        missing: list[str] = []
        for raw in raw_lines:
            key = raw.strip()
            if not key or key in covered or not is_protected(raw):
                continue
            if not_an_error is not None and not_an_error(raw):
                continue
            covered.add(key)
            missing.append(raw)
        return self.lines + missing
