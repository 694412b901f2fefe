"""Fixtures of the real-agent tier: installed agents, a git history template, run folders.

The e2e package lives in scripts/e2e/. It is imported here, at collection time, so that
it reads RTOK_E2E_CACHE and HOME before tests/conftest.py replaces HOME and scrubs RTOK_*
for each test.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

SCRIPTS = Path(__file__).resolve().parents[2] / "scripts"
if str(SCRIPTS) not in sys.path:
    sys.path.insert(0, str(SCRIPTS))

from e2e import gitrepo, pins  # noqa: E402
from e2e.driver import new_work_root  # noqa: E402
from e2e.install import InstallReport, install_all  # noqa: E402
from e2e.procs import become_subreaper  # noqa: E402


@pytest.fixture(scope="session")
def installed_agents() -> dict[str, InstallReport]:
    """Every pinned agent CLI and runtime, installed into the e2e cache once per session."""
    become_subreaper()
    return install_all(list(pins.AGENTS), workers=3)


@pytest.fixture(scope="session")
def e2e_work_root() -> str:
    """This session's run folders, under the checkout's git-ignored e2e-artifacts/runs/
    (a failing run keeps its HOME, request log and agent output there)."""
    return new_work_root()


@pytest.fixture(scope="session")
def git_template(e2e_work_root: str) -> str:
    home = os.path.join(e2e_work_root, "template-home")
    os.makedirs(home, exist_ok=True)
    return gitrepo.make_template(os.path.join(e2e_work_root, "template-repo"), home)
