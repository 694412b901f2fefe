"""pytest: the progress lines go, the failures and the summary stay."""

from __future__ import annotations

import re

_SUMMARY = re.compile(r"^=+ .*\b(passed|failed|error|errors|skipped|no tests ran|deselected)\b"
                      r".* in [\d.]+s.* =+$")
_PROGRESS = re.compile(r"^\S+\.py (?:[.sxFEX]+\s*)+(?:\[\s*\d+%\])?$|^[.sxFEX]+\s*(\[\s*\d+%\])?$")
_VERBOSE_PASS = re.compile(r"^\S+::\S+ (PASSED|SKIPPED|XFAIL|XPASS)\b")
_HEADER = re.compile(r"^(platform |cachedir:|rootdir:|configfile:|plugins:|collecting |"
                     r"hypothesis profile|Using --randomly)")


def pytest_output(text: str) -> list[str] | None:
    lines = text.splitlines()
    if not any("test session starts" in line for line in lines[:5]) or not any(
        _SUMMARY.match(line) for line in lines[-5:]
    ):
        return None
    out: list[str] = []
    for line in lines:
        if "test session starts" in line or _HEADER.match(line):
            continue
        if _PROGRESS.match(line) or _VERBOSE_PASS.match(line):
            continue
        if not line.strip():
            continue
        out.append(line)
    return out
