"""The repository's static gates (the same checks a developer runs by hand): ruff, ruff
format, mypy (strict on rtok/ and scripts/, the documented smaller strictness on tests/),
complexity by both measures, no import cycles. tests/test_static_planted.py shows each
check catches a planted fault."""

from __future__ import annotations

import os

from rtok_testing import REPO_ROOT, static

TREES = ("rtok", "tests", "scripts")


def test_ruff_is_clean() -> None:
    result = static.run_module("ruff", "check", *TREES)
    assert result.returncode == 0, result.stdout + result.stderr


def test_ruff_format_is_clean() -> None:
    """Every file is in `ruff format`'s layout (generated modules excepted in pyproject.toml)."""
    assert static.format_problems(TREES) == []


def test_mypy_strict_is_clean() -> None:
    """rtok/ and scripts/ under --strict (pyproject.toml's `files`)."""
    assert static.mypy_problems() == []


def test_mypy_on_tests_is_clean() -> None:
    """tests/ under the smaller strictness pyproject.toml documents for it."""
    problems = [p for args in static.TESTS_MYPY_RUNS for p in static.mypy_problems(*args)]
    assert problems == []


def test_no_function_over_complexity_15() -> None:
    """ruff's C901 at 15 over the whole tree, `# noqa` and per-file exemptions ignored."""
    assert static.ruff_complexity_problems(TREES) == []


def test_no_function_over_15_with_boolean_operators_counted() -> None:
    """radon's measure (each `and`/`or` adds one) at 15 over rtok/ (generated modules
    excepted), scripts/ and tests/: split, never silenced."""
    problems = static.radon_problems(os.path.join(REPO_ROOT, tree) for tree in TREES)
    assert problems == [], "\n".join(["over 15 by radon:", *problems])


def test_the_import_graph_holds_every_module_of_rtok() -> None:
    """The cycle check below sees all of rtok/, namespace folders included."""
    assert static.unseen_modules("rtok") == []


def test_no_import_cycle_in_rtok() -> None:
    """No two modules of rtok/ import each other, directly or round a longer circle, even
    through an import deferred into a function: the shared piece moves down a floor."""
    cycles = static.import_cycles("rtok")
    assert cycles == [], "\n".join([f"{len(cycles)} import cycles:", *cycles])
