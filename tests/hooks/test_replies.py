"""Each hook-tier agent's reply for rewrite+allow, rewrite+ask, deny, passthrough and a
foreign tool, in-process, with verdicts from real settings files where the agent has rules.

Expected replies are written out here from the agents' documented contracts
(shared/reference), not read from the descriptors under test.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from rtok.compiled.hook_protocols import PROTOCOLS
from rtok.hooks.main import Outcome, respond
from rtok.hooks.types import HookProtocol, JsonObject

from .payloads import HOOK_AGENTS, foreign_payload, grok_payload, shell_payload

REASON = object()  # any non-empty string


def _same(actual: object, expected: object) -> bool:
    if expected is REASON:
        return isinstance(actual, str) and bool(actual)
    if isinstance(expected, dict):
        return (
            isinstance(actual, dict)
            and actual.keys() == expected.keys()
            and all(_same(actual[k], v) for k, v in expected.items())
        )
    return actual == expected


def _claude_like(new_input: dict[str, Any], decision: str | None) -> dict[str, Any]:
    inner: dict[str, Any] = {
        "hookEventName": "PreToolUse",
        "updatedInput": new_input,
        "permissionDecisionReason": REASON,
    }
    if decision:
        inner["permissionDecision"] = decision
    return {"hookSpecificOutput": inner}


REWRITES = ("allow_rewrite", "ask_rewrite", "ask_rule_rewrite")
Input = dict[str, Any]


def _claude_decision(kind: str) -> str | None:
    """Allow for an allowed rewrite; ask when the user's own ask rule matched (hosts that can
    ask about the rewritten command do)."""
    return "allow" if kind == "allow_rewrite" else "ask" if kind == "ask_rule_rewrite" else None


def _claude(kind: str, new_input: Input) -> object:
    return _claude_like(new_input, _claude_decision(kind)) if kind in REWRITES else ""


def _codex(kind: str, new_input: Input) -> object:  # updatedInput only ever with allow
    return _claude_like(new_input, "allow") if kind in REWRITES else ""


def _droid(kind: str, new_input: Input) -> object:
    return _claude_like(new_input, None) if kind in REWRITES else ""


def _auggie(kind: str, new_input: Input) -> object:
    # reads permissionDecision only to deny; its approval decides
    decision = "allow" if kind == "allow_rewrite" else None
    return _claude_like(new_input, decision) if kind in REWRITES else ""


def _trae(kind: str, new_input: Input) -> object:
    return (
        {"hookSpecificOutput": {"hookEventName": "PreToolUse", "updatedInput": new_input}}
        if kind in REWRITES
        else ""
    )


def _copilot(kind: str, new_input: Input) -> object:
    if kind not in REWRITES:
        return ""
    reply: Input = {"permissionDecisionReason": REASON, "modifiedArgs": new_input}
    decision = _claude_decision(kind)
    if decision:
        reply["permissionDecision"] = decision
    return reply


def _cursor(kind: str, new_input: Input) -> object:
    if kind not in REWRITES:
        return {}
    return {
        "continue": True,
        "permission": "allow" if kind == "allow_rewrite" else "ask",
        "updated_input": new_input,
    }


def _gemini(kind: str, new_input: Input) -> object:
    if kind == "deny":
        return {"decision": "deny", "reason": REASON}
    if kind not in REWRITES:
        return {}
    out: Input = {"hookSpecificOutput": {"hookEventName": "BeforeTool", "tool_input": new_input}}
    if kind == "allow_rewrite":
        out["decision"] = "allow"
    return out


def _vibe(kind: str, new_input: Input) -> object:
    if kind == "deny":
        return {"decision": "deny", "reason": REASON}
    return (
        {"hook_specific_output": {"tool_input": new_input}, "system_message": REASON}
        if kind in REWRITES
        else ""
    )


def _antigravity(kind: str, new_input: Input) -> object:
    if kind == "deny":
        return {"decision": "deny", "reason": REASON}
    if kind not in REWRITES:
        return {"decision": "allow"}
    return {"decision": "allow", "reason": REASON, "overwrite": new_input}


def _deny_and_suggest_pretooluse(kind: str, new_input: Input) -> object:
    if kind not in REWRITES:
        return ""
    return {
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "deny",
            "permissionDecisionReason": REASON,
        }
    }


def _cline(kind: str, new_input: Input) -> object:
    return {"cancel": False, "overrideInput": new_input} if kind in REWRITES else ""


def _deny_and_suggest(kind: str, new_input: Input) -> object:
    return {"decision": "deny", "reason": REASON} if kind in REWRITES else ""


def _exit_block(kind: str, new_input: Input) -> object:
    """Windsurf and Kiro read an exit status: 2 blocks the call, stderr is the reason."""
    return {"exit": 2, "stderr": REASON} if kind in REWRITES else ""


EXPECTED: dict[str, Callable[[str, Input], object]] = {
    "claude": _claude,
    "codebuddy": _claude,
    "copilot_vscode": _claude,
    "codex": _codex,
    "droid": _droid,
    "auggie": _auggie,
    "trae": _trae,
    "copilot": _copilot,
    "cursor": _cursor,
    "gemini": _gemini,
    "vibe": _vibe,
    "antigravity": _antigravity,
    "qwen": _deny_and_suggest_pretooluse,  # qwen and kimi drop updatedInput
    "kimi": _deny_and_suggest_pretooluse,
    "cline": _cline,
    "grok": _deny_and_suggest,  # grok and openhands ignore updatedInput
    "openhands": _deny_and_suggest,
    "windsurf": _exit_block,  # Cascade's pre_run_command can only block (exit 2)
    "kiro": _exit_block,  # Kiro CLI's preToolUse: exit 2 blocks, stderr to the model
}


def expected_reply(agent: str, kind: str, new_input: Input, new: str) -> object:
    """The reply an agent must get; "" means empty stdout."""
    expected = EXPECTED.get(agent)
    if expected is None:
        raise AssertionError(agent)
    return expected(kind, new_input)


def _parsed(outcome: Outcome) -> object:
    return json.loads(outcome.reply) if outcome.reply else ""


def _new_input(agent: str, payload: dict[str, Any], new: str) -> dict[str, Any]:
    if agent == "copilot":
        args = dict(json.loads(payload["toolArgs"]))
        args["command"] = new
        return args
    if agent == "antigravity":
        return dict(payload["toolCall"]["args"], CommandLine=new)
    if agent == "cline":
        return {"commands": [new]}
    if agent == "grok":
        return dict(payload["toolInput"], command=new)
    if agent == "windsurf":
        return dict(payload["tool_info"], command_line=new)
    return dict(payload["tool_input"], command=new)


@pytest.fixture
def project(tmp_path: Path, isolated_home: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A git project; Claude, CodeBuddy, Droid, Cursor and Gemini rules: allow git status,
    ask git log, deny git push (Droid: deny only; Cursor and Gemini: no ask list)."""
    monkeypatch.setenv("RTOK_BIN", "rtok")
    root = tmp_path / "project"
    (root / ".git").mkdir(parents=True)
    for folder in (".claude", ".codebuddy"):
        (isolated_home / folder).mkdir()
        (isolated_home / folder / "settings.json").write_text(
            json.dumps(
                {
                    "permissions": {
                        "allow": ["Bash(git status:*)"],
                        "ask": ["Bash(git log:*)"],
                        "deny": ["Bash(git push:*)"],
                    }
                }
            )
        )
    factory = isolated_home / ".factory"
    factory.mkdir()
    (factory / "settings.json").write_text(json.dumps({"commandBlocklist": ["git push"]}))
    gemini = isolated_home / ".gemini"
    gemini.mkdir()
    (gemini / "settings.json").write_text(
        json.dumps(
            {
                "tools": {
                    "allowed": ["run_shell_command(git status)"],
                    "exclude": ["run_shell_command(git push)"],
                }
            }
        )
    )
    cursor = isolated_home / ".cursor"
    cursor.mkdir()
    (cursor / "cli-config.json").write_text(
        json.dumps({"permissions": {"allow": ["Shell(git status)"], "deny": ["Shell(git push)"]}})
    )
    return root


