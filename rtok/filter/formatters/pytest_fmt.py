"""pytest (plain, -q, -v, -x, xdist): a pass is its counts; a failure is each failed test's
name, locations, `>` line and `E` lines, the short summary and the counts.

Stdlib only (hot path).
"""

from __future__ import annotations

from rtok.filter import regex
from rtok.filter.formatters.summary import Summary, clean_lines, counted, summariser
from rtok.filter.protect import is_protected

_COUNTS = (r"(?:\d+ (?:passed|failed|errors?|skipped|xfailed|xpassed|warnings?|deselected|"
           r"rerun)|no tests ran)")
_FINAL = regex.compile(
    rf"^=*\s*(?P<body>{_COUNTS}(?:, {_COUNTS})* in [\d.]+s(?: \([^)]*\))?)\s*=*$")
_SECTION = regex.compile(r"^={3,} (?P<name>.+?) ={3,}$")
_BLOCK = regex.compile(r"^_+ (?P<name>.+?) _+$")
_SUBSECTION = regex.compile(r"^-{3,} (?P<name>.+?) -{3,}$")
_PROGRESS = regex.compile(r"^(?:\S+\.py ?)?[.sxXfFE]+\s*(?:\[\s*\d+%\])?$")
_STATUS = regex.compile(r"^(?:\[gw\d+\] (?:\[\s*\d+%\] )?)?(?:(?P<pre>PASSED|SKIPPED|XFAIL|XPASS|"
                        r"FAILED|ERROR) \S+::\S.*|\S+::\S.*? (?P<post>PASSED|SKIPPED|XFAIL|XPASS|"
                        r"FAILED|ERROR)(?: \(.*\))?(?: +\[\s*\d+%\])?)$")
# xdist -v names each test when it starts, its status comes on a later line
_BARE_ID = regex.compile(r"^\S+\.py::.+$")
_HEADER = regex.compile(r"^(?:platform |cachedir:|rootdir:|configfile:|testpaths:|plugins:|"
                        r"collecting|collected \d+|hypothesis profile|Using --randomly|"
                        r"created: \d+/\d+ workers?|\d+ workers? \[|\[gw\d+\] |gw\d+ |"
                        r"scheduling tests via|bringing up nodes|cov: |Test order randomisation|"
                        r"benchmark: |django: |asyncio: |anyio: |metadata: |html: |"
                        r"rootdir=|sensitiveurl:|timeout: |timeout method:|timeout func_only:)")
_LOCATION = regex.compile(r"^\S[^:]*:\d+: \S")
_TRACEBACK = regex.compile(r'^\s*(?:File ".*", line \d+|Traceback \(most recent call last\):)')
_STOP = regex.compile(r"^!{3,} .* !{3,}$")
_WARNING_IDS = regex.compile(r"^\S+(?:::\S.*)?$")


def _final(lines: list[str]) -> int:
    """Index of the closing counts line among the last lines, or -1."""
    for i in range(len(lines) - 1, max(-1, len(lines) - 8), -1):
        if _FINAL.match(lines[i]):
            return i
    return -1


@summariser
def pytest_output(text: str) -> list[str] | None:
    lines = clean_lines(text)
    final = _final(lines)
    if final < 0:
        return None
    has_short = any(_SECTION.match(line) and "short test summary" in line for line in lines)
    out = Summary()
    section = ""
    block: list[str] = []
    block_name = ""
    in_captured = False
    # a failure block is headed by its short-summary line's test id (which then is not
    # repeated at the end); block name -> (summary line, "FAILED <id>")
    named_ids = _summary_ids(lines[:final]) if has_short else {}
    used: set[str] = set()

    def flush_block() -> None:
        if block_name:
            known = named_ids.get(block_name)
            if known is not None and known[0] not in used:
                used.add(known[0])
                out.add(known[1], known[0])
            else:
                out.add(f"__ {block_name} __")
        for kept in counted(block):
            out.add(kept)
        block.clear()

    for line in lines[:final]:
        heading = _SECTION.match(line)
        if heading is not None:
            flush_block()
            block_name = ""
            section = heading.group("name").lower()
            in_captured = False
            out.cover(line)
            continue
        if not line.strip():
            continue
        if section in ("failures", "errors"):
            named = _BLOCK.match(line)
            if named is not None:
                flush_block()
                block_name = named.group("name")
                in_captured = False
                out.cover(line)
                continue
            if _SUBSECTION.match(line):
                in_captured = True
                continue
            if in_captured:
                # what the test printed: its error lines stay
                if is_protected(line):
                    block.append(line)
                out.cover(line)
                continue
            if line.startswith((">", "E ")) or _LOCATION.match(line) or _TRACEBACK.match(line):
                block.append(line)
            # other lines of a failure are the test's source and locals, not errors
            out.cover(line)
            continue
        if "warnings summary" in section:
            if line.startswith("-- Docs:") or (
                    _WARNING_IDS.match(line) and "Warning" not in line):
                continue
            if line.startswith("  ") and not line.startswith("    "):
                block.append(line.strip())
                out.cover(line)
            continue
        if "short test summary" in section:
            if line not in used:
                out.add(line)
            continue
        if _STOP.match(line):
            flush_block()
            out.add(line)
            continue
        if section.endswith("test session starts") or not section:
            status = _STATUS.match(line)
            if status is None and (_HEADER.match(line) or _PROGRESS.match(line)):
                continue
            if status is not None:
                word = status.group("pre") or status.group("post")
                if word in ("FAILED", "ERROR"):
                    if has_short:
                        out.cover(line)  # the short summary names it with its reason
                    else:
                        out.add(line)
                continue
            if _BARE_ID.match(line):
                continue
        out.add(line)
    flush_block()
    body = _FINAL.match(lines[final])
    assert body is not None
    out.add(f"pytest: {body.group('body')}", lines[final])
    for line in lines[final + 1:]:
        if line.strip():
            out.add(line)
    return out.finish(lines, _not_an_error)


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
    return bool(_PROGRESS.match(line) or _HEADER.match(line) or (_BARE_ID.match(line)
                and "Warning" not in line))
