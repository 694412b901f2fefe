"""JSON/JSONC editor on real-world shaped settings files: insert, parse, remove, compare bytes."""

from __future__ import annotations

import json
from typing import Any

import json5
import pytest

from rtok.formats import jsonc
from rtok.formats.errors import FormatError

RTOK_GROUP = {
    "matcher": "Bash",
    "hooks": [{"type": "command", "command": "'/opt/my tools/rtok' hook claude", "timeout": 10}],
}
HOOKS = ("hooks", "PreToolUse")

CATALOGUE: dict[str, bytes] = {
    "missing-file-as-empty": b"",
    "empty-object": b"{}",
    "empty-object-newline": b"{}\n",
    "two-space": b'{\n  "model": "opus",\n  "env": {\n    "A": "1"\n  }\n}\n',
    "four-space": b'{\n    "model": "opus",\n    "permissions": {\n        "allow": []\n    }\n}\n',
    "tabs": b'{\n\t"model": "opus",\n\t"hooks": {}\n}\n',
    "minified": b'{"model":"opus","hooks":{"PreToolUse":[{"matcher":"Edit","hooks":[]}]}}',
    "minified-spaced": b'{"model": "opus", "env": {"A": "1"}}',
    "bom": b'\xef\xbb\xbf{\n  "model": "opus"\n}\n',
    "crlf": b'{\r\n  "model": "opus",\r\n  "hooks": {\r\n    "PreToolUse": []\r\n  }\r\n}\r\n',
    "bom-crlf-no-final-newline": b'\xef\xbb\xbf{\r\n    "a": [1, 2]\r\n}',
    "no-final-newline": b'{\n  "model": "opus"\n}',
    "jsonc-comments": (
        b'// user settings\n{\n  /* the model */\n  "model": "opus", // pinned\n'
        b'  "hooks": {\n    // mine\n    "PreToolUse": [\n      {"matcher": "Edit",'
        b' "hooks": [{"type": "command", "command": "fmt.sh"}]} // formatter\n'
        b"    ]\n  }\n}\n"
    ),
    "jsonc-trailing-commas": (
        b'{\n  "model": "opus",\n  "hooks": {\n    "PreToolUse": [\n'
        b'      {"matcher": "Edit", "hooks": []},\n    ],\n  },\n}\n'
    ),
    "user-hook-same-matcher": (
        b'{\n  "hooks": {\n    "PreToolUse": [\n      {\n'
        b'        "matcher": "Bash",\n        "hooks": [\n'
        b'          {"type": "command", "command": "guard.sh"}\n'
        b"        ]\n      }\n    ]\n  }\n}\n"
    ),
    "other-tools": (
        b'{\n  "hooks": {\n    "PreToolUse": [\n      {"matcher": "*", "hooks": '
        b'[{"type": "command", "command": "other-tool hook"}]}\n    ],\n'
        b'    "PostToolUse": [{"matcher": "Write", "hooks": []}]\n  },\n'
        b'  "mcpServers": {"x": {"command": "x"}}\n}\n'
    ),
    "empty-hooks-array-inline": b'{\n  "hooks": {"PreToolUse": []}\n}\n',
    "empty-object-with-newline": b"{\n}\n",
    "empty-object-comment": b"{\n  // nothing yet\n}\n",
    "comment-after-last": b'{\n  "a": 1 // trailing note\n}\n',
    "block-comment-after-last": b'{\n  "a": 1 /* note */\n}\n',
    "closing-on-same-line": b'{\n  "a": 1,\n  "b": 2}\n',
    "unicode": '{\n  "name": "ünïcødé ✓",\n  "emoji": "🎉"\n}\n'.encode(),
    "deep-indent-mixed": b'{\n  "a": {\n      "b": 1\n  },\n  "c": 2\n}\n',
    "duplicate-key": b'{\n  "hooks": {"PreToolUse": [1]},\n  "hooks": {}\n}\n',
}


def _expected_after_append(before: Any, path: tuple[str, ...], item: object) -> Any:
    doc = json.loads(json.dumps(before)) if before is not None else {}
    node = doc
    for key in path[:-1]:
        node = node.setdefault(key, {})
    node.setdefault(path[-1], []).append(item)
    return doc


def _json5(data: bytes) -> object:
    return json5.loads(data.decode("utf-8").lstrip("\ufeff"))


