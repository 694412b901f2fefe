"""`rtok hook AGENT` imports only the stdlib modules the hot path allows (subprocess check)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from rtok.compiled.hook_protocols import PROTOCOLS

from .payloads import HOOK_AGENTS, foreign_payload, shell_payload

FORBIDDEN = (
    "typer",
    "rich",
    "questionary",
    "tomlkit",
    "ruamel",
    "json5",
    "filelock",
    "tomllib",
    "typing",
    "dataclasses",
    "inspect",
    "subprocess",
    "shlex",
    "pathlib",
    "click",
    "packaging",
)

# Runs the console entry point in-process, then reports what got imported.
PROBE = """
import io, json, sys
from rtok.cli.entry import main
real = sys.stdout
sys.stdout = io.TextIOWrapper(io.BytesIO())
status = main(sys.argv[1:])
sys.stdout = real
print(json.dumps({"status": status, "modules": sorted(sys.modules)}))
"""


@pytest.mark.parametrize("agent", HOOK_AGENTS)
@pytest.mark.parametrize("kind", ["rewrite", "foreign"])
def test_hook_imports_stay_light(
    agent: str, kind: str, tmp_path: Path, isolated_home: Path
) -> None:
    (isolated_home / ".claude").mkdir()
    (isolated_home / ".claude" / "settings.json").write_text(
        json.dumps({"permissions": {"allow": ["Bash(git status)"], "deny": ["Bash(rm:*)"]}})
    )
    payload = (
        shell_payload(agent, "git status", str(tmp_path))
        if kind == "rewrite"
        else foreign_payload(agent, str(tmp_path))
    )
    result = subprocess.run(
        [sys.executable, "-c", PROBE, "hook", agent],
        input=json.dumps(payload).encode(),
        capture_output=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    # Hosts that read an exit status (Windsurf, Kiro) block a rewritable call with exit 2.
    blocks = kind == "rewrite" and PROTOCOLS[agent].get("reply_via") == "exit"
    assert report["status"] == (2 if blocks else 0)
    loaded = {name.split(".")[0] for name in report["modules"]}
    assert not loaded & set(FORBIDDEN), sorted(loaded & set(FORBIDDEN))
    if kind == "rewrite":  # the probe really went through the decision core
        assert "rtok.rewrite.decision" in report["modules"]
