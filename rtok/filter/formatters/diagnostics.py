"""Compiler and linter diagnostics grouped by rule: one line per group with its count and
first message, then every location of the group.

Stdlib only (hot path). Which line shapes a tool prints and which of its lines are progress
is data (`_TOOLS`); the reader below is shared. Lines that are not diagnostics are kept,
apart from the tool's progress lines and the source excerpts under a diagnostic.
"""

from __future__ import annotations

from rtok._fast import regex
from rtok.filter.formatters.summary import Summary, clean_lines, plural, summariser
from rtok.filter.protect import carries_secret, is_protected
from rtok.filter.textlines import cut_middle

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

# Line shapes. Each names its groups: loc (file:line[:col] as printed), sev, code, msg.
_SHAPES = {
    # gcc, clang, go vet/build, mypy, flake8, ruff (concise), javac, pylint, shellcheck -f gcc
    "colon": regex.compile(
        r"^(?P<loc>(?=[^\s:]*[./])[^\s:][^:]*:\d+(?::\d+)?):(?:\s*(?P<sev>fatal error|error|"
        r"warning|note|info|hint|remark)\s*:)?\s+(?P<msg>\S.*)$"
    ),
    # tsc, dotnet/msbuild: path(line,col): error CODE: message
    "paren": regex.compile(
        r"^(?P<loc>\S.*?\(\d+(?:,\d+)?\)): (?P<sev>error|warning|info) (?P<code>[A-Z]+\d+): "
        r"(?P<msg>.*?)(?: \[[^\]]+\])?$"
    ),
    # tsc --pretty: path:line:col - error TS1234: message
    "dash": regex.compile(
        r"^(?P<loc>\S.*?:\d+:\d+) - (?P<sev>error|warning) (?P<code>[A-Z]+\d+): (?P<msg>.*)$"
    ),
    # pyright: indented path:line:col - error: message (ruleName)
    "pyright": regex.compile(
        r"^\s+(?P<loc>\S.*?:\d+:\d+) - (?P<sev>error|warning|information): (?P<msg>.*?)"
        r"(?: \((?P<code>report\w+)\))?$"
    ),
    # eslint's stylish rows under a file header: line:col  severity  message  rule
    "stylish": regex.compile(
        r"^\s+(?P<loc>\d+:\d+)\s+(?P<sev>error|warning)\s+(?P<msg>.+?)(?:\s{2,}(?P<code>"
        r"[@\w][\w@/.-]*))?$"
    ),
    # xo (eslint-formatter-pretty): ✖ line:col  message  rule, under an indented file:line:col
    "xo": regex.compile(
        r"^\s+(?P<sev>[✖⚠ℹ])\s+(?P<loc>\d+:\d+)\s+(?P<msg>.+?)(?:\s{2,}(?P<code>[@\w][\w@/.-]*))?$"
    ),
    # maven: [ERROR] /path/X.java:[12,5] message
    "maven": regex.compile(r"^\[(?P<sev>ERROR|WARNING)\] (?P<loc>\S.*?:\[\d+,\d+\]) (?P<msg>.*)$"),
    # rustc, cargo, clippy: severity[code]: message, then `--> file:line:col`
    "rust": regex.compile(
        r"^(?P<sev>error|warning|note|help)(?:\[(?P<code>E\d{4})\])?: "
        r"(?P<msg>.+)$"
    ),
    # ruff's full format: CODE [*] message, then `--> file:line:col`
    "ruff": regex.compile(r"^(?P<code>[A-Z]{1,4}\d{2,4}) (?:\[\*\] )?(?P<msg>.+)$"),
}
_ARROW = regex.compile(r"^\s*--> (?P<loc>\S.*:\d+(?::\d+)?)$")
_RUST_CODE = regex.compile(
    r"(?:rust-clippy/[^#\s]*#(?P<lint>[\w-]+)|#\[(?:warn|deny)\((?P<attr>"
    r"[\w:]+)\)\])"
)
_RUST_SUMMARY = regex.compile(
    r"^(?:warning|error): (?:`[^`]+` \(.*\) generated |could not compile|"
    r"aborting due to|build failed|test failed|\d+ warnings? emitted|"
    r"Could not compile)"
)
_GENERATED = regex.compile(r"^warning: `[^`]+` \(.*\) generated \d+ warnings?(?: \(.*\))?$")
_CODE_FIRST = regex.compile(r"^(?P<code>[A-Z]{1,4}\d{2,4})\b(?: \[\*\])?\s*(?P<msg>.*)$")
_CODE_LAST = regex.compile(r"^(?P<msg>.*?)\s+\[(?P<code>-W[\w=+-]+|[\w-]+(?:\.[\w-]+)*)\]$")
_SNIPPET = regex.compile(r"^\s*(?:\d+\s*)?[|│]|^\s+[\^~]+|^\s*= |^\s*\.\.\.$|^\s*\d+ \|")
_NUMBER = regex.compile(r"\d+")
_QUOTED = regex.compile(r"'[^']*'|‘[^’]*’|\"[^\"]*\"|`[^`]*`")
# ruff's full format: the fix it offers (`help: ...`, then the changed lines as `- old` and
# `12 + new`) belongs to the diagnostic above it, like its source excerpt
_RUFF_FIX = regex.compile(r"^(?:help|note): |^\s*\d*\s+[-+] |^-{8,}$")
# javac's details under a location; maven repeats them with its `[ERROR]` tag
_JAVA_DETAIL = regex.compile(r"^(?:\[ERROR\])?\s+(?:symbol|location|required|found|reason):\s")

