"""grep -rn / rg -n / ag / git grep output grouped by file.

Every file with a hit is named with its count, even when rows are cut; a kept row always
sits under its own file; no row is shown twice. A hit row is quoted file content, not a
message of the search tool: it is kept when it carries a secret (protect.carries_secret)
or when it is a log's error or warning line (a protected line with a time stamp or a
severity word at its start: `grep ERROR app.log`), while code that merely names an error
(`raise RuntimeError(`) is cut like any row. The tool's own lines (`grep: x: No such file
or directory`, `Binary file x matches`) are shown as they are, after the groups.
"""

from __future__ import annotations

from rtok._fast import regex
from rtok.filter.formatters import declare_complete, declare_reads_failures
from rtok.filter.formatters.summary import plural
from rtok.filter.protect import carries_secret, is_protected
from rtok.filter.textlines import fair_share

TYPE_CHECKING = False
if TYPE_CHECKING:
    from re import Match

# `path:12:text` (a hit; the path ends at the first `:N:`, so a path may hold a colon) and
# `path-12-text` (a context line of -A/-B/-C: the path is one that has hits, wherever its
# `-N-` falls, since a path may hold `-N-` too).
_HIT = regex.compile(r"^(.+?):(\d+):(.*)$")
_CONTEXT_MARK = regex.compile(r"-(\d+)-")
_CONTEXT_LINE = regex.compile(r"^[^\s:]+-\d+-")
# Without -n: `path:text`, where path looks like a file path.
_PLAIN = regex.compile(r"^((?:[^\s:]*/)?[^\s:/]+\.[A-Za-z0-9_]+|[^\s:]*/[^\s:]+):(.*)$")

# Rows shown in all, and at most per file; files beyond the budget show their count only.
# Context rows (-A/-B/-C) of a file whose hits are all shown count against ROWS too.
ROWS = 160
ROWS_PER_FILE = 40
ROW_CHARS = 160


class _File:
    __slots__ = ("context", "hits", "path")

    def __init__(self, path: str) -> None:
        self.path = path
        self.hits: list[tuple[int, str]] = []
        self.context: list[tuple[int, str]] = []


_SEVERITY_START = regex.compile(
    r"^\s*\[?(?:ERROR|FATAL|CRITICAL|PANIC|WARN(?:ING)?|error|fatal"
    r"|warning|E)\b"
)


def _must_show(text: str) -> bool:
    """A hit that no budget may cut: a secret, or a log's error/warning line."""
    if carries_secret(text):
        return True
    from rtok.filter.formatters.logs import is_stamped

    return is_protected(text) and (is_stamped(text) or _SEVERITY_START.match(text) is not None)


def _clip(text: str) -> str:
    """A row's text as the file has it, indentation included (it says where the line sits
    in its block); a long row is cut after ROW_CHARS characters past its indentation."""
    text = text.rstrip()
    indent = len(text) - len(text.lstrip())
    if len(text) - indent <= ROW_CHARS or carries_secret(text) or is_protected(text):
        return text
    return text[: indent + ROW_CHARS] + "…"


_HEADED = regex.compile(r"^(\d+)([:-])(.*)$")


def _parse_headed(lines: list[str]) -> tuple[dict[str, _File], list[str]] | None:
    """`rg --heading` / `ag --group`: a path line, its `12:text` rows, a blank line."""
    files: dict[str, _File] = {}
    other: list[str] = []
    current: _File | None = None
    if not lines or _HEADED.match(lines[0]) is not None:
        return None  # `grep -n` on one file: rows without any path
    for line in lines:
        if not line or (line == "--" and current is not None):
            # a blank line ends a file's group, `--` separates its context groups (where a
            # group starts, `--` is a file of that name)
            current = None if not line else current
            continue
        current = _headed_line(line, current, files, other)
    if not files or any(not entry.hits for entry in files.values()):
        return None
    return files, other


def _headed_line(
    line: str, current: _File | None, files: dict[str, _File], other: list[str]
) -> _File | None:
    """One line of a headed listing read into `files` or `other`; the file now open."""
    found = _HEADED.match(line)
    if found is not None and current is not None:
        row = (int(found.group(1)), found.group(3))
        (current.hits if found.group(2) == ":" else current.context).append(row)
    elif current is None and found is None and not line.startswith(("rg:", "ag:")):
        current = files.setdefault(line, _File(line))
    else:
        other.append(line)
    return current


