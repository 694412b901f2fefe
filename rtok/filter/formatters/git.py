"""git status / log / diff / show in fewer lines. Each returns None for output it does not know."""

from __future__ import annotations

import re

from rtok.filter.protect import is_protected

_BRANCH = re.compile(r"^On branch (\S+)|^HEAD detached (?:at|from) (\S+)")
_SECTION = {
    "Changes to be committed:": "staged",
    "Changes not staged for commit:": "unstaged",
    "Untracked files:": "untracked",
    "Unmerged paths:": "unmerged",
}
_ENTRY = re.compile(r"^\t(?:(new file|modified|deleted|renamed|typechange|both modified|"
                    r"both added|deleted by us|deleted by them|added by us|added by them):"
                    r"\s+)?(.+)$")
_CODES = {"new file": "A", "modified": "M", "deleted": "D", "renamed": "R", "typechange": "T",
          "both modified": "UU", "both added": "AA", "deleted by us": "DU",
          "deleted by them": "UD", "added by us": "AU", "added by them": "UA"}


def git_status(text: str) -> list[str] | None:
    lines = text.splitlines()
    if not lines:
        return None
    branch = _BRANCH.match(lines[0])
    if branch is None:
        return None
    out = [f"branch {branch.group(1) or 'detached ' + (branch.group(2) or '')}"]
    section: str | None = None
    entries: dict[str, list[str]] = {}
    for line in lines[1:]:
        if line in _SECTION:
            section = _SECTION[line]
            continue
        if line.startswith("Your branch") or line.startswith("  (use") or not line.strip():
            if line.startswith("Your branch") and "up to date" not in line:
                out.append(line.strip())
            continue
        found = _ENTRY.match(line) if section else None
        if found is not None and section is not None:
            code = _CODES.get(found.group(1) or "", "?" if section == "untracked" else "")
            entries.setdefault(section, []).append(f"{code} {found.group(2)}".strip())
            continue
        if line.startswith(("nothing to commit", "no changes added")):
            continue
        out.append(line)
    for name in ("staged", "unstaged", "unmerged", "untracked"):
        items = entries.get(name)
        if items:
            out.append(f"{name} ({len(items)}):")
            out.extend("  " + item for item in items)
    if not entries:
        out.append("clean")
    return out


_COMMIT = re.compile(r"^commit ([0-9a-f]{7,64})(.*)$")


def git_log(text: str) -> list[str] | None:
    """`git log` default format: one line per commit (short hash, date, author, subject)."""
    lines = text.splitlines()
    if not lines or _COMMIT.match(lines[0]) is None:
        return None
    out: list[str] = []
    commit: dict[str, str] = {}
    body: list[str] = []

    def flush() -> None:
        if commit:
            subject = body[0] if body else ""
            more = f" (+{len(body) - 1} lines)" if len(body) > 1 else ""
            refs = commit.get("refs", "")
            out.append(f"{commit['hash'][:9]}{refs} {commit.get('date', '')} "
                       f"{commit.get('author', '')}: {subject}{more}".replace("  ", " "))
            # Body lines that report an error or a warning stay with their commit.
            out.extend("    " + line for line in body[1:] if is_protected(line))

    for line in lines:
        found = _COMMIT.match(line)
        if found is not None:
            flush()
            commit = {"hash": found.group(1), "refs": found.group(2)}
            body = []
        elif line.startswith("Author:"):
            commit["author"] = re.sub(r"\s*<[^>]*>", "", line[7:]).strip()
        elif line.startswith("Date:"):
            commit["date"] = _short_date(line[5:].strip())
        elif line.startswith("Merge:"):
            commit["refs"] = commit.get("refs", "") + " merge"
        elif line.startswith("    "):
            if line.strip():
                body.append(line.strip())
        elif line.strip():
            # Not the default format (e.g. --stat or a patch): leave it to the rule path.
            return None
    flush()
    return out


def _short_date(value: str) -> str:
    # "Mon Nov 30 10:00:00 2026 +0000" -> "2026-Nov-30"
    parts = value.split()
    if len(parts) >= 5:
        return f"{parts[4]}-{parts[1]}-{parts[2]}"
    return value


def git_diff(text: str) -> list[str] | None:
    """A unified diff with file headers shortened and unchanged context lines counted."""
    lines = text.splitlines()
    if not any(line.startswith("diff --git ") for line in lines[:200]):
        return None
    return _compact_patch(lines)


def unified_diff(text: str) -> list[str] | None:
    """`diff -u` output: file headers kept, hunks with unchanged context lines counted."""
    lines = text.splitlines()
    if any(line.startswith("diff --git ") for line in lines[:200]):
        return _compact_patch(lines)
    if not any(line.startswith("@@ ") for line in lines[:200]):
        return None
    return _compact_patch(lines, keep_file_headers=True)


def git_show(text: str) -> list[str] | None:
    lines = text.splitlines()
    if not lines or _COMMIT.match(lines[0]) is None:
        return None
    split = next((i for i, line in enumerate(lines) if line.startswith("diff --git ")), len(lines))
    header = git_log("\n".join(lines[:split]))
    if header is None:
        return None
    return header + _compact_patch(lines[split:])


def _compact_patch(lines: list[str], keep_file_headers: bool = False) -> list[str]:
    out: list[str] = []
    context = 0
    for line in lines:
        if keep_file_headers and line.startswith(("--- ", "+++ ")):
            _flush_context(out, context)
            context = 0
            out.append(line.split("\t", 1)[0])
            continue
        if line.startswith("diff --git "):
            _flush_context(out, context)
            context = 0
            parts = line.split(" b/", 1)
            out.append("=== " + (parts[1] if len(parts) == 2 else line[11:]))
        elif line.startswith(("index ", "--- ", "+++ ")):
            continue
        elif line.startswith("@@") or line.startswith(("+", "-")) or not line.startswith(" "):
            _flush_context(out, context)
            context = 0
            out.append(line)
        else:
            context += 1
    _flush_context(out, context)
    return out


def _flush_context(out: list[str], count: int) -> None:
    if count:
        out.append(f"  … {count} unchanged")