_CARGO_PROGRESS = (
    r"^\s+(?:Compiling|Checking|Downloaded|Downloading|Fresh|Blocking|Locking|"
    r"Updating|Adding|Documenting|Packaging|Verifying|Archiving|Building|"
    r"Removed|Scraping)\b"
)
_MAKE_PROGRESS = r"^make(?:\[\d+\])?: (?:Entering|Leaving) directory|^\s*(?:CC|LD|AR|CXX)\s"
_GCC_CONTEXT = (
    r"^\S.*: (?:In (?:function|member function|constructor|destructor|"
    r"instantiation|static member function|lambda)|At top level:)|"
    r"^In file included from |^\s+from \S|^\S.*: note: in expansion of macro|"
    r"^(?:gcc|cc|g\+\+|c\+\+|clang|clang\+\+) "
)

# Maven's banners, plugin headings, progress and the help it prints under every failure
_MAVEN_NOISE = (
    r"^\[INFO\] (?:Download|-{3,}|$|Scanning for projects|Building |Changes detected|"
    r"Compiling \d+ source|Nothing to compile|skip non existing|Copying \d+ resource|"
    r"Using '|Total time:|Finished at:|\d+ (?:errors?|warnings?) ?$|(?:\S+: )?"
    r"(?:Some input files use|Recompile with -Xlint)|Some messages have been "
    r"simplified)|"
    r"^\[ERROR\] (?:COMPILATION ERROR :|-> \[Help 1\]|\[Help 1\] http|To see the full "
    r"stack trace|Re-run Maven using|For more information about the errors|$)|"
    r"^\[(?:INFO|ERROR)\]$|^Download(?:ing|ed) from|^Progress \("
)

