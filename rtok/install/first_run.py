"""The choices `rtok init` offers on a terminal: which scopes, and for which agents.

A project install is offered only for a directory that is a project of the user's: not
the home directory or above it (that would be a global install under another name), and
not rtok's own source checkout (where the README's first command is typically run). An
uninstall offers only the scopes rtok is installed in. The prompts themselves live in the
CLI; this module decides what they may offer.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import rtok
from rtok.install.model import Action
from rtok.install.specs import Descriptor

SCOPE_TITLES = {
    "global": "global: for your user account",
    "project": "project: {root}",
}


class Cancelled(Exception):
    """The user stopped a prompt (Ctrl-C); nothing was written."""


def is_rtok_checkout(root: str) -> bool:
    """Is `root` the source tree of rtok itself (this one, or another clone)?"""
    real = os.path.realpath(root)
    package_parent = os.path.dirname(os.path.dirname(os.path.realpath(rtok.__file__)))
    if real == package_parent:
        return True
    return all(
        os.path.isfile(os.path.join(real, *parts))
        for parts in (("rtok", "__init__.py"), ("integrations", "claude.toml"), ("pyproject.toml",))
    )


def project_problem(root: str, home: str) -> str | None:
    """Why `root` is not offered as a project, or None."""
    real_root, real_home = os.path.realpath(root), os.path.realpath(home)
    if real_root == real_home or real_home.startswith(real_root.rstrip(os.sep) + os.sep):
        return f"{root} is your home directory or above it"
    if is_rtok_checkout(root):
        return f"{root} is rtok's own source tree"
    return None


@dataclass(frozen=True)
class ScopeOffer:
    scopes: tuple[str, ...]  # in the order shown; the first is the default
    notes: tuple[str, ...] = ()  # why a scope is not offered


def offer_for_install(
    agents: Sequence[str], descriptors: Mapping[str, Descriptor], root: str, home: str
) -> ScopeOffer:
    """Global first (the default); project when `root` is a project and one of the
    agents has a project install."""
    scopes = ["global"] if any("global" in descriptors[a].scopes for a in agents) else []
    notes: list[str] = []
    if any("project" in descriptors[a].scopes for a in agents):
        problem = project_problem(root, home)
        if problem is None:
            scopes.append("project")
        else:
            notes.append(f"project scope not offered: {problem}")
    return ScopeOffer(tuple(scopes), tuple(notes))


def offer_for_uninstall(installed: dict[str, list[str]]) -> ScopeOffer:
    """The scopes where one of the chosen agents has rtok installed (`installed`: agent ->
    its installed scopes)."""
    scopes = [s for s in ("global", "project") if any(s in v for v in installed.values())]
    return ScopeOffer(tuple(scopes))


def split_by_scope(
    agents: Sequence[str], descriptors: Mapping[str, Descriptor], scope: str
) -> tuple[list[str], list[str]]:
    """(agents that have an install in `scope`, the others: listed and skipped)."""
    supported = [a for a in agents if scope in descriptors[a].scopes]
    return supported, [a for a in agents if a not in supported]


def skipped_note(skipped: Sequence[str], descriptors: Mapping[str, Descriptor], scope: str) -> str:
    names = ", ".join(descriptors[a].display_name for a in skipped)
    return f"skipped, no {scope} install: {names}"


def next_steps(
    agents: Sequence[str],
    descriptors: Mapping[str, Descriptor],
    action: Action,
    rtok_command: str = "rtok",
) -> str:
    """What to do after applying: the agents read their settings when they start.
    `rtok_command` is how this user's shell runs rtok (a path where PATH has none)."""
    known = [descriptors[a] for a in agents if a in descriptors]
    names = ", ".join(d.display_name for d in known)
    if action == "uninstall":
        return f"Next: restart {names} so they stop calling rtok."
    # A rules-only agent has no hook to load or check: it reads rtok's text in new sessions.
    hooked = [d.display_name for d in known if d.tier != "rules"]
    readers = ", ".join(d.display_name for d in known if d.tier == "rules")
    lines = []
    if hooked:
        they = "they load" if len(hooked) > 1 else "it loads"
        lines.append(
            f"Next: restart {', '.join(hooked)} so {they} rtok, then run "
            f"`{rtok_command} doctor` to check that each hook answers as its agent "
            "expects."
        )
    if readers:
        lines.append(
            f"{'Also' if hooked else 'Next'}: rtok's rules apply in {readers} from "
            "the next new session (no hook there: nothing for doctor to run)."
        )
    return "\n".join(lines)
