"""Installer fidelity to the host: only files the host can read, honest health reports,
byte fidelity at the edges (empty files, host bytecode, killed runs), no lost edits, no
shadowed user hooks, non-ASCII paths. Real files and real `rtok` subprocesses."""

from __future__ import annotations

import json
import os
import random
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from rtok import paths
from rtok.formats import jsonc
from rtok.install import integrations, planner, state, transaction
from rtok.install.model import Action, InstallContext
from rtok.install.targets.toml_hooks import codex_group_hash
from rtok.install.transaction import STEP_DELAY_ENV, STEP_MARKER
from rtok.integrity.doctor import codex_hook_hash
from rtok_testing import rtok_entry_point, run_rtok

CLAUDE_INSTALL = ["init", "-a", "claude", "-g", "--auto-patch"]


def _out(done: subprocess.CompletedProcess[bytes]) -> str:
    return done.stdout.decode() + done.stderr.decode()


def _verify(cwd: Path) -> tuple[int, list[dict[str, object]]]:
    done = run_rtok(["verify", "--json"], cwd=str(cwd))
    items = json.loads(done.stdout)["items"]
    assert isinstance(items, list)
    return done.returncode, items


# ------------------------------------------------------------------ host dialects


def test_jsonc_in_claude_settings_is_refused_with_file_and_line(isolated_home: Path) -> None:
    settings = isolated_home / ".claude" / "settings.json"
    settings.parent.mkdir()
    original = b'{\n  "model": "opus",\n  "env": {"A": "1"},\n}\n'
    settings.write_bytes(original)
    done = run_rtok(CLAUDE_INSTALL)
    assert done.returncode == 2
    err = done.stderr.decode()
    assert "~/.claude/settings.json: Claude Code cannot parse it (line 3:" in err
    assert "trailing comma" in err
    assert settings.read_bytes() == original
    assert sorted(os.listdir(settings.parent)) == ["settings.json"]


def test_codex_hooks_json_with_a_comment_is_refused(isolated_home: Path) -> None:
    hooks = isolated_home / ".codex" / "hooks.json"
    hooks.parent.mkdir()
    original = b'// mine\n{"hooks": {}}\n'
    hooks.write_bytes(original)
    done = run_rtok(["init", "-a", "codex", "-g", "--auto-patch"])
    assert done.returncode == 2
    assert "~/.codex/hooks.json: OpenAI Codex CLI cannot parse it (line 1: a // comment" in (
        done.stderr.decode()
    )
    assert "OpenAI Codex CLI" in done.stderr.decode()
    assert hooks.read_bytes() == original
    assert not (isolated_home / ".codex" / "config.toml").exists()


def test_gemini_accepts_comments_but_not_trailing_commas(isolated_home: Path) -> None:
    settings = isolated_home / ".gemini" / "settings.json"
    settings.parent.mkdir()
    settings.write_bytes(b'{\n  // my theme\n  "theme": "dark"\n}\n')
    done = run_rtok(["init", "-a", "gemini", "-g", "--auto-patch", "--hook-only"])
    assert done.returncode == 0, _out(done)
    assert b"// my theme" in settings.read_bytes()
    assert b"hook gemini" in settings.read_bytes()
    run_rtok(["uninstall", "-a", "gemini", "-g", "--auto-patch"])
    trailing = b'{\n  "theme": "dark",\n}\n'
    settings.write_bytes(trailing)
    done = run_rtok(["init", "-a", "gemini", "-g", "--auto-patch", "--hook-only"])
    assert done.returncode == 2
    assert "~/.gemini/settings.json: Gemini CLI cannot parse it (line 2:" in done.stderr.decode()
    assert settings.read_bytes() == trailing


