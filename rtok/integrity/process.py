"""How verify and doctor run a program they check: to its end, within a time limit, with
its text output captured and nothing on stdin but what they hand it."""

from __future__ import annotations

import subprocess
from collections.abc import Mapping, Sequence


def run_captured(
    argv: Sequence[str],
    timeout: float,
    *,
    cwd: str | None = None,
    env: Mapping[str, str] | None = None,
    stdin_text: str | None = None,
) -> subprocess.CompletedProcess[str]:
    """`argv` run to its end in `cwd` with `env` (None: rtok's own), `stdin_text` on its
    stdin (None: nothing, /dev/null); raises what `subprocess.run` raises (OSError,
    TimeoutExpired), which each caller words in its own way."""
    return subprocess.run(
        list(argv),
        input=stdin_text,
        stdin=subprocess.DEVNULL if stdin_text is None else None,
        capture_output=True,
        text=True,
        cwd=cwd,
        env=None if env is None else dict(env),
        timeout=timeout,
        check=False,
    )
