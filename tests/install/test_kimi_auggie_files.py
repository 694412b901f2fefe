"""What rtok writes for Kimi Code and Auggie, checked against what those CLIs accept
(shared/reference/new-agents.md, and the schemas in their 2.1.0 / 0.36.0 bundles):

* Kimi Code's `[[hooks]]` table is strict (`event`, `matcher`, `command`, `timeout` in whole
  seconds, 1–600) and lives in the same config.toml as the user's providers and models;
* Auggie's handler takes `type`, `command`, `args`, `timeout` in milliseconds;
* a Kimi install from before the hook tier (the awareness block only, at the full level)
  still uninstalls cleanly.
"""

from __future__ import annotations

import json
import os
import tomllib
from pathlib import Path

from agent_harness import Sandbox, all_files, read

from rtok.install import integrations
from rtok.install.targets.commands import is_rtok_hook_command

KIMI_CONFIG = b"""# my Kimi Code settings
default_model = "harness/fake-model"
telemetry = false

[providers.harness]
type = "openai"   # OpenAI-compatible
base_url = "http://127.0.0.1:9/v1"
api_key = "sk-local"

[models."harness/fake-model"]
provider = "harness"
model = "fake-model"
capabilities = ["tool_use"]

[[hooks]]
event = "PostToolUse"
command = "notify-send done"
"""


def _box(tmp_path: Path, **env: str) -> Sandbox:
    (tmp_path / "h").mkdir()
    (tmp_path / "p").mkdir()
    return Sandbox(home=str(tmp_path / "h"), project=str(tmp_path / "p"), env=dict(env))


def test_kimi_hook_table_fits_kimis_schema_and_keeps_the_users_config(tmp_path: Path) -> None:
    kimi_home = tmp_path / "kimi-home"
    box = _box(tmp_path, KIMI_CODE_HOME=str(kimi_home))
    kimi_home.mkdir()
    config = kimi_home / "config.toml"
    config.write_bytes(KIMI_CONFIG)
    box.apply(box.edits("kimi", "global", "install"))
    data = config.read_bytes()
    assert data.startswith(KIMI_CONFIG)  # the user's bytes stay, comments included
    parsed = tomllib.loads(data.decode())
    assert parsed["providers"]["harness"]["base_url"] == "http://127.0.0.1:9/v1"
    ours = [h for h in parsed["hooks"] if is_rtok_hook_command(h.get("command"), "kimi")]
    assert len(ours) == 1
    assert set(ours[0]) == {"event", "matcher", "command", "timeout"}
    assert ours[0]["event"] == "PreToolUse" and ours[0]["matcher"] == "Bash"
    assert isinstance(ours[0]["timeout"], int) and 1 <= ours[0]["timeout"] <= 600
    assert (kimi_home / "AGENTS.md").is_file()  # KIMI_CODE_HOME moves the awareness file too
    assert not (Path(box.home) / ".kimi-code").exists()
    box.apply(box.edits("kimi", "global", "uninstall"))
    assert config.read_bytes() == KIMI_CONFIG
    assert not (kimi_home / "AGENTS.md").exists()


def test_kimi_rules_only_install_from_before_uninstalls(tmp_path: Path) -> None:
    """Before Kimi Code had hooks, rtok wrote only the awareness block, at the full level;
    uninstalling with today's descriptor takes it out and leaves the user's text."""
    box = _box(tmp_path)
    agents_md = Path(box.home) / ".kimi-code" / "AGENTS.md"
    agents_md.parent.mkdir(parents=True)
    agents_md.write_bytes(b"# My notes\n\nUse tabs.\n")
    before = all_files(box.home)
    old = Sandbox(home=box.home, project=box.project, awareness_level="full")
    old.apply([e for e in old.edits("kimi", "global", "install") if e.path == str(agents_md)])
    assert b"rtok" in (read(str(agents_md)) or b"")
    assert integrations.installed_scopes(
        integrations.get_descriptor("kimi"), box.context("global")
    ) == ["global"]
    box.apply(box.edits("kimi", "global", "uninstall"))
    assert all_files(box.home) == before


def test_kimi_project_scope_stays_full_awareness(tmp_path: Path) -> None:
    box = _box(tmp_path)  # Kimi Code reads hooks only from the user's config.toml
    box.apply(box.edits("kimi", "project", "install"))
    assert sorted(os.listdir(box.project)) == ["AGENTS.md"]
    text = (Path(box.project) / "AGENTS.md").read_text()
    assert "rtok run" in text


def test_auggie_handler_fits_auggies_schema_with_a_millisecond_timeout(tmp_path: Path) -> None:
    box = _box(tmp_path)
    box.apply(box.edits("auggie", "global", "install"))
    settings = json.loads((Path(box.home) / ".augment" / "settings.json").read_text())
    [group] = settings["hooks"]["PreToolUse"]
    assert group["matcher"] == "launch-process"
    [handler] = group["hooks"]
    assert set(handler) <= {"type", "command", "args", "timeout"}
    assert handler["type"] == "command"
    assert is_rtok_hook_command(handler["command"], "auggie")
    # Milliseconds: Auggie killed a stand-in hook given 30 and lost its reply.
    assert handler["timeout"] >= 10_000
    rules = (Path(box.home) / ".augment" / "rules" / "rtok.md").read_text()
    assert rules.startswith("---\ntype: always_apply\n")


def test_auggie_project_hook_goes_to_the_personal_settings_file(tmp_path: Path) -> None:
    box = _box(tmp_path)
    box.apply(box.edits("auggie", "project", "install"))
    local = Path(box.project) / ".augment" / "settings.local.json"
    assert local.is_file()
    assert not (Path(box.project) / ".augment" / "settings.json").exists()
    box.apply(box.edits("auggie", "project", "uninstall"))
    assert all_files(box.project) == {}
