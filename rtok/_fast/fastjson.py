"""JSON without the `re` module: the C scanner and encoder of `_json`, wrapped.

Stdlib only (hot path). `import json` loads `re` (and through it `enum`, `functools`,
`collections`), which costs a hook process more than all of rtok's own work. The C
accelerators the json package itself uses need none of that; this module calls them
directly. `loads` accepts what `json.loads` accepts (raising ValueError otherwise); `dumps`
covers the compact forms the hot path writes and hands anything else to `json`.
"""

from __future__ import annotations

import _json

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

_WHITESPACE = " \t\n\r"
_CONSTANTS = {"-Infinity": float("-inf"), "Infinity": float("inf"), "NaN": float("nan")}


class _Context:
    """The attributes `_json.make_scanner` reads from a decoder."""

    __slots__ = (
        "memo",
        "object_hook",
        "object_pairs_hook",
        "parse_constant",
        "parse_float",
        "parse_int",
        "strict",
    )

    def __init__(self) -> None:
        self.strict = True
        self.object_hook = None
        self.object_pairs_hook = None
        self.parse_float = float
        self.parse_int = int
        self.parse_constant = _CONSTANTS.__getitem__
        self.memo: dict[str, str] = {}


_scan = _json.make_scanner(_Context())  # type: ignore[arg-type]


def loads(text: str | bytes) -> Any:
    """The value of the JSON document `text` (ValueError when it is not one)."""
    if isinstance(text, (bytes, bytearray)):
        text = bytes(text).decode("utf-8")
    value, end = raw_decode(text)
    if text[end:].strip(_WHITESPACE):
        raise ValueError(f"extra data after the JSON value at char {end}")
    return value


def container(text: str) -> dict[str, Any] | list[Any] | None:
    """The JSON object or array `text` is as a whole (whitespace around it aside); None
    when it is not one (another value, several, or no JSON at all)."""
    stripped = text.strip()
    if not stripped or stripped[0] not in "[{":
        return None
    try:
        value = loads(stripped)
    except ValueError:
        return None
    return value if isinstance(value, (dict, list)) else None


def raw_decode(text: str, start: int = 0) -> tuple[Any, int]:
    """(value, end) of the first JSON value in `text` at or after `start` (leading
    whitespace skipped), like `json.JSONDecoder.raw_decode`."""
    index = start
    size = len(text)
    while index < size and text[index] in _WHITESPACE:
        index += 1
    try:
        value, end = _scan(text, index)
    except StopIteration as stop:
        raise ValueError(f"expecting a JSON value at char {stop.value}") from None
    except SystemError:
        # `_json` reports most syntax errors as json.decoder.JSONDecodeError, which it
        # looks up in sys.modules only; without `json` loaded it raises this instead.
        raise ValueError(f"not valid JSON (after char {index})") from None
    return value, end


def _raise_type(value: object) -> None:
    raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")


_ENCODERS: dict[tuple[str, str, bool, bool], Any] = {}


def dumps(
    value: object,
    *,
    separators: tuple[str, str] | None = None,
    ensure_ascii: bool = True,
    sort_keys: bool = False,
    **other: Any,
) -> str:
    """`json.dumps(value, ...)` for the compact forms; other options go to `json`."""
    if other:
        import json

        return json.dumps(
            value, separators=separators, ensure_ascii=ensure_ascii, sort_keys=sort_keys, **other
        )
    item_sep, key_sep = separators if separators is not None else (", ", ": ")
    key = (item_sep, key_sep, ensure_ascii, sort_keys)
    encoder = _ENCODERS.get(key)
    if encoder is None:
        quote = _json.encode_basestring_ascii if ensure_ascii else _json.encode_basestring
        encoder = _json.make_encoder(
            {}, _raise_type, quote, None, key_sep, item_sep, sort_keys, False, True
        )
        _ENCODERS[key] = encoder
    if isinstance(value, str):
        quote = _json.encode_basestring_ascii if ensure_ascii else _json.encode_basestring
        return str(quote(value))
    return "".join(encoder(value, 0))
