"""Uninstall gives back what the user had, even where a minimal removal cannot tell
(empty containers the user wrote), as long as the file is exactly as rtok left it."""

from __future__ import annotations

from pathlib import Path

import pytest

from rtok_testing import run_rtok

INSTALL = ["init", "--agent", "claude", "-g", "--auto-patch", "--hook-only"]
UNINSTALL = ["uninstall", "--agent", "claude", "-g", "--auto-patch", "--hook-only"]

EMPTY_CONTAINERS = [
    b'{\n  "hooks": {}\n}\n',
    b'{"hooks": {"PreToolUse": []}, "model": "opus"}',
    b'{\r\n\t"permissions": {"allow": []},\r\n\t"hooks": {\r\n\t\t"PreToolUse": [ ]\r\n\t}\r\n}',
    b'{\n    "hooks": {\n        "PreToolUse": [],\n        "Stop": []\n    }\n}\n',
    # An empty or whitespace-only file is "no settings" to the host: it comes back as such.
    b"",
    b"  \n\t\n",
    b"\r\n",
]


@pytest.mark.parametrize("original", EMPTY_CONTAINERS)
def test_empty_containers_come_back(isolated_home: Path, original: bytes) -> None:
    settings = isolated_home / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_bytes(original)
    done = run_rtok(INSTALL)
    assert done.returncode == 0, done.stdout + done.stderr
    assert b"hook claude" in settings.read_bytes()
    gone = run_rtok(UNINSTALL)
    assert gone.returncode == 0, gone.stdout + gone.stderr
    assert settings.read_bytes() == original


def test_user_edits_after_install_are_kept(isolated_home: Path) -> None:
    settings = isolated_home / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_bytes(b'{\n  "hooks": {}\n}\n')
    assert run_rtok(INSTALL).returncode == 0
    edited = settings.read_bytes().replace(b'{\n  "hooks"', b'{\n  "model": "opus",\n  "hooks"')
    assert edited != settings.read_bytes()
    settings.write_bytes(edited)
    gone = run_rtok(UNINSTALL)
    assert gone.returncode == 0, gone.stdout + gone.stderr
    after = settings.read_bytes()
    # The user's edit stays; only rtok's entry (and what it emptied) is removed.
    assert b'"model": "opus"' in after and b"hook claude" not in after


def test_reinstall_keeps_the_first_origin(isolated_home: Path) -> None:
    settings = isolated_home / ".claude" / "settings.json"
    settings.parent.mkdir()
    original = b'{"hooks": {}}'
    settings.write_bytes(original)
    assert run_rtok(INSTALL).returncode == 0
    # A second install with another timeout-free change of rtok's own entry (same bytes
    # here) must not replace the origin with a document that already holds rtok's entry.
    assert run_rtok(INSTALL).returncode == 0
    assert run_rtok(UNINSTALL).returncode == 0
    assert settings.read_bytes() == original
