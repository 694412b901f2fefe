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

import pytest
from agent_harness import Sandbox, read

from rtok.compiled.hook_protocols import PROTOCOLS
from rtok.formats import jsonc
from rtok.install import integrations
from rtok.install.specs import FileSpec
from rtok_testing import rtok_entry_point
from rtok_testing.samples import hook_agents, shell_payload

GIT_STATUS = "git status"

HOOK_AGENTS = hook_agents()


def _text_option(spec: FileSpec, key: str) -> str:
    value = spec.options[key]
    assert isinstance(value, str), (key, value)
    return value


def _path_option(spec: FileSpec, key: str) -> tuple[str, ...]:
    value = spec.options[key]
    assert isinstance(value, list), (key, value)
    steps = tuple(step for step in value if isinstance(step, str))
    assert len(steps) == len(value), (key, value)
    return steps


def _registered_command(agent: str, box: Sandbox) -> list[str]:
    """The argv an agent uses to run what rtok registered in its global settings."""
    descriptor = integrations.get_descriptor(agent)
    for spec in descriptor.files["global"]:
        path = integrations.expand_path(spec.path, "global", box.context("global"))
        data = read(path)
        assert data is not None, path
        if spec.strategy == "json_hook_group":
            groups = jsonc.get(data, _path_option(spec, "container"))
            assert isinstance(groups, list)
            return ["sh", "-c", groups[-1]["hooks"][0]["command"]]
        if spec.strategy == "json_hook_flat":
            entries = jsonc.get(data, _path_option(spec, "container"))
            assert isinstance(entries, list)
            return ["sh", "-c", entries[-1][_text_option(spec, "command_key")]]
        if spec.strategy == "json_named_hooks":
            group = jsonc.get(data, (_text_option(spec, "key"), _text_option(spec, "event"), 0))
            assert isinstance(group, dict)
            return ["sh", "-c", group["hooks"][0]["command"]]
        if spec.strategy == "toml_hook_table":
            table = tomllib.loads(data.decode())[_text_option(spec, "array")][-1]
            return ["sh", "-c", table["command"]]
        if spec.strategy == "template_file" and path.endswith(".py"):
            assert os.access(path, os.X_OK), "the Cline hook file must be executable"
            return ["python3", path]
    raise AssertionError(f"{agent}: no registered command found")


def _run(argv: list[str], agent: str, cwd: str) -> subprocess.CompletedProcess[bytes]:
    payload = json.dumps(shell_payload(agent, GIT_STATUS, cwd)).encode()
    return subprocess.run(
        argv, input=payload, capture_output=True, cwd=cwd, timeout=60, check=False
    )


def _box(tmp_path: Path, rtok_bin: str) -> Sandbox:
    (tmp_path / "h").mkdir()
    (tmp_path / "p").mkdir()
    return Sandbox(home=str(tmp_path / "h"), project=str(tmp_path / "p"), rtok_bin=rtok_bin)


@pytest.mark.parametrize("agent", HOOK_AGENTS)
def test_registered_command_returns_a_rewrite(agent: str, tmp_path: Path) -> None:
    box = _box(tmp_path, rtok_entry_point())
    box.apply(box.edits(agent, "global", "install"))
    result = _run(_registered_command(agent, box), agent, box.project)
    if PROTOCOLS[agent].get("reply_via") == "exit":
        # Windsurf and Kiro read the exit status: 2 blocks, stderr names the rewrite.
        assert result.returncode == 2 and result.stdout == b"", result.stderr.decode()
        assert f"run {GIT_STATUS}" in result.stderr.decode()
        return
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
    wrapper.write_text(f'#!/bin/sh\nexec {sys.executable} -m rtok "$@"\n')
    wrapper.chmod(0o755)
    box = _box(tmp_path, str(wrapper))
    box.apply(box.edits(agent, "global", "install"))
    argv = _registered_command(agent, box)
    answered = _run(argv, agent, box.project)
    assert f"run {GIT_STATUS}" in (answered.stdout + answered.stderr).decode()
    wrapper.unlink()

    result = _run(argv, agent, box.project)
    descriptor = integrations.get_descriptor(agent)
    assert result.returncode != 2, "exit 2 blocks the tool call"
    # The registered command checks that the entry point is there (cline's hook file
    # catches the failure itself): every host gets exit 0 and its "no opinion" reply.
    assert result.returncode == 0
    assert result.stdout.strip() == descriptor.no_opinion.encode()
    assert b"deny" not in result.stdout and b"block" not in result.stdout
