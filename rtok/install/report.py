"""Everything `rtok init` / `rtok uninstall` print: plan summaries, diffs, JSON, results.

The rest of the installer returns values; only this module turns them into text.
"""

from __future__ import annotations

import io
import json
import os
import shlex
from collections.abc import Sequence
from typing import TextIO

from rtok import paths
from rtok.fileio import sha256_hex
from rtok.install import diff
from rtok.install.diff import shown_path as shown_path
from rtok.install.diff import shown_text as shown_text
from rtok.install.leftover_parts import Install, Part, human_size, total_size
from rtok.install.model import Action
from rtok.install.planner import Change, Plan
from rtok.install.transaction import ApplyResult

_VERBS = {"create": "create", "modify": "update", "delete": "delete", "chmod": "chmod"}


def _sha(data: bytes | None) -> str | None:
    return None if data is None else sha256_hex(data)


def _who(change: Change) -> str:
    agents = sorted({e.agent for e in change.edits} or {change.edit.agent})
    return ", ".join(agents)


def change_line(change: Change, *, prefix: str = "") -> str:
    # Only the edits that change the bytes: an edit with nothing to do in this file (a
    # trust entry that is not there) is not named.
    descriptions = [e.description for e in change.described if e.description]
    what = "; ".join(dict.fromkeys(descriptions))
    text = f"{prefix}{_VERBS[change.action]} {shown_path(change.path)} [{_who(change)}]"
    return text + (f": {shown_text(what)}" if what else "")


_SUMMARY_VERBS = {
    "create": "create",
    "modify": "update",
    "delete": "delete",
    "chmod": "update (mode)",
}


def summary_text(plan: Plan) -> str:
    """Every file the plan changes, one line each, for right above the confirmation."""
    lines = [f"{len(plan.changes)} file(s) to change:"]
    lines.extend(
        f"  {_SUMMARY_VERBS[c.action]:<7} {shown_path(c.path)} [{_who(c)}]" for c in plan.changes
    )
    return "\n".join(lines) + "\n"


def _diff_once(change: Change, shown: dict[tuple[str, bytes | None], Change]) -> str:
    """The change's diff, or, for a file whose whole new body was already shown above
    (the same awareness file for several agents), one line that says so."""
    key = (change.action, change.new if change.action == "create" else change.old)
    if change.action in ("create", "delete") and key in shown:
        first = shown[key]
        return f"  (same content as {shown_path(first.path)} [{_who(first)}] above)"
    if change.action in ("create", "delete"):
        shown[key] = change
    return diff.unified_diff(change, short_paths=True).rstrip("\n")


def plan_text(plan: Plan, *, action: Action, show_diff: bool, verbose: bool) -> str:
    lines = _change_lines(plan, show_diff) + _note_lines(plan, verbose)
    existing = sum(1 for c in plan.changes if c.old is not None and c.new != c.old)
    if existing:
        lines.append(
            f"{existing} existing file(s) will be backed up first, into a new "
            f"directory under {shown_path(paths.backups_dir())}"
        )
    return "\n".join(line for line in lines if line) + "\n"


def _change_lines(plan: Plan, show_diff: bool) -> list[str]:
    """A line per change and per declined change, each with its diff when shown."""
    lines: list[str] = []
    shown: dict[tuple[str, bytes | None], Change] = {}
    prefixed = [(c, "would " if show_diff else "") for c in plan.changes]
    prefixed += [(c, declined_prefix(c)) for c in plan.declined]
    for change, prefix in prefixed:
        lines.append(change_line(change, prefix=prefix))
        if show_diff:
            lines.append(_diff_once(change, shown))
    return lines


