"""`rtok trust` on a real terminal (a pseudo-terminal): it asks, and the answer counts."""

from __future__ import annotations

import os
import select
import subprocess
import sys
import time
from pathlib import Path

from rtok import paths, trust


def _run_on_pty(args: list[str], cwd: Path, answer: bytes, timeout: float = 60) -> str:
    leader, follower = os.openpty()
    proc = subprocess.Popen(
        [sys.executable, "-m", "rtok", *args],
        cwd=cwd,
        stdin=follower,
        stdout=follower,
        stderr=follower,
        close_fds=True,
    )
    os.close(follower)
    seen = b""
    answered = False
    deadline = time.monotonic() + timeout
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([leader], [], [], 0.2)
            if ready:
                try:
                    chunk = os.read(leader, 4096)
                except OSError:
                    break
                if not chunk:
                    break
                seen += chunk
                # Answer prompt_toolkit's cursor position requests as a terminal would.
                for _ in range(chunk.count(b"\x1b[6n")):
                    os.write(leader, b"\x1b[1;1R")
            if not answered and b"(y/N)" in seen:
                os.write(leader, answer)
                answered = True
            if proc.poll() is not None and not ready:
                break
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait(timeout=10)
        os.close(leader)
    assert answered, seen.decode(errors="replace")
    return seen.decode(errors="replace")


def _project(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    (root / ".rtok").mkdir(parents=True)
    (root / ".rtok" / "rules.toml").write_text("[mytool]\nmax_lines = 20\n")
    return root


def test_yes_on_the_prompt_trusts(tmp_path: Path) -> None:
    root = _project(tmp_path)
    out = _run_on_pty(["trust"], root, b"y")
    assert "max_lines = 20" in out and "Risk summary" in out
    assert trust.is_trusted(str(root / ".rtok" / "rules.toml"))


def test_no_on_the_prompt_trusts_nothing(tmp_path: Path) -> None:
    root = _project(tmp_path)
    _run_on_pty(["trust"], root, b"n")
    assert not trust.is_trusted(str(root / ".rtok" / "rules.toml"))
    assert not os.path.exists(paths.trust_store())
