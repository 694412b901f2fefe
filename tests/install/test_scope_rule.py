"""One scope rule for every path: `rtok init --agent claude` installs for the user's account
unless `--project` is given, from rtok's checkout, from the home directory and from a
project, on a terminal and without one; `--project` is refused in the checkout and in ~."""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from rtok_testing import rtok_entry_point
from rtok_testing.terminal import answer, wait_exit

ROOT = Path(__file__).resolve().parents[2]
WHERE = ("checkout", "home", "project")


def _hashes(root: Path) -> dict[str, str]:
    return {
        str(p): hashlib.sha256(p.read_bytes()).hexdigest() if p.is_file() else "dir"
        for p in sorted(root.rglob("*"))
    }


def _place(where: str, home: Path, tmp_path: Path) -> Path:
    if where == "home":
        return home
    if where == "project":
        project = home / "work" / "app"
        (project / ".git").mkdir(parents=True)
        return project
    # A clone of rtok's source tree (recognised by its files, wherever it lives).
    checkout = tmp_path / "rtok-src"
    for name in ("pyproject.toml", "integrations/claude.toml", "rtok/__init__.py"):
        (checkout / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(ROOT / name, checkout / name)
    return checkout


def _init(args: list[str], cwd: Path, terminal: bool) -> tuple[int, bytes]:
    """`rtok ARGS` from `cwd`, on a pseudo-terminal (answering yes) or with no terminal."""
    # The console script, as a user runs it: `python -m rtok` would import the rtok/
    # folder of a checkout it stands in.
    argv = [rtok_entry_point(), *args]
    if not terminal:
        done = subprocess.run(
            argv, cwd=cwd, capture_output=True, stdin=subprocess.DEVNULL, timeout=120, check=False
        )
        return done.returncode, done.stdout + done.stderr
    import pty

    pid, fd = pty.fork()
    if pid == 0:
        os.chdir(cwd)
        os.execve(argv[0], argv, dict(os.environ, TERM="xterm", COLUMNS="120"))
    seen = bytearray()
    try:
        if "--auto-patch" not in args:
            answer(fd, b"Apply these", b"y", seen)
        code = wait_exit(pid, fd, seen)
    finally:
        os.close(fd)
    return code, bytes(seen)


@pytest.mark.parametrize("terminal", [False, True], ids=["no-terminal", "terminal"])
@pytest.mark.parametrize("where", WHERE)
def test_init_with_an_agent_is_global_unless_project(
    isolated_home: Path, tmp_path: Path, where: str, terminal: bool
) -> None:
    cwd = _place(where, isolated_home, tmp_path)
    before = _hashes(cwd) if where != "home" else {}
    code, said = _init(
        ["init", "--agent", "claude", "--auto-patch"]
        if not terminal
        else ["init", "--agent", "claude"],
        cwd,
        terminal,
    )
    assert code == 0, said[-2000:]
    assert (isolated_home / ".claude" / "settings.json").is_file()
    assert b"hook claude" in (isolated_home / ".claude" / "settings.json").read_bytes()
    if where != "home":
        assert _hashes(cwd) == before  # nothing written into the folder stood in
    assert not (cwd / ".claude" / "settings.local.json").exists()
    assert not (cwd / "CLAUDE.md").exists() or where == "home"


@pytest.mark.parametrize("terminal", [False, True], ids=["no-terminal", "terminal"])
@pytest.mark.parametrize("where", ["checkout", "home"])
def test_project_is_refused_in_the_checkout_and_in_home(
    isolated_home: Path, tmp_path: Path, where: str, terminal: bool
) -> None:
    cwd = _place(where, isolated_home, tmp_path)
    before = _hashes(isolated_home)
    code, said = _init(["init", "--agent", "claude", "--project", "--auto-patch"], cwd, terminal)
    assert code == 2, said[-2000:]
    assert b"not a project of yours" in said
    assert _hashes(isolated_home) == before


@pytest.mark.parametrize("terminal", [False, True], ids=["no-terminal", "terminal"])
def test_project_in_a_project_installs_there(
    isolated_home: Path, tmp_path: Path, terminal: bool
) -> None:
    cwd = _place("project", isolated_home, tmp_path)
    args = ["init", "--agent", "claude", "--project"]
    code, said = _init([*args, "--auto-patch"] if not terminal else args, cwd, terminal)
    assert code == 0, said[-2000:]
    assert b"hook claude" in (cwd / ".claude" / "settings.local.json").read_bytes()
    assert not (isolated_home / ".claude" / "settings.json").exists()


def test_help_says_the_same() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "rtok", "init", "--help"],
        capture_output=True,
        timeout=60,
        check=False,
        text=True,
    )
    text = " ".join(done.stdout.split())
    assert "for your user account, or with --project for the current project" in text
    assert "instead of the current project" not in text


def test_an_uninstall_in_the_wrong_scope_says_where_rtok_is(
    isolated_home: Path, tmp_path: Path
) -> None:
    cwd = _place("project", isolated_home, tmp_path)
    code, _ = _init(["init", "--agent", "claude", "--project", "--auto-patch"], cwd, False)
    assert code == 0
    code, said = _init(["uninstall", "--agent", "claude"], cwd, False)
    assert code == 0 and b"in the project scope: run the same command with --project" in said
    assert (cwd / ".claude" / "settings.local.json").exists()
    code, said = _init(["uninstall", "--agent", "claude", "--project"], cwd, False)
    assert code == 0 and not (cwd / ".claude" / "settings.local.json").exists()
