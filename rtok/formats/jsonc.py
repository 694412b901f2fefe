"""Format-preserving edits of JSON and JSONC documents.

Every function takes the document's bytes and returns new bytes that differ only by the text
rtok inserts or removes. Comments, trailing commas, indentation (tabs, 2 or 4 spaces, or
minified), key order, BOM, CRLF and a missing final newline all survive. A document that does
not parse raises FormatError naming the line; it is never treated as empty.

Paths are tuples of object keys (str) and array indexes (int, negative counts from the end).
"""

from __future__ import annotations

import json
import math
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from rtok.formats.errors import FormatError
from rtok.formats.jsonc_tree import Node, Slot, parse_tree
from rtok.formats.text import (
    Decoded,
    ItemTest,
    decode,
    encode,
    line_at,
    line_indent,
    line_start,
)

JsonPath = tuple[str | int, ...]
DEFAULT_LABEL = "<json>"
_FRESH_UNIT = "  "
_STYLE_SAMPLE = 32


# --------------------------------------------------------------------------------------------
# Reading


def parse(data: bytes, *, label: str = DEFAULT_LABEL) -> object:
    """The document's value; None for an empty (whitespace-only) document."""
    return _value(data, label)


def get(
    data: bytes | None, path: JsonPath, default: object = None, *, label: str = DEFAULT_LABEL
) -> object:
    """The value at ``path``, or ``default`` when any step of the path is missing."""
    if data is None:
        return default
    value = _value(data, label)
    for step in path:
        found, value = _step(value, step)
        if not found:
            return default
    return value


def existing_depth(data: bytes | None, path: JsonPath, *, label: str = DEFAULT_LABEL) -> int:
    """How many leading steps of ``path`` already exist (``len(path)`` when all do).

    ``len(path) - existing_depth(...)`` before an append is the number of containers the
    append creates; pass it as ``prune`` to remove_array_items to take them away again.
    """
    if data is None:
        return 0
    value = _value(data, label)
    for depth, step in enumerate(path):
        found, value = _step(value, step)
        if not found:
            return depth
    return len(path)


def _step(value: object, step: str | int) -> tuple[bool, object]:
    if isinstance(step, str) and isinstance(value, dict) and step in value:
        return True, value[step]
    if isinstance(step, int) and isinstance(value, list) and -len(value) <= step < len(value):
        return True, value[step]
    return False, None


def _reject_constant(name: str) -> object:
    raise ValueError(name)


def _value(data: bytes, label: str) -> object:
    """The document's value: the C decoder for plain JSON (the common case, ~30x faster),
    the span parser for JSONC and for an error that names the line."""
    decoded = decode(data, label)
    if decoded.text.strip(" \t\r\n"):
        try:
            return json.loads(decoded.text, parse_constant=_reject_constant)
        except ValueError:
            pass
    root = parse_tree(decoded.text, label)
    return None if root is None else root.value


# --------------------------------------------------------------------------------------------
# Editing


def append_to_array(
    data: bytes | None, path: JsonPath, item: object, *, label: str = DEFAULT_LABEL
) -> bytes:
    """Append ``item`` at the end of the array at ``path``.

    Missing objects along the path, and the array itself, are created (appended at the end of
    their parent). ``None`` or an empty document becomes a fresh document: two-space
    indentation and a final newline.
    """
    _check_json(item)
    _check_json(list(path))
    reached = _reach(data, path, [item], label)
    if isinstance(reached, bytes):
        return reached
    decoded, style, node = reached
    if node.kind != "array":
        raise _shape_error(label, decoded.text, node, path, "an array")
    return encode(decoded, _insert_last(decoded.text, node, style, None, item))


def remove_array_items(
    data: bytes, path: JsonPath, predicate: ItemTest, *, prune: int = 0, label: str = DEFAULT_LABEL
) -> bytes:
    """Remove every element of the array at ``path`` for which ``predicate`` is true.

    Exactly the element's text goes, with its separating comma and line. When the array is
    left empty, up to ``prune`` containers are removed going upwards (the array first, then
    its parent when that is left empty, ...); never the document's root. An absent path is
    not an error: the bytes come back unchanged.
    """

    def doomed(node: Node) -> list[int]:
        return [index for index, slot in enumerate(node.slots) if predicate(slot.node.value)]

    return _remove_slots(data, path, "array", doomed, prune, label)


