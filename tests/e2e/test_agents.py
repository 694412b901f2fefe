"""Every agent, run for real against the fake model: a plain control run, then
rtok init -> rewritten `git log` -> rtok uninstall -> raw `git log`, in the user scope
(`--global`) and, where the agent has one, in the project scope."""

from __future__ import annotations

import pytest
from e2e.agents import PROFILES
from e2e.agents_table import agent_scopes
from e2e.driver import control_run, round_trip
from e2e.install import InstallReport, install_problems

AGENTS = list(PROFILES)
PROJECT_AGENTS = [a for a in AGENTS if "project" in agent_scopes(a)]

pytestmark = pytest.mark.e2e


@pytest.mark.parametrize("agent", AGENTS)
def test_control_run_reaches_the_fake_model(
    agent: str, installed_agents: dict[str, InstallReport], e2e_work_root: str,
    git_template: str,
) -> None:
    problems = install_problems(installed_agents, agent)
    assert not problems, f"install failed: {problems}"
    report = control_run(agent, e2e_work_root, git_template)
    assert report.passed, report.summary()


@pytest.mark.parametrize("agent", AGENTS)
def test_install_rewrite_uninstall_round_trip(
    agent: str, installed_agents: dict[str, InstallReport], e2e_work_root: str,
    git_template: str,
) -> None:
    problems = install_problems(installed_agents, agent)
    assert not problems, f"install failed: {problems}"
    report = round_trip(agent, e2e_work_root, git_template)
    assert report.passed, report.summary()


@pytest.mark.parametrize("agent", PROJECT_AGENTS)
def test_project_scope_round_trip(
    agent: str, installed_agents: dict[str, InstallReport], e2e_work_root: str,
    git_template: str,
) -> None:
    problems = install_problems(installed_agents, agent)
    assert not problems, f"install failed: {problems}"
    report = round_trip(agent, e2e_work_root, git_template, scope="project")
    assert report.passed, report.summary()
