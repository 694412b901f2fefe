"""Maven's test runs (surefire and failsafe, in `mvn test`, `verify`, `install`): a pass is its
counts and time on one line; a failure is each failed test with its exception lines and the
stack frames of the project's own code, then the counts.

Stdlib only (hot path). Surefire prints, per test class, `Running CLASS`, whatever the tests
wrote to stdout, and the class's `Tests run: ... - in CLASS` line; then the report of each
failed test of the class (`name  Time elapsed: ... <<< FAILURE!`, the exception, its frames,
a blank line). After all classes its `Results:` section says each failure again on one line
(`Class.method:42 message`), then the counts. What this keeps of that:
- a passing class's stdout is the program's own logging and is left out; a failed class's
  is left out but for its error and warning lines (with -q, which prints no `Running`,
  the lines before a class's counts are its stdout);
- a failure's frames inside the JDK, JUnit, surefire and other libraries are left out (the
  project's code is the packages of the test classes that ran), and `... N more`;
- a `Results:` line is left out when the failure it names was reported in full above.
Maven's banners, plugin headings and the help it prints under every failed build are noise.
`maven_output` reads any mvn run: the compiler's diagnostics grouped (`diagnostics.py`), then
the tests when it ran some.
"""

from __future__ import annotations

from rtok._fast import regex
from rtok.filter.formatters.diagnostics import FORMATTERS as DIAGNOSTICS
from rtok.filter.formatters.diagnostics import grouped_diagnostics
from rtok.filter.formatters.summary import Summary, clean_lines, counted, shortened, summariser
from rtok.filter.protect import is_protected

TYPE_CHECKING = False
if TYPE_CHECKING:
    from re import Match

_TAG = regex.compile(r"^\[(?:INFO|ERROR|WARNING|WARN|DEBUG)\](?: |$)")
# the counts of a whole module (a class's own line goes on with `, Time elapsed`)
_TOTAL = regex.compile(
    r"^Tests run: (\d+), Failures: (\d+), Errors: (\d+), Skipped: (\d+)"
    r"(?:, Flakes: (\d+))?$"
)
_CLASS_DONE = regex.compile(
    r"^Tests run: \d+, Failures: (\d+), Errors: (\d+), Skipped: \d+, "
    r"Time elapsed: .*?(?: --? in (?P<cls>\S+))?$"
)
_RUNNING = regex.compile(r"^Running (\S+)$")
# one failed test's report: `name(Class)  Time elapsed: 0.01 s  <<< FAILURE!` (surefire 2),
# `Class.name -- Time elapsed: 0.01 s <<< ERROR!` (surefire 3)
_FAILED = regex.compile(
    r"^(?P<name>\S.*?)\s+(?:-- )?Time elapsed: [\d.,]+ s(?:ec)?\s+"
    r"<<< (?P<kind>FAILURE|ERROR)!$"
)
_FRAME = regex.compile(r"^\s+at (?:[\w.-]+/)?(?P<where>[\w$.]+)\(")
_MORE = regex.compile(r"^\s+\.\.\. \d+ more$")
# frames of the JDK, test frameworks and build tools, whatever the project's packages are
_LIBRARY = regex.compile(
    r"^(?:java|javax|jdk|sun|com\.sun|junit|org\.junit|org\.apache\.maven|"
    r"org\.hamcrest|org\.opentest4j|org\.assertj|org\.mockito|org\.testng|"
    r"kotlin|scala|groovy|org\.codehaus\.groovy|org\.spockframework)\."
)
_RESULTS_HEAD = regex.compile(
    r"^(?:Results\s*:|Failures:|Errors:|Flakes:|Failed tests:|"
    r"Tests in error:)\s*$"
)
# `Class.method:42 message` / `Class.method » Exception message`, or surefire 2.12's
# `method(Class): message`
_RESULT_ITEM = regex.compile(
    r"^\s+(?:Run \d+: )?(?P<id>[\w$.]+?(?:\([\w$.]+\))?)(?::\d+)?"
    r"(?::? |$)"
)
_BUILD = regex.compile(r"^BUILD (?:SUCCESS|FAILURE)$")
_TOTAL_TIME = regex.compile(r"^Total time:\s+(?P<time>.+?)(?: \(Wall Clock\))?$")
_NOISE = regex.compile(
    r"^(?:-{3,}|T E S T S|Scanning for projects|Building |--- |Changes "
    r"detected|Compiling \d+ source|Nothing to compile|skip non existing|"
    r"Copying \d+ resource|Using '|Finished at:|Reactor Summary|Download|"
    r"\S+ \S+ \.{3,} (?:SUCCESS|FAILURE|SKIPPED)|(?:\S+: )?(?:Some input "
    r"files use|Recompile with -Xlint)|Some messages have been simplified|"
    r"-> \[Help 1\]|\[Help 1\] http|To see the full stack trace|Re-run Maven "
    r"using|For more information about the errors|Please refer to |"
    r"Failed to execute goal \S+:maven-(?:surefire|failsafe)-plugin:\S+ "
    r".*There (?:are|was) test failures|Tests are skipped|$)"
)


