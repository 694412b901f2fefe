"""Every agent, run for real against the fake model: a plain control run, then
rtok init -> rewritten `git log` -> rtok uninstall -> raw `git log`, in the user scope
(`--global`) and, where rtok installs a hook or plugin there, in the project scope.

The runs themselves are scheduled by the `e2e_runs` fixture (two at a time); each test
asserts on its own run's report.
"""

from __future__ import annotations

import pytest
from e2e.agents import PROFILES
from e2e.descriptors import agent_scopes
from e2e.driver import PERMISSION_CONFIGS
from e2e.scheduler import Scheduler

AGENTS = list(PROFILES)
PROJECT_AGENTS = [a for a in AGENTS if "project" in agent_scopes(a)]
# Hosts that check their own permission.bash rules on the command the plugin hands back.
RULE_HOSTS = [a for a in AGENTS if a in PERMISSION_CONFIGS]

pytestmark = pytest.mark.e2e


@pytest.mark.parametrize("agent", AGENTS)
def test_control_run_reaches_the_fake_model(agent: str, e2e_runs: Scheduler) -> None:
    report = e2e_runs.report("control", agent)
    assert report.passed, report.summary()


@pytest.mark.parametrize("agent", AGENTS)
def test_install_rewrite_uninstall_round_trip(agent: str, e2e_runs: Scheduler) -> None:
    report = e2e_runs.report("global", agent)
    assert report.passed, report.summary()


@pytest.mark.parametrize("agent", PROJECT_AGENTS)
def test_project_scope_round_trip(agent: str, e2e_runs: Scheduler) -> None:
    report = e2e_runs.report("project", agent)
    assert report.passed, report.summary()


@pytest.mark.parametrize("agent", RULE_HOSTS)
def test_host_denied_push_stays_denied(agent: str, e2e_runs: Scheduler) -> None:
    report = e2e_runs.report("deny", agent)
    assert report.passed, report.summary()


# Hosts that load another agent's hook files (Copilot CLI reads a repository's
# .claude/settings*.json) and deny the tool call when a hook fails.
FAIL_OPEN_AGENTS = [a for a in ("copilot",) if a in AGENTS]


@pytest.mark.parametrize("agent", FAIL_OPEN_AGENTS)
def test_rtok_gone_never_blocks_an_agent(agent: str, e2e_runs: Scheduler) -> None:
    report = e2e_runs.report("fail_open", agent)
    assert report.passed, report.summary()


# Hosts whose shell tool may run commands elsewhere (Hermes' terminal.backend: docker, ssh,
# modal, ...), where rtok's path does not exist: the plugin rewrites only for the local one.
BACKEND_AGENTS = [a for a in ("hermes",) if a in AGENTS]


@pytest.mark.parametrize("agent", BACKEND_AGENTS)
def test_plugin_rewrites_only_for_a_local_backend(agent: str, e2e_runs: Scheduler) -> None:
    report = e2e_runs.report("backend", agent)
    assert report.passed, report.summary()
