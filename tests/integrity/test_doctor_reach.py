"""`rtok doctor`'s expand check: the agent's shell can run the `rtok expand` the trailer
names, through the hook's renaming or through PATH."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from rtok import paths
from rtok.integrity import reach
from rtok_testing import run_rtok


@pytest.mark.parametrize(
    ("reply", "found"),
    [
        (
            '{"hookSpecificOutput": {"updatedInput": {"command": "/x/rtok expand --list"}}}',
            "/x/rtok expand --list",
        ),
        (
            '{"decision": "deny", "reason": "please run `\'/my dir/rtok\' expand --list` instead"}',
            "'/my dir/rtok' expand --list",
        ),
        ("/x/rtok expand --list", "/x/rtok expand --list"),  # `rtok rewrite` prints it plain
        ("", None),
        ("{}", None),
    ],
)
def test_the_command_a_reply_hands_the_agent(reply: str, found: str | None) -> None:
    assert reach.command_in_reply(reply) == found


def _expand_checks(home: Path, env: dict[str, str]) -> dict[str, dict[str, object]]:
    done = run_rtok(["doctor", "--json"], env=env, cwd=str(home), timeout=180)
    checks = json.loads(done.stdout)
    items = checks["checks"] if isinstance(checks, dict) else checks
    return {str(c["agent"]): c for c in items if c["sample"] == "expand"}


def test_doctor_runs_rtok_expand_as_each_agent_would(isolated_home: Path) -> None:
    env = {"PATH": "/usr/bin:/bin"}  # no rtok on PATH: the hooks must name it
    done = run_rtok(["init", "-a", "claude", "-a", "opencode", "--auto-patch"], env=env)
    assert done.returncode == 0, done.stderr
    found = _expand_checks(isolated_home, env)
    assert found["claude"]["level"] == "PASS", found
    assert "named by the hook" in str(found["claude"]["message"])
    assert found["opencode"]["level"] == "PASS", found
    # With the launcher gone the hook cannot name a working rtok: doctor says so, and
    # its fix repairs it.
    os.unlink(paths.launcher())
    broken = _expand_checks(isolated_home, env)
    assert broken["claude"]["level"] == "FAIL"
    fix = str(broken["claude"]["fix"])
    assert " init --agent claude" in fix
    # The fix runs as printed in a shell whose PATH has no rtok.
    done = subprocess.run(
        ["/bin/sh", "-c", fix],
        env={**os.environ, **env},
        capture_output=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert _expand_checks(isolated_home, env)["claude"]["level"] == "PASS"
