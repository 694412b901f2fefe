"""The hook command rtok registers with an agent, and how rtok recognises it again.

The command is the absolute, shell-quoted path of the installed `rtok` entry point plus
`hook <agent>`: no PATH lookup at hook time. Every hook host runs it through a shell, so
where that path is a POSIX one (the launcher) the command first checks that the file is
there and answers "no opinion" itself when it is not (a wiped state dir): `[ -x L ] &&
exec L hook A || printf '%s\\n' REPLY` (`|| true` where the reply is empty). `exec` keeps
the hook's own exit status, which hosts such as Windsurf and Kiro read. On a host that
denies the tool call whenever its hook fails (`fail_closed`) the command has no `exec`,
so that any failure of the hook itself turns into the same "no opinion" tail. A Windows
or relative entry point keeps the plain form (with the tail where `fail_closed`).
"""

from __future__ import annotations

import ntpath
import posixpath
import shlex

RTOK_NAMES = ("rtok", "rtok.exe")


def hook_command(
    rtok_bin: str, agent: str, *, fail_closed: bool = False, no_opinion: str = ""
) -> str:
    quoted = shlex.quote(rtok_bin)
    command = f"{quoted} hook {agent}"
    tail = f"|| printf '%s\\n' {shlex.quote(no_opinion)}" if no_opinion else "|| true"
    if not rtok_bin.startswith("/"):
        return f"{command} {tail}" if fail_closed else command
    run = command if fail_closed else f"exec {command}"
    return f"[ -x {quoted} ] && {run} {tail}"


def _split(command: object) -> list[str] | None:
    if not isinstance(command, str):
        return None
    try:
        return shlex.split(command)
    except ValueError:
        return None


def _unguarded(words: list[str]) -> tuple[list[str], str | None]:
    """The words from the rtok binary on, and the path the `[ -x PATH ] && [exec]` guard
    before them checks (None without a guard)."""
    if words[:2] != ["[", "-x"] or words[3:5] != ["]", "&&"]:
        return words, None
    rest = words[5:]
    if rest[:1] == ["exec"]:
        rest = rest[1:]
    return rest, words[2]


def _is_tail(tail: list[str]) -> bool:
    return tail == ["||", "true"] or (len(tail) == 4 and tail[:3] == ["||", "printf", "%s\\n"])


def _rtok_words(command: object, agent: str) -> tuple[list[str], str | None] | None:
    """([binary, words after `<path>/rtok hook <agent>`...], guarded path) when `command`
    runs rtok's hook for `agent`."""
    words = _split(command)
    if words is None:
        return None
    words, guard = _unguarded(words)
    if len(words) < 3 or not is_rtok_binary(words[0]) or words[1:3] != ["hook", agent]:
        return None
    return [words[0], *words[3:]], guard


def is_rtok_binary(word: str) -> bool:
    base = ntpath.basename(posixpath.basename(word))
    return base in RTOK_NAMES


def is_rtok_hook_command(command: object, agent: str) -> bool:
    """Is `command` a hook command rtok registered for `agent`: exactly the words
    `<path>/rtok hook <agent>`, optionally followed by one of rtok's own degrade tails, or
    the guarded form `[ -x <path>/rtok ] && [exec] <path>/rtok hook <agent> <tail>`."""
    found = _rtok_words(command, agent)
    if found is None:
        return False
    words, guard = found
    if guard is None:
        return not words[1:] or _is_tail(words[1:])
    # The guard names an rtok entry point (the same one, as rendered; one changed since is
    # still rtok's entry, whose recorded hash then says it was tampered with).
    return is_rtok_binary(guard) and _is_tail(words[1:])


def is_edited_rtok_hook_command(command: object, agent: str) -> bool:
    """A hook command that starts with rtok's words `<path>/rtok hook <agent>` but that
    someone changed after them (a flag appended, another tail): still rtok's entry, which
    an uninstall removes and says so."""
    if is_rtok_hook_command(command, agent):
        return False
    return _rtok_words(command, agent) is not None


def registered_binary(command: object, agent: str) -> str | None:
    """The rtok entry point a registered hook command runs (for checks that it still
    exists), or None when `command` is not rtok's hook command for `agent`."""
    if not is_rtok_hook_command(command, agent):
        return None
    found = _rtok_words(command, agent)
    return found[0][0] if found else None
