"""Running rtok on a real pseudo-terminal (the `pty` module), for prompts and colour."""

from __future__ import annotations

import contextlib
import os
import pty
import select
import signal
import sys
import time
from collections.abc import Mapping, Sequence


def spawn(
    args: Sequence[str], *, cwd: str | None = None, env: Mapping[str, str] | None = None
) -> tuple[int, int]:
    """`python -m rtok ARGS` on a new terminal: (pid, the terminal's fd)."""
    full_env = dict(os.environ, TERM="xterm-256color", COLUMNS="120", LINES="40")
    full_env.update(env or {})
    pid, fd = pty.fork()
    if pid == 0:  # child: run rtok on the terminal
        try:
            if cwd is not None:
                os.chdir(cwd)
            os.execve(sys.executable, [sys.executable, "-m", "rtok", *args], full_env)
        finally:
            os._exit(127)
    return pid, fd


def read_until(fd: int, wanted: bytes, seen: bytearray, timeout: float = 60) -> None:
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


def answer(fd: int, prompt: bytes, keys: bytes, seen: bytearray) -> None:
    read_until(fd, prompt, seen)
    time.sleep(0.3)  # let the prompt take the terminal before typing
    os.write(fd, keys)


def wait(pid: int, fd: int, seen: bytearray, timeout: float = 60) -> int:
    """The exit status, reading the terminal meanwhile; the fd is closed."""
    try:
        code = wait_exit(pid, fd, seen, timeout)
        with contextlib.suppress(OSError):
            while chunk := os.read(fd, 65536):
                seen.extend(chunk)
        return code
    finally:
        os.close(fd)


def run(
    args: Sequence[str], *, cwd: str | None = None, env: Mapping[str, str] | None = None
) -> tuple[int, bytes]:
    """Run to the end on a terminal: (exit status, everything it showed)."""
    seen = bytearray()
    pid, fd = spawn(args, cwd=cwd, env=env)
    return wait(pid, fd, seen), bytes(seen)


def wait_exit(pid: int, fd: int, seen: bytearray, timeout: float = 60) -> int:
    """The exit status, reading the terminal meanwhile; the caller closes the fd."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return os.waitstatus_to_exitcode(status)
        ready, _, _ = select.select([fd], [], [], 0.2)
        if ready:
            with contextlib.suppress(OSError):
                seen.extend(os.read(fd, 65536))
    os.kill(pid, signal.SIGKILL)
    raise AssertionError(f"rtok did not exit; got {bytes(seen)[-2000:]!r}")
