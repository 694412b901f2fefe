"""TOML tables appended and removed as text, on files with comments and inline tables."""

from __future__ import annotations

import tomllib

import pytest

from rtok.formats import tomltext
from rtok.formats.errors import FormatError

TRUST_PATH = ("hooks", "state", "/home/u/.codex/hooks.json:pre_tool_use:0:0")
TRUST = {"trusted_hash": "sha256:" + "ab" * 32}
VIBE = {
    "name": "rtok",
    "type": "pre_tool",
    "match": "bash",
    "command": "/opt/rtok/bin/rtok hook vibe",
    "timeout": 30.0,
}

DOCUMENTS: dict[str, bytes] = {
    "empty": b"",
    "comments-and-inline-tables": (
        b'# Codex config\nmodel = "gpt-5.5"  # pinned\n\n[model_providers.local]\n'
        b'name = "local"\nheaders = { "X-Key" = "1", other = true } # inline\n'
    ),
    "no-final-newline": b'model = "gpt-5.5"',
    "blank-lines-at-end": b'model = "gpt-5.5"\n\n\n',
    "crlf": b'# c\r\nmodel = "x"\r\n\r\n[profiles.fast]\r\nmodel = "y"\r\n',
    "bom": b'\xef\xbb\xbfmodel = "x"\n',
    "existing-hooks-state": (
        b'[hooks.state."/other/hooks.json:pre_tool_use:0:0"]\ntrusted_hash = "sha256:00"\n'
    ),
    "trailing-comment": b"[a]\nb = 1\n# end of file comment\n",
    "multiline-string": (b'prompt = """\n[hooks]\nnot a table\n"""\n'),
    "array-of-tables": (
        b'[[hooks]]\nname = "user-hook"\ntype = "pre_tool"\nmatch = "bash"\ncommand = "guard.sh"\n'
    ),
}


@pytest.mark.parametrize("name", sorted(DOCUMENTS))
def test_trust_table_round_trip(name: str) -> None:
    original = DOCUMENTS[name]
    if name == "array-of-tables":
        # [hooks.state."…"] after [[hooks]] would belong to the last [[hooks]] entry.
        with pytest.raises(FormatError):
            tomltext.add_table(original, TRUST_PATH, TRUST)
        return
    installed = tomltext.add_table(original, TRUST_PATH, TRUST)
    assert tomltext.get(installed, TRUST_PATH) == TRUST
    before = tomltext.parse(original)
    after = tomltext.parse(installed)
    hooks = after["hooks"]
    assert isinstance(hooks, dict)
    state = hooks["state"]
    assert isinstance(state, dict)
    state.pop(TRUST_PATH[-1])
    if not state:
        hooks.pop("state")
    if not hooks:
        after.pop("hooks")
    assert after == before
    assert tomltext.add_table(installed, TRUST_PATH, TRUST) == installed
    if original.strip():
        assert installed.startswith(original.rstrip(b"\r\n"))
    assert tomltext.remove_tables(installed, TRUST_PATH) == original


@pytest.mark.parametrize("name", [n for n in sorted(DOCUMENTS) if n != "existing-hooks-state"])
def test_array_of_tables_round_trip(name: str) -> None:
    original = DOCUMENTS[name]
    installed = tomltext.add_table(original, ("hooks",), VIBE, array=True)
    entries = tomltext.get(installed, ("hooks",))
    assert isinstance(entries, list) and entries[-1] == VIBE
    removed = tomltext.remove_tables(
        installed, ("hooks",), lambda t: t.get("name") == "rtok", array=True
    )
    assert removed == original


def test_changed_trust_hash_replaces_only_the_value_text() -> None:
    original = DOCUMENTS["comments-and-inline-tables"]
    first = tomltext.add_table(original, TRUST_PATH, TRUST)
    second = tomltext.add_table(first, TRUST_PATH, {"trusted_hash": "sha256:" + "cd" * 32})
    assert tomltext.get(second, TRUST_PATH) == {"trusted_hash": "sha256:" + "cd" * 32}
    assert second == first.replace(b"ab" * 32, b"cd" * 32)
    assert tomltext.remove_tables(second, TRUST_PATH) == original


