"""Byte <-> text helpers shared by the editors: BOM, newline style, line numbers."""

from __future__ import annotations

from dataclasses import dataclass

from rtok.formats.errors import FormatError

BOM = "\ufeff"


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
    start = line_start(text, offset)
    end = start
    while end < len(text) and text[end] in " \t":
        end += 1
    return text[start:end]
