"""`rtok init` / `rtok uninstall` / `rtok agents` as real subprocesses on real files."""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from install_engine_edits import snapshot

from rtok.formats import jsonc
from rtok_testing import run_rtok

# Claude Code reads settings.json as strict JSON: a layout of the user's own, no comments.
USER_SETTINGS = (
    b'{\n    "model": "opus",\n    "hooks": {\n        "PreToolUse": [\n'
    b'            {"matcher": "Bash", "hooks": [{"type": "command", "command": "my-guard"}]}\n'
    b"        ]\n    }\n}\n"
)
USER_CLAUDE_MD = b"# My notes\n\nAlways run the tests.\n"


def _claude(home: Path) -> Path:
    return home / ".claude"


def _seed(home: Path) -> None:
    _claude(home).mkdir()
    (_claude(home) / "settings.json").write_bytes(USER_SETTINGS)
    (_claude(home) / "CLAUDE.md").write_bytes(USER_CLAUDE_MD)


def _out(done: subprocess.CompletedProcess[bytes]) -> str:
    return done.stdout.decode() + done.stderr.decode()


def _rtok_hooks(settings: bytes) -> list[object]:
    groups = jsonc.get(settings, ("hooks", "PreToolUse"), []) or []
    assert isinstance(groups, list)
    return [
        h for g in groups for h in g.get("hooks", []) if "hook claude" in str(h.get("command", ""))
    ]


def test_dry_run_prints_diffs_and_writes_nothing(isolated_home: Path) -> None:
    _seed(isolated_home)
    before = snapshot(str(isolated_home))
    done = run_rtok(["init", "--agent", "claude", "-g", "--dry-run", "--auto-patch"])
    assert done.returncode == 0, _out(done)
    text = done.stdout.decode()
    assert "--- ~/.claude/settings.json\n+++ ~/.claude/settings.json" in text
    assert "--- /dev/null\n+++ ~/.claude/RTOK.md" in text
    assert "nothing written" in text
    assert snapshot(str(isolated_home)) == before


def test_check_reports_pending_then_clean(isolated_home: Path) -> None:
    _seed(isolated_home)
    args = ["init", "--agent", "claude", "-g", "--auto-patch"]
    assert run_rtok([*args, "--check"]).returncode == 1
    assert run_rtok(args).returncode == 0
    assert run_rtok([*args, "--check"]).returncode == 0


def test_install_twice_then_uninstall_gives_back_every_byte(isolated_home: Path) -> None:
    _seed(isolated_home)
    args = ["init", "--agent", "claude", "-g", "--auto-patch"]
    first = run_rtok(args)
    assert first.returncode == 0, _out(first)
    assert "backup of" in first.stdout.decode()
    settings = (_claude(isolated_home) / "settings.json").read_bytes()
    assert len(_rtok_hooks(settings)) == 1 and b"my-guard" in settings
    assert settings.startswith(b'{\n    "model": "opus",\n')  # the layout is kept
    installed = snapshot(str(_claude(isolated_home)))
    second = run_rtok(args)
    assert second.returncode == 0, _out(second)
    assert "Nothing to do" in second.stdout.decode()
    assert snapshot(str(_claude(isolated_home))) == installed
    gone = run_rtok(["uninstall", "--agent", "claude", "-g", "--auto-patch"])
    assert gone.returncode == 0, _out(gone)
    assert (_claude(isolated_home) / "settings.json").read_bytes() == USER_SETTINGS
    assert (_claude(isolated_home) / "CLAUDE.md").read_bytes() == USER_CLAUDE_MD
    assert not (_claude(isolated_home) / "RTOK.md").exists()


def test_a_fresh_home_is_empty_again_after_uninstall(isolated_home: Path) -> None:
    assert run_rtok(["init", "-a", "claude", "-g", "--auto-patch"]).returncode == 0
    assert (_claude(isolated_home) / "settings.json").exists()
    done = run_rtok(["uninstall", "-a", "claude", "-g", "--auto-patch"])
    assert done.returncode == 0, _out(done)
    assert not _claude(isolated_home).exists()


