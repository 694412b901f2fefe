"""Property: on JSON/JSONC documents with random formatting, append-then-remove gives the
original bytes back and the appended document parses (ours and json5) with the entry in place."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from typing import Any

import json5
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rtok.formats import jsonc
from rtok.formats.errors import FormatError

ITEM = {
    "matcher": "Bash",
    "hooks": [{"type": "command", "command": "/opt/rtok/bin/rtok hook claude", "timeout": 30}],
}
PATH = ("hooks", "PreToolUse")
# More examples for a long soak run: RTOK_FORMATS_EXAMPLES=5000 pytest tests/formats
EXAMPLES = int(os.environ.get("RTOK_FORMATS_EXAMPLES", "200"))

KEYS = st.sampled_from(["a", "model", "env", "permissions", "x y", "ünï", "hooks2", "A"])
SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**6), 10**6),
    st.floats(allow_nan=False, allow_infinity=False, width=32),
    st.text(st.characters(max_codepoint=0xFFFF, exclude_categories=["Cs"]), max_size=8),
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(KEYS, inner, max_size=4)),
    max_leaves=12,
)


@dataclass(frozen=True)
class Layout:
    unit: str
    newline: str
    comments: bool
    trailing_commas: bool
    pretty: bool


LAYOUTS = st.builds(
    Layout,
    unit=st.sampled_from(["", " ", "  ", "    ", "\t"]),
    newline=st.sampled_from(["\n", "\r\n"]),
    comments=st.booleans(),
    trailing_commas=st.booleans(),
    pretty=st.booleans(),
)


def _gap(draw: st.DrawFn, layout: Layout, depth: int) -> str:
    """Whitespace and comments between two tokens."""
    nl = layout.newline
    choices = [
        "",
        " ",
        "  ",
        "\t",
        nl,
        nl + layout.unit * depth,
        nl + layout.unit * (depth + 1),
        nl + nl + layout.unit * depth,
    ]
    if layout.comments:
        choices += [
            "/* c */",
            " /* two\n words */ ".replace("\n", nl),
            " // note" + nl,
            nl + layout.unit * depth + "// line" + nl + layout.unit * depth,
        ]
    return draw(st.sampled_from(choices))


def _render(draw: st.DrawFn, value: Any, layout: Layout, depth: int) -> str:
    if isinstance(value, dict | list) and value:
        opener, closer = ("{", "}") if isinstance(value, dict) else ("[", "]")
        entries = list(value.items()) if isinstance(value, dict) else [(None, v) for v in value]
        pretty = layout.pretty and draw(st.booleans())
        inner = layout.newline + layout.unit * (depth + 1)
        parts = []
        for key, inner_value in entries:
            head = inner if pretty else _gap(draw, layout, depth + 1)
            text = _render(draw, inner_value, layout, depth + 1)
            if key is not None:
                text = _keyed(draw, key, layout) + text
            parts.append(head + text + ("" if pretty else _gap(draw, layout, depth + 1)))
        body = ",".join(parts)
        if layout.trailing_commas and draw(st.booleans()):
            body += ","
        tail = layout.newline + layout.unit * depth if pretty else _gap(draw, layout, depth)
        return opener + body + tail + closer
    if isinstance(value, dict | list):
        return _render_empty(draw, value, layout, depth)
    return json.dumps(value, ensure_ascii=draw(st.booleans()))


def _render_empty(
    draw: st.DrawFn, value: dict[str, Any] | list[Any], layout: Layout, depth: int
) -> str:
    filler = draw(
        st.sampled_from(["", "", " ", layout.newline, layout.newline + layout.unit * depth])
    )
    opener, closer = ("{", "}") if isinstance(value, dict) else ("[", "]")
    return opener + filler + closer


def _keyed(draw: st.DrawFn, key: str, layout: Layout) -> str:
    """A member's key and colon, with a comment around the colon where the layout has them."""
    colons = [":", ": ", " : "]
    if layout.comments:
        colons += [" /* k */ : ", ":/* v */ "]
    colon = draw(st.sampled_from(colons))
    return json.dumps(key, ensure_ascii=draw(st.booleans())) + colon


