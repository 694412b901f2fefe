"""Compact a JSON body: empty fields dropped, long arrays and strings cut, one line per key.

Stdlib only (hot path). Returns None for text that is not a JSON object or array.
"""

from __future__ import annotations

import json

from rtok._fast import fastjson


def compact_json(text: str, max_items: int, max_string: int) -> list[str] | None:
    value = fastjson.container(text)
    if value is None:
        return None
    if isinstance(value, dict):
        lines = []
        for key, item in value.items():
            if _is_empty(item):
                continue
            rendered = json.dumps(_shrink(item, max_items, max_string), ensure_ascii=False)
            lines.append(f"{json.dumps(key, ensure_ascii=False)}: {rendered}")
        return lines or ["{}"]
    shown = [_shrink(item, max_items, max_string) for item in value[:max_items]]
    lines = [json.dumps(item, ensure_ascii=False) for item in shown]
    if len(value) > max_items:
        lines.append(f"… +{len(value) - max_items} more")
    return lines or ["[]"]


def _is_empty(value: object) -> bool:
    return value is None or value == "" or value == [] or value == {}


def _shrink(value: object, max_items: int, max_string: int) -> object:
    if isinstance(value, dict):
        return {k: _shrink(v, max_items, max_string) for k, v in value.items() if not _is_empty(v)}
    if isinstance(value, list):
        items: list[object] = [_shrink(v, max_items, max_string) for v in value[:max_items]]
        if len(value) > max_items:
            items.append(f"… +{len(value) - max_items} more")
        return items
    if isinstance(value, str) and len(value) > max_string:
        return f"{value[:max_string]}… ({len(value)} chars)"
    return value