def set_key(
    data: bytes | None, path: JsonPath, value: object, *, label: str = DEFAULT_LABEL
) -> bytes:
    """Set the object member at ``path`` (last step a key) to ``value``.

    A new member is appended at the end of its object, creating missing objects on the way;
    an existing member has only its value's text replaced. An equal value leaves the bytes
    unchanged.
    """
    _check_json(value)
    if not path or not isinstance(path[-1], str):
        raise ValueError("set_key needs a path ending in an object key")
    _check_json(list(path))
    key = path[-1]
    reached = _reach(data, path[:-1], {key: value}, label)
    if isinstance(reached, bytes):
        return reached
    decoded, style, node = reached
    text = decoded.text
    slot = _child(node, key, label=label, text=text, path=path[:-1])
    if slot is None:
        return encode(decoded, _insert_last(text, node, style, key, value))
    if slot.node.value == value and type(slot.node.value) is type(value):
        return data or b""
    rendered = _render(value, _slot_indent(text, node, slot), style)
    return encode(decoded, text[: slot.node.start] + rendered + text[slot.node.end :])


def remove_key(data: bytes, path: JsonPath, *, prune: int = 0, label: str = DEFAULT_LABEL) -> bytes:
    """Remove the object member at ``path``; absent means unchanged bytes.

    ``prune`` removes up to that many parent containers left empty by the removal.
    """
    if not path or not isinstance(path[-1], str):
        raise ValueError("remove_key needs a path ending in an object key")
    key = path[-1]

    def members(parent: Node) -> list[int]:
        return [i for i, slot in enumerate(parent.slots) if slot.key == key]

    return _remove_slots(data, path[:-1], "object", members, prune, label)


def remove_array_item_at(
    data: bytes, path: JsonPath, *, prune: int = 0, label: str = DEFAULT_LABEL
) -> bytes:
    """Remove the single array element at ``path`` (last step an int index)."""
    if not path or not isinstance(path[-1], int):
        raise ValueError("remove_array_item_at needs a path ending in an index")
    index = path[-1]

    def element(parent: Node) -> list[int]:
        count = len(parent.slots)
        return [index % count] if -count <= index < count else []

    return _remove_slots(data, path[:-1], "array", element, prune, label)


def _remove_slots(
    data: bytes,
    path: JsonPath,
    kind: str,
    pick: Callable[[Node], list[int]],
    prune: int,
    label: str,
) -> bytes:
    """The document without the slots `pick` chooses (ascending indexes) of its `kind`
    container at ``path``; the same bytes when there is no such container or `pick`
    chooses none."""
    found = _container(data, path, kind, label)
    if found is None:
        return data
    decoded, node = found
    indexes = pick(node)
    if not indexes:
        return data
    return _without_slots(decoded, path, node, indexes, prune, label)


# --------------------------------------------------------------------------------------------
# Loading and navigation


def _load(data: bytes, label: str) -> tuple[Decoded, Node | None]:
    decoded = decode(data, label)
    return decoded, parse_tree(decoded.text, label)


def _without_slots(
    decoded: Decoded, path: JsonPath, node: Node, indexes: list[int], prune: int, label: str
) -> bytes:
    """The document without the slots ``indexes`` (ascending) of the container ``node`` at
    ``path``, then without up to ``prune`` containers the removal left empty."""
    text = decoded.text
    for count, index in enumerate(reversed(indexes)):
        if count:
            node = _refind(text, path, label)  # the slots moved: read the container again
        text = _remove_slot(text, node, index)
    return encode(decoded, _prune(text, path, prune, label))


def _reach(
    data: bytes | None, path: JsonPath, leaf: object, label: str
) -> bytes | tuple[Decoded, _Style, Node]:
    """Walk to the node at ``path``: the decoded document, its style and the node; or, when
    part of the path is missing, the new document's bytes with the missing objects created
    (appended at the end of their parent) and ``leaf`` at the end of the path."""
    decoded, root = _load(data or b"", label)
    if root is None:
        fresh = _wrap(path, leaf, label)
        return encode(decoded, _render(fresh, "", _fresh_style(decoded.newline)) + decoded.newline)
    text = decoded.text
    style = _style(text, root, decoded.newline)
    node = root
    for depth, step in enumerate(path):
        slot = _child(node, step, label=label, text=text, path=path[:depth])
        if slot is None:
            assert isinstance(step, str)
            created = _wrap(path[depth + 1 :], leaf, label)
            return encode(decoded, _insert_last(text, node, style, step, created))
        node = slot.node
    return decoded, style, node


def _container(data: bytes, path: JsonPath, kind: str, label: str) -> tuple[Decoded, Node] | None:
    """The decoded document and its `kind` ("object" or "array") container at ``path``;
    None for an empty document or when no such container is there."""
    decoded, root = _load(data, label)
    if root is None:
        return None
    node = _find(decoded.text, root, path, label)
    if node is None or node.kind != kind:
        return None
    return decoded, node


