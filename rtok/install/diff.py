"""Unified diffs of planned changes, as `--dry-run` and the interactive preview show them.

A created file is shown in full against /dev/null, a deleted one in full against /dev/null,
a mode change as a `mode` line. Bytes that are not UTF-8 are shown escaped; a CR of a CRLF
file is shown as `\\r` so an edit that changes line endings cannot hide.
"""

from __future__ import annotations

import difflib
import re

from rtok import paths
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


def shown_path(path: str, home: str | None = None) -> str:
    """`path` as messages show it: `~/…` below the home directory (JSON keeps it whole);
    `home` is the one the run resolves `~` against (default: this process's)."""
    home = (paths.home() if home is None else home).rstrip("/")
    if home and (path == home or path.startswith(home + "/")):
        return "~" + path[len(home) :]
    return path


def shown_text(text: str) -> str:
    """A message with every absolute path below the home directory written `~/…`."""
    home = paths.home().rstrip("/")
    if not home:
        return text
    return re.sub(r"(?<![\w.~/@-])" + re.escape(home) + r"(?=/|\b|$)", "~", text)


def unified_diff(change: Change, *, short_paths: bool = False) -> str:
    """The diff of one change; `short_paths` names the files `~/…` (for a terminal; the
    headers are then `--- ~/x` / `+++ ~/x` instead of `--- a/abs/x` / `+++ b/abs/x`)."""
    name = shown_path(change.path) if short_paths else change.path
    header = _header(change, name, short_paths)
    old_lines, new_lines = _lines(change.old), _lines(change.new)
    if old_lines == new_lines:
        return header
    old_name = "/dev/null" if change.old is None else (name if short_paths else f"a{name}")
    new_name = "/dev/null" if change.new is None else (name if short_paths else f"b{name}")
    return "".join([header, f"--- {old_name}\n", f"+++ {new_name}\n", *_body(old_lines, new_lines)])


def _header(change: Change, name: str, short_paths: bool) -> str:
    """The lines before the diff: the link's real file, a created or deleted file's mode,
    a mode change."""
    header = ""
    if change.path != change.real_path:
        real = shown_path(change.real_path) if short_paths else change.real_path
        header += f"# {name} -> {real}\n"
    if change.old is None:
        header += f"new file mode {change.mode:o}\n"
    elif change.new is None:
        header += f"deleted file mode {change.old_mode or 0:o}\n"
    elif change.old_mode is not None and change.mode != change.old_mode:
        header += f"old mode {change.old_mode:o}\nnew mode {change.mode:o}\n"
    return header


def _body(old_lines: list[str], new_lines: list[str]) -> list[str]:
    """The hunks, each line's CR and missing final newline made visible."""
    out: list[str] = []
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
    return out


def render(changes: tuple[Change, ...] | list[Change]) -> str:
    return "".join(unified_diff(change) for change in changes)
