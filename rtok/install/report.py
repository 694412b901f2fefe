"""Everything `rtok init` / `rtok uninstall` print: plan summaries, diffs, JSON, results.

The rest of the installer returns values; only this module turns them into text.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from rtok import paths
from rtok.fileio import sha256_hex
from rtok.install import diff
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
    descriptions = [e.description for e in change.edits if e.description]
    what = "; ".join(dict.fromkeys(descriptions))
    text = f"{prefix}{_VERBS[change.action]} {change.path} [{_who(change)}]"
    return text + (f": {what}" if what else "")


_SUMMARY_VERBS = {"create": "create", "modify": "update", "delete": "delete",
                  "chmod": "update (mode)"}


def summary_text(plan: Plan) -> str:
    """Every file the plan changes, one line each, for right above the confirmation."""
    lines = [f"{len(plan.changes)} file(s) to change:"]
    lines.extend(f"  {_SUMMARY_VERBS[c.action]:<7} {c.path} [{_who(c)}]" for c in plan.changes)
    return "\n".join(lines) + "\n"


def plan_text(plan: Plan, *, action: Action, show_diff: bool, verbose: bool) -> str:
    lines: list[str] = []
    if not plan.changes and not plan.declined:
        what = "installed" if action == "install" else "removed"
        lines.append(f"Nothing to do: everything is already {what}.")
    for change in plan.changes:
        lines.append(change_line(change, prefix="would " if show_diff else ""))
        if show_diff:
            lines.append(diff.unified_diff(change).rstrip("\n"))
    for change in plan.declined:
        lines.append(change_line(change, prefix=declined_prefix(change)))
        if show_diff:
            lines.append(diff.unified_diff(change).rstrip("\n"))
    for edit, note in plan.kept:
        lines.append(f"kept {edit.path} [{edit.agent}]: {note}")
    for edit, note in plan.notes:
        lines.append(f"note: {edit.path} [{edit.agent}]: {note}")
    if verbose:
        for edit in plan.unchanged:
            lines.append(f"already in place: {edit.path} [{edit.agent}] {edit.description}")
    existing = sum(1 for c in plan.changes if c.old is not None and c.new != c.old)
    if existing:
        lines.append(f"{existing} existing file(s) will be backed up first, into a new "
                     f"directory under {paths.backups_dir()}")
    return "\n".join(line for line in lines if line) + "\n"


def declined_prefix(change: Change) -> str:
    """Why a change is not made: it needs consent itself, or its agent waits for one."""
    if any(e.needs_consent for e in change.edits):
        return "needs consent (--auto-patch), not done: "
    return "not done, waits with its agent's settings change: "


def manual_instructions(declined: Sequence[Change]) -> str:
    """What to change by hand, for --no-patch (or a declined consent)."""
    out: list[str] = []
    for change in declined:
        out.append(f"To finish by hand, edit {change.path} [{_who(change)}] like this:")
        out.append(diff.unified_diff(change).rstrip("\n"))
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
    if not result.applied and not declined and not result.removed_dirs:
        what = "installed" if action == "install" else "removed"
        lines.append(f"Nothing to do: everything is already {what}.")
    lines.extend(f"warning: {w}" for w in result.warnings)
    return "".join(line + "\n" for line in lines)


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
        "backups": [] if applied is None else [
            {"path": p, "backup": b} for p, b in applied.backups
        ],
        "messages": list(messages),
        "exit_code": exit_code,
    }
    if applied is not None:
        document["written"] = [_change_json(c, False) for c in applied.applied]
        document["warnings"] = list(applied.warnings)
    return json.dumps(document, indent=2) + "\n"


def error_json(message: str, problems: Sequence[str], exit_code: int) -> str:
    return json.dumps(
        {"error": message, "problems": list(problems), "exit_code": exit_code}, indent=2
    ) + "\n"