def test_json_plan_lists_changes_with_diffs(isolated_home: Path) -> None:
    _seed(isolated_home)
    done = run_rtok(["init", "-a", "claude", "-g", "--dry-run", "--json", "--auto-patch"])
    plan = json.loads(done.stdout)
    assert plan["action"] == "install" and plan["applied"] is False
    paths = {c["path"] for c in plan["changes"]}
    assert str(_claude(isolated_home) / "settings.json") in paths
    assert all(c["diff"] for c in plan["changes"])


def test_without_consent_shared_settings_are_declined(isolated_home: Path) -> None:
    _seed(isolated_home)
    done = run_rtok(["init", "-a", "claude", "-g"])
    assert done.returncode == 1, _out(done)
    assert "--auto-patch" in _out(done)
    assert (_claude(isolated_home) / "settings.json").read_bytes() == USER_SETTINGS


def test_no_patch_prints_manual_steps_and_leaves_settings_alone(isolated_home: Path) -> None:
    _seed(isolated_home)
    done = run_rtok(["init", "-a", "claude", "-g", "--no-patch"])
    assert done.returncode == 0, _out(done)
    assert "by hand" in done.stdout.decode() and "hook claude" in done.stdout.decode()
    assert (_claude(isolated_home) / "settings.json").read_bytes() == USER_SETTINGS


def test_a_malformed_target_writes_nothing_anywhere(isolated_home: Path) -> None:
    _claude(isolated_home).mkdir()
    (_claude(isolated_home) / "settings.json").write_bytes(b'{\n  "model": "opus",\n  "x": ]\n}')
    before = snapshot(str(isolated_home))
    done = run_rtok(["init", "-a", "claude", "-g", "--auto-patch"])
    assert done.returncode == 2
    assert "~/.claude/settings.json: Claude Code cannot parse it (line 3:" in (done.stderr.decode())
    assert snapshot(str(isolated_home)) == before


def test_an_unreadable_target_writes_nothing(isolated_home: Path) -> None:
    (_claude(isolated_home) / "settings.json").mkdir(parents=True)
    before = snapshot(str(isolated_home))
    done = run_rtok(["init", "-a", "claude", "-g", "--auto-patch"])
    assert done.returncode == 2 and "is a directory" in done.stderr.decode()
    assert snapshot(str(isolated_home)) == before


def test_a_project_link_out_of_the_project_is_refused(isolated_home: Path) -> None:
    project = isolated_home / "proj"
    (project / ".git").mkdir(parents=True)
    (project / ".claude").mkdir()
    outside = isolated_home / "shared-settings.json"
    outside.write_bytes(b"{}\n")
    os.symlink(outside, project / ".claude" / "settings.local.json")
    before = snapshot(str(isolated_home))
    done = run_rtok(["init", "-a", "claude", "--project", "--auto-patch"], cwd=str(project))
    assert done.returncode == 2 and "outside the project" in done.stderr.decode()
    assert snapshot(str(isolated_home)) == before


def test_unknown_agent_and_bad_level_are_usage_errors(isolated_home: Path) -> None:
    done = run_rtok(["init", "-a", "nosuchagent", "-g"])
    assert done.returncode == 2 and "nosuchagent" in done.stderr.decode()
    done = run_rtok(["init", "-a", "claude", "-g", "--awareness", "loud"])
    assert done.returncode == 2 and "--awareness" in done.stderr.decode()
    done = run_rtok(["init", "-g"])
    assert done.returncode == 2 and "--agent" in done.stderr.decode()


def test_help_documents_exit_codes() -> None:
    done = run_rtok(["init", "--help"])
    text = " ".join(done.stdout.decode().split())
    assert "Exit status: 0" in text and "4 applying failed" in text


def test_agents_json_describes_every_agent(isolated_home: Path) -> None:
    _seed(isolated_home)
    assert run_rtok(["init", "-a", "claude", "-g", "--auto-patch"]).returncode == 0
    done = run_rtok(["agents", "--json"])
    assert done.returncode == 0, _out(done)
    rows = {row["name"]: row for row in json.loads(done.stdout)}
    assert {"claude", "codex", "gemini"} <= set(rows)
    claude = rows["claude"]
    for key in ("name", "display_name", "tier", "scopes", "detected", "installed", "files"):
        assert key in claude
    assert claude["detected"] is True and claude["installed"] == ["global"]
    assert str(_claude(isolated_home) / "settings.json") in claude["files"]["global"]


