"""Format-preserving TOML edits: whole ``[table]`` / ``[[array-of-tables]]`` entries.

rtok appends its table as text at the end of the document and removes exactly that text
again; the user's comments, inline tables, key order and blank lines are never rewritten.
Every edit is checked by parsing the result (tomllib) and comparing it with the value the
edit should produce; a document where that does not hold is refused with FormatError.
"""

from __future__ import annotations

import copy
import math
import re
import tomllib
from collections.abc import Callable, Mapping

from rtok.formats.errors import FormatError
from rtok.formats.text import (
    Decoded,
    append_block,
    decode,
    encode,
    line_end,
    remove_lines,
    split_lines,
    unquoted,
    value_at,
)

TomlPath = tuple[str, ...]
DEFAULT_LABEL = "<toml>"
_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")
_LINE_NUMBER = re.compile(r"at line (\d+)")


# --------------------------------------------------------------------------------------------
# Reading


def parse(data: bytes, *, label: str = DEFAULT_LABEL) -> dict[str, object]:
    """The document as a dict; FormatError naming the line when it is not TOML."""
    return _parse_text(decode(data, label).text, label)


def get(
    data: bytes | None, path: TomlPath, default: object = None, *, label: str = DEFAULT_LABEL
) -> object:
    """The value at ``path`` (keys), or ``default`` when absent."""
    return default if data is None else value_at(parse(data, label=label), path, default)


def _parse_text(text: str, label: str) -> dict[str, object]:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        found = _LINE_NUMBER.search(str(exc))
        line = int(found.group(1)) if found else 0
        reason = re.sub(r"\s*\(at (line \d+, column \d+|end of document)\)", "", str(exc))
        raise FormatError(label, line, f"not valid TOML: {reason}") from None


# --------------------------------------------------------------------------------------------
# Rendering


def render_key(key: str) -> str:
    """A key as TOML writes it: bare when it can be, else a basic string."""
    return key if _BARE_KEY.fullmatch(key) else _basic_string(key)


def _basic_string(value: str) -> str:
    out = ['"']
    for char in value:
        if char in '"\\':
            out.append("\\" + char)
        elif char == "\n":
            out.append("\\n")
        elif char == "\t":
            out.append("\\t")
        elif char == "\r":
            out.append("\\r")
        elif ord(char) < 0x20 or ord(char) == 0x7F:
            out.append(f"\\u{ord(char):04x}")
        else:
            out.append(char)
    out.append('"')
    return "".join(out)


