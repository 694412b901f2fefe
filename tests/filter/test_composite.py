"""Outputs of several tools (`xo && ava && tsd`, make recipes, tox): a failed run always
shows the part that failed, and a pass summary never stands alone on it."""

from __future__ import annotations

import os
import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rtok.filter import engine
from rtok.filter.composite import sections
from rtok.filter.dispatch import formatter_for
from rtok.filter.family import family_of_command
from rtok.filter.protect import is_protected
from rtok.filter.rule import default_rule

SIGNAL = os.path.join(
    os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "golden", "signal"
)


def raw_lines(name: str) -> list[str]:
    with open(os.path.join(SIGNAL, name, "raw"), encoding="utf-8") as handle:
        return handle.read().splitlines()


def shown(command: str, text: str, exit_code: int) -> list[str]:
    family, words = family_of_command(command)
    return engine.shorten(text, default_rule(family), formatter_for(family, words), exit_code, 80)


# Real outputs: ava passing and tsd failing (slugify's `xo && ava && tsd`), pytest -q passing
# on click and ruff's concise report on click.
TSD_RUN = raw_lines("npm-test-tsd-fail")
AVA_PASS = [
    line for line in TSD_RUN[: TSD_RUN.index("  index.test-d.ts:4:19")] if not line.startswith(">")
]
TSD_FAIL = TSD_RUN[TSD_RUN.index("  index.test-d.ts:4:19") :]
PYTEST_PASS = raw_lines("pytest-q-pass")
RUFF_FAIL = raw_lines("ruff-concise")[:40]
_PRETTY_ROW = re.compile(r"^\s+✖\s+(\d+:\d+)\s")
_RUFF_ROW = re.compile(r"^(\S+):(\d+:\d+): ")


def tsd_locations() -> list[tuple[str, str]]:
    return [
        ("index.test-d.ts", found.group(1)) for found in map(_PRETTY_ROW.match, TSD_FAIL) if found
    ]


def ruff_locations() -> list[tuple[str, str]]:
    return [(found.group(1), found.group(2)) for found in map(_RUFF_ROW.match, RUFF_FAIL) if found]


PASS_LINE = re.compile(r"\b(?:passed|passing|ok)\b")


def assert_failure_shown(lines: list[str], locations: list[tuple[str, str]]) -> None:
    text = "\n".join(lines)
    lost = [
        (path, at)
        for path, at in locations
        if path not in text or not re.search(rf"(?<!\d){re.escape(at)}(?!\d)", text)
    ]
    assert not lost, f"{len(lost)} failing locations lost: {lost[:3]}\n{text}"
    if any(PASS_LINE.search(line) for line in lines):
        assert any(is_protected(line) for line in lines), text


def test_the_failing_tool_of_a_chain_is_shown_after_the_passing_one() -> None:
    lines = shown("npm test", "\n".join(TSD_RUN) + "\n", 1)
    assert lines[0] == "ava: 20 tests passed"
    assert lines[1] == "tsd: 9 errors in 1 file"
    assert_failure_shown(lines, tsd_locations())


def test_a_passing_chain_is_its_summary() -> None:
    text = "\n".join(["", "> pkg@1.0.0 test", "> xo && ava", "", *AVA_PASS]) + "\n"
    assert shown("npm test", text, 0) == ["ava: 20 tests passed"]


def test_a_failed_run_whose_output_says_pass_says_that_it_failed() -> None:
    text = "\n".join(AVA_PASS) + "\n"
    lines = shown("npm test", text, 1)
    assert lines[0] == "ava: 20 tests passed"
    assert any(line.startswith("exit status 1") for line in lines)


def test_sections_follow_the_headers() -> None:
    lines = [
        "",
        "> pkg@1.0.0 test",
        "> xo && ava",
        "x",
        "py: commands[0]> pytest -q",
        "y",
        "nox > ruff check .",
        "z",
    ]
    parts = sections(lines, echoing=False, lookup=formatter_for)
    assert [part.command for part in parts] == ["", "xo && ava", "pytest -q", "ruff check ."]
    assert [part.lines for part in parts] == [[0, 1], [2, 3], [4, 5], [6, 7]]


def test_make_reads_each_echoed_recipe_line_with_its_tool() -> None:
    text = (
        "\n".join(
            [
                "python -m pytest -q tests",
                *PYTEST_PASS,
                "ruff check src",
                *RUFF_FAIL,
                "make: *** [Makefile:4: check] Error 1",
            ]
        )
        + "\n"
    )
    lines = shown("make check", text, 2)
    assert lines[0].startswith("pytest: 589 passed")
    assert "make: *** [Makefile:4: check] Error 1" in lines
    assert_failure_shown(lines, ruff_locations())


def interleave(first: list[str], second: list[str], picks: list[bool]) -> list[str]:
    """Both lists' lines, each list's in its own order, merged as `picks` says."""
    out: list[str] = []
    i = j = 0
    for pick in picks:
        if pick and i < len(first):
            out.append(first[i])
            i += 1
        elif j < len(second):
            out.append(second[j])
            j += 1
    return out + first[i:] + second[j:]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.booleans(), max_size=80), st.sampled_from(["npm test", "yarn test"]))
def test_interleaved_pass_and_failure_keep_the_failure(picks: list[bool], command: str) -> None:
    text = "\n".join(interleave(AVA_PASS, TSD_FAIL, picks)) + "\n"
    assert_failure_shown(shown(command, text, 1), tsd_locations())


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.booleans(), max_size=60), st.sampled_from(["make check", "just check"]))
def test_interleaved_pytest_pass_and_ruff_failure(picks: list[bool], command: str) -> None:
    text = "\n".join(interleave(PYTEST_PASS, RUFF_FAIL, picks)) + "\n"
    assert_failure_shown(shown(command, text, 2), ruff_locations())


def test_a_report_both_xo_and_tsd_could_print_is_xos_when_nothing_ran_between() -> None:
    lines = shown("npm test", "\n".join(raw_lines("npm-test-xo-fail")) + "\n", 1)
    assert lines[0] == "xo: 1 error in 1 file"
    assert "index.js:5:1: error no-var: Unexpected var, use let or const instead." in lines


def test_a_chain_typed_as_one_command_is_read_by_its_programs_readers() -> None:
    text = "\n".join([*AVA_PASS, *TSD_FAIL]) + "\n"
    for command in ("xo && ava && tsd", "sh -c 'xo && ava && tsd'"):
        lines = shown(command, text, 1)
        assert lines[:2] == ["ava: 20 tests passed", "tsd: 9 errors in 1 file"], command
        assert_failure_shown(lines, tsd_locations())
    family, words = family_of_command("git status; ls -la")
    assert (family, formatter_for(family, words)) == ("script", None)
