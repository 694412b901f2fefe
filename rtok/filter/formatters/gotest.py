"""go test (plain, -v and -json): a pass is its packages and counts; a failure is each
failed package's failed tests, each with its own lines (the same line within a test once,
with how often it came; tests of one package whose lines read the same share them), then
the package's result line, then the ok packages by name and the counts. Without -v go names
only the tests that failed, so no pass count is given.

Stdlib only (hot path). Lines a test logs belong to the test named by the last `=== RUN`,
`=== CONT` or `=== NAME` (-v), or follow its `--- FAIL` line (plain; a failed example's
got/want lines and a panic's are not indented). Tests are scoped by package: a name met
again after a package's result line is another package's test. In a failed run a
passing test's lines are dropped unless they carry an error word; a run whose packages are
all ok is its packages, counts and time only (a `--- FAIL` there comes from a test that
runs tests of its own). What a failure repeats is left out: testify's `Error Trace:` at the
location already shown and its `Test:` line, goroutine numbers, frame arguments, `(0.00s)`
times. A failure's details (dumped values, diffs, the input a test read) are cut after a
few lines under each location, and counted where they were cut; past the first failures
only the locations and error lines stay (testify's bare location joined to its `Error:`).
"""

from __future__ import annotations

from rtok._fast import regex
from rtok.filter.formatters.diagnostics import FORMATTERS
from rtok.filter.formatters.summary import (
    Summary,
    clean_lines,
    count_lines,
    plural,
    shortened,
    summariser,
)
from rtok.filter.protect import is_protected

TYPE_CHECKING = False
if TYPE_CHECKING:
    from re import Match

_EVENT = regex.compile(r"^=== (?P<kind>RUN|PAUSE|CONT|NAME)\s+(?P<name>\S+)")
_END = regex.compile(
    r"^(?P<indent>\s*)--- (?P<kind>PASS|FAIL|SKIP): (?P<name>\S+)(?: \((?P<time>"
    r"[\d.]+s)\))?"
)
_PACKAGE = regex.compile(r"^(?P<kind>ok|FAIL|\?)\s+(?P<pkg>\S+)\s*(?P<rest>.*)$")
_BARE = regex.compile(r"^(?:PASS|FAIL|testing: warning: no tests to run)$")
_EXIT = regex.compile(r"^exit status \d+$")
_SECONDS = regex.compile(r"^([\d.]+)s\b")
# a goroutine frame inside Go's own runtime and test harness: its file line
_RUNTIME_FILE = regex.compile(
    r"^\s*\S*/go(?:-[\d.]+)?/src/"
    r"(?:runtime|testing|reflect|sync|internal)/"
    r"\S+\.go:\d+(?: \+0x[0-9a-f]+)?$"
)
_CREATED_BY = regex.compile(r"^\s*created by (?:testing|runtime)\.")
# A goroutine frame's argument words and its file line's code offset differ from one run of
# the same stack to the next; without them a stack repeated across tests is shown once.
_FRAME_ARGS = regex.compile(
    r"^(?P<call>\s*\S*[\w)]\.[\w.*()]*?\w)\((?=[^()]*0x)"
    r"(?:[^()]|\([^()]*\))*\)$"
)
_FRAME_OFFSET = regex.compile(r"^(?P<file>\s*\S+\.go:\d+) \+0x[0-9a-f]+$")
_GOROUTINE = regex.compile(r"^(?P<lead>.*\bgoroutine )\d+ (?P<state>\[.*\]:)$")
# testify's report: the test's own location line, its `Error Trace:` entries (more of them on
# the lines after it) and the `Test:` line that names the test
_PLACE = regex.compile(r"^\s*(?P<place>[\w.-]+\.go:\d+):")
_BARE_PLACE = regex.compile(r"^\s*[\w.-]+\.go:\d+:\s*$")
_TRACE = regex.compile(r"^\s*Error Trace:\s+\S+\.go:\d+$")
_TRACE_MORE = regex.compile(r"^\s+\S+\.go:\d+$")
_EMPTY_TRACE = regex.compile(r"^\s*Error Trace:\s*$")  # testify left out its own frames
# testify's reason, joined to the bare location above it
_ERROR_LABEL = regex.compile(r"^\s*Error:\s+\S")
_TEST_LINE = regex.compile(r"^\s*Test:\s+(?P<name>\S+)$")
# testify pads its labels to one width (`Error:      \tNot equal:`, `actual  : 2`)
_LABEL = regex.compile(
    r"^(?P<lead>\s*)(?P<label>Error Trace|Error|Test|Messages|expected|actual)"
    r" *:[ \t]+(?=\S)"
)


