"""A one-agent integration module with the same API as rtok.install.integrations, built
from the engine's test edits, so the runner can be driven without any real agent."""

from __future__ import annotations

import os

from install_engine_edits import settings_edit, whole_file_edit

from rtok.install.descriptor import parse
from rtok.install.model import Action, FileEdit, InstallContext
from rtok.install.specs import Descriptor

# A real descriptor (its files are not used: edits_for below builds the edits itself).
TEST_DESCRIPTOR = parse(
    {
        "name": "test",
        "display_name": "Test Agent",
        "tier": "hook",
        "proof": {"kind": "contract", "docs": ["tests/install/install_engine_edits.py"]},
        "hook": {
            "permissions": "none",
            "payloads": [
                {
                    "tool": "tool_name",
                    "tools": ["Bash"],
                    "input": "tool_input",
                    "command": ["command"],
                    "replies": {},
                }
            ],
            "sample": {
                "shell": '{"tool_name": "Bash", "tool_input": {"command": "${command}"}}',
                "other": '{"tool_name": "Read"}',
            },
        },
        "install": {
            "global": [{"strategy": "awareness_file", "path": "~/.testagent/RTOK.md"}],
            "project": [{"strategy": "awareness_file", "path": ".testagent/RTOK.md"}],
        },
    },
    "test integration",
)


def _root(scope: str, ctx: InstallContext) -> str:
    if scope == "global":
        return os.path.join(ctx.home, ".testagent")
    assert ctx.project_root is not None
    return os.path.join(ctx.project_root, ".testagent")


def load_descriptors() -> dict[str, Descriptor]:
    return {"test": TEST_DESCRIPTOR}


def detect(descriptor: Descriptor, ctx: InstallContext) -> bool:
    return os.path.isdir(os.path.join(ctx.home, ".testagent"))


def installed_scopes(descriptor: Descriptor, ctx: InstallContext) -> list[str]:
    scopes = []
    for scope in descriptor.scopes:
        if scope == "project" and ctx.project_root is None:
            continue
        if os.path.exists(os.path.join(_root(scope, ctx), "RTOK.md")):
            scopes.append(scope)
    return scopes


def edits_for(agent: str, scope: str, action: Action, ctx: InstallContext) -> list[FileEdit]:
    root = _root(scope, ctx)
    settings = settings_edit(
        os.path.join(root, "settings.json"),
        action,
        scope=scope,
        created_by_rtok=ctx.created_by_rtok,
        needs_consent=True,
    )
    awareness = whole_file_edit(os.path.join(root, "RTOK.md"), action, scope=scope)
    if action == "uninstall":
        body = awareness.transform

        def kept(current: bytes | None) -> str | None:
            if current is not None and body(current) is not None:
                return "modified since rtok wrote it"
            return None

        from dataclasses import replace

        awareness = replace(awareness, kept_note=kept)
    return [settings, awareness]


def awareness_notes(agents: list[str], scope: str, ctx: InstallContext) -> list[str]:
    """The test agent has a hook in every scope, so its awareness level is never forced."""
    return []


def missing_parts(descriptor: Descriptor, scope: str, ctx: InstallContext) -> list[FileEdit]:
    return []