def _note_lines(plan: Plan, verbose: bool) -> list[str]:
    """The files kept, the uninstall notes, and (verbose) what is already in place."""
    lines = [shown_text(f"kept {edit.path} [{edit.agent}]: {note}") for edit, note in plan.kept]
    lines += [shown_text(f"note: {edit.path} [{edit.agent}]: {note}") for edit, note in plan.notes]
    if verbose:
        lines += [
            f"already in place: {shown_path(edit.path)} [{edit.agent}] "
            f"{shown_text(edit.description)}"
            for edit in plan.unchanged
        ]
    return lines


def declined_prefix(change: Change) -> str:
    """Why a change is not made: it needs consent itself, or its agent waits for one."""
    if any(e.needs_consent for e in change.edits):
        return "needs consent (--auto-patch), not done: "
    return "not done, waits with its agent's settings change: "


def manual_instructions(declined: Sequence[Change]) -> str:
    """What to change by hand, for --no-patch (or a declined consent)."""
    out: list[str] = []
    for change in declined:
        out.append(f"To finish by hand, edit {shown_path(change.path)} [{_who(change)}] like this:")
        out.append(diff.unified_diff(change, short_paths=True).rstrip("\n"))
    return "\n".join(out) + ("\n" if out else "")


def result_text(
    result: ApplyResult, *, action: Action, verbose: bool, declined: bool = False
) -> str:
    lines = [change_line(change) for change in result.applied]
    lines.extend(f"backup of {original}: {backup}" for original, backup in result.backups)
    if verbose:
        lines.extend(f"created directory {d}" for d in result.created_dirs)
    if verbose or not result.applied:
        # Without other changes these are what an earlier, interrupted run left behind.
        lines.extend(f"removed directory {d} (rtok created it)" for d in result.removed_dirs)
        lines.extend(f"removed leftover temp file {t}" for t in result.removed_temps)
    lines.extend(
        f"{path}: changed since it was planned; the change was recomputed on its new bytes"
        for path in result.replanned
    )
    lines.extend(f"warning: {w}" for w in result.warnings)
    return "".join(shown_text(line) + "\n" for line in lines)


def _change_json(change: Change, with_diff: bool) -> dict[str, object]:
    entry: dict[str, object] = {
        "path": change.path,
        "real_path": change.real_path,
        "action": change.action,
        "agents": sorted({e.agent for e in change.edits}),
        "scope": change.edit.scope,
        "kinds": list(dict.fromkeys(e.kind for e in change.edits)),
        "descriptions": [e.description for e in change.edits if e.description],
        "needs_consent": any(e.needs_consent for e in change.edits),
        "old_sha256": _sha(change.old),
        "new_sha256": _sha(change.new),
        "old_mode": None if change.old_mode is None else f"{change.old_mode:04o}",
        "mode": None if change.new is None else f"{change.mode:04o}",
        "new_dirs": list(change.new_dirs),
    }
    if with_diff:
        entry["diff"] = diff.unified_diff(change)
    return entry


def plan_json(
    plan: Plan,
    *,
    action: Action,
    scope: str,
    applied: ApplyResult | None,
    exit_code: int,
    messages: Sequence[str] = (),
) -> str:
    document: dict[str, object] = {
        "action": action,
        "scope": scope,
        "agents": list(plan.agents),
        "changes": [_change_json(c, True) for c in plan.changes],
        "declined": [_change_json(c, True) for c in plan.declined],
        "unchanged": [
            {"path": e.path, "agent": e.agent, "kind": e.kind, "description": e.description}
            for e in plan.unchanged
        ],
        "kept": [{"path": e.path, "agent": e.agent, "reason": n} for e, n in plan.kept],
        "notes": [{"path": e.path, "agent": e.agent, "note": n} for e, n in plan.notes],
        "applied": applied is not None,
        "backups": []
        if applied is None
        else [{"path": p, "backup": b} for p, b in applied.backups],
        "messages": list(messages),
        "exit_code": exit_code,
    }
    if applied is not None:
        document["written"] = [_change_json(c, False) for c in applied.applied]
        document["warnings"] = list(applied.warnings)
    return json.dumps(document, indent=2) + "\n"


