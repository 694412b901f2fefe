"""Test runners read from a table: unittest, jest, vitest, mocha, ava, tap (node-tap,
`node --test`, tape), playwright, rspec, phpunit, ctest.

Stdlib only (hot path). A run whose summary reports no failure is shown as its summary on
one line. A failed run keeps every line but the runner's passing-test lines and noise
(source excerpts but the line that failed, stack frames inside node_modules or the runtime,
separators), with runs of identical lines collapsed, failed tests whose reports read the
same said once, and a stack frame already shown counted where it comes again, then the
summary. pytest, cargo test and go test have their own readers (`pytest_fmt.py`,
`cargo.py`, `gotest.py`).
"""

from __future__ import annotations

from rtok._fast import regex
from rtok.filter.formatters.summary import Summary, clean_lines, plural, summariser

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from re import Pattern

_CODE_FRAME = (
    r"^\s*>?\s*\d+\s*\|(?!.*\bat\b)|^\s+\|\s*[\^~]+\s*$"
    r"|^\s*[⎯─━=\-]{8,}(?:\[\d+/\d+\][⎯─━=\-]*)?\s*$"
)
_RUNTIME_FRAME = r"^\s+at .*(?:node_modules|node:internal|<anonymous>\)?$|\(native\))"
# a JavaScript stack frame: `at fn (file:line:col)` or `at file:line:col`
_JS_FRAME = r"^\s+at (?:\S.* \()?\S+:\d+:\d+\)?$"