def frame_shape(line: str) -> str:
    """A goroutine frame without its argument words, its file line without the offset, a
    goroutine's header without its number."""
    if "goroutine " in line:
        header = _GOROUTINE.match(line)
        if header is not None:
            return f"{header.group('lead')}{header.group('state')}"
    if "0x" not in line:
        return line
    args = _FRAME_ARGS.match(line)
    if args is not None:
        return f"{args.group('call')}(…)"
    offset = _FRAME_OFFSET.match(line)
    return offset.group("file") if offset is not None else line


def without_runtime_frames(lines: list[str]) -> list[str]:
    """A goroutine dump without the frames of Go's runtime and testing packages (each is a
    function line followed by its file line)."""
    out: list[str] = []
    skip_next = False
    for line in lines:
        if skip_next:
            skip_next = False
            if _RUNTIME_FILE.match(line):
                continue
        if _RUNTIME_FILE.match(line):
            if out and not _RUNTIME_FILE.match(out[-1]):
                out.pop()
            continue
        if _CREATED_BY.match(line):
            skip_next = True
            continue
        out.append(line)
    return out


class _Test:
    __slots__ = ("failed", "lines", "name", "package", "time")

    def __init__(self, name: str) -> None:
        self.name = name
        self.lines: list[str] = []
        self.failed = False
        self.time = ""
        self.package = ""  # the package result line that closed its scope


class _Run:
    """What one pass over the output found: tests in order, lines outside any test, counts.
    Tests are scoped by package: go prints a package's tests, then its result line, so a
    name met again after a result line is another package's test."""

    __slots__ = ("current", "loose", "order", "passed", "scope", "skipped", "tests", "verbose")

    def __init__(self) -> None:
        self.tests: dict[str, _Test] = {}
        self.order: list[_Test] = []
        self.scope: list[_Test] = []  # tests since the last package result line
        self.current: _Test | None = None
        self.loose: list[str] = []
        self.passed = 0
        self.skipped = 0
        self.verbose = False  # -v: every test's result is printed, so passes can be counted

    def test(self, name: str) -> _Test:
        test = self.tests.get(name)
        if test is None:
            test = self.tests[name] = _Test(name)
            self.order.append(test)
            self.scope.append(test)
        return test

    def end(self, kind: str, name: str, time: str) -> None:
        test = self.test(name)
        test.time = time
        if kind == "FAIL":
            test.failed = True
            self.current = test  # plain mode: its reasons follow this line
            return
        self.verbose = True  # go prints passing and skipped tests only with -v
        if kind == "PASS":
            self.passed += 1
        else:
            self.skipped += 1
        self.current = None

    def close_package(self, line: str) -> None:
        for test in self.scope:
            test.package = line
        self.scope = []
        self.tests = {}

    def read(self, line: str, out: Summary) -> None:
        event = _EVENT.match(line)
        if event is not None:
            out.cover(line)
            self.verbose = True
            self.current = self.test(event.group("name"))
            return
        end = _END.match(line)
        if end is not None:
            out.cover(line)
            self.end(end.group("kind"), end.group("name"), end.group("time") or "")
            return
        package = _PACKAGE.match(line)
        if package is not None or _BARE.match(line):
            out.cover(line)
            self.current = None
            if package is not None:
                self.close_package(line)
            return
        if not line.strip():
            return
        current = self.current
        # a failed example prints its got/want lines unindented; a test that panics, its
        # goroutines
        if current is not None and (
            line[:1].isspace() or (current.failed and not _EXIT.match(line))
        ):
            current.lines.append(line)
            return
        self.current = None
        self.loose.append(line)


def _json_output(text: str) -> str | None:
    """The text a `go test -json` run printed (its events' Output fields), or None."""
    if not text.lstrip().startswith('{"'):
        return None
    import json

    parts: list[str] = []
    for line in text.splitlines():
        if not line.startswith("{"):
            parts.append(line + "\n")  # build errors come as plain text between events
            continue
        try:
            event = json.loads(line)
        except ValueError:
            return None
        output = event.get("Output") if isinstance(event, dict) else None
        if isinstance(output, str):
            parts.append(output)
    return "".join(parts)


