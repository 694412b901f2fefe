"""ls -l and tree: the columns and drawing characters an agent does not need."""

from __future__ import annotations

from rtok.filter import regex
from rtok.filter.protect import is_protected

_LONG = regex.compile(r"^([-dlcbps])[-rwxsStT@+.]{9}[@+.]?\s+\d+\s+\S+\s+\S+\s+"
                      r"([\d,]+(?:\s*,\s*\d+)?)"
                      r"\s+(\w{3}\s+\d+\s+[\d:]+|\d{4}-\d\d-\d\d(?: [\d:.]+)?(?: [+-]\d{4})?)"
                      r"\s+(.*)$")


# File rows shown by ls_long; folders are always all named.
LS_FILES = 40


def ls_long(text: str) -> list[str] | None:
    """`ls -l` rows as `name/` for folders, `name  size` for files; None for plain `ls`.

    Every folder is named; files past the first LS_FILES are counted on one line. Lines
    that are not rows (`ls: cannot access ...`, `dir:` headers of -R) stay as they are.
    """
    lines = text.splitlines()
    rows = [line for line in lines if line.strip() and not line.startswith("total ")]
    matched = [_LONG.match(line) for line in rows]
    if not rows or sum(m is not None for m in matched) < len(rows) * 0.8:
        return None
    out = []
    files = 0
    cut = 0
    for line, found in zip(rows, matched, strict=True):
        if found is None:
            out.append(line)
            continue
        kind, size, name = found.group(1), found.group(2), found.group(4)
        if name in (".", ".."):
            continue
        if kind == "d":
            out.append(name + "/")
            continue
        files += 1
        if files > LS_FILES:
            cut += 1
        elif kind == "l":
            out.append(name)
        else:
            out.append(f"{name}  {_human(size)}")
    if cut:
        out.append(f"… {cut} more files")
    return out


def _row_is_not_a_message(line: str) -> bool:
    """A listed name is not a message (`passwd`, `credentials.json`); `ls: ...` lines are."""
    return _LONG.match(line) is None and is_protected(line)


ls_long.protects = _row_is_not_a_message  # type: ignore[attr-defined]
ls_long.complete = True  # type: ignore[attr-defined]


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


_ART = regex.compile(r"^((?:│   |    |\|   |`-- |\|-- )*)(├── |└── |\|-- |`-- )")


def tree(text: str) -> list[str] | None:
    """tree's box drawing replaced by two spaces per level."""
    lines = text.splitlines()
    if not any(_ART.match(line) for line in lines):
        return None
    out = []
    for line in lines:
        found = _ART.match(line)
        if found is None:
            out.append(line)
            continue
        depth = (len(found.group(1)) // 4) + 1
        out.append("  " * depth + line[found.end():])
    return out


# File names shown in all and at most per folder; every folder is named with its count.
NAMES = 40
NAMES_PER_FOLDER = 10
_TOOL_MESSAGE = ("find:", "fd:", "fdfind:", "git:", "warning:", "error:", "fatal:")


def paths_by_folder(text: str) -> list[str] | None:
    """One path per line (find, fd, git ls-files): one line per folder listing its entries.

    Every folder is named with its count; names are cut to a fair share of NAMES (the rest
    counted as `+N`). The tool's own messages (`find: ...: Permission denied`) follow as
    they are.
    """
    lines = text.splitlines()
    paths = [line for line in lines if not line.startswith(_TOOL_MESSAGE)]
    messages = [line for line in lines if line.startswith(_TOOL_MESSAGE)]
    if len(paths) < 4 or any(not line or line.endswith(":") or "\t" in line or "/" not in line
                             for line in paths):
        return None
    folders: dict[str, list[str]] = {}
    for line in paths:
        head, sep, name = line.rstrip("/").rpartition("/")
        folder = head + "/" if sep else "./"
        folders.setdefault(folder, []).append(name + ("/" if line.endswith("/") else ""))
    if len(folders) * 2 > len(paths):
        return None
    share = dict.fromkeys(folders, 0)
    left = NAMES
    while left > 0:
        grew = False
        for folder, names in folders.items():
            if left and share[folder] < min(len(names), NAMES_PER_FOLDER):
                share[folder] += 1
                left -= 1
                grew = True
        if not grew:
            break
    out = []
    for folder, names in folders.items():
        if len(names) == 1:
            out.append(folder + names[0])
            continue
        shown = names[:share[folder]]
        more = f", +{len(names) - len(shown)}" if len(shown) < len(names) else ""
        listed = f": {', '.join(shown)}{more}" if shown else ""
        out.append(f"{folder} ({len(names)}){listed}")
    if len(paths) > NAMES:
        out.insert(0, f"{len(paths)} paths in {len(folders)} folders")
    return out + messages


def _path_is_not_a_message(line: str) -> bool:
    """A file name is not a message: `exceptions.py` or `password_reset/` is not protected."""
    return line.startswith(_TOOL_MESSAGE) and is_protected(line)


paths_by_folder.protects = _path_is_not_a_message  # type: ignore[attr-defined]
paths_by_folder.complete = True  # type: ignore[attr-defined]