def render_value(value: object) -> str:
    """A TOML value on one line (inline tables for mappings)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return _float_text(value)
    if isinstance(value, str):
        return _basic_string(value)
    if isinstance(value, list | tuple):
        return "[" + ", ".join(render_value(inner) for inner in value) + "]"
    if isinstance(value, Mapping):
        if not value:
            return "{}"
        return (
            "{ "
            + ", ".join(f"{render_key(str(k))} = {render_value(v)}" for k, v in value.items())
            + " }"
        )
    raise TypeError(f"TOML cannot hold a {type(value).__name__}")


def _float_text(value: float) -> str:
    """A TOML float: `nan`, `inf`, `-inf`, or Python's shortest repr with a `.0` where it
    would otherwise read as an integer."""
    if math.isnan(value):
        return "nan"
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    text = repr(value)
    return text if any(c in text for c in ".eE") else text + ".0"


def render_table(
    path: TomlPath, values: Mapping[str, object], *, array: bool = False, newline: str = "\n"
) -> str:
    """``[a.b]`` (or ``[[a.b]]``) and one ``key = value`` line per entry."""
    if not path:
        raise ValueError("a table needs a non-empty path")
    name = ".".join(render_key(part) for part in path)
    header = f"[[{name}]]" if array else f"[{name}]"
    lines = [header] + [f"{render_key(k)} = {render_value(v)}" for k, v in values.items()]
    return "".join(line + newline for line in lines)


# --------------------------------------------------------------------------------------------
# Editing


def add_table(
    data: bytes | None,
    path: TomlPath,
    values: Mapping[str, object],
    *,
    array: bool = False,
    label: str = DEFAULT_LABEL,
) -> bytes:
    """Append the table ``[path]`` holding ``values`` (``[[path]]`` with ``array=True``).

    A plain table already present keeps its place and its other keys: only the keys given
    are set (their value text replaced, or a line added at the end of the table); when they
    already hold these values the bytes come back unchanged. An array of tables always gets
    one more entry.
    """
    decoded = decode(data or b"", label)
    text = decoded.text
    before = _parse_text(text, label)
    expected = copy.deepcopy(before)
    current = _lookup(before, path)
    if not array and current is not None:
        if not isinstance(current, dict):
            raise FormatError(
                label, _line_defining(text, path), f"{'.'.join(path)} is a value, not a table"
            )
        if all(key in current and current[key] == value for key, value in values.items()):
            return data or b""
        current.update(values)  # ``before`` is only used as the expected result from here
        for key, value in values.items():
            text = _set_key_in_section(text, path, key, value, decoded.newline, label)
        return _checked(decoded, text, before, label, "update", path)
    _place(expected, path, dict(values), array=array, label=label, text=text)
    block = render_table(path, values, array=array, newline=decoded.newline)
    new_text = append_block(text, block, decoded.newline)
    return _checked(decoded, new_text, expected, label, "add", path)


def remove_tables(
    data: bytes,
    path: TomlPath,
    predicate: Callable[[dict[str, object]], bool] | None = None,
    *,
    array: bool = False,
    label: str = DEFAULT_LABEL,
) -> bytes:
    """Remove the table ``[path]`` (or each ``[[path]]`` entry) whose values satisfy
    ``predicate`` (all of them without one). Absent means unchanged bytes."""
    decoded = decode(data, label)
    text = decoded.text
    before = _parse_text(text, label)
    if _lookup(before, path) is None:
        return data
    test = predicate or (lambda _v: True)
    new_text = _remove_matching(text, path, before, label, test, array=array)
    if new_text == text:
        return data
    return encode(decoded, new_text)


def _lookup(doc: dict[str, object], path: TomlPath) -> object:
    value: object = doc
    for key in path:
        if not isinstance(value, dict) or key not in value:
            return None
        value = value[key]
    return value


def _place(
    doc: dict[str, object],
    path: TomlPath,
    values: dict[str, object],
    *,
    array: bool,
    label: str,
    text: str,
) -> None:
    node: dict[str, object] = doc
    for depth, key in enumerate(path[:-1]):
        inner = node.setdefault(key, {})
        if not isinstance(inner, dict):
            # Includes an array of tables: the new header would land in its last entry.
            raise FormatError(
                label,
                _line_defining(text, path[: depth + 1]),
                f"{'.'.join(path[: depth + 1])} is not a plain table, so "
                f"[{'.'.join(path)}] cannot be added",
            )
        node = inner
    if array:
        entries = node.setdefault(path[-1], [])
        if not isinstance(entries, list):
            raise FormatError(
                label, _line_defining(text, path), f"{'.'.join(path)} is not an array of tables"
            )
        entries.append(values)
    else:
        node[path[-1]] = values


def _set_key_in_section(
    text: str, path: TomlPath, key: str, value: object, newline: str, label: str
) -> str:
    """``text`` with ``key = value`` set inside the one ``[path]`` section."""
    found = [
        (start, end)
        for start, end, section_path, array in _sections(text)
        if section_path == path and not array
    ]
    if len(found) != 1:
        raise FormatError(
            label,
            _line_defining(text, path),
            f"[{'.'.join(path)}] is not written as one table header; edit it by hand",
        )
    start, end = found[0]
    rendered = render_value(value)
    offset = line_end(text, start)
    while offset < end:
        stop = line_end(text, offset)
        line = text[offset:stop]
        match = _KEY_VALUE.match(line)
        if match and _key_token(match.group("key")) == key:
            rest = match.group("rest")
            comment = _comment_start(rest)
            value_text = (
                rest[:comment].rstrip() if comment is not None else rest.rstrip("\r\n").rstrip()
            )
            value_start = offset + match.start("rest")
            return text[:value_start] + rendered + text[value_start + len(value_text) :]
        offset = stop
    line = f"{render_key(key)} = {rendered}"
    if end > 0 and not text[:end].endswith("\n"):
        return text[:end] + newline + line + text[end:]
    return text[:end] + line + newline + text[end:]


_KEY_VALUE = re.compile(
    r"""[ \t]*(?P<key>[A-Za-z0-9_-]+|"(?:[^"\\]|\\.)*"|'[^']*')[ \t]*=[ \t]*(?P<rest>.*)""",
    re.DOTALL,
)