def error_json(message: str, problems: Sequence[str], exit_code: int) -> str:
    return (
        json.dumps({"error": message, "problems": list(problems), "exit_code": exit_code}, indent=2)
        + "\n"
    )


def shell_path(path: str) -> str:
    """`path` for a command line: `~/…` left for the shell to expand, the rest quoted."""
    shown = shown_path(path)
    if shown == "~":
        return "~"
    if shown.startswith("~/"):
        return "~/" + shlex.quote(shown[2:])
    return shlex.quote(shown)


def _part_line(part: Part) -> str:
    what = ", ".join(x for x in (human_size(part.size), part.detail) if x)
    note = (
        " (raw command output: it can hold secrets a command printed)"
        if (part.label == "archive")
        else ""
    )
    return f"  {part.label}: {what}{note}"


def _folders(parts: Sequence[Part]) -> str:
    folders = dict.fromkeys(os.path.dirname(p) for part in parts for p in part.paths)
    return ", ".join(shown_path(f) for f in folders)


def leftovers_text(parts: Sequence[Part], kept: Sequence[str], *, command: str) -> str:
    """The last lines of an uninstall that leaves no agent with rtok: what stays in rtok's
    own folders, and the command that removes it."""
    if not parts:
        return ""
    lines = [f"Left in {_folders(parts)} ({human_size(total_size(parts))}):"]
    lines.extend(_part_line(part) for part in parts)
    if kept:
        lines.append(
            f"  kept by --purge too: {shown_path(paths.config_dir())} (your settings "
            "and rule files)"
        )
    lines.append(f"Remove them with: {command}")
    return "\n".join(lines) + "\n"


def purge_text(parts: Sequence[Part], kept: Sequence[str]) -> str:
    lines = [f"rtok uninstall --purge removes ({human_size(total_size(parts))}):"]
    for part in parts:
        lines.append(_part_line(part))
        lines.extend(f"    {shown_path(p)}" for p in part.paths)
    if kept:
        lines.append(
            f"kept: {shown_path(paths.config_dir())} (your settings and rule files; "
            "remove it yourself if you want)"
        )
    return "\n".join(lines) + "\n"


def purge_result(parts: Sequence[Part], kept: Sequence[str], *, removed: bool) -> str:
    if not removed:
        return "Nothing to do: rtok's data and cache folders hold nothing.\n"
    labels = ", ".join(part.label for part in parts)
    return f"rtok's data removed ({human_size(total_size(parts))}): {labels}\n"


def uninstall_commands(installs: Sequence[Install]) -> list[str]:
    """The commands that take rtok out of `installs` (global ones first)."""
    commands: list[str] = []
    globals_ = [i.agent for i in installs if i.project_root is None]
    if globals_:
        commands.append("rtok uninstall " + " ".join(f"-a {a}" for a in globals_) + " -g")
    roots = dict.fromkeys(i.project_root for i in installs if i.project_root is not None)
    for root in roots:
        agents = [i.agent for i in installs if i.project_root == root]
        commands.append(
            f"cd {shell_path(root or '')} && rtok uninstall "
            + " ".join(f"-a {a}" for a in agents)
            + " --project"
        )
    return commands


def purge_refused(installs: Sequence[Install]) -> str:
    names = ", ".join(i.describe_short() for i in installs)
    lines = [
        f"rtok: rtok is still installed in {names}; nothing removed.",
        "Uninstall it first, then run `rtok uninstall --purge` again:",
    ]
    lines.extend(f"  {command}" for command in uninstall_commands(installs))
    return "\n".join(lines) + "\n"


