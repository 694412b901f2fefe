"""pytest (plain, -q, -v, -x, xdist): a pass is its counts; a failure is each failed test's
name, locations and `E` lines (tests that failed the same way share one block), the short
summary and the counts.

Stdlib only (hot path).
"""

from __future__ import annotations

from rtok._fast import regex
from rtok.filter.formatters.summary import Summary, clean_lines, counted, summariser
from rtok.filter.protect import is_protected

TYPE_CHECKING = False
if TYPE_CHECKING:
    from re import Match

# pytest 9 counts subtests (its own, and unittest's subTest) apart: `24 subtests passed`
_COUNTS = (
    r"(?:\d+ (?:(?:subtests? )?(?:passed|failed|skipped|xfailed|xpassed)|errors?|"
    r"warnings?|deselected|rerun)|no tests ran)"
)
_FINAL = regex.compile(
    rf"^=*\s*(?P<body>{_COUNTS}(?:, {_COUNTS})* in [\d.]+s(?: \([^)]*\))?)\s*=*$"
)
_SECTION = regex.compile(r"^={3,} (?P<name>.+?) ={3,}$")
_BLOCK = regex.compile(r"^_+ (?P<name>.+?) _+$")
_SUBSECTION = regex.compile(r"^-{3,} (?P<name>.+?) -{3,}$")
_PROGRESS = regex.compile(r"^(?:\S+\.py ?)?[.sxXfFE]+\s*(?:\[\s*\d+%\])?$")
_STATUS = regex.compile(
    r"^(?:\[gw\d+\] (?:\[\s*\d+%\] )?)?(?:(?P<pre>PASSED|SKIPPED|XFAIL|XPASS|"
    r"FAILED|ERROR) \S+::\S.*|\S+::\S.*? (?P<post>PASSED|SKIPPED|XFAIL|XPASS|"
    r"SUBPASS|SUBSKIP|FAILED|ERROR)(?: \(.*\))?(?: +\[\s*\d+%\])?)$"
)
# xdist -v names each test when it starts, its status comes on a later line
_BARE_ID = regex.compile(r"^\S+\.py::.+$")
_HEADER = regex.compile(
    r"^(?:platform |cachedir:|rootdir:|configfile:|testpaths:|plugins:|"
    r"collecting|collected \d+|hypothesis profile|Using --randomly|"
    r"created: \d+/\d+ workers?|\d+ workers? \[|\[gw\d+\] |gw\d+ |"
    r"scheduling tests via|bringing up nodes|cov: |Test order randomisation|"
    r"benchmark: |django: |asyncio: |anyio: |metadata: |html: |"
    r"rootdir=|sensitiveurl:|timeout: |timeout method:|timeout func_only:)"
)
_LOCATION = regex.compile(r"^\S[^:]*:\d+: \S")
_TRACEBACK = regex.compile(r'^\s*(?:File ".*", line \d+|Traceback \(most recent call last\):)')
_STOP = regex.compile(r"^!{3,} .* !{3,}$")
_WARNING_IDS = regex.compile(r"^\S+(?:::\S.*)?$")


# Frames inside installed packages and the interpreter say nothing about the failing code.
_LIBRARY_FRAME = regex.compile(
    r"^\S*(?:/site-packages/|/dist-packages/|/lib/python\d[\d.]*/)"
    r"\S*:\d+: "
)
# pytest's explanation of a failed assertion names where each value came from; a line whose
# value the assertion above already shows only repeats it
_RAISE = regex.compile(r"^>\s+raise\b")
# an `E` line that gives the failed assertion with its values filled in, whole (pytest cuts
# a long value with `...`)
_ASSERTED = regex.compile(r"^E\s+(?:AssertionError: )?assert (?!.*\.\.\.).+ (?:==|!=) .+$")
_FILLED_IN = regex.compile(r"^E\s+(?:AssertionError: )?assert\s")
# pytest's diff of the two values under such a line (`E   - 1.0.post0`, `E   ?    -`,
# `E   + 1.0post0`), and its hints on how to see more
_VALUE_DIFF = regex.compile(r"^E\s{3,}[-+?] ")
_DIFF_HINT = regex.compile(r"^E\s+(?:Use -v to get more diff|\.\.\.Full output truncated .*)$")
# A value that an `E` line shows without saying what it is (`assert False`): the `+ where`
# that gives it (`False = isinstance(None, Foo)`) is the assertion's actual values.
_SAYS_NOTHING = frozenset({"True", "False", "None"})
_WHERE = regex.compile(r"^E\s+\+(?P<depth>\s+)(?:where|and)\s+(?P<value>.+?) = ")


