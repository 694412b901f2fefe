"""Files as hosts really read them: a BOM the host refuses, zero-byte files, an empty
settings file that disables the hook. Each case runs the real `rtok init` on real files."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

BOM = b"\xef\xbb\xbf"


def _rtok(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "rtok", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
    )


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    (root / ".git").mkdir(parents=True)
    return root


def _home() -> Path:
    return Path(os.environ["HOME"])


BOM_CASES = [
    ("gemini", "--global", lambda project: _home() / ".gemini" / "settings.json"),
    ("gemini", "--project", lambda project: project / ".gemini" / "settings.json"),
    ("codex", "--global", lambda project: _home() / ".codex" / "hooks.json"),
    ("codex", "--project", lambda project: project / ".codex" / "hooks.json"),
]


@pytest.mark.parametrize(
    ("agent", "scope", "where"), BOM_CASES, ids=[f"{a}{s}" for a, s, _ in BOM_CASES]
)
def test_a_bom_the_host_refuses_is_refused_and_nothing_is_written(
    agent: str, scope: str, where: object, project: Path
) -> None:
    assert callable(where)
    path: Path = where(project)
    path.parent.mkdir(parents=True, exist_ok=True)
    original = BOM + b'{"hooks": {}}\n'
    path.write_bytes(original)
    before = {p: p.read_bytes() for p in path.parent.rglob("*") if p.is_file()}
    done = _rtok(["init", "--agent", agent, scope, "--auto-patch", "--hook-only"], project)
    assert done.returncode == 2, done.stdout + done.stderr
    shown = str(path).replace(str(_home()), "~", 1)  # messages write the home dir as ~
    assert "byte-order mark" in done.stderr and shown in done.stderr
    assert {p: p.read_bytes() for p in path.parent.rglob("*") if p.is_file()} == before
    path.write_bytes(original[len(BOM) :])  # the fix the message names
    done = _rtok(["init", "--agent", agent, scope, "--auto-patch", "--hook-only"], project)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "hook" in json.dumps(json.loads(path.read_bytes()))


def test_a_bom_claude_settings_still_install(project: Path) -> None:
    """Only the hosts known to refuse a BOM refuse it (the JSON editors keep it)."""
    path = project / ".claude" / "settings.local.json"
    path.parent.mkdir()
    path.write_bytes(BOM + b"{}\n")
    done = _rtok(["init", "--agent", "claude", "--project", "--auto-patch", "--hook-only"], project)
    assert done.returncode == 0, done.stderr
    assert path.read_bytes().startswith(BOM)


ZERO_BYTE_CASES = [
    ("cursor", "--project", ".cursor/hooks.json"),
    ("cursor", "--global", "~/.cursor/hooks.json"),
    ("trae", "--global", "~/.trae/hooks.json"),
    ("copilot", "--global", "~/.copilot/hooks/rtok.json"),
]


@pytest.mark.parametrize(
    ("agent", "scope", "relative"), ZERO_BYTE_CASES, ids=[f"{a}{s}" for a, s, _ in ZERO_BYTE_CASES]
)
def test_a_zero_byte_file_comes_back_zero_byte(
    agent: str, scope: str, relative: str, project: Path
) -> None:
    path = (_home() / relative[2:]) if relative.startswith("~/") else project / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"")
    done = _rtok(["init", "--agent", agent, scope, "--auto-patch", "--hook-only"], project)
    assert done.returncode == 0, done.stdout + done.stderr
    assert b"hook " + agent.encode() in path.read_bytes()
    gone = _rtok(["init", "--uninstall", "--agent", agent, scope], project)
    assert gone.returncode == 0, gone.stdout + gone.stderr
    assert path.exists() and path.read_bytes() == b""


def test_a_file_that_was_only_a_skeleton_keeps_it(project: Path) -> None:
    path = project / ".cursor" / "hooks.json"
    path.parent.mkdir()
    path.write_bytes(b'{"version": 1}\n')
    assert (
        _rtok(
            ["init", "--agent", "cursor", "--project", "--auto-patch", "--hook-only"], project
        ).returncode
        == 0
    )
    assert _rtok(["init", "--uninstall", "--agent", "cursor", "--project"], project).returncode == 0
    assert json.loads(path.read_bytes()) == {"version": 1}


def test_a_second_agents_entry_is_not_lost_when_the_file_was_empty(project: Path) -> None:
    """Restoring an empty origin applies only when nothing but a skeleton is left."""
    path = project / ".cursor" / "hooks.json"
    path.parent.mkdir()
    path.write_bytes(b"")
    assert (
        _rtok(
            ["init", "--agent", "cursor", "--project", "--auto-patch", "--hook-only"], project
        ).returncode
        == 0
    )
    data = json.loads(path.read_bytes())
    data["hooks"]["stop"] = [{"command": "echo mine"}]
    path.write_text(json.dumps(data))
    assert _rtok(["init", "--uninstall", "--agent", "cursor", "--project"], project).returncode == 0
    assert json.loads(path.read_bytes())["hooks"] == {"stop": [{"command": "echo mine"}]}


@pytest.mark.parametrize("content", [b"", b"  \n"])
def test_init_reports_an_empty_project_settings_file_that_disables_the_hook(
    content: bytes, project: Path
) -> None:
    settings = project / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_bytes(content)
    done = _rtok(["init", "--agent", "claude", "--project", "--auto-patch", "--hook-only"], project)
    assert done.returncode == 0, done.stderr
    assert f"{settings} is empty: Claude Code cannot parse" in done.stderr.replace(
        "~", str(_home())
    )
    assert settings.read_bytes() == content  # reported, not changed
    settings.write_bytes(b"{}\n")
    again = _rtok(
        ["init", "--agent", "claude", "--project", "--auto-patch", "--hook-only"], project
    )
    assert again.returncode == 0 and "is empty" not in again.stderr
