"""Generated payloads: the hook answers every one of them with valid output, never raises."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rtok.compiled.hook_protocols import PROTOCOLS
from rtok.hooks.main import respond

from .payloads import HOOK_AGENTS, shell_payload

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=12,
)
COMMANDS = st.text(
    alphabet=st.sampled_from(list("git status ls -la|&;$()`'\"\\\n<>*{}=ab~#")), max_size=40
)


def _mutate(payload: dict[str, Any], path: list[str], value: object) -> None:
    node: Any = payload
    for key in path[:-1]:
        if not isinstance(node, dict) or not isinstance(node.get(key), dict):
            return
        node = node[key]
    if isinstance(node, dict):
        node[path[-1]] = value


@pytest.mark.parametrize("agent", HOOK_AGENTS)
@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    command=COMMANDS,
    value=JSON_VALUES,
    where=st.sampled_from(
        [
            ["tool_name"],
            ["tool_input"],
            ["tool_input", "command"],
            ["toolArgs"],
            ["toolName"],
            ["toolCall", "args"],
            ["tool_call", "input"],
            ["hook_event_name"],
            ["cwd"],
            ["extra"],
        ]
    ),
)
def test_any_payload_gets_a_well_formed_reply(
    agent: str, command: str, value: object, where: list[str], tmp_path: Path
) -> None:
    payload = shell_payload(agent, command, str(tmp_path))
    _mutate(payload, where, value)
    outcome = respond(PROTOCOLS[agent], payload, os.environ)
    assert "\n" not in outcome.reply
    if outcome.reply:
        assert isinstance(json.loads(outcome.reply), dict)
    if outcome.kind in ("allow_rewrite", "ask_rewrite"):
        assert "rtok run " in outcome.rewritten
