"""ls -l, ls -R, tree and path listings: the columns and drawing characters an agent does not
need, each folder named once with its entries."""

from __future__ import annotations

from rtok._fast import regex
from rtok.filter.formatters import declare_complete
from rtok.filter.protect import is_protected
from rtok.filter.textlines import fair_share

TYPE_CHECKING = False
if TYPE_CHECKING:
    from re import Match

_LONG = regex.compile(
    r"^([-dlcbps])[-rwxsStT@+.]{9}[@+.]?\s+\d+\s+\S+\s+\S+\s+"
    r"([\d,]+(?:\s*,\s*\d+)?)"
    r"\s+(\w{3}\s+\d+\s+[\d:]+|\d{4}-\d\d-\d\d(?: [\d:.]+)?(?: [+-]\d{4})?)"
    r"\s+(.*)$"
)


# File rows shown by ls_long; folders are always all named.
LS_FILES = 40
# Up to this many paths (or files of one `ls -l`) every one is named; past it names are cut.
ALL_PATHS = 2000
# A line of names is wrapped past this width (a longer line would be clipped).
LINE_WIDTH = 200


def ls_long(text: str) -> list[str] | None:
    """`ls -l` rows as `name/` for folders, `name  size` for files; None for plain `ls`.

    Every folder is named; up to LS_FILES files are a row each, up to ALL_PATHS all of them
    several to a line, past that the first LS_FILES and a count. Lines
    that are not rows (`ls: cannot access ...`, `dir:` headers of -R) stay as they are.
    """
    lines = text.splitlines()
    rows = [line for line in lines if line.strip() and not line.startswith("total ")]
    matched = [_LONG.match(line) for line in rows]
    if not rows or sum(m is not None for m in matched) < len(rows) * 0.8:
        return ls_recursive(lines)
    out, files, in_order = _long_rows(rows, matched)
    if len(files) <= LS_FILES:
        return in_order
    if len(files) > ALL_PATHS:
        return out + files[:LS_FILES] + [f"… {len(files) - LS_FILES} more files"]
    # every file, several to a line
    return out + wrapped(f"{len(files)} files: ", files)


def _long_rows(
    rows: list[str], matched: list[Match[str] | None]
) -> tuple[list[str], list[str], list[str]]:
    """(folders and other lines, files with their sizes, every entry in order) of `ls -l`
    rows (`.` and `..` left out)."""
    out: list[str] = []
    files: list[str] = []
    in_order: list[str] = []
    for line, found in zip(rows, matched, strict=True):
        if found is None:
            out.append(line)
            in_order.append(line)
            continue
        kind, size, name = found.group(1), found.group(2), found.group(4)
        if name in (".", ".."):
            continue
        if kind == "d":
            out.append(name + "/")
            in_order.append(name + "/")
        else:
            files.append(name if kind == "l" else f"{name} {_human(size)}")
            in_order.append(name if kind == "l" else f"{name}  {_human(size)}")
    return out, files, in_order


def ls_recursive(lines: list[str]) -> list[str] | None:
    """Plain `ls -R` (one name a line, each folder under its `dir:` header): each folder
    once with all its names, losslessly; None for any other plain `ls`."""
    sections: list[tuple[str, list[str]]] = []
    for line in lines:
        if not line.strip():
            continue
        if line.endswith(":") and not line.startswith(("ls:", " ")):
            sections.append((line[:-1], []))
        elif sections and not line.startswith("ls:"):
            sections[-1][1].append(line)
        else:
            return None
    if len(sections) < 2:
        return None
    out: list[str] = []
    for folder, names in sections:
        out.extend(wrapped(f"{folder}/ ({len(names)}): ", names) if names else [f"{folder}/ (0)"])
    return out


def wrapped(lead: str, items: list[str]) -> list[str]:
    """`lead` and the items joined by commas, wrapped before LINE_WIDTH (a longer line
    would be clipped); continuation lines are indented."""
    out: list[str] = []
    line = lead
    for i, item in enumerate(items):
        piece = item + (", " if i + 1 < len(items) else "")
        if len(line) + len(piece) > LINE_WIDTH and line.strip():
            out.append(line.rstrip())
            line = "  "
        line += piece
    out.append(line.rstrip())
    return out


def _row_is_not_a_message(line: str) -> bool:
    """A listed name is not a message (`passwd`, `credentials.json`); `ls: ...` lines are."""
    return _LONG.match(line) is None and is_protected(line)


declare_complete(ls_long, _row_is_not_a_message)


def _human(size: str) -> str:
    try:
        value = float(size.replace(",", ""))
    except ValueError:
        return size
    for unit in ("B", "K", "M", "G"):
        if value < 1024 or unit == "G":
            return f"{value:.0f}{unit}" if unit == "B" else f"{value:.1f}{unit}"
        value /= 1024
    return size


# tree's drawing: a level is `│   ` (its spaces no-break ones in a UTF-8 locale) or four
# spaces, then `├── ` or `└── ` (`|-- `, `` `-- `` with --charset ascii).
_ART = regex.compile("^((?:[│|][ \u00a0]{2} |[ \u00a0]{3} |`-- |\\|-- )*)(├── |└── |\\|-- |`-- )")


_TREE_REPORT = regex.compile(r"^\d+ director(?:y|ies)(?:, \d+ files?)?$")