# runner -> fields (all regular expressions, "" when not used):
#   summary  lines that give the counts (kept; a pass is shown as these lines joined);
#   failed   a summary line that says something failed;
#   passing  lines of passing tests and progress (dropped);
#   noise    lines a failure does not need (dropped);
#   trim     a part of a summary line left out of the one-line pass;
#   strip    a prefix removed from a line before it is read;
#   skip_block  the first line of a block of the program's own logging (dropped up to the next
#            line indented no deeper, or to the next blank line when it starts unindented);
#   tree     where a runner's list of all tests starts and ends: inside it only the lines
#            matching `fail_item` are kept;
#   item     the first line of a failed test's report (what it matches is left out of the
#            test's name); `where` its location lines. Tests whose other lines read the same
#            but for their own name share them, shown once under all their headers;
#   item_end  where a failed test's report ends when the runner prints a test's own output
#            above its result line (node-tap): the lines from there up to the next `item`
#            are that test's, and those after the last one are the run's;
#   item_start  the line that opens a test's lines above its result (node-tap's unindented
#            `# Subtest:`): it ends the report before it even when the test's own lines
#            that follow are indented; the line itself is not shown;
#   frame    a backtrace frame: one already shown (in an earlier failure, or higher up in
#            this one) is left out, and each run of them is one line saying how many;
#   retry    the line that opens the report of a test's next attempt: an attempt that reads
#            like an earlier one of the same test is said in one line;
#   listed   a count line the runner follows with the names of its tests (`3 flaky`): the
#            report header of each such test is marked with the count's word;
#   drop     lines of a failed run left out although they would be kept (a source excerpt's
#            failing line where the location frame is always printed, a heading);
#   diff     the line after which a failure's diff runs (`+ Received`): inside it only the
#            changed lines (`- `, `+ `) are kept, its context and hunk lines left out.
_RUNNERS: dict[str, dict[str, str]] = {
    "unittest": {
        "summary": r"^Ran \d+ tests? in |^(?:OK|FAILED)(?: \(.*\))?$|^NO TESTS RAN$",
        "failed": r"^FAILED\b",
        "passing": r"^[.sxuEF]+$| \.\.\. (?:ok|skipped.*|expected failure)$|^\S+ \(\S+\)$",
        "noise": r"^[-=]{20,}$|^\s+\^+$|^\s*~*\^+~*$|^ok$",
        # progress dots or a `name ... ` status that a warning was printed into
        "strip": r"^[.sxuEF]*\.[.sxuEF]*(?=\S)|^\S+ \(\S+\) \.\.\. (?=\S)",
    },
    "jest": {
        "summary": r"^(?:Test Suites|Tests|Snapshots|Time):\s",
        "failed": r"^(?:Test Suites|Tests):.*\d+ failed",
        # in colour the PASS and FAIL labels have a blank each side (` PASS  a.test.js`)
        "passing": r"^\s*[✓√○✎] |^ ?PASS |^Ran all test suites"
        r"|^\s+console\.(?:log|info|debug|warn)$",
        # node's assert names the types that differ when the values shown already do
        "noise": _CODE_FRAME
        + "|"
        + _RUNTIME_FRAME
        + r"|^\s+Difference:$|^\s+Comparing two different types of values\.",
        "frame": _JS_FRAME,
        "skip_block": r"^\s+console\.(?:log|info|debug|warn)$",
        # the list opens with the first file's FAIL line: kept, as later files' are; its
        # failed tests (`✕ name`) are each reported under their full name below
        "tree_start": r"^ ?(?:PASS|FAIL) ",
        "tree_end": r"^\s+● ",
        "fail_item": r"^ ?FAIL ",
        # the source excerpt's failing line (the frame under it names the line)
        "drop": r"^\s*>?\s*\d+\s*\|(?!.*\bat\b)",
        # a count of none, and jest's estimate of the time
        "trim": r"^Snapshots:\s+0 total$|, estimated \d+ m?s$",
    },
    "vitest": {
        "summary": r"^\s*(?:Test Files|Tests|Duration)\s{2}",
        "failed": r"^\s*(?:Test Files|Tests)\s.*\d+ failed",
        "trim": r" \(transform .*\)$",
        "passing": r"^\s*[✓√] |^ RUN  v|^\s*Start at\s",
        "noise": _CODE_FRAME + "|" + _RUNTIME_FRAME,
        "skip_block": r"^(?:stderr|stdout) \| ",
        # the list of failed tests before the details repeats them
        "tree_start": r"^ ❯ \S.*\(\d+ tests?",
        "tree_end": r"^Failed (?:Tests|Suites) \d+$",
        # its failed files' lines too: each failed test's report names its file
        "fail_item": r"(?!)",
        "item": r"^ FAIL  ",
        "where": r"^ ❯ \S+:\d+:\d+$",
        # the source excerpt (the location frame above it names the line), the heading of
        # the failed tests' reports (the counts say how many)
        "drop": r"^\s*\d+\|(?!.*\bat\b)|^Failed Tests \d+$",
        "diff": r"^\+ Received$",
        # the rule drawn around a heading (`⎯⎯⎯ Failed Tests 4 ⎯⎯⎯`)
        "strip": r"^⎯+ (?=\S)| ⎯+$",
    },
    "mocha": {
        "summary": r"^\s+\d+ (?:passing|failing|pending)(?: \(\d+m?s\))?$",
        "failed": r"^\s+\d+ failing",
        "passing": r"^\s*[✓✔√] ",
        "noise": _CODE_FRAME + "|" + _RUNTIME_FRAME,
        "frame": _JS_FRAME,
        "tree_start": r"^",
        "tree_end": r"^\s+\d+ passing",
        "fail_item": r"^\s+\d+\) ",
    },
    "ava": {
        "summary": r"^\s+\d+ (?:tests? (?:passed|failed)|known failures?|tests? skipped|"
        r"tests? todo|uncaught exceptions?|unhandled rejections?)",
        "failed": r"^\s+\d+ (?:tests? failed|uncaught|unhandled)",
        "passing": r"^\s*[✔√] ",
        # the rule drawn under the tests' lines
        "noise": _CODE_FRAME + "|" + _RUNTIME_FRAME + r"|^\s*─$",
    },
    "tap": {
        "summary": r"^#\s*(?:tests|suites|pass|fail|cancelled|skipped|skip|todo|duration_ms|"
        r"ok)\b|^# \{ total: \d+|^\s*(?:Asserts|Suites):\s",
        "failed": r"^#\s*fail\s+[1-9]|^# (?:failed|not ok)|^\s*Asserts:.*\d+ fail|"
        r"^# \{ total.* fail: [1-9]",
        "passing": r"^\s*ok \d+\b|^\s*# Subtest|^\s*1\.\.\d+$|^TAP version|^\s*duration_ms:|"
        r"^\s*type: '?(?:test|suite)'?$|^\s*---$|^\s*\.\.\.$|^\s*PASS\s",
        "noise": _RUNTIME_FRAME,
        "frame": _JS_FRAME,
        # a failed test file's result line, its indented diagnostics below it and the
        # file's own output above it
        "item": r"^not ok \d+ - ",
        "item_end": r"^\S",
        "item_start": r"^# Subtest: ",
    },
    "playwright": {
        # an error outside the tests (a stop after -x / --max-failures, a failing global
        # setup) is counted in a line of its own
        "summary": r"^\s+\d+ (?:passed|failed|flaky|skipped|did not run|interrupted)"
        r"(?: \(.*\))?$|^\s+\d+ errors? (?:was|were) not a part of any test",
        "failed": r"^\s+\d+ (?:failed|flaky|interrupted|errors? (?:was|were) not)",
        # progress: a failed attempt's line (`✘  12 [chrome] › a.spec.ts:3:5 › t (retry #1)`)
        # is said again by the test's report below it; the line reporter's `[12/40] …`,
        # the dot reporter's character per test
        "passing": r"^\s*[✓✔√] |^\s*ok \d+ |^Running \d+ tests? using|^\s*[✘✗×]\s+\d+ |"
        r"^\[\d+/\d+\] |^[·°×±FT]+$",
        # the tests named again under the counts, and the location printed above a source
        # excerpt (the stack frame under the excerpt names it with its column)
        "noise": _CODE_FRAME
        + "|"
        + _RUNTIME_FRAME
        + r"|^ {4}(?:\[[^\]]+\] › )?\S+:\d+:\d+ › |^\s+at [^\s():]+:\d+$",
        # the rule that pads a report's header to the terminal's width
        "strip": r" ─+$",
        "item": r"^\s+\d+\) ",
        "where": r"^\s+at ",
        "retry": r"^\s+Retry #\d+",
        # the source excerpt's failing line (the frame under it names the line), and the
        # call log's lines that say again what the error's lines say (the assertion and its
        # timeout, the locator, the value received); what the locator resolved to stays
        "drop": r"^\s*>\s*\d+\s*\|(?!.*\bat\b)|^\s+Call log:$|^\s+- expect\.\w+ with timeout \d+ms$"
        r"|^\s+- waiting for (?:locator|getBy)|^\s+- unexpected value ",
        # the names under `N flaky` are left out with the others: their reports say it
        "listed": r"^\s+\d+ (flaky|interrupted)$",
        "frame": _JS_FRAME,
    },
    "rspec": {
        "summary": r"^\d+ examples?, \d+ failures?|^Finished in ",
        "failed": r"^\d+ examples?, [1-9]\d* failures?",
        "passing": r"^[.*F]+$|^Randomized with seed",
        # backtrace frames inside installed gems and Ruby itself; the frames of Ruby's own
        # report of a thread that died (`from file:line:in`: the failure it raised is
        # reported again, with its frames, under Failures); how the values were compared
        "noise": r"^\s*(?:from |# )\S*/(?:gems|rubygems-integration|ruby/\d[\d.]*)/|"
        r"^\s+from \S+:\d+:in |^\s*\(compared using \S+\)$",
        "frame": r"^\s*(?:# |from )\S+:\d+:in ",
    },
    "phpunit": {
        "failed": r"^(?:FAILURES!|ERRORS!)|^Tests: .*(?:Failures|Errors): [1-9]",
        "summary": r"^(?:OK \(\d+ tests?|OK, but|Tests: \d+|FAILURES!|ERRORS!|Time: )",
        "trim": r", Memory: .*$",
        # progress: a character per test (its failures are reported below)
        "passing": r"^[.SIRDWEF]+\s+\d+ / \d+ \(\s*\d+%\)$|^PHPUnit \d|^Runtime:\s|"
        r"^Configuration:",
        "noise": r"^-{10,}$",
        "item": r"^\d+\) ",
        "where": r"^/\S+\.php:\d+$",
    },
    "ctest": {
        "summary": r"^\d+% tests passed, \d+ tests? failed out of \d+|^Total Test time",
        "failed": r"tests passed, [1-9]\d* tests? failed",
        "passing": r"^\s*\d+/\d+ Test\s+#\d+: .*\s+Passed\s|^\s*Start\s+\d+: |"
        r"^Test project |^UpdateCTestConfiguration|^Constructing a list|"
        r"^Updating test list|^Checking test dependency|^Parse Test|^test \d+$|"
        # passing cases of the tests' own output (Unity's file:line:name:PASS)
        r"^\S+:\d+:\w+:(?:PASS|IGNORE)$",
        # where the log is and how to rerun (the agent has the output itself); a test
        # program's own rule, counts and bare verdict under its cases (Unity's
        # `15 Tests 1 Failures 0 Ignored`: the failed case's line and the test's line say
        # it); the heading of the failed tests' list (each of its lines says `(Failed)`)
        "noise": r"^Output from these tests are in: |^Use \"--rerun-failed|^-{10,}$|^FAIL$|"
        r"^Errors while running CTest$|^\d+ Tests \d+ Failures \d+ Ignored$|"
        r"^The following tests FAILED:$",
        "trim": r"^Total Test time \(real\) = ",
    },
}