# tool -> (label, shapes it prints, progress lines it prints)
_TOOLS: dict[str, tuple[str, tuple[str, ...], str]] = {
    "cargo": ("cargo", ("rust",), _CARGO_PROGRESS),
    "rustc": ("rustc", ("rust",), _CARGO_PROGRESS),
    "go": ("go", ("colon",), r"^go: downloading "),
    "tsc": ("tsc", ("paren", "dash"), r"^\s*$"),
    "eslint": ("eslint", ("stylish", "colon"), r"^\s*$"),
    "xo": ("xo", ("xo", "stylish"), r"^\s*$|^\s+\d+ (?:errors?|warnings?)$"),
    # tsd prints its type errors as xo does (eslint-formatter-pretty)
    "tsd": ("tsd", ("xo",), r"^\s*$|^\s+\d+ (?:errors?|warnings?)$"),
    "ruff": ("ruff", ("ruff", "colon"), r"^\s*$"),
    "mypy": ("mypy", ("colon",), r"^\s*$"),
    "pyright": (
        "pyright",
        ("pyright",),
        r"^No configuration file found|^Searching for source|"
        r"^Found \d+ source files?|^pyproject\.toml file found|^Assuming Python",
    ),
    "flake8": ("flake8", ("colon",), r"^\s*$"),
    "pylint": ("pylint", ("colon",), r"^\*{5,} Module |^-{5,}$"),
    "gcc": ("gcc", ("colon",), _GCC_CONTEXT),
    "make": ("make", ("colon", "rust"), _MAKE_PROGRESS + "|" + _GCC_CONTEXT),
    "javac": ("javac", ("colon",), r"^\s*$"),
    "mvn": ("maven", ("maven", "colon"), _MAVEN_NOISE),
    "gradle": ("gradle", ("colon",), r"^> Task |^<=+-*>|^\s*$"),
    "dotnet": (
        "dotnet",
        ("paren",),
        r"^\s+Determining projects|^\s+All projects are up-to-date|"
        r"^\s+Restored |^MSBuild version",
    ),
}
# tools whose diagnostic line is followed by the source line as it is, unindented
_EXCERPT_NEXT = {"javac", "gradle"}
_XO_FILE = regex.compile(r"^\s+(?P<file>\S+\.\w+):\d+:\d+$")
_SEVERITY_WORD = {"✖": "error", "⚠": "warning", "ℹ": "info", "information": "info"}
_SEVERITY_ORDER = {"error": 0, "fatal error": 0, "warning": 1}


class _Group:
    __slots__ = (
        "code",
        "details",
        "extras",
        "files",
        "first",
        "locations",
        "messages",
        "seen",
        "sev",
    )

    def __init__(self, sev: str, code: str, first: str) -> None:
        self.sev = sev
        self.code = code
        self.first = first
        self.locations: list[str] = []
        # what each location's message says beyond the first one ("" when nothing)
        self.extras: list[str] = []
        self.messages: list[str] = []
        # what javac says under each location (`required: int`, `found: String`)
        self.details: list[list[str]] = []
        self.files: set[str] = set()
        self.seen: set[tuple[str, str]] = set()  # (location, message) already read


def _normal_sev(sev: str | None) -> str:
    if not sev:
        return ""
    sev = sev.lower()
    return _SEVERITY_WORD.get(sev, sev)


def _split_code(msg: str, code: str | None) -> tuple[str, str]:
    """(code, message without it): from the shape, or a leading `E501` / trailing `[code]`."""
    if code:
        return code, msg
    first = _CODE_FIRST.match(msg)
    if first is not None:
        return first.group("code"), first.group("msg")
    last = _CODE_LAST.match(msg)
    if last is not None:
        return last.group("code"), last.group("msg")
    return "", msg


class _Pending:
    """A rust/ruff diagnostic whose location comes on a later `-->` line."""

    __slots__ = ("code", "loc", "msg", "raw", "sev")

    def __init__(self, sev: str, code: str, msg: str, raw: str) -> None:
        self.sev = sev
        self.code = code
        self.msg = msg
        self.raw = raw
        self.loc = ""