def purge_json(
    parts: Sequence[Part],
    kept: Sequence[str],
    installs: Sequence[Install],
    removed: Sequence[str] | None,
    exit_code: int,
) -> str:
    return (
        json.dumps(
            {
                "action": "purge",
                "installed": [
                    {"agent": i.agent, "scope": i.scope, "project_root": i.project_root}
                    for i in installs
                ],
                "parts": [
                    {
                        "label": p.label,
                        "paths": list(p.paths),
                        "files": p.files,
                        "bytes": p.size,
                        "detail": p.detail,
                    }
                    for p in parts
                ],
                "kept": list(kept),
                "removed": None if removed is None else list(removed),
                "exit_code": exit_code,
            },
            indent=2,
        )
        + "\n"
    )


class QuietOut(io.StringIO):
    """`--quiet`: what would go to stdout is dropped, but the one-line result
    (`write_result`) reaches `real`. Errors go to stderr as always."""

    def __init__(self, real: TextIO) -> None:
        super().__init__()
        self.real = real


class QuietErr(io.StringIO):
    """`--quiet` on stderr: notes (`note: …`) are dropped, errors and warnings pass."""

    def __init__(self, real: TextIO) -> None:
        super().__init__()
        self.real = real

    def write(self, text: str) -> int:
        if text.startswith("note: "):
            return len(text)
        return self.real.write(text)

    def flush(self) -> None:
        self.real.flush()


TEST_COMMAND = "run ls -la /usr/bin"


def test_with_line(rtok_command: str) -> str:
    """The last line of a successful install: a command that shows rtok at work here."""
    return (
        f"Test with: {rtok_command} {TEST_COMMAND}   (a long listing, shortened; then ask "
        "your agent to run `git log` in a project)\n"
    )


def write_result(out: TextIO, line: str) -> None:
    """Print the one-line result (through --quiet too)."""
    target = out.real if isinstance(out, QuietOut) else out
    target.write(line.rstrip("\n") + "\n")


def _agent_list(agents: Sequence[str]) -> str:
    if len(agents) > 8:
        return ", ".join(agents[:8]) + f" and {len(agents) - 8} more"
    return ", ".join(agents)


def result_line(
    action: Action,
    scope: str,
    agents: Sequence[str],
    *,
    changed: Sequence[str],
    declined: int = 0,
    kept: int = 0,
    dry_run: bool = False,
    held: Sequence[str] = (),
) -> str:
    """One line that says what init/uninstall did, e.g. "rtok installed for 3 agents
    (global): claude, codex, gemini", or "Nothing to do: …"."""
    if changed:
        text = _changed_text(action, scope, changed, dry_run)
    elif declined:
        what = "installed" if action == "install" else "removed"
        text = f"rtok not {what} ({scope}): {_agent_list(agents)}"
    else:
        text = _nothing_text(action, scope, agents, dry_run)
    if held:
        what = "installed for" if action == "install" else "removed from"
        text += f"; not {what} {_agent_list(held)}: waits for consent (--auto-patch)"
    elif declined:
        text += f"; {declined} change(s) to shared settings wait for consent (--auto-patch)"
    if kept:
        text += f"; {kept} file(s) you changed were kept"
    if dry_run:
        text += "; nothing written"
    return text + "."


def _changed_text(action: Action, scope: str, changed: Sequence[str], dry_run: bool) -> str:
    count = len(changed)
    noun = f"{count} agent{'' if count == 1 else 's'}"
    if dry_run:
        verb = "install rtok for" if action == "install" else "remove rtok from"
        return f"Dry run: would {verb} {noun} ({scope}): {_agent_list(changed)}"
    verb = "installed for" if action == "install" else "removed from"
    return f"rtok {verb} {noun} ({scope}): {_agent_list(changed)}"


def _nothing_text(action: Action, scope: str, agents: Sequence[str], dry_run: bool) -> str:
    state = "already installed for" if action == "install" else "not installed for"
    who = _agent_list(agents) if agents else "any agent"
    text = f"Nothing to do: rtok is {state} {who} ({scope})"
    return "Dry run: " + text[0].lower() + text[1:] if dry_run else text
