"""What the installer says about one agent, for verify and doctor (read-only).

The installer's integrations turn a descriptor into `FileEdit`s; verify uses their
`owned_bytes` to find rtok's bytes in a file as it is now, and their `transform` to tell
whether rtok's install is present in a file that has no record. Nothing here writes.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from functools import lru_cache

from rtok import paths
from rtok.install import integrations
from rtok.install.context import resolve_rtok_bin
from rtok.install.model import FileEdit, InstallContext
from rtok.install.specs import Descriptor

WHOLE_FILE_KINDS = frozenset({"whole_file", "awareness_file"})


@lru_cache(maxsize=1)
def descriptors() -> Mapping[str, Descriptor]:
    from rtok.install.descriptor import load_all

    return load_all()


def trusts_hooks(agent: str, scope: str) -> bool:
    """The agent's hooks run only once its config trusts them (a `codex_trust` entry)."""
    return bool(trust_config(agent, scope))


def trust_config(agent: str, scope: str) -> str:
    """The config file that holds the agent's hook trust in `scope` (the path of its
    `codex_trust` entry, expanded), or "" when its hooks need no trust."""
    descriptor = descriptors().get(agent)
    specs = descriptor.files.get(scope, ()) if descriptor is not None else ()
    for spec in specs:
        if spec.strategy == "codex_trust":
            return paths.expand_user_path(spec.path)
    return ""


def rtok_bin() -> str:
    return resolve_rtok_bin()


def context(scope: str, project_root: str | None) -> InstallContext:
    from rtok.install import state

    def created(path: str) -> bool:
        try:
            return state.load().created(path)
        except Exception:
            return False

    home = os.environ.get("HOME") or os.path.expanduser("~")
    return InstallContext(
        home=home,
        env=dict(os.environ),
        project_root=project_root if scope == "project" else None,
        rtok_bin=rtok_bin(),
        awareness_level="default",
        hook_only=False,
        auto_patch=True,
        created_by_rtok=created,
    )


def install_edits(agent: str, scope: str, project_root: str | None) -> list[FileEdit]:
    """The edits `rtok init` would plan for this agent and scope (never applied here)."""
    edits: list[FileEdit] = integrations.edits_for(
        agent, scope, "install", context(scope, project_root)
    )
    return edits


def missing_parts(descriptor: Descriptor, scope: str, project_root: str | None) -> list[FileEdit]:
    """Hook, plugin and trust edits of this install that are not in place."""
    parts: list[FileEdit] = integrations.missing_parts(
        descriptor, scope, context(scope, project_root)
    )
    return parts


def tier_of(agent: str) -> str:
    descriptor = descriptors().get(agent)
    return descriptor.tier if descriptor is not None else ""


def scopes_of(agent: str) -> tuple[str, ...]:
    descriptor = descriptors().get(agent)
    return descriptor.scopes if descriptor is not None else ()


def same_path(a: str, b: str) -> bool:
    return os.path.abspath(a) == os.path.abspath(b) or os.path.realpath(a) == os.path.realpath(b)