class _Table:
    __slots__ = (
        "diff",
        "drop",
        "fail_item",
        "failed",
        "frame",
        "item",
        "item_end",
        "item_start",
        "label",
        "listed",
        "noise",
        "passing",
        "retry",
        "skip_block",
        "strip",
        "summary",
        "tree_end",
        "tree_start",
        "trim",
        "where",
    )

    def __init__(self, label: str, fields: dict[str, str]) -> None:
        def compiled(name: str) -> Pattern[str] | None:
            pattern = fields.get(name, "")
            return regex.compile(pattern) if pattern else None

        self.label = label
        self.summary = compiled("summary")
        self.failed = compiled("failed")
        self.passing = compiled("passing")
        self.noise = compiled("noise")
        self.tree_start = compiled("tree_start")
        self.tree_end = compiled("tree_end")
        self.fail_item = compiled("fail_item")
        self.strip = compiled("strip")
        self.skip_block = compiled("skip_block")
        self.trim = compiled("trim")
        self.item = compiled("item")
        self.item_end = compiled("item_end")
        self.item_start = compiled("item_start")
        self.frame = compiled("frame")
        self.where = compiled("where")
        self.retry = compiled("retry")
        self.listed = compiled("listed")
        self.drop = compiled("drop")
        self.diff = compiled("diff")


