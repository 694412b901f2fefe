"""`rtok init` on a real terminal (a pseudo-terminal): checkbox with detected agents
pre-checked, scope choice (global by default; project only in a real project), the full
diff, a summary of every file, one confirmation; Ctrl-C at any step writes nothing."""

from __future__ import annotations

import os
import pty
import sys
import time
from pathlib import Path

import pytest

from rtok.formats import jsonc
from rtok_testing.terminal import answer as _answer
from rtok_testing.terminal import read_until as _read_until
from rtok_testing.terminal import wait_exit as _wait


def _spawn(args: list[str], cwd: Path | None = None) -> tuple[int, int]:
    pid, fd = pty.fork()
    if pid == 0:  # child: run rtok on the terminal
        if cwd is not None:
            os.chdir(cwd)
        os.execve(
            sys.executable,
            [sys.executable, "-m", "rtok", *args],
            dict(os.environ, TERM="xterm", COLUMNS="120", LINES="40"),
        )
    return pid, fd


def _project(tmp_path: Path) -> Path:
    project = tmp_path / "work" / "app"
    (project / ".git").mkdir(parents=True)
    return project


def _all_files(root: Path) -> dict[str, bytes]:
    return {
        str(p): p.read_bytes()
        for p in root.rglob("*")
        if p.is_file()
        and "/.local/share/rtok/" not in str(p)
        and "/.local/state/rtok/" not in str(p)
        and "/.cache/" not in str(p)
    }


def test_interactive_install_with_one_confirmation(isolated_home: Path) -> None:
    claude = isolated_home / ".claude"
    claude.mkdir()  # detected: pre-checked in the list
    (claude / "settings.json").write_bytes(b'{"model": "opus"}\n')
    pid, fd = _spawn(["init", "-g"])
    seen = bytearray()
    try:
        _answer(fd, b"which agents?", b"\r", seen)  # accept the pre-checked agents
        _read_until(fd, b"Apply these", seen)  # -g: no scope question
        assert b"Scope?" not in seen
        assert b"settings.json" in seen and b"+++ ~/" in seen  # the diff came first
        summary = bytes(seen)[bytes(seen).rindex(b"file(s) to change:") :]
        assert b"update  ~/.claude/settings.json" in summary
        assert b"create  ~/.claude/RTOK.md" in summary
        time.sleep(0.3)
        os.write(fd, b"y")
        code = _wait(pid, fd, seen)
    finally:
        os.close(fd)
    assert code == 0, bytes(seen)[-3000:]
    settings = (claude / "settings.json").read_bytes()
    value = jsonc.parse(settings)
    assert isinstance(value, dict) and value["model"] == "opus"
    assert b"hook claude" in settings  # the confirmation was the consent for settings
    assert (claude / "RTOK.md").exists()
    assert b"Next: restart Claude Code" in seen and b"rtok doctor" in seen


def test_declining_the_confirmation_writes_nothing(isolated_home: Path) -> None:
    claude = isolated_home / ".claude"
    claude.mkdir()
    pid, fd = _spawn(["init", "-g"])
    seen = bytearray()
    try:
        _answer(fd, b"which agents?", b"\r", seen)
        _answer(fd, b"Apply these", b"n", seen)
        code = _wait(pid, fd, seen)
    finally:
        os.close(fd)
    assert code == 1
    assert os.listdir(claude) == []


def test_the_scope_defaults_to_global_in_a_project(isolated_home: Path, tmp_path: Path) -> None:
    (isolated_home / ".claude").mkdir()
    project = _project(tmp_path)
    pid, fd = _spawn(["init"], cwd=project)
    seen = bytearray()
    try:
        _answer(fd, b"which agents?", b"\r", seen)
        _read_until(fd, b"Scope?", seen)
        # Offered, but not the default; its line may arrive in a later read than "Scope?".
        _read_until(fd, b"project: ", seen)
        assert seen.index(b"global: ") < seen.index(b"project: ")
        _answer(fd, b"Scope?", b"\r", seen)
        _answer(fd, b"Apply these", b"y", seen)
        code = _wait(pid, fd, seen)
    finally:
        os.close(fd)
    assert code == 0, bytes(seen)[-3000:]
    assert (isolated_home / ".claude" / "RTOK.md").exists()
    assert sorted(os.listdir(project)) == [".git"]


def test_no_project_scope_in_rtoks_own_checkout(isolated_home: Path) -> None:
    (isolated_home / ".claude").mkdir()
    checkout = Path(__file__).resolve().parents[2]
    before = sorted(os.listdir(checkout))
    pid, fd = _spawn(["init", "--dry-run"], cwd=checkout)
    seen = bytearray()
    try:
        _answer(fd, b"which agents?", b"\r", seen)
        code = _wait(pid, fd, seen)
    finally:
        os.close(fd)
    assert code == 0, bytes(seen)[-3000:]
    assert b"Scope?" not in seen and b"rtok's own source tree" in seen
    assert b"~/.claude/settings.json" in seen
    assert sorted(os.listdir(checkout)) == before


