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


class Summarised(list[str]):
    """A summary's lines, and what it did not account for: `unclaimed`, the indices of the
    raw lines it neither shows, stands for, nor knows to be its tool's own (passing tests,
    progress, noise); `foreign`, those of the lines it shows as they are without reading
    them (a linter's other lines). `own` is the summary without those. On a failed run the
    unclaimed lines are another tool's output (a `&&` chain, a make recipe) and are read
    again (`rtok.filter.composite`)."""

    __slots__ = ("foreign", "own", "unclaimed")

    def __init__(
        self,
        lines: list[str],
        unclaimed: list[int],
        foreign: list[int] | None = None,
        own: list[str] | None = None,
    ) -> None:
        super().__init__(lines)
        self.unclaimed = unclaimed
        self.foreign = foreign or []
        self.own = lines if own is None else own


def unclaimed_of(lines: list[str] | None) -> list[int]:
    return lines.unclaimed if isinstance(lines, Summarised) else []


class Summary:
    """The lines being built, and the raw lines they already stand for."""

    __slots__ = ("covered", "foreign", "foreign_at", "lines")

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.covered: set[str] = set()
        self.foreign: set[str] = set()  # raw lines shown (or cut) as they are, not read
        self.foreign_at: set[int] = set()  # where in `lines` they are

    def show(self, line: str, raw: str | None = None) -> None:
        """A line shown as it is (or a cut's marker, `raw` None), not read as the tool's."""
        self.foreign_at.add(len(self.lines))
        self.lines.append(line)
        if raw is not None:
            self.foreign.add(raw.strip())

    def pass_over(self, raw: str) -> None:
        """A raw line left out by a cut of the lines shown as they are."""
        self.foreign.add(raw.strip())

    def add(self, line: str, *stands_for: str) -> None:
        self.lines.append(line)
        self.covered.add(line.strip())
        for raw in stands_for:
            self.covered.add(raw.strip())

    def cover(self, raw: str) -> None:
        self.covered.add(raw.strip())

    def finish(
        self, raw_lines: list[str], not_an_error: Callable[[str], object] | None = None
    ) -> list[str]:
        """The lines, plus every protected raw line they neither show nor stand for."""
        covered = self.covered
        missing: list[str] = []
        unclaimed: list[int] = []
        foreign: list[int] = []
        for index, raw in enumerate(raw_lines):
            key = raw.strip()
            if not key or key in covered:
                continue
            if key in self.foreign:
                foreign.append(index)
                continue
            if not_an_error is not None and not_an_error(raw):
                continue
            if not is_protected(raw):
                unclaimed.append(index)
                continue
            covered.add(key)
            missing.append(raw)
        own = [line for at, line in enumerate(self.lines) if at not in self.foreign_at]
        return Summarised(self.lines + missing, unclaimed, foreign, own + missing)
