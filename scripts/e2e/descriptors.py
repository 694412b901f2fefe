"""What the e2e tier reads from rtok's agent descriptors (integrations/*.toml)."""

from __future__ import annotations

import glob
import os
import tomllib
from typing import Any

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def load_integrations(repo: str = REPO) -> list[dict[str, Any]]:
    found = []
    for path in sorted(glob.glob(os.path.join(repo, "integrations", "*.toml"))):
        with open(path, "rb") as handle:
            data = tomllib.load(handle)
        if isinstance(data.get("name"), str):
            found.append(data)
    return found


# Strategies that only write instructions for the model; a scope made of these alone
# installs no hook or plugin, so nothing in it can rewrite a command.
AWARENESS_STRATEGIES = frozenset(
    {"awareness_file", "awareness_block", "reference_line", "rules_dir_or_file"}
)


def agent_scopes(agent: str, repo: str = REPO) -> list[str]:
    """The install scopes ("global", "project") in which rtok installs a hook or plugin."""
    for item in load_integrations(repo):
        if item["name"] == agent:
            install = item.get("install") or {}
            return [
                scope
                for scope in ("global", "project")
                if any(
                    entry.get("strategy") not in AWARENESS_STRATEGIES
                    for entry in install.get(scope) or []
                )
            ]
    return []


def agent_tier(agent: str, repo: str = REPO) -> str:
    """ "hook" (the agent runs `rtok hook`), "plugin" (its plugin runs `rtok rewrite`), …"""
    for item in load_integrations(repo):
        if item["name"] == agent:
            return str(item.get("tier", ""))
    return ""