def _trimmed(lines: list[str], out: Summary) -> list[str]:
    """Lines without runtime frames and frame arguments (what they stood for is covered)."""
    kept = without_runtime_frames(lines)
    for line in set(lines).difference(kept):
        out.cover(line)
    shaped = [frame_shape(line) for line in kept]
    for line, shape in zip(kept, shaped, strict=True):
        if shape != line:
            out.cover(line)
    return shaped


def without_echoes(test: _Test, out: Summary) -> list[str]:
    """A failed test's lines without those that repeat what is already shown: testify's
    `Error Trace:` entries at a location the test's own `file.go:N:` line names (an empty
    `Error Trace:` too), and its `Test:` line naming this test."""
    places = {found.group("place") for found in map(_PLACE.match, test.lines) if found is not None}
    kept: list[str] = []
    in_trace = False
    for line in test.lines:
        if _EMPTY_TRACE.match(line):
            out.cover(line)
            continue
        trace = _TRACE.match(line)
        if trace is not None or (in_trace and _TRACE_MORE.match(line)):
            in_trace = True
            entry = line.rsplit("/", 1)[-1].split("\t")[-1].strip()
            if entry in places:
                out.cover(line)
                continue
        else:
            in_trace = False
            named = _TEST_LINE.match(line)
            if named is not None and named.group("name") == test.name:
                out.cover(line)
                continue
        relabelled = _LABEL.sub(r"\g<lead>\g<label>: ", line)
        if relabelled != line:
            out.cover(line)
        kept.append(relabelled)
    return kept


def _loose_lines(loose: list[str], out: Summary) -> None:
    """Lines outside any test: a build failure through go's diagnostics table, else as is."""
    build = FORMATTERS["go"]("\n".join(loose)) if loose else None
    if build is not None:
        for line in build:
            out.add(line)
        for line in loose:
            out.cover(line)
        return
    for line, count in count_lines([line for line in loose if not _EXIT.match(line)]):
        out.add(shortened(line) + (f" (×{count})" if count > 1 else ""), line)


def _failures(failed: list[_Test], out: Summary) -> set[str]:
    """Each failed test with its own lines (the same line within a test once, with how
    often it came; a bare `file.go:N:`, testify's location, every time it came). Tests of
    one package whose lines read the same share them: their names, then the lines once.
    Each package's failures are followed by its result line (those shown are returned)."""
    blocks: dict[tuple[str, tuple[str, ...]], list[_Test]] = {}
    for test in failed:
        key = tuple(line.strip() for line in test.lines)
        blocks.setdefault((test.package, key), []).append(test)
    packages: dict[str, list[tuple[tuple[str, ...], list[_Test]]]] = {}
    for (package, key), tests in blocks.items():
        packages.setdefault(package, []).append((key, tests))
    shown = 0
    for package, groups in packages.items():
        for _, tests in groups:
            details = DETAIL_LINES if shown < MANY_FAILURES else FEW_DETAIL_LINES
            shown += 1
            for test in tests:
                # a time is left out when it says nothing (0.00s)
                time = f" ({test.time})" if test.time and test.time.strip("0.s") else ""
                out.add(f"--- FAIL: {test.name}{time}")
            _test_lines(tests[0], out, details)
            for test in tests[1:]:
                for line in test.lines:
                    out.cover(line)
        if package:
            out.add(package)
    return set(packages)


def _test_lines(test: _Test, out: Summary, details: int) -> None:
    """A test's lines, each once with how often it came (a test run with -count=N logs
    them N times; a bare `file.go:N:`, testify's location, is counted where it comes),
    each location with at most `details` lines of its details. A failed example's got and
    want lines are its output, in order and whole: only a run of the same line is said
    once."""
    if test.name.startswith("Example"):
        for line, count in _runs(test.lines, out):
            out.add(f"    {shortened(line.strip())}" + (f" (×{count})" if count > 1 else ""), line)
        return
    _detail_capped(_counted_lines(test, out), out, details)


