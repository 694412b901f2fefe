"""go test: passing tests go, failures and per-package results stay."""

from __future__ import annotations

import re

_NOISE = re.compile(r"^=== (RUN|PAUSE|CONT|NAME)\b|^\s*--- PASS: |^PASS$")
_PACKAGE = re.compile(r"^(ok|FAIL|\?)\s+\S+")


def go_test(text: str) -> list[str] | None:
    lines = text.splitlines()
    if not any(_PACKAGE.match(line) for line in lines):
        return None
    return [line for line in lines if not _NOISE.match(line) and line.strip()]
