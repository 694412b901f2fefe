"""Differential test: each command run raw and rewritten under real bash.

Side-effect-free commands (echo, printf, ls, cat, grep, git, ... in a scratch repository)
combined with `2>/dev/null`, `>/dev/null`, `2>&1 >/dev/null`, `2>&1`, pipes, `&&`, `||`,
`;`, subshells and groups. The rewritten line runs the real `rtok run` (absolute path).
Required: the same exit status; on each fd the same bytes, or, where rtok shortened the
output, `rtok expand ID` gives back exactly the raw bytes of that fd.

`rtok run` keeps the command's stdout and stderr apart, so every case, stderr-writing
commands under every redirect included, must hold on each fd.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from rtok.rewrite.rewriter import Settings, rewrite_command
from rtok.shell.words import quote_word

RTOK = os.path.join(os.path.dirname(sys.executable), "rtok")
TRAILER = re.compile(rb"\[rtok expand ([0-9a-f]{8,}) \xc2\xb7 [^\]]*\]\n?")

# (command, whether it writes to stderr)
BASES: list[tuple[str, bool]] = [
    ("echo hi", False),
    ("printf 'a\\nb\\n'", False),
    ("ls", False),
    ("ls -la src", False),
    ("ls -a sub", False),
    ("ls missing-dir", True),
    ("ls notes.txt missing-dir", True),
    ("cat notes.txt", False),
    ("cat missing.txt", True),
    ("grep -n line notes.txt", False),
    ("grep -c line notes.txt", False),
    ("grep nomatch notes.txt", False),
    ("grep -rn line src", False),
    ("grep line missing.txt", True),
    ("git status", False),
    ("git status --short", False),
    ("git log --oneline", False),
    ("git log --format=%s -3", False),
    ("git diff HEAD~1 --stat", False),
    ("git show --stat HEAD", False),
    ("git branch", False),
    ("git log missing-ref", True),
    ("wc -l notes.txt", False),
    ("find src -name '*.txt'", False),
    ("diff notes.txt other.txt", False),
    ("head -3 notes.txt", False),
    ("tail -n 2 notes.txt", False),
]
REDIRECTS = ["", " 2>/dev/null", " >/dev/null", " 2>&1 >/dev/null", " 2>&1"]
COMPOUNDS = [
    "{X} && echo ok",
    "{X} || echo failed",
    "echo start; {X}",
    "({X})",
    "{ {X}; }",
    "{X} | cat",
    "{X}; echo rc=$?",
    "true && {X} | grep -c .",
]
# Earlier in the line, the meaning of a command name or an fd changes: PATH assigned,
# exported or unset, `hash`, `ulimit`, `enable`, fds moved by `exec` or closed. rtok leaves
# these lines alone (a rewritten one would find no rtok, another program, or no fd).
MEANING_CHANGES = [
    "PATH=/nonexistent; {X}",
    "export PATH=/nonexistent; {X}",
    "unset PATH; {X}",
    "declare -x PATH=/nonexistent; {X}",
    'PATH="$PATH"; {X}',
    "hash -p /bin/false git; {X}",
    "hash -r; {X}",
    "{X} >&-",
    "{X} 2>&-",
    "{X} 1>&- 2>/dev/null",
    "{X} 3>&-",
    "{X} <&-",
    "exec 3>&1; {X}",
    "exec >&-; {X}; echo rc=$? >&2",
    "ulimit -n 16; {X}",
    "ulimit -c 0; {X}",
    "enable -n echo; {X}",
]
# Look alike, change nothing rtok depends on: rewritten, and must run the same.
MEANING_KEPT = [
    "unset FOO; {X}",
    "export FOO=1; {X}",
    "FOO=1; {X}",
    "cd . && {X}",
    "{X} 2>&1 >/dev/null; echo rc=$?",
]


def _cases() -> list[tuple[str, bool, str, bool]]:
    """(command line, base writes stderr, the base's redirect, base feeds a pipe)."""
    out = []
    for base, err in BASES:
        for redirect in REDIRECTS:
            out.append((base + redirect, err, redirect, False))
        for compound in COMPOUNDS:
            out.append((compound.replace("{X}", base), err, "", "{X} | " in compound))
        out.append((f"{base} 2>/dev/null && {base} >/dev/null", err, " 2>/dev/null", False))
        for template in MEANING_CHANGES + MEANING_KEPT:
            out.append((template.replace("{X}", base), err, "", False))
    return out


CASES = _cases()


def _params() -> list[object]:
    return [pytest.param(cmd, id=cmd.replace("\n", "\\n")) for cmd, _, _, _ in CASES]


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    work = tmp_path_factory.mktemp("differential") / "repo"
    (work / "src").mkdir(parents=True)
    (work / "sub").mkdir()
    (work / "sub" / "inner.txt").write_text("x\n")
    (work / "notes.txt").write_text("".join(f"line {i} of the notes\n" for i in range(120)))
    (work / "other.txt").write_text("".join(f"line {i}\n" for i in range(0, 120, 3)))
    for i in range(70):
        (work / "src" / f"mod{i:02d}.txt").write_text(f"line {i}\nother\n" * 3)
    env = dict(
        os.environ,
        GIT_AUTHOR_NAME="t",
        GIT_AUTHOR_EMAIL="t@e",
        GIT_COMMITTER_NAME="t",
        GIT_COMMITTER_EMAIL="t@e",
        GIT_AUTHOR_DATE="2026-01-01T00:00:00Z",
        GIT_COMMITTER_DATE="2026-01-01T00:00:00Z",
        GIT_CONFIG_NOSYSTEM="1",
        GIT_CONFIG_GLOBAL=os.devnull,
    )
    subprocess.run(["git", "init", "-q"], cwd=work, env=env, check=True)
    for i in range(40):
        with open(work / "notes.txt", "a") as handle:
            handle.write(f"change {i}\n")
        subprocess.run(["git", "add", "-A"], cwd=work, env=env, check=True)
        subprocess.run(
            ["git", "commit", "-qm", f"change number {i}"], cwd=work, env=env, check=True
        )
    (work / "notes.txt").write_text((work / "notes.txt").read_text() + "uncommitted\n")
    return work


def run_bash(cmd: str, cwd: Path) -> tuple[int, bytes, bytes]:
    env = dict(os.environ, LC_ALL="C", GIT_CONFIG_NOSYSTEM="1", GIT_CONFIG_GLOBAL=os.devnull)
    result = subprocess.run(
        ["bash", "-c", cmd], cwd=cwd, env=env, capture_output=True, timeout=60, check=False
    )
    return result.returncode, result.stdout, result.stderr


def _expanded(archive_id: bytes, cwd: Path) -> bytes:
    result = subprocess.run(
        [RTOK, "expand", archive_id.decode()], cwd=cwd, capture_output=True, timeout=60, check=True
    )
    return result.stdout


def _same_or_expands(raw: bytes, got: bytes, cwd: Path) -> bool:
    """`got` equals `raw` once each shortened block (ending in rtok's trailer) is replaced
    by `rtok expand` of its archive. The block starts where `got` stops matching `raw`."""
    found = TRAILER.search(got)
    if found is None:
        return raw == got
    full = _expanded(found.group(1), cwd)
    common = 0
    limit = min(len(raw), found.start())
    while common < limit and raw[common] == got[common]:
        common += 1
    for start in range(common, -1, -1):
        candidate = got[:start] + full
        if raw.startswith(candidate) and _same_or_expands(
            raw[len(candidate) :], got[found.end() :], cwd
        ):
            return True
    return False


def test_meaning_changes_are_left_alone() -> None:
    for base, _err in BASES:
        for template in MEANING_CHANGES:
            cmd = template.replace("{X}", base)
            assert rewrite_command(cmd, rtok_bin=quote_word(RTOK), settings=Settings()) is None
        if rewrite_command(base, rtok_bin=quote_word(RTOK), settings=Settings()) is None:
            continue
        kept = [
            t
            for t in MEANING_KEPT
            if rewrite_command(
                t.replace("{X}", base), rtok_bin=quote_word(RTOK), settings=Settings()
            )
        ]
        assert len(kept) == len(MEANING_KEPT), base


def test_enough_cases_and_enough_rewritten() -> None:
    assert len(CASES) >= 500
    rewritten = [
        c
        for c, _, _, _ in CASES
        if rewrite_command(c, rtok_bin=quote_word(RTOK), settings=Settings())
    ]
    assert len(rewritten) >= 150
    # Commands that write to stderr, rewritten, under every redirect: the per-fd checks.
    with_stderr = [
        c
        for c, err, _, _ in CASES
        if err and rewrite_command(c, rtok_bin=quote_word(RTOK), settings=Settings())
    ]
    assert len(with_stderr) >= 50


@pytest.mark.parametrize("cmd", _params())
def test_rewritten_line_runs_like_the_raw_one(cmd: str, repo: Path) -> None:
    rewritten = rewrite_command(cmd, rtok_bin=quote_word(RTOK), settings=Settings())
    if rewritten is None:
        return  # left as written: the agent runs exactly the raw line
    raw = run_bash(cmd, repo)
    got = run_bash(rewritten, repo)
    assert got[0] == raw[0], f"exit status {got[0]} != {raw[0]} for {rewritten!r}"
    assert _same_or_expands(raw[1], got[1], repo), f"stdout differs for {rewritten!r}"
    assert _same_or_expands(raw[2], got[2], repo), f"stderr differs for {rewritten!r}"
