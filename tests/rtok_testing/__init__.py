"""Helpers shared by the test suite."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Mapping, Sequence

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def rtok_entry_point() -> str:
    """The installed `rtok` console script of the interpreter running the tests."""
    candidate = os.path.join(os.path.dirname(sys.executable), "rtok")
    if not os.path.exists(candidate):
        raise RuntimeError(f"rtok console script not found next to {sys.executable}")
    return candidate


def run_rtok(
    args: Sequence[str],
    *,
    input: bytes | str | None = None,
    env: Mapping[str, str] | None = None,
    cwd: str | None = None,
    timeout: float = 60,
) -> subprocess.CompletedProcess[bytes]:
    """Run `python -m rtok ARGS` in a subprocess with the test's environment."""
    data = input.encode() if isinstance(input, str) else input
    full_env = dict(os.environ)
    if env:
        full_env.update(env)
    return subprocess.run(
        [sys.executable, "-m", "rtok", *args],
        input=data,
        capture_output=True,
        env=full_env,
        cwd=cwd,
        timeout=timeout,
        check=False,
    )
