"""The integrations through the real CLI: `rtok init`, `rtok uninstall` and `rtok agents`
in a subprocess, on user files from the catalogue."""

from __future__ import annotations

import json
import os
from pathlib import Path

from agent_harness import all_files, fixture_bytes, read

from rtok.install import integrations
from rtok_testing import run_rtok


def _mtimes(root: Path) -> dict[str, int]:
    return {str(p): p.stat().st_mtime_ns for p in root.rglob("*") if p.is_file()}


def _user_files(root: Path) -> dict[str, bytes]:
    # rtok's own folders (data, and the launcher in the state dir) are not the user's files.
    return {
        k: v
        for k, v in all_files(str(root)).items()
        if "/.local/share/rtok/" not in k and "/.local/state/rtok/" not in k
    }


def test_global_claude_and_codex_over_user_files(isolated_home: Path) -> None:
    settings = isolated_home / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_bytes(fixture_bytes("json", "user_hooks_same_matcher.json"))
    agents_md = isolated_home / ".codex" / "AGENTS.md"
    agents_md.parent.mkdir()
    agents_md.write_bytes(fixture_bytes("md", "no_final_newline.md"))
    before = _user_files(isolated_home)

    first = run_rtok(["init", "-g", "--agent", "claude", "--agent", "codex", "--auto-patch"])
    assert first.returncode == 0, first.stderr.decode()
    assert b"rtok hook claude" in (read(str(settings)) or b"")
    config = (read(str(isolated_home / ".codex" / "config.toml")) or b"").decode()
    assert 'trusted_hash = "sha256:' in config
    installed, mtimes = _user_files(isolated_home), _mtimes(isolated_home)

    again = run_rtok(["init", "-g", "--agent", "claude", "--agent", "codex", "--auto-patch"])
    assert again.returncode == 0, again.stderr.decode()
    assert _user_files(isolated_home) == installed
    assert {k: v for k, v in _mtimes(isolated_home).items() if k in installed} == {
        k: v for k, v in mtimes.items() if k in installed
    }

    gone = run_rtok(["uninstall", "-g", "--agent", "claude", "--agent", "codex"])
    assert gone.returncode == 0, gone.stderr.decode()
    assert _user_files(isolated_home) == before


def test_project_install_for_several_agents(isolated_home: Path, tmp_path: Path) -> None:
    project = tmp_path / "proj"
    project.mkdir()
    (project / "AGENTS.md").write_bytes(fixture_bytes("md", "user_text.md"))
    (project / ".gitignore").write_text("node_modules\n")
    before = all_files(str(project))
    agents = ["copilot", "cursor", "kimi", "opencode", "windsurf", "droid", "cline"]
    args = [part for name in agents for part in ("--agent", name)]
    done = run_rtok(["init", *args, "--project", "--auto-patch"], cwd=str(project))
    assert done.returncode == 0, done.stderr.decode()
    agents_md = (read(str(project / "AGENTS.md")) or b"").decode()
    for name in ("kimi", "opencode", "droid"):
        assert f"<!-- rtok:{name} -->" in agents_md
    assert (project / ".github" / "hooks" / "rtok.json").is_file()
    assert (project / ".clinerules" / "rtok.md").is_file()

    _check_agents_listing(project)

    gone = run_rtok(["uninstall", *args, "--project"], cwd=str(project))
    assert gone.returncode == 0, gone.stderr.decode()
    assert all_files(str(project)) == before
    assert sorted(os.listdir(project)) == [".gitignore", "AGENTS.md"]


def _check_agents_listing(project: Path) -> None:
    """`rtok agents --json` lists every descriptor's agent with all its fields."""
    listed = run_rtok(["agents", "--json"], cwd=str(project))
    assert listed.returncode == 0, listed.stderr.decode()
    rows = {row["name"]: row for row in json.loads(listed.stdout)}
    assert set(rows) == set(integrations.load_descriptors())
    for row in rows.values():
        assert {"name", "display_name", "tier", "scopes", "detected", "installed", "files"} <= set(
            row
        )


def test_uninstall_keeps_a_plugin_the_user_changed(isolated_home: Path) -> None:
    done = run_rtok(["init", "-g", "--agent", "pi", "--auto-patch"])
    assert done.returncode == 0, done.stderr.decode()
    plugin = isolated_home / ".pi" / "agent" / "extensions" / "rtok.ts"
    changed = plugin.read_bytes() + b"// local tweak\n"
    plugin.write_bytes(changed)
    gone = run_rtok(["uninstall", "-g", "--agent", "pi"])
    assert gone.returncode == 3, gone.stdout.decode() + gone.stderr.decode()
    assert plugin.read_bytes() == changed
    assert not (isolated_home / ".pi" / "agent" / "AGENTS.md").exists()


def test_a_malformed_settings_file_is_refused_and_nothing_is_written(
    isolated_home: Path,
) -> None:
    settings = isolated_home / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_bytes(b'{"hooks": {"PreToolUse": [}\n')
    before = _user_files(isolated_home)
    done = run_rtok(["init", "-g", "--agent", "claude", "--auto-patch"])
    assert done.returncode == 2
    assert ("~/" + str(settings.relative_to(isolated_home))).encode() in done.stderr
    assert _user_files(isolated_home) == before


def test_hermes_and_vibe_over_yaml_and_toml_user_files(isolated_home: Path) -> None:
    config = isolated_home / ".hermes" / "config.yaml"
    config.parent.mkdir()
    config.write_bytes(fixture_bytes("yaml", "plugins_block_list.yaml"))
    hooks = isolated_home / ".vibe" / "hooks.toml"
    hooks.parent.mkdir()
    hooks.write_bytes(fixture_bytes("toml", "user_hooks_array.toml"))
    before = _user_files(isolated_home)

    done = run_rtok(["init", "-g", "--agent", "hermes", "--agent", "vibe", "--auto-patch"])
    assert done.returncode == 0, done.stderr.decode()
    assert b"- rtok" in config.read_bytes()
    assert (isolated_home / ".hermes" / "plugins" / "rtok" / "__init__.py").is_file()
    assert b'name = "rtok"' in hooks.read_bytes()

    gone = run_rtok(["uninstall", "-g", "--agent", "hermes", "--agent", "vibe"])
    assert gone.returncode == 0, gone.stderr.decode()
    assert _user_files(isolated_home) == before
    assert not (isolated_home / ".hermes" / "plugins").exists()
