"""go test (plain, -v and -json): a pass is its counts; a failure is each failed test with the
lines it logged (the same reason once, with how often it came), then the package results.

Stdlib only (hot path). Lines a test logs belong to the test named by the last `=== RUN`,
`=== CONT` or `=== NAME` (-v), or follow its `--- FAIL` line (plain); a passing test's lines
are dropped, unless they carry an error word (then they are kept where they were).
"""

from __future__ import annotations

from rtok.filter import regex
from rtok.filter.formatters.diagnostics import FORMATTERS
from rtok.filter.formatters.summary import Summary, clean_lines, plural, summariser
from rtok.filter.protect import is_protected

_EVENT = regex.compile(r"^=== (?P<kind>RUN|PAUSE|CONT|NAME)\s+(?P<name>\S+)")
_END = regex.compile(r"^(?P<indent>\s*)--- (?P<kind>PASS|FAIL|SKIP): (?P<name>\S+)(?: \((?P<time>"
                  r"[\d.]+s)\))?")
_PACKAGE = regex.compile(r"^(?P<kind>ok|FAIL|\?)\s+(?P<pkg>\S+)\s*(?P<rest>.*)$")
_BARE = regex.compile(r"^(?:PASS|FAIL|testing: warning: no tests to run)$")
_EXIT = regex.compile(r"^exit status \d+$")
# a goroutine frame inside Go's own runtime and test harness: its file line
_RUNTIME_FILE = regex.compile(r"^\s*\S*/go(?:-[\d.]+)?/src/"
                              r"(?:runtime|testing|reflect|sync|internal)/"
                              r"\S+\.go:\d+(?: \+0x[0-9a-f]+)?$")
_CREATED_BY = regex.compile(r"^\s*created by (?:testing|runtime)\.")
# A goroutine frame's argument words and its file line's code offset differ from one run of
# the same stack to the next; without them a stack repeated across tests is shown once.
_FRAME_ARGS = regex.compile(r"^(?P<call>\s*\S*[\w)]\.[\w.*()]*?\w)\((?=[^()]*0x)"
                         r"(?:[^()]|\([^()]*\))*\)$")
_FRAME_OFFSET = regex.compile(r"^(?P<file>\s*\S+\.go:\d+) \+0x[0-9a-f]+$")


def frame_shape(line: str) -> str:
    """A goroutine frame without its argument words, or its file line without the offset."""
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
    __slots__ = ("failed", "lines", "name", "time")

    def __init__(self, name: str) -> None:
        self.name = name
        self.lines: list[str] = []
        self.failed = False
        self.time = ""


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


@summariser
def go_test(text: str) -> list[str] | None:
    decoded = _json_output(text)
    if decoded is not None:
        text = decoded
    lines = clean_lines(text)
    packages = [found for found in map(_PACKAGE.match, lines) if found is not None
                and (found.group("kind") != "?" or "[no test files]" in found.group("rest"))]
    if not packages:
        return None
    out = Summary()
    tests: dict[str, _Test] = {}
    order: list[_Test] = []
    current: _Test | None = None
    loose: list[str] = []
    passed = skipped = 0
    for line in lines:
        event = _EVENT.match(line)
        if event is not None:
            out.cover(line)
            current = _test(tests, order, event.group("name"))
            continue
        end = _END.match(line)
        if end is not None:
            out.cover(line)
            test = _test(tests, order, end.group("name"))
            test.time = end.group("time") or ""
            if end.group("kind") == "FAIL":
                test.failed = True
                current = test  # plain mode: its reasons follow this line
            else:
                if end.group("kind") == "PASS":
                    passed += 1
                else:
                    skipped += 1
                current = None
            continue
        if _PACKAGE.match(line) or _BARE.match(line):
            out.cover(line)
            current = None
            continue
        if not line.strip():
            continue
        if current is not None and line[:1].isspace():
            current.lines.append(line)
            continue
        current = None
        loose.append(line)
    failed = [test for test in order if test.failed]
    # runtime frames left out are not errors: what they stood for is the panic line kept
    for test in order:
        kept = without_runtime_frames(test.lines)
        for line in set(test.lines).difference(kept):
            out.cover(line)
        shaped = [frame_shape(line) for line in kept]
        for line, shape in zip(kept, shaped, strict=True):
            if shape != line:
                out.cover(line)
        test.lines = shaped
    kept_loose = without_runtime_frames(loose)
    for line in set(loose).difference(kept_loose):
        out.cover(line)
    loose = kept_loose
    build = FORMATTERS["go"]("\n".join(loose)) if loose else None
    if build is not None:
        for line in build:
            out.add(line)
        for line in loose:
            out.cover(line)
    else:
        for line in loose:
            if not _EXIT.match(line):
                out.add(line)
    seen: dict[str, int] = {}
    for test in failed:
        for line in test.lines:
            seen[line.strip()] = seen.get(line.strip(), 0) + 1
    shown: set[str] = set()
    for test in failed:
        out.add(f"--- FAIL: {test.name}" + (f" ({test.time})" if test.time else ""))
        for line in test.lines:
            key = line.strip()
            if key in shown:
                continue
            shown.add(key)
            count = seen[key]
            out.add(f"    {key}" + (f" (×{count})" if count > 1 else ""), line)
    # a passing test's logged lines: only those with an error word are kept, each once (a
    # test run with -count=N logs the same lines N times)
    logged: dict[str, int] = {}
    for test in order:
        if not test.failed:
            for line in test.lines:
                if is_protected(line):
                    logged[line] = logged.get(line, 0) + 1
                else:
                    out.cover(line)
    for line, count in logged.items():
        out.add(line + (f" (×{count})" if count > 1 else ""), line)
    ok = [p for p in packages if p.group("kind") == "ok"]
    bad = [p for p in packages if p.group("kind") == "FAIL"]
    none = [p for p in packages if p.group("kind") == "?"]
    for package in bad:
        out.add(package.group(0))
    parts = [plural(len(ok), "package") + " ok"]
    if bad:
        parts.append(f"{len(bad)} failed")
    if none:
        parts.append(f"{len(none)} without tests")
    if passed or failed:
        parts.append(f"tests: {passed} passed" + (f", {len(failed)} failed" if failed else "")
                     + (f", {skipped} skipped" if skipped else ""))
    out.add("go test: " + "; ".join(parts))
    return out.finish(lines, _EXIT.match)


def _test(tests: dict[str, _Test], order: list[_Test], name: str) -> _Test:
    test = tests.get(name)
    if test is None:
        test = tests[name] = _Test(name)
        order.append(test)
    return test