def _final(lines: list[str]) -> int:
    """Index of the closing counts line among the last lines, or -1."""
    for i in range(len(lines) - 1, max(-1, len(lines) - 8), -1):
        if _FINAL.match(lines[i]):
            return i
    return -1


def reason_lines(block: list[str], out: Summary) -> list[str]:
    """A failure's kept lines without what another of them already says: a `+ where` whose
    value an earlier `E` line shows (but True, False, None, which an `E` line shows without
    saying what they are), frames of installed packages but the innermost (where
    it was raised), and the `+ where` lines that explain a dropped one (each dropped line is
    covered: what it said is still shown). The `>` line goes where an `E` line gives the
    assertion with its values filled in, and for a `raise`, whose exception the `E` line
    names; pytest's diff of two values an `E` line shows whole goes, and its hints."""
    frames = [i for i, line in enumerate(block) if _LOCATION.match(line)]
    innermost = frames[-1] if frames else -1
    kept: list[str] = []
    shown_e = ""
    dropped_depth = 0  # how deep the last dropped `+ where` was; deeper ones explain it
    for index, line in enumerate(block):
        where = _WHERE.match(line)
        depth = len(where.group("depth")) if where is not None else 0
        if where is not None and (
            (where.group("value") in shown_e and where.group("value") not in _SAYS_NOTHING)
            or 0 < dropped_depth < depth
        ):
            dropped_depth = dropped_depth if 0 < dropped_depth < depth else depth
            out.cover(line)
            continue
        dropped_depth = 0
        if (index != innermost and _LIBRARY_FRAME.match(line)) or _echoed(block, index, shown_e):
            out.cover(line)
            continue
        if line.startswith("E "):
            shown_e += line + "\n"
        kept.append(line)
    return counted(kept)


def _echoed(block: list[str], index: int, shown_e: str) -> bool:
    """Whether a failure's line says again what another of its lines says: a `raise`, a
    `>` line above the `E` line that gives its assertion with values, the diff of values
    an `E` line shows whole, pytest's hint to rerun with -v."""
    line = block[index]
    if line.startswith(">"):
        after = block[index + 1] if index + 1 < len(block) else ""
        return bool(_RAISE.match(line) or _FILLED_IN.match(after))
    if _DIFF_HINT.match(line):
        return True
    last_assert = shown_e.rsplit("\n", 2)[-2] if shown_e.count("\n") else ""
    return bool(_VALUE_DIFF.match(line) and _ASSERTED.match(last_assert))


class _Failures:
    """Failure blocks in the order met; blocks that say the same thing are shown once, under
    the names of all the tests that failed that way."""

    __slots__ = ("blocks", "named_ids", "used")

    def __init__(self, named_ids: dict[str, tuple[str, str]]) -> None:
        self.named_ids = named_ids
        self.used: set[str] = set()
        self.blocks: dict[tuple[str, ...], list[tuple[str, str]]] = {}

    def close(self, name: str, block: list[str], out: Summary) -> None:
        if not name and not block:
            return
        header, raw = f"__ {name} __", ""
        known = self.named_ids.get(name) if name else None
        if known is not None and known[0] not in self.used:
            self.used.add(known[0])
            raw, header = known
        elif not name:
            header = ""
        key = tuple(reason_lines(block, out))
        self.blocks.setdefault(key, []).append((header, raw))
        block.clear()

    def emit(self, out: Summary) -> None:
        for lines, headers in self.blocks.items():
            for header, raw in headers:
                if header:
                    out.add(header, raw)
            for line in lines:
                out.add(line)
        self.blocks.clear()


