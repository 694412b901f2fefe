"""The rule engine: text in, shortened lines out.

Stdlib only (hot path). Order for a successful command: formatter (when one recognises the
output) or drop; dedupe; group; JSON compaction; head/tail cut. Lines that are protected
(`rtok.filter.protect`) or match the rule's `keep` survive every step, and a final pass puts
back any protected line a formatter left out, so no rule or formatter can lose one.
Summarising formatters (`formatters/summary.py`) read failures too and are shown whole; they
put back the protected lines they leave out themselves. A failed command's output is
otherwise its verbatim tail, unless its formatter reads failed runs too (`grep` exiting 2 for
a missing file still printed its hits, and its messages are among the groups).
"""

from __future__ import annotations

from rtok._fast import regex
from rtok.filter.cutting import cut_lines as cut_lines
from rtok.filter.cutting import fail_tail as fail_tail
from rtok.filter.cutting import keeps as keeps
from rtok.filter.formatters import reads_failures
from rtok.filter.formatters.summary import is_summariser
from rtok.filter.protect import is_protected
from rtok.filter.textlines import terminal_line

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from rtok.filter.rule import Rule

_GROUPABLE = regex.compile(r"^(?!\d+[:-])([^\s:][^:]*?):(\d+[:\-].*|[^\d].*)$")


# A line longer than this is cut (its length is shown); lines that must be kept get more.
LINE_CHARS = 2000
PROTECTED_LINE_CHARS = 8000


def clip_line(line: str) -> str:
    if len(line) <= LINE_CHARS:
        return line
    limit = PROTECTED_LINE_CHARS if is_protected(line) else LINE_CHARS
    if len(line) <= limit:
        return line
    return f"{line[:limit]}… ({len(line)} chars)"


def normalise(text: str) -> list[str]:
    """Lines as a terminal would leave them: colours removed, `\\r` overwrites applied."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [terminal_line(line) for line in lines]


def drop_lines(lines: list[str], rule: Rule) -> list[str]:
    if rule.drop is None:
        return lines
    drop = rule.drop
    return [line for line in lines if not drop.search(line) or keeps(rule, line)]


def dedupe_lines(lines: list[str]) -> list[str]:
    """Collapse runs of identical non-blank lines into one line with a count."""
    out: list[str] = []
    run = 0
    for i, line in enumerate(lines):
        run += 1
        if i + 1 < len(lines) and lines[i + 1] == line and line.strip():
            continue
        out.append(line if run == 1 else f"{line} (×{run})")
        run = 0
    return out


def group_lines(lines: list[str]) -> list[str]:
    """`path:rest` lines grouped under one header per path (only when that is shorter)."""
    groups: dict[str, list[str]] = {}
    loose = 0
    for line in lines:
        found = _GROUPABLE.match(line)
        if found is None:
            loose += 1
            continue
        groups.setdefault(found.group(1), []).append(found.group(2))
    if not groups or loose > len(lines) // 4 or len(groups) == len(lines):
        return lines
    out: list[str] = []
    for path, rests in groups.items():
        out.append(f"{path} ({len(rests)})" if len(rests) > 1 else path)
        out.extend("  " + rest for rest in rests)
    out.extend(line for line in lines if _GROUPABLE.match(line) is None)
    if sum(len(x) + 1 for x in out) >= sum(len(x) + 1 for x in lines):
        return lines
    return out


def restore_protected(
    raw_lines: list[str], out: list[str], protects: Callable[[str], bool] = is_protected
) -> list[str]:
    """Append any protected raw line that a transformation left out of `out`.

    `protects` is a formatter's own reading of which raw lines are protected: one that
    shows content rows under headers (grep hits, diff lines) keeps those itself.
    """
    present = set(out)
    joined: str | None = None
    missing: list[str] = []
    for raw in raw_lines:
        if raw in present or not raw.strip() or not protects(raw):
            continue
        line = clip_line(raw)
        if joined is None:
            joined = "\n".join(out)
        if line.strip() in joined or line in present:
            continue
        missing.append(line)
        present.add(line)
    return out + missing if missing else out


def shorten(
    text: str,
    rule: Rule,
    formatter: Callable[[str], list[str] | None] | None,
    exit_code: int,
    fail_tail_lines: int,
) -> list[str]:
    """The lines to show for `text` (before the trailer and the never_worse check)."""
    if formatter is not None and is_summariser(formatter):
        summary = _summary(text, rule, formatter, exit_code, fail_tail_lines)
        if summary is not None:
            return summary
    formatted = _formatted(text, formatter, exit_code)
    if exit_code != 0 and formatted is None:
        # A failure's tail is its payload: those lines are shown exactly as written.
        raw_lines = text.split("\n")
        if raw_lines and raw_lines[-1] == "":
            raw_lines.pop()
        return fail_tail(raw_lines, rule, fail_tail_lines)
    lines = normalise(text)
    if formatted is None:
        out = _generic(lines, rule)
        protects: Callable[[str], bool] = is_protected
    else:
        out = formatted
        protects = getattr(formatter, "protects", is_protected)
        if getattr(formatter, "complete", False):
            # The formatter named everything and cut within its own budget: a head/tail
            # cut here would drop the headers that say where its rows belong.
            return restore_protected(lines, [clip_line(line) for line in out], protects)
    if rule.dedupe:
        out = dedupe_lines(out)
    out = cut_lines(out, rule, rule.head, rule.tail, rule.max_lines)
    out = [clip_line(line) for line in out]
    return restore_protected(lines, out, protects)


def _formatted(
    text: str, formatter: Callable[[str], list[str] | None] | None, exit_code: int
) -> list[str] | None:
    """The formatter's reading of `text`; a failed run's only when it reads those too."""
    if formatter is None or (exit_code != 0 and not reads_failures(formatter)):
        return None
    return formatter(text)


def _summary(
    text: str,
    rule: Rule,
    formatter: Callable[[str], list[str] | None],
    exit_code: int,
    fail_tail_lines: int,
) -> list[str] | None:
    """A test runner's or a build's summary, shown whole: it reads failures too and keeps
    every error line itself. None when it does not recognise the output (which then takes
    the usual path)."""
    try:
        summary = formatter(text)
    except Exception:
        # A reader that trips on an odd output must not cost the command its output.
        return None
    if summary is None:
        return None
    if exit_code != 0:
        # The reader owns only the lines it understood: the rest of a failed run
        # (another tool's part of a `&&` chain or recipe) is shown too. Loaded here, for a
        # failed summarised run only (hot path); it does not import this module.
        from rtok.filter.composite import account_for

        summary = account_for(summary, text, exit_code, rule, fail_tail_lines)
    return [clip_line(line) for line in summary]


def _generic(lines: list[str], rule: Rule) -> list[str]:
    """The rule's own steps for an output no formatter read: drop, group, JSON."""
    out = drop_lines(lines, rule)
    if rule.group:
        out = group_lines(out)
    if rule.json_items or rule.json_string:
        from rtok.filter.jsonbody import compact_json

        compacted = compact_json("\n".join(out), rule.json_items, rule.json_string)
        if compacted is not None:
            out = compacted
    return out
