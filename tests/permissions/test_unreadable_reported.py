"""A permission file rtok cannot read is a failure in verify and doctor, once per file."""

from __future__ import annotations

import os
from pathlib import Path

from rtok.integrity.verify import check_permission_files, permission_file_problems
from rtok.permissions.verdict import detailed_verdict, rule_verdict


def test_unreadable_claude_settings_are_a_failure_once(isolated_home: Path, tmp_path: Path) -> None:
    settings = isolated_home / ".claude" / "settings.json"
    settings.parent.mkdir(parents=True)
    settings.write_text('{"permissions": {"deny": ["Bash(git push:*)"],}}')
    findings = check_permission_files(["claude", "claude", "codex"], str(tmp_path))
    assert [(f.level, f.path, f.check) for f in findings] == [
        ("FAIL", str(settings), "permission_file")
    ]
    assert rule_verdict("git status", "claude", str(tmp_path)) == "unreadable"
    assert detailed_verdict("git status", "claude", str(tmp_path), os.environ) == "defer"


def test_readable_files_report_nothing(isolated_home: Path, tmp_path: Path) -> None:
    settings = isolated_home / ".gemini" / "settings.json"
    settings.parent.mkdir(parents=True)
    settings.write_text('{ // comments are Gemini\'s own dialect\n "tools": {}}')
    assert permission_file_problems(["gemini", "claude"], str(tmp_path), os.environ) == []
