"""cargo build / test: progress lines go, diagnostics, failures and results stay."""

from __future__ import annotations

import re

_PROGRESS = re.compile(r"^\s+(Compiling|Checking|Downloaded|Downloading|Fresh|Blocking|Locking|"
                       r"Updating|Adding|Documenting|Packaging|Verifying|Archiving) ")
_TEST_OK = re.compile(r"^test .+ \.\.\. (ok|ignored)$")
_RUNNING = re.compile(r"^\s+Running |^running \d+ tests?$|^\s+Doc-tests ")


def cargo_build(text: str) -> list[str] | None:
    lines = text.splitlines()
    markers = ("Compiling ", "Finished ", "Checking ", "error", "warning")
    if not any(line.lstrip().startswith(markers) for line in lines):
        return None
    return [line for line in lines if not _PROGRESS.match(line)]


def cargo_test(text: str) -> list[str] | None:
    lines = text.splitlines()
    if not any(line.startswith("test result:") for line in lines):
        return None
    out: list[str] = []
    results: list[str] = []
    for line in lines:
        if _PROGRESS.match(line) or _TEST_OK.match(line) or _RUNNING.match(line):
            continue
        if not line.strip():
            continue
        if line.startswith("test result: ok. 0 passed"):
            continue
        if line.startswith("test result:"):
            results.append(line)
            continue
        out.append(line)
    return out + results
