"""`ruff format --check`: the files that would be reformatted, each once, and ruff's counts.

Stdlib only (hot path). ruff before 0.9 names each file (`Would reformat: src/a.py`); later
versions print each file's diff under `unformatted: File would be reformatted` and
`--> src/a.py:7:1`. The diffs are what `ruff format` would write (the archive keeps them);
the file names and the counts line are what a reader acts on. The list is checked against
ruff's own count: when they differ, ruff's line is shown as it is, with the files read.
"""

from __future__ import annotations

from rtok._fast import regex
from rtok.filter.formatters.summary import Summary, clean_lines, plural, summariser

_WOULD = regex.compile(r"^Would reformat: (?P<path>\S.*)$")
_UNFORMATTED = regex.compile(r"^unformatted: ")
_ARROW = regex.compile(r"^\s*--> (?P<path>\S+?)(?::\d+:\d+)?$")
_COUNTS = regex.compile(r"^(?P<n>\d+) files? would be reformatted\b|^\d+ files? already formatted")
# a diff's lines: `12 | code`, `12 + code`, `   - code`, its rule of dashes
_DIFF = regex.compile(r"^\s*\d*\s+[|+-](?: |$)|^-{20,}$|^\s+\|$")


def _read_files(lines: list[str], out: Summary) -> list[str]:
    """The files ruff names, each once, in order (the lines naming them and the diffs are
    covered)."""
    files: list[str] = []
    opened = False  # after an `unformatted:` line, its `-->` names the file
    for line in lines:
        named = _WOULD.match(line) or (_ARROW.match(line) if opened else None)
        if named is not None:
            path = named.group("path")
            if path not in files:
                files.append(path)
            out.cover(line)
            opened = False
        elif _UNFORMATTED.match(line):
            opened = True
            out.cover(line)
        elif _DIFF.match(line) or _COUNTS.match(line):
            out.cover(line)
    return files


def _headline(counts: list[str], files: list[str]) -> str:
    """ruff's counts when they agree with the files read, else with how many were read."""
    if not counts:
        return f"ruff format: {plural(len(files), 'file')} would be reformatted"
    told = [
        int(found.group("n"))
        for found in map(_COUNTS.match, counts)
        if found is not None and found.group("n")
    ]
    if not told or told[0] == len(files):
        return "ruff format: " + "; ".join(counts)
    return "ruff format: " + "; ".join(counts) + f" ({plural(len(files), 'file')} named below)"


@summariser
def ruff_format(text: str) -> list[str] | None:
    lines = clean_lines(text)
    counts = [line for line in lines if _COUNTS.match(line)]
    out = Summary()
    files = _read_files(lines, out)
    if not files and not counts:
        return None
    out.add(_headline(counts, files))
    for path in files:
        out.add(f"  {path}")
    return out.finish(lines)
