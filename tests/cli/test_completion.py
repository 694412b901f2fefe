"""`rtok completion SHELL`: typer's scripts, answered through click's completion protocol."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from rtok.integrity import installed
from rtok_testing import rtok_entry_point, run_rtok


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_each_script_generates(shell: str) -> None:
    result = run_rtok(["completion", shell])
    assert result.returncode == 0, result.stderr
    script = result.stdout.decode()
    assert "_RTOK_COMPLETE=complete_" + shell in script
    assert "rtok" in script


def test_an_unknown_shell_is_a_usage_error() -> None:
    result = run_rtok(["completion", "tcsh"])
    assert result.returncode == 2
    assert result.stdout == b""


def _complete(words: str, cword: int) -> list[str]:
    """What rtok offers for word `cword` of `words`, asked as the bash script asks."""
    result = run_rtok(
        [], env={"_RTOK_COMPLETE": "complete_bash", "COMP_WORDS": words, "COMP_CWORD": str(cword)}
    )
    assert result.returncode == 0, result.stderr
    return result.stdout.decode().split()


def test_real_bash_loads_the_script_and_completes_a_verb(tmp_path: Path) -> None:
    script = tmp_path / "rtok.bash"
    script.write_bytes(run_rtok(["completion", "bash"]).stdout)
    # What bash's completion calls: the function the script registered for `rtok`, with
    # COMP_WORDS/COMP_CWORD as bash sets them while the user types `rtok ver<TAB>`.
    program = (
        f"set -e; source {script}; complete -p rtok; "
        "COMP_WORDS=(rtok ver); COMP_CWORD=1; "
        f"_rtok_completion {rtok_entry_point()} ver rtok; "
        'printf "%s\\n" "${COMPREPLY[@]}"'
    )
    result = subprocess.run(
        ["bash", "--norc", "--noprofile", "-c", program],
        capture_output=True,
        env=dict(os.environ),
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert result.stderr == b""
    lines = result.stdout.decode().splitlines()
    assert lines[0].startswith("complete ") and lines[0].endswith(" rtok")
    assert lines[1:] == ["verify"]


def test_verbs_complete() -> None:
    assert _complete("rtok ver", 1) == ["verify"]
    assert {"init", "uninstall", "help", "completion", "run"} <= set(_complete("rtok ", 1))


@pytest.mark.parametrize("words", ["verify --agent", "doctor -a", "init --agent", "uninstall -a"])
def test_agent_names_complete(words: str) -> None:
    known = sorted(installed.descriptors())
    assert sorted(_complete(f"rtok {words} ", len(words.split()) + 1)) == known
    offered = _complete(f"rtok {words} co", len(words.split()) + 1)
    assert offered and sorted(offered) == [n for n in known if n.startswith("co")]
    assert "codex" in offered


@pytest.mark.skipif(shutil.which("zsh") is None, reason="zsh is not installed")
def test_real_zsh_loads_the_script(tmp_path: Path) -> None:
    script = tmp_path / "rtok.zsh"
    script.write_bytes(run_rtok(["completion", "zsh"]).stdout)
    program = (
        f"autoload -Uz compinit; compinit -u -d {tmp_path}/zcompdump; "
        f"source {script}; print -r -- ${{_comps[rtok]}}"
    )
    result = subprocess.run(
        ["zsh", "-f", "-c", program],
        capture_output=True,
        env=dict(os.environ),
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert result.stderr == b""
    assert result.stdout == b"_rtok_completion\n"


def test_zsh_is_answered() -> None:
    result = run_rtok(
        [], env={"_RTOK_COMPLETE": "complete_zsh", "_TYPER_COMPLETE_ARGS": "rtok verif"}
    )
    assert result.returncode == 0, result.stderr
    assert b"verify" in result.stdout