def _child(
    node: Node, step: str | int, *, label: str = DEFAULT_LABEL, text: str = "", path: JsonPath = ()
) -> Slot | None:
    """The slot ``step`` names in ``node``; None when absent.

    With ``text`` given, a step that cannot apply to the node's kind raises FormatError
    (an edit must not guess); without it the step is simply absent.
    """
    if isinstance(step, str) and node.kind == "object":
        found = None
        for slot in node.slots:
            if slot.key == step:
                found = slot  # the last duplicate wins, as in every JSON reader
        return found
    if isinstance(step, int) and node.kind == "array":
        if -len(node.slots) <= step < len(node.slots):
            return node.slots[step]
        if text:
            raise FormatError(
                label, line_at(text, node.start), f"{_show(path)} has no element {step}"
            )
        return None
    if text:
        wanted = "an object" if isinstance(step, str) else "an array"
        raise _shape_error(label, text, node, path, wanted)
    return None


def _find(text: str, root: Node, path: JsonPath, label: str) -> Node | None:
    """The node at ``path``, or None when a step is absent or does not fit the node's kind
    (removals then have nothing of rtok's to remove)."""
    node = root
    for step in path:
        slot = _child(node, step)
        if slot is None:
            return None
        node = slot.node
    return node


def _refind(text: str, path: JsonPath, label: str) -> Node:
    root = parse_tree(text, label)
    assert root is not None
    node = _find(text, root, path, label)
    assert node is not None
    return node


def _shape_error(label: str, text: str, node: Node, path: JsonPath, wanted: str) -> FormatError:
    found = {"object": "an object", "array": "an array"}.get(node.kind, "a plain value")
    return FormatError(
        label, line_at(text, node.start), f"{_show(path)} is {found}, expected {wanted}"
    )


def _show(path: JsonPath) -> str:
    if not path:
        return "the document root"
    shown = "".join(f"[{step}]" if isinstance(step, int) else f".{step}" for step in path)
    return shown.lstrip(".")


def _wrap(path: JsonPath, leaf: object, label: str) -> object:
    """``leaf`` nested inside new objects named by ``path`` (keys only)."""
    value = leaf
    for step in reversed(path):
        if not isinstance(step, str):
            raise FormatError(label, 0, f"cannot create array element {step} on the way")
        value = {step: value}
    return value


def _check_json(value: object) -> None:
    """Refuse values JSON cannot hold before any text is produced."""
    if isinstance(value, dict):
        for key, inner in value.items():
            if not isinstance(key, str):
                raise TypeError(f"JSON object keys must be strings, got {key!r}")
            _check_text(key)
            _check_json(inner)
    elif isinstance(value, list | tuple):
        for inner in value:
            _check_json(inner)
    elif isinstance(value, float):
        if not math.isfinite(value):
            raise TypeError(f"JSON cannot hold {value!r}")
    elif isinstance(value, str):
        _check_text(value)
    elif not (value is None or isinstance(value, int | bool)):
        raise TypeError(f"JSON cannot hold a {type(value).__name__}")


