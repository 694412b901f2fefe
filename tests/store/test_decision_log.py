"""The hook decision log: real `rtok hook` subprocesses write it; caps, age, privacy, and a
broken log never changing the hook's answer."""

from __future__ import annotations

import json
import os
import stat
import time
from pathlib import Path

from rtok import paths
from rtok.store import decision_history, decisions
from rtok_testing import run_rtok
from rtok_testing.samples import foreign_payload, shell_payload


def _hook(agent: str, payload: object, env: dict[str, str] | None = None) -> str:
    result = run_rtok(["hook", agent], input=json.dumps(payload), env=env, timeout=20)
    assert result.returncode == 0
    return result.stdout.decode()


def _claude_rules(home: Path, **rules: list[str]) -> None:
    (home / ".claude").mkdir(exist_ok=True)
    (home / ".claude" / "settings.json").write_text(json.dumps({"permissions": rules}))


def test_each_verdict_is_logged_with_ids_and_reason(tmp_path: Path, isolated_home: Path) -> None:
    _claude_rules(
        isolated_home,
        allow=["Bash(git status:*)"],
        deny=["Bash(git log:*)"],
        ask=["Bash(git diff:*)"],
    )
    cwd = str(tmp_path)
    _hook("claude", shell_payload("claude", "git status", cwd))
    _hook("claude", shell_payload("claude", "git log -n 3", cwd))
    _hook("claude", shell_payload("claude", "git diff", cwd))
    _hook("claude", shell_payload("claude", "cargo build", cwd))
    _hook("claude", shell_payload("claude", "echo hello", cwd))
    _hook("claude", foreign_payload("claude", cwd))
    run_rtok(["hook", "claude"], input=b"not json")
    found = list(decision_history.read())
    assert [(d["command"], d["verdict"]) for d in found] == [
        ("git status", "rewritten"),
        ("git log -n 3", "denied"),
        ("git diff", "asked"),
        ("cargo build", "rewritten"),
        ("echo hello", "no_opinion"),
        ("", "no_opinion"),
        ("", "no_opinion"),
    ]
    first = found[0]
    assert first["agent"] == "claude" and first["session"] == "s1"
    assert first["call"] == "toolu_1" and first["cwd"] == cwd and first["tool"] == "Bash"
    assert first["why"] == "allow" and str(first["rewritten"]).endswith("run git status")
    assert found[1]["why"] == "deny" and found[1]["rewritten"] == ""
    assert found[3]["why"] == "default"
    assert [d["why"] for d in found[5:]] == ["passthrough", "unreadable"]
    assert stat.S_IMODE(os.stat(decisions.log_path()).st_mode) == 0o600
    assert stat.S_IMODE(os.stat(paths.data_dir()).st_mode) == 0o700


def test_other_agents_ids_are_read_from_their_own_keys(tmp_path: Path) -> None:
    _hook("kimi", shell_payload("kimi", "git status", str(tmp_path)))
    _hook("copilot", shell_payload("copilot", "git status", str(tmp_path)))
    kimi, copilot = decision_history.read()
    assert (kimi["agent"], kimi["session"], kimi["call"]) == ("kimi", "s", "call_1")
    assert (copilot["agent"], copilot["session"]) == ("copilot", "s")


def test_a_broken_log_never_changes_the_answer(tmp_path: Path) -> None:
    payload = shell_payload("claude", "git status", str(tmp_path))
    expected = _hook("claude", payload, {"RTOK_DECISION_LOG": "0"})
    assert "run git status" in expected and not os.path.exists(decisions.log_path())
    # A directory where the file should be, then a FIFO (opening it must not wait for a
    # reader), then garbage in the file: the same reply every time.
    os.makedirs(decisions.log_path())
    assert _hook("claude", payload) == expected
    os.rmdir(decisions.log_path())
    os.mkfifo(decisions.log_path())
    assert _hook("claude", payload) == expected
    os.unlink(decisions.log_path())
    Path(decisions.log_path()).write_bytes(os.urandom(3000))
    assert _hook("claude", payload) == expected
    assert [d["command"] for d in decision_history.read()] == ["git status"]


def test_size_cap_rotates_and_bounds_the_log() -> None:
    line = decisions.line_for(
        "claude",
        {"session_id": "s"},
        "/p",
        "Bash",
        "x" * 900,
        "allow_rewrite",
        "allow",
        "rtok run " + "x" * 900,
    )
    for _ in range(3 * decisions.MAX_BYTES // len(line)):
        decisions.append(line)
    current = os.path.getsize(decisions.log_path())
    rotated = os.path.getsize(decisions.log_path() + ".1")
    assert current <= decisions.MAX_BYTES + len(line)
    assert decisions.MAX_BYTES < rotated <= decisions.MAX_BYTES + len(line)
    assert stat.S_IMODE(os.stat(decisions.log_path() + ".1").st_mode) == 0o600


def test_age_cap_readers_skip_and_prune_drops_old_lines() -> None:
    now = time.time()
    old = now - (decisions.MAX_AGE_DAYS + 1) * 86400
    decisions.append(
        decisions.line_for("claude", None, "/p", "Bash", "old", "deny", "deny", "", now=old)
    )
    decisions.append(b"torn line\n")
    decisions.append(
        decisions.line_for("claude", None, "/p", "Bash", "new", "deny", "deny", "", now=now)
    )
    assert [d["command"] for d in decision_history.read()] == ["new"]
    assert decision_history.prune() == 2
    assert Path(decisions.log_path()).read_bytes().count(b"\n") == 1
    assert stat.S_IMODE(os.stat(decisions.log_path()).st_mode) == 0o600
    assert decision_history.prune() == 0
