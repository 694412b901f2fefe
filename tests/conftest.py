"""Shared fixtures. Every test runs with a temporary HOME and XDG dirs (autouse)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from rtok_testing import coverage_floor
from rtok_testing.isolation import SCRUBBED, SCRUBBED_PREFIXES


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--skip-e2e",
        action="store_true",
        default=False,
        help="skip the real-agent end-to-end tier (tests marked e2e)",
    )
    coverage_floor.add_options(parser)


def pytest_configure(config: pytest.Config) -> None:
    # First, before any test module imports rtok: the floor's measure starts here.
    coverage_floor.register(config)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if not config.getoption("--skip-e2e"):
        return
    skip = pytest.mark.skip(reason="--skip-e2e given")
    for item in items:
        if item.get_closest_marker("e2e") is not None:
            item.add_marker(skip)


@pytest.fixture(autouse=True)
def isolated_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A fresh HOME with XDG dirs below it; agent relocation variables cleared."""
    home = tmp_path / "home"
    home.mkdir()
    for name in list(os.environ):
        if name in SCRUBBED or name.startswith(SCRUBBED_PREFIXES):
            monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(home / ".local" / "share"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(home / ".cache"))
    monkeypatch.setenv("XDG_STATE_HOME", str(home / ".local" / "state"))
    # Keep git from reading the real user's config in tests that run git.
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(home / ".gitconfig"))
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    # CI detection changes trust behaviour; tests that need it set it themselves.
    for name in ("CI", "GITHUB_ACTIONS", "GITLAB_CI", "JENKINS_URL", "BUILDKITE"):
        monkeypatch.delenv(name, raising=False)
    yield home
