"""Markdown (and any line-based text) edits: a marked block and ``@`` reference lines.

A block is the lines from a begin marker line to an end marker line; rtok owns everything
between them. User text around the block is never touched. Adding then removing gives back
the original bytes exactly (see text.append_block / text.remove_lines for the blank-line rule).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rtok.formats.errors import FormatError
from rtok.formats.text import (
    append_block,
    decode,
    encode,
    line_at,
    line_end,
    remove_lines,
    split_lines,
)

BEGIN = "<!-- rtok:begin -->"
END = "<!-- rtok:end -->"
DEFAULT_LABEL = "<markdown>"
_FENCE = re.compile(r"(`{3,}|~{3,})")


@dataclass(frozen=True, slots=True)
class _Block:
    start: int  # start of the begin marker's line
    body_start: int  # start of the line after the begin marker
    body_end: int  # start of the end marker's line
    end: int  # just past the end marker's line break (or the text's end)


def _lines(text: str) -> list[tuple[int, str]]:
    """(offset, line without its break) for every line outside fenced code blocks: a marker
    or ``@`` line shown inside a fence is an example, not a live one."""
    return _scan(text)[0]


def _scan(text: str) -> tuple[list[tuple[int, str]], int | None]:
    """The lines outside fences, and the offset of a fence left open at the end (if any)."""
    result = []
    offset = 0
    fence = ""
    fence_at: int | None = None
    for raw in split_lines(text):
        line = raw.rstrip("\r\n")
        stripped = line.lstrip(" ")
        opener = _FENCE.match(stripped) if len(line) - len(stripped) < 4 else None
        if fence:
            if (
                opener
                and opener.group(1)[0] == fence[0]
                and len(opener.group(1)) >= len(fence)
                and not stripped[len(opener.group(1)) :].strip()
            ):
                fence = ""
        elif opener:
            fence, fence_at = opener.group(1), offset
        else:
            result.append((offset, line))
        offset += len(raw)
    return result, fence_at if fence else None


def _refuse_open_fence(text: str, label: str) -> None:
    """Text appended after an unclosed fence would be code, not instructions."""
    open_at = _scan(text)[1]
    if open_at is not None:
        raise FormatError(
            label,
            line_at(text, open_at),
            "a code fence opened here is never closed; close it first",
        )


def _find_block(text: str, begin: str, end: str, label: str) -> _Block | None:
    found: _Block | None = None
    open_at: int | None = None
    body_start = 0
    for offset, line in _lines(text):
        stripped = line.strip()
        if stripped == begin:
            if open_at is not None or found is not None:
                raise FormatError(
                    label,
                    line_at(text, offset),
                    f"a second {begin} marker; remove the duplicate block by hand",
                )
            open_at = offset
            body_start = line_end(text, offset)
        elif stripped == end:
            if open_at is None:
                raise FormatError(
                    label, line_at(text, offset), f"{end} without a {begin} before it"
                )
            found = _Block(open_at, body_start, offset, line_end(text, offset))
            open_at = None
    if open_at is not None:
        raise FormatError(
            label,
            line_at(text, open_at),
            f"{begin} is never closed by {end}; remove the partial block by hand",
        )
    return found


def _body_text(body: str, newline: str) -> str:
    lines = [line.rstrip("\r\n") for line in split_lines(body)]
    return "".join(line + newline for line in lines)


def get_block(
    data: bytes | None, *, begin: str = BEGIN, end: str = END, label: str = DEFAULT_LABEL
) -> str | None:
    """The text between the markers (``\\n`` line breaks), or None without a block."""
    if data is None:
        return None
    decoded = decode(data, label)
    block = _find_block(decoded.text, begin, end, label)
    if block is None:
        return None
    body = decoded.text[block.body_start : block.body_end]
    return "".join(line.rstrip("\r\n") + "\n" for line in split_lines(body))


def upsert_block(
    data: bytes | None, body: str, *, begin: str = BEGIN, end: str = END, label: str = DEFAULT_LABEL
) -> bytes:
    """Put ``body`` between the markers: replaced in place when a block exists (bytes
    unchanged when equal), else appended at the end as a new block."""
    decoded = decode(data or b"", label)
    text = decoded.text
    newline = decoded.newline
    block = _find_block(text, begin, end, label)
    if any(line.strip() in (begin, end) for line in body.split("\n")):
        raise ValueError("the block's body must not contain its own marker lines")
    rendered = _body_text(body, newline)
    if block is not None:
        if text[block.body_start : block.body_end] == rendered:
            return data or b""
        return encode(decoded, text[: block.body_start] + rendered + text[block.body_end :])
    _refuse_open_fence(text, label)
    new_block = begin + newline + rendered + end + newline
    return encode(decoded, append_block(text, new_block, newline))


def remove_block(
    data: bytes, *, begin: str = BEGIN, end: str = END, label: str = DEFAULT_LABEL
) -> bytes:
    """The document without the marked block (and the line break rtok added before it)."""
    decoded = decode(data, label)
    block = _find_block(decoded.text, begin, end, label)
    if block is None:
        return data
    return encode(decoded, remove_lines(decoded.text, block.start, block.end))


def has_reference(data: bytes | None, ref: str, *, label: str = DEFAULT_LABEL) -> bool:
    """Whether a line reads exactly ``ref`` (surrounding blanks ignored)."""
    if data is None:
        return False
    text = decode(data, label).text
    return any(line.strip() == ref.strip() for _offset, line in _lines(text))


def add_reference(data: bytes | None, ref: str, *, label: str = DEFAULT_LABEL) -> bytes:
    """Append the line ``ref`` (e.g. ``@RTOK.md``) unless a line already reads exactly that."""
    ref = ref.strip()
    if not ref or "\n" in ref or "\r" in ref:
        raise ValueError("a reference is one non-empty line")
    decoded = decode(data or b"", label)
    if has_reference(data, ref, label=label):
        return data or b""
    _refuse_open_fence(decoded.text, label)
    return encode(decoded, append_block(decoded.text, ref + decoded.newline, decoded.newline))


def remove_reference(
    data: bytes, refs: str | tuple[str, ...], *, label: str = DEFAULT_LABEL
) -> bytes:
    """Remove every line that reads exactly one of ``refs``."""
    wanted = tuple(ref.strip() for ref in ((refs,) if isinstance(refs, str) else refs))
    decoded = decode(data, label)
    text = decoded.text
    for offset, line in reversed(_lines(text)):
        if line.strip() in wanted:
            text = remove_lines(text, offset, line_end(text, offset))
    if text == decoded.text:
        return data
    return encode(decoded, text)
