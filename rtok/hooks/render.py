"""Rendering a reply template from an agent's descriptor into the JSON text it expects.

Hot path: stdlib only.
"""

from __future__ import annotations

import json

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

INPUT = "${input}"
COMMAND = "${command}"
ORIGINAL = "${original}"


def render(template: str, new_input: dict[str, Any], command: str, original: str) -> str:
    """The JSON template text with its placeholders filled, as compact single-line JSON."""
    filled = _fill(json.loads(template), new_input, command, original)
    return json.dumps(filled, separators=(",", ":"))


def _fill(value: object, new_input: dict[str, Any], command: str, original: str) -> object:
    if isinstance(value, str):
        if value == INPUT:
            return new_input
        if "${" in value:
            return _substitute(value, {COMMAND: command, ORIGINAL: original})
        return value
    if isinstance(value, dict):
        return {key: _fill(item, new_input, command, original) for key, item in value.items()}
    if isinstance(value, list):
        return [_fill(item, new_input, command, original) for item in value]
    return value


def _substitute(text: str, values: dict[str, str]) -> str:
    """One pass over `text`: a placeholder inside an inserted value stays as it is."""
    out = []
    i = 0
    while True:
        found = text.find("${", i)
        if found < 0:
            out.append(text[i:])
            return "".join(out)
        out.append(text[i:found])
        end = text.find("}", found)
        name = text[found : end + 1] if end >= 0 else ""
        if name in values:
            out.append(values[name])
            i = end + 1
        else:
            out.append("${")
            i = found + 2
