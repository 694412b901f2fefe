"""Format-preserving YAML edits: one scalar item in a list under a key path.

Made for settings like Hermes' ``plugins.enabled: [rtok]``. The document is edited as lines,
never re-serialised, so comments, anchors, quoting and blank lines stay as written. Every edit
is confirmed by loading the result (ruamel.yaml, safe) and comparing it with the value the
edit should produce; layouts the line editor does not understand (flow mappings, multi-line
flow lists, anchors or tags on the list itself) are refused with FormatError, never guessed.

Supported list forms: block (``- item`` lines, indented or not), one-line flow (``[a, b]``),
and an empty value (``key:``), which becomes a block list.
"""

from __future__ import annotations

import copy
import io
import json
import re
from collections.abc import Callable
from dataclasses import dataclass

from ruamel.yaml import YAML
from ruamel.yaml.error import MarkedYAMLError, YAMLError

from rtok.formats.errors import FormatError
from rtok.formats.text import (
    Decoded,
    ItemTest,
    append_block,
    decode,
    encode,
    line_at,
    remove_lines,
    split_lines,
    unquoted,
    value_at,
)

YamlPath = tuple[str, ...]
DEFAULT_LABEL = "<yaml>"
_KEY_LINE = re.compile(
    r"""(?P<indent>[ ]*)(?P<key>"(?:[^"\\]|\\.)*"|'(?:[^']|'')*'"""
    r"""|[^\s#'"\[\]{},:&*!|>%@`-][^#:]*?|-[^\s#:][^#:]*?)"""
    r"""[ ]*:(?:[ ]+(?P<rest>.*?))?[ ]*$"""
)
_PLAIN_SAFE = re.compile(r"[A-Za-z_./][A-Za-z0-9_./@+-]*")
_RESERVED = {"true", "false", "yes", "no", "on", "off", "null", "y", "n", "~"}


# --------------------------------------------------------------------------------------------
# Reading


def _load_text(text: str, label: str) -> object:
    loader = YAML(typ="safe", pure=True)
    try:
        return loader.load(io.StringIO(text))
    except MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark is not None else 0
        raise FormatError(label, line, f"not valid YAML: {exc.problem or exc.context}") from None
    except YAMLError as exc:
        raise FormatError(label, 0, f"not valid YAML: {exc}") from None


def parse(data: bytes, *, label: str = DEFAULT_LABEL) -> object:
    """The loaded document (None when empty); FormatError naming the line when invalid."""
    return _load_text(decode(data, label).text, label)


def get(
    data: bytes | None, path: YamlPath, default: object = None, *, label: str = DEFAULT_LABEL
) -> object:
    """The value at ``path`` (keys), or ``default`` when absent."""
    return default if data is None else value_at(parse(data, label=label), path, default)


# --------------------------------------------------------------------------------------------
# The line model


@dataclass(frozen=True, slots=True)
class _Line:
    start: int  # offset of the line
    end: int  # offset just past its line break (or the text's end)
    indent: int
    content: str  # without indentation and line break
    is_content: bool  # neither blank nor a comment nor a document marker


def _lines(text: str) -> list[_Line]:
    result = []
    offset = 0
    for raw in split_lines(text):
        body = raw.rstrip("\r\n")
        stripped = body.lstrip(" ")
        is_content = (
            bool(stripped)
            and not stripped.startswith("#")
            and not (body.startswith(("---", "...")) and body[3:4] in ("", " ", "\t"))
        )
        result.append(
            _Line(offset, offset + len(raw), len(body) - len(stripped), stripped, is_content)
        )
        offset += len(raw)
    return result


def _strip_comment(value: str) -> str:
    """A value without a trailing `` # comment`` (quotes respected)."""
    quote = ""
    for index, char in enumerate(value):
        if quote:
            if char == quote:
                quote = ""
        elif char in "'\"":
            quote = char
        elif char == "#" and (index == 0 or value[index - 1] in " \t"):
            return value[:index].rstrip()
    return value.rstrip()


@dataclass(frozen=True, slots=True)
class _Key:
    line: int  # index into the line list
    rest: str  # the value written on the key's own line, comment stripped


def _key_name(token: str) -> str:
    if token[:1] in "'\"":
        loaded = _load_text("k: " + token, "<key>")
        assert isinstance(loaded, dict)
        return str(loaded["k"])
    return token.strip()


def _find_key(lines: list[_Line], first: int, last: int, key: str) -> _Key | None:
    """The line of ``key`` among the mapping lines ``[first, last)`` at their indent."""
    indent = next((lines[i].indent for i in range(first, last) if lines[i].is_content), None)
    for index in range(first, last):
        line = lines[index]
        if not line.is_content or line.indent != indent:
            continue
        match = _KEY_LINE.fullmatch(" " * line.indent + line.content)
        if match and _key_name(match.group("key")) == key:
            return _Key(index, _strip_comment(match.group("rest") or ""))
    return None


