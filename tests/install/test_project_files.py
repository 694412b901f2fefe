"""Files of a project scope (usually committed) carry no path of the user's machine."""

from __future__ import annotations

import subprocess
from pathlib import Path

from rtok_testing import run_rtok


def _project(home: Path) -> Path:
    project = home / "work" / "proj"
    (project / ".git").mkdir(parents=True)
    return project


def _out(done: subprocess.CompletedProcess[bytes]) -> str:
    return done.stdout.decode() + done.stderr.decode()


def test_codex_project_agents_md_names_its_awareness_file_from_the_project_root(
    isolated_home: Path,
) -> None:
    project = _project(isolated_home)
    done = run_rtok(["init", "-a", "codex", "--project", "--auto-patch"], cwd=str(project))
    assert done.returncode == 0, _out(done)
    agents_md = (project / "AGENTS.md").read_text()
    assert agents_md == "@.codex/RTOK.md\n"
    assert (project / ".codex" / "RTOK.md").is_file()
    for name in ("AGENTS.md", ".codex/RTOK.md"):
        assert str(isolated_home) not in (project / name).read_text(), name

    done = run_rtok(["uninstall", "-a", "codex", "--project", "--auto-patch"], cwd=str(project))
    assert done.returncode == 0, _out(done)
    assert not (project / "AGENTS.md").exists()


def test_codex_global_agents_md_keeps_the_absolute_path(isolated_home: Path) -> None:
    done = run_rtok(["init", "-a", "codex", "-g", "--auto-patch"])
    assert done.returncode == 0, _out(done)
    codex = isolated_home / ".codex"
    assert (codex / "AGENTS.md").read_text() == f"@{codex}/RTOK.md\n"


def test_uninstall_removes_the_absolute_line_an_earlier_release_wrote(
    isolated_home: Path,
) -> None:
    project = _project(isolated_home)
    done = run_rtok(["init", "-a", "codex", "--project", "--auto-patch"], cwd=str(project))
    assert done.returncode == 0, _out(done)
    user_text = "# Team notes\n\nRun make test.\n"
    # What earlier releases wrote into a project's AGENTS.md, below the user's own text.
    (project / "AGENTS.md").write_text(f"{user_text}@{project}/.codex/RTOK.md\n")

    done = run_rtok(["uninstall", "-a", "codex", "--project", "--auto-patch"], cwd=str(project))
    assert done.returncode == 0, _out(done)
    left = (project / "AGENTS.md").read_text()
    assert "RTOK.md" not in left and left.rstrip("\n") == user_text.rstrip("\n")
