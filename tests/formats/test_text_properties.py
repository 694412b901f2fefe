"""Properties for the line-based editors: random user text around rtok's lines, CRLF, BOM,
missing final newline; add-then-remove is byte-identical and the entry is in place."""

from __future__ import annotations

import tomllib
from typing import Any

import tomlkit
from hypothesis import given, settings
from hypothesis import strategies as st

from rtok.formats import markdown, tomltext, yamltext

# Form feed, NEL and U+2028 are ordinary characters inside a line for every format here.
LINE = st.text(
    st.characters(
        max_codepoint=0x2FFF,
        exclude_categories=("Cs", "Cc", "Zl", "Zp"),
        include_characters="\x0c\x85\u2028",
    ),
    max_size=20,
).filter(lambda s: "rtok" not in s and "``" not in s and "~~" not in s)
BLANKISH = st.sampled_from(["", " ", "\t", "  # note"])


@st.composite
def text_documents(draw: st.DrawFn) -> bytes:
    newline = draw(st.sampled_from(["\n", "\r\n"]))
    lines = draw(st.lists(st.one_of(LINE, BLANKISH), max_size=8))
    text = newline.join(lines)
    if len(lines) > 0 and draw(st.booleans()):
        text += newline
    bom = "\ufeff" if draw(st.booleans()) else ""
    return (bom + text).encode("utf-8")


@settings(max_examples=200, deadline=None)
@given(text_documents())
def test_markdown_block_and_reference_round_trip(original: bytes) -> None:
    with_block = markdown.upsert_block(original, "line one\n\nline three\n")
    assert markdown.get_block(with_block) == "line one\n\nline three\n"
    assert markdown.remove_block(with_block) == original
    with_ref = markdown.add_reference(original, "@/home/u/.codex/RTOK.md")
    assert markdown.has_reference(with_ref, "@/home/u/.codex/RTOK.md")
    assert markdown.remove_reference(with_ref, "@/home/u/.codex/RTOK.md") == original


KEYS = st.sampled_from(["model", "name", "x y", "profiles", "ünï", "a-b", "timeout"])
SCALARS = st.one_of(
    st.booleans(),
    st.integers(-1000, 1000),
    LINE,
    st.floats(allow_nan=False, allow_infinity=False, width=32),
)
TOML_VALUES = st.recursive(
    SCALARS,
    lambda inner: st.one_of(
        st.lists(SCALARS, max_size=3), st.dictionaries(KEYS, inner, max_size=3)
    ),
    max_leaves=8,
)


@st.composite
def toml_documents(draw: st.DrawFn) -> bytes:
    doc = draw(st.dictionaries(KEYS, TOML_VALUES, max_size=5))
    lines = tomlkit.dumps(doc).split("\n")
    if lines and not lines[-1]:
        lines.pop()
    out: list[str] = []
    for line in lines:
        if draw(st.integers(0, 4)) == 0:
            out.append(draw(st.sampled_from(["", "# user comment", "   ", "#"])))
        out.append(line)
    newline = draw(st.sampled_from(["\n", "\r\n"]))
    text = newline.join(out)
    if len(out) > 0 and draw(st.booleans()):
        text += newline
    assert tomllib.loads(text) == tomllib.loads(tomlkit.dumps(doc))
    return text.encode("utf-8")


@settings(max_examples=150, deadline=None)
@given(toml_documents(), st.booleans())
def test_toml_table_round_trip(original: bytes, array: bool) -> None:
    path = ("hooks",) if array else ("hooks", "state", "/p/hooks.json:pre_tool_use:0:0")
    values: dict[str, Any] = {"name": "rtok", "command": "/p/rtok hook vibe", "timeout": 30.0}
    installed = tomltext.add_table(original, path, values, array=array)
    found = tomltext.get(installed, path)
    if array:
        assert isinstance(found, list)
        found = found[-1]
    assert found == values
    removed = tomltext.remove_tables(
        installed, path, lambda t: t.get("name") == "rtok", array=array
    )
    assert removed == original


YAML_KEYS = st.sampled_from(["model", "provider", "security", "memory", "agent", "x"])


@st.composite
def yaml_documents(draw: st.DrawFn) -> bytes:
    unit = draw(st.sampled_from([2, 4]))
    newline = draw(st.sampled_from(["\n", "\r\n"]))
    lines: list[str] = []

    top_level: set[str] = set()

    def emit(depth: int, budget: int) -> None:
        keys = draw(st.lists(YAML_KEYS, unique=True, min_size=1, max_size=3))
        if depth == 0:
            keys = [key for key in keys if key not in top_level]
            top_level.update(keys)
        for key in keys:
            pad = " " * (unit * depth)
            if draw(st.integers(0, 3)) == 0:
                lines.append(pad + "# about " + key)
            kind = draw(
                st.sampled_from(["scalar", "map", "list", "flow"]) if budget else st.just("scalar")
            )
            if kind == "scalar":
                lines.append(f"{pad}{key}: {draw(st.sampled_from(['1', 'x', 'true', '[]']))}")
            elif kind == "flow":
                lines.append(f"{pad}{key}: [a, b]  # flow")
            elif kind == "list":
                lines.append(f"{pad}{key}:")
                dash = pad + (" " * unit if draw(st.booleans()) else "")
                lines.extend(f"{dash}- item{i}" for i in range(draw(st.integers(1, 3))))
            else:
                lines.append(f"{pad}{key}:")
                emit(depth + 1, budget - 1)
            if draw(st.integers(0, 4)) == 0:
                lines.append("")

    plugins = draw(st.sampled_from(["none", "empty", "block", "flow", "other-key"]))
    emit(0, 2)
    if plugins != "none":
        lines.append("plugins:")
        pad = " " * unit
        if plugins == "empty":
            lines.append(pad + "enabled:")
        elif plugins == "block":
            lines += [pad + "enabled:", pad * 2 + "- memory  # keep"]
        elif plugins == "flow":
            lines.append(pad + "enabled: [memory]")
        else:
            lines.append(pad + "disabled: [x]")
        if draw(st.booleans()):
            emit(0, 1)
    text = newline.join(lines)
    if draw(st.booleans()):
        text += newline
    return text.encode("utf-8")


@settings(max_examples=150, deadline=None)
@given(yaml_documents())
def test_yaml_list_round_trip(original: bytes) -> None:
    path = ("plugins", "enabled")
    created = len(path) - yamltext.existing_depth(original, path)
    installed = yamltext.append_to_list(original, path, "rtok")
    enabled = yamltext.get(installed, path)
    assert isinstance(enabled, list) and enabled[-1] == "rtok"
    assert installed.count(b"#") == original.count(b"#")
    removed = yamltext.remove_from_list(installed, path, lambda v: v == "rtok", prune=created)
    assert removed == original
