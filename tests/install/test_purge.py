"""What stays after the last uninstall, and `rtok uninstall --purge`, on a data dir that real
`rtok init`, `rtok run` (through the launcher) and `rtok config set` runs filled."""

from __future__ import annotations

import os
import shlex
import sqlite3
import stat
import subprocess
import sys
from pathlib import Path

from install_engine_edits import snapshot
from test_cli_interactive import _answer, _read_until, _spawn, _wait

from rtok import paths
from rtok_testing import run_rtok

OUTPUTS = ["seq 1 3000", "seq 5 4000", "printf 'line\\n%.0s' $(seq 1 900)"]


def _out(done: subprocess.CompletedProcess[bytes]) -> str:
    return done.stdout.decode() + done.stderr.decode()


def _populate(*agents: str) -> None:
    args = ["init", "-g", "--auto-patch"]
    for agent in agents:
        args += ["-a", agent]
    done = run_rtok(args)
    assert done.returncode == 0, _out(done)
    for command in OUTPUTS:
        ran = subprocess.run(
            [paths.launcher(), "run", "bash", "-c", command],
            capture_output=True,
            timeout=60,
            check=False,
        )
        assert ran.returncode == 0 and b"[rtok expand" in ran.stdout, ran.stderr
    assert run_rtok(["config", "set", "awareness.level", "high"]).returncode == 0


def _data_files() -> dict[str, object]:
    """Every file of the data dir (SQLite's shared-memory index aside: a reader maps it)."""
    return {p: v for p, v in snapshot(paths.data_dir()).items() if not p.endswith("-shm")}


def _entries() -> int:
    with sqlite3.connect(paths.archive_db()) as conn:
        return int(conn.execute("SELECT count(*) FROM entries").fetchone()[0])


def _run_printed(line: str) -> subprocess.CompletedProcess[bytes]:
    """Run a command line rtok printed, with `rtok` meaning this rtok, in bash."""
    shim = Path(paths.home()) / "shim"
    shim.mkdir(exist_ok=True)
    rtok = shim / "rtok"
    rtok.write_text(f'#!/bin/sh\nexec {shlex.quote(sys.executable)} -m rtok "$@"\n')
    rtok.chmod(0o700)
    env = dict(os.environ, PATH=f"{shim}{os.pathsep}{os.environ.get('PATH', '')}")
    return subprocess.run(
        ["bash", "-c", line], capture_output=True, env=env, timeout=120, check=False
    )


def _printed_after(text: str, label: str) -> str:
    lines = [line for line in text.splitlines() if line.startswith(label)]
    assert len(lines) == 1, text
    return lines[0][len(label) :].strip()


def _agent_files(home: Path) -> dict[str, tuple[bytes, int, int]]:
    """Every file under HOME but rtok's data, cache and config."""
    return {
        p: b
        for p, b in snapshot(str(home)).items()
        if "/.local/share/rtok" not in p and "/.cache/" not in p and "/.config/rtok" not in p
    }


def _left_after_purge(home: Path) -> dict[str, tuple[bytes, int, int]]:
    """Every file under HOME but rtok's config (which a purge keeps) and the test's shims."""
    return {
        p: b
        for p, b in snapshot(str(home)).items()
        if "/.config/rtok" not in p and not p.startswith(str(home / "shim"))
    }


def _check_what_stays_is_named(text: str) -> str:
    """The last uninstall's closing lines name each kind of data left; returns the command
    they print to remove it (the last line)."""
    tail = text.splitlines()[-10:]
    assert any(line.startswith("Left in ~/.local/share/rtok") for line in tail), text
    assert f"{_entries()} entries" in text
    assert "ledger:" in text and "settings backups:" in text and "lock files:" in text
    assert "launcher and preload bundles:" in text
    assert "kept by --purge too: ~/.config/rtok" in text
    command = _printed_after(text, "Remove them with:")
    assert text.rstrip("\n").endswith(command)
    return command


def test_the_last_uninstall_names_what_stays_and_the_purge_removes_it(
    isolated_home: Path,
) -> None:
    _populate("claude", "codex")
    assert _entries() >= 2
    agent_files_before = _agent_files(isolated_home)

    done = run_rtok(["uninstall", "--all", "-g"])
    assert done.returncode == 0, _out(done)
    command = _check_what_stays_is_named(done.stdout.decode())
    assert command == "rtok uninstall --purge --yes"

    purged = _run_printed(command)
    assert purged.returncode == 0, _out(purged)
    assert "rtok's data removed" in purged.stdout.decode()
    assert not os.path.exists(paths.data_dir())
    assert not os.path.exists(paths.cache_dir())
    assert os.path.isfile(paths.config_file())  # the user's settings stay
    after = _left_after_purge(isolated_home)
    # The agents' files are as before the install; nothing else of rtok's is left.
    assert {p: b for p, b in after.items() if p in agent_files_before} == {
        p: b for p, b in agent_files_before.items() if p in after
    }
    assert not any("/rtok/" in p or p.endswith("RTOK.md") for p in after), sorted(after)


def test_an_uninstall_that_leaves_an_agent_says_nothing_about_purging() -> None:
    _populate("claude", "codex")
    done = run_rtok(["uninstall", "-a", "claude", "-g"])
    assert done.returncode == 0, _out(done)
    assert "Remove them with" not in done.stdout.decode()
    assert done.stdout.decode().splitlines()[-1].startswith("rtok removed from 1 agent")