@pytest.mark.parametrize("name", sorted(CATALOGUE))
def test_append_then_remove_is_byte_identical(name: str) -> None:
    original = CATALOGUE[name]
    before = jsonc.parse(original)
    if original.strip():
        assert before == _json5(original), "our reader and json5 disagree"
    created = len(HOOKS) - jsonc.existing_depth(original, HOOKS)

    installed = jsonc.append_to_array(original, HOOKS, RTOK_GROUP)

    assert jsonc.parse(installed) == _expected_after_append(before, HOOKS, RTOK_GROUP)
    assert _json5(installed) == jsonc.parse(installed)
    entries = jsonc.get(installed, HOOKS)
    assert isinstance(entries, list)
    assert entries[-1] == RTOK_GROUP
    _check_layout_kept(original, installed)

    removed = jsonc.remove_array_items(installed, HOOKS, lambda v: v == RTOK_GROUP, prune=created)
    if original.strip():
        assert removed == original
    else:
        assert jsonc.parse(removed) == {}


def _check_layout_kept(original: bytes, installed: bytes) -> None:
    """The BOM, the line endings, the final newline and strict JSON survive an append."""
    assert installed.startswith(b"\xef\xbb\xbf") == original.startswith(b"\xef\xbb\xbf")
    if b"\r\n" in original:
        assert installed.count(b"\n") == installed.count(b"\r\n"), "CRLF file got bare LF"
    if original.strip():
        assert installed.endswith(b"\n") == original.endswith(b"\n")
    stripped = original.lstrip(b"\xef\xbb\xbf")
    if stripped.strip():
        try:
            json.loads(stripped)
        except json.JSONDecodeError:
            pass
        else:  # strict JSON stays strict JSON
            json.loads(installed.lstrip(b"\xef\xbb\xbf"))


@pytest.mark.parametrize("name", sorted(CATALOGUE))
def test_second_append_then_two_removals(name: str) -> None:
    original = CATALOGUE[name]
    if not original.strip():
        return
    created = len(HOOKS) - jsonc.existing_depth(original, HOOKS)
    other = {"matcher": "Bash", "hooks": [{"type": "command", "command": "/x/rtok hook codex"}]}
    once = jsonc.append_to_array(original, HOOKS, RTOK_GROUP)
    twice = jsonc.append_to_array(once, HOOKS, other)
    entries = jsonc.get(twice, HOOKS)
    assert isinstance(entries, list)
    assert entries[-2:] == [RTOK_GROUP, other]
    back = jsonc.remove_array_items(twice, HOOKS, lambda v: v == other)
    assert back == once
    assert (
        jsonc.remove_array_items(back, HOOKS, lambda v: v == RTOK_GROUP, prune=created) == original
    )


def test_fresh_document_is_pretty_with_final_newline() -> None:
    fresh = jsonc.append_to_array(None, HOOKS, {"a": 1})
    assert (
        fresh == b'{\n  "hooks": {\n    "PreToolUse": [\n      {\n        "a": 1\n      }\n'
        b"    ]\n  }\n}\n"
    )


def test_indentation_is_learned_from_the_file() -> None:
    tabs = jsonc.append_to_array(CATALOGUE["tabs"], HOOKS, "x")
    assert b'\n\t"hooks": {\n\t\t"PreToolUse": [\n\t\t\t"x"\n\t\t]\n\t}\n' in tabs
    four = jsonc.append_to_array(CATALOGUE["four-space"], ("permissions", "allow"), "Bash(x)")
    assert b'        "allow": [\n            "Bash(x)"\n        ]' in four
    mini = jsonc.append_to_array(CATALOGUE["minified"], HOOKS, {"k": [1, 2]})
    assert mini.endswith(b',{"k":[1,2]}]}}')


def test_remove_leaves_user_entries_of_the_same_matcher() -> None:
    original = CATALOGUE["user-hook-same-matcher"]
    installed = jsonc.append_to_array(original, HOOKS, RTOK_GROUP)
    groups = jsonc.get(installed, HOOKS)
    assert isinstance(groups, list) and len(groups) == 2
    assert groups[0]["hooks"][0]["command"] == "guard.sh"
    assert jsonc.remove_array_items(installed, HOOKS, lambda v: v == RTOK_GROUP) == original


