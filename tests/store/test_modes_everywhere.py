"""Every file rtok writes for itself is 0600 in a 0700 directory (the launcher 0700), under
a umask of 022: archive, ledger, backups, locks, install state, integrity records, trust
store, the launcher and its preload bundles, the parsed-file caches and config.toml.

Real processes fill each of rtok's own directories first (init, hook, run through the
launcher, config set, trust, uninstall); the walk then checks every entry."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

from rtok import paths

PY = sys.executable
LONG = "import sys\nfor i in range(600): print('row', i)"


def _run(
    argv: list[str], *, stdin: bytes | None = None, cwd: str | None = None
) -> subprocess.CompletedProcess[bytes]:
    def set_umask() -> None:
        os.umask(0o022)

    return subprocess.run(
        argv,
        input=stdin,
        capture_output=True,
        timeout=120,
        cwd=cwd,
        env=dict(os.environ),
        preexec_fn=set_umask,
        check=False,
    )


def _rtok(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    return _run([PY, "-m", "rtok", *args], stdin=stdin)


def _mode(path: str) -> int:
    return stat.S_IMODE(os.lstat(path).st_mode)


def _populate(home: Path) -> None:
    claude = home / ".claude"
    claude.mkdir()
    # Over 64 KiB, so that the hook keeps its parsed permission rules in the cache.
    (claude / "settings.json").write_text(
        json.dumps(
            {
                "permissions": {"allow": ["Bash(git status)"], "deny": ["Bash(rm -rf /)"]},
                "env": {"PADDING": "x" * (70 << 10)},
            }
        )
        + "\n"
    )
    done = _rtok("init", "-a", "claude", "-g", "--auto-patch")
    assert done.returncode == 0, done.stderr
    payload = json.dumps(
        {
            "tool_name": "Bash",
            "hook_event_name": "PreToolUse",
            "tool_input": {"command": "git status"},
            "cwd": str(home),
        }
    )
    assert _run([paths.launcher(), "hook", "claude"], stdin=payload.encode()).returncode == 0
    for _ in range(2):  # the second run reads the preload bundle the first one wrote
        done = _run([paths.launcher(), "run", PY, "-c", LONG])
        assert done.returncode == 0 and b"[rtok " in done.stdout, done.stderr
    assert _rtok("config", "set", "awareness.level", "high").returncode == 0
    rules = Path(paths.user_rules_file())
    rules.write_text("[seq]\nmax_lines = 20\n")
    assert _rtok("trust", str(rules), "--yes").returncode == 0, "trust"
    assert _rtok("config", "show").returncode == 0
    done = _rtok("uninstall", "-a", "claude", "-g", "--auto-patch")
    assert done.returncode == 0, done.stderr


def test_every_file_rtok_writes_is_private(isolated_home: Path) -> None:
    _populate(isolated_home)
    launcher = paths.launcher()
    seen: dict[str, int] = {}
    for top in (paths.data_dir(), paths.cache_dir(), paths.config_dir(), paths.state_dir()):
        assert _mode(top) == 0o700, top
        for root, dirs, files in os.walk(top):
            for name in dirs:
                path = os.path.join(root, name)
                assert _mode(path) == 0o700, (path, oct(_mode(path)))
            for name in files:
                path = os.path.join(root, name)
                if path == str(paths.user_rules_file()):
                    continue  # the user's own file, written by this test
                seen[path] = _mode(path)
    wide = {p: oct(m) for p, m in seen.items() if m != (0o700 if p == launcher else 0o600)}
    assert not wide, wide
    # Each kind of file was really written (the walk is not vacuous).
    names = "\n".join(seen)
    for expected in (
        "archive.sqlite3",
        "ledger",
        ".lock",
        "install-state.json",
        "installed.json",
        "trusted.json",
        "/backups/",
        "/bin/rtok",
        "/bin/preload/",
        "/parsed/settings-",
        "config.toml",
    ):
        assert expected in names, (expected, sorted(seen))


def test_an_earlier_wide_launcher_and_cache_become_private(isolated_home: Path) -> None:
    _populate(isolated_home)
    launcher = paths.launcher()
    os.chmod(launcher, 0o755)
    parsed = os.path.join(paths.cache_dir(), "parsed")
    os.chmod(parsed, 0o755)
    for name in os.listdir(parsed):
        os.chmod(os.path.join(parsed, name), 0o644)
    (isolated_home / ".claude" / "settings.json").write_text(
        json.dumps({"permissions": {"allow": ["Bash(ls)"]}, "env": {"PADDING": "y" * (70 << 10)}})
        + "\n"
    )
    assert _rtok("init", "-a", "claude", "-g", "--auto-patch").returncode == 0
    payload = json.dumps(
        {
            "tool_name": "Bash",
            "hook_event_name": "PreToolUse",
            "tool_input": {"command": "git status"},
            "cwd": str(isolated_home),
        }
    )
    assert _run([launcher, "hook", "claude"], stdin=payload.encode()).returncode == 0
    assert _mode(launcher) == 0o700
    assert _mode(parsed) == 0o700
    assert {_mode(os.path.join(parsed, n)) for n in os.listdir(parsed)} == {0o600}