def _counted_lines(test: _Test, out: Summary) -> list[tuple[str, str]]:
    """Each raw line of a test once, with what is shown for it."""
    places = _counts_by_text([line for line in test.lines if _BARE_PLACE.match(line)])
    seen = _counts_by_text(test.lines)
    shown: set[str] = set()
    lines: list[tuple[str, str]] = []
    for line in test.lines:
        key = line.strip()
        if key in places:
            count = places.pop(key)
        elif key in shown:
            out.cover(line)
            continue
        else:
            count = seen[key]
        shown.add(key)
        lines.append((line, f"    {shortened(key)}" + (f" (×{count})" if count > 1 else "")))
    return lines


# A failure's details (a dumped value, a diff, the input it read) are shown up to this many
# lines after each location the test logged, and the block's last line (go-cmp's `reason:`);
# its error lines and locations always are, and the rest is counted on one line where it
# was cut (the archive has it).
DETAIL_LINES = 3
# a run with more failures than this shows one detail line per location: the agent reads
# every failure's location and reason, and a few examples' values are in the archive
MANY_FAILURES = 10
FEW_DETAIL_LINES = 0
# where a panic's goroutine dump starts (its number already left out), and how many of its
# lines (a frame is two: the call and its file line) are shown before the rest is counted
DUMP_LINES = 6
_GOROUTINE_DUMP = regex.compile(r"^\s*goroutine (?:\d+ )?\[")
# a diff's own lines (testify prints one under `Diff:`), never a block's closing line
_DIFF_LINE = regex.compile(r"^\s*(?:[-+@]|Diff:$)")


def _detail_capped(lines: list[tuple[str, str]], out: Summary, details: int) -> None:
    """The lines shown, each location followed by at most DETAIL_LINES of its details."""
    block: list[tuple[str, str]] = []
    for raw, shown in lines:
        if _PLACE.match(raw) is not None and block:
            _block_lines(block, out, details)
            block = []
        block.append((raw, shown))
    if block:
        _block_lines(block, out, details)


def _block_lines(block: list[tuple[str, str]], out: Summary, allowed: int) -> None:
    """One location's lines: its first details, its error lines and its last line (unless
    a diff's); the others counted on one line where the first of them was."""
    details = 0
    cut: list[tuple[str, str]] = []
    last = len(block) - 1 if not _DIFF_LINE.match(block[-1][0]) else len(block)
    first = _head(block, out)
    for at, (raw, shown) in enumerate(block[first:], start=first):
        dump = allowed and _GOROUTINE_DUMP.match(raw) is not None
        if dump:
            # a panic's innermost frames are where it happened: more of them are shown
            # (past the first failures its details are cut like any others)
            details, allowed = 0, max(allowed, DUMP_LINES)
        elif at < last and not is_protected(raw):
            details += 1
            if details > allowed:
                cut.append((raw, shown))
                continue
        if cut:
            _cut_marker(cut, out)
            cut = []
        out.add(shown, raw)
    if cut:
        _cut_marker(cut, out)


def _head(block: list[tuple[str, str]], out: Summary) -> int:
    """Shows a block's first line, testify's bare location joined to its `Error:` line
    when both came as often; returns how many lines that took."""
    (raw, shown), rest = block[0], block[1:]
    if _BARE_PLACE.match(raw) and rest and _ERROR_LABEL.match(rest[0][0]):
        place, count = _count_suffix(shown)
        reason, same = _count_suffix(rest[0][1])
        if count == same:
            out.add(f"{place} {reason.strip()}{count}", raw, rest[0][0])
            return 2
    out.add(shown, raw)
    return 1


def _count_suffix(shown: str) -> tuple[str, str]:
    """A shown line split into its text and its ` (×N)` (or "")."""
    text, mark, count = shown.rpartition(" (×")
    if mark and count.endswith(")") and count[:-1].isdigit():
        return text, mark + count
    return shown, ""


def _cut_marker(cut: list[tuple[str, str]], out: Summary) -> None:
    """A run of detail lines left out: one line saying how many raw lines they were (a
    line that came N times counts N; a single line is shown)."""
    if len(cut) == 1:
        out.add(cut[0][1], cut[0][0])
        return
    lines = 0
    for raw, shown in cut:
        out.cover(raw)
        count = _count_suffix(shown)[1]
        lines += int(count[3:-1]) if count else 1
    out.add(f"    … {lines} more lines")