def test_verify_and_doctor_fail_when_the_host_can_no_longer_parse(isolated_home: Path) -> None:
    done = run_rtok(CLAUDE_INSTALL)
    assert done.returncode == 0, _out(done)
    code, items = _verify(isolated_home)
    assert code == 0, items
    settings = isolated_home / ".claude" / "settings.json"
    data = settings.read_bytes()
    settings.write_bytes(data.replace(b"{", b"{\n  // note", 1))
    code, items = _verify(isolated_home)
    assert code == 1
    [bad] = [i for i in items if i["status"] == "host_cannot_parse"]
    assert bad["path"] == str(settings) and "line 2" in str(bad["message"])
    doctor = run_rtok(["doctor"], cwd=str(isolated_home), timeout=120)
    assert doctor.returncode == 1
    assert "Claude Code cannot parse it" in _out(doctor)


def test_a_huge_settings_file_is_refused_at_once(isolated_home: Path) -> None:
    settings = isolated_home / ".claude" / "settings.json"
    settings.parent.mkdir()
    with open(settings, "wb") as handle:
        handle.write(b'{"big": "')
        handle.write(b"x" * (planner.MAX_EDIT_BYTES + 10))
        handle.write(b'"}\n')
    before = settings.stat()
    done = run_rtok(CLAUDE_INSTALL)
    assert done.returncode == 2
    assert "rtok edits settings files of up to 16 MiB" in done.stderr.decode()
    after = settings.stat()
    assert (after.st_size, after.st_mtime_ns) == (before.st_size, before.st_mtime_ns)
    assert sorted(os.listdir(settings.parent)) == ["settings.json"]


# ------------------------------------------------------------------ partial installs


def _hashes(root: Path) -> dict[str, str]:
    import hashlib

    return {
        str(p): hashlib.sha256(p.read_bytes()).hexdigest() if p.is_file() else "dir"
        for p in sorted(root.rglob("*"))
    }


def test_a_declined_hook_installs_nothing_of_the_agent(isolated_home: Path) -> None:
    settings = isolated_home / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_bytes(b'{"model": "opus"}\n')
    before = _hashes(isolated_home)
    done = run_rtok(["init", "-a", "claude", "-g"])  # no terminal, no --auto-patch
    assert done.returncode == 1
    assert b"--auto-patch" in done.stderr and b"Claude" not in done.stdout.split(b"Next")[-1]
    assert b"Next:" not in done.stdout  # nothing will load: no restart to suggest
    # Not one file of the agent's, nor of rtok's data dir, was written.
    assert _hashes(isolated_home) == before
    code, items = _verify(isolated_home)
    assert not [i for i in items if i["status"] in ("partial", "verified")]
    assert run_rtok(CLAUDE_INSTALL).returncode == 0
    code, items = _verify(isolated_home)
    assert code == 0, items


def test_no_patch_makes_the_install_visibly_partial(isolated_home: Path) -> None:
    settings = isolated_home / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_bytes(b'{"model": "opus"}\n')
    done = run_rtok(["init", "-a", "claude", "-g", "--no-patch"])
    assert done.returncode == 0
    assert b"hook claude" not in settings.read_bytes()
    assert (isolated_home / ".claude" / "RTOK.md").exists()
    code, items = _verify(isolated_home)
    assert code == 1
    [partial] = [i for i in items if i["status"] == "partial"]
    assert partial["path"] == str(settings) and partial["level"] == "FAIL"
    agents = run_rtok(["agents"]).stdout.decode()
    [line] = [line for line in agents.splitlines() if line.startswith("claude ")]
    assert "installed: global (partial)" in line
    doctor = _out(run_rtok(["doctor"], cwd=str(isolated_home), timeout=120))
    assert "partial install" in doctor and "--auto-patch" in doctor
    assert run_rtok(CLAUDE_INSTALL).returncode == 0
    code, items = _verify(isolated_home)
    assert code == 0, items


# ------------------------------------------------------------------ byte fidelity


