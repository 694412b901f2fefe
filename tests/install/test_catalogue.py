"""Install -> install again -> uninstall gives every user file back byte for byte.

For every agent and scope, every file rtok edits (rather than owns whole) is pre-filled with
each fixture of its format from tests/install/fixtures/ (JSONC with comments and trailing
commas, tab/4-space/minified JSON, BOM, CRLF, no final newline, user hooks in the same
matcher group, other tools' entries, YAML with comments and anchors, TOML with comments and
inline tables, Markdown with user text around). Files rtok creates must be gone afterwards,
and so must the directories it created.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from agent_harness import (
    FORMAT_OF_STRATEGY,
    Sandbox,
    agent_scopes,
    all_dirs,
    all_files,
    fixture_bytes,
    fixture_names,
    read,
)

from rtok.formats import dialects, jsonc, tomltext, yamltext
from rtok.formats.errors import FormatError
from rtok.install import integrations
from rtok.install.specs import FileSpec

AGENT_SCOPES = list(agent_scopes())
# A fixture that is not a valid file of that kind: install must refuse it (tested below).
INCOMPATIBLE = {
    ("codex_trust", "user_hooks_array.toml"),
    ("toml_hook_table", "codex_trusted_other.toml"),
    ("toml_hook_table", "codex_inline_hooks.toml"),  # `hooks` is a table, not [[hooks]]
    ("toml_hook_group", "user_hooks_array.toml"),  # same file as the refused trust entry
}


def _sandbox(tmp_path: Path) -> Sandbox:
    home = tmp_path / "h"
    project = tmp_path / "p"
    home.mkdir()
    project.mkdir()
    return Sandbox(home=str(home), project=str(project))


def _edited_files(agent: str, scope: str, box: Sandbox) -> list[tuple[str, str]]:
    """(path, fixture folder) of every file this install edits rather than owns whole."""
    descriptor = integrations.get_descriptor(agent)
    ctx = box.context(scope)
    found: list[tuple[str, str]] = []
    for spec in descriptor.files[scope]:
        folder = FORMAT_OF_STRATEGY[spec.strategy]
        if folder is None:
            continue
        path = integrations.expand_path(spec.path, scope, ctx, user_file=spec.user_file)
        found.append((path, folder))
    return found


def test_the_catalogue_has_at_least_thirty_user_files() -> None:
    total = sum(len(fixture_names(folder)) for folder in ("json", "yaml", "toml", "md"))
    assert total >= 30


@pytest.mark.parametrize(("agent", "scope"), AGENT_SCOPES)
def test_round_trip_without_pre_existing_files(agent: str, scope: str, tmp_path: Path) -> None:
    box = _sandbox(tmp_path)
    before_files = all_files(str(tmp_path))
    before_dirs = all_dirs(str(tmp_path))
    changed = box.apply(box.edits(agent, scope, "install"))
    assert changed, f"{agent} {scope}: install changed nothing"
    snapshot = all_files(str(tmp_path))
    assert box.apply(box.edits(agent, scope, "install")) == []
    assert all_files(str(tmp_path)) == snapshot
    assert integrations.installed_scopes(
        integrations.get_descriptor(agent), box.context(scope)
    ) == [scope]
    box.apply(box.edits(agent, scope, "uninstall"))
    assert all_files(str(tmp_path)) == before_files
    assert all_dirs(str(tmp_path)) == before_dirs
    assert (
        integrations.installed_scopes(integrations.get_descriptor(agent), box.context(scope)) == []
    )


def _host_refuses(spec: FileSpec, folder: str, name: str) -> bool:
    data = fixture_bytes(folder, name)
    return dialects.host_problem(data, spec.dialect) is not None or (
        spec.rejects_bom and data.startswith(b"\xef\xbb\xbf")
    )


def _cases(refused: bool = False) -> list[tuple[str, str, int, str]]:
    cases: list[tuple[str, str, int, str]] = []
    for agent, scope in AGENT_SCOPES:
        descriptor = integrations.get_descriptor(agent)
        specs = descriptor.files[scope]
        for index, spec in enumerate(specs):
            folder = FORMAT_OF_STRATEGY[spec.strategy]
            if folder is None:
                continue
            cases.extend(
                (agent, scope, index, name)
                for name in fixture_names(folder)
                if (spec.strategy, name) not in INCOMPATIBLE
                and _host_refuses(spec, folder, name) == refused
            )
    return cases


def _not_chosen(spec: FileSpec, data: bytes) -> bool:
    """A grouped alternative the install does not use for this file (its key is absent)."""
    if not spec.prefer_when:
        return False
    if spec.strategy.startswith("toml"):
        return tomltext.get(data, spec.prefer_when, None) is None
    return jsonc.get(data, spec.prefer_when, None) is None


@pytest.mark.parametrize(("agent", "scope", "index", "fixture"), _cases(refused=True))
def test_a_file_the_host_cannot_parse_is_refused(
    agent: str, scope: str, index: int, fixture: str, tmp_path: Path
) -> None:
    """JSONC in a strict-JSON host (Claude Code, Codex), trailing commas where the host
    strips only comments (Gemini, Qwen): the host ignores such a file, so rtok refuses it,
    names file:line and the host, and writes nothing."""
    box = _sandbox(tmp_path)
    descriptor = integrations.get_descriptor(agent)
    spec = descriptor.files[scope][index]
    path, folder = _edited_files(agent, scope, box)[
        sum(
            1 for s in descriptor.files[scope][:index] if FORMAT_OF_STRATEGY[s.strategy] is not None
        )
    ]
    original = fixture_bytes(folder, fixture)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as handle:
        handle.write(original)
    before = all_files(str(tmp_path))
    with pytest.raises(FormatError) as caught:
        box.apply(box.edits(agent, scope, "install"))
    assert caught.value.label == path and caught.value.line >= 1
    assert descriptor.display_name in str(caught.value)
    if spec.rejects_bom and original.startswith(b"\xef\xbb\xbf"):
        assert "byte-order mark" in str(caught.value)
    else:
        assert dialects.describe(spec.dialect) in str(caught.value)
    assert all_files(str(tmp_path)) == before


def _parses(path: str, data: bytes, folder: str) -> None:
    if folder == "json":
        jsonc.parse(data, label=path)
    elif folder == "toml":
        tomltext.parse(data, label=path)
    elif folder == "yaml":
        yamltext.parse(data, label=path)


def _other_entries_editing(
    box: Sandbox, agent: str, scope: str, spec: FileSpec, path: str
) -> list[FileSpec]:
    """The agent's other file entries of SCOPE that edit PATH too."""
    return [
        s
        for s in integrations.get_descriptor(agent).files[scope]
        if s is not spec
        and integrations.expand_path(s.path, scope, box.context(scope), user_file=s.user_file)
        == path
    ]