RULED = {"claude", "codebuddy", "copilot", "droid", "cursor", "gemini", "grok"}


def _run(
    agent: str, command: str, cwd: Path, verdict: str | None = None
) -> tuple[Outcome, dict[str, Any]]:
    payload = shell_payload(agent, command, str(cwd))
    return respond(PROTOCOLS[agent], payload, os.environ, verdict=verdict), payload


@pytest.mark.parametrize("agent", HOOK_AGENTS)
def test_rewrite_with_allow(agent: str, project: Path) -> None:
    # Agents with rules: a real allow rule. Hosts that own approval: forced verdict.
    forced = None if agent in ("claude", "codebuddy", "copilot", "cursor", "gemini") else "allow"
    outcome, payload = _run(agent, "git status", project, forced)
    new = "rtok run git status"
    assert outcome.kind == "allow_rewrite"
    assert outcome.rewritten == new
    assert _same(
        _parsed(outcome),
        expected_reply(agent, "allow_rewrite", _new_input(agent, payload, new), new),
    )


@pytest.mark.parametrize("agent", HOOK_AGENTS)
def test_rewrite_with_ask(agent: str, project: Path) -> None:
    forced = None if agent in ("claude", "codebuddy", "copilot") else "ask"
    outcome, payload = _run(agent, "git log -n 3", project, forced)
    new = "rtok run git log -n 3"
    assert outcome.kind == "ask_rewrite"
    assert _same(
        _parsed(outcome),
        expected_reply(agent, "ask_rule_rewrite", _new_input(agent, payload, new), new),
    )


