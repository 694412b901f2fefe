"""ruff and mypy --strict stay clean (the same checks a developer runs by hand)."""

from __future__ import annotations

import subprocess
import sys

from rtok_testing import REPO_ROOT


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", *args], cwd=REPO_ROOT, capture_output=True, text=True,
        timeout=600, check=False,
    )


def test_ruff_is_clean() -> None:
    result = _run("ruff", "check", "rtok", "tests", "scripts")
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy_strict_is_clean() -> None:
    result = _run("mypy")
    assert result.returncode == 0, result.stdout + result.stderr
