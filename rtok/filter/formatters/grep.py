"""grep -n / rg output grouped by file: the path once, then `line: text` rows."""

from __future__ import annotations

import re

_MATCH = re.compile(r"^([^:\n]+?)[:-](\d+)[:-](.*)$")


def grep_grouped(text: str) -> list[str] | None:
    lines = text.splitlines()
    rows = [_MATCH.match(line) for line in lines if line != "--"]
    if not rows or any(row is None for row in rows):
        return None
    groups: dict[str, list[str]] = {}
    for row in rows:
        assert row is not None
        groups.setdefault(row.group(1), []).append(f"  {row.group(2)}: {row.group(3)}")
    if len(groups) == len(rows):
        return None
    out: list[str] = []
    for path, items in groups.items():
        out.append(f"{path} ({len(items)})")
        out.extend(items)
    return out