def test_no_project_scope_in_the_home_directory(isolated_home: Path) -> None:
    (isolated_home / ".claude").mkdir()
    pid, fd = _spawn(["init", "--dry-run"], cwd=isolated_home)
    seen = bytearray()
    try:
        _answer(fd, b"which agents?", b"\r", seen)
        code = _wait(pid, fd, seen)
    finally:
        os.close(fd)
    assert code == 0, bytes(seen)[-3000:]
    assert b"Scope?" not in seen and b"your home directory" in seen


def test_agents_without_a_project_install_are_skipped(isolated_home: Path, tmp_path: Path) -> None:
    (isolated_home / ".claude").mkdir()
    (isolated_home / ".hermes").mkdir()  # detected too; Hermes installs globally only
    project = _project(tmp_path)
    pid, fd = _spawn(["init", "--project", "--dry-run"], cwd=project)
    seen = bytearray()
    try:
        _answer(fd, b"which agents?", b"\r", seen)
        code = _wait(pid, fd, seen)
    finally:
        os.close(fd)
    assert code == 0, bytes(seen)[-3000:]
    assert b"Scope?" not in seen
    assert b"skipped, no project install: Hermes Agent" in seen
    assert str(project / ".claude" / "settings.local.json").encode() in seen


def test_uninstall_offers_only_the_installed_scope(isolated_home: Path, tmp_path: Path) -> None:
    from rtok_testing import run_rtok

    assert run_rtok(["init", "-a", "claude", "-g", "--auto-patch"]).returncode == 0
    project = _project(tmp_path)
    pid, fd = _spawn(["uninstall"], cwd=project)
    seen = bytearray()
    try:
        _answer(fd, b"which agents?", b"\r", seen)
        _answer(fd, b"Apply these", b"y", seen)
        code = _wait(pid, fd, seen)
    finally:
        os.close(fd)
    assert code == 0, bytes(seen)[-3000:]
    assert b"Scope?" not in seen
    assert not (isolated_home / ".claude").exists()


@pytest.mark.parametrize("step", ["checkbox", "scope", "confirmation"])
def test_ctrl_c_at_each_step_cancels_and_writes_nothing(
    isolated_home: Path, tmp_path: Path, step: str
) -> None:
    claude = isolated_home / ".claude"
    claude.mkdir()
    (claude / "settings.json").write_bytes(b'{"model": "opus"}\n')
    project = _project(tmp_path)
    before = _all_files(tmp_path)
    pid, fd = _spawn(["init"], cwd=project)
    seen = bytearray()
    try:
        if step == "checkbox":
            _answer(fd, b"which agents?", b"\x03", seen)
        else:
            _answer(fd, b"which agents?", b"\r", seen)
            if step == "scope":
                _answer(fd, b"Scope?", b"\x03", seen)
            else:
                _answer(fd, b"Scope?", b"\r", seen)
                _answer(fd, b"Apply these", b"\x03", seen)
        code = _wait(pid, fd, seen)
    finally:
        os.close(fd)
    assert code == 130, bytes(seen)[-3000:]
    assert b"Cancelled; nothing written." in seen
    assert b"No agent chosen" not in seen
    assert _all_files(tmp_path) == before


def test_the_trust_question_comes_before_the_one_confirmation(
    isolated_home: Path, tmp_path: Path
) -> None:
    from rtok import paths

    (isolated_home / ".claude").mkdir()
    project = _project(tmp_path)
    (project / ".rtok").mkdir()
    (project / ".rtok" / "rules.toml").write_text("[mytool]\nmax_lines = 20\n")
    pid, fd = _spawn(["init", "--project"], cwd=project)
    seen = bytearray()
    try:
        _answer(fd, b"which agents?", b"\r", seen)
        _answer(fd, b"Trust ", b"\x03", seen)  # Ctrl-C at the trust question
        code = _wait(pid, fd, seen)
    finally:
        os.close(fd)
    assert code == 130, bytes(seen)[-3000:]
    assert b"Apply these" not in seen and b"Cancelled; nothing written." in seen
    assert sorted(os.listdir(project)) == [".git", ".rtok"]
    assert not os.path.exists(paths.trust_store())

    pid, fd = _spawn(["init", "--project"], cwd=project)
    seen = bytearray()
    try:
        _answer(fd, b"which agents?", b"\r", seen)
        _answer(fd, b"Trust ", b"y", seen)
        _read_until(fd, b"Apply these", seen)
        text = bytes(seen)
        assert text.rindex(b"Trust ") < text.rindex(b"file(s) to change:")
        time.sleep(0.3)
        os.write(fd, b"y")
        code = _wait(pid, fd, seen)
    finally:
        os.close(fd)
    assert code == 0, bytes(seen)[-3000:]
    assert (project / ".claude" / "settings.local.json").exists()