def _parse(lines: list[str]) -> tuple[dict[str, _File], list[str]] | None:
    """Hits and context rows per file, and the lines that are neither (tool messages)."""
    # headed groups: at least as many rows as path lines (blank lines between groups)
    if sum(1 for line in lines if _HEADED.match(line)) * 2 >= sum(1 for line in lines if line):
        return _parse_headed(lines)
    hits = [_HIT.match(line) for line in lines]
    if sum(1 for line in lines if "\0" in line) * 2 >= len(lines):
        parsed = _parse_null(lines)
    elif _numbered_rows(lines, hits) * 2 >= len(lines):
        parsed = _parse_numbered(lines, hits)
    else:
        parsed = _parse_plain(lines)
    files, other = parsed
    if not files or len(other) * 5 > len(lines):
        return None
    return files, other


def _numbered_rows(lines: list[str], hits: list[Match[str] | None]) -> int:
    """How many lines read as `grep -n` rows: hits, context rows of a file with hits and the
    `--` between context groups (with -C2 a hit has up to four context rows)."""
    count: dict[str, int] = {}
    for found in hits:
        if found is not None:
            count[found.group(1)] = count.get(found.group(1), 0) + 1
    if not count:
        return 0
    return sum(
        1
        for line, found in zip(lines, hits, strict=True)
        if found is not None or line == "--" or _context_row(line, count) is not None
    )


def _parse_numbered(
    lines: list[str], hits: list[Match[str] | None]
) -> tuple[dict[str, _File], list[str]]:
    """`grep -n` rows. A context row's text may hold `:N:` (`x = a[1:2:3]`) and so also read
    as a hit of a path made of the row's start, and a hit of a file named `notes-1-old` reads
    as a context row of `notes`. A line read both ways is a context row of a file with hits
    when that other path has no more hits than this one line and the row beside it is of the
    same file one line away (grep prints context next to its own file's rows)."""
    count: dict[str, int] = {}
    for found in hits:
        if found is not None:
            count[found.group(1)] = count.get(found.group(1), 0) + 1
    contexts = [None if line == "--" or not line else _context_row(line, count) for line in lines]
    files: dict[str, _File] = {}
    other: list[str] = []
    for index, (line, found) in enumerate(zip(lines, hits, strict=True)):
        if line == "--" or not line:
            continue
        context = contexts[index]
        if context is not None and (
            found is None or (count[found.group(1)] < 2 and _beside(index, context, hits, contexts))
        ):
            path, number, text = context
            files.setdefault(path, _File(path)).context.append((number, text))
        elif found is not None:
            entry = files.setdefault(found.group(1), _File(found.group(1)))
            entry.hits.append((int(found.group(2)), found.group(3)))
        else:
            other.append(line)
    _context_only_files_are_other(files, other, "-")
    return files, other


def _context_only_files_are_other(files: dict[str, _File], other: list[str], sep: str) -> None:
    """A file with context rows but no hit is no file of the search: its rows go back to
    the other lines as printed (`PATH` `sep` `N-text`)."""
    for path in [path for path, entry in files.items() if not entry.hits]:
        other.extend(f"{path}{sep}{number}-{text}" for number, text in files.pop(path).context)


def _beside(
    index: int,
    context: tuple[str, int, str],
    hits: list[Match[str] | None],
    contexts: list[tuple[str, int, str] | None],
) -> bool:
    """Whether a row next to `index` is of the context row's file, one line away."""
    path, number = context[0], context[1]
    for near in (index - 1, index + 1):
        if not 0 <= near < len(hits):
            continue
        found, other = hits[near], contexts[near]
        if found is not None and found.group(1) == path and abs(int(found.group(2)) - number) == 1:
            return True
        if other is not None and other[0] == path and abs(other[1] - number) == 1:
            return True
    return False


def _context_row(line: str, paths: dict[str, int]) -> tuple[str, int, str] | None:
    """(path, line number, text) when `line` is `PATH-N-text` for a PATH with hits."""
    for mark in _CONTEXT_MARK.finditer(line):
        path = line[: mark.start()]
        if path in paths:
            return path, int(mark.group(1)), line[mark.end() :]
    return None


def _parse_null(lines: list[str]) -> tuple[dict[str, _File], list[str]]:
    """`grep -Z` / `rg -0` rows: the path ends at a zero byte, so it is read whole; then
    `12:text` and `12-text` with -n (every row has a number then), else the text."""
    rows = [line.partition("\0") for line in lines]
    numbered = all(_HEADED.match(rest) is not None for _, nul, rest in rows if nul)
    files: dict[str, _File] = {}
    other: list[str] = []
    for line, (path, nul, rest) in zip(lines, rows, strict=True):
        if not nul:
            if line and line != "--":
                other.append(line)
            continue
        entry = files.setdefault(path, _File(path))
        found = _HEADED.match(rest) if numbered else None
        if found is None:
            entry.hits.append((0, rest))
        else:
            row = (int(found.group(1)), found.group(3))
            (entry.hits if found.group(2) == ":" else entry.context).append(row)
    _context_only_files_are_other(files, other, "\0")
    return files, other


