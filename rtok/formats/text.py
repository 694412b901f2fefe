"""Byte <-> text helpers shared by the editors: BOM, newline style, line numbers."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from rtok.formats.errors import FormatError

# A test on one parsed value (an array element, a list item): true for the ones to remove.
ItemTest = Callable[[object], bool]

BOM = "\ufeff"
_INDENT = re.compile(r"[ \t]*")


@dataclass(frozen=True, slots=True)
class Decoded:
    """A document as text, with what must be given back unchanged around it."""

    bom: str
    text: str
    newline: str


def decode(data: bytes, label: str) -> Decoded:
    """UTF-8 text without its BOM; the newline style is the first line break's."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise FormatError(label, line, "the file is not valid UTF-8") from None
    bom = ""
    if text.startswith(BOM):
        bom, text = BOM, text[1:]
    return Decoded(bom, text, newline_of(text))


def encode(decoded: Decoded, text: str) -> bytes:
    return (decoded.bom + text).encode("utf-8")


def newline_of(text: str, default: str = "\n") -> str:
    """``\\r\\n`` when the first line break is CRLF, else ``\\n`` (``default`` with none)."""
    index = text.find("\n")
    if index < 0:
        return default
    return "\r\n" if index > 0 and text[index - 1] == "\r" else "\n"


def line_at(text: str, offset: int) -> int:
    """1-based line number of ``offset``."""
    return text.count("\n", 0, max(0, offset)) + 1


def line_start(text: str, offset: int) -> int:
    return text.rfind("\n", 0, offset) + 1


def line_indent(text: str, offset: int) -> str:
    """Leading spaces and tabs of the line holding ``offset``."""
    found = _INDENT.match(text, line_start(text, offset))
    return found.group() if found else ""


def append_block(text: str, block: str, newline: str) -> str:
    """``block`` (ending in a line break) added at the end of ``text``.

    A non-empty ``text`` always gets exactly one line break before the block (a blank line
    when ``text`` already ends in one), so remove_lines can take exactly that break away again.
    """
    if not text:
        return block
    return text + newline + block


def remove_lines(text: str, start: int, end: int) -> str:
    """``text`` without the whole lines ``[start, end)``, inverse of append_block.

    At the end of the text the line break before the lines goes too. In the middle, when
    the lines sat between two blank lines, one of those blank lines goes with them.
    """
    if end >= len(text):
        cut = start
        if text[:start].endswith("\r\n"):
            cut -= 2
        elif text[:start].endswith("\n"):
            cut -= 1
        return text[:cut]
    before, after = text[:start], text[end:]
    if start == 0 or before.endswith(("\n\n", "\n\r\n")):
        if after.startswith("\r\n"):
            after = after[2:]
        elif after.startswith("\n"):
            after = after[1:]
    return before + after


def line_end(text: str, offset: int) -> int:
    """Index just past the line break ending the line at ``offset`` (or the text's end)."""
    index = text.find("\n", offset)
    return len(text) if index < 0 else index + 1


def split_lines(text: str) -> list[str]:
    """Lines with their line breaks, split at ``\\n`` only.

    ``str.splitlines`` also splits at form feeds, ``\\x85`` and U+2028, which are ordinary
    characters inside a line for every format edited here.
    """
    if not text:
        return []
    parts = text.split("\n")
    lines = [part + "\n" for part in parts[:-1]]
    if parts[-1]:
        lines.append(parts[-1])
    return lines


def value_at(document: object, path: Sequence[object], default: object) -> object:
    """The value at ``path`` (keys) in a parsed document of nested mappings, or
    ``default`` when a step is missing or reaches something that is not a mapping."""
    value = document
    for key in path:
        if not isinstance(value, dict) or key not in value:
            return default
        value = value[key]
    return value


def unquoted(text: str, *, doubled_single_quote: bool) -> Iterator[tuple[int, str]]:
    """Each character of a one-line value that is outside quotes, with its index (the
    quotes themselves are not given). A `"` string ends at the next `"` not escaped by a
    backslash; a `'` string at the next `'`, and with `doubled_single_quote` (YAML) `''`
    inside one is a quote, not its end."""
    quote = ""
    index = 0
    while index < len(text):
        char = text[index]
        if quote:
            if quote == '"' and char == "\\":
                index += 2
                continue
            if char == quote:
                if doubled_single_quote and quote == "'" and text.startswith("''", index):
                    index += 2
                    continue
                quote = ""
        elif char in "'\"":
            quote = char
        else:
            yield index, char
        index += 1
