"""`rtok init` on a real terminal (a pseudo-terminal): checkbox with detected agents
pre-checked, scope choice, the full diff, one confirmation."""

from __future__ import annotations

import contextlib
import os
import pty
import select
import signal
import sys
import time
from pathlib import Path

from rtok.formats import jsonc


def _read_until(fd: int, wanted: bytes, seen: bytearray, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while wanted not in seen:
        left = deadline - time.monotonic()
        assert left > 0, f"timed out waiting for {wanted!r}; got {bytes(seen)[-2000:]!r}"
        ready, _, _ = select.select([fd], [], [], min(left, 1.0))
        if ready:
            try:
                chunk = os.read(fd, 65536)
            except OSError:  # the child closed the terminal
                chunk = b""
            assert chunk, f"terminal closed before {wanted!r}; got {bytes(seen)[-2000:]!r}"
            seen.extend(chunk)


def _spawn(args: list[str]) -> tuple[int, int]:
    pid, fd = pty.fork()
    if pid == 0:  # child: run rtok on the terminal
        os.execve(sys.executable, [sys.executable, "-m", "rtok", *args],
                  dict(os.environ, TERM="xterm", COLUMNS="120", LINES="40"))
    return pid, fd


def _wait(pid: int, fd: int, seen: bytearray) -> int:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return os.waitstatus_to_exitcode(status)
        ready, _, _ = select.select([fd], [], [], 0.2)
        if ready:
            with contextlib.suppress(OSError):
                seen.extend(os.read(fd, 65536))
    os.kill(pid, signal.SIGKILL)
    raise AssertionError("rtok did not exit")


def test_interactive_install_with_one_confirmation(isolated_home: Path) -> None:
    claude = isolated_home / ".claude"
    claude.mkdir()  # detected: pre-checked in the list
    (claude / "settings.json").write_bytes(b'{"model": "opus"}\n')
    pid, fd = _spawn(["init", "-g"])
    seen = bytearray()
    try:
        _read_until(fd, b"which agents?", seen)
        time.sleep(0.3)
        os.write(fd, b"\r")  # accept the pre-checked agents
        _read_until(fd, b"Scope?", seen)
        time.sleep(0.3)
        os.write(fd, b"\r")  # the default scope: global, as -g says
        _read_until(fd, b"Apply these", seen)
        assert b"settings.json" in seen and b"+++ b" in seen  # the diff came first
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


def test_declining_the_confirmation_writes_nothing(isolated_home: Path) -> None:
    claude = isolated_home / ".claude"
    claude.mkdir()
    pid, fd = _spawn(["init", "-g"])
    seen = bytearray()
    try:
        _read_until(fd, b"which agents?", seen)
        time.sleep(0.3)
        os.write(fd, b"\r")
        _read_until(fd, b"Scope?", seen)
        time.sleep(0.3)
        os.write(fd, b"\r")
        _read_until(fd, b"Apply these", seen)
        time.sleep(0.3)
        os.write(fd, b"n")
        code = _wait(pid, fd, seen)
    finally:
        os.close(fd)
    assert code == 1
    assert os.listdir(claude) == []
