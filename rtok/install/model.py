"""Records shared by the installer's planner (engine) and the per-agent integrations.

The integrations turn a descriptor into `FileEdit`s; the engine plans, previews and applies
them. Change these types only by adding optional fields: both sides code against them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Literal, get_args

# What a run does: `rtok init` installs, `rtok uninstall` removes.
Action = Literal["install", "uninstall"]

# Kinds of edit an integration can ask for; the integrity records use the same words.
EditKind = Literal[
    "whole_file",
    "settings_entry",
    "awareness_file",
    "awareness_block",
    "reference_line",
    "trust_entry",
]
EDIT_KINDS: tuple[EditKind, ...] = get_args(EditKind)

SCOPES: tuple[str, ...] = ("global", "project")
AWARENESS_LEVELS: tuple[str, ...] = ("default", "high", "full")


def _never_created(path: str) -> bool:
    return False


@dataclass(frozen=True)
class InstallContext:
    """Everything an integration needs to compute its edits, and nothing it can write to."""

    home: str  # HOME to resolve ~ against
    env: Mapping[str, str]  # environment that expands ${VAR:-default} path templates
    project_root: str | None  # the cwd's project for project scope, None for global
    rtok_bin: str  # absolute path of the installed `rtok` entry point
    awareness_level: str = "default"  # "default" | "high" | "full"
    hook_only: bool = False  # --hook-only: skip awareness files
    auto_patch: bool = False  # consent to edit shared settings files / write trust entries
    # Did rtok create this path (file or directory)? Answered from the installer's state.
    created_by_rtok: Callable[[str], bool] = field(default=_never_created)


@dataclass(frozen=True)
class FileEdit:
    """One file an integration wants changed, as a pure function of its current bytes."""

    path: str  # absolute, after expansion (may be a symlink; the link is kept)
    agent: str
    scope: str  # "global" | "project"
    kind: EditKind
    # current bytes (None = absent) -> desired bytes (None = delete the file). Idempotent:
    # applying it to its own output changes nothing. Raises rtok.formats' error for a file
    # that does not parse.
    transform: Callable[[bytes | None], bytes | None]
    mode: int | None = None  # mode for a file rtok creates (0o755 for a hook script)
    needs_consent: bool = False  # a shared settings file or a trust entry in an agent config
    # rtok's own bytes inside the resulting file (what the integrity records hash)
    owned_bytes: Callable[[bytes | None], bytes | None] | None = None
    description: str = ""  # one line for humans: "add PreToolUse hook (Bash)"
    # Uninstall only: current bytes -> why rtok leaves its own bytes in place (a whole file
    # rtok wrote that the user has since modified), or None. A non-None answer is reported
    # and makes `rtok uninstall` exit with status 3; the transform keeps the file.
    kept_note: Callable[[bytes | None], str | None] | None = None
    # What the host's parser accepts in this file (rtok.formats.dialects), "" when rtok owns
    # the file whole; `host` names the host in messages ("Claude Code").
    dialect: str = ""
    host: str = ""
    # Absolute globs of files the host writes beside this one (bytecode of a plugin):
    # removed together with the file when rtok deletes it.
    host_files: tuple[str, ...] = ()
    # Uninstall only: current bytes -> what the removal does beyond rtok's exact bytes
    # (an entry of rtok's that the user edited), reported to the user, or None.
    removal_note: Callable[[bytes | None], str | None] | None = None