class _Reader:
    """One pass over the lines before the closing counts, section by section."""

    __slots__ = (
        "block",
        "block_name",
        "failures",
        "has_short",
        "in_captured",
        "out",
        "section",
        "skips",
    )

    def __init__(self, lines: list[str], out: Summary) -> None:
        self.out = out
        self.has_short = any(
            _SECTION.match(line) and "short test summary" in line for line in lines
        )
        # a failure block is headed by its short-summary line's test id (which then is not
        # repeated at the end); block name -> (summary line, "FAILED <id>")
        self.failures = _Failures(_summary_ids(lines) if self.has_short else {})
        self.section = ""
        self.block: list[str] = []
        self.block_name = ""
        self.in_captured = False
        # skip reason -> (count, locations): a reason given at several places is said once
        self.skips: dict[str, tuple[int, list[str]]] = {}

    def close_block(self) -> None:
        self.failures.close(self.block_name, self.block, self.out)
        self.block_name = ""

    def read(self, line: str) -> None:
        if _STOP.match(line):
            self.close_block()
            self.failures.emit(self.out)
            self.out.add(line.strip("! "), line)
            return
        heading = _SECTION.match(line)
        if heading is not None:
            self.close_block()
            self.failures.emit(self.out)
            self.section = heading.group("name").lower()
            self.in_captured = False
            self.out.cover(line)
            return
        if not line.strip():
            return
        if self.section in ("failures", "errors"):
            self.failure_line(line)
        elif "warnings summary" in self.section:
            self.warning_line(line)
        elif "short test summary" in self.section:
            skipped = _SKIPPED.match(line)
            if skipped is not None:
                self.skip(line, skipped)
            elif line not in self.failures.used:
                self.out.add(line)
        elif not self.session_line(line):
            self.out.add(line)
        else:
            self.out.cover(line)

    def failure_line(self, line: str) -> None:
        named = _BLOCK.match(line)
        if named is not None:
            self.close_block()
            self.block_name = named.group("name")
            self.in_captured = False
            self.out.cover(line)
            return
        if _SUBSECTION.match(line):
            self.in_captured = True
            self.out.cover(line)
            return
        if self.in_captured:
            # what the test printed: its error lines stay
            if is_protected(line):
                self.block.append(line)
        elif line.startswith((">", "E ")) or _LOCATION.match(line) or _TRACEBACK.match(line):
            self.block.append(line)
        # other lines of a failure are the test's source and locals, not errors
        self.out.cover(line)

    def warning_line(self, line: str) -> None:
        if line.startswith("-- Docs:") or (_WARNING_IDS.match(line) and "Warning" not in line):
            self.out.cover(line)
            return
        if line.startswith("  ") and not line.startswith("    "):
            self.block.append(line.strip())
            self.out.cover(line)

    def session_line(self, line: str) -> bool:
        """True when a line of the session's start was read (shown, covered or dropped)."""
        if not (self.section.endswith("test session starts") or not self.section):
            return False
        status = _STATUS.match(line)
        if status is None:
            return bool(_HEADER.match(line) or _PROGRESS.match(line) or _BARE_ID.match(line))
        if (status.group("pre") or status.group("post")) in ("FAILED", "ERROR"):
            if self.has_short:
                self.out.cover(line)  # the short summary names it with its reason
            else:
                self.out.add(line)
        return True

    def skip(self, line: str, found: Match[str]) -> None:
        count, places = self.skips.get(found.group("reason"), (0, []))
        places.append(found.group("where"))
        self.skips[found.group("reason")] = (count + int(found.group("n")), places)
        self.out.cover(line)

    def end(self) -> None:
        self.close_block()
        self.failures.emit(self.out)
        for reason, (count, places) in self.skips.items():
            self.out.add(f"SKIPPED [{count}] {reason} ({', '.join(places)})")


@summariser
def pytest_output(text: str) -> list[str] | None:
    lines = clean_lines(text)
    final = _final(lines)
    if final < 0:
        return None
    out = Summary()
    reader = _Reader(lines[:final], out)
    for line in lines[:final]:
        reader.read(line)
    reader.end()
    body = _FINAL.match(lines[final])
    assert body is not None
    out.add(f"pytest: {body.group('body')}", lines[final])
    for line in lines[final + 1 :]:
        if line.strip():
            out.add(line)
    return out.finish(lines, _not_an_error)


# `SKIPPED [16] tests/test_termui.py:329: reason` (pytest -rs)
_SKIPPED = regex.compile(r"^SKIPPED \[(?P<n>\d+)\] (?P<where>\S+?:\d+): (?P<reason>.+)$")
_SUMMARY_ID = regex.compile(r"^(?P<word>FAILED|ERROR) (?P<id>.+?)(?: - .*)?$")


def _summary_ids(lines: list[str]) -> dict[str, tuple[str, str]]:
    """Failure block name (`test_x[param]`, `TestC.test_x`, `ERROR collecting f.py`) -> the
    short-summary line that names it and `FAILED <id>`."""
    ids: dict[str, tuple[str, str]] = {}
    for line in lines:
        found = _SUMMARY_ID.match(line)
        if found is None:
            continue
        test_id = found.group("id")
        path, _, name = test_id.partition("::")
        header = f"{found.group('word')} {test_id}"
        if name:
            ids.setdefault(name.replace("::", "."), (line, header))
        else:
            ids.setdefault(f"ERROR collecting {path}", (line, header))
    return ids


def _not_an_error(line: str) -> bool:
    """Lines of a pytest run whose error-like words are names, not errors."""
    status = _STATUS.match(line)
    if status is not None:
        return (status.group("pre") or status.group("post")) not in ("FAILED", "ERROR")
    return bool(
        _PROGRESS.match(line)
        or _HEADER.match(line)
        or (_BARE_ID.match(line) and "Warning" not in line)
    )
