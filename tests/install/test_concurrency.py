"""16 parallel `rtok init` on one HOME: one rtok entry per file, no user key lost."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from rtok.formats import jsonc

PARALLEL = 16
SETTINGS = (
    b'{\n  "model": "opus",\n  "env": {"A": "1"},\n  "permissions": {"allow": ["Bash(ls)"]},\n'
    b'  "hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", '
    b'"command": "guard"}]}]}\n}\n'
)


def test_parallel_installs_leave_one_entry_and_every_user_key(isolated_home: Path) -> None:
    claude = isolated_home / ".claude"
    claude.mkdir()
    (claude / "settings.json").write_bytes(SETTINGS)
    (claude / "CLAUDE.md").write_bytes(b"# mine\n")
    procs = [
        subprocess.Popen(
            [sys.executable, "-m", "rtok", "init", "-a", "claude", "-g", "--auto-patch"],
            env=dict(os.environ),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        for _ in range(PARALLEL)
    ]
    for proc in procs:
        _out, err = proc.communicate(timeout=120)
        assert proc.returncode == 0, err.decode()
    settings = (claude / "settings.json").read_bytes()
    value = jsonc.parse(settings)
    assert isinstance(value, dict)
    assert value["model"] == "opus" and value["env"] == {"A": "1"}
    assert value["permissions"] == {"allow": ["Bash(ls)"]}
    commands = [h["command"] for g in value["hooks"]["PreToolUse"] for h in g["hooks"]]
    assert commands.count("guard") == 1
    assert sum("hook claude" in c for c in commands) == 1
    claude_md = (claude / "CLAUDE.md").read_bytes()
    assert claude_md.startswith(b"# mine\n") and claude_md.count(b"RTOK.md") == 1
    assert (claude / "RTOK.md").exists()
    assert sorted(os.listdir(claude)) == ["CLAUDE.md", "RTOK.md", "settings.json"]


def _claude_files(claude: Path) -> dict[str, bytes | None]:
    return {
        name: (claude / name).read_bytes() if (claude / name).exists() else None
        for name in ("settings.json", "CLAUDE.md", "RTOK.md")
    }


def test_mixed_parallel_installs_and_uninstalls_end_whole(isolated_home: Path) -> None:
    """Each run holds the locks of all its files, so the last one wins entirely: every file
    is installed, or every file is back to the user's bytes; never a mixture."""
    claude = isolated_home / ".claude"
    claude.mkdir()
    (claude / "settings.json").write_bytes(SETTINGS)
    (claude / "CLAUDE.md").write_bytes(b"# mine\n")
    base = [sys.executable, "-m", "rtok"]
    flags = ["-a", "claude", "-g", "--auto-patch"]
    old = _claude_files(claude)
    subprocess.run([*base, "init", *flags], check=True, capture_output=True)
    new = _claude_files(claude)
    subprocess.run([*base, "uninstall", *flags], check=True, capture_output=True)
    procs = [
        subprocess.Popen(
            [*base, "init" if n % 2 == 0 else "uninstall", *flags],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        for n in range(PARALLEL)
    ]
    for proc in procs:
        _out, err = proc.communicate(timeout=120)
        assert proc.returncode == 0, err.decode()
    assert _claude_files(claude) in (old, new)
