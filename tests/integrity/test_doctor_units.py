"""Doctor's reply checks on replies written here (no agent needed)."""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from pathlib import Path

from rtok.hooks.types import JsonValue, PayloadShape
from rtok.integrity.doctor import hook_commands_in, host_contract_problem, sample_payload
from rtok.integrity.verify import rtok_bins_in

SAMPLE_INPUT = {"command": "git status", "description": "d"}


def _reply(decision: str | None, new_input: Mapping[str, str]) -> str:
    inner: dict[str, object] = {"hookEventName": "PreToolUse", "updatedInput": new_input}
    if decision:
        inner["permissionDecision"] = decision
    return json.dumps({"hookSpecificOutput": inner})


def test_codex_needs_allow_with_updated_input() -> None:
    rewritten = {"command": "/x/rtok run git status", "description": "d"}
    assert (
        host_contract_problem("codex", "rewrite", _reply("allow", rewritten), SAMPLE_INPUT) is None
    )
    problem = host_contract_problem("codex", "rewrite", _reply(None, rewritten), SAMPLE_INPUT)
    assert problem is not None and "allow" in problem
    assert host_contract_problem("claude", "rewrite", _reply(None, rewritten), SAMPLE_INPUT) is None


def test_complete_input_is_required() -> None:
    dropped = {"command": "rtok run git status"}
    problem = host_contract_problem("claude", "rewrite", _reply(None, dropped), SAMPLE_INPUT)
    assert problem is not None and "description" in problem
    changed = {"command": "rtok run git status", "description": "other"}
    assert host_contract_problem("droid", "rewrite", _reply(None, changed), SAMPLE_INPUT)


def test_one_json_object_or_nothing() -> None:
    assert host_contract_problem("gemini", "passthrough", "", None) is None
    assert host_contract_problem("gemini", "passthrough", "{}", None) is None
    assert host_contract_problem("gemini", "passthrough", "{} {}", None)
    assert host_contract_problem("vibe", "passthrough", "ok", None)
    assert host_contract_problem("vibe", "passthrough", "[1]", None)


def test_wrong_place_for_the_input() -> None:
    reply = json.dumps({"hookSpecificOutput": {"updatedInput": {"command": "rtok run x"}}})
    problem = host_contract_problem("gemini", "rewrite", reply, SAMPLE_INPUT)
    assert problem is not None and "hookSpecificOutput.tool_input" in problem


def test_hook_commands_found_in_wrappers() -> None:
    entry = json.dumps(
        [
            {"bash": "'/a b/rtok' hook copilot || true"},
            {"command": "/usr/bin/rtok hook claude"},
            {"command": "sh -c '/opt/rtok hook claude'"},
        ]
    )
    assert hook_commands_in(entry, "copilot") == ["'/a b/rtok' hook copilot || true"]
    assert hook_commands_in(entry, "claude") == [
        "/usr/bin/rtok hook claude",
        "sh -c '/opt/rtok hook claude'",
    ]
    assert rtok_bins_in(entry) == ["/a b/rtok", "/usr/bin/rtok", "/opt/rtok"]


def test_sample_payload_follows_the_shape() -> None:
    shape: PayloadShape = {
        "tool": ["tool_call", "name"],
        "tools": ["run_commands"],
        "event": ["hookName"],
        "events": ["tool_call"],
        "input": ["tool_call", "input"],
        "input_format": "object",
        "command": ["commands"],
        "command_format": "list",
        "background": [],
        "replies": {},
    }
    payload = sample_payload(shape, "git status", "/tmp")
    assert _at(payload, "tool_call", "name") == "run_commands"
    assert _at(payload, "tool_call", "input", "commands") == ["git status"]
    assert payload["hookName"] == "tool_call"
    other = sample_payload(shape, None, "/tmp")
    assert _at(other, "tool_call", "name") != "run_commands"


def _at(value: JsonValue, *path: str) -> JsonValue:
    """The value at `path` (keys) of nested JSON objects."""
    for key in path:
        assert isinstance(value, dict), (key, value)
        value = value[key]
    return value


def test_expected_outcomes_read_the_env_given_side_by_side(tmp_path: Path) -> None:
    # Doctor's workers judge samples in different agents' environments at once; each
    # reads only its own env, and the process's environment is left as it was.
    from concurrent.futures import ThreadPoolExecutor

    from rtok.compiled.hook_protocols import PROTOCOLS
    from rtok.integrity.doctor import expected_outcome

    protocol = PROTOCOLS["claude"]
    cwd = str(tmp_path)
    payload = sample_payload(protocol["payloads"][0], "git status", cwd)
    before = dict(os.environ)
    envs = [dict(os.environ, RTOK_BIN=f"/opt/rtok-{n}/rtok") for n in range(8)]
    with ThreadPoolExecutor(max_workers=4) as pool:
        replies = list(pool.map(lambda env: expected_outcome(protocol, payload, cwd, env), envs))
    for n, (kind, reply) in enumerate(replies):
        assert kind == "ask_rewrite"
        assert f"/opt/rtok-{n}/rtok run git status" in reply
    assert dict(os.environ) == before
