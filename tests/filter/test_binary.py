"""Output that is not text is one line; its bytes come back whole from `rtok expand`."""

from __future__ import annotations

import gzip
import os
import random
import re
import sqlite3
import struct
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rtok.filter.binary import binary_kind
from rtok_testing import run_rtok

TRAILER = re.compile(rb"\[rtok expand ([0-9a-f]+) [^\]]*\]\n$")


def shown_and_expanded(path: Path) -> tuple[bytes, bytes]:
    shown = run_rtok(["run", "cat", str(path)])
    assert shown.returncode == 0, shown.stderr
    found = TRAILER.search(shown.stdout)
    assert found is not None, shown.stdout[-200:]
    expanded = run_rtok(["expand", found.group(1).decode()])
    assert expanded.returncode == 0, expanded.stderr
    return shown.stdout, expanded.stdout


def test_an_executable_is_one_line_and_expand_gives_its_bytes_back(tmp_path: Path) -> None:
    executable = Path(os.path.realpath(sys.executable))
    shown, expanded = shown_and_expanded(executable)
    size = executable.stat().st_size
    assert shown.splitlines()[0] == (
        f"[binary output not shown: an ELF executable, {size:,} bytes]".encode()
    )
    assert len(shown.splitlines()) == 2
    assert expanded == executable.read_bytes()


def test_compressed_data_larger_than_memory_is_one_line(tmp_path: Path) -> None:
    # over the in-memory limit, so the capture streams to the archive
    data = gzip.compress(os.urandom(6 * 1024 * 1024), compresslevel=1)
    target = tmp_path / "blob.gz"
    target.write_bytes(data)
    shown, expanded = shown_and_expanded(target)
    assert shown.splitlines()[0] == (
        f"[binary output not shown: gzip data, {len(data):,} bytes]".encode()
    )
    assert expanded == data


def test_a_log_with_a_zero_filled_block_is_still_a_log(tmp_path: Path) -> None:
    log = tmp_path / "app.log"
    log.write_bytes(
        b"request ok\n" * 2000
        + b"\0" * 4096
        + b"ERROR: disk full while writing /var/app/db\n"
        + b"request ok\n" * 50
    )
    shown = run_rtok(["run", "cat", str(log)]).stdout
    assert b"binary output" not in shown
    assert b"ERROR: disk full while writing /var/app/db" in shown


def test_kinds_by_their_first_bytes() -> None:
    noise = os.urandom(4096)
    assert binary_kind(b"\x89PNG\r\n\x1a\n" + noise) == "a PNG image"
    assert binary_kind(b"%PDF-1.7\n" + noise) == "a PDF document"
    assert binary_kind(b"PK\x03\x04" + noise) == "a zip archive (or jar, wheel, docx)"
    assert binary_kind(b"\x00" * 5000) == "binary data"
    assert binary_kind(b"\x01\x02\x03" + noise) in ("binary data",)


def test_text_of_every_kind_is_text() -> None:
    assert binary_kind("naïve café ✓ 日本語 привет\n".encode() * 200) is None
    assert binary_kind("warning: unused\n".encode("utf-16") * 100) is None
    assert binary_kind("plain ascii in utf-16-le\n".encode("utf-16-le") * 100) is None
    assert binary_kind(b"\x1b[31mFAILED\x1b[0m test_a\r\n" * 100) is None
    assert binary_kind(b"N\bNA\bAM\bME\bE\n" * 100) is None  # man's overstrike bold
    # terminal links and titles end with a bell
    assert binary_kind(b"\x1b]8;;\x07a\x1b]8;;\x07\n" * 100) is None
    assert binary_kind(b"") is None


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.characters(blacklist_categories=("Cc", "Cs")), min_size=1))
def test_printable_text_in_utf8_is_never_called_binary(text: str) -> None:
    assert binary_kind(text.encode("utf-8")) is None


