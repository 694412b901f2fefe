"""Colour only on a terminal; `NO_COLOR` (any non-empty value) and `--no-color` turn it
off everywhere, the prompts included. Each case runs rtok on a real pseudo-terminal."""

from __future__ import annotations

from pathlib import Path

import pytest

from rtok_testing import run_rtok, terminal

ESC = b"\x1b["
DETECTED = b"\x1b[1mdetected\x1b[0m"


@pytest.fixture
def claude(isolated_home: Path) -> Path:
    (isolated_home / ".claude").mkdir()
    return isolated_home


def test_agents_on_a_terminal_are_coloured(claude: Path) -> None:
    status, shown = terminal.run(["agents"])
    assert status == 0
    assert DETECTED in shown


@pytest.mark.parametrize(
    ("args", "env"),
    [
        (["agents"], {"NO_COLOR": "1"}),
        (["agents"], {"NO_COLOR": "no"}),
        (["--no-color", "agents"], {}),
        (["agents", "--no-color"], {}),
    ],
    ids=["NO_COLOR=1", "NO_COLOR=no", "--no-color first", "--no-color after the verb"],
)
def test_no_color_on_a_terminal(args: list[str], env: dict[str, str], claude: Path) -> None:
    status, shown = terminal.run(args, env=env)
    assert status == 0
    assert b"detected" in shown
    assert ESC not in shown


def test_an_empty_no_color_keeps_colour(claude: Path) -> None:
    status, shown = terminal.run(["agents"], env={"NO_COLOR": ""})
    assert status == 0
    assert DETECTED in shown


def test_no_colour_into_a_pipe(claude: Path) -> None:
    result = run_rtok(["agents"])
    assert b"detected" in result.stdout
    assert ESC not in result.stdout


def _install_claude() -> None:
    done = run_rtok(["init", "-a", "claude", "-g", "--auto-patch"])
    assert done.returncode == 0, done.stderr


def test_verify_and_doctor_colour_their_status_words(claude: Path) -> None:
    _install_claude()
    for verb in ("verify", "doctor"):
        status, shown = terminal.run([verb, "-a", "claude"])
        assert b"\x1b[32mPASS\x1b[0m" in shown, (verb, status, shown[-800:])
        _, plain = terminal.run(["--no-color", verb, "-a", "claude"])
        assert b"PASS" in plain and ESC not in plain
        piped = run_rtok([verb, "-a", "claude"])
        assert b"PASS" in piped.stdout and ESC not in piped.stdout


def test_init_colours_its_diff(claude: Path) -> None:
    args = ["init", "-a", "claude", "-g", "--dry-run"]
    status, shown = terminal.run(args)
    assert status == 0
    assert b"\x1b[32m+" in shown and b"\x1b[36m@@" in shown
    _, plain = terminal.run(args, env={"NO_COLOR": "1"})
    assert b"\n+" in plain.replace(b"\r\n", b"\n") and ESC not in plain
    assert ESC not in run_rtok(args).stdout


def _prompt(args: list[str], env: dict[str, str], home: Path) -> bytes:
    project = home / "work" / "app"
    (project / ".git").mkdir(parents=True, exist_ok=True)
    seen = bytearray()
    pid, fd = terminal.spawn(args, cwd=str(project), env=env)
    terminal.answer(fd, b"which agents", b"\x03", seen)
    assert terminal.wait(pid, fd, seen) == 130
    return bytes(seen)


@pytest.mark.parametrize(
    ("args", "env"),
    [(["--no-color", "init"], {}), (["init"], {"NO_COLOR": "1"})],
    ids=["--no-color", "NO_COLOR"],
)
def test_the_prompts_honour_no_color(args: list[str], env: dict[str, str], claude: Path) -> None:
    coloured = _prompt(["init"], {}, claude)
    assert b"38;5;" in coloured  # the check can see colour
    plain = _prompt(args, env, claude)
    assert b"which agents" in plain
    assert b"38;5;" not in plain


def test_help_and_hot_path_verbs_stay_plain(tmp_path: Path) -> None:
    for args in (["--help"], ["verify", "--help"], ["run", "--help"], ["run", "echo", "hi"]):
        status, shown = terminal.run(args, cwd=str(tmp_path))
        assert status == 0, shown
        assert ESC not in shown, (args, shown[:300])
