"""JSONC parser that keeps the text span of every value, key and comma.

Accepts JSON plus ``//`` and ``/* */`` comments and trailing commas (what VS Code, Claude Code,
Gemini CLI and friends accept in their settings files). The spans let the editors in
``jsonc.py`` insert and delete text without re-serialising anything.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

from rtok.formats.errors import FormatError
from rtok.formats.text import line_at

_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?")
_LITERALS: dict[str, object] = {"true": True, "false": False, "null": None}
_WHITESPACE = " \t\r\n"
_TRIVIA_START = " \t\r\n/"
_BLANKS = re.compile(r"[ \t\r\n]*")
# A whole string token on one line: JSON allows no raw line break inside a string.
_STRING = re.compile(r'"(?:[^"\\\n]|\\[^\n])*"')
MAX_DEPTH = 200


@dataclass(slots=True)
class Node:
    """One JSON value: ``kind`` is ``object``, ``array`` or ``scalar``; ``end`` is exclusive."""

    kind: str
    start: int
    end: int
    value: object
    slots: list[Slot] = field(default_factory=list)

    @property
    def close(self) -> int:
        """Index of the closing bracket of an object or array."""
        return self.end - 1


@dataclass(slots=True)
class Slot:
    """A member of an object (``key`` set) or an element of an array (``key`` None).

    ``start`` is where the slot's text begins (the key for a member); ``comma`` is the index
    of the comma that follows it, if any.
    """

    key: str | None
    start: int
    node: Node
    comma: int | None = None
    key_end: int = -1


class _Parser:
    def __init__(self, text: str, label: str) -> None:
        self.text = text
        self.size = len(text)
        self.label = label

    def fail(self, offset: int, reason: str) -> FormatError:
        column = offset - self.text.rfind("\n", 0, offset)
        return FormatError(self.label, line_at(self.text, offset), f"{reason} (column {column})")

    def skip(self, pos: int) -> int:
        """Index of the next significant character after whitespace and comments."""
        text = self.text
        size = self.size
        if pos < size and text[pos] not in _TRIVIA_START:
            return pos
        while True:
            pos = _BLANKS.match(text, pos).end()  # type: ignore[union-attr]
            if pos >= size or text[pos] != "/":
                return pos
            if text.startswith("//", pos):
                end = text.find("\n", pos)
                pos = size if end < 0 else end + 1
            elif text.startswith("/*", pos):
                end = text.find("*/", pos + 2)
                if end < 0:
                    raise self.fail(pos, "a /* comment is never closed")
                pos = end + 2
            else:
                return pos

    def value(self, pos: int, depth: int) -> Node:
        text = self.text
        if pos >= len(text):
            raise self.fail(pos, "the document ends where a value was expected")
        char = text[pos]
        if char == "{":
            return self.container(pos, depth, "object", "}")
        if char == "[":
            return self.container(pos, depth, "array", "]")
        if char == '"':
            end, decoded = self.string(pos)
            return Node("scalar", pos, end, decoded)
        number = _NUMBER.match(text, pos)
        if number and number.end() > pos:
            token = number.group()
            return Node("scalar", pos, number.end(), json.loads(token))
        for word, literal in _LITERALS.items():
            if text.startswith(word, pos):
                return Node("scalar", pos, pos + len(word), literal)
        raise self.fail(pos, f"unexpected character {char!r} where a value was expected")

    def string(self, pos: int) -> tuple[int, str]:
        text = self.text
        found = _STRING.match(text, pos)
        if found is None:
            end = text.find("\n", pos)
            raise self.fail(
                pos,
                "a string runs past the end of its line"
                if end >= 0
                else "a string is never closed",
            )
        token = found.group()
        if "\\" not in token:
            return found.end(), token[1:-1]
        try:
            decoded = json.loads(token, strict=False)
        except json.JSONDecodeError as exc:
            raise self.fail(pos + exc.pos, f"bad string: {exc.msg}") from None
        return found.end(), str(decoded)

    def container(self, pos: int, depth: int, kind: str, closer: str) -> Node:
        if depth >= MAX_DEPTH:
            raise self.fail(pos, f"nesting deeper than {MAX_DEPTH} levels")
        text = self.text
        size = self.size
        skip = self.skip
        is_object = kind == "object"
        members: dict[str, object] = {}
        elements: list[object] = []
        slots: list[Slot] = []
        node = Node(kind, pos, pos, members if is_object else elements, slots)
        cursor = skip(pos + 1)
        while True:
            if cursor >= size:
                raise self.fail(pos, f"this {kind} is never closed")
            if text[cursor] == closer:
                node.end = cursor + 1
                return node
            start = cursor
            if is_object:
                if text[cursor] != '"':
                    raise self.fail(cursor, f"expected a quoted key or {closer!r}")
                key_end, key = self.string(cursor)
                cursor = skip(key_end)
                if cursor >= size or text[cursor] != ":":
                    raise self.fail(cursor, "expected ':' after a key")
                child = self.value(skip(cursor + 1), depth + 1)
                slot = Slot(key, start, child, None, key_end)
                members[key] = child.value
            else:
                child = self.value(cursor, depth + 1)
                slot = Slot(None, start, child)
                elements.append(child.value)
            slots.append(slot)
            cursor = skip(child.end)
            if cursor < size and text[cursor] == ",":
                slot.comma = cursor
                cursor = skip(cursor + 1)
            elif cursor < size and text[cursor] != closer:
                raise self.fail(cursor, f"expected ',' or {closer!r}")


def parse_tree(text: str, label: str) -> Node | None:
    """The root node of ``text``, or None when it holds only whitespace.

    Raises FormatError (naming the line) for anything else that is not one JSONC value.
    """
    parser = _Parser(text, label)
    start = parser.skip(0)
    if start >= len(text):
        if text.strip(_WHITESPACE):
            raise parser.fail(0, "the file holds only comments, no JSON value")
        return None
    root = parser.value(start, 0)
    tail = parser.skip(root.end)
    if tail < len(text):
        raise parser.fail(tail, "unexpected text after the JSON value")
    return root