def _child_range(lines: list[_Line], key_line: int) -> tuple[int, int]:
    """Lines ``[first, last)`` of the block value under a key line (last = one past its last
    content line); first == last when the value is not a block."""
    parent = lines[key_line].indent
    first = key_line + 1
    last = first
    for index in range(first, len(lines)):
        line = lines[index]
        if not line.is_content:
            continue
        if line.indent > parent or (
            line.indent == parent and (line.content == "-" or line.content.startswith("- "))
        ):
            last = index + 1
        else:
            break
    return first, last


def _unit(lines: list[_Line]) -> int:
    indents = [line.indent for line in lines if line.is_content and line.indent > 0]
    return min(indents) if indents else 2


def _render_scalar(item: object) -> str:
    if isinstance(item, bool):
        return "true" if item else "false"
    if isinstance(item, int | float):
        return repr(item)
    if isinstance(item, str):
        if _PLAIN_SAFE.fullmatch(item) and item.lower() not in _RESERVED:
            return item
        return json.dumps(item, ensure_ascii=False)
    raise TypeError("only scalar list items (str, int, float, bool) are supported")


# --------------------------------------------------------------------------------------------
# Editing


def append_to_list(
    data: bytes | None,
    path: YamlPath,
    item: str | int | float | bool,
    *,
    label: str = DEFAULT_LABEL,
) -> bytes:
    """Append ``item`` to the list at ``path``, creating missing keys (at the end of their
    mapping) and turning an empty value into a block list."""
    if not path:
        raise ValueError("a YAML list path needs at least one key")
    rendered = _render_scalar(item)
    decoded = decode(data or b"", label)
    text = decoded.text
    newline = decoded.newline
    before = _load_text(text, label)
    expected = _appended(before, path, item, label, text)
    lines = _lines(text)
    unit = _unit(lines)
    first, last, indent = 0, len(lines), 0
    for depth, key in enumerate(path):
        found = (
            _find_key(lines, first, last, key)
            if any(lines[i].is_content for i in range(first, last))
            else None
        )
        remaining = path[depth:]
        if found is None:
            block = _new_keys(remaining, rendered, indent, unit, newline)
            if depth == 0:
                new_text = append_block(text, block, newline)
            else:
                new_text = _insert_after(text, lines, last - 1, block, newline)
            return _checked(decoded, new_text, expected, label, path)
        key_line = lines[found.line]
        child_first, child_last = _child_range(lines, found.line)
        if depth < len(path) - 1:
            if found.rest:
                raise FormatError(
                    label,
                    line_at(text, key_line.start),
                    f"{'.'.join(path[: depth + 1])} is not a block mapping",
                )
            if child_first == child_last:
                block = _new_keys(
                    path[depth + 1 :], rendered, key_line.indent + unit, unit, newline
                )
                new_text = _insert_after(text, lines, found.line, block, newline)
                return _checked(decoded, new_text, expected, label, path)
            # New keys line up with the existing children, whatever their indentation.
            indent = next(
                lines[i].indent for i in range(child_first, child_last) if lines[i].is_content
            )
            first, last = child_first, child_last
            continue
        new_text = _append_item(
            text, lines, found, child_first, child_last, rendered, unit, newline, label, path
        )
        return _checked(decoded, new_text, expected, label, path)
    raise AssertionError("unreachable")


def _append_item(
    text: str,
    lines: list[_Line],
    found: _Key,
    child_first: int,
    child_last: int,
    rendered: str,
    unit: int,
    newline: str,
    label: str,
    path: YamlPath,
) -> str:
    key_line = lines[found.line]
    where = line_at(text, key_line.start)
    if found.rest.startswith("[") and found.rest.endswith("]"):
        line_text = text[key_line.start : key_line.end]
        close = key_line.start + line_text.index(found.rest) + len(found.rest) - 1
        inner = text[key_line.start : close]
        open_at = inner.index("[", line_text.index(found.rest))
        if not text[key_line.start + open_at + 1 : close].strip():
            position = key_line.start + open_at + 1
            return text[:position] + rendered + text[position:]
        position = close
        while text[position - 1] in " \t":
            position -= 1
        return text[:position] + ", " + rendered + text[position:]
    if found.rest:
        raise FormatError(label, where, f"{'.'.join(path)} is not a list rtok can edit")
    if child_first == child_last:
        line = " " * (key_line.indent + unit) + "- " + rendered + newline
        return _insert_after(text, lines, found.line, line, newline)
    items = [lines[i] for i in range(child_first, child_last) if lines[i].is_content]
    item_indent = items[0].indent
    if not (items[0].content == "-" or items[0].content.startswith("- ")):
        raise FormatError(label, where, f"{'.'.join(path)} is a mapping, not a list")
    line = " " * item_indent + "- " + rendered + newline
    return _insert_after(text, lines, child_last - 1, line, newline)