@settings(max_examples=200, deadline=None)
@given(
    st.text(alphabet=st.characters(blacklist_categories=("Cc", "Cs")), min_size=1),
    st.integers(min_value=1, max_value=64 * 1024),
)
def test_utf8_text_cut_anywhere_is_still_text(text: str, cut: int) -> None:
    data = (text * (1 + 70_000 // max(1, len(text.encode())))).encode("utf-8")
    assert binary_kind(data[:cut] if cut < len(data) else data) is None


def test_text_in_a_legacy_encoding_is_shown(tmp_path: Path) -> None:
    # Latin-1, cp1252, Shift-JIS, EUC-JP, GBK: not UTF-8, yet text with no control bytes
    samples = {
        "latin1": "café naïve résumé à la façon, déjà vu\n" * 20,
        "cp1252": "He said \u201chello\u201d \u2014 it\u2019s fine\n" * 20,
        "shift_jis": "日本語のテキストです。エラーはありません。\n" * 20,
        "euc_jp": "日本語のテキストです。エラーはありません。\n" * 20,
        "gbk": "中文文本，这是一个测试文件。\n" * 20,
    }
    for encoding, text in samples.items():
        data = text.encode(encoding)
        assert binary_kind(data) is None, encoding
        page = tmp_path / f"{encoding}.txt"
        page.write_bytes(data + b"ERROR: the last line\n")
        shown = run_rtok(["run", "cat", str(page)]).stdout
        assert b"binary output" not in shown, encoding
        assert b"ERROR: the last line" in shown, encoding


def test_utf16_text_without_a_byte_order_mark_is_text_in_any_script() -> None:
    text = "日本語のテキストです。エラーはありません。\nПривет, мир\n" * 40
    for encoding in ("utf-16-le", "utf-16-be"):
        assert binary_kind(text.encode(encoding)) is None, encoding
        assert binary_kind(text.encode(encoding)[:-1]) is None, encoding  # cut mid-unit
    assert binary_kind(os.urandom(4096)) == "binary data"


def test_an_sqlite_database_and_a_message_catalog_are_one_line(tmp_path: Path) -> None:
    # Mostly zero pages and ASCII strings, so the share of odd bytes alone looks like text;
    # their first bytes are ones no text begins with.
    db = tmp_path / "app.db"
    connection = sqlite3.connect(db)
    for table in ("requests", "failures", "decisions", "cache"):
        columns = ", ".join(f"{table}_column_{n} TEXT NOT NULL DEFAULT ''" for n in range(12))
        connection.execute(f"CREATE TABLE {table} (id INTEGER PRIMARY KEY, {columns})")
        connection.execute(f"CREATE INDEX {table}_by_first ON {table} ({table}_column_0)")
    connection.executemany(
        "INSERT INTO requests (requests_column_0) VALUES (?)",
        [(f"GET /api/items/{n} served",) for n in range(10)],
    )
    connection.commit()
    connection.close()
    shown, expanded = shown_and_expanded(db)
    size = db.stat().st_size
    assert shown.splitlines()[0] == (
        f"[binary output not shown: an SQLite database, {size:,} bytes]".encode()
    )
    assert expanded == db.read_bytes()
    catalog = tmp_path / "messages.mo"
    catalog.write_bytes(gettext_catalog({f"message {n}": f"nachricht {n}" for n in range(40)}))
    assert binary_kind(catalog.read_bytes()) == "a gettext message catalog"


def gettext_catalog(messages: dict[str, str]) -> bytes:
    """A little-endian GNU .mo file, laid out as msgfmt writes it."""
    keys = sorted(messages)
    ids = b"".join(k.encode() + b"\0" for k in keys)
    strs = b"".join(messages[k].encode() + b"\0" for k in keys)
    count = len(keys)
    start = 28 + 16 * count
    table_ids, table_strs, offset = [], [], 0
    for key in keys:
        table_ids += [len(key.encode()), start + offset]
        offset += len(key.encode()) + 1
    offset = 0
    for key in keys:
        table_strs += [len(messages[key].encode()), start + len(ids) + offset]
        offset += len(messages[key].encode()) + 1
    header = struct.pack("<7I", 0x950412DE, 0, count, 28, 28 + 8 * count, 0, 0)
    return (
        header
        + struct.pack(f"<{2 * count}I", *table_ids)
        + struct.pack(f"<{2 * count}I", *table_strs)
        + ids
        + strs
    )


def test_text_that_turns_binary_shows_its_text_and_one_line_for_the_rest(tmp_path: Path) -> None:
    # a build log followed by the image it wrote to the same stream, past the first sample
    log = b"".join(b"step %d: compiled module_%d.o\n" % (n, n) for n in range(4000))
    blob = gzip.compress(os.urandom(200_000), compresslevel=1)
    target = tmp_path / "mixed.out"
    target.write_bytes(log + b"ERROR: link step wrote the image below\n" + blob)
    assert len(log) > 64 * 1024
    shown, expanded = shown_and_expanded(target)
    lines = shown.splitlines()
    assert b"step 0: compiled module_0.o" in lines
    assert b"ERROR: link step wrote the image below" in lines
    assert lines[-2] == f"[binary output not shown: gzip data, {len(blob):,} bytes]".encode()
    assert len(shown) < 20_000  # the data is not printed as text
    assert expanded == target.read_bytes()


def test_a_large_output_whose_end_is_data_shows_one_line_for_it(tmp_path: Path) -> None:
    # past the in-memory limit: the head is text, the kept tail is compressed data
    log = b"".join(b"row %d copied\n" % n for n in range(400_000))
    target = tmp_path / "dump.out"
    target.write_bytes(log + gzip.compress(os.urandom(400_000), compresslevel=1))
    assert len(log) > 4 * 1024 * 1024
    shown, expanded = shown_and_expanded(target)
    lines = shown.splitlines()
    assert b"row 0 copied" in lines
    # the kept tail starts inside the compressed stream, past its first bytes
    assert b"[binary output not shown: the output ends in binary data]" in lines
    assert len(shown) < 20_000
    assert expanded == target.read_bytes()


@pytest.mark.parametrize(
    ("seed", "size"), [(7, 100_000), (8, 5 * 1024 * 1024)], ids=["in-memory", "streamed"]
)
def test_text_lines_before_data_of_no_known_kind_are_shown(
    tmp_path: Path, seed: int, size: int
) -> None:
    # a self-extracting script: its shell text, then the payload it carries (the larger one
    # is past the in-memory limit, so the capture streams)
    payload = random.Random(seed).randbytes(size)
    script = b'#!/bin/sh\n# installer for app 1.2\nexec tail -c +4 "$0" | tar xz\n'
    target = tmp_path / "install.run"
    target.write_bytes(script + payload)
    shown, expanded = shown_and_expanded(target)
    lines = shown.splitlines()
    assert lines[:3] == script.splitlines()
    assert lines[3] == f"[binary output not shown: binary data, {len(payload):,} bytes]".encode()
    assert expanded == target.read_bytes()
