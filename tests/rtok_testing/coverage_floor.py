"""The coverage floor: a run of the whole suite measures which lines of rtok/ the tests
execute in the test process, and fails when the share falls below the floor.

Measured in process only (coverage's C tracer; the `rtok` subprocesses the tests start are
not traced) and outside property tests (hypothesis runs hundreds of examples over the same
lines; traced, they take half as long again), so the run costs little more than without.
The floor lives in pyproject.toml (`coverage_floor` under [tool.pytest.ini_options]); each
full run prints the figure, and the floor is raised to it (rounded down) as tests are
added. docs/DEVELOPING.md says when it runs.
"""

from __future__ import annotations

import io

import pytest

FLOOR_INI = "coverage_floor"
SOURCE_INI = "coverage_source"


def add_options(parser: pytest.Parser) -> None:
    parser.addini(FLOOR_INI, "least share (%) of coverage_source's lines the suite runs")
    parser.addini(SOURCE_INI, "the package the coverage floor measures", default="rtok")
    parser.addoption(
        "--coverage-floor",
        type=float,
        default=None,
        help="check coverage against this floor (%%) whatever tests are selected",
    )


def whole_suite(config: pytest.Config) -> bool:
    """No selection narrows the run: no paths (the configured testpaths run), no -k, -m,
    --deselect or --last-failed. Only then is the figure comparable with the floor."""
    option = config.option
    return config.args_source == pytest.Config.ArgsSource.TESTPATHS and not (
        getattr(option, "keyword", "")
        or getattr(option, "markexpr", "")
        or getattr(option, "deselect", None)
        or getattr(option, "lf", False)
    )


def floor_of(config: pytest.Config) -> float | None:
    """The floor this run checks against, or None: no check."""
    forced = config.getoption("--coverage-floor")
    if forced is not None:
        return float(forced)
    configured = config.getini(FLOOR_INI)
    if not configured or not whole_suite(config):
        return None
    return float(configured)


def verdict(percent: float, floor: float) -> str | None:
    """The failure message, or None when PERCENT is at or above FLOOR."""
    if percent + 1e-9 >= floor:
        return None
    return (
        f"coverage {percent:.2f}% is below the floor of {floor:.2f}%: "
        "add tests for the code that lost them (coverage_floor in pyproject.toml)"
    )


class CoverageFloor:
    """Starts coverage when registered (before the test modules import the package) and
    checks the figure when the session ends."""

    def __init__(self, config: pytest.Config, floor: float) -> None:
        import coverage

        self.floor = floor
        self.percent: float | None = None
        source = str(config.getini(SOURCE_INI))
        self.cov = coverage.Coverage(
            data_file=None, source=[source], config_file=False, branch=False
        )
        self.cov.start()

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_call(self, item: pytest.Item) -> object:
        """A property test (hypothesis: hundreds of examples over the same lines) runs
        untraced: traced, it takes half as long again, for lines the example tests run."""
        if not getattr(getattr(item, "obj", None), "is_hypothesis_test", False):
            return (yield)
        self.cov.stop()
        try:
            return (yield)
        finally:
            self.cov.start()

    @pytest.hookimpl(trylast=True)
    def pytest_sessionfinish(self, session: pytest.Session, exitstatus: int) -> None:
        self.cov.stop()
        if exitstatus not in (pytest.ExitCode.OK, pytest.ExitCode.NO_TESTS_COLLECTED):
            return  # a failing or interrupted run reports that, not a partial figure
        self.percent = self.cov.report(file=io.StringIO())
        if verdict(self.percent, self.floor) is not None:
            session.exitstatus = pytest.ExitCode.TESTS_FAILED

    def pytest_terminal_summary(self, terminalreporter: pytest.TerminalReporter) -> None:
        if self.percent is None:
            return
        failure = verdict(self.percent, self.floor)
        if failure:
            terminalreporter.write_line(failure, red=True)
        else:
            terminalreporter.write_line(
                f"coverage {self.percent:.2f}% (floor {self.floor:.2f}%; in-process tests)"
            )


def register(config: pytest.Config) -> None:
    """Called from tests/conftest.py's pytest_configure."""
    floor = floor_of(config)
    if floor is None:
        return
    config.pluginmanager.register(CoverageFloor(config, floor), "rtok-coverage-floor")
