"""Property: random Markdown and TOML user files (any text, CRLF or LF, BOM, final newline
or not) come back byte for byte after rtok's marked block, `@` line or `[[hooks]]` entry is
added and removed again."""

from __future__ import annotations

import tomllib

from hypothesis import given, settings
from hypothesis import strategies as st

from rtok.formats.errors import FormatError
from rtok.install import integrations
from rtok.install.model import Action, FileEdit, InstallContext

HOME = "/home/someone"
CTX = InstallContext(
    home=HOME,
    env={"HOME": HOME},
    project_root="/work/project",
    rtok_bin="/usr/local/bin/rtok",
    auto_patch=True,
)

line_text = st.text(
    st.characters(blacklist_categories=("Cs", "Cc"), blacklist_characters="\u2028\u2029\x85"),
    max_size=30,
)
# Lines a user could have written, including ones that look like rtok's own but are not.
user_lines = st.one_of(
    line_text,
    st.sampled_from(
        [
            "",
            "# Title",
            "- item",
            "@docs/STYLE.md",
            "<!-- rtk-instructions -->",
            "<!-- rtok:someone-else -->",
            "@RTOK.md.bak",
            "```",
            "    code",
        ]
    ),
)


@st.composite
def text_files(draw: st.DrawFn) -> bytes:
    lines = draw(st.lists(user_lines, max_size=8))
    newline = draw(st.sampled_from(["\n", "\r\n"]))
    text = newline.join(lines)
    if len(lines) > 0 and draw(st.booleans()):
        text += newline
    data = text.encode("utf-8")
    return (b"\xef\xbb\xbf" + data) if draw(st.booleans()) else data


def _edit(agent: str, scope: str, kind: str, action: Action) -> FileEdit:
    [edit] = [e for e in integrations.edits_for(agent, scope, action, CTX) if e.kind == kind]
    return edit


@settings(max_examples=200, deadline=None)
@given(
    original=text_files(),
    target=st.sampled_from(
        [
            ("kimi", "project", "awareness_block"),
            ("claude", "global", "reference_line"),
            ("codex", "global", "reference_line"),
        ]
    ),
)
def test_markdown_round_trip(original: bytes, target: tuple[str, str, str]) -> None:
    agent, scope, kind = target
    try:
        installed = _edit(agent, scope, kind, "install").transform(original)
    except FormatError as exc:  # rtok's text would land inside the user's open code block
        assert "fence" in str(exc)
        return
    assert installed is not None and installed != original
    assert _edit(agent, scope, kind, "install").transform(installed) == installed
    assert _edit(agent, scope, kind, "uninstall").transform(installed) == original


toml_keys = st.from_regex(r"[a-z][a-z0-9_]{0,6}", fullmatch=True).filter(lambda k: k != "hooks")
toml_scalars = st.one_of(
    st.integers(-1000, 1000),
    st.booleans(),
    st.text(st.characters(exclude_categories=("Cs", "Cc")), max_size=8),
)


@st.composite
def toml_files(draw: st.DrawFn) -> bytes:
    newline = draw(st.sampled_from(["\n", "\r\n"]))
    lines: list[str] = []
    if draw(st.booleans()):
        lines.append("# my settings")
    for key, value in draw(st.dictionaries(toml_keys, toml_scalars, max_size=4)).items():
        rendered = (
            str(value).lower()
            if isinstance(value, bool)
            else str(value)
            if isinstance(value, int)
            else '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
        )
        lines.append(f"{key} = {rendered}" + (" # note" if draw(st.booleans()) else ""))
    for index in range(draw(st.integers(0, 2))):
        lines.extend(["", "[[hooks]]", f'name = "user-{index}"', 'command = "guard"'])
    text = newline.join(lines)
    if len(lines) > 0 and draw(st.booleans()):
        text += newline
    return text.encode("utf-8")


@settings(max_examples=150, deadline=None)
@given(original=toml_files())
def test_vibe_hooks_toml_round_trip(original: bytes) -> None:
    tomllib.loads(original.decode())  # the generator wrote valid TOML
    installed = _edit("vibe", "global", "settings_entry", "install").transform(original)
    assert installed is not None
    hooks = tomllib.loads(installed.decode("utf-8"))["hooks"]
    assert [h["name"] for h in hooks].count("rtok") == 1
    assert _edit("vibe", "global", "settings_entry", "install").transform(installed) == installed
    assert _edit("vibe", "global", "settings_entry", "uninstall").transform(installed) == original
