"""Caches live only in the cache dir, are private (0600 files in 0700 dirs), and are
written only by a verb that finished: never by a cancelled run, never by importing rtok's
modules (as collecting this test suite does)."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

from rtok_testing import REPO_ROOT, run_rtok, terminal
from rtok_testing.isolation import SCRUBBED, SCRUBBED_PREFIXES


def _files(root: Path) -> list[str]:
    return sorted(str(p.relative_to(root)) for p in root.rglob("*") if not p.is_dir())


def test_collecting_the_suite_writes_nothing_into_the_real_home(tmp_path: Path) -> None:
    # The "real home" is read-only; the folders rtok would write into (XDG defaults) are
    # there and writable, so a write would succeed and be seen.
    home = tmp_path / "real-home"
    for folder in (".cache", ".local/share", ".local/state", ".config"):
        (home / folder).mkdir(parents=True)
    home.chmod(0o555)
    env = {
        name: value
        for name, value in os.environ.items()
        if name not in SCRUBBED and not name.startswith(SCRUBBED_PREFIXES)
    }
    env["HOME"] = str(home)
    try:
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "pytest",
                "--collect-only",
                "-q",
                "-p",
                "no:cacheprovider",
                "tests",
            ],
            capture_output=True,
            cwd=REPO_ROOT,
            env=env,
            timeout=600,
            check=False,
        )
        assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
        assert b"tests collected" in done.stdout
        assert _files(home) == []
    finally:
        home.chmod(0o755)


def _rtok_dirs(home: Path) -> list[Path]:
    return [home / ".local" / "share" / "rtok", home / ".cache" / "rtok"]


def _cancelled_init(home: Path, steps: list[tuple[bytes, bytes]]) -> int:
    project = home / "work" / "app"
    (project / ".git").mkdir(parents=True)
    seen = bytearray()
    pid, fd = terminal.spawn(["init"], cwd=str(project))
    for prompt, keys in steps:
        terminal.answer(fd, prompt, keys, seen)
    status = terminal.wait(pid, fd, seen)
    assert b"Cancelled; nothing written." in seen, bytes(seen)[-1500:]
    return status


def _with_config_and_rules(home: Path) -> None:
    """A config.toml (init parses it, and would cache the parse, before it asks) and a
    detected agent."""
    config = home / ".config" / "rtok"
    config.mkdir(parents=True)
    (config / "config.toml").write_text('[awareness]\nlevel = "default"\n')
    (home / ".claude").mkdir()  # detected: pre-checked


def test_ctrl_c_at_the_first_question_writes_no_cache(isolated_home: Path) -> None:
    _with_config_and_rules(isolated_home)
    status = _cancelled_init(isolated_home, [(b"which agents", b"\x03")])
    assert status == 130
    for folder in _rtok_dirs(isolated_home):
        assert not folder.exists() or _files(folder) == [], folder


def test_ctrl_c_at_the_confirmation_writes_no_cache(isolated_home: Path) -> None:
    _with_config_and_rules(isolated_home)
    status = _cancelled_init(
        isolated_home, [(b"which agents", b"\r"), (b"Scope", b"\r"), (b"Apply", b"\x03")]
    )
    assert status == 130
    for folder in _rtok_dirs(isolated_home):
        assert not folder.exists() or _files(folder) == [], folder


def test_a_finished_verb_writes_its_caches_privately(isolated_home: Path, tmp_path: Path) -> None:
    # The same config.toml, read by a verb that finishes: its parse is cached, privately.
    _with_config_and_rules(isolated_home)
    assert run_rtok(["config", "show"]).returncode == 0
    for index in range(80):  # a listing long enough to be shortened: regex patterns
        (tmp_path / f"file{index:03}.txt").write_text("x\n" * index)
    assert run_rtok(["run", "ls", "-la"], cwd=str(tmp_path)).returncode == 0
    cache = isolated_home / ".cache" / "rtok"
    written = _files(cache)
    assert any(name.startswith("parsed/") for name in written), written
    assert any(name.startswith("regex/") for name in written), written
    for path in [cache, *cache.rglob("*")]:
        mode = stat.S_IMODE(path.stat().st_mode)
        assert mode == (0o700 if path.is_dir() else 0o600), (path, oct(mode))
    data = isolated_home / ".local" / "share" / "rtok"
    assert not (data / "regex").exists() and not (data / "parsed").exists()
