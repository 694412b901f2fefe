"""Permission verdicts: the corpus of tricky commands, precedence, and the readers wired in."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rtok.permissions.verdict import verdict_for, verdict_with_rules

ALLOW_ALL_GIT_STATUS = ["git status", "git status:*"]

# Commands that hide something beyond `git status`: never Allow with only git status allowed.
NOT_ALLOWED = [
    "git status && curl x | sh",
    "git status; rm -rf ~",
    "git status || rm -rf ~",
    "git status | sh",
    "git status & rm -rf ~",
    "git status\nrm -rf ~",
    "git status\r\nrm -rf ~",
    'git status "$(rm -rf ~)"',
    "git status $(rm -rf ~)",
    "git status `rm -rf ~`",
    'git status "`rm -rf ~`"',
    "git status <(rm -rf ~)",
    "git status > /etc/passwd",
    "git status && bash -c 'rm -rf ~'",
    "FOO=1 git status",
    "timeout 5 git status",
    "env git status",
    "bash -c 'git status'",
    "(git status; rm -rf ~)",
    "{ git status; rm -rf ~; }",
    "git status <<EOF\nx\nEOF",
    "git status $'\\x41'",
    "git status $((1+1))",
    "eval 'git status'",
]


@pytest.mark.parametrize("command", NOT_ALLOWED)
def test_never_allow_unless_every_segment_is_allowed(command: str) -> None:
    assert verdict_with_rules(command, [], [], ALLOW_ALL_GIT_STATUS) != "allow"


@pytest.mark.parametrize(
    "command",
    ["git status", "git status --short", "git status && git status", "git status | git status"],
)
def test_allow_when_every_segment_is_allowed(command: str) -> None:
    assert verdict_with_rules(command, [], [], ALLOW_ALL_GIT_STATUS) == "allow"


DENIED = [
    "git push",
    "FOO=1 git push",
    "FOO=1 BAR=2 git push origin",
    "FOO+=1 git push",
    "env FOO+=1 git push",
    "timeout 5 git push",
    "timeout -s KILL 5 git push",
    "env git push",
    "env -i PATH=/bin git push",
    "nice -n 10 git push",
    "nohup git push",
    "time git push",
    "command git push",
    "sudo git push",
    "git status && git push",
    "git status; git push",
    "git status\ngit push",
    "git status | git push",
    'echo "$(git push)"',
    "echo `git push`",
    "{ git push; }",
    "! git push",
    "(git push)",
    "if true; then git push; fi",
    "git push > /tmp/out 2>&1",
]


@pytest.mark.parametrize("command", DENIED)
def test_deny_rules_are_found_through_prefixes_and_wrappers(command: str) -> None:
    assert verdict_with_rules(command, ["git push:*"], [], ["*"]) == "deny"


@pytest.mark.parametrize(
    "command",
    [
        "bash -c 'git push'",
        'sh -c "git status; git push"',
        "timeout 5 bash -lc 'git push'",
        "eval 'git push'",
        "zsh -c 'FOO=1 git push'",
    ],
)
def test_deny_inside_a_shell_script_defers(command: str) -> None:
    assert verdict_with_rules(command, ["git push:*"], [], ["*"]) == "defer"


def test_direct_deny_wins_over_the_same_command_in_a_script() -> None:
    assert verdict_with_rules("git push; bash -c 'git push'", ["git push"], [], []) == "deny"


def test_deny_is_not_fooled_by_lookalikes() -> None:
    for command in ("git pushall", "echo git push", "grep 'git push' notes.txt"):
        assert verdict_with_rules(command, ["git push"], [], []) == "default", command


def test_precedence() -> None:
    # deny > ask > allow > default
    assert verdict_with_rules("git push", ["git push"], ["git push"], ["git push"]) == "deny"
    assert verdict_with_rules("git push", [], ["git push"], ["git push"]) == "ask"
    assert verdict_with_rules("git push", [], [], ["git push"]) == "allow"
    assert verdict_with_rules("git push", [], [], []) == "default"


def test_ask_found_through_wrappers_and_segments() -> None:
    for command in ("FOO=1 git push", "git status && git push", "timeout 3 git push"):
        assert verdict_with_rules(command, [], ["git push"], ["*"]) == "ask", command


def test_unattestable_is_at_most_ask() -> None:
    assert verdict_with_rules('git log "$(whoami)"', [], [], ["*"]) == "ask"
    assert verdict_with_rules("cat <<EOF\nhi\nEOF", [], [], ["*"]) == "ask"
    # ... and a deny inside it is still found.
    assert verdict_with_rules('git log "$(git push)"', ["git push"], [], ["*"]) == "deny"


def test_empty_command_is_default() -> None:
    assert verdict_with_rules("", [], [], ["*"]) == "default"
    assert verdict_with_rules("   \n ", [], [], ["*"]) == "default"


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            [
                "git status",
                "ls -la",
                "rm -rf ~",
                "curl x",
                "FOO=1 git status",
                "sh",
                "bash -c 'rm x'",
                "git push",
            ]
        ),
        min_size=1,
        max_size=4,
    ),
    st.lists(st.sampled_from(["&&", "||", ";", "|", "\n", "&"]), min_size=3, max_size=3),
)
def test_generated_chains_allow_only_when_every_command_is_allowed(
    commands: list[str], operators: list[str]
) -> None:
    text = commands[0]
    for operator, command in zip(operators, commands[1:], strict=False):
        text += f" {operator} {command}"
    allowed = {"git status", "ls -la"}
    verdict = verdict_with_rules(text, [], [], ["git status", "ls -la"])
    assert (verdict == "allow") == all(command in allowed for command in commands), text


# --- verdict_for with the real readers ---------------------------------------------------


def _claude(home: Path, rules: dict[str, list[str]]) -> None:
    (home / ".claude").mkdir(exist_ok=True)
    (home / ".claude" / "settings.json").write_text(json.dumps({"permissions": rules}))


def test_claude_source(isolated_home: Path, tmp_path: Path) -> None:
    _claude(isolated_home, {"allow": ["Bash(git status)"], "deny": ["Bash(git push)"]})
    assert verdict_for("git status", "claude", str(tmp_path), os.environ) == "allow"
    assert verdict_for("FOO=1 git push", "claude", str(tmp_path), os.environ) == "deny"
    assert verdict_for("git log", "claude", str(tmp_path), os.environ) == "default"


def test_project_rules_join_user_rules(isolated_home: Path, tmp_path: Path) -> None:
    _claude(isolated_home, {"allow": ["Bash(git status)", "Bash(npm test)"]})
    project = tmp_path / "p"
    (project / ".claude").mkdir(parents=True)
    (project / ".claude" / "settings.local.json").write_text(
        json.dumps({"permissions": {"deny": ["Bash(npm test)"]}})
    )
    assert verdict_for("npm test", "claude", str(project), os.environ) == "deny"
    assert verdict_for("npm test", "claude", str(tmp_path), os.environ) == "allow"


def test_hosts_that_own_approval_get_default(isolated_home: Path, tmp_path: Path) -> None:
    _claude(isolated_home, {"deny": ["Bash(git push)"], "allow": ["Bash(git status)"]})
    assert verdict_for("git push", "none", str(tmp_path), os.environ) == "default"
    assert verdict_for("git status", "none", str(tmp_path), os.environ) == "default"


def test_droid_lists_deny_and_never_allow(isolated_home: Path, tmp_path: Path) -> None:
    (isolated_home / ".factory").mkdir()
    (isolated_home / ".factory" / "settings.json").write_text(
        json.dumps({"commandDenylist": ["rm -rf"], "commandAllowlist": ["git status"]})
    )
    assert verdict_for("sudo rm -rf /", "droid", str(tmp_path), os.environ) == "deny"
    assert verdict_for("git status", "droid", str(tmp_path), os.environ) == "default"


def test_script_deny_is_defer_for_hooks_and_deny_for_the_contract(
    isolated_home: Path, tmp_path: Path
) -> None:
    from rtok.permissions.verdict import detailed_verdict

    _claude(isolated_home, {"deny": ["Bash(git push)"], "allow": ["Bash(*)"]})
    assert detailed_verdict("bash -c 'git push'", "claude", str(tmp_path), os.environ) == "defer"
    assert verdict_for("bash -c 'git push'", "claude", str(tmp_path), os.environ) == "deny"


def test_rewrite_cli_never_rewrites_a_script_deny(isolated_home: Path, tmp_path: Path) -> None:
    from rtok_testing import run_rtok

    _claude(isolated_home, {"deny": ["Bash(git push)"]})
    result = run_rtok(["rewrite", "bash -c 'git push'"], cwd=str(tmp_path))
    assert result.returncode == 2
    assert result.stdout == b""


UNATTESTABLE = [
    "$(id)",
    "`id`",
    '"$(id)"',
    "<(id)",
    ">(id)",
    "$((1+2))",
    "<<EOF\nx\nEOF",
    "$'\\x41'",
    "> out.txt",
]


@settings(max_examples=400, deadline=None)
@given(
    st.lists(st.sampled_from(["git status", "ls -la", "echo hi", "cat f"]), min_size=1, max_size=3),
    st.sampled_from(UNATTESTABLE),
    st.integers(min_value=0, max_value=2),
)
def test_unattestable_constructs_are_never_allowed(
    commands: list[str], construct: str, position: int
) -> None:
    index = min(position, len(commands) - 1)
    commands = list(commands)
    commands[index] = f"{commands[index]} {construct}"
    text = " && ".join(commands)
    assert verdict_with_rules(text, [], [], ["*"]) != "allow", text


def test_deny_found_in_find_exec() -> None:
    assert verdict_with_rules("find . -exec rm -rf {} +", ["rm -rf:*"], [], ["*"]) == "deny"
    assert verdict_with_rules("timeout 9 find / -ok rm -rf {} \\;", ["rm -rf:*"], [], []) == "deny"
