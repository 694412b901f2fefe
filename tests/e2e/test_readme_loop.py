"""The README followed to the letter on a fresh HOME, under a real pseudo-terminal: install
rtok (into a venv that is not on PATH, or with pipx), `rtok init` answered as a user would,
the `doctor` command of the "Next:" line, then the real agent runs a long command and the
`rtok expand ID` its trailer names, and gets git's raw bytes back."""

from __future__ import annotations

import pytest
from e2e.scheduler import Scheduler

pytestmark = pytest.mark.e2e

AGENTS = ["claude"]


@pytest.mark.parametrize("agent", AGENTS)
def test_readme_venv_install_reaches_rtok_expand(agent: str, e2e_runs: Scheduler) -> None:
    report = e2e_runs.report("readme_venv", agent)
    assert report.passed, report.summary()


@pytest.mark.parametrize("agent", AGENTS)
def test_readme_pipx_install_reaches_rtok_expand(agent: str, e2e_runs: Scheduler) -> None:
    report = e2e_runs.report("readme_pipx", agent)
    assert report.passed, report.summary()
