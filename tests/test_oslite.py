"""rtok._fast.oslite gives the hot path posixpath's exact answers without importing `os`.

In this process `os` is loaded, so `rtok._fast.oslite` hands out the real functions; the lite
ones are tested here by their own names against posixpath, and a `python -S -I`
subprocess proves the lite mode is what the hot path gets.
"""

from __future__ import annotations

import os
import posixpath
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rtok._fast import oslite

ROOT = str(Path(__file__).resolve().parent.parent)
PATHS = st.text(alphabet="/.a~b", max_size=14)


@given(PATHS, st.lists(PATHS, max_size=3))
def test_join_matches_posixpath(first: str, rest: list[str]) -> None:
    assert oslite.lite_join(first, *rest) == posixpath.join(first, *rest)


@given(PATHS)
@settings(max_examples=400)
def test_pure_functions_match_posixpath(path: str) -> None:
    assert oslite.lite_dirname(path) == posixpath.dirname(path)
    assert oslite.lite_basename(path) == posixpath.basename(path)
    assert oslite.lite_isabs(path) == posixpath.isabs(path)
    assert oslite.lite_normpath(path) == posixpath.normpath(path)
    assert oslite.lite_abspath(path) == posixpath.abspath(path)


@given(PATHS)
def test_expanduser_matches_posixpath(path: str) -> None:
    assert oslite.lite_expanduser(path) == posixpath.expanduser(path)


def test_expanduser_without_home_asks_the_password_database(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("HOME")
    for path in ("~", "~/x", "~root/y", "~no-such-user-here/z"):
        assert oslite.lite_expanduser(path) == posixpath.expanduser(path)


def _tree(tmp_path: Path) -> Path:
    (tmp_path / "real" / "deep").mkdir(parents=True)
    (tmp_path / "real" / "file").write_text("x")
    (tmp_path / "to_real").symlink_to("real")
    (tmp_path / "real" / "up").symlink_to("..")
    (tmp_path / "abs").symlink_to(tmp_path / "real" / "deep")
    (tmp_path / "loop1").symlink_to("loop2")
    (tmp_path / "loop2").symlink_to("loop1")
    (tmp_path / "self").symlink_to("self")
    (tmp_path / "dangling").symlink_to("nowhere/at/all")
    (tmp_path / "chain").symlink_to("to_real/up/abs")
    return tmp_path


REALPATH_CASES = [
    "to_real",
    "to_real/file",
    "to_real/up/to_real/deep/..",
    "abs/../file",
    "loop1",
    "loop1/x",
    "self/y",
    "dangling",
    "dangling/more",
    "chain",
    "chain/../up",
    "missing/../x",
    ".",
    "..",
    "real/./deep//",
    "to_real/file/not-a-dir",
]


@pytest.mark.parametrize("relative", REALPATH_CASES)
def test_realpath_matches_posixpath(
    relative: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = _tree(tmp_path)
    monkeypatch.chdir(root)
    for path in (relative, str(root / relative)):
        assert oslite.lite_realpath(path) == posixpath.realpath(path), path


def test_stat_predicates_match(tmp_path: Path) -> None:
    root = _tree(tmp_path)
    for name in ("real", "real/file", "to_real", "dangling", "loop1", "missing", "abs"):
        path = str(root / name)
        assert oslite.lite_exists(path) == os.path.exists(path)
        assert oslite.lite_isfile(path) == os.path.isfile(path)
        assert oslite.lite_isdir(path) == os.path.isdir(path)
    assert oslite.lite_samefile(str(root / "to_real"), str(root / "real"))
    assert oslite.lite_exists("bad\0path") is False


def test_makedirs(tmp_path: Path) -> None:
    target = tmp_path / "a" / "b" / "c"
    oslite.lite_makedirs(str(target), 0o700, exist_ok=True)
    assert target.is_dir()
    oslite.lite_makedirs(str(target), exist_ok=True)
    with pytest.raises(FileExistsError):
        oslite.lite_makedirs(str(target))
    (tmp_path / "file").write_text("x")
    with pytest.raises(FileExistsError):
        oslite.lite_makedirs(str(tmp_path / "file"), exist_ok=True)


def test_with_os_loaded_every_name_is_the_real_one() -> None:
    assert oslite.environ is os.environ
    # mypy sees the lite `path` class (what the hot path may call); here it is os.path.
    loaded_path: object = oslite.path
    assert loaded_path is os.path
    assert oslite.makedirs is os.makedirs


LITE_PROBE = """
import sys
sys.path.insert(0, sys.argv[1])
from rtok._fast import oslite
assert "os" not in sys.modules and "_collections_abc" not in sys.modules
import json
print(json.dumps({"environ": oslite.environ, "cwd": oslite.getcwd(),
                  "abs": oslite.path.abspath("x/../y"), "name": oslite.name,
                  "lite": type(oslite.path).__name__}))
"""


def test_hot_path_start_gets_the_lite_module(tmp_path: Path) -> None:
    env = {
        "HOME": str(tmp_path),
        "PATH": os.environ.get("PATH", ""),
        "RTOK_X": "é ü",
        "LC_ALL": "C.UTF-8",
    }
    env_bytes = {k.encode(): v.encode() for k, v in env.items()}
    env_bytes[b"RTOK_RAW"] = b"\xff\xfe"
    result = subprocess.run(
        [sys.executable, "-S", "-I", "-c", LITE_PROBE, ROOT],
        capture_output=True,
        cwd=tmp_path,
        env=env_bytes,
        timeout=60,
        check=True,
    )
    import json

    seen = json.loads(result.stdout)
    assert seen["lite"] == "_LitePath" and seen["name"] == "posix"
    assert seen["cwd"] == str(tmp_path) and seen["abs"] == str(tmp_path / "y")
    assert seen["environ"]["RTOK_X"] == "é ü"
    # Undecodable bytes come back as os.environ gives them: surrogate escapes.
    assert seen["environ"]["RTOK_RAW"] == os.fsdecode(b"\xff\xfe")