def _matches(pattern: Pattern[str] | None, line: str) -> bool:
    return pattern is not None and pattern.search(line) is not None


def _summarise(text: str, table: _Table) -> list[str] | None:
    raw_lines = clean_lines(text)
    lines = [table.strip.sub("", line) for line in raw_lines] if table.strip else raw_lines
    summary = [i for i, line in enumerate(lines) if _matches(table.summary, line)]
    if not summary:
        return None
    out = Summary()
    counts = _counts_line(lines, summary, table)
    if not any(_matches(table.failed, lines[i]) for i in summary):
        return _passed(lines, summary, counts, table, out)
    kept = _diff_changes(_failure_lines(lines, set(summary), table, out), table, out)
    kept = _collapsed(_merged_retries(_marked(kept, lines, table, out), table, out), out)
    for line in _frames_once(_shared_reasons(kept, table, out), table, out):
        out.add(line)
    out.add(counts, *(lines[i] for i in summary))
    return out.finish(lines)


def _counts_line(lines: list[str], summary: list[int], table: _Table) -> str:
    """The runner's label and its summary lines, each on one line (its `trim` cut)."""
    parts = [
        " ".join((table.trim.sub("", lines[i]) if table.trim else lines[i]).split())
        for i in summary
    ]
    return f"{table.label}: " + "; ".join(part for part in parts if part)


def _passed(
    lines: list[str], summary: list[int], counts: str, table: _Table, out: Summary
) -> list[str]:
    """A passing run: its counts, standing for the summary, skip, pass and noise lines."""
    out.add(counts, *(lines[i] for i in summary))
    skipped = _skipped(lines, table)
    for i, line in enumerate(lines):
        if i in skipped or _matches(table.passing, line) or _matches(table.noise, line):
            out.cover(line)
    return out.finish(lines, table.passing.search if table.passing else None)


