"""Adding an agent is one descriptor: a throwaway agent, added to a copy of rtok and its
data (the compiled hook protocols regenerated there), goes through init, hook, verify,
doctor and uninstall with no other edit."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from rtok.resources import DATA_FOLDERS
from rtok_testing import REPO_ROOT

AGENT = "testagent"
DESCRIPTOR = """\
name = "testagent"
display_name = "Test Agent"
tier = "hook"

[proof]
kind = "contract"
docs = ["https://testagent.example/docs/hooks"]

[hook]
permissions = "claude"
rtok_path = "bare"
no_opinion = ""

[[hook.payloads]]
tool = "tool_name"
tools = ["Bash"]
event = "hook_event_name"
events = ["PreToolUse"]
input = "tool_input"
command = ["command"]

[hook.payloads.replies.allow_rewrite.hookSpecificOutput]
hookEventName = "PreToolUse"
permissionDecision = "allow"
updatedInput = "${input}"

[hook.payloads.replies.ask_rewrite.hookSpecificOutput]
hookEventName = "PreToolUse"
updatedInput = "${input}"

[hook.sample]
shell = '''{"tool_name": "Bash", "hook_event_name": "PreToolUse", "cwd": "${cwd}",
           "tool_input": {"command": "${command}", "description": "status"}}'''
other = '''{"tool_name": "Read", "tool_input": {"file_path": "/etc/hosts"}}'''

[install]
awareness_target = "none"

[install.detect]
paths = ["~/.testagent"]

[[install.global]]
strategy = "json_hook_group"
path = "~/.testagent/settings.json"
container = ["hooks", "PreToolUse"]
dialect = "json"
matcher = "Bash"
timeout = 30

[doctor]
rewrite_input = ["hookSpecificOutput", "updatedInput"]
"""


@pytest.fixture
def rtok_copy(tmp_path: Path) -> Path:
    """rtok's package and data folders copied, the new descriptor added, the compiled
    modules regenerated from them (as scripts/compile_data.py does for a real agent)."""
    root = tmp_path / "rtok-copy"
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    shutil.copytree(os.path.join(REPO_ROOT, "rtok"), root / "rtok", ignore=ignore)
    for folder in DATA_FOLDERS:
        shutil.copytree(os.path.join(REPO_ROOT, folder), root / folder, ignore=ignore)
    (root / "scripts").mkdir()
    shutil.copy(os.path.join(REPO_ROOT, "scripts", "compile_data.py"), root / "scripts")
    (root / "scripts" / "e2e").mkdir()  # the e2e tier's pins, which `[proof]` is checked by
    shutil.copy(os.path.join(REPO_ROOT, "scripts", "e2e", "pins.py"), root / "scripts" / "e2e")
    (root / "integrations" / f"{AGENT}.toml").write_text(DESCRIPTOR, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, str(root / "scripts" / "compile_data.py")],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "hook_protocols" in done.stdout
    return root


def _rtok(copy: Path, *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=str(copy))
    return subprocess.run(
        [sys.executable, "-m", "rtok", *args],
        capture_output=True,
        text=True,
        env=env,
        cwd=str(cwd),
        timeout=240,
        check=False,
    )


def _sample(copy: Path, command: str, cwd: str) -> dict[str, object]:
    """The new agent's `[hook.sample]` shell payload, filled in by the copy of rtok."""
    script = (
        "import json, sys\n"
        "from rtok.install.integrations import get_descriptor\n"
        "from rtok.hooks.descriptors import fill_sample\n"
        f"sample = get_descriptor({AGENT!r}).hook_sample\n"
        "print(json.dumps(fill_sample(sample, sys.argv[1], sys.argv[2])))\n"
    )
    env = dict(os.environ, PYTHONPATH=str(copy))
    done = subprocess.run(
        [sys.executable, "-c", script, command, cwd],
        capture_output=True,
        text=True,
        env=env,
        cwd=str(copy),
        timeout=60,
        check=True,
    )
    payload: dict[str, object] = json.loads(done.stdout)
    return payload


def _check_verify_and_doctor_pass(rtok_copy: Path, work: Path) -> None:
    """`rtok verify` finds the new agent's files whole, `rtok doctor` its samples answered."""
    done = _rtok(rtok_copy, "verify", "--json", cwd=work)
    items = json.loads(done.stdout)["items"]
    ours = [i for i in items if i.get("agent") == AGENT]
    assert done.returncode == 0, [i["message"] for i in items if i["level"] != "PASS"]
    assert {i["check"] for i in ours} >= {"artifact", "hook_command"}
    assert {i["level"] for i in ours} == {"PASS"}

    done = _rtok(rtok_copy, "doctor", "--json", "--agent", AGENT, cwd=work)
    checks = json.loads(done.stdout)["checks"]
    levels = {c["sample"]: c["level"] for c in checks if c["agent"] == AGENT}
    assert done.returncode == 0, [c["message"] for c in checks if c["level"] == "FAIL"]
    # The deny sample runs too: the agent reads Claude's permission rules.
    assert levels["rewrite"] == levels["passthrough"] == levels["deny"] == "PASS", checks


def test_a_new_descriptor_is_a_new_agent(rtok_copy: Path, isolated_home: Path) -> None:
    work = isolated_home / "work"
    work.mkdir()
    settings = isolated_home / ".testagent" / "settings.json"

    done = _rtok(rtok_copy, "init", "--agent", AGENT, "-g", "--auto-patch", cwd=work)
    assert done.returncode == 0, done.stdout + done.stderr
    group = json.loads(settings.read_text())["hooks"]["PreToolUse"][0]
    assert group["matcher"] == "Bash"
    command = group["hooks"][0]["command"]
    assert command.endswith(f"rtok hook {AGENT} || true")

    # The registered command answers the descriptor's own sample payload as its reply
    # template says.
    payload = _sample(rtok_copy, "git status", str(work))
    hook = subprocess.run(
        ["/bin/sh", "-c", command],
        input=json.dumps(payload),
        capture_output=True,
        text=True,
        cwd=str(work),
        timeout=60,
        check=False,
    )
    assert hook.returncode == 0, hook.stderr
    updated = json.loads(hook.stdout)["hookSpecificOutput"]["updatedInput"]
    assert updated["description"] == "status"
    assert "rtok" in updated["command"] and "git status" in updated["command"]

    _check_verify_and_doctor_pass(rtok_copy, work)

    done = _rtok(rtok_copy, "uninstall", "--agent", AGENT, "-g", "--auto-patch", cwd=work)
    assert done.returncode == 0, done.stdout + done.stderr
    assert not settings.exists()  # rtok created it; nothing of the user's was in it
