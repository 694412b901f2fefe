"""The wrapper option tables of rules/registry.toml, checked against the real programs:
every flag and value option a table lists is one the program accepts (it does not answer
"unrecognized option"), and the command after the options is the one the program runs."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from rtok.compiled.registry import REGISTRY
from rtok.shell.wrappers import skip_options

# program -> (words between the options and the command, a value for its value options)
PROGRAMS: dict[str, tuple[list[str], dict[str, str]]] = {
    "env": ([], {"-u": "FOO", "--unset": "FOO", "-C": ".", "--chdir": ".", "-S": "true"}),
    "timeout": (["30"], {"-s": "TERM", "--signal": "TERM", "-k": "5", "--kill-after": "5"}),
    "nice": ([], {"-n": "1", "--adjustment": "1"}),
    "setsid": ([], {}),
    "stdbuf": (
        [],
        {"-i": "0", "--input": "0", "-o": "L", "--output": "L", "-e": "0", "--error": "0"},
    ),
    "flock": (
        ["{lock}"],
        {"-w": "5", "--wait": "5", "--timeout": "5", "-E": "3", "--conflict-exit-code": "3"},
    ),
    "prlimit": ([], {"-o": "RESOURCE", "--output": "RESOURCE"}),
    "chroot": (["/"], {"--userspec": "0:0", "--groups": "0"}),
    "nohup": ([], {}),
    "xargs": (
        [],
        {
            "-a": "{input}",
            "--arg-file": "{input}",
            "-d": "\n",
            "--delimiter": "\n",
            "-E": "EOF",
            "-I": "%",
            "-L": "1",
            "-n": "1",
            "--max-args": "1",
            "-P": "1",
            "--max-procs": "1",
            "-s": "4096",
            "--max-chars": "4096",
            "--process-slot-var": "SLOT",
        },
    ),
}
# What each program reads on stdin (xargs: one argument, so that its replace modes run once).
STDIN = {"xargs": "x\n"}
# Options the program accepts but with which it does not run a command here: env's NUL
# output takes no command; setsid's --ctty needs a terminal. The gate still reads past them.
NO_RUN = {
    ("env", "-0"),
    ("env", "--null"),
    ("setsid", "-c"),
    ("setsid", "--ctty"),
    # xargs asks on the terminal (-p) or gives the command the terminal as stdin (-o).
    ("xargs", "-p"),
    ("xargs", "--interactive"),
    ("xargs", "-o"),
    ("xargs", "--open-tty"),
}
REJECTED = ("unrecognized option", "invalid option", "unknown option", "illegal option")


def _cases() -> list[tuple[str, str, bool]]:
    out = []
    for program in PROGRAMS:
        table = REGISTRY["wrappers"][program]
        out += [(program, flag, False) for flag in table["flags"] if flag != "-"]
        out += [(program, flag, False) for flag in table["optional_values"]]
        out += [
            (program, option, True)
            for option in table["value_options"]
            if option in PROGRAMS[program][1]
        ]
    return out


@pytest.mark.parametrize(("program", "option", "takes_value"), _cases())
def test_each_listed_option_is_accepted_and_the_command_runs(
    program: str, option: str, takes_value: bool, tmp_path: Path
) -> None:
    if shutil.which(program) is None:
        pytest.fail(f"{program} is not installed")
    between, values = PROGRAMS[program]
    between = [w.replace("{lock}", str(tmp_path / "lock")) for w in between]
    (tmp_path / "input").write_text("x\n")
    value = values.get(option, "").replace("{input}", str(tmp_path / "input"))
    words = [program, option, *([value] if takes_value else []), *between]
    if option in ("-S", "--split-string"):
        command: list[str] = []  # the value is the command
    else:
        command = ["sh", "-c", f"echo ran > {tmp_path / 'out'}"]
    # The gate's reading: the command starts where the table says.
    after = skip_options(words, 1, REGISTRY["wrappers"][program])
    assert after is not None and after[0] == len(words), words
    result = subprocess.run(
        [*words, *command],
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
        env=dict(os.environ),
        cwd=tmp_path,
        input=STDIN.get(program),
    )
    assert not any(r in result.stderr.lower() for r in REJECTED), result.stderr
    if command and (program, option) not in NO_RUN:
        assert (tmp_path / "out").read_text() == "ran\n", (words, result.stderr)
