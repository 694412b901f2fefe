"""Past the archive cap: errors anywhere are shown, the archive keeps a head and a tail
with a marker between them, and `rtok expand` names the byte ranges it has."""

from __future__ import annotations

import itertools
import os
import re
import sys

from hypothesis import given, settings
from hypothesis import strategies as st

from rtok.filter.pipeline import new_capture
from rtok.filter.render import render
from rtok.filter.rule import default_rule
from rtok.filter.settings import Settings
from rtok.store import archive
from rtok.store.slices import Cut, gap_marker, head_cap, tail_cap, with_marker
from rtok_testing import run_rtok

CAP = 10 * 1024 * 1024  # the default max_entry_bytes
TRAILER = re.compile(rb"\[rtok expand ([0-9a-f]{12}) ")


def _log(lines: int, late: dict[int, bytes]) -> bytes:
    """A log of `lines` INFO lines, with the lines of `late` (line number -> text)."""
    return b"".join(
        late.get(i, b"2026-12-02T05:00:00Z INFO request %08d served in 3ms\n" % i)
        for i in range(lines)
    )


def _trailer_id(shown: bytes) -> str:
    found = TRAILER.search(shown)
    assert found is not None, shown[-500:]
    return found.group(1).decode()


def _cuts(entry_id: str) -> dict[int, Cut]:
    conn = archive.open_archive()
    try:
        (entry,) = archive.find_entries(conn, entry_id)
        return archive.cuts_of(conn, entry.key)
    finally:
        conn.close()


def test_a_log_past_the_cap_shows_late_errors_and_expand_names_its_ranges() -> None:
    lines = 420_000  # 56 bytes a line: 23.5 MB, more than twice the cap
    late = {
        300_000: b"2026-12-02T05:00:01Z ERROR disk quota exceeded on /var/lib/app\n",
        360_000: b"Traceback (most recent call last): worker 7 died\n",
    }
    raw = _log(lines, late)
    assert raw.index(late[300_000]) > CAP
    result = run_rtok(["filter", "--stdin", "--cmd", "app --serve"], input=raw, timeout=120)
    assert result.returncode == 0
    for line in late.values():
        assert line.rstrip(b"\n") in result.stdout  # past the cap, yet shown
    assert f"head and tail of {len(raw) / 2**20:.1f} MiB archived".encode() in result.stdout
    assert b"every line scanned for errors" in result.stdout
    entry_id = _trailer_id(result.stdout)
    cut = _cuts(entry_id)[0]
    assert (cut.start, cut.resume, cut.total) == (head_cap(CAP), len(raw) - tail_cap(CAP), len(raw))

    expanded = run_rtok(["expand", entry_id], timeout=120)
    assert expanded.returncode == 0
    assert (
        expanded.stdout
        == raw[: cut.start] + gap_marker(cut, raw[cut.start - 1 : cut.start]) + raw[cut.resume :]
    )
    ranges = f"bytes 0-{cut.start - 1} and {cut.resume}-{len(raw) - 1} of {len(raw)}"
    assert ranges.encode() in expanded.stderr
    assert f"{cut.resume - cut.start} bytes left out here".encode() in expanded.stdout
    listed = run_rtok(["expand", "--list"])
    assert f"(partial: {ranges})".encode() in listed.stdout


def test_an_output_up_to_the_cap_is_whole_through_expand() -> None:
    raw = _log(180_000, {170_000: b"WARNING: nearly done\n"})  # 10.0 MB: head and tail meet
    assert head_cap(CAP) < len(raw) <= CAP
    result = run_rtok(["filter", "--stdin", "--cmd", "app"], input=raw, timeout=120)
    entry_id = _trailer_id(result.stdout)
    assert _cuts(entry_id) == {}
    expanded = run_rtok(["expand", entry_id], timeout=120)
    assert expanded.stdout == raw and expanded.stderr == b""
    listed = run_rtok(["expand", "--list"])
    assert b"partial" not in listed.stdout


