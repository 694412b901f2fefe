"""`rtok init --show` and `rtok agents`: what each agent supports and where rtok is in it."""

from __future__ import annotations

import json as jsonlib
import os
from collections.abc import Mapping, Sequence

from rtok.install import fsio
from rtok.install.descriptor import Descriptor
from rtok.install.model import FileEdit, InstallContext
from rtok.install.options import InitOptions, UsageError
from rtok.install.proof import proof_facts


def _context(opts: InitOptions, scope: str) -> InstallContext:
    from rtok.install import runner

    return runner.build_context(opts, scope, consent=True,
                                awareness=opts.awareness or runner.configured_awareness())


def _status(edit: FileEdit) -> str:
    """"installed" when the install edit would change nothing, else "missing"."""
    try:
        current = fsio.read_or_none(os.path.realpath(edit.path))
        return "installed" if edit.transform(current) == current else "missing"
    except Exception as exc:
        return f"unreadable ({exc})"


def agent_rows(
    descriptors: Mapping[str, Descriptor], names: Sequence[str], opts: InitOptions, *,
    with_status: bool,
) -> list[dict[str, object]]:
    from rtok.install import runner

    mod = runner.integrations()
    contexts = {scope: _context(opts, scope) for scope in ("global", "project")}
    # Outside a project (in HOME or above it) there is no project scope to report.
    in_project = True
    try:
        project = contexts["project"]
        runner.check_project_root(project.project_root or "", project.home)
    except UsageError:
        in_project = False
    rows: list[dict[str, object]] = []
    for name in names:
        descriptor = descriptors[name]
        scopes = list(getattr(descriptor, "scopes", ()) or ())
        visible = [scope for scope in scopes if in_project or scope != "project"]
        row: dict[str, object] = {
            "name": name,
            "display_name": getattr(descriptor, "display_name", name),
            "tier": getattr(descriptor, "tier", ""),
            "scopes": scopes,
            "proof": proof_facts(descriptor),
        }
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
        files: dict[str, list[object]] = {}
        for scope in visible:
            try:
                edits = mod.edits_for(name, scope, "install", contexts[scope])
            except Exception as exc:
                row["error"] = str(exc)
                continue
            seen: dict[str, object] = {}
            for edit in edits:
                if with_status:
                    seen.setdefault(edit.path, {"path": edit.path, "kind": edit.kind,
                                                "status": _status(edit)})
                else:
                    seen.setdefault(edit.path, edit.path)
            files[scope] = list(seen.values())
        row["files"] = files
        rows.append(row)
    return rows


def render(descriptors: Mapping[str, Descriptor], names: Sequence[str], opts: InitOptions, *,
           json: bool) -> str:
    rows = agent_rows(descriptors, names, opts, with_status=True)
    if json:
        return jsonlib.dumps(rows, indent=2) + "\n"
    lines: list[str] = []
    for row in rows:
        installed = row["installed"]
        if not installed and not opts.verbose:
            continue
        where = ", ".join(installed) if isinstance(installed, list) and installed else "none"
        lines.append(f"{row['display_name']} ({row['name']}): installed {where}")
        files = row["files"]
        assert isinstance(files, dict)
        for scope in installed if isinstance(installed, list) else []:
            for entry in files.get(scope, []):
                lines.append(f"  {scope}: {entry['path']} ({entry['kind']}): {entry['status']}")
        if row.get("error"):
            lines.append(f"  error: {row['error']}")
    if not lines:
        lines.append("rtok is not installed in any agent (for this project and globally).")
    return "\n".join(lines) + "\n"
