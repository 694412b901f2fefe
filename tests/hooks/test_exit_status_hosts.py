"""Hosts whose hook answers by exit status (`reply_via = "exit"`): Windsurf's Cascade
`pre_run_command` and Kiro CLI's `preToolUse`. Exit 2 blocks the call and the host hands
stderr to the model; anything else is exit 0 with nothing written.

The payloads are written out here from the hosts' documentation (docs.windsurf.com
cascade/hooks; kiro.dev/docs/cli/hooks), not read from the descriptors under test.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path

import pytest

from rtok.hooks.descriptors import validate_hook_table
from rtok.schema import DescriptorError


def windsurf(command: str, cwd: str, action: str = "pre_run_command") -> dict[str, object]:
    info = (
        {"command_line": command, "cwd": cwd}
        if action == "pre_run_command"
        else {"file_path": os.path.join(cwd, "README.md")}
    )
    return {
        "agent_action_name": action,
        "trajectory_id": "6e1f",
        "execution_id": "a9c2",
        "timestamp": "2026-12-01T09:30:00.000Z",
        "tool_info": info,
    }


def kiro(command: str, cwd: str, tool: str = "shell") -> dict[str, object]:
    tool_input: dict[str, object] = {"command": command, "summary": "show the status"}
    if tool == "read":
        tool_input = {"operations": [{"mode": "Line", "path": os.path.join(cwd, "README.md")}]}
    return {
        "hook_event_name": "preToolUse",
        "cwd": cwd,
        "tool_name": tool,
        "tool_input": tool_input,
    }


PAYLOADS = {"windsurf": windsurf, "kiro": kiro}


def hook(
    agent: str, payload: object, cwd: Path, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    text = payload if isinstance(payload, str) else json.dumps(payload)
    return subprocess.run(
        [sys.executable, "-m", "rtok", "hook", agent],
        input=text,
        capture_output=True,
        text=True,
        cwd=str(cwd),
        timeout=60,
        env={**os.environ, "RTOK_BIN": "rtok", **(env or {})},
        check=False,
    )


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    (root / ".git").mkdir(parents=True)
    return root


@pytest.mark.parametrize("agent", sorted(PAYLOADS))
def test_a_rewritable_command_is_blocked_with_the_rewrite_named(agent: str, project: Path) -> None:
    done = hook(agent, PAYLOADS[agent]("git status", str(project)), project)
    assert done.returncode == 2
    assert done.stdout == ""
    assert "`rtok run git status`" in done.stderr
    # The model runs the suggestion: rtok's own command passes (no loop).
    again = hook(agent, PAYLOADS[agent]("rtok run git status", str(project)), project)
    assert (again.returncode, again.stdout, again.stderr) == (0, "", "")


@pytest.mark.parametrize("agent", sorted(PAYLOADS))
def test_no_opinion_is_exit_0_and_silence(agent: str, project: Path) -> None:
    other = (
        windsurf("", str(project), action="pre_read_code")
        if agent == "windsurf"
        else kiro("", str(project), tool="read")
    )
    for payload in (
        PAYLOADS[agent]("vim notes.txt", str(project)),
        other,
        "{not json",
        PAYLOADS[agent]("git status $(whoami)", str(project)),
    ):
        done = hook(agent, payload, project)
        assert (done.returncode, done.stdout) == (0, ""), payload
    off = hook(
        agent, PAYLOADS[agent]("git status", str(project)), project, env={"RTOK_DISABLED": "1"}
    )
    assert (off.returncode, off.stdout, off.stderr) == (0, "", "")


def test_kiro_accepts_the_earlier_shell_tool_name(project: Path) -> None:
    done = hook("kiro", kiro("git log -n 3", str(project), tool="execute_bash"), project)
    assert done.returncode == 2 and "`rtok run git log -n 3`" in done.stderr


def _table(reply_via: str, replies: Mapping[str, object], no_opinion: str = "") -> object:
    return {
        "permissions": "none",
        "no_opinion": no_opinion,
        "reply_via": reply_via,
        "payloads": [
            {
                "tool": "tool_name",
                "tools": ["shell"],
                "input": "tool_input",
                "command": ["command"],
                "replies": replies,
            }
        ],
    }


def test_exit_replies_are_validated() -> None:
    good = {"allow_rewrite": {"exit": 2, "stderr": "run `${command}`"}}
    assert validate_hook_table(_table("exit", good), "x.toml")["reply_via"] == "exit"
    assert "reply_via" not in validate_hook_table(_table("stdout", good), "x.toml")
    for bad in (
        {"allow_rewrite": {"decision": "deny"}},
        {"allow_rewrite": {"exit": 0, "stderr": "x"}},
        {"allow_rewrite": {"exit": True, "stderr": "x"}},
        {"allow_rewrite": {"exit": 2, "stderr": ""}},
        {"allow_rewrite": {"exit": 2, "stderr": "x", "extra": 1}},
    ):
        with pytest.raises(DescriptorError, match="reply_via"):
            validate_hook_table(_table("exit", bad), "x.toml")
    with pytest.raises(DescriptorError, match="no_opinion must be empty"):
        validate_hook_table(_table("exit", good, no_opinion="{}"), "x.toml")
    with pytest.raises(DescriptorError, match="reply_via must be one of"):
        validate_hook_table(_table("stderr", good), "x.toml")
