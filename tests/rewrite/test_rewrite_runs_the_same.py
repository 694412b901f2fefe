"""A rewritten command, run by bash, does what the original did.

A stand-in `rtok` on PATH logs its arguments and then runs them unchanged, so the only
difference between the two runs is the rewrite itself: same stdout, same exit status, and
the log proves every `rtok run` sits where a command starts (an insertion in the middle of
an argument list would show up as a wrong command or a different output).
"""

from __future__ import annotations

import os
import random
import stat
import subprocess
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rtok.rewrite.rewriter import Settings, rewrite_command

STAND_IN = """#!/bin/sh
printf '%s\\n' "$*" >> "$RTOK_STAND_IN_LOG"
[ "$1" = run ] && shift
exec "$@"
"""

CASES = [
    "ls",
    "ls -a; head -3 notes.txt",
    "FOO=1 ls -a",
    "A='x y' env B=2 wc -l notes.txt",
    "timeout 5 grep -c line notes.txt",
    "nice -n 1 wc -c notes.txt",
    "command ls",
    "cat notes.txt | grep two",
    "ls | grep notes",
    "git log --oneline | grep first",
    "git status --short && git log --format=%s",
    "bash -c 'ls && wc -l notes.txt'",
    'sh -c "grep -c line notes.txt; ls"',
    "if grep -q two notes.txt; then tail -n 1 notes.txt; else echo no; fi",
    "for f in notes.txt other.txt; do wc -l $f; done",
    "(cd sub && ls)",
    "{ ls; wc -l notes.txt; }",
    "diff notes.txt other.txt; echo status $?",
    "ls \\\n  -a",
    "find . -name '*.txt'",
    "tree -a sub",
    "make -s hello",
    "git diff HEAD --stat 2>&1",
    "ls nonexistent-file 2>/dev/null || echo missing",
    "RTOK_DISABLED=1 ls && ls",
    "ls -a\n\n# a comment\nwc -l notes.txt\n",
]


@pytest.fixture()
def workdir(tmp_path: Path) -> Path:
    work = tmp_path / "work"
    (work / "sub").mkdir(parents=True)
    (work / "sub" / "inner.txt").write_text("x\n")
    (work / "notes.txt").write_text("line one\nline two\nline three\n")
    (work / "other.txt").write_text("line one\nline 2\n")
    (work / "Makefile").write_text("hello:\n\t@echo hello from make\n")
    env = dict(
        os.environ,
        GIT_AUTHOR_NAME="t",
        GIT_AUTHOR_EMAIL="t@e",
        GIT_COMMITTER_NAME="t",
        GIT_COMMITTER_EMAIL="t@e",
    )
    for args in (["init", "-q"], ["add", "notes.txt"], ["commit", "-qm", "first"]):
        subprocess.run(["git", *args], cwd=work, env=env, check=True, capture_output=True)
    return work


def run_bash(cmd: str, cwd: Path, bin_dir: Path, log: Path) -> tuple[int, bytes]:
    env = dict(
        os.environ,
        PATH=f"{bin_dir}{os.pathsep}{os.environ['PATH']}",
        RTOK_STAND_IN_LOG=str(log),
        LC_ALL="C",
    )
    result = subprocess.run(
        ["bash", "-c", cmd], cwd=cwd, env=env, capture_output=True, timeout=30, check=False
    )
    return result.returncode, result.stdout


@pytest.mark.parametrize("cmd", CASES)
def test_rewritten_command_behaves_like_the_original(
    cmd: str, workdir: Path, tmp_path: Path
) -> None:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    stand_in = bin_dir / "rtok"
    stand_in.write_text(STAND_IN)
    stand_in.chmod(stand_in.stat().st_mode | stat.S_IXUSR)
    log = tmp_path / "calls.log"

    rewritten = rewrite_command(cmd, settings=Settings())
    assert rewritten is not None and rewritten != cmd, "the case should be rewritten"
    expected = run_bash(cmd, workdir, bin_dir, log)
    assert not log.exists()
    assert run_bash(rewritten, workdir, bin_dir, log) == expected
    calls = log.read_text().splitlines()
    # Loops run an insertion more than once, untaken branches not at all.
    assert calls and all(call.startswith("run ") for call in calls)


RUNNABLE = [
    "ls",
    "ls -a",
    "wc -l notes.txt",
    "grep -c line notes.txt",
    "cat notes.txt",
    "head -n 1 notes.txt",
    "tail -n 2 notes.txt",
    "echo hi",
    "true",
    "false",
    "git status --short",
    "git log --oneline",
    "diff notes.txt other.txt",
    "tree sub",
    "find . -name '*.txt'",
    "grep -n two notes.txt",
    "make -s hello",
]
PREFIXES = ["", "", "", "FOO=1 ", "timeout 5 ", "nice -n 1 ", "env A=b ", "command "]
CONSUMERS = ["head -n 2", "cat", "tail -n 1", "grep line", "wc -l"]
JOINERS = [" && ", " || ", "; ", "\n"]


def generated_line(rng: random.Random) -> str:
    parts = []
    for index in range(rng.randint(1, 3)):
        if index:
            parts.append(rng.choice(JOINERS))
        command = rng.choice(PREFIXES) + rng.choice(RUNNABLE)
        if rng.random() < 0.3:
            command += " | " + rng.choice(CONSUMERS)
        shape = rng.randrange(8)
        if shape == 0:
            command = f"bash -c '{command}'"
        elif shape == 1:
            command = f"{{ {command}; }}"
        elif shape == 2:
            command = f"( {command} )"
        elif shape == 3:
            command = f"if true; then {command}; fi"
        parts.append(command)
    return "".join(parts)


@settings(
    deadline=None,
    database=None,
    max_examples=120,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(seed=st.integers(0, 2**63))
def test_generated_rewrites_behave_like_the_originals(
    seed: int, workdir: Path, tmp_path: Path
) -> None:
    cmd = generated_line(random.Random(seed))
    rewritten = rewrite_command(cmd, settings=Settings())
    if rewritten is None or rewritten == cmd:
        return
    bin_dir = tmp_path / "bin"
    if not bin_dir.exists():
        bin_dir.mkdir()
        stand_in = bin_dir / "rtok"
        stand_in.write_text(STAND_IN)
        stand_in.chmod(stand_in.stat().st_mode | stat.S_IXUSR)
    log = tmp_path / "calls.log"
    assert run_bash(rewritten, workdir, bin_dir, log) == run_bash(cmd, workdir, bin_dir, log), (
        cmd,
        rewritten,
    )