@pytest.mark.parametrize("agent", HOOK_AGENTS)
def test_rewrite_without_rules_never_allows(agent: str, project: Path) -> None:
    outcome, payload = _run(agent, "git diff --stat", project)
    new = "rtok run git diff --stat"
    assert outcome.kind == "ask_rewrite"
    assert _same(
        _parsed(outcome), expected_reply(agent, "ask_rewrite", _new_input(agent, payload, new), new)
    )


@pytest.mark.parametrize("agent", HOOK_AGENTS)
def test_deny(agent: str, project: Path) -> None:
    forced = None if agent in RULED else "deny"
    outcome, payload = _run(agent, "git push origin main", project, forced)
    assert outcome.kind == "deny"
    assert outcome.rewritten == ""
    assert _same(_parsed(outcome), expected_reply(agent, "deny", payload, ""))


@pytest.mark.parametrize("agent", sorted(RULED))
def test_deny_found_through_wrappers(agent: str, project: Path) -> None:
    for command in (
        "FOO=1 git push",
        "timeout 5 git push",
        "env git push",
        "git status && git push",
        "git status\ngit push",
    ):
        outcome, _ = _run(agent, command, project)
        assert outcome.kind == "deny", command


@pytest.mark.parametrize("agent", sorted(RULED - {"droid"}))
def test_deny_inside_shell_script_defers(agent: str, project: Path) -> None:
    outcome, _ = _run(agent, "bash -c 'git push'", project)
    assert outcome.kind == "defer"
    assert _parsed(outcome) == expected_reply(agent, "defer", {}, "")


@pytest.mark.parametrize("agent", [agent for agent in HOOK_AGENTS if agent not in RULED])
def test_hosts_without_rules_ignore_claude_rules(agent: str, project: Path) -> None:
    outcome, _ = _run(agent, "git push", project)
    assert outcome.kind == "ask_rewrite"