# A JavaScript stack frame outside the project: in an installed package or in node itself
# (`at fn (node_modules/x/y.js:1:2)`, vitest's ` ❯ fn node_modules/x/y.js:1:2`,
# `at node:internal/…`).
_THIRD_PARTY = regex.compile(
    r"^\s*(?:at |❯ )(?:\S.* \(?|\()?(?:\S*node_modules/|node:)\S*"
    r":\d+(?::\d+)?\)?$"
)


def _third_party_runs(lines: list[str]) -> dict[int, int]:
    """Where each run of frames outside the project starts -> how many lines it holds."""
    runs: dict[int, int] = {}
    start = -1
    for i, line in enumerate(lines):
        if _THIRD_PARTY.match(line):
            if start < 0:
                start = i
            runs[start] = runs.get(start, 0) + 1
        elif line.strip():
            start = -1
    return runs


def _failure_lines(lines: list[str], summary: set[int], table: _Table, out: Summary) -> list[str]:
    """A failed run's lines but the summary, passing tests, noise and logging blocks; inside
    the runner's list of all tests only the failed ones. A run of stack frames in installed
    packages or node itself is one line saying how many."""
    runs = _third_party_runs(lines) if table.frame is not None or table.label == "vitest" else {}
    # a list without its end (cut output) is not a list: everything in it is kept
    has_tree = table.tree_end is not None and any(table.tree_end.search(line) for line in lines)
    in_tree = False
    kept: list[str] = []
    skipped = _skipped(lines, table)
    for i, line in enumerate(lines):
        in_tree = _in_tree(line, in_tree, has_tree and not kept, table)
        if i in summary:
            continue
        if runs.get(i, 0) > 1:  # one such frame is left out as the runner's noise
            indent = line[: len(line) - len(line.lstrip())]
            kept.append(f"{indent}… {plural(runs[i], 'frame')} in installed packages or node")
        if _THIRD_PARTY.match(line):
            out.cover(line)
            continue
        if _matches(table.item_start, line):
            out.cover(line)
            kept.append(line)  # read by _item_blocks, not shown
            continue
        if i in skipped or _dropped(lines, i, in_tree, table):
            out.cover(line)
            continue
        kept.append(line)
    return kept


# a unified diff's lines as a runner prints them: changed, context, hunk header
_DIFF_BODY = regex.compile(r"^(?:[-+] |  |@@ .* @@$)")
_DIFF_CONTEXT = regex.compile(r"^(?:  |@@ .* @@$)")


def _diff_changes(kept: list[str], table: _Table, out: Summary) -> list[str]:
    """The lines, each diff (after the table's `diff` line) without its context and hunk
    lines: the changed lines say what differs."""
    if table.diff is None:
        return kept
    shown: list[str] = []
    in_diff = False
    for line in kept:
        in_diff = (in_diff and _DIFF_BODY.match(line) is not None) or _matches(table.diff, line)
        if in_diff and _DIFF_CONTEXT.match(line):
            out.cover(line)
            continue
        shown.append(line)
    return shown


def _in_tree(line: str, in_tree: bool, may_start: bool, table: _Table) -> bool:
    """Whether `line` is inside the runner's list of all tests (which starts only where
    `may_start`, and ends at its end line)."""
    if may_start and not in_tree and _matches(table.tree_start, line):
        in_tree = True
    return in_tree and not _matches(table.tree_end, line)


def _dropped(lines: list[str], i: int, in_tree: bool, table: _Table) -> bool:
    """Whether a failed run's line says nothing of a failure: blank, a pass, the runner's
    noise (but a failing source line), a passing test of the list of all tests."""
    line = lines[i]
    return (
        not line.strip()
        or _matches(table.drop, line)
        or _matches(table.passing, line)
        or (_matches(table.noise, line) and not _failing_source(lines, i))
        or (in_tree and not _matches(table.fail_item, line))
    )


# A source excerpt's line that failed: jest and playwright mark it `> 12 |`, vitest puts a
# caret line under it. It is the assertion as written, which the error message does not say.
_EXCERPT_LINE = regex.compile(r"^\s*(?P<mark>>)?\s*\d+\s*\|")
_CARET_LINE = regex.compile(r"^\s+\|\s*\^")


