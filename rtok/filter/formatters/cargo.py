"""cargo build/check/clippy (diagnostics by lint) and cargo test: a pass is its counts; a
failure is each failed test with its panic location and message, then the results.

Stdlib only (hot path).
"""

from __future__ import annotations

from rtok.filter import regex
from rtok.filter.formatters.diagnostics import FORMATTERS
from rtok.filter.formatters.summary import Summary, clean_lines, counted, plural, summariser

TYPE_CHECKING = False
if TYPE_CHECKING:
    from re import Match

cargo_build = FORMATTERS["cargo"]

_TEST = regex.compile(r"^test (?P<name>\S+)(?: - .*?)? \.\.\. (?P<result>ok|ignored|FAILED|"
                   r"bench:.*)(?:, .*)?$")
_RESULT = regex.compile(r"^test result: (?P<word>\w+)\. (?P<passed>\d+) passed; (?P<failed>\d+) "
                     r"failed; (?P<ignored>\d+) ignored; \d+ measured; (?P<filtered>\d+) "
                     r"filtered out(?:; finished in (?P<time>[\d.]+)s)?")
_RUNNING = regex.compile(r"^\s+Running |^running \d+ tests?$|^\s+Doc-tests |^\s+Finished ")
_BLOCK = regex.compile(r"^---- (?P<name>\S+) (?:stdout|stderr) ----$")
_LIST_ITEM = regex.compile(r"^    \S+$")
_NOISE = regex.compile(r"^note: run with `RUST_BACKTRACE=1`|^note: Some details are omitted")
# A backtrace frame (`  3: name`) and the `at file:line` under it. Frames in Rust's own
# library (std, core, alloc and the test harness) say nothing about the failing code.
_FRAME = regex.compile(r"^\s*\d+: (?P<name>.+)$")
_FRAME_AT = regex.compile(r"^\s+at (?P<path>\S+)$")
_STD_FRAME = regex.compile(r"^(?:<?(?:core|std|alloc|test|__rustc)::|<fn\(|<F as |"
                        r"__rust_|rust_begin_unwind)")


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


@summariser
def cargo_test(text: str) -> list[str] | None:
    lines = clean_lines(text)
    results = [found for found in map(_RESULT.match, lines) if found is not None]
    if not results and not any(line.startswith(("---- ", "failures:")) for line in lines):
        return None
    out = Summary()
    build: list[str] = []
    failed_blocks: list[tuple[str, list[str]]] = []
    block: list[str] | None = None
    tail: list[str] = []
    in_failures = False
    for line in lines:
        test = _TEST.match(line)
        if test is not None:
            out.cover(line)
            if test.group("result") == "FAILED" and not any(
                    name == test.group("name") for name, _ in failed_blocks):
                failed_blocks.append((test.group("name"), []))
            continue
        if _RESULT.match(line):
            out.cover(line)
            block = None
            in_failures = False
            continue
        if line == "failures:":
            out.cover(line)
            in_failures = True
            block = None
            continue
        named = _BLOCK.match(line)
        if named is not None:
            out.cover(line)
            block = _block_of(failed_blocks, named.group("name"))
            continue
        if in_failures:
            if block is not None and line.strip() and not _NOISE.match(line):
                block.append(line)
                out.cover(line)
            elif _LIST_ITEM.match(line) or not line.strip() or _NOISE.match(line):
                out.cover(line)
            continue
        if _RUNNING.match(line):
            out.cover(line)
            continue
        if line.startswith("error: test failed") or (line.startswith("error: ") and \
                "failed" in line and "test" in line):
            tail.append(line)
            continue
        build.append(line)
    if build:
        grouped = cargo_build("\n".join(build))
        kept = grouped if grouped is not None else [
            line for line in build if line.strip() and not line.startswith("   Compiling ")]
        for line in kept:
            out.add(line)
        for line in build:
            out.cover(line)
    for name, body in failed_blocks:
        out.add(f"FAILED {name}")
        for line in counted(without_std_frames(body)):
            out.add(f"  {line.strip()}", line)
    out.add(_totals(results))
    for line in tail:
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
    return (f"cargo test {word}: {', '.join(parts)} ({plural(len(results), 'suite')}, "
            f"{seconds:.2f}s)")
