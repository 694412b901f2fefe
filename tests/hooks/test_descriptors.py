"""The `[hook]` tables: schema validation and properties the other areas rely on."""

from __future__ import annotations

import json
from typing import Any

import pytest

from rtok.compiled.hook_protocols import PROTOCOLS
from rtok.hooks.descriptors import validate_hook_table
from rtok.install.descriptor import hook_protocols
from rtok.schema import DescriptorError

from .payloads import HOOK_AGENTS


def test_every_hook_tier_agent_has_a_protocol() -> None:
    assert set(HOOK_AGENTS) <= set(PROTOCOLS)
    assert hook_protocols() == PROTOCOLS


def _contains(outer: object, inner: object) -> bool:
    if isinstance(inner, dict):
        return isinstance(outer, dict) and all(
            key in outer and _contains(outer[key], value) for key, value in inner.items()
        )
    return outer == inner


@pytest.mark.parametrize("agent", sorted(PROTOCOLS))
def test_ask_rule_reply_only_adds_to_the_ask_reply(agent: str) -> None:
    # The decision kind stays "ask_rewrite"; `rtok doctor` checks replies against that.
    for shape in PROTOCOLS[agent]["payloads"]:
        replies = shape["replies"]
        if "ask_rule_rewrite" in replies:
            assert _contains(
                json.loads(replies["ask_rule_rewrite"]), json.loads(replies["ask_rewrite"])
            )


@pytest.mark.parametrize("agent", sorted(PROTOCOLS))
def test_no_opinion_is_empty_or_one_json_object(agent: str) -> None:
    text = PROTOCOLS[agent]["no_opinion"]
    assert text == "" or isinstance(json.loads(text), dict)


def _table(**changes: Any) -> dict[str, Any]:
    table: dict[str, Any] = {
        "permissions": "claude",
        "rtok_path": "bare",
        "no_opinion": "",
        "payloads": [
            {
                "tool": "tool_name",
                "tools": ["Bash"],
                "input": "tool_input",
                "command": ["command"],
                "replies": {"allow_rewrite": {"a": "${input}"}},
            }
        ],
    }
    table.update(changes)
    return table


def test_valid_table_compiles() -> None:
    compiled = validate_hook_table(_table(), "x.toml")
    shape = compiled["payloads"][0]
    assert shape["tool"] == ["tool_name"]
    assert shape["event"] == []
    assert json.loads(shape["replies"]["allow_rewrite"]) == {"a": "${input}"}
    assert "incomplete" not in shape  # only where the table names one


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"permissions": "everyone"}, "hook.permissions"),
        ({"rtok_path": "relative"}, "hook.rtok_path"),
        ({"no_opinion": "{not json"}, "no_opinion is not JSON"),
        ({"payloads": []}, "payloads must be a non-empty array"),
        ({"surprise": 1}, "unknown key 'surprise'"),
        (
            {
                "payloads": [
                    {
                        "tool": "tool_name",
                        "tools": [],
                        "input": "i",
                        "command": ["c"],
                        "replies": {},
                    }
                ]
            },
            "tools is required",
        ),
        (
            {
                "payloads": [
                    {"tool": "a..b", "tools": ["x"], "input": "i", "command": ["c"], "replies": {}}
                ]
            },
            "tool must be a dotted key path",
        ),
        (
            {
                "payloads": [
                    {
                        "tool": "t",
                        "tools": ["x"],
                        "input": "i",
                        "command": ["c"],
                        "replies": {"maybe": {}},
                    }
                ]
            },
            "unknown key 'maybe'",
        ),
        (
            {
                "payloads": [
                    {
                        "tool": "t",
                        "tools": ["x"],
                        "input": "i",
                        "command": ["c"],
                        "replies": {"deny": "text"},
                    }
                ]
            },
            "must be a table",
        ),
        (
            {
                "payloads": [
                    {
                        "tool": "t",
                        "tools": ["x"],
                        "input": "i",
                        "command": ["c"],
                        "events": ["E"],
                        "replies": {},
                    }
                ]
            },
            "events given without event",
        ),
        (
            {
                "payloads": [
                    {
                        "tool": "t",
                        "tools": ["x"],
                        "input": "i",
                        "command": ["c"],
                        "incomplete": 1,
                        "replies": {},
                    }
                ]
            },
            "incomplete must be a dotted",
        ),
    ],
)
def test_schema_errors_name_file_and_key(changes: dict[str, Any], message: str) -> None:
    with pytest.raises(DescriptorError) as raised:
        validate_hook_table(_table(**changes), "integrations/x.toml")
    assert "integrations/x.toml" in str(raised.value)
    assert message in str(raised.value)
