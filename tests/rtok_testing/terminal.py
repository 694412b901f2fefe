"""A real pseudo-terminal for interactive rtok runs: read the screen, type answers, wait."""

from __future__ import annotations

import contextlib
import os
import select
import signal
import time


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


def wait_exit(pid: int, fd: int, seen: bytearray) -> int:
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