class _Reader:
    """One pass over the lines: diagnostics into groups, other lines kept in order."""

    __slots__ = (
        "by_message",
        "current_file",
        "excerpt",
        "excerpt_next",
        "groups",
        "in_block",
        "kinds",
        "last",
        "last_new",
        "other",
        "other_counts",
        "out",
        "pending",
        "progress",
        "shapes",
    )

    def __init__(self, shapes: tuple[str, ...], progress: str, excerpt: bool) -> None:
        self.excerpt = excerpt
        self.excerpt_next = False
        self.shapes = [(name, _SHAPES[name]) for name in shapes]
        self.kinds = set(shapes)
        self.progress = regex.compile(progress)
        self.groups: dict[tuple[str, str], _Group] = {}
        self.by_message: dict[tuple[str, str], _Group] = {}
        self.other: list[str] = []
        self.other_counts: list[str] = []  # the tool's own count lines
        self.out = Summary()
        self.current_file = ""
        self.pending: _Pending | None = None
        self.last: _Group | None = None
        self.last_new = False  # whether the last diagnostic read was not a repeat
        # True while the lines read belong to the diagnostic above them
        self.in_block = False

    def add(self, sev: str, code: str, msg: str, loc: str) -> None:
        shape = (sev, _QUOTED.sub("…", msg))
        # rustc names a lint only under its first warning: later ones join it by message
        group = self.groups.get((sev, code)) if code else self.by_message.get(shape)
        if group is None:
            group = self.groups[(sev, code or shape[1])] = _Group(sev, code, msg)
        self.by_message.setdefault(shape, group)
        self.last = group
        self.last_new = (loc, msg) not in group.seen
        if not self.last_new:
            return  # cargo builds a file once per target and says the same each time
        group.seen.add((loc, msg))
        group.locations.append(loc)
        group.extras.append(_difference(group.first, msg))
        group.messages.append(msg)
        group.details.append([])
        group.files.add(_file_of(loc))

    def end_pending(self) -> None:
        pending = self.pending
        if pending is None:
            return
        self.pending = None
        if pending.loc:
            self.add(pending.sev, pending.code, pending.msg, pending.loc)
        else:
            self.other.append(pending.raw)

    def read(self, line: str) -> None:
        if not line.strip():
            self.end_pending()
            self.in_block = False
            return
        if self._arrow(line):
            return
        if self.excerpt_next:
            self.excerpt_next = False
            if not self._diagnostic(line):
                self.out.cover(line)
            return
        if self._diagnostic(line):
            self.in_block = True
            return
        if self._xo_file(line) or self._java_detail(line) or self._block_line(line):
            return
        self.end_pending()
        self.in_block = False
        if self.progress.search(line):
            self.out.cover(line)  # the tool's own chatter, even when it says "ERROR"
            return
        if not line[:1].isspace():
            self.current_file = line.strip()
        self.other.append(line)

    def _arrow(self, line: str) -> bool:
        """ruff's and rustc's `--> file:L:C` under a diagnostic that gave no location."""
        pending = self.pending
        if pending is None or pending.loc:
            return False
        arrow = _ARROW.match(line)
        if arrow is None:
            return False
        pending.loc = arrow.group("loc")
        self.out.cover(pending.raw)
        self.out.cover(line)
        return True

    def _xo_file(self, line: str) -> bool:
        """xo's file header line: the file its diagnostics below are in."""
        xo_file = _XO_FILE.match(line) if "xo" in self.kinds else None
        if xo_file is None:
            return False
        self.current_file = xo_file.group("file")
        self.out.cover(line)
        return True

    def _block_line(self, line: str) -> bool:
        """A line of a diagnostic's block (a source snippet, ruff's fix, an indented note);
        rustc's lint name read from it."""
        pending = self.pending
        if not (self.in_block or pending is not None) or not self._in_block_shape(line):
            return False
        if pending is not None and not pending.code:
            lint = _RUST_CODE.search(line)
            if lint is not None:
                pending.code = lint.group("lint") or lint.group("attr") or ""
                if pending.code and "::" not in pending.code and lint.group("lint"):
                    pending.code = f"clippy::{pending.code}"
        self.out.cover(line)
        return True

    def _in_block_shape(self, line: str) -> bool:
        return bool(
            _SNIPPET.match(line)
            or ("ruff" in self.kinds and _RUFF_FIX.match(line))
            or (line[:1].isspace() and (not is_protected(line) or self._rust_note(line)))
        )

    def _java_detail(self, line: str) -> bool:
        """javac says which symbol on its own line under the location; maven repeats every
        diagnostic with its details once the build failed (read once)."""
        if self.last is None or not _JAVA_DETAIL.match(line):
            return False
        if self.last_new:
            self.last.details[-1].append(" ".join(line.removeprefix("[ERROR]").split()))
        self.out.cover(line)
        return True

    def _rust_note(self, line: str) -> bool:
        """An indented line inside a rust diagnostic is its help text (a config snippet that
        says `level = "warn"`, a suggested fix), read with the diagnostic, unless a secret."""
        return "rust" in self.kinds and not carries_secret(line)

    def _diagnostic(self, line: str) -> bool:
        for name, shape in self.shapes:
            found = shape.match(line)
            if found is None:
                continue
            groups = found.groupdict()
            if name in ("rust", "ruff"):
                if name == "rust" and _RUST_SUMMARY.match(line):
                    return False
                self.end_pending()
                self.pending = _Pending(
                    _normal_sev(groups.get("sev")) or "error",
                    groups.get("code") or "",
                    found.group("msg"),
                    line,
                )
                return True
            loc = found.group("loc")
            if name in ("stylish", "xo"):
                if not self.current_file:
                    return False
                self.out.cover(self.current_file)
                loc = f"{self.current_file}:{loc}"
            self.end_pending()
            code, msg = _split_code(found.group("msg"), groups.get("code"))
            self.add(_normal_sev(groups.get("sev")), code, msg, loc)
            self.out.cover(line)
            self.in_block = True
            self.excerpt_next = self.excerpt
            return True
        return False


