"""`rtok init` says when a rules-only agent gets the full awareness text, and when the
shell would not find this rtok by name."""

from __future__ import annotations

import os
from pathlib import Path

from rtok_testing import rtok_entry_point, run_rtok


def _project(home: Path) -> Path:
    project = home / "work" / "proj"
    (project / ".git").mkdir(parents=True)
    return project


def test_rules_agent_gets_full_awareness_and_init_says_so(isolated_home: Path) -> None:
    project = _project(isolated_home)
    done = run_rtok(["init", "--agent", "roo", "--dry-run"], cwd=str(project))
    assert done.returncode == 0, done.stderr
    assert b"Roo Code: awareness is 'full' here" in done.stderr


def test_init_notes_an_rtok_the_shell_cannot_find(isolated_home: Path) -> None:
    project = _project(isolated_home)
    entry = rtok_entry_point()
    hidden = run_rtok(["init", "--agent", "claude", "--dry-run"], cwd=str(project),
                      env={"PATH": "/usr/bin:/bin", "RTOK_BIN": entry})
    assert b"is not the rtok your shell finds on PATH" in hidden.stderr
    found = run_rtok(["init", "--agent", "claude", "--dry-run"], cwd=str(project),
                     env={"PATH": os.path.dirname(entry) + ":/usr/bin:/bin", "RTOK_BIN": entry})
    assert b"is not the rtok your shell finds on PATH" not in found.stderr