def _check_entry_in_place(
    box: Sandbox, agent: str, scope: str, path: str, installed: bytes, folder: str
) -> None:
    """The file still parses and each of rtok's owned entries in it is found in place."""
    _parses(path, installed, folder)
    finders = [
        e.owned_bytes
        for e in box.edits(agent, scope, "install")
        if os.path.abspath(e.path) == path and e.owned_bytes is not None
    ]
    assert finders and all(find(installed) for find in finders), "entry not found in place"


@pytest.mark.parametrize(("agent", "scope", "index", "fixture"), _cases())
def test_round_trip_over_a_user_file(
    agent: str, scope: str, index: int, fixture: str, tmp_path: Path
) -> None:
    box = _sandbox(tmp_path)
    path, folder = _edited_files(agent, scope, box)[
        sum(
            1
            for s in integrations.get_descriptor(agent).files[scope][:index]
            if FORMAT_OF_STRATEGY[s.strategy] is not None
        )
    ]
    original = fixture_bytes(folder, fixture)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as handle:
        handle.write(original)
    before_files = all_files(str(tmp_path))
    before_dirs = all_dirs(str(tmp_path))

    box.apply(box.edits(agent, scope, "install"))
    installed = read(path)
    spec = integrations.get_descriptor(agent).files[scope][index]
    if _not_chosen(spec, original):
        # The host reads the group's first file (created now); this entry adds nothing
        # here (another entry, e.g. Codex's trust, may still edit the same file).
        assert _other_entries_editing(box, agent, scope, spec, path) or installed == original
        box.apply(box.edits(agent, scope, "uninstall"))
        assert all_files(str(tmp_path)) == before_files
        assert all_dirs(str(tmp_path)) == before_dirs
        return
    assert installed is not None and installed != original, "rtok's entry was not added"
    _check_entry_in_place(box, agent, scope, path, installed, folder)
    snapshot = all_files(str(tmp_path))

    assert box.apply(box.edits(agent, scope, "install")) == []
    assert all_files(str(tmp_path)) == snapshot

    box.apply(box.edits(agent, scope, "uninstall"))
    assert read(path) == original
    assert all_files(str(tmp_path)) == before_files
    assert all_dirs(str(tmp_path)) == before_dirs


def test_a_codex_config_whose_hooks_is_an_array_is_refused(tmp_path: Path) -> None:
    box = _sandbox(tmp_path)
    config = os.path.join(box.home, ".codex", "config.toml")
    os.makedirs(os.path.dirname(config))
    original = fixture_bytes("toml", "user_hooks_array.toml")
    with open(config, "wb") as handle:
        handle.write(original)
    with pytest.raises(integrations.IntegrationError, match="not a table"):
        box.apply(box.edits("codex", "global", "install"))
    assert read(config) == original


def test_a_vibe_hooks_file_whose_hooks_is_a_table_is_refused(tmp_path: Path) -> None:
    box = _sandbox(tmp_path)
    hooks = os.path.join(box.home, ".vibe", "hooks.toml")
    os.makedirs(os.path.dirname(hooks))
    original = fixture_bytes("toml", "codex_trusted_other.toml")
    with open(hooks, "wb") as handle:
        handle.write(original)
    with pytest.raises(ValueError, match=r"hooks\.toml"):
        box.apply(box.edits("vibe", "global", "install"))
    assert read(hooks) == original


def test_user_edits_made_after_install_survive_uninstall(tmp_path: Path) -> None:
    box = _sandbox(tmp_path)
    agents_md = os.path.join(box.project, "AGENTS.md")
    with open(agents_md, "wb") as handle:
        handle.write(fixture_bytes("md", "user_text.md"))
    box.apply(box.edits("kimi", "project", "install"))
    box.apply(box.edits("opencode", "project", "install"))
    with open(agents_md, "ab") as handle:
        handle.write(b"\n## Added later\n\nText below rtok's blocks.\n")
    box.apply(box.edits("kimi", "project", "uninstall"))
    text = (read(agents_md) or b"").decode()
    assert "<!-- rtok:kimi -->" not in text and "<!-- rtok:opencode -->" in text
    box.apply(box.edits("opencode", "project", "uninstall"))
    assert read(agents_md) == (
        fixture_bytes("md", "user_text.md") + b"\n## Added later\n\nText below rtok's blocks.\n"
    )

    settings = os.path.join(box.home, ".claude", "settings.json")
    box.apply(box.edits("claude", "global", "install"))
    data = read(settings) or b""
    with open(settings, "wb") as handle:
        handle.write(jsonc.set_key(data, ("model",), "opus"))
    box.apply(box.edits("claude", "global", "uninstall"))
    assert jsonc.parse(read(settings) or b"") == {"model": "opus"}
