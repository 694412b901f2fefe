"""SIGKILL `rtok init` / `rtok uninstall` at random points of a multi-file transaction.

After every kill each file must hold its old bytes or its new bytes (absent counts as the
old state of a file rtok creates), and parse; a rerun must converge to the full install or
the full uninstall. With a test-only env var the transaction announces each step on stderr
and sleeps a little; the test kills after a random number of steps, at a random instant
inside the step, so kills land on every step whatever the machine's load.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from rtok.formats import jsonc
from rtok.install.fsio import TEMP_MARKER
from rtok.install.transaction import STEP_DELAY_ENV, STEP_MARKER

KILLS = 200
INSTALL = ["init", "-a", "claude", "-g", "--auto-patch"]
UNINSTALL = ["uninstall", "-a", "claude", "-g", "--auto-patch"]
# Strict JSON (what Claude Code reads), tab-indented, no final newline.
SETTINGS = (
    b'{\n\t"model": "opus",\n\t"hooks": {"PreToolUse": [\n'
    b'\t\t{"matcher": "Bash", "hooks": [{"type": "command", "command": "guard"}]}\n\t]}\n}'
)
CLAUDE_MD = b"# Notes\r\n\r\nkeep me\r\n"


def _files(home: Path) -> dict[str, bytes | None]:
    claude = home / ".claude"
    found: dict[str, bytes | None] = {}
    for name in ("settings.json", "CLAUDE.md", "RTOK.md"):
        path = claude / name
        found[name] = path.read_bytes() if path.exists() else None
    return found


def _rtok(args: list[str], env: dict[str, str]) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "rtok", *args],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )


def _count_steps(args: list[str], env: dict[str, str]) -> int:
    proc = _rtok(args, env)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err.decode()
    return err.decode().count(STEP_MARKER)


def _kill_after(proc: subprocess.Popen[bytes], steps: int, extra: float) -> None:
    assert proc.stderr is not None
    seen = 0
    while seen < steps:
        line = proc.stderr.readline()
        if not line:  # the run finished with fewer steps (less left to do)
            break
        seen += STEP_MARKER.encode() in line
    time.sleep(extra)
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=30)
    proc.stderr.close()


def _finish(args: list[str], env: dict[str, str]) -> None:
    proc = _rtok(args, env)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err.decode()


def _check_after_kill(
    home: Path, index: int, old: dict[str, bytes | None], new: dict[str, bytes | None]
) -> int:
    """Every file holds its old or its new bytes and settings.json parses; 1 when the kill
    left some files old and others new (mid-write), else 0."""
    now = _files(home)
    mixed = {name for name in now if now[name] != old[name] and now[name] != new[name]}
    assert not mixed, f"kill #{index}: {mixed} hold neither old nor new bytes"
    if now["settings.json"] is not None:
        jsonc.parse(now["settings.json"])
    return 1 if len({now[n] == new[n] for n in now}) == 2 else 0


def _kill_sequence(home: Path, seed: int, kills: int) -> tuple[int, dict[tuple[str, ...], int]]:
    """Install/uninstall in `home`, killed `kills` times; returns (mixed states, steps)."""
    claude = home / ".claude"
    claude.mkdir(parents=True)
    (claude / "settings.json").write_bytes(SETTINGS)
    (claude / "CLAUDE.md").write_bytes(CLAUDE_MD)
    env = dict(
        os.environ,
        HOME=str(home),
        XDG_CONFIG_HOME=str(home / ".config"),
        XDG_DATA_HOME=str(home / ".local" / "share"),
        XDG_CACHE_HOME=str(home / ".cache"),
    )
    old = _files(home)
    _finish(INSTALL, env)
    new = _files(home)
    _finish(UNINSTALL, env)
    assert _files(home) == old
    assert all(new[name] not in (None, old[name]) for name in new)

    rng = random.Random(seed)
    delay = 0.01
    env[STEP_DELAY_ENV] = str(delay)
    steps = {tuple(INSTALL): _count_steps(INSTALL, env), tuple(UNINSTALL): 0}
    steps[tuple(UNINSTALL)] = _count_steps(UNINSTALL, env)
    assert min(steps.values()) >= 4
    killed_mid_write = 0
    for index in range(kills):
        args = INSTALL if index % 2 == 0 else UNINSTALL
        proc = _rtok(args, env)
        # Kill after a random number of announced steps, at a random instant inside it.
        _kill_after(proc, rng.randint(1, steps[tuple(args)]), rng.uniform(0, delay * 2))
        killed_mid_write += _check_after_kill(home, index, old, new)
        if index % 25 == 24:  # a rerun converges, from wherever the kill left things
            _finish(args, env)
            assert _files(home) == (new if args is INSTALL else old)
    _finish(INSTALL, env)
    assert _files(home) == new
    _finish(UNINSTALL, env)
    assert _files(home) == old
    assert [n for n in os.listdir(claude) if TEMP_MARKER in n] == []
    assert sorted(os.listdir(claude)) == ["CLAUDE.md", "settings.json"]
    return killed_mid_write, steps


@pytest.mark.slow
def test_kill_at_random_points_leaves_old_or_new_bytes(tmp_path: Path) -> None:
    # Two homes killed side by side: the same 200 kill points in half the time on 2 cores.
    with ThreadPoolExecutor(max_workers=2) as pool:
        runs = [
            pool.submit(_kill_sequence, tmp_path / f"home{n}", 20261129 + n, KILLS // 2)
            for n in range(2)
        ]
        results = [run.result() for run in runs]
    mixed = sum(count for count, _ in results)
    print(f"{KILLS} kills over {results[0][1]} steps; {mixed} left a mix of old and new files")
    # Some kills must have landed between two files' writes, or the test proved little.
    assert mixed > 0