def test_hermes_bytecode_goes_with_the_plugin(isolated_home: Path) -> None:
    assert run_rtok(["init", "-a", "hermes", "-g", "--auto-patch"]).returncode == 0
    plugin = isolated_home / ".hermes" / "plugins" / "rtok"
    cache = plugin / "__pycache__"
    cache.mkdir()
    (cache / "__init__.cpython-312.pyc").write_bytes(b"\x00bytecode")
    done = run_rtok(["uninstall", "-a", "hermes", "-g", "--auto-patch"])
    assert done.returncode == 0, _out(done)
    assert not (isolated_home / ".hermes").exists()


def test_a_user_file_in_the_plugin_dir_is_kept(isolated_home: Path) -> None:
    assert run_rtok(["init", "-a", "hermes", "-g", "--auto-patch"]).returncode == 0
    plugin = isolated_home / ".hermes" / "plugins" / "rtok"
    (plugin / "__pycache__").mkdir()
    (plugin / "__pycache__" / "__init__.cpython-312.pyc").write_bytes(b"x")
    (plugin / "notes.txt").write_bytes(b"mine\n")
    assert run_rtok(["uninstall", "-a", "hermes", "-g", "--auto-patch"]).returncode == 0
    assert sorted(os.listdir(plugin)) == ["notes.txt"]


def test_an_edited_rtok_entry_is_removed_and_reported(isolated_home: Path) -> None:
    settings = isolated_home / ".claude" / "settings.json"
    settings.parent.mkdir()
    original = b'{\n  "model": "opus"\n}\n'
    settings.write_bytes(original)
    assert run_rtok([*CLAUDE_INSTALL, "--hook-only"]).returncode == 0
    edited = settings.read_bytes().replace(b"hook claude ||", b"hook claude --verbose ||")
    settings.write_bytes(edited.replace(b'"timeout": 30', b'"timeout": 5'))
    agents = run_rtok(["agents"]).stdout.decode()
    assert "installed: global" in agents and "partial" not in agents
    again = run_rtok([*CLAUDE_INSTALL, "--hook-only"])  # the user's entry stays, once
    assert again.returncode == 0 and settings.read_bytes().count(b"hook claude") == 1
    done = run_rtok(["uninstall", "-a", "claude", "-g", "--auto-patch"])
    assert done.returncode == 0, _out(done)
    assert "changed by hand" in done.stdout.decode() and "--verbose" in done.stdout.decode()
    assert jsonc.parse(settings.read_bytes()) == {"model": "opus"}


def test_droid_hooks_in_settings_json_stay_where_they_are(isolated_home: Path) -> None:
    factory = isolated_home / ".factory"
    factory.mkdir()
    settings = factory / "settings.json"
    original = (
        b'{\n  "model": "x",\n  "hooks": {\n    "PreToolUse": [\n      {"matcher": '
        b'"Execute", "hooks": [{"type": "command", "command": "guard"}]}\n    ]\n  }\n}\n'
    )
    settings.write_bytes(original)
    done = run_rtok(["init", "-a", "droid", "-g", "--auto-patch", "--hook-only"])
    assert done.returncode == 0, _out(done)
    assert not (factory / "hooks.json").exists()  # it would switch the user's hooks off
    value = jsonc.parse(settings.read_bytes())
    assert isinstance(value, dict)
    commands = [h["command"] for g in value["hooks"]["PreToolUse"] for h in g["hooks"]]
    assert commands[0] == "guard" and commands[1].endswith("rtok hook droid || true")
    assert run_rtok(["uninstall", "-a", "droid", "-g", "--auto-patch"]).returncode == 0
    assert settings.read_bytes() == original
    assert sorted(os.listdir(factory)) == ["settings.json"]


def test_droid_without_user_hooks_gets_hooks_json(isolated_home: Path) -> None:
    factory = isolated_home / ".factory"
    factory.mkdir()
    (factory / "settings.json").write_bytes(b'{"model": "x"}\n')
    assert run_rtok(["init", "-a", "droid", "-g", "--auto-patch", "--hook-only"]).returncode == 0
    assert b"hook droid" in (factory / "hooks.json").read_bytes()
    assert (factory / "settings.json").read_bytes() == b'{"model": "x"}\n'


