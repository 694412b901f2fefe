"""A reader that closes early (`rtok agents | head -1`): no message, no traceback, and the
exit status rtok would have had (0 here; `rtok run` keeps its command's).

Each verb runs twice: with stdout on a pipe whose reader closes after one line, and on a
pipe whose reader is already gone (so the very first write fails with EPIPE, whatever the
output's size). The status checked is the rtok process's own, as `set -o pipefail` sees it.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from rtok_testing import run_rtok

VERBS = [
    ["init", "--all", "--dry-run", "-g"],
    ["uninstall", "--all", "--dry-run", "-g"],
    ["agents"],
    ["agents", "--json"],
    ["expand", "ID"],
    ["expand", "ID", "--lines", "3000"],
    ["expand", "--list"],
    ["run", "seq", "1", "100000"],
    ["--help"],
    ["help", "init"],
    ["run", "--help"],
    ["verify"],
    ["doctor"],
    ["gain"],
    ["gain", "--history"],
    ["config", "show"],
    ["config", "path"],
    ["trust", "--list"],
    ["completion", "bash"],
]


@pytest.fixture
def archived_id(isolated_home: Path) -> str:
    """The id of an archived long output."""
    result = run_rtok(["run", "seq", "1", "5000"])
    found = re.search(rb"rtok expand (\w+)", result.stdout)
    assert found, result.stdout[-300:]
    for _ in range(3):  # some history for `gain` and `expand --list`
        run_rtok(["run", "seq", "1", "3000"])
    return found.group(1).decode()


def _argv(args: list[str], entry: str) -> list[str]:
    return [sys.executable, "-m", "rtok", *(entry if a == "ID" else a for a in args)]


@pytest.mark.parametrize("args", VERBS, ids=lambda a: " ".join(a))
def test_reader_closing_after_one_line(
    args: list[str], archived_id: str, isolated_home: Path
) -> None:
    (isolated_home / ".claude").mkdir()
    proc = subprocess.Popen(
        _argv(args, archived_id),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=isolated_home,
        env=dict(os.environ),
    )
    assert proc.stdout is not None and proc.stderr is not None
    first = proc.stdout.readline()
    proc.stdout.close()  # `head -1` has its line
    err = proc.stderr.read()
    status = proc.wait(timeout=120)
    assert first
    # (init's notes go to stderr; nothing about the pipe does)
    assert b"Traceback" not in err and b"pipe" not in err.lower() and b"Errno" not in err
    assert status == 0, err


@pytest.mark.parametrize("args", VERBS, ids=lambda a: " ".join(a))
def test_reader_gone_before_the_first_write(
    args: list[str], archived_id: str, isolated_home: Path
) -> None:
    (isolated_home / ".claude").mkdir()
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        done = subprocess.run(
            _argv(args, archived_id),
            stdout=write_end,
            stderr=subprocess.PIPE,
            cwd=isolated_home,
            env=dict(os.environ),
            timeout=120,
            check=False,
        )
    finally:
        os.close(write_end)
    err = done.stderr
    assert b"Traceback" not in err and b"pipe" not in err.lower() and b"Errno" not in err, err
    assert done.returncode == 0, err


def test_run_keeps_its_commands_status_for_a_gone_reader(tmp_path: Path) -> None:
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        done = subprocess.run(
            [sys.executable, "-m", "rtok", "run", "sh", "-c", "seq 1 50000; exit 3"],
            stdout=write_end,
            stderr=subprocess.PIPE,
            cwd=tmp_path,
            env=dict(os.environ),
            timeout=120,
            check=False,
        )
    finally:
        os.close(write_end)
    assert done.returncode == 3
    assert done.stderr == b""
