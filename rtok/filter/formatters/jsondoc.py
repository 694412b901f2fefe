"""A JSON document (jq's output) as an outline: one line per top-level key or item, a small
value shown whole, a large one summarised by its shape (an object's key names, an array's
length and the kind of its items, a long string's start and length).

The document is the tool's data, not its messages: an `"error"` inside a description is
no error of jq's, so only a line carrying a secret is protected. Output that is not one
JSON object or array (a stream of values, jq's own error) is not read here. Stdlib only
(hot path).
"""

from __future__ import annotations

from rtok._fast import fastjson
from rtok.filter.formatters import declare_complete
from rtok.filter.protect import carries_secret

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator

# An object's keys (or an array's items) shown at the top level: the first KEYS_HEAD and
# the last KEYS_TAIL when there are more than KEYS_HEAD + KEYS_TAIL + 1.
KEYS_HEAD = 40
KEYS_TAIL = 10
# A top-level array shows its first ITEMS items (they show what every item looks like),
# each whole when its compact JSON is at most ITEM characters.
ITEMS = 3
ITEM = 200
# A value whose compact JSON is at most INLINE characters is shown whole.
INLINE = 100
# A long string keeps its first STRING characters; an object's summary names NAMES keys.
STRING = 80
NAMES = 8


def json_outline(text: str) -> list[str] | None:
    value = fastjson.container(text)
    if isinstance(value, dict):
        rows = [f"{_dumps(key)}: {summary(item)}" for key, item in value.items()]
        return _cut(rows, "keys") or ["{}"]
    if isinstance(value, list):
        return _array(value)
    return None


def _array(items: list[object]) -> list[str]:
    if not items:
        return ["[]"]
    if all(len(_dumps(item)) <= INLINE for item in items):
        # short items (names, numbers, small records): each on its line, like jq prints them
        return _cut([_dumps(item) for item in items], "items")
    head = [summary(item, ITEM) for item in items[:ITEMS]]
    if len(items) > ITEMS:
        head.append(f"… {len(items) - ITEMS} more items (in all: {_shape(items)})")
    return head


def _cut(rows: list[str], what: str) -> list[str]:
    """The first KEYS_HEAD and last KEYS_TAIL rows, the rest counted in their place."""
    if len(rows) <= KEYS_HEAD + KEYS_TAIL + 1:
        return rows
    left_out = len(rows) - KEYS_HEAD - KEYS_TAIL
    return [*rows[:KEYS_HEAD], f"… {left_out} {what} omitted", *rows[-KEYS_TAIL:]]


def summary(value: object, inline: int = INLINE) -> str:
    """`value` whole when its compact JSON is at most `inline` characters, else what it is
    made of."""
    whole = _dumps(value)
    if len(whole) <= inline:
        return whole
    if isinstance(value, str):
        return f'{_dumps(value[:STRING])[:-1]}…" ({len(value)} chars)'
    if isinstance(value, dict):
        return "{" + _names(value) + "}"
    if isinstance(value, list):
        return f"[{_shape(value)}]"
    return whole


def _names(value: dict[str, object]) -> str:
    """`N keys: "a", "b", …` (NAMES of them named)."""
    names = ", ".join(_dumps(key) for key in list(value)[:NAMES])
    more = ", …" if len(value) > NAMES else ""
    return f"{len(value)} {'key' if len(value) == 1 else 'keys'}: {names}{more}"


def _shape(items: list[object]) -> str:
    """`9 objects with keys "a", "b"`, `120 strings`, `5 items`: an array's length and
    kind of item (an object's keys are those its items share)."""
    kinds = {_kind(item) for item in items}
    if len(kinds) != 1:
        return f"{len(items)} items"
    kind = kinds.pop()
    noun = kind if len(items) == 1 else kind + "s"
    if kind != "object":
        return f"{len(items)} {noun}"
    shared = _shared_keys(item for item in items if isinstance(item, dict))
    if not shared:
        return f"{len(items)} {noun}"
    names = ", ".join(_dumps(key) for key in shared[:NAMES])
    return f"{len(items)} {noun} with keys {names}{', …' if len(shared) > NAMES else ''}"


def _shared_keys(objects: Iterator[dict[str, object]]) -> list[str]:
    first = next(objects, None)
    if first is None:
        return []
    shared = list(first)
    for other in objects:
        shared = [key for key in shared if key in other]
    return shared


def _kind(value: object) -> str:
    if isinstance(value, dict):
        return "object"
    if isinstance(value, list):
        return "array"
    if isinstance(value, str):
        return "string"
    if isinstance(value, bool) or value is None:
        return "constant"
    return "number"


def _dumps(value: object) -> str:
    return fastjson.dumps(value, ensure_ascii=False)


declare_complete(json_outline, carries_secret)
