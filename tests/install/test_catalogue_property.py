"""Property: for random JSON/JSONC settings documents in random layouts, install then
uninstall gives the document back byte for byte, and the installed document parses with
rtok's entry in place. Runs the real per-agent edits (grouped, flat and named hooks)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rtok.formats import dialects, jsonc
from rtok.formats.errors import FormatError
from rtok.install import integrations
from rtok.install.model import Action, FileEdit, InstallContext
from rtok.install.targets.commands import is_rtok_hook_command

HOME = "/home/someone"
CTX = InstallContext(
    home=HOME,
    env={"HOME": HOME},
    project_root=None,
    rtok_bin="/usr/local/bin/rtok",
    auto_patch=True,
)
# (agent, settings file): grouped (Claude, Droid at the root), flat (Cursor, Copilot), named
TARGETS = [
    ("claude", f"{HOME}/.claude/settings.json"),
    ("droid", f"{HOME}/.factory/hooks.json"),
    ("cursor", f"{HOME}/.cursor/hooks.json"),
    ("copilot", f"{HOME}/.copilot/hooks/rtok.json"),
    ("antigravity", f"{HOME}/.gemini/config/hooks.json"),
]


def _edit(agent: str, path: str, action: Action) -> FileEdit:
    [edit] = [e for e in integrations.edits_for(agent, "global", action, CTX) if e.path == path]
    return edit


def _commands(value: object) -> list[str]:
    found: list[str] = []
    if isinstance(value, dict):
        for key, item in value.items():
            if key in ("command", "bash") and isinstance(item, str):
                found.append(item)
            found.extend(_commands(item))
    elif isinstance(value, list):
        for item in value:
            found.extend(_commands(item))
    return found


scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**6), 10**6),
    st.floats(allow_nan=False, allow_infinity=False, width=32),
    st.text(st.characters(exclude_categories=["Cs"]), max_size=8),
)
keys = st.text(st.characters(exclude_categories=["Cs"]), min_size=1, max_size=6).filter(
    lambda k: k not in ("hooks", "PreToolUse", "rtok", "version")
)
values = st.recursive(
    scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(keys, inner, max_size=3)),
    max_leaves=8,
)
user_handler = st.fixed_dictionaries(
    {
        "type": st.sampled_from(["command", "prompt"]),
        "command": st.sampled_from(
            [
                "audit",
                "rtk hook claude",
                "echo rtok hook claude",
                "/x/not-rtok hook cursor",
                "guard --strict",
            ]
        ),
    }
)
user_group = st.fixed_dictionaries(
    {
        "matcher": st.sampled_from(["Bash", "Execute", "*", "Shell", ""]),
        "hooks": st.lists(user_handler, min_size=1, max_size=2),
    }
)
hooks_table = st.fixed_dictionaries(
    {},
    optional={
        "PreToolUse": st.lists(user_group, min_size=1, max_size=3),
        "preToolUse": st.lists(user_handler, min_size=1, max_size=2),
        "Stop": st.lists(user_group, min_size=1, max_size=1),
    },
)
documents = st.builds(
    lambda base, hooks, root_groups: {
        **base,
        **({"hooks": hooks} if hooks else {}),
        **({"PreToolUse": root_groups} if root_groups else {}),
    },
    st.dictionaries(keys, values, max_size=4),
    st.one_of(st.none(), hooks_table.filter(bool)),
    st.one_of(st.none(), st.lists(user_group, min_size=1, max_size=2)),
)


@st.composite
def layouts(draw: st.DrawFn) -> dict[str, Any]:
    return {
        "indent": draw(st.sampled_from([None, "  ", "    ", "\t", " "])),
        "colon": draw(st.sampled_from([": ", ":", " : "])),
        "trailing_commas": draw(st.booleans()),
        "comments": draw(st.booleans()),
        "bom": draw(st.booleans()),
        "crlf": draw(st.booleans()),
        "final_newline": draw(st.booleans()),
        "seed": draw(st.integers(0, 1000)),
    }


def render(value: object, layout: dict[str, Any], depth: int = 0) -> str:
    """A test-only JSON/JSONC writer with the chosen layout quirks."""
    indent = layout["indent"]
    newline = "\r\n" if layout["crlf"] else "\n"
    if isinstance(value, dict):
        items = [
            f"{json.dumps(k)}{layout['colon']}{render(v, layout, depth + 1)}"
            for k, v in value.items()
        ]
        return _container("{", "}", items, layout, depth, indent, newline)
    if isinstance(value, list):
        items = [render(v, layout, depth + 1) for v in value]
        return _container("[", "]", items, layout, depth, indent, newline)
    return json.dumps(value, ensure_ascii=(layout["seed"] % 2 == 0))


def _container(
    opener: str,
    closer: str,
    items: list[str],
    layout: dict[str, Any],
    depth: int,
    indent: str | None,
    newline: str,
) -> str:
    if not items:
        return opener + closer
    comment = layout["comments"] and (layout["seed"] + depth) % 3 == 0
    trailing = "," if layout["trailing_commas"] else ""
    if indent is None:
        body = ",".join(items) + trailing
        return opener + ("/* c */" if comment else "") + body + closer
    inner = indent * (depth + 1)
    lines = [inner + item for item in items]
    if comment:
        lines.insert(0, inner + "// user note")
        lines = [
            line + ("," if i and i < len(lines) - 1 else "") if i else line
            for i, line in enumerate(lines)
        ]
        lines[-1] += trailing
    else:
        lines = [line + ("," if i < len(lines) - 1 else trailing) for i, line in enumerate(lines)]
    return opener + newline + newline.join(lines) + newline + indent * depth + closer


def to_bytes(doc: dict[str, Any], layout: dict[str, Any]) -> bytes:
    text = render(doc, layout)
    if layout["final_newline"]:
        text += "\r\n" if layout["crlf"] else "\n"
    data = text.encode("utf-8")
    return (b"\xef\xbb\xbf" + data) if layout["bom"] else data


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(doc=documents, layout=layouts(), target=st.sampled_from(TARGETS))
def test_install_then_uninstall_is_byte_identical(
    doc: dict[str, Any], layout: dict[str, Any], target: tuple[str, str]
) -> None:
    agent, path = target
    original = to_bytes(doc, layout)
    assert jsonc.parse(original) == doc  # the generator wrote what it meant to
    install = _edit(agent, path, "install")
    if dialects.host_problem(original, install.dialect) is not None:
        # Comments or trailing commas the host cannot read: refused, never edited.
        with pytest.raises(FormatError):
            install.transform(original)
        return
    installed = install.transform(original)
    assert installed is not None
    parsed = jsonc.parse(installed, label=path)
    ours = [c for c in _commands(parsed) if is_rtok_hook_command(c, agent)]
    assert len(ours) == 1, f"rtok's entry is not in place exactly once: {ours}"
    assert _edit(agent, path, "install").transform(installed) == installed
    assert _edit(agent, path, "uninstall").transform(installed) == original
