"""verify and doctor on what `rtok init` really writes (every agent, real files)."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from rtok.integrity import ArtifactRecord, load_records
from rtok.integrity.doctor import codex_hook_hash
from rtok.integrity.verify import owned_now
from rtok_testing import rtok_entry_point, run_rtok


def _init(*args: str, cwd: Path | None = None, env: dict[str, str] | None = None) -> None:
    result = run_rtok(["init", *args, "--auto-patch"], cwd=str(cwd) if cwd else None, env=env)
    assert result.returncode == 0, result.stdout.decode() + result.stderr.decode()


def _verify(cwd: Path) -> tuple[int, list[dict[str, object]]]:
    result = run_rtok(["verify", "--json"], cwd=str(cwd))
    doc = json.loads(result.stdout)
    assert doc["exit_code"] == result.returncode
    return result.returncode, doc["items"]


def _doctor(*args: str, cwd: Path) -> tuple[int, list[dict[str, object]]]:
    result = run_rtok(["doctor", "--json", *args], cwd=str(cwd), timeout=240)
    return result.returncode, json.loads(result.stdout)["checks"]


@pytest.fixture
def everything_installed(isolated_home: Path) -> Path:
    _init("--all", "-g")
    return isolated_home


def test_fresh_install_is_all_pass(everything_installed: Path) -> None:
    code, items = _verify(everything_installed)
    assert code == 0
    assert {i["level"] for i in items} == {"PASS"}
    kinds = {i["kind"] for i in items if i["check"] == "artifact"}
    assert kinds == {
        "whole_file",
        "settings_entry",
        "awareness_file",
        "awareness_block",
        "trust_entry",
        "reference_line",
    }
    assert any(i["check"] == "hook_command" for i in items)


def test_fresh_project_install_is_all_pass(isolated_home: Path, tmp_path: Path) -> None:
    project = tmp_path / "proj"
    (project / ".git").mkdir(parents=True)
    _init("--agent", "claude", "--agent", "codex", "--agent", "opencode", "--project", cwd=project)
    code, items = _verify(project)
    assert code == 0, [i["message"] for i in items if i["level"] != "PASS"]
    scopes = {i["scope"] for i in items if i["check"] == "artifact"}
    assert "project" in scopes  # (Codex's trust entry lives in the user's config.toml)


def _flip_inside_rtoks_bytes(path: str, data: bytes, owned: bytes, kind: str) -> None:
    pos = data.find(owned)
    span = owned
    if pos < 0:  # settings entries are recorded in a normalised form: use the rtok string
        # (rtok's path: an agent file of rtok's own, Kiro's, also holds the word `rtok`)
        pattern = rb"sha256:[0-9a-f]+" if kind == "trust_entry" else rb'[^"\s]*/rtok[^"]*'
        match = re.search(pattern, data)
        assert match is not None, path
        pos, span = match.start(), match.group()
    # Flip a letter of the directory part of rtok's path when there is one: flipping a
    # letter of `rtok` or `hook` would make the entry someone else's (reported missing),
    # and which letter is in the middle depends on where the checkout lives.
    # In the guarded form (`[ -x P ] && exec P hook A || true`) that is the path it runs.
    directory_end = span.rfind(b"/rtok")
    start = pos + span.rfind(b" ", 0, directory_end) + 1 if directory_end > 0 else pos
    end = pos + directory_end if directory_end > 0 else pos + len(span)
    letters = [i for i in range(start, end) if chr(data[i]).isalpha()]
    flipped = bytearray(data)
    flipped[letters[len(letters) // 2]] ^= 0x20
    Path(path).write_bytes(bytes(flipped))


def test_one_flipped_byte_in_each_artifact_is_tampered(everything_installed: Path) -> None:
    records = load_records()
    assert len(records) > 20
    for record in records:
        data = Path(record.path).read_bytes()
        owned, _ = owned_now(record, data)
        assert owned is not None, record
        _flip_inside_rtoks_bytes(record.path, data, owned, record.kind)
    code, items = _verify(everything_installed)
    assert code == 1
    artifacts = [i for i in items if i["check"] == "artifact"]
    assert Counter(i["status"] for i in artifacts) == {"tampered": len(records)}
    assert all(i["expected_sha256"] != i["actual_sha256"] for i in artifacts)


def _undo_edit(record: ArtifactRecord) -> None:
    """Take rtok's edit of RECORD's kind out of its file, as uninstall would."""
    from rtok.install import integrations
    from rtok.integrity import installed

    ctx = installed.context(record.scope, record.project_root)
    edits = integrations.edits_for(record.agent, record.scope, "uninstall", ctx)
    # Codex's config.toml has one trust edit per file its hook may live in.
    matching = [e for e in edits if e.kind == record.kind and e.path == record.path]
    assert matching
    after: bytes | None = Path(record.path).read_bytes()
    for edit in matching:
        after = edit.transform(after)
    if after is None:
        os.unlink(record.path)
    else:
        Path(record.path).write_bytes(after)


def test_each_kind_deleted_is_missing(everything_installed: Path) -> None:
    seen: set[str] = set()
    removed = []
    for record in load_records():
        if record.kind in seen:
            continue
        seen.add(record.kind)
        if record.kind in ("whole_file", "awareness_file"):
            os.unlink(record.path)
        else:
            _undo_edit(record)
        removed.append((record.path, record.kind))
    code, items = _verify(everything_installed)
    assert code == 1
    status = {(i["path"], i["kind"]): i["status"] for i in items if i["check"] == "artifact"}
    for key in removed:
        assert status[key] == "missing", key
    assert len(seen) == 6


def test_no_baseline_when_records_are_lost(everything_installed: Path) -> None:
    from rtok import paths

    os.unlink(paths.integrity_records())
    code, items = _verify(everything_installed)
    assert code == 1
    statuses = Counter(i["status"] for i in items if i["check"] == "artifact")
    assert set(statuses) == {"no_baseline"} and statuses["no_baseline"] > 20


def test_doctor_passes_on_a_fresh_install(everything_installed: Path) -> None:
    code, checks = _doctor(cwd=everything_installed)
    assert code == 0, [c["message"] for c in checks if c["level"] == "FAIL"]
    samples = Counter((c["sample"], c["level"]) for c in checks)
    assert samples[("rewrite", "PASS")] >= 15
    assert samples[("deny", "PASS")] >= 8  # claude, copilot, cursor, droid + plugins
    assert ("codex_trust", "PASS") in samples


def test_doctor_detects_a_removed_binary(isolated_home: Path, tmp_path: Path) -> None:
    venv_bin = tmp_path / "old venv" / "bin"
    venv_bin.mkdir(parents=True)
    copy = venv_bin / "rtok"
    shutil.copy2(rtok_entry_point(), copy)
    _init(
        "--agent",
        "claude",
        "--agent",
        "copilot",
        "--agent",
        "opencode",
        "-g",
        env={"RTOK_BIN": str(copy)},
    )
    code, checks = _doctor(cwd=isolated_home)
    assert code == 0, [c["message"] for c in checks if c["level"] == "FAIL"]
    copy.unlink()
    code, checks = _doctor(cwd=isolated_home)
    assert code == 1
    failed = {(c["agent"], c["sample"]) for c in checks if c["level"] == "FAIL"}
    assert ("claude", "rewrite") in failed
    assert ("copilot", "rewrite") in failed  # its fail-closed guard answers nothing
    assert ("opencode", "rewrite") in failed
    _code, items = _verify(isolated_home)
    assert {i["status"] for i in items if i["check"] == "hook_command"} == {"missing_binary"}


@pytest.mark.parametrize("agent", ["codebuddy", "grok"])
def test_doctor_checks_a_deny_rule_of_the_agents_own(agent: str, isolated_home: Path) -> None:
    # CodeBuddy Code keeps Claude-format rules in .codebuddy/, Grok Build in .grok/config.toml.
    _init("--agent", agent, "-g")
    code, checks = _doctor("--agent", agent, cwd=isolated_home)
    assert code == 0, [c["message"] for c in checks if c["level"] == "FAIL"]
    assert {(c["sample"], c["level"]) for c in checks} >= {("rewrite", "PASS"), ("deny", "PASS")}


def test_doctor_detects_an_entry_edited_to_another_command(isolated_home: Path) -> None:
    _init("--agent", "claude", "-g")
    settings = isolated_home / ".claude" / "settings.json"
    text = settings.read_text()
    command = json.loads(text)["hooks"]["PreToolUse"][0]["hooks"][0]["command"]
    settings.write_text(text.replace(json.dumps(command)[1:-1], "/usr/bin/env true"))
    code, checks = _doctor(cwd=isolated_home)
    assert code == 1
    [entry] = [c for c in checks if c["sample"] == "hook_entry"]
    assert entry["level"] == "FAIL" and "another command" in str(entry["message"])


def test_doctor_detects_an_untrusted_codex_hook(isolated_home: Path) -> None:
    _init("--agent", "codex", "-g")
    code, checks = _doctor("--agent", "codex", cwd=isolated_home)
    assert code == 0
    config = isolated_home / ".codex" / "config.toml"
    text = config.read_text()
    # Remove the trust table rtok wrote: Codex then skips the hook silently.
    stripped = re.sub(r'\[hooks\.state\.[^\]]+\]\ntrusted_hash = "[^"]+"\n?', "", text)
    assert stripped != text
    config.write_text(stripped)
    code, checks = _doctor("--agent", "codex", cwd=isolated_home)
    assert code == 1
    [trust] = [c for c in checks if c["sample"] == "codex_trust"]
    assert trust["level"] == "FAIL" and "not trusted" in str(trust["message"])
    code, items = _verify(isolated_home)
    [hook_trust] = [i for i in items if i["check"] == "hook_trust"]
    assert hook_trust["status"] == "untrusted" and code == 1


def test_doctor_detects_a_modified_plugin(isolated_home: Path) -> None:
    _init("--agent", "opencode", "-g")
    plugin = isolated_home / ".config" / "opencode" / "plugins" / "rtok.ts"
    plugin.write_text(plugin.read_text() + "\n// my tweak\n")
    code, checks = _doctor("--agent", "opencode", cwd=isolated_home)
    assert code == 1
    [stock] = [c for c in checks if c["sample"] == "plugin_file"]
    assert stock["level"] == "FAIL" and "modified" in str(stock["message"])


def test_codex_hash_matches_the_worked_example() -> None:
    assert codex_hook_hash("/usr/local/bin/rtok hook codex", 30, "Bash") == (
        "sha256:9f43bab89ab8164729c020d6c7b424a31c4a3bc4059605c30109be016c60e336"
    )


def test_python_used_is_the_test_interpreter() -> None:
    assert os.path.dirname(rtok_entry_point()) == os.path.dirname(sys.executable)


def test_doctor_still_runs_hooks_when_records_are_lost(isolated_home: Path) -> None:
    from rtok import paths

    _init("--agent", "claude", "-g")
    os.unlink(paths.integrity_records())
    code, checks = _doctor("--agent", "claude", cwd=isolated_home)
    assert code == 0
    assert {(c["sample"], c["level"]) for c in checks} >= {("rewrite", "PASS"), ("deny", "PASS")}


def test_uninstall_forgets_records_and_verify_is_quiet(isolated_home: Path) -> None:
    _init("--agent", "claude", "--agent", "codex", "-g")
    assert {r.agent for r in load_records()} == {"claude", "codex"}
    result = run_rtok(["uninstall", "--agent", "claude", "-g", "--auto-patch"])
    assert result.returncode == 0, result.stderr
    assert {r.agent for r in load_records()} == {"codex"}
    code, items = _verify(isolated_home)
    assert code == 0 and {i["agent"] for i in items} == {"codex"}


def test_doctor_warns_about_other_hooks_on_the_same_calls(isolated_home: Path) -> None:
    settings = isolated_home / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_text(
        json.dumps(
            {
                "hooks": {
                    "PreToolUse": [
                        {
                            "matcher": "Bash",
                            "hooks": [{"type": "command", "command": "/opt/guard.sh"}],
                        },
                        {
                            "matcher": "Edit",
                            "hooks": [{"type": "command", "command": "/opt/fmt.sh"}],
                        },
                    ]
                }
            },
            indent=2,
        )
    )
    _init("--agent", "claude", "-g")
    code, checks = _doctor("--agent", "claude", cwd=isolated_home)
    assert code == 0  # a warning, not a failure
    [order] = [c for c in checks if c["sample"] == "hook_order"]
    assert order["level"] == "WARN" and "/opt/guard.sh" in str(order["message"])
    assert "fmt.sh" not in str(order["message"])


def test_doctor_runs_auggies_hook_and_says_what_only_the_tenant_decides(
    isolated_home: Path,
) -> None:
    _init("--agent", "auggie", "-g")
    code, checks = _doctor("--agent", "auggie", cwd=isolated_home)
    assert code == 0, [c["message"] for c in checks if c["level"] == "FAIL"]
    levels = {c["sample"]: c["level"] for c in checks}
    assert levels["hook_entry"] == "PASS" and levels["rewrite"] == "PASS"
    assert levels["passthrough"] == "PASS"
    assert levels["deny"] == "PASS"  # a command Auggie's own rule denies is left alone
    [condition] = [c for c in checks if c["sample"] == "host_condition"]
    assert condition["level"] == "WARN" and "enable_hooks" in str(condition["message"])


def test_doctor_runs_kimis_deny_and_suggest_hook(isolated_home: Path) -> None:
    _init("--agent", "kimi", "-g")
    code, checks = _doctor("--agent", "kimi", cwd=isolated_home)
    assert code == 0, [c["message"] for c in checks if c["level"] == "FAIL"]
    [rewrite] = [c for c in checks if c["sample"] == "rewrite"]
    assert rewrite["level"] == "PASS"
    assert '"permissionDecision":"deny"' in str(rewrite["reply"])  # the suggestion
    [deny] = [c for c in checks if c["sample"] == "deny"]
    assert deny["level"] == "PASS"  # a command Kimi's own rule denies is left to Kimi
    assert not [c for c in checks if c["sample"] == "host_condition"]


def test_doctor_checks_every_agent_named(isolated_home: Path) -> None:
    _init("--agent", "claude", "--agent", "gemini", "--agent", "codex", "-g")
    code, checks = _doctor("--agent", "claude", "--agent", "gemini", cwd=isolated_home)
    assert code == 0, [c["message"] for c in checks if c["level"] == "FAIL"]
    agents = [str(c["agent"]) for c in checks]
    assert {"claude", "gemini"} <= set(agents) and "codex" not in agents
    assert agents.count("rtok") == 1  # the launcher, shared by both, checked once


def test_doctor_keeps_its_sample_calls_out_of_the_decision_log(isolated_home: Path) -> None:
    _init("--agent", "claude", "--agent", "codex", "-g")
    code, checks = _doctor("--agent", "claude", "--agent", "codex", cwd=isolated_home)
    assert code == 0, [c["message"] for c in checks if c["level"] == "FAIL"]
    assert {c["sample"] for c in checks} >= {"rewrite", "passthrough"}
    data = Path(os.environ["XDG_DATA_HOME"]) / "rtok"
    assert not (data / "hook-decisions.jsonl").exists()
    # The hook the doctor ran does log a real call: the file is absent only for its samples.
    [hook] = [c["command"] for c in checks if c["sample"] == "rewrite" and c["agent"] == "claude"]
    payload = {
        "session_id": "s1",
        "tool_use_id": "t1",
        "tool_name": "Bash",
        "hook_event_name": "PreToolUse",
        "cwd": str(isolated_home),
        "tool_input": {"command": "git status"},
    }
    subprocess.run(
        ["/bin/sh", "-c", str(hook)],
        input=json.dumps(payload),
        text=True,
        capture_output=True,
        cwd=str(isolated_home),
        check=True,
        timeout=30,
    )
    lines = (data / "hook-decisions.jsonl").read_text().splitlines()
    assert [json.loads(line)["command"] for line in lines] == ["git status"]