def _key_token(token: str) -> str | None:
    if token.startswith('"'):
        try:
            return str(tomllib.loads("k = " + token)["k"])
        except tomllib.TOMLDecodeError:
            return None
    if token.startswith("'"):
        return token[1:-1]
    return token


def _comment_start(rest: str) -> int | None:
    """Index of a ``#`` comment after a one-line value (quotes respected)."""
    return next((i for i, char in unquoted(rest, doubled_single_quote=False) if char == "#"), None)


def _line_defining(text: str, path: TomlPath) -> int:
    """1-based line of the first header or key line that defines ``path`` (0 if unknown)."""
    for start, _end, found, _array in _sections(text):
        if found[: len(path)] == path:
            return text.count("\n", 0, start) + 1
    pattern = re.compile(r"[ \t]*" + re.escape(render_key(path[0])) + r"[ \t]*[=.]")
    for number, line in enumerate(text.split("\n"), start=1):
        if pattern.match(line):
            return number
    return 0


def _checked(
    decoded: Decoded,
    new_text: str,
    expected: dict[str, object],
    label: str,
    action: str,
    path: TomlPath,
) -> bytes:
    try:
        after = tomllib.loads(new_text)
    except tomllib.TOMLDecodeError:
        after = None
    if after != expected:
        raise FormatError(
            label,
            0,
            f"cannot {action} [{'.'.join(path)}] without rewriting the "
            "user's tables (a key or table of that name is defined another way)",
        )
    return encode(decoded, new_text)


# --------------------------------------------------------------------------------------------
# Finding table sections in the text


def _header_path(line: str) -> tuple[TomlPath, bool] | None:
    """The dotted path of a ``[table]`` / ``[[table]]`` header line, with whether it is an
    array header; None for any other line."""
    stripped = line.strip()
    array = stripped.startswith("[[")
    if not stripped.startswith("["):
        return None
    pos = 2 if array else 1
    parts: list[str] = []
    while True:
        while pos < len(stripped) and stripped[pos] in " \t":
            pos += 1
        if pos >= len(stripped):
            return None
        key = _header_key(stripped, pos)
        if key is None:
            return None
        part, pos = key
        parts.append(part)
        while pos < len(stripped) and stripped[pos] in " \t":
            pos += 1
        if stripped.startswith(".", pos):
            pos += 1
            continue
        closer = "]]" if array else "]"
        if not stripped.startswith(closer, pos):
            return None
        rest = stripped[pos + len(closer) :].strip()
        if rest and not rest.startswith("#"):
            return None
        return tuple(parts), array


