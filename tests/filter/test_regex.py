"""rtok._fast.regex: patterns built from cached engine code are the patterns `re` builds."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from rtok._fast import launcher, regex

PATTERNS: list[tuple[str | bytes, int]] = [
    (r"^(?P<name>[\w.-]+):(\d+): (error|warning): (.*)$", regex.MULTILINE),
    (r"(?i:\b(?:errors?|fatal)\b)", 0),
    (rb"\s*(?:[A-Za-z]{1,8}|[0-9]{1,3}|([^\sA-Za-z0-9])\1{0,7})|\s+", 0),
    (r"a.b", regex.DOTALL | regex.IGNORECASE),
]
SAMPLE = "x.py:12: error: Fatal ERRORS\na\nb A\nB\n"

# Compiles PATTERNS in a fresh launcher-style process; prints whether `re` was loaded by
# then, and what each pattern finds.
PROBE = """
import sys
sys.path.insert(0, sys.argv[1])
from rtok._fast import regex
patterns = [regex.compile(source, flags) for source, flags in %r]
loaded = "re" in sys.modules
sample = %r
found = [[m.group(0) if isinstance(m.group(0), str) else m.group(0).decode()
          for m in p.finditer(sample if isinstance(p.pattern, str) else sample.encode())]
         for p in patterns]
regex.flush()
import json
print(json.dumps({"re_loaded": loaded, "found": found}))
"""


def _probe() -> dict[str, object]:
    code = PROBE % (PATTERNS, SAMPLE)
    done = subprocess.run(
        [sys.executable, "-S", "-I", "-c", code, launcher.package_root()],
        capture_output=True,
        text=True,
        env=dict(os.environ),
        timeout=60,
        check=True,
    )
    result: dict[str, object] = json.loads(done.stdout)
    return result


def _expected() -> list[list[str]]:
    out = []
    for source, flags in PATTERNS:
        if isinstance(source, str):
            out.append([m.group(0) for m in re.compile(source, flags).finditer(SAMPLE)])
        else:
            found = re.compile(source, flags).finditer(SAMPLE.encode())
            out.append([m.group(0).decode() for m in found])
    return out


def _cache() -> Path:
    return Path(regex.cache_path("__main__"))  # the probe's patterns are compiled there


def test_a_pattern_is_the_one_re_compiles() -> None:
    for source, flags in PATTERNS:
        assert regex.compile(source, flags) == re.compile(source, flags)


def test_the_second_run_builds_its_patterns_without_re(isolated_home: Path) -> None:
    first = _probe()
    assert first["re_loaded"] is True  # nothing cached yet: `re` compiled them
    assert oct(_cache().stat().st_mode & 0o777) == "0o600"
    cache_root = isolated_home / ".cache" / "rtok"
    assert _cache().parent == cache_root / "regex"
    for folder in (cache_root, cache_root / "regex"):
        assert oct(folder.stat().st_mode & 0o777) == "0o700"
    assert not (isolated_home / ".local" / "share" / "rtok").exists()
    second = _probe()
    assert second["re_loaded"] is False
    assert second["found"] == first["found"] == _expected()


@pytest.mark.parametrize("damage", ["not json", "wrong code", "other interpreter"])
def test_a_damaged_or_foreign_cache_is_compiled_again(damage: str) -> None:
    _probe()
    cache = _cache()
    data = json.loads(cache.read_text())
    if damage == "not json":
        cache.write_text('{"tag": ')
    elif damage == "wrong code":
        for entry in data["patterns"].values():
            entry[1] = [999, 1, 2]  # no valid engine code
        cache.write_text(json.dumps(data))
    else:
        data["tag"] = "Python 0.1|0|0"
        cache.write_text(json.dumps(data))
    again = _probe()
    assert again["found"] == _expected()
    assert again["re_loaded"] is True
    assert _probe()["re_loaded"] is False  # and the cache is whole again


def test_compiling_writes_nothing_until_flush(isolated_home: Path) -> None:
    # A module that compiles patterns when imported (as test collection does) leaves no
    # file; the entry point's flush at the end of a finished verb writes it.
    code = (
        "import sys; sys.path.insert(0, sys.argv[1]); from rtok._fast import regex; "
        "regex.compile(r'flush-(\\d+)'); print(regex.cache_path('__main__'))"
    )
    done = subprocess.run(
        [sys.executable, "-S", "-I", "-c", code, launcher.package_root()],
        capture_output=True,
        text=True,
        env=dict(os.environ),
        timeout=60,
        check=True,
    )
    assert not Path(done.stdout.strip()).exists()
    assert list(isolated_home.rglob("*.json")) == []
    assert _probe()["re_loaded"] is True
    assert _cache().exists()


def test_run_of_a_cut_listing_imports_no_re_once_cached(tmp_path: Path) -> None:
    for index in range(80):
        (tmp_path / f"file{index:03}.txt").write_text("x\n" * index)
    argv = [
        sys.executable,
        "-S",
        "-I",
        "-X",
        "importtime",
        "-c",
        launcher.BOOT,
        launcher.package_root(),
        "/nonexistent/rtok",
        "run",
        "ls",
        "-la",
    ]
    runs = [
        subprocess.run(
            argv, capture_output=True, cwd=tmp_path, env=dict(os.environ), timeout=60, check=False
        )
        for _ in range(2)
    ]
    assert [run.returncode for run in runs] == [0, 0]
    # The same lines either way (the trailer's id may differ: `..` changed in between).
    shown = [
        [line for line in run.stdout.splitlines() if b"rtok expand" not in line] for run in runs
    ]
    assert shown[0] == shown[1]
    assert b"rtok expand" in runs[1].stdout  # the listing was cut and archived
    names = {
        line.rsplit("|", 1)[1].strip()
        for line in runs[1].stderr.decode(errors="replace").splitlines()
        if line.startswith("import time:") and line.count("|") == 2
    }
    assert "rtok._fast.regex" in names
    assert "re" not in names
