"""Rewritten commands name an rtok the agent's shell can run.

A bare `rtok` is used only when the first `rtok` on PATH is the one answering the hook;
otherwise (rtok installed into a venv that is not on PATH) the hook names it by absolute
path, so a rewritten command never fails with "command not found".
"""

from __future__ import annotations

import json
import os
import subprocess

from rtok_testing import rtok_entry_point

PAYLOAD = json.dumps(
    {
        "session_id": "s",
        "cwd": "/tmp",
        "hook_event_name": "PreToolUse",
        "tool_name": "Bash",
        "tool_input": {"command": "git status"},
    }
)


def _rewritten(path_value: str) -> str:
    env = dict(os.environ, PATH=path_value)
    env.pop("RTOK_BIN", None)
    done = subprocess.run(
        [rtok_entry_point(), "hook", "claude"],
        input=PAYLOAD.encode(),
        capture_output=True,
        env=env,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    reply = json.loads(done.stdout)
    command: str = reply["hookSpecificOutput"]["updatedInput"]["command"]
    return command


def test_absolute_path_when_rtok_is_not_on_path() -> None:
    command = _rewritten("/usr/bin:/bin")
    assert command == f"{rtok_entry_point()} run git status"
    # The absolute form runs from a shell whose PATH has no rtok at all.
    shown = subprocess.run(
        ["/bin/sh", "-c", command.replace(" run git status", " --version")],
        capture_output=True,
        env={"PATH": "/usr/bin:/bin"},
        timeout=60,
        check=False,
    )
    assert shown.returncode == 0 and shown.stdout.startswith(b"rtok ")


def test_bare_name_when_this_rtok_is_first_on_path() -> None:
    bin_dir = os.path.dirname(rtok_entry_point())
    assert _rewritten(f"{bin_dir}:/usr/bin:/bin") == "rtok run git status"


def test_absolute_path_when_another_rtok_comes_first(tmp_path: object) -> None:
    other = os.path.join(str(tmp_path), "bin")
    os.makedirs(other)
    fake = os.path.join(other, "rtok")
    with open(fake, "w", encoding="utf-8") as handle:
        handle.write("#!/bin/sh\nexit 0\n")
    os.chmod(fake, 0o755)
    bin_dir = os.path.dirname(rtok_entry_point())
    assert _rewritten(f"{other}:{bin_dir}:/usr/bin:/bin") == f"{rtok_entry_point()} run git status"