def test_private_files_of_the_installer_under_umask_022(isolated_home: Path) -> None:
    settings = isolated_home / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_bytes(b"{}\n")
    old = os.umask(0o022)
    try:
        done = subprocess.run(
            [sys.executable, "-m", "rtok", *CLAUDE_INSTALL],
            capture_output=True,
            check=False,
            timeout=60,
        )
    finally:
        os.umask(old)
    assert done.returncode == 0, _out(done)
    assert stat.S_IMODE(os.stat(state.state_file()).st_mode) == 0o600
    backups = Path(paths.backups_dir())
    assert stat.S_IMODE(backups.stat().st_mode) == 0o700
    for run_dir in backups.iterdir():
        assert stat.S_IMODE(run_dir.stat().st_mode) == 0o700
        for item in run_dir.iterdir():
            assert stat.S_IMODE(item.stat().st_mode) == 0o600, item
    assert stat.S_IMODE(os.stat(paths.data_dir()).st_mode) == 0o700


# ------------------------------------------------------------------ crash leftovers


def test_a_killed_uninstall_leaves_nothing_after_a_rerun(isolated_home: Path) -> None:
    """Kill the uninstall right after it deleted rtok's files (before it removed the
    directories it created): the rerun removes them, from the install state."""
    assert run_rtok(CLAUDE_INSTALL).returncode == 0
    claude = isolated_home / ".claude"
    env = dict(os.environ, **{STEP_DELAY_ENV: "0.4"})
    proc = subprocess.Popen(
        [sys.executable, "-m", "rtok", "uninstall", "-a", "claude", "-g", "--auto-patch"],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    assert proc.stderr is not None
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        line = proc.stderr.readline()
        if not line:
            break
        if STEP_MARKER.encode() in line and not any(claude.glob("*")):
            proc.send_signal(signal.SIGKILL)
            break
    proc.wait(timeout=30)
    assert proc.returncode == -signal.SIGKILL, "the uninstall ended before it could be killed"
    assert claude.is_dir() and not any(claude.iterdir())
    again = run_rtok(["uninstall", "-a", "claude", "-g", "--auto-patch"])
    assert again.returncode == 0, _out(again)
    assert "removed directory ~/.claude (rtok created it)" in again.stdout.decode()
    assert not claude.exists()


def test_a_directory_rtok_did_not_create_is_kept(isolated_home: Path) -> None:
    claude = isolated_home / ".claude"
    claude.mkdir()
    assert run_rtok(CLAUDE_INSTALL).returncode == 0
    for item in claude.iterdir():
        item.unlink()
    assert run_rtok(["uninstall", "-a", "claude", "-g", "--auto-patch"]).returncode == 0
    assert claude.is_dir()


# ------------------------------------------------------------------ non-ASCII paths


def test_a_non_ascii_rtok_path_verifies_and_hashes_like_codex(
    isolated_home: Path, tmp_path: Path
) -> None:
    bin_dir = tmp_path / "jürgen" / "bin"
    bin_dir.mkdir(parents=True)
    rtok_bin = bin_dir / "rtok"
    rtok_bin.symlink_to(rtok_entry_point())
    env = {"RTOK_BIN": str(rtok_bin)}
    done = run_rtok(["init", "-a", "codex", "-a", "claude", "-g", "--auto-patch"], env=env)
    assert done.returncode == 0, _out(done)
    hooks = json.loads((isolated_home / ".codex" / "hooks.json").read_bytes())
    [group] = hooks["hooks"]["PreToolUse"]
    command = group["hooks"][0]["command"]
    assert "jürgen" in command
    assert codex_hook_hash(command, 30, "Bash") == codex_group_hash(group)
    config = (isolated_home / ".codex" / "config.toml").read_text(encoding="utf-8")
    assert codex_group_hash(group) in config
    verify = run_rtok(["verify", "--json"], env=env, cwd=str(isolated_home))
    items = json.loads(verify.stdout)["items"]
    bins = {i["rtok_bin"] for i in items if i["check"] == "hook_command"}
    assert bins == {str(rtok_bin)}, items
    assert verify.returncode == 0, items


# ------------------------------------------------------------------ no lost edits

WRITER = r"""
import json, os, sys, time
path, count = sys.argv[1], int(sys.argv[2])
print("ready", flush=True)
for i in range(count):
    with open(path, "rb") as handle:
        value = json.loads(handle.read())
    value["edit_%d" % i] = i
    temp = path + ".writer"
    with open(temp, "w") as handle:
        handle.write(json.dumps(value, indent=2) + "\n")
    os.replace(temp, path)
    time.sleep(0.0005)
"""


def _context(home: Path) -> InstallContext:
    return InstallContext(
        home=str(home),
        env=dict(os.environ),
        project_root=None,
        rtok_bin=rtok_entry_point(),
        hook_only=True,
        auto_patch=True,
        created_by_rtok=lambda path: state.load().created(path),
    )


def test_no_edit_saved_during_an_install_is_lost(
    isolated_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A program saving the settings file in a loop while rtok installs and uninstalls:
    every one of its edits survives, in every trial."""
    settings = isolated_home / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_bytes(b'{"model": "opus"}\n')
    monkeypatch.setenv(STEP_DELAY_ENV, "0.002")  # widen the gaps between the steps
    rng = random.Random(20261201)
    lost: list[str] = []
    trials = 60
    for trial in range(trials):
        action: Action = "install" if trial % 2 == 0 else "uninstall"
        writer = subprocess.Popen(
            [sys.executable, "-c", WRITER, str(settings), "40"], stdout=subprocess.PIPE
        )
        assert writer.stdout is not None and writer.stdout.readline() == b"ready\n"
        time.sleep(rng.uniform(0, 0.02))
        ctx = _context(isolated_home)
        edits = integrations.edits_for("claude", "global", action, ctx)
        the_plan = planner.plan(edits, ctx, action=action)
        transaction.apply(the_plan, action=action)
        writer.wait(timeout=60)
        value = jsonc.parse(settings.read_bytes())
        assert isinstance(value, dict)
        missing = [f"edit_{i}" for i in range(40) if value.get(f"edit_{i}") != i]
        if missing:
            lost.append(f"trial {trial} ({action}): {missing}")
        settings.write_bytes(b'{"model": "opus"}\n')
        if action == "install":  # start the next uninstall from an installed file
            ctx = _context(isolated_home)
            transaction.apply(
                planner.plan(integrations.edits_for("claude", "global", "install", ctx), ctx)
            )
    assert lost == [], f"{len(lost)} of {trials} trials lost edits: {lost[:3]}"


def test_an_edited_codex_hook_goes_with_its_trust_entry(isolated_home: Path) -> None:
    codex = isolated_home / ".codex"
    codex.mkdir()
    (codex / "config.toml").write_text('model = "gpt"\n')
    assert run_rtok(["init", "-a", "codex", "-g", "--auto-patch", "--hook-only"]).returncode == 0
    hooks = codex / "hooks.json"
    hooks.write_bytes(hooks.read_bytes().replace(b"hook codex ||", b"hook codex --verbose ||"))
    config = (codex / "config.toml").read_text()  # the user re-trusted the edited hook
    (codex / "config.toml").write_text(
        config.replace(config.split('trusted_hash = "')[1].split('"')[0], "sha256:" + "0" * 64)
    )
    done = run_rtok(["uninstall", "-a", "codex", "-g", "--auto-patch"])
    assert done.returncode == 0, _out(done)
    assert "changed by hand" in done.stdout.decode()
    assert (codex / "config.toml").read_text() == 'model = "gpt"\n'
    assert not hooks.exists()