def test_show_lists_what_is_installed(isolated_home: Path) -> None:
    _seed(isolated_home)
    assert run_rtok(["init", "-a", "claude", "-g", "--auto-patch"]).returncode == 0
    done = run_rtok(["init", "--show", "-g"])
    assert done.returncode == 0, _out(done)
    assert "\nclaude       installed global\n" in done.stdout.decode()
    verbose = run_rtok(["init", "--show", "-g", "-v"]).stdout.decode()
    assert "  global: ~/.claude/settings.json (settings_entry): installed" in verbose


def _init_unprivileged(
    scratch: Path, protect: Path, mode: int
) -> subprocess.CompletedProcess[bytes]:
    """`rtok init -a claude -g` in scratch/home with `protect` set to `mode`, as an
    unprivileged user when the tests run as root (root ignores modes)."""
    home = scratch / "home"
    env = dict(
        os.environ,
        HOME=str(home),
        XDG_DATA_HOME=str(home / ".local" / "share"),
        XDG_CONFIG_HOME=str(home / ".config"),
        XDG_CACHE_HOME=str(home / ".cache"),
    )
    command = [sys.executable, "-m", "rtok", "init", "-a", "claude", "-g", "--auto-patch"]
    if os.geteuid() == 0:
        setpriv = shutil.which("setpriv")
        if setpriv is None:
            pytest.skip("running as root without setpriv: cannot drop privileges")
        os.chmod(scratch, 0o755)
        for dirpath, dirnames, filenames in os.walk(scratch):
            for name in dirnames + filenames:
                os.chown(os.path.join(dirpath, name), 65534, 65534)
        os.chown(scratch, 65534, 65534)
        command = [setpriv, "--reuid=65534", "--regid=65534", "--clear-groups", *command]
    os.chmod(protect, mode)
    return subprocess.run(
        command, env=env, capture_output=True, check=False, timeout=60, cwd=str(scratch)
    )


def test_a_read_only_directory_writes_nothing(isolated_home: Path) -> None:
    scratch = Path(tempfile.mkdtemp(prefix="rtok-ro-"))
    claude = scratch / "home" / ".claude"
    try:
        claude.mkdir(parents=True)
        (claude / "CLAUDE.md").write_bytes(USER_CLAUDE_MD)
        before = snapshot(str(scratch))
        done = _init_unprivileged(scratch, claude, stat.S_IRUSR | stat.S_IXUSR)
        assert done.returncode == 2, _out(done)
        assert "read-only or permission denied" in done.stderr.decode()
        assert snapshot(str(scratch)) == before
        assert not (scratch / "home" / ".local").exists()
    finally:
        os.chmod(claude, 0o755)
        shutil.rmtree(scratch, ignore_errors=True)


def test_an_unreadable_file_writes_nothing(isolated_home: Path) -> None:
    scratch = Path(tempfile.mkdtemp(prefix="rtok-unreadable-"))
    claude = scratch / "home" / ".claude"
    try:
        claude.mkdir(parents=True)
        (claude / "settings.json").write_bytes(USER_SETTINGS)
        done = _init_unprivileged(scratch, claude / "settings.json", 0)
        assert done.returncode == 2, _out(done)
        assert "cannot be read (permission denied)" in done.stderr.decode()
        assert sorted(os.listdir(claude)) == ["settings.json"]
        assert not (scratch / "home" / ".local").exists()
    finally:
        os.chmod(claude / "settings.json", 0o644)
        shutil.rmtree(scratch, ignore_errors=True)


def test_agents_in_the_home_directory_reports_no_project_scope(isolated_home: Path) -> None:
    done = run_rtok(["agents", "--json"], cwd=str(isolated_home))
    assert done.returncode == 0, _out(done)
    claude = next(row for row in json.loads(done.stdout) if row["name"] == "claude")
    assert list(claude["files"]) == ["global"]
