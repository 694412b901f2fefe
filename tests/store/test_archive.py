"""Archive: exact round trip of any bytes, shown <= raw, caps, concurrent writers."""

from __future__ import annotations

import os
import random
import sqlite3
import subprocess
import sys

from hypothesis import given, settings
from hypothesis import strategies as st

from rtok import paths
from rtok.filter import capture as capture_module
from rtok.filter.render import render
from rtok.filter.rule import default_rule
from rtok.filter.settings import Settings
from rtok.store import archive
from rtok_testing import run_rtok


def _settings(**overrides: int) -> Settings:
    settings = Settings()
    for name, value in overrides.items():
        setattr(settings, name, value)
    return settings


def _run_in_process(
    raw: bytes, chunk: int, exit_code: int = 0, settings: Settings | None = None
) -> tuple[bytes, str | None]:
    from rtok.filter.pipeline import new_capture

    settings = settings or _settings()
    capture = new_capture("gen", "gen", settings)
    for start in range(0, len(raw), chunk):
        capture.feed(raw[start : start + chunk])
    shown = render(capture, default_rule("gen"), None, exit_code, settings, "gen", "gen")
    return shown.data, shown.archive_id


def _expanded(entry_id: str) -> bytes:
    conn = archive.open_archive()
    try:
        (entry,) = archive.find_entries(conn, entry_id)
        return b"".join(archive.iter_raw(conn, entry.key))
    finally:
        conn.close()


@settings(max_examples=60, deadline=None)
@given(raw=st.binary(max_size=3000), chunk=st.integers(1, 4096), code=st.sampled_from([0, 1]))
def test_random_bytes_round_trip_and_never_grow(raw: bytes, chunk: int, code: int) -> None:
    shown, entry_id = _run_in_process(raw, chunk, code)
    assert len(shown) <= len(raw)
    if entry_id is None:
        assert shown == raw
    else:
        assert _expanded(entry_id) == raw


@settings(max_examples=8, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    size=st.sampled_from([5000, 70_000, 1_000_000, capture_module.MEMORY_BYTES + 1, 10_000_000]),
    newline_every=st.sampled_from([0, 7, 80, 5000]),
)
def test_large_random_outputs_round_trip(seed: int, size: int, newline_every: int) -> None:
    rng = random.Random(seed)
    block = bytearray(rng.randbytes(min(size, 1 << 20)))
    if newline_every:
        block[::newline_every] = b"\n" * len(block[::newline_every])
    raw = (bytes(block) * (size // len(block) + 1))[:size]
    shown, entry_id = _run_in_process(raw, 65536)
    assert len(shown) <= len(raw)
    if entry_id is None:
        assert shown == raw
    else:
        assert _expanded(entry_id) == raw


def test_past_the_cap_the_head_and_tail_are_stored_and_the_trailer_says_so() -> None:
    raw = b"".join(b"line %07d\n" % i for i in range(600_000))  # 7.8 MB
    settings = _settings(max_entry_bytes=1_000_000)
    shown, entry_id = _run_in_process(raw, 65536, settings=settings)
    assert entry_id is not None
    head, resume = 750_000, len(raw) - 250_000  # three quarters of the cap, then a quarter
    assert _expanded(entry_id) == raw[:head] + raw[resume:]
    text = shown.decode()
    assert "600000 lines" in text and "head and tail of 7.4 MiB archived" in text
    assert "line 0599999" in text
    result = run_rtok(["expand", entry_id])
    # the head ends inside a line: the marker starts a line of its own
    assert raw[head - 1 : head] != b"\n"
    marker = (
        f"\n[rtok: {resume - head} bytes left out here: bytes {head}-{resume - 1} of {len(raw)}"
    )
    assert (
        result.stdout
        == raw[:head] + marker.encode() + b" were counted, not archived]\n" + raw[resume:]
    )
    assert f"bytes 0-{head - 1} and {resume}-{len(raw) - 1} of {len(raw)}".encode() in result.stderr
    # the line-wise forms read the same bytes: the marker is one line of them
    found = run_rtok(["expand", entry_id, "--grep", "bytes left out here"])
    line_no = raw[:head].count(b"\n") + 2  # after the head's own last, partial line
    assert (
        found.stdout == b"%d:" % line_no + marker.encode()[1:] + b" were counted, not archived]\n"
    )


def test_entry_count_cap_drops_the_oldest() -> None:
    settings = _settings(max_entries=3)
    ids = []
    for n in range(5):
        raw = "".join(f"out {n} {i}\n" for i in range(100)).encode()
        _, entry_id = _run_in_process(raw, 4096, settings=settings)
        assert entry_id is not None
        ids.append(entry_id)
    conn = archive.open_archive()
    kept = [entry.id for entry in archive.list_entries(conn)]
    pieces = conn.execute("SELECT COUNT(DISTINCT entry) FROM pieces").fetchone()[0]
    conn.close()
    assert kept == ids[:1:-1]
    assert pieces == 3


def test_age_cap_drops_old_entries() -> None:
    raw = b"".join(b"old %d\n" % i for i in range(100))
    _, old_id = _run_in_process(raw, 4096)
    conn = sqlite3.connect(paths.archive_db())
    conn.execute("UPDATE entries SET created = created - 40 * 86400")
    conn.commit()
    conn.close()
    _, new_id = _run_in_process(raw.replace(b"old", b"new"), 4096)
    conn = archive.open_archive()
    kept = [entry.id for entry in archive.list_entries(conn)]
    conn.close()
    assert kept == [new_id] and old_id not in kept


def test_same_content_is_one_entry() -> None:
    raw = b"".join(b"same %d\n" % i for i in range(100))
    _, first = _run_in_process(raw, 4096)
    _, second = _run_in_process(raw, 999)
    conn = archive.open_archive()
    assert first == second and len(archive.list_entries(conn)) == 1
    conn.close()


def test_concurrent_writers_all_land() -> None:
    script = (
        "import sys\nn = int(sys.argv[1])\nfor i in range(3000): print(f'worker {n} line {i}')\n"
    )
    procs = [
        subprocess.Popen(
            [sys.executable, "-m", "rtok", "run", sys.executable, "-c", script, str(n)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        for n in range(8)
    ]
    outputs = [proc.communicate(timeout=120) for proc in procs]
    assert all(proc.returncode == 0 for proc in procs), [err for _, err in outputs]
    for n, (out, _) in enumerate(outputs):
        entry_id = out.decode().rstrip().splitlines()[-1].split()[2]
        expected = "".join(f"worker {n} line {i}\n" for i in range(3000)).encode()
        assert run_rtok(["expand", entry_id]).stdout == expected
    report = run_rtok(["gain", "--json"])
    assert b'"runs": 8' in report.stdout


def test_expand_errors_are_clear() -> None:
    missing = run_rtok(["expand", "abcdef123456"])
    assert missing.returncode == 1 and b"no archived output" in missing.stderr
    short = run_rtok(["expand", "ab"])
    assert short.returncode == 2
    both = run_rtok(["expand", "abcd", "--full", "--lines", "3"])
    assert both.returncode == 2
    assert os.path.exists(paths.archive_db()) is False
