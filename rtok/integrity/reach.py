"""Can the agent's own shell run `rtok expand`? The check behind `rtok doctor`'s "expand".

The trailer of every shortened output and every awareness file tell the model to run
`rtok expand ID`. That command reaches rtok in one of two ways: the agent's hook (or
plugin) renames the bare `rtok` to the installed rtok's path, or the shell finds `rtok` on
the PATH the agent gives it. This module finds which command the agent would end up
running and runs it the way the agent's shell would (`/bin/sh -c`, the agent's
environment); doctor turns the answer into a check.
"""

from __future__ import annotations

import json
import re
import subprocess
from collections.abc import Mapping
from dataclasses import dataclass

from rtok.integrity.process import run_captured
from rtok.integrity.verify import json_strings

PROBE = "rtok expand --list"
_TIMEOUT_S = 30.0
# A command ending in ` expand --list` inside a reply: a quoted or plain program word.
_PROBE_FORM = re.compile(r"""(?:'[^'\n]*'|"[^"\n]*"|[^\s`'"]+) expand --list""")


@dataclass(frozen=True)
class Reach:
    ok: bool
    command: str  # what the agent's shell would run
    how: str  # "named by the hook" | "found on PATH"
    detail: str = ""  # why it failed


def command_in_reply(reply: str) -> str | None:
    """The `… expand --list` command a hook's reply hands the agent (rewritten in place or
    suggested in a denial's reason), or None when the reply names none."""
    try:
        texts = json_strings(json.loads(reply)) if reply.strip() else []
    except ValueError:
        texts = [reply]
    for text in texts:
        found = _PROBE_FORM.search(text)
        if found:
            return found.group(0)
    return None


def shell_runs(command: str, cwd: str, env: Mapping[str, str]) -> tuple[bool, str]:
    """Does `/bin/sh -c command` exit 0 here? (ok, what it said when not)."""
    try:
        done = run_captured(["/bin/sh", "-c", command], _TIMEOUT_S, cwd=cwd, env=env)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return False, str(exc)
    if done.returncode == 0:
        return True, ""
    said = (done.stderr.strip().splitlines() or [""])[-1][:160]
    return False, f"exit {done.returncode}" + (f": {said}" if said else "")


def through_reply(reply: str, cwd: str, env: Mapping[str, str]) -> Reach:
    """What happens to `rtok expand` given the hook's or plugin's reply for it."""
    named = command_in_reply(reply)
    command, how = (named, "named by the hook") if named else (PROBE, "found on PATH")
    ok, detail = shell_runs(command, cwd, env)
    return Reach(ok, command, how, detail)
