"""The coverage floor (rtok_testing/coverage_floor.py) fails a whole-suite run that covers
less than the floor, passes one at or above it, and stays out of a narrowed run: shown on
a small project run by a real pytest in a subprocess, with the suite's own conftest hook."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

from rtok_testing import REPO_ROOT
from rtok_testing.coverage_floor import verdict

# Four statements; the test runs three of them (both `def`s and `half`'s body): 75%.
PACKAGE = """
def half(n: int) -> int:
    return n // 2


def never(n: int) -> int:
    return n * 3
"""
TEST = """
from floorpkg import half


def test_half() -> None:
    assert half(4) == 2
"""
CONFTEST = """
import pytest

from rtok_testing import coverage_floor


def pytest_addoption(parser: pytest.Parser) -> None:
    coverage_floor.add_options(parser)


def pytest_configure(config: pytest.Config) -> None:
    coverage_floor.register(config)
"""


def _project(root: Path, floor: str) -> None:
    (root / "floorpkg").mkdir()
    (root / "floorpkg" / "__init__.py").write_text(textwrap.dedent(PACKAGE))
    (root / "tests").mkdir()
    (root / "tests" / "test_half.py").write_text(textwrap.dedent(TEST))
    (root / "tests" / "conftest.py").write_text(textwrap.dedent(CONFTEST))
    (root / "pytest.ini").write_text(
        f"[pytest]\ntestpaths = tests\ncoverage_floor = {floor}\ncoverage_source = floorpkg\n"
    )


def _pytest(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    path = os.pathsep.join([str(root), os.path.join(REPO_ROOT, "tests")])
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *args],
        cwd=root,
        env={**os.environ, "PYTHONPATH": path},
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def test_a_whole_run_below_the_floor_fails(tmp_path: Path) -> None:
    _project(tmp_path, "80")
    result = _pytest(tmp_path)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "1 passed" in result.stdout
    assert "coverage 75.00% is below the floor of 80.00%" in result.stdout


def test_a_whole_run_at_the_floor_passes_and_prints_the_figure(tmp_path: Path) -> None:
    _project(tmp_path, "75")
    result = _pytest(tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "coverage 75.00% (floor 75.00%" in result.stdout


def test_a_narrowed_run_is_not_held_to_the_floor(tmp_path: Path) -> None:
    _project(tmp_path, "80")
    for narrowed in (["tests/test_half.py"], ["-k", "half"]):
        result = _pytest(tmp_path, *narrowed)
        assert result.returncode == 0, result.stdout + result.stderr
        assert "coverage" not in result.stdout
    # ...unless the floor is asked for on the command line.
    forced = _pytest(tmp_path, "tests/test_half.py", "--coverage-floor", "90")
    assert forced.returncode == 1, forced.stdout + forced.stderr
    assert "below the floor of 90.00%" in forced.stdout


def test_a_failing_run_reports_its_failures_not_a_figure(tmp_path: Path) -> None:
    _project(tmp_path, "10")
    (tmp_path / "tests" / "test_broken.py").write_text("def test_broken() -> None:\n    assert 0\n")
    result = _pytest(tmp_path)
    assert result.returncode == 1
    assert "1 failed, 1 passed" in result.stdout and "coverage" not in result.stdout


def test_verdict_at_and_around_the_floor() -> None:
    assert verdict(88.0, 88.0) is None
    assert verdict(88.01, 88.0) is None
    failure = verdict(87.99, 88.0)
    assert failure is not None and "87.99% is below the floor of 88.00%" in failure


def test_a_property_test_runs_untraced(tmp_path: Path) -> None:
    """A hypothesis test that calls `never` leaves the figure at 75%: it is not traced."""
    _project(tmp_path, "75")
    (tmp_path / "tests" / "test_property.py").write_text(
        "from hypothesis import given, strategies as st\n\nfrom floorpkg import never\n\n\n"
        "@given(st.integers())\ndef test_never(n: int) -> None:\n    assert never(n) == n * 3\n"
    )
    result = _pytest(tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "2 passed" in result.stdout and "coverage 75.00% (floor" in result.stdout
