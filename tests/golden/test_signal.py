"""The signal-graded corpus: rtok keeps every E entry and at least 95% of the K entries."""

from __future__ import annotations

import gzip
import json
import os
from functools import cache

import pytest

from rtok_testing import run_rtok

SIGNAL = os.path.join(os.path.dirname(os.path.abspath(__file__)), "signal")

Entry = str | list[str]


def case_names() -> list[str]:
    return sorted(
        name
        for name in os.listdir(SIGNAL)
        if os.path.isfile(os.path.join(SIGNAL, name, "case.json"))
    )


@cache
def case(name: str) -> dict[str, object]:
    with open(os.path.join(SIGNAL, name, "case.json"), encoding="utf-8") as handle:
        loaded: dict[str, object] = json.load(handle)
    return loaded


@cache
def raw(name: str) -> bytes:
    folder = os.path.join(SIGNAL, name)
    if os.path.exists(os.path.join(folder, "raw.gz")):
        with gzip.open(os.path.join(folder, "raw.gz"), "rb") as handle:
            return handle.read()
    with open(os.path.join(folder, "raw"), "rb") as handle:
        return handle.read()


@cache
def shown(name: str) -> str:
    meta = case(name)
    result = run_rtok(
        ["filter", "--stdin", "--cmd", str(meta["command"]), "--exit-code", str(meta["exit_code"])],
        input=raw(name),
    )
    assert result.returncode == meta["exit_code"], result.stderr
    return result.stdout.decode("utf-8", "replace")


def is_kept(entry: Entry, text: str) -> bool:
    """A string must appear in text; a list's strings must appear in order."""
    parts = [entry] if isinstance(entry, str) else entry
    at = 0
    for part in parts:
        found = text.find(part, at)
        if found < 0:
            return False
        at = found + len(part)
    return True


def entries(name: str, key: str) -> list[Entry]:
    value = case(name).get(key, [])
    assert isinstance(value, list)
    return value


def test_entries_are_real_lines_of_the_raw_output() -> None:
    for name in case_names():
        text = raw(name).decode("utf-8", "replace")
        for key in ("E", "K"):
            bad = [entry for entry in entries(name, key) if not is_kept(entry, text)]
            assert not bad, f"{name} {key} entries not in raw: {bad[:3]}"


def graded_cases() -> list[object]:
    """Every case; one whose case.json names a `pending` change rtok still lacks is expected
    to fail (strictly: once the change is in, the marker must go)."""
    return [
        pytest.param(name, marks=pytest.mark.xfail(strict=True, reason=str(case(name)["pending"])))
        if "pending" in case(name)
        else name
        for name in case_names()
    ]


@pytest.mark.parametrize("name", graded_cases())
def test_every_error_line_is_kept(name: str) -> None:
    text = shown(name)
    lost = [entry for entry in entries(name, "E") if not is_kept(entry, text)]
    assert not lost, f"{len(lost)} of {len(entries(name, 'E'))} E entries lost: {lost[:5]}"


@pytest.mark.parametrize("name", graded_cases())
def test_context_lines_are_mostly_kept(name: str) -> None:
    text = shown(name)
    wanted = entries(name, "K")
    lost = [entry for entry in wanted if not is_kept(entry, text)]
    assert len(lost) <= 0.05 * len(wanted), f"{len(lost)} of {len(wanted)} K lost: {lost[:5]}"
