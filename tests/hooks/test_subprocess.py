"""`python -m rtok hook AGENT` as a real subprocess: replies, hostile input, the log."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rtok.compiled.hook_protocols import PROTOCOLS
from rtok_testing import run_rtok

from .payloads import HOOK_AGENTS, grok_payload, shell_payload


def _no_opinion_bytes(agent: str) -> bytes:
    text = PROTOCOLS[agent]["no_opinion"]
    return (text + "\n").encode() if text else b""


DEEP = b'{"tool_name": "Bash", "tool_input": ' + b"[" * 200_000 + b"]" * 200_000 + b"}"
OVERSIZED = json.dumps(
    {"tool_name": "Bash", "tool_input": {"command": "git status"}, "padding": "x" * (1024 * 1024)}
).encode()

HOSTILE = {
    "empty": b"",
    "whitespace": b"  \n\t ",
    "invalid_utf8": b'{"tool_name": "Bash", "tool_input": {"command": "git \xff\xfe status"}}',
    "truncated": b'{"tool_name": "Bash", "tool_input": {"command": "git st',
    "oversized": OVERSIZED,
    "deep_nesting": DEEP,
    "not_an_object_list": b"[1, 2, 3]",
    "not_an_object_string": b'"git status"',
    "not_an_object_null": b"null",
    "wrong_types": b'{"tool_name": ["Bash"], "tool_input": 7, "toolName": {}, "toolCall": 1,'
    b' "tool_call": "x", "cwd": 5}',
    "nul_bytes": b"\x00\x00\x00",
}


@pytest.mark.parametrize("agent", HOOK_AGENTS)
@pytest.mark.parametrize("case", sorted(HOSTILE))
def test_hostile_input_exits_0_with_no_opinion(agent: str, case: str) -> None:
    result = run_rtok(["hook", agent], input=HOSTILE[case])
    assert result.returncode == 0, result.stderr
    assert result.stdout == _no_opinion_bytes(agent)


def test_unknown_agent_is_silent_and_exits_0() -> None:
    result = run_rtok(["hook", "no-such-agent"], input=b'{"tool_name": "Bash"}')
    assert result.returncode == 0
    assert result.stdout == b""
    assert b"unknown agent" in result.stderr


@pytest.fixture
def project(tmp_path: Path, isolated_home: Path) -> Path:
    root = tmp_path / "project"
    (root / ".git").mkdir(parents=True)
    (isolated_home / ".claude").mkdir()
    (isolated_home / ".claude" / "settings.json").write_text(
        json.dumps({"permissions": {"allow": ["Bash(git status:*)"], "deny": ["Bash(git push:*)"]}})
    )
    return root


def _reply(agent: str, command: str, project: Path, **env: str) -> object:
    payload = json.dumps(shell_payload(agent, command, str(project))).encode()
    result = run_rtok(
        ["hook", agent], input=payload, env={"RTOK_BIN": "rtok", **env}, cwd=str(project)
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.count(b"\n") <= 1  # one reply, one line
    return json.loads(result.stdout) if result.stdout else ""


def test_claude_allow_rewrite(project: Path) -> None:
    assert _reply("claude", "git status", project) == {
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "allow",
            "permissionDecisionReason": "rtok: same command, shortened output (your allow rule "
            "matched)",
            "updatedInput": {"command": "rtok run git status", "description": "Run it"},
        }
    }


def test_claude_deny_and_passthrough_are_silent(project: Path) -> None:
    assert _reply("claude", "git push", project) == ""
    assert _reply("claude", "cd /tmp", project) == ""


def test_bom_prefixed_payload_is_read(project: Path) -> None:
    payload = (
        b"\xef\xbb\xbf\xef\xbb\xbf"
        + json.dumps(shell_payload("cursor", "git status", str(project))).encode()
    )
    result = run_rtok(["hook", "cursor"], input=payload, env={"RTOK_BIN": "rtok"})
    assert json.loads(result.stdout)["updated_input"] == {"command": "rtok run git status"}


def test_codex_rewrites_to_the_running_entry_point(project: Path) -> None:
    payload = json.dumps(shell_payload("codex", "git status", str(project))).encode()
    result = run_rtok(["hook", "codex"], input=payload)
    reply = json.loads(result.stdout)["hookSpecificOutput"]
    assert reply["permissionDecision"] == "allow"
    program, _, rest = reply["updatedInput"]["command"].partition(" run ")
    assert rest == "git status"
    assert Path(program).is_absolute() and Path(program).name == "rtok"
    assert Path(program).is_file()


def test_copilot_cli_string_args(project: Path) -> None:
    reply = _reply("copilot", "git status", project)
    assert reply == {
        "permissionDecision": "allow",
        "permissionDecisionReason": "rtok: same command, shortened output (your "
        "allow rule matched)",
        "modifiedArgs": {"command": "rtok run git status", "description": "d"},
    }


def test_gemini_and_cursor_always_answer_json(project: Path) -> None:
    assert _reply("gemini", "cd /tmp", project) == {}
    assert _reply("cursor", "cd /tmp", project) == {}
    assert _reply("antigravity", "cd /tmp", project) == {"decision": "allow"}


def test_malformed_settings_warn_and_hook_defers(project: Path, isolated_home: Path) -> None:
    # A settings file with a trailing comma: Claude ignores it, but the user meant its
    # rules, so rtok neither rewrites nor approves; the host decides on the original.
    (project / ".claude").mkdir()
    (project / ".claude" / "settings.json").write_text(
        '{"permissions": {"deny": ["Bash(git push:*)"],}}'
    )
    payload = json.dumps(shell_payload("claude", "git status", str(project))).encode()
    result = run_rtok(["hook", "claude"], input=payload, env={"RTOK_BIN": "rtok"})
    assert result.returncode == 0
    assert b"rtok run" not in result.stdout
    assert b"allow" not in result.stdout
    assert result.stderr.count(b"warning") == 1


def test_grok_payload_gets_one_answer_among_the_hooks_grok_runs(
    project: Path, tmp_path: Path
) -> None:
    # Grok Build also runs the hooks rtok installed for Claude and Cursor, each with Grok's
    # own camelCase payload: those stay silent (Cursor's "{}" is its no-opinion), so the
    # Grok hook's deny-and-suggest is the only answer.
    payload = json.dumps(grok_payload("git log", str(project))).encode()
    log = tmp_path / "hook.jsonl"
    replies = {}
    for agent in ("claude", "cursor", "grok"):
        result = run_rtok(
            ["hook", agent],
            input=payload,
            cwd=str(project),
            env={"RTOK_BIN": "rtok", "RTOK_HOOK_LOG": str(log)},
        )
        assert result.returncode == 0, result.stderr
        replies[agent] = result.stdout
    assert replies["claude"] == b""
    assert replies["cursor"] == b"{}\n"
    reply = json.loads(replies["grok"])
    assert reply == {"decision": "deny", "reason": reply["reason"]}
    assert "`rtok run git log`" in reply["reason"]
    decisions = [json.loads(line)["decision"] for line in log.read_text().splitlines()]
    assert decisions == ["unknown_shape", "unknown_shape", "ask_rewrite"]


def test_hook_log(project: Path, tmp_path: Path) -> None:
    log = tmp_path / "hook.log"
    _reply("claude", "git status", project, RTOK_HOOK_LOG=str(log))
    _reply("claude", "git push", project, RTOK_HOOK_LOG=str(log))
    records = [json.loads(line) for line in log.read_text().splitlines()]
    assert [
        (r["agent"], r["tool"], r["command"], r["decision"], r["rewritten"]) for r in records
    ] == [
        ("claude", "Bash", "git status", "allow_rewrite", "rtok run git status"),
        ("claude", "Bash", "git push", "deny", ""),
    ]


def test_console_script_runs_the_hook(project: Path) -> None:
    import subprocess

    from rtok_testing import rtok_entry_point

    payload = json.dumps(shell_payload("claude", "git status", str(project))).encode()
    result = subprocess.run(
        [rtok_entry_point(), "hook", "claude"],
        input=payload,
        capture_output=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0
    assert json.loads(result.stdout)["hookSpecificOutput"]["updatedInput"]["command"].endswith(
        " run git status"
    )


def test_closed_stdout_still_exits_0(project: Path) -> None:
    import os
    import subprocess
    import sys

    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        payload = json.dumps(shell_payload("claude", "git status", str(project))).encode()
        result = subprocess.run(
            [sys.executable, "-m", "rtok", "hook", "claude"],
            input=payload,
            stdout=write_end,
            stderr=subprocess.PIPE,
            timeout=60,
            check=False,
        )
    finally:
        os.close(write_end)
    assert result.returncode == 0
    assert result.stderr == b""


@pytest.mark.parametrize("agent", ["claude", "cursor", "antigravity"])
def test_rtok_disabled_env_makes_the_hook_a_no_op(agent: str, project: Path) -> None:
    payload = json.dumps(shell_payload(agent, "git status", str(project))).encode()
    result = run_rtok(["hook", agent], input=payload, env={"RTOK_DISABLED": "1"})
    assert result.returncode == 0
    assert result.stdout == _no_opinion_bytes(agent)
    enabled = run_rtok(["hook", agent], input=payload, env={"RTOK_DISABLED": "0"})
    assert b"run git status" in enabled.stdout


def test_a_huge_command_passes_through_unread(project: Path, tmp_path: Path) -> None:
    from rtok.hooks.main import MAX_COMMAND_CHARS

    command = "git status && " * (MAX_COMMAND_CHARS // 13 + 1) + "ls"
    log = tmp_path / "hook.log"
    assert _reply("claude", command, project, RTOK_HOOK_LOG=str(log)) == ""
    assert json.loads(log.read_text())["decision"] == "defer"
    assert _reply("gemini", command, project) == {}