def _new_keys(keys: YamlPath, rendered: str, indent: int, unit: int, newline: str) -> str:
    out = []
    for depth, key in enumerate(keys):
        out.append(" " * (indent + depth * unit) + _render_key(key) + ":" + newline)
    out.append(" " * (indent + len(keys) * unit) + "- " + rendered + newline)
    return "".join(out)


def _render_key(key: str) -> str:
    if _PLAIN_SAFE.fullmatch(key) and key.lower() not in _RESERVED:
        return key
    return json.dumps(key, ensure_ascii=False)


def _insert_after(text: str, lines: list[_Line], index: int, block: str, newline: str) -> str:
    """``block`` (whole lines) inserted after line ``index``; a last line without a line
    break gets one first (and _remove_span takes it away again)."""
    end = lines[index].end
    if end == len(text) and not text.endswith("\n"):
        return text + newline + block[: -len(newline)]
    return text[:end] + block + text[end:]


def _remove_span(text: str, start: int, end: int) -> str:
    """Remove whole lines ``[start, end)``, the inverse of _insert_after."""
    if end == len(text) and not text.endswith("\n") and start > 0:
        cut = start - 2 if text[:start].endswith("\r\n") else start - 1
        return text[:cut]
    return text[:start] + text[end:]


def _remove_block_items(
    text: str, lines: list[_Line], key_line: int, predicate: Callable[[object], bool], label: str
) -> str:
    """``text`` without the `- item` lines of the block list under ``key_line`` whose plain
    value ``predicate`` accepts (nested lists and mappings are left alone)."""
    child_first, child_last = _child_range(lines, key_line)
    item_indent = next(
        (lines[i].indent for i in range(child_first, child_last) if lines[i].is_content), 0
    )
    for index in reversed(range(child_first, child_last)):
        line = lines[index]
        if not line.is_content or line.indent != item_indent:
            continue
        if not line.content.startswith("- "):
            continue
        value_text = _strip_comment(line.content[2:])
        try:
            value = _load_text(value_text, label) if value_text else None
        except FormatError:
            continue
        if isinstance(value, dict | list) or not predicate(value):
            continue
        text = _remove_span(text, line.start, line.end)
    return text


def remove_from_list(
    data: bytes, path: YamlPath, predicate: ItemTest, *, prune: int = 0, label: str = DEFAULT_LABEL
) -> bytes:
    """Remove the list items at ``path`` for which ``predicate`` is true; then remove up to
    ``prune`` keys left without a value, going up from the list's own key."""
    decoded = decode(data, label)
    text = decoded.text
    before = _load_text(text, label)
    current = _lookup(before, path)
    if not isinstance(current, list) or not any(predicate(item) for item in current):
        return data
    expected = copy.deepcopy(before)
    target = _lookup(expected, path)
    assert isinstance(target, list)
    target[:] = [item for item in target if not predicate(item)]
    lines = _lines(text)
    found, _first, _last = _locate(lines, path)
    if found is None:
        return data
    key_line = lines[found.line]
    if found.rest.startswith("[") and found.rest.endswith("]"):
        new_text = _remove_flow_items(text, key_line, found.rest, predicate, label)
    elif found.rest:
        raise FormatError(
            label, line_at(text, key_line.start), f"{'.'.join(path)} is not a list rtok can edit"
        )
    else:
        new_text = _remove_block_items(text, lines, found.line, predicate, label)
        if not target:
            parent = _lookup(expected, path[:-1])
            assert isinstance(parent, dict)
            parent[path[-1]] = None
    new_text = _prune(new_text, path, prune, expected, label)
    return _checked(decoded, new_text, expected, label, path)


