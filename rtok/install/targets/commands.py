"""The hook command rtok registers with an agent, and how rtok recognises it again.

The command is the absolute, shell-quoted path of the installed `rtok` entry point plus
`hook <agent>`: no PATH lookup at hook time. On a host that denies the tool call when its
hook fails (`fail_closed`), a missing entry point must not block the agent, so the command
gets a tail that turns any failure into the host's "no opinion" reply.
"""

from __future__ import annotations

import ntpath
import posixpath
import shlex

RTOK_NAMES = ("rtok", "rtok.exe")


def hook_command(
    rtok_bin: str, agent: str, *, fail_closed: bool = False, no_opinion: str = ""
) -> str:
    command = f"{shlex.quote(rtok_bin)} hook {agent}"
    if not fail_closed:
        return command
    if no_opinion:
        return f"{command} || printf '%s\\n' {shlex.quote(no_opinion)}"
    return f"{command} || true"


def is_rtok_binary(word: str) -> bool:
    base = ntpath.basename(posixpath.basename(word))
    return base in RTOK_NAMES


def is_rtok_hook_command(command: object, agent: str) -> bool:
    """Is `command` a hook command rtok registered for `agent`: exactly the words
    `<path>/rtok hook <agent>`, optionally followed by one of rtok's own degrade tails."""
    if not isinstance(command, str):
        return False
    try:
        words = shlex.split(command)
    except ValueError:
        return False
    if len(words) < 3 or not is_rtok_binary(words[0]) or words[1:3] != ["hook", agent]:
        return False
    tail = words[3:]
    return (
        not tail
        or tail == ["||", "true"]
        or (len(tail) == 4 and tail[:3] == ["||", "printf", "%s\\n"])
    )


def is_edited_rtok_hook_command(command: object, agent: str) -> bool:
    """A hook command that starts with rtok's words `<path>/rtok hook <agent>` but that
    someone changed after them (a flag appended, another tail): still rtok's entry, which
    an uninstall removes and says so."""
    if not isinstance(command, str) or is_rtok_hook_command(command, agent):
        return False
    try:
        words = shlex.split(command)
    except ValueError:
        return False
    return len(words) >= 3 and is_rtok_binary(words[0]) and words[1:3] == ["hook", agent]


def registered_binary(command: object, agent: str) -> str | None:
    """The rtok entry point a registered hook command runs (for checks that it still
    exists), or None when `command` is not rtok's hook command for `agent`."""
    if not is_rtok_hook_command(command, agent):
        return None
    assert isinstance(command, str)
    return shlex.split(command)[0]