@st.composite
def documents(draw: st.DrawFn) -> tuple[bytes, Any]:
    layout = draw(LAYOUTS)
    root: dict[str, Any] = draw(st.dictionaries(KEYS, VALUES, max_size=4))
    shape = draw(
        st.sampled_from(["none", "empty-hooks", "hooks-with-other", "empty-array", "array"])
    )
    if shape != "none":
        hooks: dict[str, Any] = {}
        if shape == "hooks-with-other":
            hooks["PostToolUse"] = draw(st.lists(VALUES, max_size=2))
        if shape in ("empty-array", "array"):
            hooks["PreToolUse"] = draw(st.lists(VALUES, max_size=3)) if shape == "array" else []
        root["hooks"] = hooks
        if draw(st.booleans()):  # hooks somewhere in the middle of the object
            keys = list(root)
            reordered = draw(st.permutations(keys))
            root = {key: root[key] for key in reordered}
    text = _render(draw, root, layout, 0)
    if layout.comments and draw(st.booleans()):
        text += draw(st.sampled_from([" // end", layout.newline + "/* end */"]))
    if draw(st.booleans()):
        text += layout.newline
    if layout.comments and draw(st.booleans()):
        text = "// settings" + layout.newline + text
    bom = "\ufeff" if draw(st.booleans()) else ""
    return (bom + text).encode("utf-8"), root


def _appended(root: Any) -> Any:
    doc = json.loads(json.dumps(root))
    doc.setdefault("hooks", {}).setdefault("PreToolUse", []).append(ITEM)
    return doc


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(documents())
def test_append_then_remove_is_byte_identical(case: tuple[bytes, Any]) -> None:
    original, root = case
    assert jsonc.parse(original) == root
    created = len(PATH) - jsonc.existing_depth(original, PATH)

    installed = jsonc.append_to_array(original, PATH, ITEM)

    assert jsonc.parse(installed) == _appended(root)
    assert json5.loads(installed.decode("utf-8").lstrip("\ufeff")) == _appended(root)
    assert installed.startswith(b"\xef\xbb\xbf") == original.startswith(b"\xef\xbb\xbf")
    assert installed.endswith(b"\n") == original.endswith(b"\n")
    if b"\r\n" in original and original.count(b"\n") == original.count(b"\r\n"):
        assert installed.count(b"\n") == installed.count(b"\r\n")

    removed = jsonc.remove_array_items(installed, PATH, lambda v: v == ITEM, prune=created)
    assert removed == original


@settings(max_examples=EXAMPLES // 3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(documents(), st.sampled_from([("env", "RTOK_X"), ("hooks", "rtok"), ("model",)]))
def test_set_then_remove_key_is_byte_identical(
    case: tuple[bytes, Any], path: tuple[str, ...]
) -> None:
    original, _root = case
    existing = jsonc.existing_depth(original, path)
    if existing == len(path):
        return  # replacing a user's value is not an inverse pair
    if existing and not isinstance(jsonc.get(original, path[:existing]), dict):
        with pytest.raises(FormatError):  # the path runs through a non-object: refused
            jsonc.set_key(original, path, {"on": True})
        return
    installed = jsonc.set_key(original, path, {"on": True})
    assert jsonc.get(installed, path) == {"on": True}
    assert json5.loads(installed.decode("utf-8").lstrip("\ufeff")) == jsonc.parse(installed)
    removed = jsonc.remove_key(installed, path, prune=len(path) - existing - 1)
    assert removed == original


OTHER = {"matcher": "Write", "hooks": [{"type": "command", "command": "user-guard.sh"}]}


@settings(max_examples=EXAMPLES // 2, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(documents())
def test_entry_added_after_rtok_survives_its_removal(case: tuple[bytes, Any]) -> None:
    """The user (or another tool) appends after rtok's entry; removing rtok's entry leaves
    exactly what appending theirs alone would have produced."""
    original, _root = case
    created = len(PATH) - jsonc.existing_depth(original, PATH)
    both = jsonc.append_to_array(jsonc.append_to_array(original, PATH, ITEM), PATH, OTHER)
    removed = jsonc.remove_array_items(both, PATH, lambda v: v == ITEM, prune=created)
    assert removed == jsonc.append_to_array(original, PATH, OTHER)
