"""Which documents a host's own parser accepts.

rtok's editors read more than some hosts do (JSONC comments and trailing commas in a
strict-JSON file), and a file the host cannot parse makes the host ignore it entirely: an
edit there installs a hook that never runs. `host_problem(data, dialect)` answers whether
the host would read `data`, with the line of the first thing it would stumble on.

Dialects:
- `json`: strict JSON (RFC 8259): no comments, no trailing commas, no NaN/Infinity.
- `json-comments`: JSON plus `//` and `/* */` comments (comments stripped, then strict).
- `jsonc`: comments and trailing commas (what rtok's own JSONC reader accepts).
- `toml`, `yaml`: the whole format; rtok's editors already parse these like the host.
"""

from __future__ import annotations

import json

from rtok.formats import jsonc
from rtok.formats.errors import FormatError
from rtok.formats.text import decode

DIALECTS: tuple[str, ...] = ("json", "json-comments", "jsonc", "toml", "yaml")
JSON_DIALECTS = frozenset({"json", "json-comments", "jsonc"})

DIALECT_WORDS = {
    "json": "strict JSON (no comments, no trailing commas)",
    "json-comments": "JSON with comments (no trailing commas)",
    "jsonc": "JSON with comments and trailing commas",
    "toml": "TOML",
    "yaml": "YAML",
}


def _past_string(text: str, i: int, line: int) -> tuple[int, int]:
    """From just inside a string's opening quote: the index past its closing quote and the
    line number there (a raw newline inside counts as a line too)."""
    n = len(text)
    while i < n and text[i] != '"':
        if text[i] == "\\":
            i += 1
        elif text[i] == "\n":
            line += 1
        i += 1
    return i + 1, line


def _extensions(text: str) -> tuple[list[tuple[int, str, int, int]], int]:
    """Comments and trailing commas in a JSONC text: (line, what, start, end) each, and
    the number of lines. A string-aware scan; it does not validate the rest."""
    found: list[tuple[int, str, int, int]] = []
    line = 1
    i, n = 0, len(text)
    last_comma: tuple[int, int] | None = None  # (offset, line) of a comma awaiting a value
    while i < n:
        ch = text[i]
        if ch == "\n":
            line += 1
            i += 1
        elif ch == '"':
            last_comma = None
            i, line = _past_string(text, i + 1, line)
        elif text.startswith("//", i):
            end = text.find("\n", i)
            end = n if end < 0 else end
            found.append((line, "a // comment", i, end))
            i = end
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            end = n if end < 0 else end + 2
            found.append((line, "a /* */ comment", i, end))
            line += text.count("\n", i, end)
            i = end
        elif ch == ",":
            last_comma = (i, line)
            i += 1
        elif ch in "]}":
            if last_comma is not None:
                found.append(
                    (
                        last_comma[1],
                        f"a trailing comma before '{ch}'",
                        last_comma[0],
                        last_comma[0] + 1,
                    )
                )
            last_comma = None
            i += 1
        elif ch in " \t\r":
            i += 1
        else:
            last_comma = None
            i += 1
    return found, line


def _strict_error(text: str) -> tuple[int, str] | None:
    def reject(word: str) -> object:
        raise ValueError(f"{word} is not JSON")

    try:
        json.loads(text, parse_constant=reject)
    except json.JSONDecodeError as exc:
        return exc.lineno, exc.msg
    except ValueError as exc:
        return 0, str(exc)
    return None


def host_problem(data: bytes, dialect: str, label: str = "<document>") -> tuple[int, str] | None:
    """(line, reason) when a host reading `dialect` cannot parse `data`, else None.

    An empty or whitespace-only document is no problem here: rtok starts such a file
    afresh, and hosts treat an empty settings file as no settings.
    """
    if dialect not in JSON_DIALECTS:
        return None
    try:
        text = decode(data, label).text
    except FormatError as exc:
        return exc.line, exc.reason
    if not text.strip():
        return None
    try:
        jsonc.parse(data, label=label)
    except FormatError as exc:
        return exc.line, exc.reason
    if dialect == "jsonc":
        return None
    extensions, _lines = _extensions(text)
    for line, what, _start, _end in extensions:
        if dialect == "json" or "comma" in what:
            return line, f"{what}"
    if dialect == "json-comments":
        # Blank the comments out (keeping line breaks), then the rest must be strict.
        pieces: list[str] = []
        at = 0
        for _line, _what, start, end in extensions:
            pieces.append(text[at:start])
            pieces.append("".join(c if c == "\n" else " " for c in text[start:end]))
            at = end
        pieces.append(text[at:])
        text = "".join(pieces)
    return _strict_error(text)


def describe(dialect: str) -> str:
    return DIALECT_WORDS.get(dialect, dialect)


def host_reading(host: str, dialect: str, line: int, reason: str) -> str:
    """The one wording for a file its host cannot parse (init, uninstall, verify and doctor
    all say it so): "Claude Code cannot parse it (line 3: …; it reads strict JSON …), so it
    ignores the whole file"."""
    at = f"line {line}: " if line else ""
    return (
        f"{host} cannot parse it ({at}{reason}; it reads {describe(dialect)}), so it "
        "ignores the whole file"
    )
