"""`rtok help [CMD]`, `-V`, and one help form for every verb, the hot-path ones included."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from rtok import __version__
from rtok._fast import launcher
from rtok.cli import app as cli_app
from rtok.cli.process import HOT_PATH_VERBS
from rtok.filter import filter_main, run_main
from rtok.rewrite import main as rewrite_main
from rtok.store import expand_main
from rtok_testing import run_rtok

VERBS = sorted(set(cli_app.VERB_MODULES) | {"help"})
# The options each hot-path verb's own parser names in its usage line.
OWN_USAGE = {
    "hook": "",
    "rewrite": rewrite_main.USAGE,
    "run": run_main.USAGE,
    "filter": filter_main.USAGE,
    "expand": expand_main.USAGE,
}


def _out(args: list[str]) -> str:
    result = run_rtok(args)
    assert result.returncode == 0, result.stderr
    assert result.stderr == b""
    return result.stdout.decode()


def test_help_alone_is_rtok_help() -> None:
    assert _out(["help"]) == _out(["--help"]) == _out(["-h"])


@pytest.mark.parametrize("verb", VERBS)
def test_help_verb_is_the_verbs_own_help(verb: str) -> None:
    text = _out(["help", verb])
    assert text == _out([verb, "--help"]) == _out([verb, "-h"])
    assert text.startswith(f"Usage: rtok {verb} ")
    assert "\nOptions:\n" in text and "-h, --help" in text


def test_help_of_a_subcommand() -> None:
    text = _out(["help", "config", "show"])
    assert text == _out(["config", "show", "--help"])
    assert text.startswith("Usage: rtok config show ")


@pytest.mark.parametrize(
    ("words", "hint"), [(["nope"], ""), (["verfy"], "verify"), (["config", "shw"], "show")]
)
def test_help_of_an_unknown_command_is_a_usage_error(words: list[str], hint: str) -> None:
    result = run_rtok(["help", *words])
    assert result.returncode == 2
    assert result.stdout == b""
    lines = result.stderr.decode().splitlines()
    assert len(lines) == 1 and lines[0].startswith(
        f"rtok help: unknown command {' '.join(words)!r}"
    )
    assert (f"did you mean {hint!r}?" in lines[0]) == bool(hint)


@pytest.mark.parametrize("option", ["-V", "--version"])
def test_version(option: str) -> None:
    assert _out([option]) == f"rtok {__version__}\n"


@pytest.mark.parametrize("verb", sorted(HOT_PATH_VERBS))
def test_hot_path_help_lists_the_options_its_parser_takes(verb: str) -> None:
    text = _out([verb, "--help"])
    shown = set(re.findall(r"^  (--[a-z-]+)", text, flags=re.M)) - {"--help"}
    assert shown == set(re.findall(r"--[a-z][a-z-]+", OWN_USAGE[verb])), text
    # the description is the verb's own, in click's layout
    assert re.search(r"^Usage: rtok \S+ .*\n\n  \S", text)


def test_hot_path_help_under_the_launcher_start() -> None:
    # The launcher runs hot-path verbs with `python -S -I`: the help still has click's form.
    argv = [
        sys.executable,
        "-S",
        "-I",
        "-c",
        launcher.BOOT,
        launcher.package_root(),
        "/nonexistent/rtok",
        "run",
        "--help",
    ]
    result = subprocess.run(
        argv, capture_output=True, env=dict(os.environ), timeout=60, check=False
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.decode() == _out(["run", "--help"])


@pytest.mark.parametrize("args", [["run", "--"], ["run"]], ids=["with --", "without --"])
def test_help_after_the_command_belongs_to_the_command(args: list[str], tmp_path: Path) -> None:
    probe = [sys.executable, "-c", "import sys; print(sys.argv[1:])", "--help", "-h"]
    result = run_rtok([*args, *probe], cwd=str(tmp_path))
    assert result.returncode == 0, result.stderr
    assert result.stdout.decode().splitlines()[0] == "['--help', '-h']"


def test_rewrite_of_a_command_with_help_is_a_rewrite() -> None:
    result = run_rtok(["rewrite", "git", "--help"])
    assert b"Usage:" not in result.stdout