@pytest.mark.parametrize("agent", HOOK_AGENTS)
def test_passthrough_when_nothing_to_rewrite(agent: str, project: Path) -> None:
    for command in ("cd /tmp", "vim notes.txt", "git status $(whoami)", "rtok run git status"):
        outcome, _ = _run(agent, command, project)
        assert outcome.kind == "defer", command
        assert outcome.reply == PROTOCOLS[agent]["no_opinion"]
        assert _parsed(outcome) == expected_reply(agent, "defer", {}, "")


@pytest.mark.parametrize("agent", HOOK_AGENTS)
def test_foreign_tool_passes_through(agent: str, project: Path) -> None:
    outcome = respond(PROTOCOLS[agent], foreign_payload(agent, str(project)), os.environ)
    assert outcome.reply == PROTOCOLS[agent]["no_opinion"]
    assert outcome.kind in ("passthrough", "unknown_shape")


def test_whole_tool_input_is_kept(project: Path) -> None:
    payload = shell_payload("claude", "git status", str(project))
    payload["tool_input"].update(timeout=120000, run_in_background=False, extra={"nested": [1, 2]})
    outcome = respond(PROTOCOLS["claude"], payload, os.environ)
    updated = json.loads(outcome.reply)["hookSpecificOutput"]["updatedInput"]
    assert updated == dict(payload["tool_input"], command="rtok run git status")