def _header_key(line: str, pos: int) -> tuple[str, int] | None:
    """The key of a header that starts at `pos` (basic, literal or bare) and the position
    after it; None when there is no valid key there."""
    char = line[pos]
    if char == '"':
        end = pos + 1
        while end < len(line) and line[end] != '"':
            end += 2 if line[end] == "\\" else 1
        if end >= len(line):
            return None
        try:
            return str(tomllib.loads("k = " + line[pos : end + 1])["k"]), end + 1
        except tomllib.TOMLDecodeError:
            return None
    if char == "'":
        end = line.find("'", pos + 1)
        if end < 0:
            return None
        return line[pos + 1 : end], end + 1
    bare = _BARE_KEY.match(line, pos)
    if not bare:
        return None
    return bare.group(), bare.end()


def _sections(text: str) -> list[tuple[int, int, TomlPath, bool]]:
    """(start, end, path, is_array) of every header-led section. A section ends after its
    last line that is neither blank nor a comment (those belong to what follows)."""
    headers: list[tuple[int, TomlPath, bool]] = []
    offset = 0
    lines = split_lines(text)
    starts = []
    for line in lines:
        starts.append(offset)
        found = _header_path(line)
        if found is not None:
            headers.append((offset, found[0], found[1]))
        offset += len(line)
    result = []
    for index, (start, path, array) in enumerate(headers):
        limit = headers[index + 1][0] if index + 1 < len(headers) else len(text)
        end = line_end(text, start)
        for line_start, line in zip(starts, lines, strict=True):
            if start < line_start < limit:
                content = line.strip()
                if content and not content.startswith("#"):
                    end = line_start + len(line)
        result.append((start, end, path, array))
    return result


def _remove_matching(
    text: str,
    path: TomlPath,
    before: dict[str, object],
    label: str,
    test: Callable[[dict[str, object]], bool],
    *,
    array: bool,
) -> str:
    """``text`` without the sections for ``path`` whose values pass ``test``; each removal
    is confirmed by parsing, so a header-looking line inside a string is never cut."""
    for start, end, found_path, found_array in reversed(_sections(text)):
        if found_path != path or found_array != array:
            continue
        section_value = _parse_section(text[start:end], path, array)
        if section_value is None or not test(section_value):
            continue
        candidate = remove_lines(text, start, end)
        expected = copy.deepcopy(before)
        if not _drop(expected, path, section_value, array=array):
            continue
        try:
            if tomllib.loads(candidate) != expected:
                continue
        except tomllib.TOMLDecodeError:
            continue
        text, before = candidate, expected
    return text


def _parse_section(section: str, path: TomlPath, array: bool) -> dict[str, object] | None:
    try:
        parsed = tomllib.loads(section)
    except tomllib.TOMLDecodeError:
        return None
    value = _lookup(parsed, path)
    if array and isinstance(value, list) and len(value) == 1 and isinstance(value[0], dict):
        return value[0]
    if not array and isinstance(value, dict):
        return value
    return None


def _drop(doc: dict[str, object], path: TomlPath, value: dict[str, object], *, array: bool) -> bool:
    """Remove ``value`` at ``path`` from the parsed ``doc``; False when it is not there."""
    parent = _lookup(doc, path[:-1]) if len(path) > 1 else doc
    if not isinstance(parent, dict) or path[-1] not in parent:
        return False
    if array:
        entries = parent[path[-1]]
        if not isinstance(entries, list) or value not in entries:
            return False
        last = len(entries) - 1 - entries[::-1].index(value)
        del entries[last]
        if not entries:
            del parent[path[-1]]
    else:
        del parent[path[-1]]
    _drop_empty_parents(doc, path[:-1])
    return True


def _drop_empty_parents(doc: dict[str, object], path: TomlPath) -> None:
    """Implicit parent tables (``[a.b.c]`` makes ``a`` and ``a.b``) vanish with their last
    child; mirror that so the parsed comparison matches."""
    while path:
        parent = _lookup(doc, path[:-1]) if len(path) > 1 else doc
        if not isinstance(parent, dict):
            return
        value = parent.get(path[-1])
        if value != {}:
            return
        del parent[path[-1]]
        path = path[:-1]
