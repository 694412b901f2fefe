"""ls -l and tree: the columns and drawing characters an agent does not need."""

from __future__ import annotations

import re

_LONG = re.compile(r"^([-dlcbps])[-rwxsStT@+.]{9}[@+.]?\s+\d+\s+\S+\s+\S+\s+([\d,]+(?:\s*,\s*\d+)?)"
                   r"\s+(\w{3}\s+\d+\s+[\d:]+|\d{4}-\d\d-\d\d(?: [\d:.]+)?(?: [+-]\d{4})?)\s+(.*)$")


def ls_long(text: str) -> list[str] | None:
    """`ls -l` rows as `name/` for folders, `name  size` for files; None for plain `ls`."""
    lines = text.splitlines()
    rows = [line for line in lines if line.strip() and not line.startswith("total ")]
    matched = [_LONG.match(line) for line in rows]
    if not rows or sum(m is not None for m in matched) < len(rows) * 0.8:
        return None
    out = []
    for line, found in zip(rows, matched, strict=True):
        if found is None:
            out.append(line)
            continue
        kind, size, name = found.group(1), found.group(2), found.group(4)
        if name in (".", ".."):
            continue
        if kind == "d":
            out.append(name + "/")
        elif kind == "l":
            out.append(name)
        else:
            out.append(f"{name}  {_human(size)}")
    return out


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


_ART = re.compile(r"^((?:│   |    |\|   |`-- |\|-- )*)(├── |└── |\|-- |`-- )")


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


def paths_by_folder(text: str) -> list[str] | None:
    """One path per line (find, fd, git ls-files): one line per folder listing its entries."""
    lines = text.splitlines()
    if len(lines) < 4 or any(not line or line.endswith(":") or "\t" in line or "/" not in line
                             for line in lines):
        return None
    folders: dict[str, list[str]] = {}
    for line in lines:
        head, sep, name = line.rstrip("/").rpartition("/")
        folder = head + "/" if sep else "./"
        folders.setdefault(folder, []).append(name + ("/" if line.endswith("/") else ""))
    if len(folders) * 2 > len(lines):
        return None
    return [f"{folder} ({len(names)}): {', '.join(names)}" if len(names) > 1
            else folder + names[0] for folder, names in folders.items()]
