"""README.md's savings table is the one scripts/bench_savings.py builds from the signal corpus."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from types import ModuleType

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


def _bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "bench_savings", os.path.join(REPO_ROOT, "scripts", "bench_savings.py")
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_line_carrying_an_error_and_a_context_entry_counts_once_in_the_floors() -> None:
    bench = _bench()
    # curl's status line is both its E and its K entry: one line, in every floor
    status = "< HTTP/1.0 404 File not found\n"
    single = bench.tokens(len(status.encode()))
    assert bench.floors("curl-verbose-404") == (single, single, single)


def test_the_combined_floor_lies_between_its_parts_on_every_case() -> None:
    bench = _bench()
    for name in bench.load_cases():
        e_floor, k_floor, both = bench.floors(name)
        # each floor is rounded up on its own, so the sum may be one token short
        assert max(e_floor, k_floor) <= both <= e_floor + k_floor + 1, name


def test_a_bound_is_the_larger_of_rtk_on_every_case_and_the_floor_allowance() -> None:
    bench = _bench()
    totals = bench.Totals()
    totals.cases = totals.rtk_cases = 2
    totals.rtk = 100
    assert totals.bound(10) == 100
    assert totals.bound(100) == 130 + 60
    totals.rtk_cases = 1  # RTK could not be given every case: only the allowance holds
    assert totals.bound(10) == 13 + 60
