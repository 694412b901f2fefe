"""The rules applied are parsed from the bytes that were trusted, never from a cache that
a same-size, same-mtime swap could fool."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from rtok._fast import cachefile
from rtok_testing import run_rtok


def _resolved_max_lines(cwd: Path) -> int:
    code = (
        "import sys; from rtok.filter.layers import resolve_rule; "
        "print(resolve_rule('mytool', sys.argv[1]).max_lines)"
    )
    result = subprocess.run(
        [sys.executable, "-c", code, str(cwd)],
        capture_output=True,
        text=True,
        timeout=30,
        check=True,
    )
    return int(result.stdout.strip())


def test_same_size_same_mtime_swap_is_not_applied(tmp_path: Path) -> None:
    root = tmp_path / "proj"
    rules = root / ".rtok" / "rules.toml"
    rules.parent.mkdir(parents=True)
    rules.write_bytes(b"[mytool]\nmax_lines = 12\nhead = 1\ntail = 1\n")
    assert run_rtok(["trust", "--yes"], cwd=str(root)).returncode == 0
    assert _resolved_max_lines(root) == 12  # parsed once: the cache now holds this file
    before = os.stat(rules)
    rules.write_bytes(b"[mytool]\nmax_lines = 99\nhead = 1\ntail = 1\n")
    os.utime(rules, ns=(before.st_atime_ns, before.st_mtime_ns))
    after = os.stat(rules)
    assert (after.st_size, after.st_mtime_ns) == (before.st_size, before.st_mtime_ns)
    # Untrusted bytes: the default rule, not the cached trusted one nor the new one.
    assert _resolved_max_lines(root) == 40
    listed = run_rtok(["trust", "--list"], cwd=str(root)).stdout.decode()
    assert "modified" in listed


def test_cache_is_keyed_by_content(tmp_path: Path) -> None:
    path = tmp_path / "f.toml"
    calls: list[bytes] = []

    def parse(data: bytes) -> object:
        calls.append(data)
        return data.decode()

    path.write_bytes(b"one")
    assert cachefile.cached_parse(str(path), "test-ns", parse) == "one"
    assert cachefile.cached_parse(str(path), "test-ns", parse) == "one"
    assert calls == [b"one"]
    stamp = os.stat(path)
    path.write_bytes(b"two")
    os.utime(path, ns=(stamp.st_atime_ns, stamp.st_mtime_ns))
    assert cachefile.parse_with_bytes(str(path), "test-ns", parse) == ("two", b"two")
    assert cachefile.cached_parse(str(tmp_path / "missing"), "test-ns", parse) is None


def test_oversized_file_is_not_parsed(tmp_path: Path) -> None:
    path = tmp_path / "big.toml"
    path.write_bytes(b"#" * (cachefile.MAX_FILE_BYTES + 1))
    try:
        cachefile.cached_parse(str(path), "test-ns", lambda data: None)
    except cachefile.TooLarge:
        return
    raise AssertionError("an oversized file was parsed")
