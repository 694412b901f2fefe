"""`rtok init --show` and `rtok agents`: what each agent supports and where rtok is in it."""

from __future__ import annotations

import json as jsonlib
import os
from collections.abc import Mapping, Sequence

from rtok.install import context, fsio
from rtok.install.model import FileEdit, InstallContext
from rtok.install.options import InitOptions, UsageError
from rtok.install.proof import proof_facts
from rtok.install.report import shell_path, shown_path, shown_text
from rtok.install.specs import Descriptor


def _context(opts: InitOptions, scope: str) -> InstallContext:
    return context.build_context(
        opts, scope, consent=True, awareness=opts.awareness or context.configured_awareness()
    )


def _status(edit: FileEdit) -> str:
    """ "installed" when the install edit would change nothing, else "missing"."""
    try:
        current = fsio.read_target(os.path.realpath(edit.path))
        return "installed" if edit.transform(current) == current else "missing"
    except Exception as exc:
        return f"unreadable ({exc})"


def agent_rows(
    descriptors: Mapping[str, Descriptor],
    names: Sequence[str],
    opts: InitOptions,
    *,
    with_status: bool,
) -> list[dict[str, object]]:
    contexts = {scope: _context(opts, scope) for scope in ("global", "project")}
    in_project = _in_project(contexts["project"])
    rows: list[dict[str, object]] = []
    for name in names:
        descriptor = descriptors[name]
        scopes = list(getattr(descriptor, "scopes", ()) or ())
        # Outside a project (in HOME or above it) there is no project scope to report.
        visible = [scope for scope in scopes if in_project or scope != "project"]
        row: dict[str, object] = {
            "name": name,
            "display_name": getattr(descriptor, "display_name", name),
            "tier": getattr(descriptor, "tier", ""),
            "scopes": scopes,
            "proof": proof_facts(descriptor),
        }
        _add_install_state(row, descriptor, visible, contexts)
        _add_files(row, name, visible, contexts, with_status)
        rows.append(row)
    return rows


def _in_project(project: InstallContext) -> bool:
    try:
        context.check_project_root(project.project_root or "", project.home)
    except UsageError:
        return False
    return True


def _add_install_state(
    row: dict[str, object],
    descriptor: Descriptor,
    visible: list[str],
    contexts: Mapping[str, InstallContext],
) -> None:
    """`detected`, and the scopes rtok is `installed` in (`partial` where parts are
    missing); a failure to tell is the row's `error`."""
    mod = context.integrations()
    try:
        row["detected"] = bool(mod.detect(descriptor, contexts["global"]))
    except Exception as exc:
        row["detected"] = False
        row["error"] = str(exc)
    installed: list[str] = []
    partial: list[str] = []
    for scope in visible:
        try:
            if scope in mod.installed_scopes(descriptor, contexts[scope]):
                installed.append(scope)
                if mod.missing_parts(descriptor, scope, contexts[scope]):
                    partial.append(scope)
        except Exception as exc:
            row["error"] = str(exc)
    row["installed"] = installed
    row["partial"] = partial


def _add_files(
    row: dict[str, object],
    name: str,
    visible: list[str],
    contexts: Mapping[str, InstallContext],
    with_status: bool,
) -> None:
    """Per scope, the files an install touches (each once), with their status."""
    files: dict[str, list[object]] = {}
    for scope in visible:
        try:
            edits = context.integrations().edits_for(name, scope, "install", contexts[scope])
        except Exception as exc:
            row["error"] = str(exc)
            continue
        seen: dict[str, object] = {}
        for edit in edits:
            if with_status:
                seen.setdefault(
                    edit.path, {"path": edit.path, "kind": edit.kind, "status": _status(edit)}
                )
            else:
                seen.setdefault(edit.path, edit.path)
        files[scope] = list(seen.values())
    row["files"] = files


def fix_command(name: str, scope: str, project_root: str | None) -> str:
    """The command that completes (or repairs) rtok's install of `name` in `scope`."""
    if scope == "global":
        return f"rtok init -a {name} -g --auto-patch"
    return f"cd {shell_path(project_root or '.')} && rtok init -a {name} --project --auto-patch"


def _broken(row: Mapping[str, object], scope: str) -> list[str]:
    """The files of `scope` rtok cannot read or edit now (their status says why)."""
    files = row.get("files")
    entries = files.get(scope, []) if isinstance(files, dict) else []
    return [
        str(e["path"])
        for e in entries
        if isinstance(e, dict) and str(e.get("status", "")).startswith("unreadable")
    ]


def _strings(value: object) -> list[str]:
    return [str(v) for v in value] if isinstance(value, list) else []


def status_line(row: Mapping[str, object], project_root: str | None) -> str:
    """One line per agent: installed / partial / broken / absent, the scopes, the fix."""
    name = str(row["name"])
    installed = _strings(row.get("installed"))
    partial = _strings(row.get("partial"))
    if not installed:
        return f"{name:<12} absent"
    parts: list[str] = []
    fixes: list[str] = []
    worst = "installed"
    for scope in installed:
        broken = _broken(row, scope)
        if broken:
            worst = "broken"
            parts.append(f"{scope} (cannot read {', '.join(shown_path(p) for p in broken)})")
            fixes.append(
                f"correct {', '.join(shown_path(p) for p in broken)}, then "
                + fix_command(name, scope, project_root)
            )
        elif scope in partial:
            worst = "partial" if worst == "installed" else worst
            parts.append(f"{scope} (hook not in place)")
            fixes.append(fix_command(name, scope, project_root))
        else:
            parts.append(scope)
    line = f"{name:<12} {worst:<9} {', '.join(parts)}"
    return line + (f"  fix: {'; '.join(fixes)}" if fixes else "")


def render(
    descriptors: Mapping[str, Descriptor], names: Sequence[str], opts: InitOptions, *, json: bool
) -> str:
    rows = agent_rows(descriptors, names, opts, with_status=True)
    if json:
        return jsonlib.dumps(rows, indent=2) + "\n"
    root = context.find_project_root(opts.cwd)
    lines: list[str] = []
    for row in rows:
        lines.append(status_line(row, root))
        if opts.verbose:
            lines.extend(_file_lines(row))
    counts = {
        word: sum(1 for line in lines if line[13:].startswith(word))
        for word in ("installed", "partial", "broken")
    }
    done = ", ".join(f"{n} {word}" for word, n in counts.items() if n)
    lines.append(
        f"rtok: {done or 'not installed in any agent'} "
        f"(of {len(rows)} agent{'' if len(rows) == 1 else 's'})."
    )
    return "\n".join(lines) + "\n"


def _file_lines(row: Mapping[str, object]) -> list[str]:
    """--verbose: each file of each installed scope with its status, and the error."""
    lines: list[str] = []
    files = row["files"]
    assert isinstance(files, dict)
    installed = row["installed"]
    for scope in installed if isinstance(installed, list) else []:
        for entry in files.get(scope, []):
            lines.append(
                f"  {scope}: {shown_path(entry['path'])} ({entry['kind']}): "
                f"{shown_text(str(entry['status']))}"
            )
    if row.get("error"):
        lines.append(f"  error: {shown_text(str(row['error']))}")
    return lines