def tree(text: str) -> list[str] | None:
    """tree's drawing read back into folders: each folder once with all its entries (a
    folder among them marked `name/`), losslessly; its closing count and any other line
    (a root given as a file, `[error opening dir]`) stay as they are."""
    lines = text.splitlines()
    if not any(_ART.match(line) for line in lines):
        return None
    folders: dict[str, list[str]] = {}
    other: list[str] = []
    stack: list[str] = []
    for line in lines:
        found = _ART.match(line)
        if found is None:
            if not line.strip():
                continue
            if not _TREE_REPORT.match(line):
                stack = [line]  # a root: the folder (or file) tree was given
                folders.setdefault(line, [])
            other.append(line)
            continue
        depth = len(found.group(1)) // 4 + 1
        if not stack or depth > len(stack):
            return None  # not a drawing tree prints: an entry deeper than its folder
        parent = stack[depth - 1]
        full = _entry_path(parent, line[found.end() :])
        stack = [*stack[:depth], full]
        folders.setdefault(parent, []).append(full[len(_base(parent)) + 1 :])
    return _tree_lines(folders, other)


def _base(folder: str) -> str:
    """A folder as the start of its entries' paths (`src/` given as `src/` reads `src`)."""
    return folder.rstrip("/") if folder != "/" else ""


def _entry_path(parent: str, name: str) -> str:
    """The path of an entry of `parent`: `tree -f` prints it whole, tree by default its
    name alone."""
    base = _base(parent)
    return name if name.startswith(base + "/") else f"{base}/{name}"


def _tree_lines(folders: dict[str, list[str]], other: list[str]) -> list[str]:
    out: list[str] = []
    for folder, names in folders.items():
        shown = [name + "/" if folders.get(f"{_base(folder)}/{name}") else name for name in names]
        label = folder[2:] if folder.startswith("./") else folder
        if not shown or (len(shown) == 1 and shown[0].endswith("/")):
            continue  # nothing in it, or only a folder whose own line names it
        out.extend(wrapped(f"{label.rstrip('/')}/ ({len(shown)}): ", shown))
    roots = [line for line in other if line in folders and not folders[line]]
    rest = [line for line in other if line not in folders]
    return out + roots + rest if out else [*other]


def _tree_name_is_not_a_message(line: str) -> bool:
    """An entry of the drawing is a name (`exceptions.py`), not a message."""
    return _ART.match(line) is None and is_protected(line)


declare_complete(tree, _tree_name_is_not_a_message)


# File names shown in all and at most per folder; every folder is named with its count.
NAMES = 40
NAMES_PER_FOLDER = 10
_TOOL_MESSAGE = ("find:", "fd:", "fdfind:", "git:", "warning:", "error:", "fatal:")


def paths_by_folder(text: str) -> list[str] | None:
    """One path per line (find, fd, git ls-files): one line per folder listing its entries.

    Every folder is named with its count. Up to ALL_PATHS paths every name is listed;
    past that names are cut to a fair share of NAMES
    (the rest counted as `+N`). The tool's own messages (`find: ...: Permission denied`)
    follow as they are.
    """
    lines = text.splitlines()
    paths = [line for line in lines if not line.startswith(_TOOL_MESSAGE)]
    messages = [line for line in lines if line.startswith(_TOOL_MESSAGE)]
    if len(paths) < 4 or not all(map(_is_path, paths)):
        return None
    folders: dict[str, list[str]] = {}
    for line in paths:
        head, sep, name = line.rstrip("/").rpartition("/")
        folder = head + "/" if sep else "./"
        folders.setdefault(folder, []).append(name + ("/" if line.endswith("/") else ""))
    if len(folders) * 2 > len(paths):
        # most folders hold one path: grouping saves nothing, and no path is dropped
        return lines if len(paths) <= ALL_PATHS else None
    if len(paths) <= ALL_PATHS:
        return _every_path(folders, len(paths)) + messages
    return _cut_paths(folders, len(paths)) + messages


def _shares(folders: dict[str, list[str]]) -> dict[str, int]:
    """How many names each folder shows: a fair share of NAMES, at most NAMES_PER_FOLDER."""
    counts = [len(names) for names in folders.values()]
    return dict(zip(folders, fair_share(counts, NAMES, NAMES_PER_FOLDER), strict=True))


def _cut_paths(folders: dict[str, list[str]], count: int) -> list[str]:
    """Past ALL_PATHS: every folder with its count, its names cut to its share."""
    share = _shares(folders)
    out = [f"{count} paths in {len(folders)} folders (names past {NAMES} cut)"]
    for folder, names in folders.items():
        if len(names) == 1:
            out.append(folder + names[0])
            continue
        shown = names[: share[folder]]
        more = f", +{len(names) - len(shown)}" if len(shown) < len(names) else ""
        listed = f": {', '.join(shown)}{more}" if shown else ""
        out.append(f"{folder} ({len(names)}){listed}")
    return out


def _is_path(line: str) -> bool:
    """A line a path lister prints: a path with a slash, no tab, not a `dir:` header."""
    return bool(line) and not line.endswith(":") and "\t" not in line and "/" in line


def _every_path(folders: dict[str, list[str]], count: int) -> list[str]:
    """Every path, losslessly shorter: each folder once with all its names (wrapped before a
    line could be clipped)."""
    out = [f"{count} paths in {len(folders)} folders"]
    for folder, names in folders.items():
        if len(names) == 1:
            out.append(folder + names[0])
            continue
        out.extend(wrapped(f"{folder} ({len(names)}): ", names))
    return out


def _path_is_not_a_message(line: str) -> bool:
    """A file name is not a message: `exceptions.py` or `password_reset/` is not protected."""
    return line.startswith(_TOOL_MESSAGE) and is_protected(line)


declare_complete(paths_by_folder, _path_is_not_a_message)
