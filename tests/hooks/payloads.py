"""Hook payloads in the shapes the agents send: the descriptors' `[hook.sample]` tables
(tests/rtok_testing/samples.py)."""

from __future__ import annotations

from typing import Any

from rtok_testing.samples import foreign_payload, hook_agents, shell_payload

__all__ = ["HOOK_AGENTS", "foreign_payload", "grok_payload", "shell_payload"]


def grok_payload(command: str, cwd: str) -> dict[str, Any]:
    """Grok Build's camelCase PreToolUse payload; Grok sends the same one to the hooks it
    loads from Claude's settings and Cursor's hooks.json."""
    return shell_payload("grok", command, cwd)


# Every agent whose descriptor registers `rtok hook` (each has a sample: the validator
# requires one).
HOOK_AGENTS = hook_agents()