def test_updating_a_table_written_by_someone_else_keeps_its_other_keys() -> None:
    doc = (
        b'[hooks.state."/home/u/.codex/hooks.json:pre_tool_use:0:0"]\n'
        b'trusted_hash = "sha256:00"   # set by the TUI\nenabled = true\n\n[other]\nx = 1\n'
    )
    out = tomltext.add_table(doc, TRUST_PATH, {"trusted_hash": "sha256:11", "note": "rtok"})
    assert out == (
        b'[hooks.state."/home/u/.codex/hooks.json:pre_tool_use:0:0"]\n'
        b'trusted_hash = "sha256:11"   # set by the TUI\nenabled = true\n'
        b'note = "rtok"\n\n[other]\nx = 1\n'
    )
    assert tomltext.add_table(out, TRUST_PATH, {"trusted_hash": "sha256:11"}) == out


def test_user_tables_after_ours_survive_removal() -> None:
    original = DOCUMENTS["comments-and-inline-tables"]
    installed = tomltext.add_table(original, TRUST_PATH, TRUST)
    edited = installed + b'\n# mine\n[profiles.x]\nmodel = "z"\n'
    removed = tomltext.remove_tables(edited, TRUST_PATH)
    assert removed == original + b'\n# mine\n[profiles.x]\nmodel = "z"\n'
    assert tomllib.loads(removed.decode())["profiles"] == {"x": {"model": "z"}}


def test_user_array_entry_is_kept() -> None:
    original = DOCUMENTS["array-of-tables"]
    installed = tomltext.add_table(original, ("hooks",), VIBE, array=True)
    removed = tomltext.remove_tables(
        installed, ("hooks",), lambda t: t.get("name") == "rtok", array=True
    )
    user_entries = tomltext.parse(original)["hooks"]
    assert isinstance(user_entries, list)
    assert tomltext.get(removed, ("hooks",)) == [user_entries[0]]


def test_header_inside_a_multiline_string_is_not_cut() -> None:
    original = DOCUMENTS["multiline-string"]
    assert tomltext.remove_tables(original, ("hooks",)) == original


@pytest.mark.parametrize(
    ("data", "line"),
    [
        (b"a = 1\nb = \n", 2),
        (b"[t]\nx = 1\n[t]\ny = 2\n", 3),
        (b'ok = true\nname = "unterminated\n', 2),
    ],
)
def test_malformed_toml_names_the_line(data: bytes, line: int) -> None:
    with pytest.raises(FormatError) as caught:
        tomltext.add_table(data, TRUST_PATH, TRUST, label="config.toml")
    assert caught.value.line == line
    assert str(caught.value).startswith(f"config.toml:{line}: ")


def test_conflicting_shapes_are_refused_with_the_defining_line() -> None:
    inline = b'model = "x"\nhooks = { state = 1 }\n'
    with pytest.raises(FormatError) as caught:
        tomltext.add_table(inline, TRUST_PATH, TRUST)
    assert caught.value.line == 2
    plain = b"a = 1\n[hooks]\nx = 1\n"
    with pytest.raises(FormatError) as caught:
        tomltext.add_table(plain, ("hooks",), VIBE, array=True)
    assert caught.value.line == 2


def test_rendering_quotes_keys_and_escapes() -> None:
    text = tomltext.render_table(
        ("a", "b c", 'q"'), {"s": 'x"\\\n\x7f', "l": [1, 2.5, True], "t": {"k": "v"}}
    )
    parsed = tomllib.loads(text)
    assert parsed == {
        "a": {"b c": {'q"': {"s": 'x"\\\n\x7f', "l": [1, 2.5, True], "t": {"k": "v"}}}}
    }
