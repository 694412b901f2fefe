"""git status / log / diff / show in fewer lines. Each returns None for output it does not know."""

from __future__ import annotations

from rtok._fast import regex
from rtok.filter.formatters import declare_complete
from rtok.filter.protect import carries_secret, is_protected
from rtok.filter.textlines import fair_share

_EMAIL = regex.compile(r"\s*<[^>]*>")
_BRANCH = regex.compile(r"^On branch (\S+)|^HEAD detached (?:at|from) (\S+)")
_SECTION = {
    "Changes to be committed:": "staged",
    "Changes not staged for commit:": "unstaged",
    "Untracked files:": "untracked",
    "Unmerged paths:": "unmerged",
}
_ENTRY = regex.compile(
    r"^\t(?:(new file|modified|deleted|renamed|typechange|both modified|"
    r"both added|deleted by us|deleted by them|added by us|added by them):"
    r"\s+)?(.+)$"
)
_CODES = {
    "new file": "A",
    "modified": "M",
    "deleted": "D",
    "renamed": "R",
    "typechange": "T",
    "both modified": "UU",
    "both added": "AA",
    "deleted by us": "DU",
    "deleted by them": "UD",
    "added by us": "AU",
    "added by them": "UA",
}


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
        shown = _status_line(line, section, entries)
        if shown:
            out.append(shown)
    for name in ("staged", "unstaged", "unmerged", "untracked"):
        items = entries.get(name)
        if items:
            out.append(f"{name} ({len(items)}):")
            out.extend("  " + item for item in items)
    if not entries:
        out.append("clean")
    return out


def _status_line(line: str, section: str | None, entries: dict[str, list[str]]) -> str:
    """One line of `git status` under `section`: a path goes to `entries`; what is shown of
    the rest ("" for hints, blank lines and a branch up to date)."""
    if line.startswith("Your branch"):
        return "" if "up to date" in line else line.strip()
    if line.startswith("  (use") or not line.strip():
        return ""
    found = _ENTRY.match(line) if section else None
    if found is not None and section is not None:
        code = _CODES.get(found.group(1) or "", "?" if section == "untracked" else "")
        entries.setdefault(section, []).append(f"{code} {found.group(2)}".strip())
        return ""
    if line.startswith(("nothing to commit", "no changes added")):
        return ""
    return line


_COMMIT = regex.compile(r"^commit ([0-9a-f]{7,64})(.*)$")
# ` path | 12 +++--` (a --stat row) and ` 3 files changed, 10 insertions(+)` (its summary).
_STAT = regex.compile(r"^ (\S.*?)\s+\|\s+(\d+ ?[+-]*|Bin .*)$")
_STAT_SUMMARY = regex.compile(r"^ \d+ files? changed")

# Changed lines shown in all and at most per file; every file header is shown regardless.
PATCH_LINES = 80
PATCH_LINES_PER_FILE = 20
CHANGED_LINE_CHARS = 200


class _Commit:
    __slots__ = ("author", "body", "date", "hash", "refs")

    def __init__(self, commit_hash: str, refs: str) -> None:
        self.hash = commit_hash
        self.refs = refs
        self.author = ""
        self.date = ""
        self.body: list[str] = []

    def lines(self) -> list[str]:
        subject = self.body[0] if self.body else ""
        more = f" (+{len(self.body) - 1} lines)" if len(self.body) > 1 else ""
        # The subject is shown as written (double spaces too); only empty fields go.
        head = " ".join(
            part for part in (self.hash[:9] + self.refs, self.date, self.author) if part
        )
        out = [f"{head}: {subject}{more}"]
        # Body lines that report an error, a warning or a secret stay with their commit.
        out.extend("    " + line for line in self.body[1:] if is_protected(line))
        return out


def _read_header(commit: _Commit, line: str) -> bool:
    """Fold one commit-header line into `commit`; False when it is not one."""
    if line.startswith("Author:"):
        commit.author = _EMAIL.sub("", line[7:]).strip()
    elif line.startswith("Date:"):
        commit.date = _short_date(line[5:].strip())
    elif line.startswith("Merge:"):
        commit.refs += " merge"
    elif line.startswith(("Commit:", "CommitDate:", "AuthorDate:")):
        pass
    elif line.startswith("    "):
        if line.strip():
            commit.body.append(line.strip())
    else:
        return bool(not line.strip())
    return True


def git_log(text: str) -> list[str] | None:
    """`git log` in any of its default shapes: one line per commit, then its files.

    Plain log: a line per commit (short hash, date, author, subject). `--stat`: each
    changed file of the commit with its count. `-p`: each file and its hunks, cut within a
    budget (`_Patch`). Every commit and every changed file is named.
    """
    lines = text.splitlines()
    if not lines or _COMMIT.match(lines[0]) is None:
        return None
    return _log_lines(lines)


def _log_lines(lines: list[str]) -> list[str] | None:
    out: list[str] = []
    patch = _Patch()
    commit: _Commit | None = None
    in_header = False
    for line in lines:
        found = _COMMIT.match(line)
        if found is not None:
            if commit is not None and in_header:
                out.extend(commit.lines())
            patch.end_file()
            commit = _Commit(found.group(1), found.group(2))
            in_header = True
            continue
        if commit is None:
            return None
        if in_header:
            if _read_header(commit, line):
                continue
            out.extend(commit.lines())
            in_header = False
        _body_line(line, patch, out)
    if commit is not None and in_header:
        out.extend(commit.lines())
    patch.end_file()
    return patch.finish(out)


