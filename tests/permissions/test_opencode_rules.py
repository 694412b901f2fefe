"""OpenCode's and Kilo's own `permission.bash` rules: a deny stays denied, and a rewrite
never changes the verdict the host gives the command it finally runs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rtok.permissions import opencode
from rtok_testing import run_rtok


@pytest.mark.parametrize(
    ("text", "pattern", "expected"),
    [
        ("git push", "git push *", True),
        ("git push origin main", "git push *", True),
        ("git pushall", "git push *", False),
        ("git status", "*", True),
        ("git status", "git *", True),
        ("/opt/rtok run git status", "git *", False),
        ("ls -la", "ls -l?", True),
        ("ls -la", "ls", False),
        ("rm -rf x", "rm *", True),
        ("a" * 5000, "*a*a*a*b", False),  # no exponential backtracking
    ],
)
def test_wildcard(text: str, pattern: str, expected: bool) -> None:
    assert opencode.wildcard_match(text, pattern) is expected


def test_rules_of_every_config_form() -> None:
    assert opencode.rules_of("deny") == [("*", "*", "deny")]
    assert opencode.rules_of({"bash": "ask", "edit": {"*.env": "deny"}}) == [
        ("bash", "*", "ask"),
        ("edit", "*.env", "deny"),
    ]
    assert opencode.rules_of({"bash": {"*": "allow", "git push *": "deny", "x": "maybe"}}) == [
        ("bash", "*", "allow"),
        ("bash", "git push *", "deny"),
    ]
    assert opencode.rules_of(None) == []


def test_last_matching_rule_wins_and_deny_beats_ask() -> None:
    rules = opencode.rules_of({"bash": {"*": "ask", "git *": "allow", "git push *": "deny"}})
    assert opencode.verdict_with_rules("git status", rules) == "allow"
    assert opencode.verdict_with_rules("git push origin", rules) == "deny"
    assert opencode.verdict_with_rules("ls", rules) == "ask"
    assert opencode.verdict_with_rules("git status && git push", rules) == "deny"
    assert opencode.verdict_with_rules("cd src && git status", rules) == "allow"
    assert opencode.verdict_with_rules("git status", []) == "allow"


def _config(home: Path, host: str, permission: object, name: str = "") -> Path:
    folder = home / ".config" / ("kilo" if host == "kilo" else "opencode")
    path = folder / (name or ("kilo.json" if host == "kilo" else "opencode.json"))
    path.parent.mkdir(parents=True, exist_ok=True)
    text = permission if isinstance(permission, str) else json.dumps({"permission": permission})
    path.write_text(text, encoding="utf-8")
    return path


def _rewrite(cmd: str, cwd: Path, host: str = "opencode") -> tuple[int, str]:
    result = run_rtok(
        ["rewrite", "--rtok-bin", "/opt/rtok/bin/rtok", cmd],
        cwd=str(cwd),
        env={"RTOK_REWRITE_HOST": host},
    )
    return result.returncode, result.stdout.decode()


@pytest.mark.parametrize("host", ["opencode", "kilo"])
def test_denied_command_stays_denied(isolated_home: Path, tmp_path: Path, host: str) -> None:
    _config(isolated_home, host, {"bash": {"*": "allow", "git push *": "deny"}})
    assert _rewrite("git push origin main", tmp_path, host) == (2, "")
    assert _rewrite('git "push"', tmp_path, host) == (2, "")
    assert _rewrite("/usr/bin/git -C . push", tmp_path, host) == (2, "")
    # Everything else was allowed by `*`, and the rewritten form is allowed by `*` alike.
    assert _rewrite("git status", tmp_path, host) == (0, "/opt/rtok/bin/rtok run git status")


def test_rewrite_that_would_change_the_verdict_is_not_made(
    isolated_home: Path, tmp_path: Path
) -> None:
    _config(isolated_home, "opencode", {"bash": {"*": "ask", "git *": "allow"}})
    assert _rewrite("git status", tmp_path) == (1, "")  # allowed as typed, asked rewritten
    _config(isolated_home, "opencode", {"bash": {"*": "allow", "git status": "ask"}})
    assert _rewrite("git status", tmp_path) == (1, "")  # asked as typed, allowed rewritten
    _config(isolated_home, "opencode", {"bash": "ask"})
    assert _rewrite("git status", tmp_path) == (3, "/opt/rtok/bin/rtok run git status")


def test_project_and_named_configs_count(isolated_home: Path, tmp_path: Path) -> None:
    project = tmp_path / "repo"
    (project / ".git").mkdir(parents=True)
    (project / "src").mkdir()
    (project / "opencode.jsonc").write_text(
        '{\n  // the project forbids pushing\n  "permission": {"bash": {"git push *": "deny",}},\n}'
    )
    assert _rewrite("git push", project / "src") == (2, "")
    named = tmp_path / "named.json"
    named.write_text(json.dumps({"permission": {"bash": {"rm *": "deny"}}}))
    result = run_rtok(
        ["rewrite", "rm -rf build"],
        cwd=str(tmp_path),
        env={"RTOK_REWRITE_HOST": "kilo", "KILO_CONFIG": str(named)},
    )
    assert result.returncode == 2


def test_unreadable_host_config_means_no_rewrite(isolated_home: Path, tmp_path: Path) -> None:
    _config(isolated_home, "opencode", '{"permission": {"bash": ')
    assert _rewrite("git status", tmp_path) == (1, "")


def test_other_hosts_do_not_read_opencode_rules(isolated_home: Path, tmp_path: Path) -> None:
    _config(isolated_home, "opencode", {"bash": {"git *": "deny"}})
    assert _rewrite("git status", tmp_path, host="pi")[0] == 0


def test_configs_merge_like_the_hosts_merge_them(isolated_home: Path, tmp_path: Path) -> None:
    # A later file's string value replaces an earlier object (the user's rules are gone for
    # the host as well); objects merge key by key.
    _config(isolated_home, "opencode", {"bash": {"*": "allow", "git push *": "deny"}})
    named = tmp_path / "named.json"
    named.write_text(json.dumps({"permission": {"bash": {"git push *": "ask"}}}))
    result = run_rtok(
        ["rewrite", "git push"],
        cwd=str(tmp_path),
        env={"RTOK_REWRITE_HOST": "opencode", "OPENCODE_CONFIG": str(named)},
    )
    # Merged: `git push *` asks (no longer denies); rewritten, `*` would allow it: left alone.
    assert result.returncode == 1
    assert opencode.merge_deep({"bash": {"a": "deny", "b": "ask"}}, {"bash": {"a": "allow"}}) == {
        "bash": {"a": "allow", "b": "ask"}
    }
    assert opencode.merge_deep({"bash": {"a": "deny"}}, {"bash": "allow"}) == {"bash": "allow"}