def test_purge_refuses_while_an_agent_has_rtok_and_its_fix_works(isolated_home: Path) -> None:
    _populate("claude")
    project = isolated_home / "work" / "app"
    (project / ".git").mkdir(parents=True)
    done = run_rtok(["init", "-a", "codex", "--project", "--auto-patch"], cwd=str(project))
    assert done.returncode == 0, _out(done)
    before = _data_files()

    refused = run_rtok(["uninstall", "--purge", "--yes"])
    assert refused.returncode == 2, _out(refused)
    message = refused.stderr.decode()
    assert "claude (global)" in message and "codex (project ~/work/app)" in message
    assert _data_files() == before
    fixes = [line.strip() for line in message.splitlines() if line.startswith("  ")]
    assert fixes == [
        "rtok uninstall -a claude -g",
        "cd ~/work/app && rtok uninstall -a codex --project",
    ]
    for fix in fixes:
        ran = _run_printed(fix)
        assert ran.returncode == 0, (fix, _out(ran))
    again = run_rtok(["uninstall", "--purge", "--yes"])
    assert again.returncode == 0, _out(again)
    assert not os.path.exists(paths.data_dir())
    assert not (project / "AGENTS.md").exists()


def test_purge_without_a_terminal_needs_yes_and_dry_run_removes_nothing() -> None:
    _populate("claude")
    assert run_rtok(["uninstall", "-a", "claude", "-g"]).returncode == 0
    before = _data_files()
    done = run_rtok(["uninstall", "--purge"])
    assert done.returncode == 1 and "--yes" in done.stderr.decode(), _out(done)
    dry = run_rtok(["uninstall", "--purge", "--dry-run"])
    assert dry.returncode == 0, _out(dry)
    assert "~/.local/share/rtok/archive.sqlite3" in dry.stdout.decode()
    assert _data_files() == before


def test_uninstall_all_with_purge_does_both_and_quiet_prints_one_line() -> None:
    _populate("claude")
    done = run_rtok(["uninstall", "--all", "-g", "--purge", "--yes", "-q"])
    assert done.returncode == 0, _out(done)
    lines = done.stdout.decode().splitlines()
    assert lines[0] == "rtok removed from 1 agent (global): claude."
    assert len(lines) == 2 and lines[1].startswith("rtok's data removed (")
    assert not os.path.exists(paths.data_dir())


def test_purge_on_a_terminal_asks_once_default_no(isolated_home: Path) -> None:
    _populate("claude")
    assert run_rtok(["uninstall", "-a", "claude", "-g"]).returncode == 0
    before = _data_files()
    pid, fd = _spawn(["uninstall", "--purge"])
    seen = bytearray()
    _answer(fd, b"Remove these", b"\r", seen)  # Enter takes the default: no
    assert _wait(pid, fd, seen) == 1
    assert _data_files() == before

    pid, fd = _spawn(["uninstall", "--purge"])
    seen = bytearray()
    _answer(fd, b"Remove these", b"y", seen)
    _read_until(fd, b"rtok's data removed", seen)
    assert _wait(pid, fd, seen) == 0
    assert not os.path.exists(paths.data_dir())


def test_purge_in_a_relocated_data_dir_keeps_files_that_are_not_rtoks(
    isolated_home: Path,
) -> None:
    shared = isolated_home / "shared"
    shared.mkdir()
    (shared / "notes.txt").write_text("mine\n")
    env = {"RTOK_DATA_DIR": str(shared)}
    done = run_rtok(["init", "-a", "claude", "-g", "--auto-patch"], env=env)
    assert done.returncode == 0, _out(done)
    assert run_rtok(["uninstall", "-a", "claude", "-g"], env=env).returncode == 0
    purged = run_rtok(["uninstall", "--purge", "--yes"], env=env)
    assert purged.returncode == 0, _out(purged)
    assert sorted(os.listdir(shared)) == ["notes.txt"]


def test_uninstalling_an_agent_never_installed_leaves_the_users_file_alone(
    isolated_home: Path,
) -> None:
    # The path is the one integrations/cline.toml names for the global hook script.
    hook = isolated_home / ".cline" / "hooks" / "PreToolUse.py"
    hook.parent.mkdir(parents=True)
    hook.write_bytes(b"print('my own hook')\n")
    hook.chmod(0o644)
    done = run_rtok(["uninstall", "-a", "cline", "-g"])
    assert done.returncode == 0, _out(done)
    assert hook.read_bytes() == b"print('my own hook')\n"
    assert stat.S_IMODE(hook.stat().st_mode) == 0o644
    assert "kept" not in _out(done)
    assert done.stdout.decode().splitlines()[-1] == (
        "Nothing to do: rtok is not installed for cline (global)."
    )


def test_purge_json_names_installs_parts_and_what_was_removed() -> None:
    import json

    _populate("claude")
    refused = run_rtok(["uninstall", "--purge", "--yes", "--json"])
    assert refused.returncode == 2
    document = json.loads(refused.stdout)
    assert document["installed"] == [{"agent": "claude", "scope": "global", "project_root": None}]
    assert document["removed"] is None
    assert run_rtok(["uninstall", "-a", "claude", "-g"]).returncode == 0
    asked = json.loads(run_rtok(["uninstall", "--purge", "--json"]).stdout)
    assert asked["exit_code"] == 1 and asked["removed"] is None
    archive = next(p for p in asked["parts"] if p["label"] == "archive")
    assert paths.archive_db() in archive["paths"] and archive["bytes"] > 0
    done = run_rtok(["uninstall", "--purge", "--json", "--yes"])
    assert done.returncode == 0, _out(done)
    removed = json.loads(done.stdout)["removed"]
    assert paths.archive_db() in removed
    assert not os.path.exists(paths.data_dir())