def test_codex_gets_absolute_rtok(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("RTOK_BIN")
    outcome, _ = _run("codex", "git status", project)
    command = json.loads(outcome.reply)["hookSpecificOutput"]["updatedInput"]["command"]
    program = command.split(" run ", 1)[0]
    assert program.startswith("/") and program.endswith("/rtok"), command


def test_rtok_bin_with_spaces_is_quoted(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RTOK_BIN", "/opt/my tools/rtok")
    outcome, _ = _run("claude", "git status", project)
    assert outcome.rewritten == "'/opt/my tools/rtok' run git status"


def test_ask_rule_found_through_a_wrapper_still_asks(project: Path) -> None:
    outcome, _ = _run("claude", "timeout 9 git log", project)
    reply = json.loads(outcome.reply)["hookSpecificOutput"]
    assert reply["permissionDecision"] == "ask"
    assert reply["updatedInput"]["command"] == "timeout 9 rtok run git log"


def test_copilot_vscode_snake_case(project: Path) -> None:
    tool_input: JsonObject = {"command": "git status", "explanation": "e", "isBackground": False}
    payload: JsonObject = {
        "hook_event_name": "PreToolUse",
        "session_id": "s",
        "timestamp": "t",
        "cwd": str(project),
        "tool_name": "run_in_terminal",
        "tool_use_id": "u",
        "tool_input": tool_input,
    }
    outcome = respond(PROTOCOLS["copilot"], payload, os.environ)
    new_input = dict(tool_input, command="rtok run git status")
    assert _same(json.loads(outcome.reply), _claude_like(new_input, "allow"))
    # VS Code feeds every tool call to Claude-format hooks: other tools pass through.
    payload["tool_name"] = "read_file"
    assert respond(PROTOCOLS["copilot"], payload, os.environ).reply == ""


def test_copilot_cli_args_as_object(project: Path) -> None:
    payload: JsonObject = {
        "sessionId": "s",
        "timestamp": 1,
        "cwd": str(project),
        "toolName": "bash",
        "toolArgs": {"command": "git log -n 1", "description": "d"},
    }
    reply = json.loads(respond(PROTOCOLS["copilot"], payload, os.environ).reply)
    assert reply["modifiedArgs"] == {"command": "rtok run git log -n 1", "description": "d"}
    assert reply["permissionDecision"] == "ask"  # the user's ask rule for git log
    payload["toolArgs"] = {"command": "git diff", "description": "d"}
    reply = json.loads(respond(PROTOCOLS["copilot"], payload, os.environ).reply)
    assert reply["modifiedArgs"]["command"] == "rtok run git diff"
    assert "permissionDecision" not in reply  # no rule: Copilot's own approval decides


def test_vibe_bare_tool_name(project: Path) -> None:
    payload = shell_payload("vibe", "git status", str(project))
    payload["tool_name"] = "bash"
    reply = json.loads(respond(PROTOCOLS["vibe"], payload, os.environ).reply)
    assert reply["hook_specific_output"]["tool_input"]["command"] == "rtok run git status"


def test_antigravity_other_command_keys(project: Path) -> None:
    for key in ("command", "cmd"):
        payload: JsonObject = {"toolCall": {"name": "run_command", "args": {key: "git status"}}}
        reply = json.loads(
            respond(PROTOCOLS["antigravity"], payload, os.environ, cwd=str(project)).reply
        )
        assert reply["overwrite"] == {key: "rtok run git status"}


def test_qwen_suggests_and_lets_the_rewrite_through(project: Path) -> None:
    outcome, _ = _run("qwen", "git status", project)
    reason = json.loads(outcome.reply)["hookSpecificOutput"]["permissionDecisionReason"]
    assert "`rtok run git status`" in reason
    again, _ = _run("qwen", "rtok run git status", project)
    assert again.reply == ""


def test_cline_decides_each_command(project: Path) -> None:
    payload = shell_payload("cline", "git status", str(project))
    payload["tool_call"]["input"] = {
        "commands": ["git status", "cd /tmp", "git log -n 2"],
        "timeout": 5,
    }
    reply = json.loads(respond(PROTOCOLS["cline"], payload, os.environ).reply)
    assert reply == {
        "cancel": False,
        "overrideInput": {
            "commands": ["rtok run git status", "cd /tmp", "rtok run git log -n 2"],
            "timeout": 5,
        },
    }


@pytest.mark.parametrize("agent", ["grok", "openhands"])
def test_deny_and_suggest_names_the_command_and_lets_it_through(agent: str, project: Path) -> None:
    outcome, _ = _run(agent, "git diff --stat", project)
    reply = json.loads(outcome.reply)
    assert reply["decision"] == "deny"
    assert "`rtok run git diff --stat`" in reply["reason"]
    assert "\n" not in reply["reason"]
    again, _ = _run(agent, "rtok run git diff --stat", project)
    assert again.reply == ""


def test_grok_leaves_a_command_with_an_ask_rule_to_grok(project: Path) -> None:
    # The fixture's Claude rule asks about git log; Grok merges it and would not ask about
    # a suggested `rtok run git log`, so rtok says nothing and Grok asks.
    outcome, _ = _run("grok", "git log -n 3", project)
    assert (outcome.kind, outcome.reply) == ("deny", "")


def test_grok_truncated_input_passes_through(project: Path) -> None:
    # Grok says when it cut the tool input for the hook: the command may be cut too.
    payload = grok_payload("git diff", str(project))
    payload["toolInputTruncated"] = True
    outcome = respond(PROTOCOLS["grok"], payload, os.environ)
    assert (outcome.kind, outcome.reply) == ("passthrough", "")
    payload["toolInputTruncated"] = "yes"  # only a real true counts
    assert respond(PROTOCOLS["grok"], payload, os.environ).rewritten == "rtok run git diff"


def test_openhands_input_to_a_running_command_passes_through(project: Path) -> None:
    payload = shell_payload("openhands", "git status", str(project))
    payload["tool_input"]["is_input"] = True
    assert respond(PROTOCOLS["openhands"], payload, os.environ).reply == ""


@pytest.mark.parametrize("agent", ["claude", "cursor"])
def test_hooks_grok_borrows_leave_its_payload_unanswered(agent: str, project: Path) -> None:
    # Grok runs the hooks in Claude's settings and Cursor's hooks.json with its own
    # camelCase payload; only rtok's Grok hook answers it.
    outcome = respond(PROTOCOLS[agent], grok_payload("git status", str(project)), os.environ)
    assert outcome.kind == "unknown_shape"
    assert outcome.reply == PROTOCOLS[agent]["no_opinion"]
    answer = respond(PROTOCOLS["grok"], grok_payload("git status", str(project)), os.environ)
    assert answer.kind == "allow_rewrite"  # the Claude allow rule Grok also reads
    assert json.loads(answer.reply)["decision"] == "deny"


def test_codebuddy_reads_its_own_rules_not_claudes(project: Path, isolated_home: Path) -> None:
    (isolated_home / ".codebuddy" / "settings.json").write_text(
        json.dumps({"permissions": {"deny": ["Bash(git diff:*)"]}})
    )
    assert _run("codebuddy", "git diff", project)[0].kind == "deny"
    assert _run("codebuddy", "git push", project)[0].kind == "ask_rewrite"
    # A project's own .codebuddy/settings.local.json counts too.
    (project / ".codebuddy").mkdir()
    (project / ".codebuddy" / "settings.local.json").write_text(
        json.dumps({"permissions": {"allow": ["Bash(git log:*)"]}})
    )
    assert _run("codebuddy", "git log", project)[0].kind == "allow_rewrite"


def test_event_of_another_hook_passes_through(project: Path) -> None:
    payload = shell_payload("claude", "git status", str(project))
    payload["hook_event_name"] = "PostToolUse"
    assert respond(PROTOCOLS["claude"], payload, os.environ).reply == ""


@pytest.mark.parametrize("agent", HOOK_AGENTS)
@pytest.mark.parametrize(
    "payload",
    [
        None,
        {},
        {"tool_name": 5},
        {"tool_name": "Bash", "tool_input": "git status"},
        {"tool_name": "Bash", "tool_input": {"command": ["git", "status"]}},
        {"tool_name": "Bash", "tool_input": {"command": None}},
        {"toolName": "bash", "toolArgs": "{not json"},
        {"toolCall": {"name": "run_command", "args": []}},
        {"tool_call": {"name": "run_commands", "input": {"commands": [1, 2]}}},
        {"tool_call": {"name": "run_commands", "input": {"commands": []}}},
    ],
)
def test_wrong_shapes_get_no_opinion(
    agent: str, payload: dict[str, Any] | None, project: Path
) -> None:
    outcome = respond(PROTOCOLS[agent], payload, os.environ, cwd=str(project))
    assert outcome.reply == PROTOCOLS[agent]["no_opinion"]


def test_deny_of_a_command_without_rewrite_still_renders_where_it_shows(project: Path) -> None:
    # Gemini shows a deny; a deny rule on a command rtok would not rewrite must still show.
    outcome, _ = _run("gemini", "cd /tmp", project, "deny")
    assert outcome.kind == "deny"
    assert json.loads(outcome.reply)["decision"] == "deny"


def test_rules_are_not_read_for_commands_without_rewrite(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # A malformed settings file is only reported when its rules could matter.
    (project / ".claude").mkdir()
    (project / ".claude" / "settings.json").write_text("{oops")
    outcome, _ = _run("claude", "cd /tmp", project)
    assert outcome.reply == ""
    assert "warning" not in capsys.readouterr().err
    # Rules the user wrote but rtok cannot read: nothing is rewritten, the host decides.
    outcome, _ = _run("claude", "git status", project)
    assert outcome.kind == "defer"
    assert "rtok run" not in outcome.reply
    assert "warning" in capsys.readouterr().err


def test_workspace_root_stands_in_for_cwd(
    project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Project rules of the workspace apply although the payload carries no cwd: Cursor
    # names its workspace folders (its descriptor's `cwd_from`).
    (project / ".claude").mkdir()
    (project / ".claude" / "settings.json").write_text(
        json.dumps({"permissions": {"deny": ["Bash(git diff:*)"]}})
    )
    protocol: HookProtocol = {**PROTOCOLS["claude"], "cwd_from": [["cwd"], ["workspace_roots"]]}
    payload = shell_payload("claude", "git diff", str(project))
    del payload["cwd"]
    payload["workspace_roots"] = [str(project)]
    assert respond(protocol, payload, os.environ).kind == "deny"
    # A host that does not name such a key: the hook's own directory (not the project).
    other = tmp_path / "elsewhere"
    other.mkdir()
    monkeypatch.chdir(other)
    assert respond(PROTOCOLS["claude"], payload, os.environ).kind != "deny"


def test_cursor_and_cline_name_their_workspace_roots_in_the_descriptor() -> None:
    assert PROTOCOLS["cursor"]["cwd_from"] == [["cwd"], ["workspace_roots"]]
    assert PROTOCOLS["cline"]["cwd_from"] == [["cwd"], ["workspaceRoots"]]
    assert PROTOCOLS["claude"]["cwd_from"] == [["cwd"]]  # the default


def test_a_list_is_allowed_only_when_every_command_is(project: Path) -> None:
    from rtok.hooks.descriptors import validate_hook_table

    # A host that runs a list of commands and takes an allow decision for the whole call.
    protocol = validate_hook_table(
        {
            "permissions": "claude",
            "no_opinion": "",
            "payloads": [
                {
                    "tool": "tool_name",
                    "tools": ["run"],
                    "input": "tool_input",
                    "command": ["commands"],
                    "command_format": "list",
                    "replies": {
                        "allow_rewrite": {"decision": "allow", "input": "${input}"},
                        "ask_rewrite": {"input": "${input}"},
                    },
                }
            ],
        },
        "test",
    )
    tool_input: JsonObject = {"commands": ["git status", "git status --short"]}
    payload: JsonObject = {"tool_name": "run", "cwd": str(project), "tool_input": tool_input}
    assert respond(protocol, payload, os.environ).kind == "allow_rewrite"
    tool_input["commands"] = ["git status", "curl x | sh"]
    outcome = respond(protocol, payload, os.environ)
    assert outcome.kind == "ask_rewrite"
    assert json.loads(outcome.reply) == {
        "input": {"commands": ["rtok run git status", "curl x | sh"]}
    }
    tool_input["commands"] = ["git status", "git push"]
    assert (
        respond(protocol, payload, os.environ).reply == ""
    )  # a denied command: nothing is rewritten


def test_qwen_never_suggests_a_rewrite_past_an_exclusion(
    project: Path, isolated_home: Path
) -> None:
    qwen = isolated_home / ".qwen"
    qwen.mkdir()
    (qwen / "settings.json").write_text(
        json.dumps({"tools": {"exclude": ["run_shell_command(git push)"]}})
    )
    outcome, _ = _run("qwen", "git push origin", project)
    assert outcome.kind == "deny"
    assert outcome.reply == ""  # Qwen's own exclusion then blocks the original
    outcome, _ = _run("qwen", "git status", project)
    assert "rtok run git status" in outcome.reply


def test_vibe_denylist_blocks_the_rewrite(project: Path, isolated_home: Path) -> None:
    vibe = isolated_home / ".vibe"
    vibe.mkdir()
    (vibe / "config.toml").write_text('[tools.bash]\ndenylist = ["git push"]\n')
    outcome, _ = _run("vibe", "FOO=1 git push origin", project)
    assert outcome.kind == "deny"
    assert json.loads(outcome.reply)["decision"] == "deny"
    outcome, _ = _run("vibe", "git status", project)
    assert outcome.kind == "ask_rewrite"


def test_codex_leaves_commands_its_rules_forbid_or_prompt(
    project: Path, isolated_home: Path
) -> None:
    rules = isolated_home / ".codex" / "rules"
    rules.mkdir(parents=True)
    (rules / "default.rules").write_text(
        'prefix_rule(pattern=["git", "push"], decision="forbidden")\n'
        'prefix_rule(pattern=["git", "log"], decision="prompt")\n'
    )
    for command in ("git push origin", "timeout 5 git push", "git log -n 3"):
        outcome, _ = _run("codex", command, project)
        assert outcome.kind == "deny", command
        assert outcome.reply == ""  # Codex's own rule then judges the original
    outcome, _ = _run("codex", "git status", project)
    assert outcome.kind == "ask_rewrite"


def test_kimi_suggests_the_exact_rewritten_command(project: Path) -> None:
    outcome, _ = _run("kimi", "git log -n 3", project)
    reason = json.loads(outcome.reply)["hookSpecificOutput"]["permissionDecisionReason"]
    assert "`rtok run git log -n 3`" in reason and "\n" not in reason
    again, _ = _run("kimi", "rtok run git log -n 3", project)
    assert again.kind == "defer" and again.reply == ""


def test_auggie_keeps_wait_and_leaves_background_launches_alone(project: Path) -> None:
    outcome, payload = _run("auggie", "git status", project)
    updated = json.loads(outcome.reply)["hookSpecificOutput"]["updatedInput"]
    assert updated == dict(payload["tool_input"], command="rtok run git status")
    payload["tool_input"]["wait"] = False  # Auggie then reads the output later
    assert respond(PROTOCOLS["auggie"], payload, os.environ).reply == ""


@pytest.mark.parametrize(
    ("agent", "key"),
    [("claude", "run_in_background"), ("gemini", "is_background"), ("qwen", "is_background")],
)
def test_background_runs_pass_through(agent: str, key: str, project: Path) -> None:
    # `rtok run` prints when the command ends; a dev server's output must keep streaming.
    payload = shell_payload(agent, "npm test", str(project))
    payload["tool_input"][key] = True
    outcome = respond(PROTOCOLS[agent], payload, os.environ)
    assert outcome.reply == PROTOCOLS[agent]["no_opinion"]
    payload["tool_input"][key] = False
    assert respond(PROTOCOLS[agent], payload, os.environ).kind == "ask_rewrite"


def test_vscode_background_terminal_passes_through(project: Path) -> None:
    tool_input: JsonObject = {"command": "npm test", "explanation": "e", "isBackground": True}
    payload: JsonObject = {
        "hook_event_name": "PreToolUse",
        "cwd": str(project),
        "tool_name": "run_in_terminal",
        "tool_input": tool_input,
    }
    assert respond(PROTOCOLS["copilot"], payload, os.environ).reply == ""
    tool_input["isBackground"] = False
    assert respond(PROTOCOLS["copilot"], payload, os.environ).kind == "ask_rewrite"


def test_auggie_leaves_commands_its_own_rules_judge(project: Path, isolated_home: Path) -> None:
    settings = isolated_home / ".augment" / "settings.json"
    settings.parent.mkdir()
    settings.write_text(
        json.dumps(
            {
                "toolPermissions": [
                    {
                        "toolName": "launch-process",
                        "shellInputRegex": "^git push",
                        "permission": {"type": "deny"},
                    }
                ]
            }
        )
    )
    outcome, _ = _run("auggie", "git push origin", project)
    assert outcome.kind == "deny" and outcome.reply == ""  # Auggie's rule sees the original
    outcome, _ = _run("auggie", "git status", project)
    assert outcome.kind == "ask_rewrite" and "rtok run git status" in outcome.reply


def test_kimi_never_suggests_a_rewrite_past_its_own_rule(
    project: Path, isolated_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("KIMI_CODE_HOME", raising=False)
    config = isolated_home / ".kimi-code" / "config.toml"
    config.parent.mkdir()
    config.write_text('[permission]\ndeny = [{ tool = "Bash", match = "git push*" }]\n')
    outcome, _ = _run("kimi", "git push origin", project)
    assert outcome.kind == "deny" and outcome.reply == ""  # Kimi's rule judges the original
    outcome, _ = _run("kimi", "git status", project)
    assert "`rtok run git status`" in outcome.reply
