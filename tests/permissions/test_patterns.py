"""Claude-format permission patterns (rtk-facts §7 semantics)."""

from __future__ import annotations

import pytest

from rtok.permissions.verdict import command_matches_pattern


@pytest.mark.parametrize(
    ("command", "pattern"),
    [
        ("anything at all", "*"),
        ("anything", "**"),
        ("git push", "git push"),
        ("git push origin main", "git push"),
        ("git push\torigin", "git push"),
        ("git push", "git push:*"),
        ("git push origin", "git push:*"),
        ("git push origin", "git push *"),
        ("sudo ls", "sudo:*"),
        ("git -C /p diff", "git -C * diff:*"),
        ("git -C /p diff --stat", "git -C * diff:*"),
        ("npm run test", "npm run *"),
        ("git push --force", "git * --force"),
        ("  git status  ", "git status"),
        ("ls", ":*"),
    ],
)
def test_matches(command: str, pattern: str) -> None:
    assert command_matches_pattern(command, pattern)


@pytest.mark.parametrize(
    ("command", "pattern"),
    [
        ("git pushall", "git push"),
        ("git push --forceful", "git push --force"),
        ("sudoedit /etc/hosts", "sudo:*"),
        ("git pull", "git push:*"),
        ("echo git push", "git push"),
        ("git -C /p log", "git -C * diff:*"),
        ("git push", "git * --force"),
        ("npm", "npm run *"),
        ("gitx status", "git *"),
    ],
)
def test_does_not_match(command: str, pattern: str) -> None:
    assert not command_matches_pattern(command, pattern)
