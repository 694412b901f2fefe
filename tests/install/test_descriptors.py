"""The descriptors: every agent is described, validated in one place, and its paths follow
the agent's own relocation variables."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path
from typing import Any

import pytest
from agent_harness import Sandbox, read

from rtok.install import descriptor, integrations
from rtok.install.targets.commands import (
    hook_command,
    is_edited_rtok_hook_command,
    is_rtok_hook_command,
    registered_binary,
)
from rtok.install.targets.toml_hooks import codex_group_hash


def _box(tmp_path: Path) -> Sandbox:
    (tmp_path / "h").mkdir()
    (tmp_path / "p").mkdir()
    return Sandbox(home=str(tmp_path / "h"), project=str(tmp_path / "p"))


def test_every_agent_has_a_descriptor_with_its_tier() -> None:
    """The tier matches what the descriptor installs: a rules-tier agent gets awareness
    files only; a hook or plugin agent gets a hook or plugin file in its user scope."""
    descriptors = integrations.load_descriptors()
    assert {"claude", "codex", "opencode", "kimi", "windsurf"} <= set(descriptors)
    for name, item in descriptors.items():
        assert item.display_name and item.awareness_target, name
        assert "global" in item.scopes, name
        if item.tier == "rules":
            assert all(spec.is_awareness for specs in item.files.values() for spec in specs), name
        else:  # a hook or plugin file besides the awareness text
            assert not all(spec.is_awareness for spec in item.files["global"]), name


def test_hook_tier_agents_have_a_reply_protocol() -> None:
    for name, item in integrations.load_descriptors().items():
        assert (item.hook is not None) == (item.tier == "hook"), name
        assert (item.hook_sample is not None) == (item.tier == "hook"), name
        assert item.hook_protocol == (name if item.tier == "hook" else None)


def _valid() -> dict[str, Any]:
    return {
        "name": "demo",
        "display_name": "Demo",
        "tier": "hook",
        "proof": {"kind": "contract", "docs": ["https://demo.example/hooks"]},
        "hook": {
            "permissions": "claude",
            "payloads": [
                {
                    "tool": "tool_name",
                    "tools": ["Bash"],
                    "input": "tool_input",
                    "command": ["command"],
                    "replies": {},
                }
            ],
            "sample": {
                "shell": json.dumps(
                    {"tool_name": "Bash", "cwd": "${cwd}", "tool_input": {"command": "${command}"}}
                ),
                "other": json.dumps({"tool_name": "Read"}),
            },
        },
        "install": {
            "detect": {"binaries": ["demo"]},
            "global": [
                {
                    "strategy": "json_hook_group",
                    "path": "~/.demo/settings.json",
                    "container": ["hooks", "PreToolUse"],
                    "matcher": "Bash",
                }
            ],
        },
    }


def test_a_valid_descriptor_parses() -> None:
    parsed = descriptor.parse(_valid(), "demo.toml")
    assert parsed.scopes == ("global",)
    assert parsed.files["global"][0].options["matcher"] == "Bash"


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda d: d.update(tier="magic"), "tier must be one of"),
        (lambda d: d["install"]["global"][0].update(strategy="teleport"), "unknown strategy"),
        (lambda d: d["install"]["global"][0].pop("matcher"), "needs the key 'matcher'"),
        (lambda d: d["install"]["global"][0].update(matcher=3), "matcher must be of type str"),
        (lambda d: d["install"]["global"][0].update(colour="red"), "unknown key 'colour'"),
        (lambda d: d["install"]["global"][0].update(path="relative/x.json"), "must start with ~"),
        (
            lambda d: d["install"].update(
                project=[{"strategy": "awareness_block", "path": "/abs/AGENTS.md"}]
            ),
            "relative to the project",
        ),
        (lambda d: d["install"]["global"][0].update(path="~/../etc/x.json"), "'..'"),
        (lambda d: d["install"].update(fail_closed="yes"), "fail_closed"),
        (lambda d: d["install"]["detect"].update(binaries="demo"), "detect.binaries"),
        (lambda d: d.pop("install"), "missing the [install] table"),
        (lambda d: d["install"].update(glboal=[]), "unknown key 'glboal'"),
        (
            lambda d: d["install"]["global"].append(
                {"strategy": "codex_trust", "path": "~/.x/config.toml", "hooks_file": "~/nope"}
            ),
            "codex_trust names hooks_file",
        ),
        (
            lambda d: d["install"]["global"].append(
                {"strategy": "awareness_block", "path": "~/A.md", "level": "loud"}
            ),
            "level",
        ),
        (
            lambda d: d["install"]["global"].append(
                {"strategy": "template_file", "path": "~/x.ts", "template": "nope/x.ts"}
            ),
            "not in templates/",
        ),
        # The [hook] table is checked by the same validator, with the same error type.
        (lambda d: d["hook"].update(permissions="everyone"), "hook.permissions must be one"),
        (lambda d: d["hook"]["payloads"][0].pop("tools"), "hook.payloads[0].tools is required"),
        (lambda d: d.pop("hook"), "a hook-tier agent needs a [hook] table"),
        (lambda d: d["hook"].pop("sample"), "hook.sample must be a table"),
        (lambda d: d["hook"]["sample"].update(shell="{"), "hook.sample.shell is not JSON"),
        (
            lambda d: d["hook"]["sample"].update(shell='{"tool_name": "Bash"}'),
            "hook.sample.shell is not a shell call",
        ),
        (
            lambda d: d["hook"]["sample"].update(other='{"cwd": "/"}'),
            "hook.sample.other is still a shell call",
        ),
        (lambda d: d.update(tier="plugin"), "[hook] is only for the hook tier"),
        (lambda d: d.update(colour="red"), "unknown key 'colour'"),
        # No integration without saying how it is proven.
        (lambda d: d.pop("proof"), "missing the [proof] table"),
        (lambda d: d["proof"].update(kind="vibes"), "proof.kind must be one of"),
        (lambda d: d["proof"].pop("docs"), "proof.docs"),
        (lambda d: d["proof"].update(docs="https://x"), "proof.docs must be a list"),
        (lambda d: d["proof"].update(version="1.0"), "unknown key 'version'"),
        (lambda d: d.update(rewrite={"approval": "maybe"}), "rewrite.approval must be one of"),
        (lambda d: d.update(rewrite={"permissions": "everyone"}), "rewrite.permissions"),
        (lambda d: d.update(rewrite={"host_rules": "vim"}), "rewrite.host_rules"),
        (lambda d: d.update(rewrite={"names": "kilo"}), "rewrite.names must be a list"),
        (
            lambda d: (
                d["hook"].update(permissions="none"),
                d.update(rewrite={"default_rules": True}),
            ),
            "default_rules needs a permission source",
        ),
    ],
)
def test_invalid_descriptors_name_the_file_and_the_key(mutate: Any, message: str) -> None:
    data = _valid()
    mutate(data)
    with pytest.raises(descriptor.DescriptorError) as caught:
        descriptor.parse(data, "/somewhere/integrations/demo.toml")
    text = str(caught.value)
    assert text.startswith("/somewhere/integrations/demo.toml")
    assert message in text


def test_exactly_one_descriptor_gives_rtok_rewrite_its_default_rules() -> None:
    real = integrations.load_descriptors()
    assert descriptor.rewrite_default_permissions(real) == "claude"
    marked = _valid()
    marked["rewrite"] = {"default_rules": True}
    demo = descriptor.parse(marked, "demo.toml")
    with pytest.raises(descriptor.DescriptorError, match=r"exactly one .* not 2"):
        descriptor.rewrite_default_permissions({**real, "demo": demo})
    unmarked = {name: item for name, item in real.items() if not item.rewrite.default_rules}
    with pytest.raises(descriptor.DescriptorError, match="not 0"):
        descriptor.rewrite_default_permissions(unmarked)


def test_a_broken_descriptor_file_is_reported_with_its_path(tmp_path: Path) -> None:
    bad = tmp_path / "demo.toml"
    bad.write_text('name = "demo"\ntier = \n')
    with pytest.raises(descriptor.DescriptorError, match=str(bad)):
        descriptor.load_file(str(bad))


def test_the_name_must_match_the_file_name(tmp_path: Path) -> None:
    with pytest.raises(descriptor.DescriptorError, match="must match the file name"):
        descriptor.parse(_valid(), str(tmp_path / "other.toml"))


@pytest.mark.parametrize(
    ("agent", "variable", "suffix"),
    [
        ("claude", "CLAUDE_CONFIG_DIR", "settings.json"),
        ("codex", "CODEX_HOME", "hooks.json"),
        ("copilot", "COPILOT_HOME", "hooks/rtok.json"),
        ("pi", "PI_CODING_AGENT_DIR", "extensions/rtok.ts"),
        ("omp", "PI_CODING_AGENT_DIR", "extensions/rtok.ts"),
        ("hermes", "HERMES_HOME", "plugins/rtok/__init__.py"),
        ("vibe", "VIBE_HOME", "hooks.toml"),
        ("droid", "FACTORY_HOME_OVERRIDE", ".factory/hooks.json"),
        ("cline", "CLINE_DIR", "hooks/PreToolUse.py"),
        ("gemini", "GEMINI_CLI_HOME", ".gemini/settings.json"),
        ("kimi", "KIMI_CODE_HOME", "AGENTS.md"),
    ],
)
def test_relocation_variables_move_the_files(
    agent: str, variable: str, suffix: str, tmp_path: Path
) -> None:
    box = _box(tmp_path)
    moved = str(tmp_path / "elsewhere")
    box.env[variable] = moved
    paths = [e.path for e in box.edits(agent, "global", "install")]
    assert os.path.join(moved, suffix) in paths
    assert variable in integrations.get_descriptor(agent).relocation_env


def test_default_locations_follow_what_the_agents_load(tmp_path: Path) -> None:
    box = _box(tmp_path)
    home = box.home

    def paths(agent: str) -> set[str]:
        return {e.path for e in box.edits(agent, "global", "install")}

    assert f"{home}/.omp/agent/extensions/rtok.ts" in paths("omp")  # not Pi's directory
    assert f"{home}/.pi/agent/extensions/rtok.ts" in paths("pi")
    assert f"{home}/.copilot/hooks/rtok.json" in paths("copilot")
    assert f"{home}/.factory/hooks.json" in paths("droid")
    assert f"{home}/.cline/hooks/PreToolUse.py" in paths("cline")
    assert f"{home}/.config/kilo/plugins/rtok.ts" in paths("kilocode")
    assert f"{home}/.config/opencode/plugins/rtok.ts" in paths("opencode")
    assert f"{home}/.hermes/config.yaml" in paths("hermes")
    assert f"{home}/.gemini/settings.json" in paths("gemini")


def test_detection_by_binary_on_path_or_config_dir(tmp_path: Path) -> None:
    box = _box(tmp_path)
    claude = integrations.get_descriptor("claude")
    assert not integrations.detect(claude, box.context("global"))
    bindir = tmp_path / "bin"
    bindir.mkdir()
    binary = bindir / "claude"
    binary.write_text("#!/bin/sh\n")
    binary.chmod(binary.stat().st_mode | stat.S_IXUSR)
    box.env["PATH"] = str(bindir)
    assert integrations.detect(claude, box.context("global"))
    box.env.pop("PATH")
    os.makedirs(os.path.join(box.home, ".codex"))
    assert integrations.detect(integrations.get_descriptor("codex"), box.context("global"))
    roo = integrations.get_descriptor("roo")
    assert not integrations.detect(roo, box.context("global"))
    os.makedirs(
        os.path.join(box.home, ".vscode", "extensions", "rooveterinaryinc.roo-cline-3.52.1")
    )
    assert integrations.detect(roo, box.context("global"))


def test_hook_command_is_quoted_and_recognised() -> None:
    command = hook_command("/opt/my tools/rtok", "claude")
    assert command == (
        "[ -x '/opt/my tools/rtok' ] && exec '/opt/my tools/rtok' hook claude || true"
    )
    assert is_rtok_hook_command(command, "claude")
    assert not is_rtok_hook_command(command, "codex")
    assert is_rtok_hook_command("'/opt/my tools/rtok' hook claude", "claude")  # earlier form
    assert hook_command("rtok", "claude") == "rtok hook claude"  # no path to check
    assert registered_binary(command, "claude") == "/opt/my tools/rtok"


def test_fail_closed_hook_command_degrades_and_is_recognised() -> None:
    degraded = hook_command("/x/rtok", "copilot", fail_closed=True)
    assert degraded == "[ -x /x/rtok ] && /x/rtok hook copilot || true"
    assert is_rtok_hook_command("/x/rtok hook copilot || true", "copilot")
    assert is_rtok_hook_command(degraded, "copilot")
    json_degraded = hook_command(
        "/x/rtok", "antigravity", fail_closed=True, no_opinion='{"decision":"allow"}'
    )
    assert is_rtok_hook_command(json_degraded, "antigravity")
    assert registered_binary(degraded, "copilot") == "/x/rtok"


@pytest.mark.parametrize(
    "foreign",
    [
        "rtk hook claude",
        "echo rtok hook claude",
        "/x/not-rtok hook claude",
        "/x/rtok hook claude --extra",
        "/x/rtok hook claude || rm -rf ~",
        "'/x/rtok hook claude",
        "/x/rtok claude hook",
        "[ -x /x/rtok ] && exec /x/rtok hook claude",
        "[ -x /x/other ] && exec /x/rtok hook claude || true",
        "[ -x /x/rtok ] && exec /x/rtok hook claude || rm -rf ~",
        "[ -x /x/rtok ] || exec /x/rtok hook claude || true",
        42,
    ],
)
def test_foreign_command_is_not_rtoks_hook(foreign: object) -> None:
    assert not is_rtok_hook_command(foreign, "claude"), foreign


def test_windows_path_and_other_rtok_guards_are_recognised() -> None:
    assert is_rtok_hook_command('"C:\\\\Tools\\\\rtok.exe" hook claude', "claude")
    # A guard that names another rtok path is still rtok's entry (its hash says whether it
    # was changed); one that checks some other program is not.
    assert is_rtok_hook_command("[ -x /y/rtok ] && exec /x/rtok hook claude || true", "claude")
    assert is_edited_rtok_hook_command("[ -x /x/rtok ] && exec /x/rtok hook claude -v", "claude")
    assert registered_binary("rtk hook claude", "claude") is None


def test_codex_trust_hash_matches_the_worked_example() -> None:
    group = {
        "matcher": "Bash",
        "hooks": [{"type": "command", "command": "/usr/local/bin/rtok hook codex", "timeout": 30}],
    }
    assert codex_group_hash(group) == (
        "sha256:9f43bab89ab8164729c020d6c7b424a31c4a3bc4059605c30109be016c60e336"
    )


def test_codex_trust_key_follows_where_rtoks_group_lands(tmp_path: Path) -> None:
    box = _box(tmp_path)
    box.rtok_bin = "/usr/local/bin/rtok"
    codex = os.path.join(box.home, ".codex")
    os.makedirs(codex)
    hooks = os.path.join(codex, "hooks.json")
    user = (
        b'{"hooks": {"PreToolUse": [\n'
        b'  {"matcher": "Bash", "hooks": [{"type": "command", "command": "a"}]},\n'
        b'  {"matcher": "Bash", "hooks": [{"type": "command", "command": "b"}]}\n]}}\n'
    )
    with open(hooks, "wb") as handle:
        handle.write(user)
    box.apply(box.edits("codex", "global", "install"))
    config = read(os.path.join(codex, "config.toml"))
    group = {
        "matcher": "Bash",
        "hooks": [
            {"type": "command", "command": hook_command(box.rtok_bin, "codex"), "timeout": 30}
        ],
    }
    assert (
        config
        == (
            f'[hooks.state."{hooks}:pre_tool_use:2:0"]\n'
            f'trusted_hash = "{codex_group_hash(group)}"\n'
        ).encode()
    )
    box.apply(box.edits("codex", "global", "uninstall"))
    assert read(hooks) == user
    assert read(os.path.join(codex, "config.toml")) is None


def test_rtoks_group_is_appended_never_merged_into_the_users(tmp_path: Path) -> None:
    import json

    box = _box(tmp_path)
    settings = os.path.join(box.home, ".claude", "settings.json")
    os.makedirs(os.path.dirname(settings))
    user_group = {"matcher": "Bash", "hooks": [{"type": "command", "command": "audit"}]}
    with open(settings, "w") as handle:
        json.dump({"hooks": {"PreToolUse": [user_group]}}, handle)
    box.apply(box.edits("claude", "global", "install"))
    data = json.loads(read(settings) or b"")
    groups = data["hooks"]["PreToolUse"]
    assert groups[0] == user_group
    assert len(groups) == 2 and is_rtok_hook_command(groups[1]["hooks"][0]["command"], "claude")


def test_an_older_rtok_entry_is_replaced_not_duplicated(tmp_path: Path) -> None:
    import json

    box = _box(tmp_path)
    box.rtok_bin = "/old/venv/bin/rtok"
    box.apply(box.edits("claude", "global", "install"))
    box.rtok_bin = "/new/venv/bin/rtok"
    box.apply(box.edits("claude", "global", "install"))
    settings = os.path.join(box.home, ".claude", "settings.json")
    groups = json.loads(read(settings) or b"")["hooks"]["PreToolUse"]
    assert [g["hooks"][0]["command"] for g in groups] == [
        hook_command("/new/venv/bin/rtok", "claude")
    ]
    box.apply(box.edits("claude", "global", "uninstall"))
    assert read(settings) is None


def test_a_plugin_written_for_another_rtok_path_is_still_recognised(tmp_path: Path) -> None:
    box = _box(tmp_path)
    box.rtok_bin = "/first/rtok"
    box.apply(box.edits("opencode", "global", "install"))
    plugin = os.path.join(box.home, ".config", "opencode", "plugins", "rtok.ts")
    assert b'const RTOK_BIN = "/first/rtok";' in (read(plugin) or b"")
    box.rtok_bin = "/second place/rtok"
    box.apply(box.edits("opencode", "global", "install"))
    assert b'const RTOK_BIN = "/second place/rtok";' in (read(plugin) or b"")
    box.rtok_bin = "/third/rtok"
    box.apply(box.edits("opencode", "global", "uninstall"))
    assert read(plugin) is None


def test_a_user_changed_plugin_is_kept_and_a_foreign_file_refused(tmp_path: Path) -> None:
    box = _box(tmp_path)
    box.apply(box.edits("pi", "global", "install"))
    plugin = os.path.join(box.home, ".pi", "agent", "extensions", "rtok.ts")
    changed = (read(plugin) or b"") + b"// my tweak\n"
    with open(plugin, "wb") as handle:
        handle.write(changed)
    edits = [e for e in box.edits("pi", "global", "uninstall") if e.path == plugin]
    assert edits[0].kept_note is not None and "kept" in (edits[0].kept_note(changed) or "")
    box.apply(box.edits("pi", "global", "uninstall"))
    assert read(plugin) == changed
    # rtok created it, so a new install keeps the user's edit and says so...
    [again] = [e for e in box.edits("pi", "global", "install") if e.path == plugin]
    assert again.transform(changed) == changed
    assert again.kept_note is not None and again.kept_note(changed)
    # ...while a file rtok never wrote is refused outright.
    box.created.discard(plugin)
    with pytest.raises(integrations.IntegrationError, match="did not write"):
        box.apply(box.edits("pi", "global", "install"))
    assert read(plugin) == changed


def test_awareness_levels(tmp_path: Path) -> None:
    box = _box(tmp_path)
    rtok_md = os.path.join(box.home, ".claude", "RTOK.md")
    for level, present, absent in [
        ("default", "rtok expand", "RTOK_DISABLED=1"),
        ("high", "RTOK_DISABLED=1", "as `rtok run"),
        ("full", "as `rtok run", None),
    ]:
        box.awareness_level = level
        box.apply(box.edits("claude", "global", "install"))
        text = (read(rtok_md) or b"").decode()
        assert present in text
        if absent:
            assert absent not in text
    box.awareness_level = "default"
    # A rules-only agent (no hook to rewrite for it) is told to run `rtok run` itself.
    box.apply(box.edits("roo", "project", "install"))
    rule = (read(os.path.join(box.project, ".roo", "rules", "rtok.md")) or b"").decode()
    assert "as `rtok run" in rule
    # Windsurf has its hook now: the default text, with Windsurf's rule frontmatter.
    box.apply(box.edits("windsurf", "project", "install"))
    rule = (read(os.path.join(box.project, ".windsurf", "rules", "rtok.md")) or b"").decode()
    assert rule.startswith("---\ntrigger: always_on\n---\n") and "as `rtok run" not in rule


def test_hook_only_leaves_awareness_out(tmp_path: Path) -> None:
    box = _box(tmp_path)
    edits = integrations.edits_for(
        "claude", "global", "install", box.context("global", hook_only=True)
    )
    assert [e.kind for e in edits] == ["settings_entry"]


def test_clinerules_folder_or_file(tmp_path: Path) -> None:
    box = _box(tmp_path)
    rules = os.path.join(box.project, ".clinerules")
    [edit] = box.edits("cline", "project", "install")
    assert edit.path == os.path.join(rules, "rtok.md")
    with open(rules, "w") as handle:
        handle.write("Use tabs.\n")
    [edit] = box.edits("cline", "project", "install")
    assert edit.path == rules and edit.kind == "awareness_block"
    box.apply([edit])
    assert (read(rules) or b"").startswith(b"Use tabs.\n\n<!-- rtok:cline -->\n")


def test_a_second_product_variant_is_installed_only_where_it_exists(tmp_path: Path) -> None:
    box = _box(tmp_path)
    trae_cn = os.path.join(box.home, ".trae-cn", "hooks.json")
    assert trae_cn not in {e.path for e in box.edits("trae", "global", "install")}
    os.makedirs(os.path.dirname(trae_cn))
    box.apply(box.edits("trae", "global", "install"))
    assert b"hook trae" in (read(trae_cn) or b"")
    assert trae_cn in {e.path for e in box.edits("trae", "global", "uninstall")}
    box.apply(box.edits("trae", "global", "uninstall"))
    assert read(trae_cn) is None and os.path.isdir(os.path.dirname(trae_cn))


def test_rtoks_handler_merged_into_a_user_group_is_taken_out_alone(tmp_path: Path) -> None:
    import json

    box = _box(tmp_path)
    settings = os.path.join(box.home, ".claude", "settings.json")
    os.makedirs(os.path.dirname(settings))
    mine = {"type": "command", "command": "audit"}
    ours = {"type": "command", "command": "'/opt/rtok tools/bin/rtok' hook claude"}
    with open(settings, "w") as handle:
        json.dump(
            {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [mine, ours]}]}},
            handle,
            indent=2,
        )
    box.apply(box.edits("claude", "global", "uninstall"))
    assert json.loads(read(settings) or b"") == {
        "hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [mine]}]}
    }


def test_a_settings_file_of_the_wrong_shape_is_refused(tmp_path: Path) -> None:
    from rtok.formats.errors import FormatError

    box = _box(tmp_path)
    settings = os.path.join(box.home, ".claude", "settings.json")
    os.makedirs(os.path.dirname(settings))
    original = b'{"hooks": ["not", "an", "object"]}\n'
    with open(settings, "wb") as handle:
        handle.write(original)
    with pytest.raises(FormatError) as caught:
        box.apply(box.edits("claude", "global", "install"))
    assert settings in str(caught.value)
    assert read(settings) == original
    assert not os.path.exists(os.path.join(box.home, ".claude", "RTOK.md"))


def test_codex_trust_and_existing_settings_need_consent(tmp_path: Path) -> None:
    box = _box(tmp_path)
    edits = {e.kind: e for e in box.edits("codex", "global", "install")}
    assert edits["trust_entry"].needs_consent
    assert not edits["settings_entry"].needs_consent  # hooks.json does not exist yet
    os.makedirs(os.path.join(box.home, ".codex"))
    with open(os.path.join(box.home, ".codex", "hooks.json"), "w") as handle:
        handle.write("{}\n")
    edits = {e.kind: e for e in box.edits("codex", "global", "install")}
    assert edits["settings_entry"].needs_consent


def test_clinerules_folder_keeps_the_users_rules(tmp_path: Path) -> None:
    box = _box(tmp_path)
    rules = os.path.join(box.project, ".clinerules")
    os.makedirs(rules)
    with open(os.path.join(rules, "style.md"), "w") as handle:
        handle.write("Tabs.\n")
    box.apply(box.edits("cline", "project", "install"))
    assert sorted(os.listdir(rules)) == ["rtok.md", "style.md"]
    box.apply(box.edits("cline", "project", "uninstall"))
    assert sorted(os.listdir(rules)) == ["style.md"]


def test_rules_only_agents_are_announced_as_full_awareness(tmp_path: Path) -> None:
    box = _box(tmp_path)
    notes = integrations.awareness_notes(
        ["roo", "claude", "cline"], "project", box.context("project")
    )
    assert len(notes) == 2
    assert notes[0].startswith("Roo Code:") and "'default' does not apply" in notes[0]
    assert notes[1].startswith("Cline:")
    assert integrations.awareness_notes(["cline"], "global", box.context("global")) == []


def test_a_plugin_file_shared_with_another_agent_stays_on_uninstall(tmp_path: Path) -> None:
    from rtok.integrity.records import ArtifactRecord, record_artifacts

    box = _box(tmp_path)
    shared = str(tmp_path / "agent-dir")
    box.env["PI_CODING_AGENT_DIR"] = shared
    box.apply(box.edits("pi", "global", "install"))
    box.apply(box.edits("omp", "global", "install"))
    plugin = os.path.join(shared, "extensions", "rtok.ts")
    record_artifacts(
        [
            ArtifactRecord(
                path=plugin,
                agent=agent,
                scope="global",
                project_root=None,
                kind="whole_file",
                sha256="0" * 64,
            )
            for agent in ("pi", "omp")
        ]
    )
    box.apply(box.edits("omp", "global", "uninstall"))
    assert read(plugin) is not None, "Pi still uses the shared extension"
    from rtok.integrity.records import forget_artifacts

    forget_artifacts([(plugin, "whole_file", "omp")])
    box.apply(box.edits("pi", "global", "uninstall"))
    assert read(plugin) is None
