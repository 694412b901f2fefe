"""The `rtok` command on the user's PATH: a link in the user bin dir to the installed rtok.

Hooks and plugins name rtok by absolute path, and the hook renames a bare `rtok` in the
agent's commands to that path, so agents reach rtok without it. The link is for the user's
own shell (`rtok expand ID` from a trailer they copy, `rtok doctor`) and for hosts that
gate program paths outside the workspace (Copilot CLI accepts the bare name).

`rtok init` makes the link only when the shell finds no rtok on PATH and the user bin dir
is on PATH; otherwise it says exactly what to add. The link is recorded in the install
state as created by rtok, and `rtok uninstall` removes it with the last agent. Nothing
here replaces a file rtok did not make.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Mapping
from dataclasses import dataclass

from rtok import paths
from rtok.install import state
from rtok.install.diff import shown_path


@dataclass(frozen=True)
class LinkPlan:
    """What to do about the `rtok` command: `action` is "create", "replace" (a dangling
    link rtok made), "remove", or "" (nothing); `note` says why or what to do by hand."""

    action: str
    link: str
    target: str
    note: str = ""


def _on_path(directory: str, env: Mapping[str, str]) -> bool:
    real = os.path.realpath(directory)
    return any(os.path.realpath(p) == real for p in env.get("PATH", "").split(os.pathsep) if p)


def _points_at(link: str, target: str) -> bool:
    return os.path.islink(link) and os.path.realpath(link) == os.path.realpath(target)


def found_on_path(env: Mapping[str, str]) -> str | None:
    """The `rtok` the shell finds with this environment's PATH, or None."""
    return shutil.which("rtok", path=env.get("PATH", ""))


def plan_install(target: str, env: Mapping[str, str], home: str) -> LinkPlan:
    """Link `paths.command_link()` to `target` when the shell finds no rtok."""
    link = paths.command_link()
    found = found_on_path(env)
    if found is not None:
        return LinkPlan("", link, target)
    shown = shown_path(link, home)
    if not _on_path(os.path.dirname(link), env):
        return LinkPlan(
            "",
            link,
            target,
            note=(
                f"your shell finds no `rtok` command: agents reach rtok through their hooks "
                f"anyway, but to run it yourself add {shown_path(os.path.dirname(link), home)} to "
                f'PATH (e.g. `export PATH="$HOME/{_relative_to_home(os.path.dirname(link), home)}'
                f':$PATH"` in ~/.profile), then run `rtok init` again to put the link there; '
                f"until then it is {shown_path(target, home)}"
            ),
        )
    if os.path.islink(link) and not os.path.exists(link) and state.load().created(link):
        return LinkPlan("replace", link, target)
    if os.path.lexists(link):
        return LinkPlan(
            "",
            link,
            target,
            note=(
                f"{shown} exists but does not run (not executable, or a broken link rtok did "
                f"not make); rtok left it alone: remove or fix it, then run `rtok init` again"
            ),
        )
    return LinkPlan("create", link, target)


def plan_uninstall(target: str) -> LinkPlan:
    """Remove the link rtok made (only if it is still rtok's link)."""
    link = paths.command_link()
    if state.load().created(link) and os.path.islink(link):
        points = os.readlink(link)
        if _points_at(link, target) or os.path.basename(points) in ("rtok", "rtok.exe"):
            return LinkPlan("remove", link, target)
    return LinkPlan("", link, target)


def apply(plan: LinkPlan) -> None:
    """Carry out `plan`: the link replaces atomically (made under a temporary name)."""
    if plan.action in ("create", "replace"):
        directory = os.path.dirname(plan.link)
        os.makedirs(directory, exist_ok=True)
        temporary = os.path.join(directory, f".rtok-link.{os.getpid()}.tmp")
        if os.path.lexists(temporary):
            os.unlink(temporary)
        os.symlink(plan.target, temporary)
        os.replace(temporary, plan.link)
        state.update(add_files=[plan.link])
    elif plan.action == "remove":
        if os.path.islink(plan.link):
            os.unlink(plan.link)
        state.update(remove_files=[plan.link])


def describe(plan: LinkPlan, home: str) -> str:
    """One line for the plan's preview and the result."""
    link, target = shown_path(plan.link, home), shown_path(plan.target, home)
    return {
        "create": f"link {link} -> {target} (the `rtok` command on your PATH)",
        "replace": f"relink {link} -> {target} (its old target is gone)",
        "remove": f"remove the link {link} (rtok made it)",
    }.get(plan.action, "")


def _relative_to_home(path: str, home: str) -> str:
    rel = os.path.relpath(path, home)
    return path if rel.startswith("..") else rel