def _body_line(line: str, patch: _Patch, out: list[str]) -> None:
    """A line after a commit's header: a --stat row or summary, a patch's, or as it is."""
    stat = _STAT.match(line)
    if stat is not None:
        count = stat.group(2).split(" ", 1)[0] if stat.group(2)[:1].isdigit() else stat.group(2)
        out.append(f"  {stat.group(1)} | {count}")
    elif _STAT_SUMMARY.match(line) is not None:
        out.append("  " + line.strip())
    elif line.startswith("diff --git ") or patch.active:
        patch.feed(line, out)
    elif line.strip():
        out.append(line)


def _short_date(value: str) -> str:
    # "Mon Nov 30 10:00:00 2026 +0000" -> "2026-Nov-30"
    parts = value.split()
    if len(parts) >= 5:
        return f"{parts[4]}-{parts[1]}-{parts[2]}"
    return value


def git_diff(text: str) -> list[str] | None:
    """A unified diff: every file named, unchanged context left out, long hunks cut."""
    lines = text.splitlines()
    if not any(line.startswith("diff --git ") for line in lines[:200]):
        return None
    return _compact_patch(lines)


def unified_diff(text: str) -> list[str] | None:
    """`diff -u` output: file headers kept, unchanged context left out, long hunks cut."""
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
    return _log_lines(lines)


class _Patch:
    """The files and hunks of a patch, as lines, within the PATCH_LINES budget.

    Each file is first collected whole (its header, its hunks); when the patch ends, every
    file gets a fair share of the budget, and the changed lines past its share are counted
    on one line. A changed line that carries a secret is always shown.
    """

    __slots__ = ("active", "files", "keep_file_headers", "slots")

    def __init__(self, keep_file_headers: bool = False) -> None:
        self.active = False
        self.keep_file_headers = keep_file_headers
        # The items of each file: (kind, text), "h" for a header or hunk line, "c" for a
        # changed line; `slots` holds where each file's block goes in the output.
        self.files: list[list[tuple[str, str]]] = []
        self.slots: list[int] = []

    def start_file(self, out: list[str]) -> None:
        self.end_file()
        self.active = True
        self.slots.append(len(out))
        self.files.append([])
        out.append("")  # replaced in finish()

    def end_file(self) -> None:
        self.active = False

    def feed(self, line: str, out: list[str]) -> None:
        if line.startswith("diff --git "):
            self.start_file(out)
            parts = line.split(" b/", 1)
            self.files[-1].append(("h", "=== " + (parts[1] if len(parts) == 2 else line[11:])))
            return
        if not self.files:
            self.start_file(out)
        items = self.files[-1]
        if line.startswith(("index ", "--- ", "+++ ")):
            if self.keep_file_headers and line.startswith(("--- ", "+++ ")):
                items.append(("h", line.split("\t", 1)[0]))
            return
        if line.startswith(("rename to ", "copy to ", "similarity index ")):
            return  # the `===` line names the new path; `rename from` the old one
        if line.startswith(
            (
                "new file mode",
                "deleted file mode",
                "rename from",
                "copy from",
                "dissimilarity index",
                "Binary files",
                "old mode",
                "new mode",
            )
        ):
            items.append(("h", "  " + line))
        elif line.startswith("@@"):
            items.append(("h", line))
        elif line.startswith(("+", "-")):
            items.append(("c", line))
        elif line.startswith(" ") or line == "":
            return  # unchanged context: the `@@` line already gives the line numbers
        else:
            items.append(("h", line))

    def finish(self, out: list[str]) -> list[str]:
        # A deleted file's lines are its old content: the count says enough.
        quota = fair_share(
            [
                0
                if ("h", "  deleted file mode") in [(kind, text[:19]) for kind, text in items]
                else sum(1 for kind, _ in items if kind == "c")
                for items in self.files
            ],
            PATCH_LINES,
            max(PATCH_LINES_PER_FILE, PATCH_LINES // max(1, len(self.files))),
        )
        blocks = [_file_block(items, share) for items, share in zip(self.files, quota, strict=True)]
        result: list[str] = []
        previous = 0
        for slot, block in zip(self.slots, blocks, strict=True):
            result.extend(out[previous:slot])
            result.extend(block)
            previous = slot + 1
        result.extend(out[previous:])
        return result


def _file_block(items: list[tuple[str, str]], share: int) -> list[str]:
    out: list[str] = []
    shown = 0
    cut_plus = cut_minus = 0
    for kind, text in items:
        if kind == "c":
            if shown < share or carries_secret(text):
                shown += 1
                out.append(
                    text
                    if len(text) <= CHANGED_LINE_CHARS or carries_secret(text)
                    else text[:CHANGED_LINE_CHARS] + "…"
                )
            elif text[:1] == "+":
                cut_plus += 1
            else:
                cut_minus += 1
        elif kind == "h" and text.startswith("@@") and cut_plus + cut_minus:
            continue  # a later hunk of a file already past its share: counted below
        else:
            out.append(text)
    if cut_plus + cut_minus:
        out.append(f"  … {cut_plus + cut_minus} more changed lines (+{cut_plus} -{cut_minus})")
    return out


def _compact_patch(lines: list[str], keep_file_headers: bool = False) -> list[str]:
    out: list[str] = []
    patch = _Patch(keep_file_headers)
    for line in lines:
        if keep_file_headers and line.startswith("--- ") and not patch.active:
            patch.start_file(out)
        if patch.active or line.startswith("diff --git "):
            patch.feed(line, out)
        else:
            out.append(line)
    return patch.finish(out)


def _protects(line: str) -> bool:
    """Raw lines the engine must find in the output: not patch content, which the formatter
    itself shows (or counts) in place, keeping those that carry a secret."""
    if line[:1] in ("+", "-", " ", "@"):
        return False
    return is_protected(line)


for _formatter in (git_log, git_show, git_diff, unified_diff):
    declare_complete(_formatter, _protects)
