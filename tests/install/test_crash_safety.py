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
from pathlib import Path

import pytest

from rtok.formats import jsonc
from rtok.install.fsio import TEMP_MARKER
from rtok.install.transaction import STEP_DELAY_ENV, STEP_MARKER

KILLS = 200
INSTALL = ["init", "-a", "claude", "-g", "--auto-patch"]
UNINSTALL = ["uninstall", "-a", "claude", "-g", "--auto-patch"]
SETTINGS = (
    b'{\n\t// user settings, tab-indented\n\t"model": "opus",\n\t"hooks": {"PreToolUse": [\n'
    b'\t\t{"matcher": "Bash", "hooks": [{"type": "command", "command": "guard"}]},\n\t]},\n}'
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
    return subprocess.Popen([sys.executable, "-m", "rtok", *args], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


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


@pytest.mark.slow
def test_kill_at_random_points_leaves_old_or_new_bytes(isolated_home: Path) -> None:
    claude = isolated_home / ".claude"
    claude.mkdir()
    (claude / "settings.json").write_bytes(SETTINGS)
    (claude / "CLAUDE.md").write_bytes(CLAUDE_MD)
    env = dict(os.environ)
    old = _files(isolated_home)
    _finish(INSTALL, env)
    new = _files(isolated_home)
    _finish(UNINSTALL, env)
    assert _files(isolated_home) == old
    assert all(new[name] not in (None, old[name]) for name in new)

    rng = random.Random(20261129)
    delay = 0.01
    env[STEP_DELAY_ENV] = str(delay)
    steps = {tuple(INSTALL): _count_steps(INSTALL, env), tuple(UNINSTALL): 0}
    steps[tuple(UNINSTALL)] = _count_steps(UNINSTALL, env)
    assert min(steps.values()) >= 4
    killed_mid_write = 0
    for index in range(KILLS):
        args = INSTALL if index % 2 == 0 else UNINSTALL
        proc = _rtok(args, env)
        # Kill after a random number of announced steps, at a random instant inside it.
        _kill_after(proc, rng.randint(1, steps[tuple(args)]), rng.uniform(0, delay * 2))
        now = _files(isolated_home)
        mixed = {name for name in now if now[name] != old[name] and now[name] != new[name]}
        assert not mixed, f"kill #{index}: {mixed} hold neither old nor new bytes"
        if len({now[n] == new[n] for n in now}) == 2:
            killed_mid_write += 1
        if now["settings.json"] is not None:
            jsonc.parse(now["settings.json"])
        if index % 25 == 24:  # a rerun converges, from wherever the kill left things
            _finish(args, env)
            assert _files(isolated_home) == (new if args is INSTALL else old)
    _finish(INSTALL, env)
    assert _files(isolated_home) == new
    _finish(UNINSTALL, env)
    assert _files(isolated_home) == old
    assert [n for n in os.listdir(claude) if TEMP_MARKER in n] == []
    assert sorted(os.listdir(claude)) == ["CLAUDE.md", "settings.json"]
    # Some kills must have landed between two files' writes, or the test proved little.
    print(f"{KILLS} kills over {steps} steps; {killed_mid_write} left a mix of old and new "
          "files")
    assert killed_mid_write > 0
