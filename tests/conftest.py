"""Shared fixtures. Every test runs with a temporary HOME and XDG dirs (autouse)."""

from __future__ import annotations

import os
import re
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest

INTEGRATIONS = Path(__file__).resolve().parents[1] / "integrations"
# `${VAR` or `${VAR:-default}` in a descriptor's path.
_PATH_VARIABLE = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)")


def descriptor_env_overrides(folder: Path = INTEGRATIONS) -> frozenset[str]:
    """Every variable an agent descriptor says relocates the agent's files: its
    `relocation_env` and each `${VAR}` its paths expand."""
    names: set[str] = set()
    for path in sorted(folder.glob("*.toml")):
        with open(path, "rb") as handle:
            install = tomllib.load(handle).get("install") or {}
        names.update(install.get("relocation_env") or [])
        names.update(_PATH_VARIABLE.findall(path.read_text(encoding="utf-8")))
    return frozenset(names)


# Variables that would point rtok or an agent at a real location, or change rtok's behaviour:
# the descriptors' overrides, plus agents' config variables rtok does not read itself.
_SCRUBBED_PREFIXES = ("RTOK_",)
_SCRUBBED = descriptor_env_overrides() | {
    "OPENCODE_CONFIG", "OPENCODE_CONFIG_DIR", "KILO_CONFIG", "QWEN_HOME",
    "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME",
}


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--skip-e2e", action="store_true", default=False,
        help="skip the real-agent end-to-end tier (tests marked e2e)",
    )


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
        if name in _SCRUBBED or name.startswith(_SCRUBBED_PREFIXES):
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
