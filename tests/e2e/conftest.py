"""Fixtures of the real-agent tier: installed agents, a git history template, run folders,
and a scheduler that runs the selected agent sessions two at a time.

The e2e package lives in scripts/e2e/. It is imported here, at collection time, so that
it reads RTOK_E2E_CACHE and HOME before tests/conftest.py replaces HOME and scrubs RTOK_*
for each test.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

SCRIPTS = Path(__file__).resolve().parents[2] / "scripts"
if str(SCRIPTS) not in sys.path:
    sys.path.insert(0, str(SCRIPTS))

from e2e import gitrepo, pins  # noqa: E402
from e2e.driver import new_work_root  # noqa: E402
from e2e.install import InstallReport, install_all  # noqa: E402
from e2e.procs import become_subreaper  # noqa: E402
from e2e.scheduler import Job, Scheduler  # noqa: E402

# Agent sessions run at most this many at a time (the machine has 2 cores).
JOBS = max(1, int(os.environ.get("RTOK_E2E_JOBS", "2")))

# Test function -> the kind of run it asserts on.
KINDS = {
    "test_control_run_reaches_the_fake_model": "control",
    "test_install_rewrite_uninstall_round_trip": "global",
    "test_project_scope_round_trip": "project",
    "test_host_denied_push_stays_denied": "deny",
    "test_rtok_gone_never_blocks_an_agent": "fail_open",
    "test_readme_venv_install_reaches_rtok_expand": "readme_venv",
    "test_readme_pipx_install_reaches_rtok_expand": "readme_pipx",
    "test_plugin_rewrites_only_for_a_local_backend": "backend",
}

_selected: list[Job] = []


def pytest_collection_finish(session: pytest.Session) -> None:
    """Remember which agent runs the session will assert on (after -k, -m and skips)."""
    _selected.clear()
    for item in session.items:
        kind = KINDS.get(getattr(item, "originalname", ""))
        callspec = getattr(item, "callspec", None)
        if kind is None or callspec is None or item.get_closest_marker("skip"):
            continue
        _selected.append((kind, callspec.params["agent"]))


@pytest.fixture(scope="session")
def installed_agents() -> dict[str, InstallReport]:
    """The pinned CLIs (and runtimes) of the selected tests' agents, installed into the e2e
    cache once per session; `-k claude` on a cold cache installs Claude Code only."""
    become_subreaper()
    agents = [a for a in pins.AGENTS if any(agent == a for _, agent in _selected)]
    return install_all(agents or list(pins.AGENTS), workers=3)


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


@pytest.fixture(scope="session")
def e2e_runs(
    installed_agents: dict[str, InstallReport], e2e_work_root: str, git_template: str
) -> Iterator[Scheduler]:
    scheduler = Scheduler(installed_agents, e2e_work_root, git_template, JOBS)
    for job in _selected:
        scheduler.submit(job)
    yield scheduler
    scheduler.close()