def _failing_source(lines: list[str], i: int) -> bool:
    found = _EXCERPT_LINE.match(lines[i])
    if found is None:
        return False
    return found.group("mark") is not None or (
        i + 1 < len(lines) and _CARET_LINE.match(lines[i + 1]) is not None
    )


def _marked(kept: list[str], lines: list[str], table: _Table, out: Summary) -> list[str]:
    """Report headers of the tests a `listed` count names, marked with its word
    (`  11) [chrome] › a.spec.ts:3:5 › t (flaky)`)."""
    if table.listed is None or table.item is None:
        return kept
    marks: dict[str, str] = {}
    word = ""
    indent = 0
    for line in lines:
        found = table.listed.match(line)
        if found:
            word, indent = found.group(1), len(line) - len(line.lstrip())
        elif word and len(line) - len(line.lstrip()) > indent:
            marks[line.strip()] = word
        else:
            word = ""
    if not marks:
        return kept
    shown: list[str] = []
    for line in kept:
        found = table.item.match(line)
        mark = marks.get(line[found.end() :].strip()) if found else None
        if mark is not None:
            out.cover(line)
            line = f"{line} ({mark})"
        shown.append(line)
    return shown


# how often a retrying assertion polled (`9 × locator resolved to …`): an attempt that
# polled more or fewer times reads the same
_POLLS = regex.compile(r"^\s*\d+ × ")


def _merged_retries(lines: list[str], table: _Table, out: Summary) -> list[str]:
    """Each test's attempts; one whose lines read like an earlier attempt of the same test
    is a line saying which (`Retry #1, #2: the same as the first attempt`)."""
    if (
        table.retry is None
        or table.item is None
        or not any(table.retry.match(line) for line in lines)
    ):
        return lines
    shown: list[str] = []
    attempts: dict[tuple[str, ...], str] = {}  # an attempt's lines -> which attempt it was
    same: list[tuple[str, str, str]] = []  # (indent, retry number, earlier attempt) not yet said
    opener = ""
    body: list[str] = []

    def say_same() -> None:
        while same:
            indent, _, earlier = same[0]
            run = [number for _, number, like in same if like == earlier]
            count = len(run) if all(like == earlier for _, _, like in same[: len(run)]) else 1
            shown.append(f"{indent}Retry {', '.join(run[:count])}: the same as {earlier}")
            del same[:count]

    def close(next_opener: str) -> None:
        nonlocal opener
        key = tuple(_POLLS.sub("", line) for line in body)
        earlier = attempts.get(key) if opener else None
        if earlier is not None and body:
            out.cover(opener)
            for line in body:
                out.cover(line)
            indent = opener[: len(opener) - len(opener.lstrip())]
            same.append((indent, opener.split()[-1], earlier))
        else:
            say_same()
            if opener:
                shown.append(opener)
                attempts.setdefault(key, "retry " + opener.split()[-1])
            shown.extend(body)
        body.clear()
        opener = next_opener

    for line in lines:
        if table.item.match(line):
            close("")
            say_same()
            attempts.clear()
            shown.append(line)
        elif table.retry.match(line):
            if not opener and not attempts:
                attempts[tuple(_POLLS.sub("", line) for line in body)] = "the first attempt"
            close(line)
        else:
            body.append(line)
    close("")
    say_same()
    return shown


def _collapsed(lines: list[str], out: Summary) -> list[str]:
    """Runs of identical lines as one line with `(×N)`."""
    kept: list[str] = []
    run = 0
    for line in lines:
        if kept and line == kept[-1] and run >= 0:
            run += 1
            out.cover(line)
            continue
        if run:
            kept[-1] += f" (×{run + 1})"
        run = 0
        kept.append(line)
    if run:
        kept[-1] += f" (×{run + 1})"
    return kept