def _check_text(text: str) -> None:
    """A string must survive the trip to UTF-8 bytes (no lone surrogates)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise TypeError(f"{text!r} cannot be written as UTF-8") from None


# --------------------------------------------------------------------------------------------
# Style detection and rendering


@dataclass(frozen=True, slots=True)
class _Style:
    newline: str
    unit: str  # one level of indentation
    key_sep: str  # between a key and its value, e.g. ": "
    item_sep: str  # after the comma in one-line containers, e.g. " "
    multiline: bool  # whether the document spans lines at all


def _fresh_style(newline: str) -> _Style:
    return _Style(newline, _FRESH_UNIT, ": ", " ", True)


def _style(text: str, root: Node, newline: str) -> _Style:
    multiline = "\n" in text[root.start : root.end]
    units: Counter[str] = Counter()
    key_seps: Counter[str] = Counter()
    item_seps: Counter[str] = Counter()
    stack = [root]
    while stack:
        node = stack.pop()
        if not node.slots:
            continue
        open_indent = line_indent(text, node.start)
        # A sample is enough to learn the habits; long arrays would only cost time.
        for slot in node.slots[:_STYLE_SAMPLE]:
            stack.append(slot.node)
            _count_habits(text, node, slot, open_indent, units, key_seps, item_seps)
    unit = units.most_common(1)[0][0] if units else _FRESH_UNIT
    default_key_sep = ": " if multiline else ":"
    key_sep = key_seps.most_common(1)[0][0] if key_seps else default_key_sep
    default_item_sep = " " if multiline or key_sep.endswith(" ") else ""
    item_sep = item_seps.most_common(1)[0][0] if item_seps else default_item_sep
    return _Style(newline, unit, key_sep, item_sep, multiline)


def _count_habits(
    text: str,
    node: Node,
    slot: Slot,
    open_indent: str,
    units: Counter[str],
    key_seps: Counter[str],
    item_seps: Counter[str],
) -> None:
    """Count what one slot shows: the text between its key and value, the space after its
    comma, and the indentation unit when it stands on its own line."""
    if slot.key is not None:
        between = text[slot.key_end : slot.node.start]
        if "\n" not in between and "/" not in between:
            key_seps[between] += 1
    if slot.comma is not None:
        after = text[slot.comma + 1 : slot.comma + 3]
        if "\n" not in after and "\r" not in after:
            item_seps[" " if after.startswith(" ") else ""] += 1
    if _on_own_line(text, node, slot):
        indent = line_indent(text, slot.start)
        if indent.startswith(open_indent) and len(indent) > len(open_indent):
            units[indent[len(open_indent) :]] += 1


def _render(value: object, indent: str | None, style: _Style) -> str:
    """JSON text for ``value``; ``indent`` None renders on one line."""
    if isinstance(value, dict) and value:
        pairs = [
            (json.dumps(key, ensure_ascii=False) + style.key_sep, inner)
            for key, inner in value.items()
        ]
        return _render_items("{", "}", pairs, indent, style)
    if isinstance(value, list | tuple) and value:
        return _render_items("[", "]", [("", inner) for inner in value], indent, style)
    if isinstance(value, dict):
        return "{}"
    if isinstance(value, list | tuple):
        return "[]"
    return json.dumps(value, ensure_ascii=False)


def _render_items(
    opener: str, closer: str, items: list[tuple[str, object]], indent: str | None, style: _Style
) -> str:
    if indent is None:
        body = ("," + style.item_sep).join(
            prefix + _render(inner, None, style) for prefix, inner in items
        )
        return opener + body + closer
    inner_indent = indent + style.unit
    lines = [inner_indent + prefix + _render(inner, inner_indent, style) for prefix, inner in items]
    return (
        opener
        + style.newline
        + ("," + style.newline).join(lines)
        + style.newline
        + (indent + closer)
    )


# --------------------------------------------------------------------------------------------
# Insertion and removal of one slot


def _on_own_line(text: str, container: Node, slot: Slot) -> bool:
    """Whether only indentation precedes the slot on its line, inside the container."""
    start = line_start(text, slot.start)
    return start > container.start and not text[start : slot.start].strip(" \t")


def _line_end_after(text: str, pos: int, limit: int) -> int | None:
    """Index just past the line break ending the line at ``pos``, when only blanks and
    one-line comments stand between; None when anything else (or ``limit``) comes first."""
    while pos < limit:
        char = text[pos]
        if char in " \t":
            pos += 1
        elif char == "\n":
            return pos + 1
        elif char == "\r" and text.startswith("\r\n", pos):
            return pos + 2
        elif text.startswith("//", pos):
            end = text.find("\n", pos)
            return None if end < 0 or end >= limit else end + 1
        elif text.startswith("/*", pos):
            end = text.find("*/", pos + 2)
            if end < 0 or "\n" in text[pos:end]:
                return None
            pos = end + 2
        else:
            return None
    return None


def _slot_indent(text: str, container: Node, slot: Slot) -> str | None:
    """Indentation for a value rendered in this slot; None when the slot sits inline."""
    if _on_own_line(text, container, slot):
        return line_indent(text, slot.start)
    return None


def _slot_text(key: str | None, value: object, indent: str | None, style: _Style) -> str:
    prefix = "" if key is None else json.dumps(key, ensure_ascii=False) + style.key_sep
    return prefix + _render(value, indent, style)


def _insert_last(text: str, container: Node, style: _Style, key: str | None, value: object) -> str:
    """``text`` with a new last slot (member ``key`` or element) in ``container``."""
    opener, closer = container.start, container.close
    if not container.slots:
        return (
            text[: opener + 1]
            + _empty_piece(text, container, style, key, value)
            + text[opener + 1 :]
        )
    last = container.slots[-1]
    after_last = last.node.end if last.comma is None else last.comma + 1
    line_end = _line_end_after(text, after_last, closer)
    if _on_own_line(text, container, last) and line_end is not None:
        indent = line_indent(text, last.start)
        trailing = "," if last.comma is not None else ""
        line = indent + _slot_text(key, value, indent, style) + trailing + style.newline
        text = text[:line_end] + line + text[line_end:]
        if last.comma is None:
            text = text[: last.node.end] + "," + text[last.node.end :]
        return text
    if _on_own_line(text, container, last):
        # Own line, but the closing bracket (or a comment spanning lines) follows on it:
        # the new slot goes on a line of its own right after the last one.
        indent = line_indent(text, last.start)
        lead = style.newline + indent + _slot_text(key, value, indent, style)
    else:
        # Inline: a last element written over several lines sets the layout of the new one.
        spans_lines = style.multiline and "\n" in text[last.start : last.node.end]
        layout = line_indent(text, container.slots[0].start) if spans_lines else None
        lead = style.item_sep + _slot_text(key, value, layout, style)
    if last.comma is not None:
        return text[: last.comma + 1] + lead + "," + text[last.comma + 1 :]
    return text[: last.node.end] + "," + lead + text[last.node.end :]


def _empty_piece(text: str, container: Node, style: _Style, key: str | None, value: object) -> str:
    """Text to put right after the opening bracket of an empty container."""
    opener, closer = container.start, container.close
    outer = line_indent(text, opener)
    inner = outer + style.unit
    gap = text[opener + 1 : closer]
    if not gap:
        if not style.multiline:
            return _slot_text(key, value, None, style)
        # "[]" in a multi-line document: the canonical pretty layout (removal collapses the
        # emptied "[\n<indent>]" back to "[]").
        return style.newline + inner + _slot_text(key, value, inner, style) + style.newline + outer
    first_break = "\r\n" if gap.startswith("\r\n") else "\n" if gap.startswith("\n") else ""
    if first_break and gap != first_break + outer:
        # Blank lines or comment lines between the brackets: the new slot gets its own line
        # above them, so removing that line gives the same bytes back.
        return first_break + inner + _slot_text(key, value, inner, style)
    if first_break:
        # "[<newline><indent>]": the plain pretty layout would be exactly what a fresh insert
        # into "[]" gives, and removal could not tell them apart. A blank line above the new
        # slot marks this case; removal takes it away with the slot.
        return first_break + first_break + inner + _slot_text(key, value, inner, style)
    # A comment right after the bracket: the slot goes before it, on the bracket's line.
    return _slot_text(key, value, outer if style.multiline else None, style)


def _remove_slot(text: str, container: Node, index: int) -> str:
    """``text`` without slot ``index`` of ``container``: the inverse of _insert_last."""
    slots = container.slots
    slot = slots[index]
    previous = slots[index - 1] if index > 0 else None
    after = slot.node.end if slot.comma is None else slot.comma + 1
    line_end = _line_end_after(text, after, container.close)
    if _on_own_line(text, container, slot) and line_end is not None:
        # The slot has its line to itself: the whole line goes.
        start = line_start(text, slot.start)
        if previous is not None and slot.comma is None and previous.comma is not None:
            # It was last without a comma: the previous slot's comma was added with it.
            return text[: previous.comma] + text[previous.comma + 1 : start] + text[line_end:]
        if len(slots) == 1:
            opener = container.start
            above = text[opener + 1 : start]
            below = text[line_end : container.close]
            outer = line_indent(text, opener)
            if above + below in ("\n" + outer, "\r\n" + outer):
                # What a fresh pretty insert into "[]" leaves: give back "[]".
                return text[: opener + 1] + text[container.close :]
            if above in ("\n\n", "\r\n\r\n") and below == outer:
                # The marked insert into "[<newline><indent>]": the blank line goes too.
                return text[: opener + 1] + above[: len(above) // 2] + text[line_end:]
        return text[:start] + text[line_end:]
    if previous is not None:
        assert previous.comma is not None
        return text[: previous.comma] + text[slot.node.end :]
    if len(slots) > 1:
        return text[: slot.start] + text[slots[1].start :]
    return text[: slot.start] + text[after:]


def _prune(text: str, path: JsonPath, levels: int, label: str) -> str:
    """Remove up to ``levels`` empty containers at ``path`` and upwards (never the root)."""
    for _ in range(levels):
        if not path:
            break
        root = parse_tree(text, label)
        assert root is not None
        node = _find(text, root, path, label)
        if node is None or node.kind == "scalar" or node.slots:
            break
        parent = _find(text, root, path[:-1], label)
        assert parent is not None
        step = path[-1]
        if isinstance(step, int):
            index = step % len(parent.slots)
        else:
            index = max(i for i, slot in enumerate(parent.slots) if slot.key == step)
        text = _remove_slot(text, parent, index)
        path = path[:-1]
    return text
