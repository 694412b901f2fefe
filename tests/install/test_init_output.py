"""What `rtok init` / `rtok uninstall` / `rtok init --show` print: one message per broken
file with a fix that works, `~/` paths, a body shown once, the one-line result, --quiet.

Every fix line is taken from rtok's own output and run."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from rtok import resources
from rtok_testing import run_rtok

CLEAN_SETTINGS = '{\n  "model": "opus"\n}\n'
BROKEN_SETTINGS = {
    "trailing comma": '{\n  "model": "opus",\n}\n',
    "comment": '{\n  // my model\n  "model": "opus"\n}\n',
}


def _out(done: subprocess.CompletedProcess[bytes]) -> str:
    return done.stdout.decode() + done.stderr.decode()


def _lines_naming(text: str, path: Path, home: Path) -> list[str]:
    shown = "~/" + str(path.relative_to(home))
    return [line for line in text.splitlines() if shown in line or str(path) in line]


def _run_command(line: str) -> subprocess.CompletedProcess[bytes]:
    """Run a command rtok printed (`rtok` meaning this rtok) in bash."""
    shim = Path(os.environ["HOME"]) / "shim"
    shim.mkdir(exist_ok=True)
    (shim / "rtok").write_text(f"#!/bin/sh\nexec '{sys.executable}' -m rtok \"$@\"\n")
    (shim / "rtok").chmod(0o700)
    env = dict(os.environ, PATH=f"{shim}:{os.environ.get('PATH', '')}")
    return subprocess.run(
        ["bash", "-c", line], capture_output=True, env=env, timeout=120, check=False
    )


def _fix_of(line: str) -> str:
    found = re.search(r"\(fix: (.*)\)\s*$", line) or re.search(r"fix: (.*)$", line)
    assert found, line
    return found.group(1)


@pytest.mark.parametrize("broken", sorted(BROKEN_SETTINGS))
def test_a_broken_claude_settings_file_is_refused_once_and_the_fix_works(
    isolated_home: Path,
    broken: str,
) -> None:
    settings = isolated_home / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_text(BROKEN_SETTINGS[broken])
    done = run_rtok(["init", "-a", "claude", "-g", "--auto-patch"])
    assert done.returncode == 2, _out(done)
    named = _lines_naming(_out(done), settings, isolated_home)
    assert len(named) == 1, _out(done)
    assert "~/.claude/settings.json: Claude Code cannot parse it (line " in named[0]
    assert named[0].endswith("correct it, then run the same command again")
    assert str(isolated_home) not in _out(done)
    assert settings.read_text() == BROKEN_SETTINGS[broken]

    settings.write_text(CLEAN_SETTINGS)  # corrected, as the message says
    again = run_rtok(["init", "-a", "claude", "-g", "--auto-patch"])
    assert again.returncode == 0, _out(again)


@pytest.mark.parametrize("broken", sorted(BROKEN_SETTINGS))
def test_doctor_and_verify_report_a_broken_installed_file_once(
    isolated_home: Path,
    broken: str,
) -> None:
    settings = isolated_home / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_text(CLEAN_SETTINGS)
    assert run_rtok(["init", "-a", "claude", "-g", "--auto-patch"]).returncode == 0
    installed = settings.read_text()
    if broken == "comment":
        settings.write_text(installed.replace("{\n", "{\n  // mine\n", 1))
    else:
        settings.write_text(installed.replace('"opus"', '"opus",,', 1))
    for verb in ("doctor", "verify"):
        done = run_rtok([verb])
        assert done.returncode == 1, _out(done)
        named = _lines_naming(_out(done), settings, isolated_home)
        assert len(named) == 1, (verb, _out(done))
        assert "Claude Code cannot parse it" in named[0]
        assert "rtok rewrites nothing for claude" in named[0]
        fix = _fix_of(named[0])
        # The fix names rtok as this shell runs it (a path: no rtok on PATH here).
        assert fix.startswith(f"correct {settings}, then run ") and fix.endswith(f" {verb}")
    settings.write_text(installed)  # "correct it"
    for verb in ("doctor", "verify"):
        ran = _run_command(f"rtok {verb}")
        assert ran.returncode == 0, _out(ran)


def test_a_broken_codex_config_is_reported_once_with_a_fix_that_works(
    isolated_home: Path,
) -> None:
    config = isolated_home / ".codex" / "config.toml"
    config.parent.mkdir()
    config.write_text('model = "o3"\n[broken\n')
    done = run_rtok(["init", "-a", "codex", "-g", "--auto-patch"])
    assert done.returncode == 2, _out(done)
    named = _lines_naming(_out(done), config, isolated_home)
    assert len(named) == 1 and "correct it, then run the same command again" in named[0]
    config.write_text('model = "o3"\n')
    assert run_rtok(["init", "-a", "codex", "-g", "--auto-patch"]).returncode == 0
    good = config.read_text()
    config.write_text(good + "[broken\n")
    for verb in ("verify", "doctor"):
        done = run_rtok([verb])
        assert done.returncode == 1, _out(done)
        named = _lines_naming(_out(done), config, isolated_home)
        assert len(named) == 1, (verb, _out(done))
        fixed = _fix_of(named[0])
        assert fixed.startswith(f"correct {config}, then run ") and fixed.endswith(f" {verb}")
    config.write_text(good)
    for verb in ("verify", "doctor"):
        assert _run_command(f"rtok {verb}").returncode == 0, verb


def test_paths_below_home_read_tilde_in_text_and_stay_absolute_in_json(
    isolated_home: Path,
) -> None:
    (isolated_home / ".claude").mkdir()
    (isolated_home / ".claude" / "settings.json").write_text(CLEAN_SETTINGS)
    done = run_rtok(["init", "-a", "claude", "-g", "--auto-patch", "--dry-run"])
    assert done.returncode == 0, _out(done)
    text = done.stdout.decode()
    assert "--- ~/.claude/settings.json\n+++ ~/.claude/settings.json\n" in text
    assert "would update ~/.claude/settings.json [claude]" in text
    headers = [line for line in text.splitlines() if not line.startswith(("+", "-", " ", "@"))]
    assert not [line for line in headers if str(isolated_home) in line], headers
    as_json = json.loads(
        run_rtok(["init", "-a", "claude", "-g", "--auto-patch", "--dry-run", "--json"]).stdout
    )
    paths = {c["path"] for c in as_json["changes"]}
    assert str(isolated_home / ".claude" / "settings.json") in paths
    assert any(
        f"--- a{isolated_home}/.claude/settings.json" in c["diff"] for c in as_json["changes"]
    )


def test_the_same_file_body_is_shown_once_in_the_preview(isolated_home: Path) -> None:
    done = run_rtok(
        ["init", "-a", "claude", "-a", "codex", "-a", "gemini", "-g", "--dry-run", "--auto-patch"]
    )
    assert done.returncode == 0, _out(done)
    text = done.stdout.decode()
    first_line = resources.read_text("awareness", "default.md").splitlines()[0]
    assert text.count("+" + first_line + "\n") == 1, text
    assert text.count("(same content as ~/.claude/RTOK.md [claude] above)") == 2
    assert "would create ~/.codex/RTOK.md [codex]" in text
    assert "would create ~/.gemini/RTOK.md [gemini]" in text


def test_the_codex_uninstall_summary_names_only_edits_its_diff_makes(
    isolated_home: Path,
) -> None:
    project = isolated_home / "work" / "app"
    (project / ".git").mkdir(parents=True)
    done = run_rtok(["init", "-a", "codex", "--project", "--auto-patch"], cwd=str(project))
    assert done.returncode == 0, _out(done)
    plan = run_rtok(["uninstall", "-a", "codex", "--project", "--dry-run"], cwd=str(project))
    assert plan.returncode == 0, _out(plan)
    text = plan.stdout.decode()
    config_line = next(
        line for line in text.splitlines() if line.startswith("would delete ~/.codex/config.toml")
    )
    assert ".codex/hooks.json" in config_line
    # Only hooks.json was installed: nothing about a trust entry for .codex/config.toml.
    assert ".codex/config.toml" not in config_line.split("[codex]", 1)[1]


def test_init_and_uninstall_end_with_one_line_and_quiet_prints_only_it(
    isolated_home: Path,
) -> None:
    done = run_rtok(["init", "-a", "claude", "-a", "codex", "-g", "--auto-patch"])
    assert done.returncode == 0, _out(done)
    *_, result, test_with = done.stdout.decode().splitlines()
    assert result == "rtok installed for 2 agents (global): claude, codex."
    assert test_with.startswith("Test with: ")
    again = run_rtok(["init", "-a", "claude", "-a", "codex", "-g", "--auto-patch", "-q"])
    assert again.returncode == 0, _out(again)
    assert again.stdout.decode() == (
        "Nothing to do: rtok is already installed for claude, codex (global).\n"
    )
    assert again.stderr.decode() == ""
    gone = run_rtok(["uninstall", "-a", "codex", "-g", "--quiet"])
    assert gone.returncode == 0, _out(gone)
    assert gone.stdout.decode() == "rtok removed from 1 agent (global): codex.\n"


def test_quiet_still_reports_errors_on_stderr(isolated_home: Path) -> None:
    settings = isolated_home / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_text(BROKEN_SETTINGS["comment"])
    done = run_rtok(["init", "-a", "claude", "-g", "--auto-patch", "-q"])
    assert done.returncode == 2
    assert done.stdout == b""
    assert "~/.claude/settings.json: Claude Code cannot parse it" in done.stderr.decode()


def _show() -> dict[str, str]:
    done = run_rtok(["init", "--show", "-g"])
    assert done.returncode == 0, _out(done)
    lines = done.stdout.decode().splitlines()
    rows = {line.split()[0]: line for line in lines[:-1]}
    assert lines[-1].startswith("rtok: ")
    return rows


def test_show_prints_one_status_line_per_agent_with_fixes_that_work(
    isolated_home: Path,
) -> None:
    from rtok.install.integrations import load_descriptors

    rows = _show()
    assert set(rows) == set(load_descriptors())
    assert all(line.split()[1] == "absent" for line in rows.values())

    settings = isolated_home / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_text(CLEAN_SETTINGS)
    assert run_rtok(["init", "-a", "claude", "-a", "gemini", "-g", "--auto-patch"]).returncode == 0
    rows = _show()
    assert rows["claude"].split()[1:3] == ["installed", "global"]
    assert rows["gemini"].split()[1:3] == ["installed", "global"]

    # Partial: the hook entry is gone (taken out by hand), the awareness files are there.
    settings.write_text(CLEAN_SETTINGS)
    rows = _show()
    assert rows["claude"].split()[1] == "partial", rows["claude"]
    fix = _fix_of(rows["claude"])
    assert fix == "rtok init -a claude -g --auto-patch"
    assert _run_command(fix).returncode == 0
    assert _show()["claude"].split()[1] == "installed"

    # Broken: the file does not parse; the fix says to correct it, then names the command.
    installed = settings.read_text()
    settings.write_text(installed.replace("{\n", "{\n  // mine\n", 1))
    row = _show()["claude"]
    assert row.split()[1] == "broken" and "~/.claude/settings.json" in row
    fix = _fix_of(row)
    prefix = "correct ~/.claude/settings.json, then "
    assert fix.startswith(prefix)
    settings.write_text(installed)
    assert _run_command(fix[len(prefix) :]).returncode == 0
    assert _show()["claude"].split()[1] == "installed"


def test_show_in_a_project_names_a_project_fix_that_works(isolated_home: Path) -> None:
    project = isolated_home / "work" / "app"
    (project / ".git").mkdir(parents=True)
    done = run_rtok(["init", "-a", "claude", "--project", "--auto-patch"], cwd=str(project))
    assert done.returncode == 0, _out(done)
    local = project / ".claude" / "settings.local.json"
    with_hook = local.read_text()
    local.write_text("{}\n")  # the hook entry taken out by hand
    shown = run_rtok(["init", "--show", "-a", "claude"], cwd=str(project))
    assert shown.returncode == 0, _out(shown)
    row = shown.stdout.decode().splitlines()[0]
    assert row.split()[:2] == ["claude", "partial"], row
    fix = _fix_of(row)
    assert fix == "cd ~/work/app && rtok init -a claude --project --auto-patch"
    ran = _run_command(fix)
    assert ran.returncode == 0, _out(ran)
    assert "hook claude" in local.read_text() and "hook claude" in with_hook
    again = run_rtok(["init", "--show", "-a", "claude"], cwd=str(project))
    assert again.stdout.decode().splitlines()[0].split()[:2] == ["claude", "installed"]
