"""What every installer verb starts from: the integrations it acts through, the rtok path
hooks are registered with, the project, the awareness level, and the `InstallContext`
built from them.

Below the verbs (runner, show, leftovers, the CLI), which all read these and none of which
another imports for them.
"""

from __future__ import annotations

import os
import shutil
import sys

from rtok import config, paths, trust
from rtok._fast import launcher
from rtok.install import first_run, state
from rtok.install import integrations as shipped_integrations
from rtok.install.integration_api import Integrations
from rtok.install.model import AWARENESS_LEVELS, InstallContext
from rtok.install.options import InitOptions, UsageError
from rtok.invocation import console_script

# The integrations the verbs call (mypy checks the module against the interface); the
# installer's tests put a one-agent module with the same functions here.
ACTIVE_INTEGRATIONS: Integrations = shipped_integrations


def integrations() -> Integrations:
    return ACTIVE_INTEGRATIONS


def resolve_rtok_bin() -> str:
    """The rtok path hooks and plugins are registered with: the launcher in rtok's data
    dir (rtok/_fast/launcher.py), the console script where there is no launcher (Windows).
    RTOK_BIN overrides both."""
    override = os.environ.get("RTOK_BIN")
    if override:
        return os.path.abspath(override)
    if launcher.supported():
        return paths.launcher()
    return entry_point_bin()


def entry_point_bin() -> str:
    """Absolute path of the running `rtok` console script."""
    found = console_script() or shutil.which("rtok")
    return (
        os.path.abspath(found) if found else os.path.join(os.path.dirname(sys.executable), "rtok")
    )


def find_project_root(cwd: str) -> str:
    return trust.project_root(cwd) or os.path.abspath(cwd)


def configured_awareness() -> str:
    try:
        table = config.load().get("awareness", {})
        level = table.get("level", "default") if isinstance(table, dict) else "default"
    except Exception:  # an unreadable config.toml: `rtok config` reports it
        return "default"
    return level if level in AWARENESS_LEVELS else "default"


def _created_by_rtok(path: str) -> bool:
    return state.load().created(path)


def build_context(
    opts: InitOptions, scope: str, *, consent: bool, awareness: str
) -> InstallContext:
    home = os.environ.get("HOME") or os.path.expanduser("~")
    return InstallContext(
        home=home,
        env=dict(os.environ),
        project_root=None if scope == "global" else find_project_root(opts.cwd),
        rtok_bin=resolve_rtok_bin(),
        awareness_level=awareness,
        hook_only=opts.hook_only,
        auto_patch=consent,
        created_by_rtok=_created_by_rtok,
    )


def check_project_root(root: str, home: str) -> None:
    """A project install is refused where it is no project of the user's: in the home
    directory or above it (the files of a global install under project ownership) and in
    rtok's own source checkout (the README's first command runs there)."""
    problem = first_run.project_problem(root, home)
    if problem is not None:
        raise UsageError(
            f"{problem}, not a project of yours: leave out --project to install for your "
            "user account, or run rtok from inside your project"
        )