def _read(lines: list[str], tool: str) -> _Reader:
    _label, shapes, progress = _TOOLS[tool]
    reader = _Reader(shapes, progress, tool in _EXCERPT_NEXT)
    for line in lines:
        reader.read(line)
    reader.end_pending()
    return reader


def grouped_diagnostics(text: str, tool: str) -> tuple[list[str], set[str]] | None:
    """Only the grouped diagnostics of `text` (the tally, each group and its locations) and
    the raw lines, stripped, that they stand for; None when it holds none. For a reader of
    a larger output (maven's compiler warnings above its test run)."""
    reader = _read(clean_lines(text), tool)
    if not reader.groups:
        return None
    _add_groups(reader, _TOOLS[tool][0])
    return reader.out.lines, reader.out.covered


def _add_groups(reader: _Reader, label: str) -> None:
    out = reader.out
    groups = sorted(reader.groups.values(), key=lambda g: _SEVERITY_ORDER.get(g.sev, 2))
    counts: dict[str, int] = {}
    files: set[str] = set()
    for group in groups:
        sev = group.sev or "problem"
        counts[sev] = counts.get(sev, 0) + len(group.locations)
        files.update(group.files)
    tally = ", ".join(plural(n, sev) for sev, n in counts.items())
    told = _told(reader.other_counts)
    if told and _disagree(told, counts):
        # the tool's own count wins; what was read is said beside it
        mine = tally
        tally = ", ".join(plural(n, sev) for sev, n in told.items())
        out.add(
            f"{label}: {tally} (its own count; {mine} read below) in {plural(len(files), 'file')}"
        )
    else:
        out.add(f"{label}: {tally} in {plural(len(files), 'file')}")
    for group in groups:
        for line in _group_lines(group):
            out.add(line)


# A tool's own count of what it reported: `  9 errors` (xo, tsd), `Found 12 errors in 3
# files.` (tsc, mypy, ruff), `✖ 760 problems (700 errors, 60 warnings)` (eslint).
_TOLD = regex.compile(
    r"^(?:\s+(?P<n>\d+) (?P<sev>error|warning)s?$|Found (?P<found>\d+) errors?\b|"
    r"✖ \d+ problems? \((?P<e>\d+) errors?, (?P<w>\d+) warnings?\))"
)