class _Reader:
    """One pass over the lines, in three places: a class's run (its stdout), the reports
    of its failed tests, and the `Results:` section."""

    __slots__ = (
        "block",
        "build",
        "kept",
        "out",
        "own",
        "owner",
        "place",
        "reported",
        "time",
        "totals",
    )

    def __init__(self, own: tuple[str, ...]) -> None:
        self.out = Summary()
        self.own = own
        self.kept: list[str] = []
        self.block: list[str] = []  # the stdout of the class running
        self.reported: set[tuple[str, str]] = set()  # (class, method) reported in full
        self.owner = ""  # the class whose failures are being reported
        self.place = "build"
        self.totals: list[tuple[int, ...]] = []
        self.build = ""
        self.time = ""

    def read(self, raw: str) -> None:
        tag = _TAG.match(raw)
        line = raw[tag.end() :] if tag is not None else raw
        if self._structure(raw, line):
            return
        if tag is None and self.place in ("class", "build"):
            # -q prints no `Running CLASS`: what a test wrote then belongs to the class
            # whose counts come next
            self.block.append(raw)
            return
        if tag is None and self.place == "report":
            self._report_line(raw, line)
            return
        if self.place == "results" and (item := _RESULT_ITEM.match(line)) is not None:
            self._result_item(raw, line, item)
            return
        if _NOISE.match(line):
            self.out.cover(raw)
        elif is_protected(raw) or tag is None:
            self.kept.append(raw)
        else:
            self.out.cover(raw)

    def _structure(self, raw: str, line: str) -> bool:
        """The lines that move from one place to the next, and the counts."""
        running = _RUNNING.match(line)
        if running is not None:
            # what came before is no test's output: its error lines stay
            self._end_class(passed=False)
            self.place = "class"
        elif (done := _CLASS_DONE.match(line)) is not None:
            self._class_done(done)
        elif (found := _TOTAL.match(line)) is not None:
            self.totals.append(tuple(int(n or 0) for n in found.groups()))
            self.place = "build"
        elif _RESULTS_HEAD.match(line):
            self._end_class(passed=False)
            self.place = "results"
        elif _BUILD.match(line):
            self.build = line
        elif (timed := _TOTAL_TIME.match(line)) is not None:
            self.time = timed.group("time")
        elif self.place == "report" and (failed := _FAILED.match(line)) is not None:
            self._failed_test(failed)
        else:
            return False
        self.out.cover(raw)
        return True

    def _class_done(self, done: Match[str]) -> None:
        passed = done.group(1) == "0" and done.group(2) == "0"
        self.owner = done.group("cls") or ""
        self._end_class(passed)
        self.place = "build" if passed else "report"

    def _end_class(self, passed: bool) -> None:
        for raw in self.block:
            if passed or not is_protected(raw):
                self.out.cover(raw)
            else:
                self.kept.append(raw)
        self.block = []

    def _failed_test(self, found: Match[str]) -> None:
        name = found.group("name")
        owner, method = _test_key(name)
        # JUnit 5 names only the method (`testArea()`): the class is the one reported on
        self.reported.add((owner or self.owner.rsplit(".", 1)[-1], method))
        self.kept.append(f"{name} <<< {found.group('kind')}!")

    def _report_line(self, raw: str, line: str) -> None:
        if not line.strip():
            self.out.cover(raw)
            return
        frame = _FRAME.match(line)
        if _MORE.match(line) or (frame is not None and not self._is_own(frame.group("where"))):
            self.out.cover(raw)
            return
        self.kept.append(shortened(line))
        self.out.cover(raw)

    def _is_own(self, where: str) -> bool:
        if _LIBRARY.match(where):
            return False
        return not self.own or where.startswith(self.own)

    def _result_item(self, raw: str, line: str, found: Match[str]) -> None:
        if _test_key(found.group("id")) not in self.reported:
            self.kept.append(shortened(line.strip()))
        self.out.cover(raw)

    def counts(self) -> str:
        names = ("Tests run", "Failures", "Errors", "Skipped", "Flakes")
        sums = [sum(total[i] for total in self.totals) for i in range(5)]
        said = ", ".join(
            f"{name}: {n}" for name, n in zip(names, sums, strict=True) if name != "Flakes" or n
        )
        modules = f" in {len(self.totals)} modules" if len(self.totals) > 1 else ""
        tail = "".join(f" · {part}" for part in (self.build, self.time) if part)
        return f"maven: {said}{modules}{tail}"