def _remove_flow_items(
    text: str, key_line: _Line, flow: str, predicate: Callable[[object], bool], label: str
) -> str:
    line_text = text[key_line.start : key_line.end]
    open_at = key_line.start + line_text.index(flow, key_line.indent + 1)
    inner_start, inner_end = open_at + 1, open_at + len(flow) - 1
    pieces: list[tuple[int, int]] = []
    cursor = inner_start
    parts = _split_flow(text[inner_start:inner_end])
    if parts is None:
        raise FormatError(
            label, line_at(text, key_line.start), "a flow list with nested items; edit it by hand"
        )
    for part in parts:
        lead = len(part) - len(part.lstrip())
        pieces.append((cursor + lead, cursor + len(part.rstrip())))
        cursor += len(part) + 1
    for index in reversed(range(len(pieces))):
        start, end = pieces[index]
        if start >= end:
            continue
        value = _load_text(text[start:end], label)
        if not predicate(value):
            continue
        if index > 0:
            text = text[: pieces[index - 1][1]] + text[end:]
        elif len(pieces) > 1:
            text = text[:start] + text[pieces[1][0] :]
        else:
            text = text[:start] + text[end:]
    return text


def _split_flow(inner: str) -> list[str] | None:
    """The items of a one-line flow list split at its top-level commas (quotes respected);
    None when an item is itself a list or mapping."""
    parts: list[str] = []
    current_start = 0
    for index, char in unquoted(inner, doubled_single_quote=True):
        if char in "[]{}":
            return None
        if char == ",":
            parts.append(inner[current_start:index])
            current_start = index + 1
    parts.append(inner[current_start:])
    return parts


def _locate(lines: list[_Line], path: YamlPath) -> tuple[_Key | None, int, int]:
    first, last = 0, len(lines)
    found: _Key | None = None
    for key in path:
        found = _find_key(lines, first, last, key)
        if found is None:
            return None, first, last
        first, last = _child_range(lines, found.line)
    return found, first, last


def _prune(text: str, path: YamlPath, levels: int, expected: object, label: str) -> str:
    """Remove up to ``levels`` keys that now hold nothing, from ``path`` upwards."""
    for depth in range(len(path), len(path) - levels, -1):
        if depth <= 0:
            break
        sub = path[:depth]
        lines = _lines(text)
        found, first, last = _locate(lines, sub)
        if found is None or first != last or found.rest not in ("", "[]"):
            break
        key_line = lines[found.line]
        if key_line.indent == 0 and not any(line.is_content for line in lines[found.line + 1 :]):
            text = remove_lines(text, key_line.start, key_line.end)
        else:
            text = _remove_span(text, key_line.start, key_line.end)
        parent = _lookup(expected, sub[:-1]) if depth > 1 else expected
        if isinstance(parent, dict):
            parent.pop(sub[-1], None)
            if depth > 1 and not parent:
                grand = _lookup(expected, sub[:-2]) if depth > 2 else expected
                if isinstance(grand, dict):
                    grand[sub[-2]] = None
    return text


def _lookup(value: object, path: YamlPath) -> object:
    for key in path:
        if not isinstance(value, dict) or key not in value:
            return None
        value = value[key]
    return value


def _line_of(text: str, path: YamlPath) -> int:
    found = _locate(_lines(text), path)[0]
    return 0 if found is None else line_at(text, _lines(text)[found.line].start)


def _appended(before: object, path: YamlPath, item: object, label: str, text: str) -> object:
    doc = copy.deepcopy(before) if before is not None else {}
    if not isinstance(doc, dict):
        raise FormatError(label, 1, "the document is not a mapping of keys")
    node: dict[object, object] = doc
    for depth, key in enumerate(path[:-1]):
        inner = node.get(key)
        if inner is None:
            inner = node[key] = {}
        if not isinstance(inner, dict):
            raise FormatError(
                label,
                _line_of(text, path[: depth + 1]),
                f"{'.'.join(path[: depth + 1])} is not a mapping",
            )
        node = inner
    current = node.get(path[-1])
    if current is None:
        node[path[-1]] = [item]
    elif isinstance(current, list):
        current.append(item)
    else:
        raise FormatError(label, _line_of(text, path), f"{'.'.join(path)} is not a list")
    return doc


def _checked(
    decoded: Decoded, new_text: str, expected: object, label: str, path: YamlPath
) -> bytes:
    try:
        after = _load_text(new_text, label)
    except FormatError:
        after = object()
    if after != expected and not (after is None and expected == {}):
        raise FormatError(
            label,
            0,
            f"cannot edit {'.'.join(path)} in this YAML layout "
            "without rewriting the user's text; edit it by hand",
        )
    return encode(decoded, new_text)


def existing_depth(data: bytes | None, path: YamlPath, *, label: str = DEFAULT_LABEL) -> int:
    """How many leading keys of ``path`` exist with a value; ``len(path) - existing_depth``
    before an append is the ``prune`` that takes created keys away again."""
    if data is None:
        return 0
    value = parse(data, label=label)
    for depth, key in enumerate(path):
        if not isinstance(value, dict) or key not in value:
            return depth
        value = value[key]
    return len(path)