def _disagree(told: dict[str, int], counts: dict[str, int]) -> bool:
    """Whether the tool's own counts differ from what was read (a tool that gives no
    severity, `problem`, is compared on the total)."""
    if set(counts) == {"problem"}:
        return sum(told.values()) != counts["problem"]
    return any(counts.get(sev, 0) != n for sev, n in told.items())


def _told(lines: list[str]) -> dict[str, int]:
    told: dict[str, int] = {}
    for line in lines:
        found = _TOLD.match(line)
        if found is None:
            continue
        if found.group("n"):
            told.setdefault(found.group("sev"), int(found.group("n")))
        elif found.group("found"):
            told.setdefault("error", int(found.group("found")))
        else:
            told.setdefault("error", int(found.group("e")))
            told.setdefault("warning", int(found.group("w")))
    return told


def _summarise(text: str, tool: str) -> list[str] | None:
    lines = clean_lines(text)
    reader = _read(lines, tool)
    reader.other_counts = [line for line in lines if _TOLD.match(line)]
    if not reader.groups:
        return None
    _add_groups(reader, _TOOLS[tool][0])
    out = reader.out
    # eslint's file headers are known as such only once a row under them was read; cargo's
    # "generated N warnings" per target is what the tally above says
    other = [
        line
        for line in reader.other
        if line.strip() not in out.covered and not _GENERATED.match(line)
    ]
    for line in reader.other:
        if _GENERATED.match(line):
            out.cover(line)
    kept = set(other)
    for line in _cut(other):
        out.show(line, line if line in kept else None)
    for line in other:
        out.pass_over(line)  # shown above, or counted by the cut
    return out.finish(lines)


def _group_lines(group: _Group) -> list[str]:
    """A group as its header (count, rule, first message and the details every location
    shares) and its locations under their files."""
    name = " ".join(part for part in (group.sev, group.code) if part)
    shared, own = _split_details(group.details)

    def said(where: str, first: str) -> str:
        return f"{where}: {name}: {first}{shared}" if name else f"{where}: {first}{shared}"

    if len(group.locations) == 1:
        return [said(group.locations[0] + group.extras[0] + own[0], group.first)]
    out: list[str] = []
    for first, locations, extras in _by_message(group, own):
        if len(locations) == 1:
            out.append(said(locations[0] + extras[0], first))
            continue
        out.append(f"{name} (×{len(locations)}): {first}{shared}")
        out.extend(_by_file(locations, extras))
    return out


def _split_details(details: list[list[str]]) -> tuple[str, list[str]]:
    """The details said under every location (shown once, with the message) and, for each
    location, the ones only it has."""
    shared = [d for d in details[0] if all(d in others for others in details[1:])]
    own = ["".join(f" ({d})" for d in mine if d not in shared) for mine in details]
    return "".join(f" ({d})" for d in shared), own


OTHER_LINES = 20
OTHER_HEAD = 5
OTHER_TAIL = 10


def _cut(lines: list[str]) -> list[str]:
    """The lines that are not diagnostics: a long run keeps its head, tail and error lines."""
    if len(lines) <= OTHER_LINES:
        return lines
    return cut_middle(lines, OTHER_HEAD, OTHER_TAIL, is_protected)


# A file's positions are wrapped past this width, so no line is clipped.
POSITIONS_WIDTH = 160