def _runs(lines: list[str], out: Summary) -> list[tuple[str, int]]:
    runs: list[tuple[str, int]] = []
    for line in lines:
        if runs and runs[-1][0].strip() == line.strip():
            runs[-1] = (runs[-1][0], runs[-1][1] + 1)
            out.cover(line)
        else:
            runs.append((line, 1))
    return runs


def _counts_by_text(lines: list[str]) -> dict[str, int]:
    """How often each line came, keyed by its text without indent."""
    return {line.strip(): n for line, n in count_lines(lines)}


def _passing_errors(passing: list[_Test], out: Summary, run_failed: bool) -> None:
    """A passing test's logged lines: in a failed run only those with an error word, each
    once (a test run with -count=N logs the same lines N times); in a passing run none (a
    test that checks failures logs them, and go still reports it ok)."""
    logged: dict[str, int] = {}
    for test in passing:
        for line in test.lines:
            if run_failed and is_protected(line):
                logged[line] = logged.get(line, 0) + 1
            else:
                out.cover(line)
    for line, count in logged.items():
        out.add(line + (f" (×{count})" if count > 1 else ""), line)


def _counts(
    packages: list[Match[str]], run: _Run, failed: int, out: Summary, shown: set[str]
) -> None:
    """The failed packages not shown yet, the ok packages by name, then one counts line."""
    by_kind: dict[str, list[Match[str]]] = {"ok": [], "FAIL": [], "?": []}
    for package in packages:
        by_kind[package.group("kind")].append(package)
    ok, bad = by_kind["ok"], by_kind["FAIL"]
    for package in bad:
        if package.group(0) not in shown:  # a build failure, or a failed package's own error
            out.add(package.group(0))
    if ok:
        out.add("ok: " + ", ".join(package.group("pkg") for package in ok))
    parts = [plural(len(ok), "package") + " ok"]
    if bad:
        parts.append(f"{len(bad)} failed")
    if by_kind["?"]:
        parts.append(f"{len(by_kind['?'])} without tests")
    tests = _test_counts(run, failed)
    if tests:
        parts.append("tests: " + ", ".join(tests))
    seconds = _seconds(ok + bad)
    if seconds:
        parts.append(seconds)
    out.add("go test: " + "; ".join(parts))


def _test_counts(run: _Run, failed: int) -> list[str]:
    """Without -v go names only the tests that failed: how many passed is not known."""
    counts = [f"{run.passed} passed"] if run.verbose else []
    if failed:
        counts.append(f"{failed} failed")
    if run.skipped:
        counts.append(f"{run.skipped} skipped")
    return counts


def _seconds(packages: list[Match[str]]) -> str:
    """The packages' times added up, or "" when none gave one."""
    found = [_SECONDS.search(package.group("rest")) for package in packages]
    seconds = [float(match.group(1)) for match in found if match is not None]
    return f"{sum(seconds):.2f}s" if seconds else ""


def _package_lines(lines: list[str]) -> list[Match[str]]:
    """The packages' result lines (a `?` line only for a package without test files)."""
    return [
        found
        for found in map(_PACKAGE.match, lines)
        if found is not None
        and (found.group("kind") != "?" or "[no test files]" in found.group("rest"))
    ]


def _shown_loose(loose: list[str], run_failed: bool, out: Summary) -> list[str]:
    """Lines outside any test, without runtime frames; in a passing run only protected ones."""
    loose = _trimmed(loose, out)
    if run_failed:
        return loose
    for line in loose:
        out.cover(line)
    return [line for line in loose if is_protected(line)]


@summariser
def go_test(text: str) -> list[str] | None:
    decoded = _json_output(text)
    if decoded is not None:
        text = decoded
    lines = clean_lines(text)
    packages = _package_lines(lines)
    if not packages:
        return None
    out = Summary()
    run = _Run()
    for line in lines:
        run.read(line, out)
    for test in run.order:
        test.lines = _trimmed(test.lines, out)
    run_failed = any(p.group("kind") == "FAIL" for p in packages)
    # every package ok: a `--- FAIL` seen is the output of a test that runs tests itself
    failed = [test for test in run.order if test.failed] if run_failed else []
    for test in failed:
        test.lines = without_echoes(test, out)
    _loose_lines(_shown_loose(run.loose, run_failed, out), out)
    shown = _failures(failed, out)
    _passing_errors([test for test in run.order if test not in failed], out, run_failed)
    _counts(packages, run, len(failed), out, shown)
    return out.finish(lines, _EXIT.match)
