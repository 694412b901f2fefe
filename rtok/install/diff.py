"""Unified diffs of planned changes, as `--dry-run` and the interactive preview show them.

A created file is shown in full against /dev/null, a deleted one in full against /dev/null,
a mode change as a `mode` line. Bytes that are not UTF-8 are shown escaped; a CR of a CRLF
file is shown as `\\r` so an edit that changes line endings cannot hide.
"""

from __future__ import annotations

import difflib

from rtok.install.planner import Change

NO_NEWLINE = "\\ No newline at end of file\n"


def _lines(data: bytes | None) -> list[str]:
    if not data:
        return []
    text = data.decode("utf-8", "backslashreplace")
    return text.splitlines(keepends=True)


def _visible(line: str) -> str:
    body = line[:-1] if line.endswith("\n") else line
    if body.endswith("\r"):
        body = body[:-1] + "\\r"
    return body + "\n"


def unified_diff(change: Change) -> str:
    old_name = "/dev/null" if change.old is None else f"a{change.path}"
    new_name = "/dev/null" if change.new is None else f"b{change.path}"
    header = ""
    if change.path != change.real_path:
        header += f"# {change.path} -> {change.real_path}\n"
    if change.old is None:
        header += f"new file mode {change.mode:o}\n"
    elif change.new is None:
        header += f"deleted file mode {change.old_mode or 0:o}\n"
    elif change.old_mode is not None and change.mode != change.old_mode:
        header += f"old mode {change.old_mode:o}\nnew mode {change.mode:o}\n"
    old_lines, new_lines = _lines(change.old), _lines(change.new)
    if old_lines == new_lines:
        return header
    out = [header, f"--- {old_name}\n", f"+++ {new_name}\n"]
    body = difflib.unified_diff(old_lines, new_lines, n=3, lineterm="\n")
    for index, line in enumerate(body):
        if index < 2:  # difflib's own ---/+++ lines; ours carry the real names
            continue
        if line.startswith("@@"):
            out.append(line)
            continue
        out.append(line[0] + _visible(line[1:]))
        if not line.endswith("\n"):
            out.append(NO_NEWLINE)
    return "".join(out)


def render(changes: tuple[Change, ...] | list[Change]) -> str:
    return "".join(unified_diff(change) for change in changes)
