"""`rtok run` keeps the command's stdout and stderr apart, under real bash redirections.

Each case runs a command line in bash twice, as written and with `rtok run ` inserted in
front of the command (the rewriter's output shape), and compares the bytes bash's own
stdout and stderr received: equal where rtok left the stream alone; where it shortened one
(a trailer names the entry), `rtok expand` gives the raw bytes back. Nothing ever moves
from one fd to the other.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from rtok_testing import run_rtok

PY = sys.executable
RTOK = f"{sys.executable} -m rtok"
BASH = "/bin/bash"

# (command, redirection tail) -- the command writes to both streams.
COMMANDS = [
    "ls /nosuch-dir-rtok",
    "ls / /nosuch-dir-rtok",
    "cat /nosuch-file-rtok",
    "git status",
    "git --no-pager log -1 --format=%s",
    f"{PY} -c \"import sys; print('out'); print('err', file=sys.stderr); sys.exit(3)\"",
    "sh -c 'echo a; echo b >&2; echo c; echo d >&2'",
    "grep -r needle-rtok /nosuch-dir-rtok .",
]
TAILS = ["", " 2>/dev/null", " >/dev/null", " 2>&1 >/dev/null", " 2>&1", " >/dev/null 2>&1"]
CASES = [(cmd, tail) for cmd in COMMANDS for tail in TAILS]


def bash(line: str, cwd: Path) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [BASH, "-c", line],
        capture_output=True,
        cwd=cwd,
        timeout=60,
        env=dict(os.environ),
        check=False,
    )


@pytest.fixture
def workdir(tmp_path: Path) -> Path:
    repo = tmp_path / "repo"
    repo.mkdir()
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    (repo / "notes.txt").write_text("one\ntwo\n")
    return repo


@pytest.mark.parametrize(
    ("command", "tail"), CASES, ids=[f"{c[:30]}|{t.strip() or 'plain'}" for c, t in CASES]
)
def test_outputs_reach_the_same_fds(command: str, tail: str, workdir: Path) -> None:
    raw = bash(command + tail, workdir)
    wrapped = bash(f"{RTOK} run {command}{tail}", workdir)
    assert wrapped.returncode == raw.returncode
    for name, before, after in (
        ("stdout", raw.stdout, wrapped.stdout),
        ("stderr", raw.stderr, wrapped.stderr),
    ):
        if not before:
            assert after == b"", f"{name} got bytes the command never sent there"
            continue
        if after == before:
            continue
        expanded = run_rtok(["expand", _entry_id(after)])
        assert before in (expanded.stdout, expanded.stderr), name


LONG = (
    f"{PY} -c \"import sys\nfor i in range(400): print('out line', i)\n"
    "for i in range(300): print('note line', i, file=sys.stderr)\""
)


def _entry_id(text: bytes) -> str:
    found = re.search(rb"\[rtok expand ([0-9a-f]{12}) ", text)
    assert found, text[-300:]
    return found.group(1).decode()


def test_long_streams_are_cut_apart_and_expand_gives_each_back(workdir: Path) -> None:
    raw = bash(LONG, workdir)
    wrapped = bash(f"{RTOK} run {LONG}", workdir)
    assert wrapped.returncode == 0
    # Each stream was shortened on its own fd; the trailer is on stdout.
    assert b"note line" not in wrapped.stdout and b"out line" not in wrapped.stderr
    assert len(wrapped.stdout) < len(raw.stdout) and len(wrapped.stderr) < len(raw.stderr)
    entry = _entry_id(wrapped.stdout)
    # Each shortened stream names the entry, so either one alone says where the rest is.
    assert _entry_id(wrapped.stderr) == entry
    expanded = run_rtok(["expand", entry])
    assert expanded.returncode == 0
    assert expanded.stdout == raw.stdout
    assert expanded.stderr == raw.stderr
    merged = run_rtok(["expand", entry, "--merged"])
    assert merged.stdout == raw.stdout + raw.stderr and merged.stderr == b""


def test_redirections_after_a_cut_command_act_on_their_stream(workdir: Path) -> None:
    quiet_err = bash(f"{RTOK} run {LONG} 2>/dev/null", workdir)
    assert quiet_err.stderr == b"" and b"out line 399" in quiet_err.stdout
    quiet_out = bash(f"{RTOK} run {LONG} >/dev/null", workdir)
    assert quiet_out.stdout == b"" and b"note line 299" in quiet_out.stderr
    entry = _entry_id(quiet_out.stderr)
    assert run_rtok(["expand", entry]).stdout == bash(LONG, workdir).stdout
    swapped = bash(f"{RTOK} run {LONG} 2>&1 >/dev/null", workdir)
    assert b"note line 299" in swapped.stdout and b"out line" not in swapped.stdout


def test_both_streams_to_one_place_keep_their_order(workdir: Path) -> None:
    script = (
        "import sys\nfor i in range(300):\n"
        "    s = sys.stdout if i % 3 else sys.stderr\n"
        "    print('line', i, 'stderr' if s is sys.stderr else 'stdout', file=s, flush=True)"
    )
    line = f'{PY} -c "{script}"'
    raw = bash(f"{line} 2>&1", workdir)
    wrapped = bash(f"{RTOK} run {line} 2>&1", workdir)
    entry = _entry_id(wrapped.stdout)
    expanded = run_rtok(["expand", entry])
    # One stream, in the order it was written, exactly as a shell would have shown it.
    assert expanded.stdout == raw.stdout and expanded.stderr == b""


def test_an_entry_of_the_old_single_stream_format_still_expands(tmp_path: Path) -> None:
    from rtok.store import archive

    raw = b"".join(b"old line %d\n" % i for i in range(500))
    writer = archive.ArchiveWriter("old", "gen", 1 << 20)
    writer.write(raw)  # stream 0: one merged stream, as every pre-split entry holds
    import hashlib

    entry = writer.finish(hashlib.sha256(raw).hexdigest(), len(raw), 500, 0, 100, 30)
    writer.close()
    shown = run_rtok(["expand", entry])
    assert shown.stdout == raw and shown.stderr == b""


def test_a_version_1_archive_is_upgraded_and_keeps_its_entries() -> None:
    import sqlite3
    import zlib

    from rtok import paths
    from rtok.store import archive

    os.makedirs(os.path.dirname(paths.archive_db()), exist_ok=True)
    conn = sqlite3.connect(paths.archive_db())
    v1 = archive.SCHEMA.replace("    stream INTEGER NOT NULL DEFAULT 0,\n", "")
    conn.executescript(v1 + ";PRAGMA user_version = 1;")
    compressor = zlib.compressobj(6, zlib.DEFLATED, 31)
    data = compressor.compress(b"kept\n" * 100) + compressor.flush()
    conn.execute(
        "INSERT INTO entries (key, id, created, command, family, raw_bytes,"
        " stored_bytes, lines) VALUES (1, 'abcdefabcdef', 1e10, 'x', 'gen', 500,"
        " 500, 100)"
    )
    conn.execute("INSERT INTO pieces (entry, seq, data) VALUES (1, 0, ?)", (data,))
    conn.commit()
    conn.close()
    shown = run_rtok(["expand", "abcdefabcdef"])
    assert shown.returncode == 0 and shown.stdout == b"kept\n" * 100


def test_expand_help_documents_the_streams() -> None:
    shown = run_rtok(["expand", "--help"])
    assert shown.returncode == 0
    assert b"--merged" in shown.stdout and b"stderr" in shown.stdout
