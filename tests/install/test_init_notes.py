"""`rtok init` says when a rules-only agent gets the full awareness text, and puts a `rtok`
command on PATH (or says what to add) when the shell finds none."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from rtok import paths
from rtok_testing import run_rtok


def _project(home: Path) -> Path:
    project = home / "work" / "proj"
    (project / ".git").mkdir(parents=True)
    return project


def test_rules_agent_gets_full_awareness_and_init_says_so(isolated_home: Path) -> None:
    project = _project(isolated_home)
    done = run_rtok(["init", "--agent", "roo", "--project", "--dry-run"], cwd=str(project))
    assert done.returncode == 0, done.stderr
    assert b"Roo Code: awareness is 'full' here" in done.stderr


def test_without_the_user_bin_dir_on_path_init_says_what_to_add(isolated_home: Path) -> None:
    done = run_rtok(["init", "--agent", "claude", "--auto-patch"], env={"PATH": "/usr/bin:/bin"})
    assert done.returncode == 0, done.stderr
    text = done.stderr.decode()
    assert "~/.local/bin to PATH" in text and 'export PATH="$HOME/.local/bin:$PATH"' in text
    assert not os.path.lexists(paths.command_link())
    # The Next line names a command that works in this shell: the launcher's path.
    [next_line] = [line for line in done.stdout.decode().splitlines() if line.startswith("Next:")]
    shown = next_line.split("`")[1]
    assert shown.startswith("~/") and shown.endswith(" doctor")
    ran = subprocess.run(
        ["/bin/sh", "-c", shown],
        env={**os.environ, "PATH": "/usr/bin:/bin"},
        capture_output=True,
        timeout=120,
        check=False,
    )
    assert ran.returncode == 0, ran.stderr


def test_with_the_user_bin_dir_on_path_init_links_rtok_and_uninstall_unlinks(
    isolated_home: Path,
) -> None:
    bin_dir = isolated_home / ".local" / "bin"
    env = {"PATH": f"{bin_dir}:/usr/bin:/bin"}
    dry = run_rtok(["init", "--agent", "claude", "--dry-run"], env=env)
    assert b"would link ~/.local/bin/rtok" in dry.stdout
    assert not os.path.lexists(paths.command_link())
    done = run_rtok(["init", "--agent", "claude", "--agent", "codex", "--auto-patch"], env=env)
    assert done.returncode == 0, done.stderr
    link = Path(paths.command_link())
    assert link.is_symlink() and os.path.realpath(link) == os.path.realpath(paths.launcher())
    assert b"Next:" in done.stdout and b"`rtok doctor`" in done.stdout
    # The bare command works in a shell with that PATH, as the Next line says.
    ran = subprocess.run(
        ["/bin/sh", "-c", "rtok expand --list && rtok doctor"],
        env={**os.environ, **env},
        capture_output=True,
        timeout=120,
        check=False,
    )
    assert ran.returncode == 0, ran.stdout + ran.stderr
    # A second run changes nothing; removing one agent keeps the link for the other.
    again = run_rtok(["init", "--agent", "claude", "--auto-patch"], env=env)
    assert b"link" not in again.stderr
    assert run_rtok(["uninstall", "--agent", "claude", "--auto-patch"], env=env).returncode == 0
    assert link.is_symlink()
    assert run_rtok(["uninstall", "--agent", "codex", "--auto-patch"], env=env).returncode == 0
    assert not os.path.lexists(link)


def test_a_file_rtok_did_not_make_is_left_alone(isolated_home: Path) -> None:
    bin_dir = isolated_home / ".local" / "bin"
    bin_dir.mkdir(parents=True)
    mine = bin_dir / "rtok"
    mine.write_bytes(b"my own notes, not executable\n")
    env = {"PATH": f"{bin_dir}:/usr/bin:/bin"}
    done = run_rtok(["init", "--agent", "claude", "--auto-patch"], env=env)
    assert done.returncode == 0, done.stderr
    assert mine.read_bytes() == b"my own notes, not executable\n"
    assert b"rtok left it alone" in done.stderr
    assert run_rtok(["uninstall", "--agent", "claude", "--auto-patch"], env=env).returncode == 0
    assert mine.read_bytes() == b"my own notes, not executable\n"


def test_a_rules_agent_is_told_the_rtok_command_that_works_here(isolated_home: Path) -> None:
    rules = isolated_home / ".roo" / "rules" / "rtok.md"
    done = run_rtok(["init", "--agent", "roo"], env={"PATH": "/usr/bin:/bin"})
    assert done.returncode == 0, done.stderr
    text = rules.read_text()
    # No hook renames a bare rtok for a rules-only agent: the text names rtok's path,
    # and that command runs in a shell without rtok on PATH.
    assert "`rtok " not in text and "`~/.local/state/rtok/bin/rtok expand 3f2a9c`" in text
    ran = subprocess.run(
        ["/bin/sh", "-c", "~/.local/state/rtok/bin/rtok expand --list"],
        env={**os.environ, "PATH": "/usr/bin:/bin"},
        capture_output=True,
        timeout=60,
        check=False,
    )
    assert ran.returncode == 0, ran.stderr
    assert run_rtok(["verify"]).returncode == 0
    assert run_rtok(["uninstall", "--agent", "roo"]).returncode == 0
    assert not rules.exists()
    # With the link on PATH the text says plain `rtok`; a project's text always does.
    bin_dir = isolated_home / ".local" / "bin"
    env = {"PATH": f"{bin_dir}:/usr/bin:/bin"}
    assert run_rtok(["init", "--agent", "roo"], env=env).returncode == 0
    assert "`rtok expand 3f2a9c`" in rules.read_text()
    project = _project(isolated_home)
    assert (
        run_rtok(
            ["init", "--agent", "roo", "--project"], cwd=str(project), env={"PATH": "/usr/bin:/bin"}
        ).returncode
        == 0
    )
    assert "`rtok expand 3f2a9c`" in (project / ".roo" / "rules" / "rtok.md").read_text()


def test_a_successful_init_ends_with_a_test_command_that_works(isolated_home: Path) -> None:
    done = run_rtok(["init", "--agent", "claude", "--auto-patch"], env={"PATH": "/usr/bin:/bin"})
    assert done.returncode == 0, done.stderr
    last = done.stdout.decode().splitlines()[-1]
    assert last.startswith("Test with: ")
    command = last.removeprefix("Test with: ").split("   (")[0]
    ran = subprocess.run(
        ["/bin/sh", "-c", command],
        env={**os.environ, "PATH": "/usr/bin:/bin"},
        capture_output=True,
        timeout=120,
        check=False,
    )
    assert ran.returncode == 0, ran.stderr
    assert b"[rtok expand " in ran.stdout  # the listing was shortened and archived
    quiet = run_rtok(
        ["init", "--agent", "codex", "--auto-patch", "-q"], env={"PATH": "/usr/bin:/bin"}
    )
    assert quiet.returncode == 0 and b"Test with" not in quiet.stdout
    assert len(quiet.stdout.decode().splitlines()) == 1
