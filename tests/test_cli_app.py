"""The typer app lists every verb, and running one verb builds only that verb's module."""

from __future__ import annotations

import re

from rtok.cli import app as cli_app
from rtok_testing import run_rtok


def test_help_lists_every_verb() -> None:
    result = run_rtok(["--help"])
    assert result.returncode == 0, result.stderr
    listed = set(re.findall(r"^  ([a-z]+)\s", result.stdout.decode(), flags=re.M))
    expected = set(cli_app.VERB_MODULES) | {"hook", "rewrite", "run", "filter", "expand"}
    assert expected <= listed, expected - listed


def test_each_verb_module_registers_its_verbs() -> None:
    for verb, module in cli_app.VERB_MODULES.items():
        assert module in cli_app.COMMAND_MODULES, module
        names = {command.name for command in cli_app.build_app(verb).registered_commands}
        groups = {group.name for group in cli_app.build_app(verb).registered_groups}
        assert verb in names | groups, verb


def test_running_a_verb_does_not_import_other_verbs() -> None:
    probe = (
        "import sys\n"
        "from rtok.cli.app import run_app\n"
        "run_app(['agents', '--json'])\n"
        "print(sorted(m for m in sys.modules if m.startswith('rtok.cli.cmd_')))\n"
    )
    import subprocess
    import sys

    result = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=60, check=False
    )
    last = result.stdout.strip().splitlines()[-1]
    assert last == "['rtok.cli.cmd_agents']", result.stdout + result.stderr