def test_run_past_the_cap_cuts_stdout_and_stderr_each_with_its_own_tail() -> None:
    script = (
        "import sys\n"
        "for i in range(250000):\n"
        "    sys.stdout.write('out %07d INFO all good here, nothing to see\\n' % i)\n"
        "    sys.stderr.write('err %07d INFO progress of the build step\\n' % i)\n"
        "    if i == 200000:\n"
        "        sys.stdout.write('FATAL: out record lost\\n')\n"
        "        sys.stderr.write('error: late compile failure in src/x.c\\n')\n"
        "sys.exit(3)\n"
    )
    result = run_rtok(["run", sys.executable, "-c", script], timeout=180)
    assert result.returncode == 3
    assert b"FATAL: out record lost" in result.stdout
    assert b"error: late compile failure in src/x.c" in result.stderr
    entry_id = _trailer_id(result.stdout)
    assert _trailer_id(result.stderr) == entry_id
    cuts = _cuts(entry_id)
    assert sorted(cuts) == [1, 2]
    # The head is shared by both streams in the order they arrived; each keeps its tail.
    assert cuts[1].start + cuts[2].start == head_cap(CAP)
    raws = {1: _written("out", "all good here, nothing to see", b"FATAL: out record lost\n")}
    raws[2] = _written(
        "err", "progress of the build step", b"error: late compile failure in src/x.c\n"
    )
    for stream, raw in raws.items():
        assert (cuts[stream].total, cuts[stream].resume) == (len(raw), len(raw) - tail_cap(CAP))
    expanded = run_rtok(["expand", entry_id], timeout=180)
    exact = {stream: _head_marker_tail(raw, cuts[stream]) for stream, raw in raws.items()}
    assert expanded.stdout == exact[1]
    # stderr: the command's stderr as archived, then what expand says about the ranges
    assert expanded.stderr.startswith(exact[2])
    notes = expanded.stderr[len(exact[2]) :].decode()
    for stream, name in ((1, "stdout"), (2, "stderr")):
        cut = cuts[stream]
        ranges = f"bytes 0-{cut.start - 1} and {cut.resume}-{cut.total - 1} of {cut.total}"
        assert f"{name}: the archive holds {ranges}" in notes


def _written(prefix: str, words: str, late: bytes) -> bytes:
    """What the script of the test above writes on one stream."""
    return b"".join(
        f"{prefix} {i:07d} INFO {words}\n".encode() + (late if i == 200000 else b"")
        for i in range(250000)
    )


def _head_marker_tail(raw: bytes, cut: Cut) -> bytes:
    return raw[: cut.start] + gap_marker(cut, raw[cut.start - 1 : cut.start]) + raw[cut.resume :]


@settings(max_examples=200, deadline=None)
@given(
    head=st.binary(max_size=300),
    tail=st.binary(max_size=300),
    gap=st.integers(1, 10**9),
    cuts=st.lists(st.integers(0, 600), max_size=8),
)
def test_the_marker_sits_between_head_and_tail_whatever_the_chunks(
    head: bytes, tail: bytes, gap: int, cuts: list[int]
) -> None:
    kept = head + tail
    bounds = sorted({0, len(kept), *(c for c in cuts if c <= len(kept))})
    chunks = [kept[a:b] for a, b in itertools.pairwise(bounds)]
    cut = Cut(len(head), len(head) + gap, len(head) + gap + len(tail))
    marker = gap_marker(cut, head[-1:])
    assert b"".join(with_marker(chunks, cut)) == head + marker + tail
    assert marker.endswith(b" were counted, not archived]\n")
    assert marker.startswith(b"[") == (head[-1:] in (b"", b"\n"))


