"""Codex itself agrees with `rtok doctor` on whether rtok's hook is trusted.

The real Codex CLI (pinned in scripts/e2e/pins.py) is asked over `codex app-server`'s
`hooks/list` for the hook's `currentHash` and `trustStatus`; doctor's recomputed hash must
equal Codex's, and both must call the hook trusted, modified or untrusted alike.
"""

from __future__ import annotations

import json
import os
import re
import select
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from rtok.integrity.doctor import codex_hook_hash
from rtok_testing import REPO_ROOT, run_rtok

sys.path.insert(0, os.path.join(REPO_ROOT, "scripts"))
# Imported at collection, so it reads the real HOME before each test replaces it.
from e2e import pins

CODEX = pins.NPM_AGENTS["codex"]
CODEX_JS = os.path.join(CODEX.package_dir, "bin", "codex.js")
NODE = os.path.join(pins.NODE22.bin_dir, "node")


def _node() -> str:
    return NODE if os.path.exists(NODE) else (shutil.which("node") or "node")


def _ensure_codex() -> None:
    if not os.path.exists(CODEX_JS):
        from e2e.install import install_all

        install_all(["codex"], workers=1)
    assert os.path.exists(CODEX_JS), f"Codex CLI not installed at {CODEX_JS}"


def _hooks_list(home: Path, cwd: Path, timeout: float = 90) -> list[dict[str, object]]:
    env = {**os.environ, "CODEX_HOME": str(home / ".codex"), "RUST_LOG": "warn"}
    proc = subprocess.Popen(
        [
            _node(),
            CODEX_JS,
            "app-server",
            "--disable",
            "plugins",
            "--disable",
            "apps",
            "--disable",
            "remote_plugin",
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env=env,
        cwd=cwd,
    )
    assert proc.stdin is not None and proc.stdout is not None
    requests = [
        {"id": 1, "method": "initialize", "params": {"clientInfo": {"name": "t", "version": "1"}}},
        {"method": "initialized"},
        {"id": 2, "method": "hooks/list", "params": {"cwds": [str(cwd)]}},
    ]
    for request in requests:
        proc.stdin.write((json.dumps(request) + "\n").encode())
    proc.stdin.flush()
    buffer = b""
    deadline = time.monotonic() + timeout
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([proc.stdout], [], [], 0.5)
            if not ready:
                if proc.poll() is not None:
                    break
                continue
            chunk = os.read(proc.stdout.fileno(), 65536)
            if not chunk:
                break
            buffer += chunk
            for line in buffer.split(b"\n"):
                try:
                    message = json.loads(line)
                except ValueError:
                    continue
                if message.get("id") == 2:
                    data = message["result"]["data"]
                    return [hook for entry in data for hook in entry["hooks"]]
    finally:
        proc.kill()
        proc.wait(timeout=10)
    raise AssertionError(f"no hooks/list answer: {buffer[-2000:]!r}")


def _doctor_trust(home: Path) -> dict[str, object]:
    result = run_rtok(["doctor", "--json", "--agent", "codex"], cwd=str(home), timeout=240)
    checks = json.loads(result.stdout)["checks"]
    [trust] = [c for c in checks if c["sample"] == "codex_trust"]
    return dict(trust)


@pytest.mark.e2e
def test_doctor_and_codex_agree_on_hook_trust(isolated_home: Path) -> None:
    _ensure_codex()
    (isolated_home / ".codex").mkdir()
    result = run_rtok(["init", "--agent", "codex", "-g", "--auto-patch"])
    assert result.returncode == 0, result.stderr

    [hook] = _hooks_list(isolated_home, isolated_home)
    assert hook["trustStatus"] == "trusted"
    assert hook["currentHash"] == codex_hook_hash(
        str(hook["command"]), hook["timeoutSec"], str(hook["matcher"])
    )
    assert _doctor_trust(isolated_home)["level"] == "PASS"

    hooks_json = isolated_home / ".codex" / "hooks.json"
    hooks_json.write_text(hooks_json.read_text().replace('"timeout": 30', '"timeout": 31'))
    [hook] = _hooks_list(isolated_home, isolated_home)
    assert hook["trustStatus"] == "modified"
    assert hook["currentHash"] == codex_hook_hash(str(hook["command"]), 31, "Bash")
    doctor = _doctor_trust(isolated_home)
    assert doctor["level"] == "FAIL" and "changed since it was trusted" in str(doctor["message"])

    config = isolated_home / ".codex" / "config.toml"
    config.write_text(
        re.sub(r'\[hooks\.state\.[^\]]+\]\ntrusted_hash = "[^"]+"\n?', "", config.read_text())
    )
    [hook] = _hooks_list(isolated_home, isolated_home)
    assert hook["trustStatus"] == "untrusted"
    doctor = _doctor_trust(isolated_home)
    assert doctor["level"] == "FAIL" and "not trusted" in str(doctor["message"])


@pytest.mark.e2e
def test_codex_trusts_the_hook_under_a_non_ascii_home(
    isolated_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A HOME such as /home/jürgen: the hooks.json path in the trust key, and the rtok path
    in the hook command, hold non-ASCII characters; Codex must call the hook trusted, and
    its hash must be the one rtok wrote and doctor recomputes."""
    _ensure_codex()
    home = isolated_home / "jürgen"
    (home / ".codex").mkdir(parents=True)
    bin_dir = home / "tools ü" / "bin"
    bin_dir.mkdir(parents=True)
    (bin_dir / "rtok").symlink_to(os.path.join(os.path.dirname(sys.executable), "rtok"))
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("RTOK_BIN", str(bin_dir / "rtok"))
    result = run_rtok(["init", "--agent", "codex", "-g", "--auto-patch"])
    assert result.returncode == 0, result.stderr

    [hook] = _hooks_list(home, home)
    assert "jürgen" in str(hook["command"]) and "tools ü" in str(hook["command"])
    assert hook["trustStatus"] == "trusted", hook
    assert hook["currentHash"] == codex_hook_hash(
        str(hook["command"]), hook["timeoutSec"], str(hook["matcher"])
    )
    config = (home / ".codex" / "config.toml").read_text(encoding="utf-8")
    assert str(hook["currentHash"]) in config
    assert _doctor_trust(home)["level"] == "PASS"


@pytest.mark.e2e
def test_rtoks_hook_goes_inline_where_the_users_hooks_live(isolated_home: Path) -> None:
    """The user's hooks are `[[hooks.PreToolUse]]` tables in config.toml: rtok's entry goes
    there too (no hooks.json beside it, which Codex would load as a second representation
    of the same layer); Codex lists both and trusts rtok's."""
    _ensure_codex()
    codex = isolated_home / ".codex"
    codex.mkdir()
    user = (
        '[[hooks.PreToolUse]]\nmatcher = "Bash"\n\n[[hooks.PreToolUse.hooks]]\n'
        'type = "command"\ncommand = "echo user-hook"\n'
    )
    (codex / "config.toml").write_text(user)
    result = run_rtok(["init", "--agent", "codex", "-g", "--auto-patch", "--hook-only"])
    assert result.returncode == 0, result.stderr
    assert not (codex / "hooks.json").exists()
    assert (codex / "config.toml").read_text().startswith(user)
    hooks = _hooks_list(isolated_home, isolated_home)
    commands = {str(h["command"]): h for h in hooks}
    assert "echo user-hook" in commands and commands["echo user-hook"]["enabled"] is True
    # the registered command answers for a deleted launcher itself (`… hook codex || true`)
    [ours] = [h for c, h in commands.items() if "rtok hook codex" in c]
    assert ours["trustStatus"] == "trusted" and str(ours["key"]).startswith(
        f"{codex / 'config.toml'}:pre_tool_use:1:"
    )
    assert ours["currentHash"] == codex_hook_hash(
        str(ours["command"]), ours["timeoutSec"], str(ours["matcher"])
    )
    doctor = run_rtok(["doctor", "--json", "--agent", "codex"], cwd=str(isolated_home), timeout=240)
    checks = json.loads(doctor.stdout)["checks"]
    assert [c["level"] for c in checks if c["sample"] == "codex_trust"] == ["PASS"]
    assert not [c for c in checks if c["sample"] == "hook_layer"]
    assert run_rtok(["uninstall", "--agent", "codex", "-g", "--auto-patch"]).returncode == 0
    assert (codex / "config.toml").read_text() == user