def _parse_plain(lines: list[str]) -> tuple[dict[str, _File], list[str]]:
    files: dict[str, _File] = {}
    other: list[str] = []
    for line in lines:
        if line == "--" or not line:
            continue
        plain = _PLAIN.match(line)
        if plain is not None and not line.startswith(("grep:", "rg:", "ag:")):
            entry = files.setdefault(plain.group(1), _File(plain.group(1)))
            entry.hits.append((0, plain.group(2)))
            continue
        other.append(line)
    return files, other


def _quota(files: list[_File]) -> dict[str, int]:
    """How many hit rows each file shows: a fair share of ROWS, at most ROWS_PER_FILE."""
    counts = [len(entry.hits) for entry in files]
    return dict(
        zip((entry.path for entry in files), fair_share(counts, ROWS, ROWS_PER_FILE), strict=True)
    )


def _row(number: int, text: str, sep: str) -> str:
    """`12:    text`, as grep -n prints it (the text's indentation kept)."""
    return f"{number}{sep}{_clip(text)}" if number else _clip(text)


def _file_rows(entry: _File, quota: int, spare: int) -> tuple[set[int], list[tuple[int, str]], int]:
    """(indexes of the hits shown, the rows shown in line order, context rows still to
    spare) of one file: its first `quota` hits and those no budget may cut; its context
    rows too when every hit is shown and they fit in what is spare."""
    shown: set[int] = set(range(quota))
    shown.update(i for i, (_, row) in enumerate(entry.hits) if _must_show(row))
    rows = [
        (entry.hits[i][0], _row(entry.hits[i][0], entry.hits[i][1], ":")) for i in sorted(shown)
    ]
    if entry.context and len(shown) == len(entry.hits) and len(entry.context) <= spare:
        spare -= len(entry.context)
        rows.extend((number, _row(number, row, "-")) for number, row in entry.context)
        rows.sort(key=lambda item: item[0])
    return shown, rows, spare


def grep_grouped(text: str) -> list[str] | None:
    from rtok.filter.engine import normalise

    lines = normalise(text)
    parsed = _parse(lines)
    if parsed is None:
        return None
    files, other = parsed
    entries = list(files.values())
    hits = sum(len(entry.hits) for entry in entries)
    quota = _quota(entries)
    out: list[str] = []
    shown_rows = 0
    spare = ROWS - sum(quota.values())  # rows left for context
    for entry in entries:
        shown, rows, spare = _file_rows(entry, quota[entry.path], spare)
        shown_rows += len(shown)
        if len(entry.hits) == 1 and rows and not entry.context:
            out.append(f"{entry.path}:{rows[0][1]}")
            continue
        out.append(f"{entry.path} ({len(entry.hits)})")
        out.extend("  " + row for _, row in rows)
    if shown_rows < hits:
        # The header counts say how many rows each file has; this says the rest are cut.
        out.insert(
            0, f"{plural(hits, 'hit')} in {plural(len(entries), 'file')}, {shown_rows} shown"
        )
    out.extend(other)
    return out


def grep_output(text: str) -> list[str] | None:
    """Hits grouped by file; one file's `grep -n` rows read as a log when they are one."""
    grouped = grep_grouped(text)
    if grouped is not None:
        return grouped
    from rtok.filter.formatters.logs import log_lines

    logged = log_lines(text)
    if logged is None:
        return None
    from rtok.filter.engine import cut_lines
    from rtok.filter.rule import default_rule

    return cut_lines(logged, default_rule("grep"), LOG_HEAD, LOG_TAIL, LOG_HEAD + LOG_TAIL)


# A log's rows (one file, `grep -n ERROR app.log`) after their repeats are counted.
LOG_HEAD = 120
LOG_TAIL = 40


def _protects(line: str) -> bool:
    """Raw lines the engine must find in the output: the tool's own protected messages."""
    if line.startswith(("grep:", "rg:", "ag:")):
        return is_protected(line)
    if _HIT.match(line) is not None or _PLAIN.match(line) is not None:
        return False  # a hit row: grep_grouped itself keeps those carrying a secret
    if _CONTEXT_LINE.match(line) is not None:
        # a context row is file content too (`warnings.warn(` is no message of grep's);
        # one carrying a secret is put back when its file's context is not shown
        return carries_secret(line)
    return is_protected(line)


for _formatter in (grep_grouped, grep_output):
    declare_complete(_formatter, _protects)
    # exit 2 (a path missing or unreadable) follows the hits of the others; the tool's
    # messages are shown after the groups
    declare_reads_failures(_formatter)
