"""Bounded processes: own session, timeouts, group kill, orphan adoption, env-marker sweep."""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import subprocess
import time
from dataclasses import dataclass

PR_SET_CHILD_SUBREAPER = 36
MARKER_NAME = "E2E_RUN_ID"


def become_subreaper() -> bool:
    """Orphaned descendants are re-parented to this process instead of init (Linux only)."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return bool(libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0)
    except (OSError, AttributeError):
        return False


@dataclass
class Outcome:
    """How one bounded process ended."""

    returncode: int | None
    seconds: float
    timed_out: bool


def _killpg(pgid: int, sig: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, sig)


def stop_group(proc: subprocess.Popen[bytes], grace: float = 3.0) -> None:
    """SIGTERM the process group, wait a little, then SIGKILL it (also after a normal exit)."""
    pgid = proc.pid
    _killpg(pgid, signal.SIGTERM)
    with contextlib.suppress(subprocess.TimeoutExpired):
        proc.wait(timeout=grace)
    _killpg(pgid, signal.SIGKILL)
    with contextlib.suppress(subprocess.TimeoutExpired):
        proc.wait(timeout=5)


def run_bounded(
    argv: list[str],
    *,
    env: dict[str, str],
    cwd: str,
    stdout_path: str,
    stderr_path: str,
    timeout: float,
) -> Outcome:
    """Run argv in its own session with stdin from /dev/null; kill its group when done."""
    start = time.monotonic()
    with open(stdout_path, "wb") as out, open(stderr_path, "wb") as err:
        proc = subprocess.Popen(
            argv,
            env=env,
            cwd=cwd,
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=err,
            start_new_session=True,
        )
        timed_out = False
        try:
            proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            timed_out = True
        stop_group(proc, grace=3.0 if timed_out else 0.5)
    return Outcome(proc.returncode if not timed_out else None, time.monotonic() - start, timed_out)


def pids_with_env(name: str, value: str) -> list[int]:
    """Processes whose environment holds exactly NAME=value (never matched by process name)."""
    needle = f"{name}={value}".encode()
    found = []
    me = os.getpid()
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == me:
            continue
        try:
            with open(f"/proc/{entry}/environ", "rb") as handle:
                environ = handle.read().split(b"\0")
        except OSError:
            continue
        if needle in environ:
            found.append(int(entry))
    return found


def reap_children() -> None:
    """Collect exit statuses of adopted orphans so they do not linger as zombies."""
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


def sweep_marked(value: str, *, rounds: int = 10) -> list[int]:
    """SIGTERM then SIGKILL every process carrying our marker; returns the pids seen.

    Only the swept pids are reaped (never `waitpid(-1)`), so a caller with other threads
    waiting on their own children is safe."""
    seen: list[int] = []
    for attempt in range(rounds):
        pids = pids_with_env(MARKER_NAME, value)
        if not pids:
            break
        seen.extend(p for p in pids if p not in seen)
        sig = signal.SIGTERM if attempt == 0 else signal.SIGKILL
        for pid in pids:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, sig)
        time.sleep(0.3 if attempt == 0 else 0.1)
        for pid in pids:
            with contextlib.suppress(ChildProcessError, OSError):
                os.waitpid(pid, os.WNOHANG)  # adopted orphans of ours; others raise
    return seen