@settings(max_examples=40, deadline=None)
@given(
    data=st.data(),
    size=st.integers(0, 60_000),
    cap=st.integers(1, 20_000),
    chunk=st.integers(1, 9000),
)
def test_the_archive_keeps_the_head_and_the_last_quarter_of_the_cap(
    data: st.DataObject, size: int, cap: int, chunk: int
) -> None:
    raw = (
        data.draw(st.binary(min_size=size, max_size=size))
        if size < 200
        else bytes((i * 7 + i // 251) % 256 for i in range(size))
    )
    options = Settings()
    options.max_entry_bytes = cap
    capture = new_capture("gen", "gen", options)
    for start in range(0, len(raw), chunk):
        capture.feed(raw[start : start + chunk])
    shown = render(capture, default_rule("gen"), None, 0, options, "gen", "gen")
    if shown.archive_id is None:
        return
    conn = archive.open_archive()
    try:
        (entry,) = archive.find_entries(conn, shown.archive_id)
        kept = b"".join(archive.iter_raw(conn, entry.key))
        cuts = archive.cuts_of(conn, entry.key)
        marked = b"".join(archive.iter_marked(conn, entry.key))
    finally:
        conn.close()
    if len(raw) <= cap:
        assert kept == raw and cuts == {} and marked == raw
        return
    cut = cuts[0]
    assert (cut.start, cut.resume, cut.total) == (head_cap(cap), len(raw) - tail_cap(cap), len(raw))
    assert kept == raw[: cut.start] + raw[cut.resume :]
    assert (
        marked
        == raw[: cut.start] + gap_marker(cut, raw[cut.start - 1 : cut.start]) + raw[cut.resume :]
    )
    assert entry.stored_bytes == len(kept) and entry.raw_bytes == len(raw)


def test_a_new_error_after_thousands_of_repeated_warnings_is_still_shown() -> None:
    options = Settings()
    capture = new_capture("app", "app", options)
    novel = b"ERROR replica 3 lost its lease"
    lines = [
        b"WARN slow request id=%x took %dms" % (i, i % 900)
        if i % 10 == 0
        else b"INFO request %d ok" % i
        for i in range(400_000)
    ]
    lines[300_000] = novel  # far from the kept tail, after ~30000 warnings
    for start in range(0, len(lines), 5000):
        capture.feed(b"\n".join(lines[start : start + 5000]) + b"\n")
    assert capture.streaming
    shown = render(capture, default_rule("app"), None, 0, options, "app", "app")
    text = shown.out.decode()
    assert novel.decode() in text
    assert "WARN slow request id=0 took 0ms" in text  # the first ones, as they came
    assert "more error/warning lines, most like those shown" in text


def test_an_archive_of_schema_2_is_upgraded_and_its_entries_still_expand() -> None:
    import sqlite3
    import zlib

    from rtok import paths

    os.makedirs(os.path.dirname(paths.archive_db()), exist_ok=True)
    conn = sqlite3.connect(paths.archive_db())
    v2 = archive.SCHEMA[: archive.SCHEMA.index(";\nCREATE TABLE IF NOT EXISTS cuts")]
    conn.executescript(v2)
    raw = b"old entry line\n" * 40
    packer = zlib.compressobj(6, zlib.DEFLATED, 31)
    conn.execute(
        "INSERT INTO entries (key, id, created, command, family, exit_code, raw_bytes,"
        " stored_bytes, lines) VALUES (1, 'a1b2c3d4e5f6', 1.0, 'old', 'old', 0, ?, ?, 40)",
        (len(raw), len(raw)),
    )
    conn.execute(
        "INSERT INTO pieces (entry, seq, data, stream) VALUES (1, 0, ?, 0)",
        (packer.compress(raw) + packer.flush(),),
    )
    conn.execute("PRAGMA user_version = 2")
    conn.commit()
    conn.close()
    result = run_rtok(["expand", "a1b2"])
    assert result.returncode == 0 and result.stdout == raw and result.stderr == b""
    upgraded = archive.open_archive()
    try:
        assert upgraded.execute("PRAGMA user_version").fetchone()[0] == 3
        assert archive.cuts_of(upgraded, 1) == {}
    finally:
        upgraded.close()