def _by_message(group: _Group, own: list[str]) -> list[tuple[str, list[str], list[str]]]:
    """A rule's locations as (message, locations, differences): a message shape said at two
    or more locations is a part of its own (a rule that says "no space after {" and "no
    space before }" is said as two); the rest stay with the first message. `own` is what
    each location says beyond its message (javac's details)."""
    parts: dict[str, tuple[str, list[str], list[str]]] = {}
    said = _said_often(group)
    for loc, msg, mine in zip(group.locations, group.messages, own, strict=True):
        shape = msg if msg in said else _NUMBER.sub("#", _QUOTED.sub("…", msg))
        part = parts.setdefault(shape, (msg, [], []))
        part[1].append(loc)
        part[2].append(_difference(part[0], msg) + mine)
    if len(parts) == 1:
        return [
            (
                group.first,
                group.locations,
                [extra + mine for extra, mine in zip(group.extras, own, strict=True)],
            )
        ]
    out: list[tuple[str, list[str], list[str]]] = []
    rest: tuple[str, list[str], list[str]] | None = None
    for first, locations, extras in parts.values():
        if len(locations) > 1:
            out.append((first, locations, extras))
            continue
        if rest is None:
            rest = (first, [], [])
        rest[1].append(locations[0])
        rest[2].append(_difference(rest[0], first) + extras[0])
    if rest is not None:
        out.append(rest)
    return out


def _said_often(group: _Group) -> set[str]:
    """The messages said word for word at enough locations that a part of their own (a
    header, and their files named again) is shorter than what differs at each of them."""
    places: dict[str, list[str]] = {}
    for loc, msg in zip(group.locations, group.messages, strict=True):
        places.setdefault(msg, []).append(loc)
    if len(places) == 1:
        return set()
    said: set[str] = set()
    for msg, locs in places.items():
        header = len(msg) + len(group.code) + 16
        files = sum(len(path) + 3 for path in {_file_of(loc) for loc in locs})
        if len(locs) > 1 and len(locs) * len(_difference(group.first, msg)) > header + files:
            said.add(msg)
    return said


def _by_file(locations: list[str], extras: list[str]) -> list[str]:
    """A group's locations under each file named once, `  path: 12:3 15:7`, in the order
    first seen; a position whose message differs carries the difference in brackets."""
    files: dict[str, list[str]] = {}
    alone: dict[str, str] = {}
    for where, extra in zip(locations, extras, strict=True):
        path = _file_of(where)
        alone[path] = where + extra
        position = where[len(path) :].lstrip(":") or where
        # a whole other message is bracketed; quoted names and javac's details stand alone
        extra = f"({extra[2:]})" if extra.startswith(": ") else extra.strip()
        files.setdefault(path, []).append(f"{position} {extra}" if extra else position)
    out: list[str] = []
    for path, positions in files.items():
        if len(positions) == 1:
            # one position: the location as the tool printed it
            out.append(f"  {alone[path]}")
            continue
        join = ", " if any(" " in position for position in positions) else " "
        line = f"  {path}:"
        for position in positions:
            if len(line) > POSITIONS_WIDTH:
                out.append(line)
                line = "   "
            line += f"{' ' if line.endswith((':', ' ')) else join}{position}"
        out.append(line)
    return out


def _difference(first: str, msg: str) -> str:
    """What a location's message says beyond its group's first one: nothing, the quoted
    names that differ when only they do, or the whole message."""
    if msg == first:
        return ""
    if _QUOTED.sub("…", msg) == _QUOTED.sub("…", first):
        names = [
            name
            for name, was in zip(_QUOTED.findall(msg), _QUOTED.findall(first), strict=False)
            if name != was
        ]
        return " " + " ".join(names)
    return f": {msg}"


def _file_of(loc: str) -> str:
    for mark in ("(", ":["):
        if mark in loc:
            return loc.split(mark, 1)[0]
    parts = loc.split(":")
    while len(parts) > 1 and parts[-1].strip().split(" ")[0].isdigit():
        parts.pop()
    return ":".join(parts)


def _formatter(tool: str) -> Callable[[str], list[str] | None]:
    @summariser
    def summarise(text: str) -> list[str] | None:
        return _summarise(text, tool)

    summarise.__name__ = f"{tool}_diagnostics"
    return summarise


FORMATTERS = {tool: _formatter(tool) for tool in _TOOLS}


def diagnostics_for(tool: str) -> Callable[[str], list[str] | None] | None:
    return FORMATTERS.get(tool)
