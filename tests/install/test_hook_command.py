"""The command rtok writes into each hook-tier agent's settings, run the way the agent runs
it (through a shell, the agent's sample payload on stdin), answers with a valid rewrite;
and once the rtok entry point is gone, it blocks nothing."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest
from agent_harness import Sandbox, read

from rtok.formats import jsonc
from rtok.install import integrations
from rtok_testing import rtok_entry_point

GIT_STATUS = "git status"

# Payloads as the real agents sent them (shared/reference/agent-e2e.md), asking for `git status`.
PAYLOADS: dict[str, dict[str, Any]] = {
    "auggie": {"hook_event_name": "PreToolUse", "conversation_id": "c1",
               "workspace_roots": ["CWD"], "tool_name": "launch-process",
               "tool_input": {"command": GIT_STATUS, "wait": True, "max_wait_seconds": 60,
                              "cwd": "CWD"},
               "tool_output": "[undefined]", "tool_error": None, "is_mcp_tool": False},
    "claude": {"session_id": "s1", "transcript_path": "/tmp/t.jsonl", "cwd": "CWD",
               "permission_mode": "default", "hook_event_name": "PreToolUse",
               "tool_name": "Bash", "tool_input": {"command": GIT_STATUS},
               "tool_use_id": "toolu_1"},
    "codebuddy": {"session_id": "s1", "transcript_path": "/tmp/t.jsonl", "cwd": "CWD",
                  "hook_event_name": "PreToolUse", "tool_name": "Bash",
                  "tool_input": {"command": GIT_STATUS}, "call_id": "c1",
                  "tool_use_id": "toolu_1", "agent_type": "cli",
                  "permission_mode": "bypassPermissions", "client": "CLI",
                  "version": "2.163.0", "generation_id": "g1", "model": "fake-model"},
    "codex": {"session_id": "s1", "turn_id": "t1", "transcript_path": None, "cwd": "CWD",
              "hook_event_name": "PreToolUse", "model": "gpt-5.5",
              "permission_mode": "bypassPermissions", "tool_name": "Bash",
              "tool_input": {"command": GIT_STATUS}, "tool_use_id": "call_1"},
    "gemini": {"session_id": "s1", "transcript_path": "/tmp/t.jsonl", "cwd": "CWD",
               "hook_event_name": "BeforeTool", "timestamp": "2026-11-29T00:00:00Z",
               "tool_name": "run_shell_command", "tool_input": {"command": GIT_STATUS}},
    "qwen": {"session_id": "s1", "transcript_path": "/tmp/t.jsonl", "cwd": "CWD",
             "hook_event_name": "PreToolUse", "timestamp": "2026-11-29T00:00:00Z",
             "permission_mode": "yolo", "tool_name": "run_shell_command",
             "tool_input": {"command": GIT_STATUS}, "tool_use_id": "t1",
             "tool_call_id": "c1"},
    "grok": {"hookEventName": "pre_tool_use", "sessionId": "s1", "cwd": "CWD",
             "workspaceRoot": "CWD", "timestamp": "2026-12-01T00:00:00Z",
             "permissionMode": "bypassPermissions", "toolName": "run_terminal_command",
             "toolUseId": "call_1",
             "toolInput": {"command": GIT_STATUS, "description": "Show git status"},
             "toolInputTruncated": False},
    "openhands": {"event_type": "PreToolUse", "tool_name": "terminal",
                  "tool_input": {"command": GIT_STATUS, "is_input": False, "timeout": None,
                                 "reset": False, "kind": "TerminalAction"},
                  "tool_response": None, "message": None, "session_id": "s1",
                  "working_dir": "CWD", "metadata": {}},
    "copilot": {"sessionId": "s1", "timestamp": 1795990512071, "cwd": "CWD",
                "toolName": "bash",
                "toolArgs": {"command": GIT_STATUS, "description": "show status"}},
    "droid": {"session_id": "s1", "transcript_path": "/tmp/t.jsonl", "cwd": "CWD",
              "permission_mode": "auto-low", "hook_event_name": "PreToolUse",
              "tool_name": "Execute",
              "tool_input": {"command": GIT_STATUS, "summary": "Show git status"}},
    "vibe": {"hook_event_name": "pre_tool", "session_id": "s1", "parent_session_id": None,
             "transcript_path": "/tmp/t", "cwd": "CWD", "tool_name": "file_system.bash",
             "tool_call_id": "call_1", "tool_input": {"command": GIT_STATUS}},
    "cursor": {"conversation_id": "c1", "generation_id": "g1", "hook_event_name": "preToolUse",
               "workspace_roots": ["CWD"], "tool_name": "Shell",
               "tool_input": {"command": GIT_STATUS, "cwd": "CWD"}},
    "trae": {"session_id": "s1", "cwd": "CWD", "hook_event_name": "PreToolUse",
             "tool_name": "RunCommand", "tool_input": {"command": GIT_STATUS}},
    "antigravity": {"hook_event_name": "PreToolUse",
                    "toolCall": {"name": "run_command", "args": {"CommandLine": GIT_STATUS}}},
    "kimi": {"hook_event_name": "PreToolUse", "session_id": "s1", "cwd": "CWD",
             "client_type": "kimi_code_cli", "tool_name": "Bash",
             "tool_input": {"command": GIT_STATUS}, "tool_call_id": "call_1"},
    "cline": {"clineVersion": "", "timestamp": "1", "taskId": "conv_1",
              "workspaceRoots": ["CWD"], "hookName": "tool_call", "iteration": 1,
              "tool_call": {"id": "call_1", "name": "run_commands",
                            "input": {"commands": [GIT_STATUS]}},
              "preToolUse": {"toolName": "run_commands",
                             "parameters": {"commands": json.dumps([GIT_STATUS])}}},
}

HOOK_AGENTS = sorted(
    name for name, d in integrations.load_descriptors().items() if d.tier == "hook"
)


def test_every_hook_tier_agent_has_a_sample_payload() -> None:
    assert set(HOOK_AGENTS) == set(PAYLOADS)


def _registered_command(agent: str, box: Sandbox) -> list[str]:
    """The argv an agent uses to run what rtok registered in its global settings."""
    descriptor = integrations.get_descriptor(agent)
    for spec in descriptor.files["global"]:
        path = integrations.expand_path(spec.path, "global", box.context("global"))
        data = read(path)
        assert data is not None, path
        if spec.strategy == "json_hook_group":
            groups = jsonc.get(data, tuple(spec.options["container"]))
            assert isinstance(groups, list)
            return ["sh", "-c", groups[-1]["hooks"][0]["command"]]
        if spec.strategy == "json_hook_flat":
            entries = jsonc.get(data, tuple(spec.options["container"]))
            assert isinstance(entries, list)
            return ["sh", "-c", entries[-1][spec.options["command_key"]]]
        if spec.strategy == "json_named_hooks":
            group = jsonc.get(data, (spec.options["key"], spec.options["event"], 0))
            assert isinstance(group, dict)
            return ["sh", "-c", group["hooks"][0]["command"]]
        if spec.strategy == "toml_hook_table":
            table = tomllib.loads(data.decode())[spec.options["array"]][-1]
            return ["sh", "-c", table["command"]]
        if spec.strategy == "template_file" and path.endswith(".py"):
            assert os.access(path, os.X_OK), "the Cline hook file must be executable"
            return ["python3", path]
    raise AssertionError(f"{agent}: no registered command found")


def _run(argv: list[str], agent: str, cwd: str) -> subprocess.CompletedProcess[bytes]:
    payload = json.dumps(PAYLOADS[agent]).replace("CWD", cwd).encode()
    return subprocess.run(argv, input=payload, capture_output=True, cwd=cwd, timeout=60,
                          check=False)


def _box(tmp_path: Path, rtok_bin: str) -> Sandbox:
    (tmp_path / "h").mkdir()
    (tmp_path / "p").mkdir()
    return Sandbox(home=str(tmp_path / "h"), project=str(tmp_path / "p"), rtok_bin=rtok_bin)


@pytest.mark.parametrize("agent", HOOK_AGENTS)
def test_registered_command_returns_a_rewrite(agent: str, tmp_path: Path) -> None:
    box = _box(tmp_path, rtok_entry_point())
    box.apply(box.edits(agent, "global", "install"))
    result = _run(_registered_command(agent, box), agent, box.project)
    assert result.returncode == 0, result.stderr.decode()
    reply = json.loads(result.stdout)
    assert isinstance(reply, dict)
    # The reply carries the rewritten command (or, for Qwen, suggests it).
    assert f"run {GIT_STATUS}" in json.dumps(reply), reply


@pytest.mark.parametrize("agent", HOOK_AGENTS)
def test_a_vanished_entry_point_blocks_nothing(agent: str, tmp_path: Path) -> None:
    bindir = tmp_path / "venv" / "bin"
    bindir.mkdir(parents=True)
    wrapper = bindir / "rtok"
    wrapper.write_text(f"#!/bin/sh\nexec {sys.executable} -m rtok \"$@\"\n")
    wrapper.chmod(0o755)
    box = _box(tmp_path, str(wrapper))
    box.apply(box.edits(agent, "global", "install"))
    argv = _registered_command(agent, box)
    assert f"run {GIT_STATUS}" in _run(argv, agent, box.project).stdout.decode()
    wrapper.unlink()

    result = _run(argv, agent, box.project)
    descriptor = integrations.get_descriptor(agent)
    assert result.returncode != 2, "exit 2 blocks the tool call"
    if descriptor.fail_closed or agent == "cline":
        assert result.returncode == 0
        assert result.stdout.strip() == descriptor.no_opinion.encode()
    else:
        assert result.stdout.strip() == b""
    assert b"deny" not in result.stdout and b"block" not in result.stdout
