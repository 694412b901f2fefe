"""Generated command lines: the permission gate's segmenter never under-segments."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rtok.rewrite.rewriter import Settings, rewrite_command
from rtok.shell.segments import split_for_permissions

RUNS = settings(
    deadline=None,
    derandomize=False,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

COMMANDS = [
    "git push",
    "rm -rf ~",
    "curl x",
    "sh",
    "make install",
    "git status",
    "ls -la",
    "FOO=1 git push",
    "timeout 5 git push",
    "env git push",
    "npm publish",
    "cat f",
]
OPERATORS = [" && ", " || ", "; ", " | ", " |& ", " & ", "\n", "\r\n"]


def _wrap(rng: random.Random, command: str) -> str:
    """Hide a command the way an agent (or an attacker) might."""
    choice = rng.randrange(9)
    if choice == 0:
        return f"echo $({command})"
    if choice == 1:
        return f'echo "$({command})"'
    if choice == 2:
        return f"echo `{command}`"
    if choice == 3:
        return f"bash -c '{command}'"
    if choice == 4:
        return f"( {command} )"
    if choice == 5:
        return f"{{ {command}; }}"
    if choice == 6:
        return f"if true; then {command}; fi"
    if choice == 7:
        return f"cat <({command})"
    return command


def build(seed: int) -> tuple[str, list[str]]:
    rng = random.Random(seed)
    commands = [rng.choice(COMMANDS) for _ in range(rng.randint(1, 4))]
    pieces = []
    for index, command in enumerate(commands):
        if index:
            pieces.append(rng.choice(OPERATORS))
        pieces.append(_wrap(rng, command))
    return "".join(pieces), commands


@settings(RUNS, max_examples=1500)
@given(st.integers(0, 2**63))
def test_every_command_reaches_the_gate(seed: int) -> None:
    line, commands = build(seed)
    segments = split_for_permissions(line)
    for command in commands:
        assert command in segments, (line, segments)


@settings(RUNS, max_examples=1000)
@given(st.integers(0, 2**63))
def test_rewriting_keeps_the_gate_segments(seed: int) -> None:
    # The rewrite only puts `rtok run ` in front of commands: the gate sees the same
    # commands before and after, once that prefix is taken away.
    line, _ = build(seed)
    out = rewrite_command(line, settings=Settings())
    if out is None or out == line:
        return
    after = {s.replace("rtok run ", "") for s in split_for_permissions(out)}
    assert after == set(split_for_permissions(line))
