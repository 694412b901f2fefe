"""Golden outputs: real tool output (`<name>.in`) and what rtok shows for it (`<name>.out`).

Regenerate with `python scripts/gen_golden.py` (tools) or `--out-only` (after a rule change).
"""

from __future__ import annotations

import json
import os
import re
from functools import cache

import pytest

from rtok.filter.dispatch import formatter_for
from rtok.filter.engine import normalise
from rtok.filter.family import family_of_command
from rtok.filter.formatters.summary import is_summariser
from rtok.filter.protect import is_protected
from rtok_testing import run_rtok

GOLDEN = os.path.dirname(os.path.abspath(__file__))


@cache
def cases() -> dict[str, dict[str, object]]:
    with open(os.path.join(GOLDEN, "cases.json"), encoding="utf-8") as handle:
        loaded: dict[str, dict[str, object]] = json.load(handle)
    return loaded


def _read(name: str, suffix: str) -> bytes:
    with open(os.path.join(GOLDEN, name + suffix), "rb") as handle:
        return handle.read()


@cache
def _shown(name: str) -> bytes:
    return _run(name)


def _run(name: str) -> bytes:
    case = cases()[name]
    result = run_rtok(
        [
            "filter",
            "--stdin",
            "--cmd",
            str(case["filter_cmd"]),
            "--exit-code",
            str(case["exit_code"]),
        ],
        input=_read(name, ".in"),
    )
    assert result.returncode == case["exit_code"], result.stderr
    assert result.stderr == b""
    return result.stdout


def test_at_least_twenty_families() -> None:
    families = {family_of_command(str(case["filter_cmd"]))[0] for case in cases().values()}
    assert len(families) >= 20, sorted(families)


@pytest.mark.parametrize("name", sorted(cases()))
def test_output_matches_golden(name: str) -> None:
    assert _shown(name) == _read(name, ".out")


@pytest.mark.parametrize("name", sorted(cases()))
def test_no_error_or_warning_line_is_lost(name: str) -> None:
    shown = _shown(name).decode("utf-8", "replace")
    raw_lines = normalise(_read(name, ".in").decode("utf-8", "replace"))
    protected = [line for line in raw_lines if line.strip() and is_protected(line)]
    family, words = family_of_command(str(cases()[name]["filter_cmd"]))
    if is_summariser(formatter_for(family, words)):
        # A test runner's or a build's summary regroups its lines (the signal-graded corpus
        # checks their messages): here every location an error or warning carries is kept.
        located = protected + [line for line in raw_lines if _ARROW.match(line)]
        missing = [
            location
            for line in located
            for location in _LOCATION.findall(line)
            if location not in shown
        ]
    else:
        # a formatter's `protects` says which raw lines are messages (rtok/filter/formatters/
        # README.md): a grep hit, a listed name, a help text's description or a JSON string
        # that names an error is content, not one
        protects = getattr(formatter_for(family, words), "protects", is_protected)
        missing = [line for line in protected if protects(line) and line.strip() not in shown]
    assert not missing


_LOCATION = re.compile(r"[\w./-]+\.\w+(?::\d+)+|[\w./-]+\.\w+\(\d+,\d+\)")
_ARROW = re.compile(r"^\s*--> ")


@pytest.mark.parametrize("name", sorted(cases()))
def test_shown_is_never_longer_and_expands_to_the_input(name: str) -> None:
    raw = _read(name, ".in")
    shown = _run(name)  # not cached: the archive lives in this test's HOME
    assert len(shown) <= len(raw)
    last = shown.decode("utf-8", "replace").rstrip("\n").rsplit("\n", 1)[-1]
    if shown == raw:
        return
    assert last.startswith("[rtok expand "), last
    assert run_rtok(["expand", last.split()[2]]).stdout == raw
