"""cargo build/check/clippy (diagnostics by lint) and cargo test: a pass is its counts; a
failure is each failed test with its panic location and message, then the results.

Stdlib only (hot path).
"""

from __future__ import annotations

from rtok._fast import regex
from rtok.filter.formatters.diagnostics import FORMATTERS
from rtok.filter.formatters.summary import Summary, clean_lines, counted, plural, summariser

TYPE_CHECKING = False
if TYPE_CHECKING:
    from re import Match

cargo_build = FORMATTERS["cargo"]

_TEST = regex.compile(
    r"^test (?P<name>\S+)(?: - .*?)? \.\.\. (?P<result>ok|ignored|FAILED|"
    r"bench:.*)(?:, .*)?$"
)
_RESULT = regex.compile(
    r"^test result: (?P<word>\w+)\. (?P<passed>\d+) passed; (?P<failed>\d+) "
    r"failed; (?P<ignored>\d+) ignored; \d+ measured; (?P<filtered>\d+) "
    r"filtered out(?:; finished in (?P<time>[\d.]+)s)?"
)
_RUNNING = regex.compile(r"^\s+Running |^running \d+ tests?$|^\s+Doc-tests |^\s+Finished ")
_BLOCK = regex.compile(r"^---- (?P<name>\S+) (?:stdout|stderr) ----$")
_LIST_ITEM = regex.compile(r"^    \S+$")
_NOISE = regex.compile(r"^note: run with `RUST_BACKTRACE=1`|^note: Some details are omitted")
# A backtrace frame (`  3: name`) and the `at file:line` under it. Frames in Rust's own
# library (std, core, alloc and the test harness) say nothing about the failing code.
_FRAME = regex.compile(r"^\s*\d+: (?P<name>.+)$")
_FRAME_AT = regex.compile(r"^\s+at (?P<path>\S+)$")
_STD_FRAME = regex.compile(
    r"^(?:<?(?:core|std|alloc|test|__rustc)::|<fn\(|<F as |"
    r"__rust_|rust_begin_unwind)"
)


def without_std_frames(lines: list[str]) -> list[str]:
    """A panic's backtrace without the frames of Rust's own library."""
    out: list[str] = []
    index = 0
    while index < len(lines):
        line = lines[index]
        frame = _FRAME.match(line)
        if frame is None:
            out.append(line)
            index += 1
            continue
        at = _FRAME_AT.match(lines[index + 1]) if index + 1 < len(lines) else None
        end = index + (2 if at is not None else 1)
        if at is not None:
            own = not at.group("path").startswith("/rustc/")
        else:
            own = _STD_FRAME.match(frame.group("name")) is None
        if own:
            out.extend(lines[index:end])
        index = end
    return out


_PANIC_AT = regex.compile(r"panicked at (?P<loc>\S+?):?$")
_CLOSURE = regex.compile(r"::\{\{closure\}\}$")


def without_echo_frames(lines: list[str]) -> list[str]:
    """A backtrace without the frames that repeat the panic: the one at the location the
    panic line names and the test's closure (the harness calling the test); the
    `stack backtrace:` line goes with them when no frame is left."""
    panic = next(
        (found.group("loc") for found in map(_PANIC_AT.search, lines) if found is not None), ""
    )
    out: list[str] = []
    index = 0
    while index < len(lines):
        frame = _FRAME.match(lines[index])
        at = _FRAME_AT.match(lines[index + 1]) if frame and index + 1 < len(lines) else None
        if frame is None or at is None:
            out.append(lines[index])
            index += 1
            continue
        place = at.group("path").removeprefix("./")
        if place != panic and not _CLOSURE.search(frame.group("name")):
            out.extend(lines[index : index + 2])
        index += 2
    if out and out[-1].strip() == "stack backtrace:":
        out.pop()
    return out


class _TestRun:
    """One pass over a cargo test run: build lines, failed tests' blocks, the error tail."""

    __slots__ = ("block", "build", "failed", "in_failures", "out", "tail")

    def __init__(self, out: Summary) -> None:
        self.out = out
        self.build: list[str] = []
        self.failed: list[tuple[str, list[str]]] = []
        self.block: list[str] | None = None
        self.tail: list[str] = []
        self.in_failures = False

    def read(self, line: str) -> None:
        if self.structural(line):
            self.out.cover(line)
            return
        if self.in_failures:
            if self.block is not None and line.strip() and not _NOISE.match(line):
                self.block.append(line)
            if (
                self.block is not None
                or _LIST_ITEM.match(line)
                or not line.strip()
                or _NOISE.match(line)
            ):
                self.out.cover(line)
            return
        if _RUNNING.match(line):
            self.out.cover(line)
        elif line.startswith("error: ") and "failed" in line and "test" in line:
            self.tail.append(line)
        else:
            self.build.append(line)

    def structural(self, line: str) -> bool:
        """Reads a test result, suite result, `failures:` or block header line."""
        test = _TEST.match(line)
        if test is not None:
            if test.group("result") == "FAILED":
                _block_of(self.failed, test.group("name"))
            return True
        if _RESULT.match(line) or line == "failures:":
            self.in_failures = line == "failures:"
            self.block = None
            return True
        named = _BLOCK.match(line)
        if named is not None:
            self.block = _block_of(self.failed, named.group("name"))
            return True
        return False

    def show_build(self) -> None:
        if not self.build:
            return
        grouped = cargo_build("\n".join(self.build))
        kept = (
            grouped
            if grouped is not None
            else [
                line for line in self.build if line.strip() and not line.startswith("   Compiling ")
            ]
        )
        for line in kept:
            self.out.add(line)
        for line in self.build:
            self.out.cover(line)

    def show_failures(self) -> None:
        for name, body in self.failed:
            self.out.add(f"FAILED {name}")
            shown = without_echo_frames(without_std_frames(body))
            for line in set(body).difference(shown):
                self.out.cover(line)
            for line in counted(shown):
                self.out.add(f"  {line.strip()}", line)


@summariser
def cargo_test(text: str) -> list[str] | None:
    lines = clean_lines(text)
    results = [found for found in map(_RESULT.match, lines) if found is not None]
    if not results and not any(line.startswith(("---- ", "failures:")) for line in lines):
        return None
    out = Summary()
    run = _TestRun(out)
    for line in lines:
        run.read(line)
    run.show_build()
    run.show_failures()
    out.add(_totals(results))
    for line in run.tail:
        out.add(line)
    return out.finish(lines)


def _block_of(blocks: list[tuple[str, list[str]]], name: str) -> list[str]:
    for known, body in blocks:
        if known == name:
            return body
    blocks.append((name, []))
    return blocks[-1][1]


def _totals(results: list[Match[str]]) -> str:
    passed = sum(int(r.group("passed")) for r in results)
    failed = sum(int(r.group("failed")) for r in results)
    ignored = sum(int(r.group("ignored")) for r in results)
    filtered = sum(int(r.group("filtered")) for r in results)
    seconds = sum(float(r.group("time") or 0) for r in results)
    parts = [f"{passed} passed"]
    if failed:
        parts.append(f"{failed} failed")
    if ignored:
        parts.append(f"{ignored} ignored")
    if filtered:
        parts.append(f"{filtered} filtered out")
    word = "FAILED" if failed or any(r.group("word") != "ok" for r in results) else "ok"
    return (
        f"cargo test {word}: {', '.join(parts)} ({plural(len(results), 'suite')}, {seconds:.2f}s)"
    )
