"""Hook payloads as the agents send them: each descriptor's `[hook.sample]`, filled in.

Tests take their agent lists and payloads from here, so a new hook-tier agent is covered by
its descriptor alone (the validator requires the sample and checks it against the agent's
payload shapes).
"""

from __future__ import annotations

from typing import Any

from rtok.hooks.descriptors import HookSample, fill_sample
from rtok.install import integrations


def hook_agents() -> tuple[str, ...]:
    """Every agent whose descriptor registers `rtok hook`, sorted."""
    return tuple(
        sorted(
            name for name, item in integrations.load_descriptors().items() if item.tier == "hook"
        )
    )


def _sample(agent: str) -> HookSample:
    sample = integrations.get_descriptor(agent).hook_sample
    assert sample is not None, f"{agent}: a hook-tier descriptor has a [hook.sample]"
    return sample


def shell_payload(agent: str, command: str, cwd: str) -> dict[str, Any]:
    """The payload `agent` sends before running `command` in its shell tool."""
    return dict(fill_sample(_sample(agent), command, cwd))


def foreign_payload(agent: str, cwd: str) -> dict[str, Any]:
    """A call of a tool that is not the shell (a file read), in the agent's shape."""
    return dict(fill_sample(_sample(agent), "git status", cwd, other=True))