def _test_key(name: str) -> tuple[str, str]:
    """(simple class name, method) of `method(pkg.Class)`, `pkg.Class.method` or
    `Class.method`, so a report and its `Results:` line are known as the same test."""
    if "(" in name and name.endswith(")"):
        method, owner = name[:-1].split("(", 1)
    else:
        owner, _, method = name.rpartition(".")
    return owner.rsplit(".", 1)[-1], method.split("[", 1)[0]


def _own_packages(lines: list[str]) -> tuple[str, ...]:
    """The packages of the test classes that ran (up to three parts, `org.json.simple.`):
    the project's own code, whose frames a failure keeps."""
    packages: set[str] = set()
    for raw in lines:
        tag = _TAG.match(raw)
        running = _RUNNING.match(raw[tag.end() :] if tag is not None else raw)
        if running is not None:
            parts = running.group(1).split(".")[:-1][:3]
            if parts:
                packages.add(".".join(parts) + ".")
    return tuple(sorted(packages))


@summariser
def surefire_output(text: str) -> list[str] | None:
    """Maven's output of a test run, or None when it ran no tests (no module's counts)."""
    return _tests(text, [], set())


def _tests(text: str, before: list[str], stands_for: set[str]) -> list[str] | None:
    """The test run's summary after the lines `before`, which stand for the raw lines
    `stands_for` (stripped)."""
    lines = clean_lines(text)
    reader = _Reader(_own_packages(lines))
    for line in lines:
        reader.read(line)
    if not reader.totals:
        return None
    reader._end_class(passed=False)  # a class cut off before its counts (a crashed fork)
    out = reader.out
    out.covered.update(stands_for)
    for line in before:
        out.add(line)
    failing = any(total[1] or total[2] for total in reader.totals)
    kept = [line for line in reader.kept if line.strip() not in stands_for]
    if not failing:
        # a pass: what maven warned about (once each, with a count), and its counts
        for line in kept:
            out.cover(line)
        kept = counted([line for line in kept if is_protected(line)])
    for line in kept:
        out.add(line)
    out.add(reader.counts())
    return out.finish(lines)


@summariser
def maven_output(text: str) -> list[str] | None:
    """Any mvn run: its compiler's diagnostics grouped, then its tests when it ran some."""
    diagnostics = grouped_diagnostics(text, "mvn")
    before, stands_for = diagnostics if diagnostics is not None else ([], set())
    shown = _tests(text, before, stands_for)
    return shown if shown is not None else DIAGNOSTICS["mvn"](text)
