"""README.md's savings table is the one scripts/bench_savings.py builds from the signal corpus."""

from __future__ import annotations

import subprocess
import sys

from rtok_testing import REPO_ROOT


def test_readme_savings_table_is_current() -> None:
    result = subprocess.run(
        [sys.executable, "scripts/bench_savings.py", "--check"],
        cwd=REPO_ROOT,
        capture_output=True,
        timeout=600,
        check=False,
    )
    assert result.returncode == 0, "run: python scripts/bench_savings.py"