def _shared_reasons(lines: list[str], table: _Table, out: Summary) -> list[str]:
    """Failed tests whose reasons read the same (but for the test's own name) shown once:
    each test's header and locations, then the reason lines they share."""
    if table.item is None or not any(table.item.match(line) for line in lines):
        return [line for line in lines if not _matches(table.item_start, line)]
    head, blocks, tail = _item_blocks(lines, table)
    groups: dict[tuple[str, ...], list[tuple[list[str], list[str]]]] = {}
    for named, reasons in blocks:
        name = table.item.sub("", named[0]).split(" ", 1)[0]
        key = tuple(line.replace(name, "…") if len(name) > 3 else line for line in reasons)
        groups.setdefault(key, []).append((named, reasons))
    shown = head
    for key, members in groups.items():
        for named, reasons in members:
            shown.extend(named)
            for line in reasons:
                out.cover(line)  # said by the shared lines below
        shown.extend(members[0][1] if len(members) == 1 else key)
    return shown + tail


def _frames_once(lines: list[str], table: _Table, out: Summary) -> list[str]:
    """Each backtrace frame once: a run of frames already shown is one line saying how
    many (failures in one code path repeat its frames)."""
    if table.frame is None:
        return lines
    seen: set[str] = set()
    kept: list[str] = []
    run, indent = 0, ""
    for line in lines:
        if table.frame.match(line):
            if line.strip() in seen:
                if not run:
                    indent = line[: len(line) - len(line.lstrip())]
                run += 1
                out.cover(line)
                continue
            seen.add(line.strip())
        if run:
            kept.append(f"{indent}… {plural(run, 'frame')} as above")
            run = 0
        kept.append(line)
    if run:
        kept.append(f"{indent}… {plural(run, 'frame')} as above")
    return kept


Block = tuple[list[str], list[str]]  # (header and locations, reason lines)


def _item_blocks(lines: list[str], table: _Table) -> tuple[list[str], list[Block], list[str]]:
    """(lines before the first test, each failed test's block, the run's lines after the
    last one). With `item_end`, a test's block also holds the lines printed above its
    header since the previous block ended."""
    head: list[str] = []
    blocks: list[Block] = []
    pending: list[str] = []  # after a block's end: the next test's own output
    open_block = False
    retried = False  # the locations of a later attempt stay with its reasons
    for line in lines:
        if _matches(table.item_start, line):
            open_block = False
        elif table.item is not None and table.item.match(line):
            lead = pending if table.item_end is not None else []
            blocks.append(([line], lead))
            pending, open_block, retried = [], True, False
        elif not blocks and table.item_end is None:
            head.append(line)
        elif not open_block or _matches(table.item_end, line):
            open_block = False
            pending.append(line)
        elif _matches(table.retry, line):
            retried = True
            blocks[-1][1].append(line)
        elif _matches(table.where, line) and not retried:
            blocks[-1][0].append(line)
        else:
            blocks[-1][1].append(line)
    return head, blocks, pending


def _skipped(lines: list[str], table: _Table) -> set[int]:
    """Indices of the lines inside the program's own logging blocks (`skip_block`)."""
    if table.skip_block is None:
        return set()
    skipped: set[int] = set()
    indent = -1
    for i, line in enumerate(lines):
        if indent >= 0:
            if not line.strip():
                skipped.add(i)
                if indent == 0:
                    indent = -1
                continue
            if indent == 0 or len(line) - len(line.lstrip()) > indent:
                skipped.add(i)
                continue
            indent = -1
        if table.skip_block.search(line):
            indent = len(line) - len(line.lstrip())
            skipped.add(i)
    return skipped


def _formatter(runner: str) -> Callable[[str], list[str] | None]:
    tables: list[_Table] = []

    @summariser
    def summarise(text: str) -> list[str] | None:
        if not tables:
            # compiled on first use: a run reads one runner's table, not all of them
            tables.append(_Table(runner, _RUNNERS[runner]))
        return _summarise(text, tables[0])

    summarise.__name__ = f"{runner}_output"
    return summarise


FORMATTERS = {runner: _formatter(runner) for runner in _RUNNERS}


# `npm test` and friends: the runner behind the script is read off its summary.
_DETECT_ORDER = ("jest", "vitest", "mocha", "ava", "playwright", "tap")


@summariser
def detect_runner(text: str) -> list[str] | None:
    """The first runner whose table reads the output, or None."""
    for runner in _DETECT_ORDER:
        shown = FORMATTERS[runner](text)
        if shown is not None:
            return shown
    return None