def test_remove_only_rtok_hook_inside_a_shared_group() -> None:
    doc = (
        b'{\n  "hooks": {\n    "PreToolUse": [\n      {\n        "matcher": "Bash",\n'
        b'        "hooks": [\n          {"type": "command", "command": "guard.sh"},\n'
        b'          {"type": "command", "command": "/x/rtok hook claude"}\n'
        b"        ]\n      }\n    ]\n  }\n}\n"
    )
    out = jsonc.remove_array_items(
        doc,
        ("hooks", "PreToolUse", 0, "hooks"),
        lambda v: isinstance(v, dict) and "rtok" in v["command"],
    )
    assert out == (
        b'{\n  "hooks": {\n    "PreToolUse": [\n      {\n        "matcher": "Bash",\n'
        b'        "hooks": [\n          {"type": "command", "command": "guard.sh"}\n'
        b"        ]\n      }\n    ]\n  }\n}\n"
    )


def test_absent_path_removal_returns_same_bytes() -> None:
    for doc in (b'{"a": 1}', b'{"hooks": 3}', b"[1, 2]"):
        assert jsonc.remove_array_items(doc, HOOKS, lambda v: True) == doc


def test_set_and_remove_key() -> None:
    original = CATALOGUE["jsonc-comments"]
    created = 2 - jsonc.existing_depth(original, ("env", "RTOK"))
    assert created == 2
    out = jsonc.set_key(original, ("env", "RTOK"), "1")
    assert jsonc.get(out, ("env", "RTOK")) == "1"
    assert jsonc.set_key(out, ("env", "RTOK"), "1") == out
    changed = jsonc.set_key(out, ("env", "RTOK"), {"x": [1]})
    assert jsonc.get(changed, ("env", "RTOK")) == {"x": [1]}
    assert b"// pinned" in changed and b"// formatter" in changed
    assert jsonc.remove_key(out, ("env", "RTOK"), prune=created - 1) == original
    assert jsonc.remove_key(original, ("nope",)) == original


def test_remove_array_item_at_index() -> None:
    assert jsonc.remove_array_item_at(b"[1, 2, 3]", (1,)) == b"[1, 3]"
    assert jsonc.remove_array_item_at(b"[\n  1,\n  2\n]", (-1,)) == b"[\n  1\n]"


MALFORMED = [
    (b'{\n  "a": 1,\n  "b": \n}\n', 4),
    (b'{\n  "a": 1\n  "b": 2\n}\n', 3),
    (b'{\n  "a": [1, 2\n}\n', 3),
    (b'{\n  "a": "unterminated\n}\n', 2),
    (b"{\n  /* never closed\n", 2),
    (b"{\n  a: 1\n}\n", 2),
    (b'{"a": 1}\n{"b": 2}\n', 2),
    (b"// only a comment\n", 1),
    (b'{\n  "a": [1,,2]\n}', 2),
    (b'{\n  "a": "\xff"\n}', 2),
    (b'{\n  "a": tru\n}', 2),
]


@pytest.mark.parametrize(("data", "line"), MALFORMED)
def test_malformed_input_names_the_line(data: bytes, line: int) -> None:
    with pytest.raises(FormatError) as caught:
        jsonc.append_to_array(data, HOOKS, 1, label="/home/u/.claude/settings.json")
    assert caught.value.line == line
    assert caught.value.label == "/home/u/.claude/settings.json"
    assert str(caught.value).startswith(f"/home/u/.claude/settings.json:{line}: ")
    with pytest.raises(FormatError):
        jsonc.remove_array_items(data, HOOKS, lambda v: True)
    with pytest.raises(FormatError):
        jsonc.parse(data)


def test_wrong_shape_is_refused_with_line() -> None:
    with pytest.raises(FormatError) as caught:
        jsonc.append_to_array(b'{\n  "hooks": {\n    "PreToolUse": {}\n  }\n}\n', HOOKS, 1)
    assert caught.value.line == 3
    with pytest.raises(FormatError):
        jsonc.append_to_array(b"[1]", HOOKS, 1)
    with pytest.raises(FormatError):
        jsonc.append_to_array(b"null", HOOKS, 1)


def test_values_json_cannot_hold_are_programming_errors() -> None:
    with pytest.raises(TypeError):
        jsonc.append_to_array(b"{}", HOOKS, {1: 2})
    with pytest.raises(TypeError):
        jsonc.append_to_array(b"{}", HOOKS, float("nan"))
    with pytest.raises(TypeError):
        jsonc.set_key(b"{}", ("env", "\ud800"), "lone surrogate")
    with pytest.raises(ValueError):
        jsonc.set_key(b"{}", ("list", 0), 1)
