"""Auggie's rule format: `toolPermissions` rules whose `shellInputRegex` is a regular
expression searched in the command. Not prefix patterns: `auggie_verdict` judges the
command itself (`rtok.permissions.readers.JUDGES`).

Hot path: stdlib only (`re` only when the user has such rules).
"""

from __future__ import annotations

from rtok._fast import oslite as os
from rtok.permissions.readers import project_root, unique
from rtok.permissions.settings import read_settings

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

# Auggie's tool permissions apply to launch-process (and its shell/bash aliases); a rule
# with `shellInputRegex` is a JavaScript regular expression searched in the command.
_AUGGIE_SHELL_TOOLS = ("launch-process", "shell", "bash")


def auggie_settings_files(cwd: str, env: Mapping[str, str]) -> list[str]:
    """The workspace's `.augment/settings.local.json` and `settings.json` (workspace = the
    nearest ancestor with `.augment/`, else the git top level), then `~/.augment`'s."""
    files: list[str] = []
    root = project_root(cwd, ".augment")
    if root is not None:
        folder = os.path.join(root, ".augment")
        files += [
            os.path.join(folder, "settings.local.json"),
            os.path.join(folder, "settings.json"),
        ]
    files.append(os.path.join(env.get("HOME", ""), ".augment", "settings.json"))
    return unique(files)


def auggie_shell_rules(cwd: str, env: Mapping[str, str]) -> list[tuple[str, str]]:
    """(permission type, regex or "" for every command) of each `toolPermissions` rule
    for shell tool calls, in file order."""
    rules: list[tuple[str, str]] = []
    for path in auggie_settings_files(cwd, env):
        settings = read_settings(path)
        entries = settings.get("toolPermissions") if settings is not None else None
        for rule in entries if isinstance(entries, list) else []:
            found = _shell_rule(rule)
            if found is not None:
                rules.append(found)
    return rules


def _shell_rule(rule: object) -> tuple[str, str] | None:
    """(permission type, regex) of one rule for shell tool calls, else None."""
    if not isinstance(rule, dict) or rule.get("toolName") not in _AUGGIE_SHELL_TOOLS:
        return None
    if rule.get("eventType", "tool-call") != "tool-call":
        return None
    permission = rule.get("permission")
    kind = permission.get("type") if isinstance(permission, dict) else None
    regex = rule.get("shellInputRegex", "")
    if isinstance(kind, str) and isinstance(regex, str):
        return kind, regex
    return None


def auggie_verdict(cmd: str, cwd: str, env: Mapping[str, str]) -> str:
    """ "deny" when any of the user's Auggie shell rules matches `cmd`, else "default".

    Auggie judges the command it finally runs against these rules; `rtok run git push`
    no longer matches `^git push`, so a command any rule speaks about (deny, ask-user,
    a webhook or script policy, or allow: an allow may sit before a catch-all deny) is
    left untouched and Auggie decides on the original. A regex Python cannot read counts
    as a match. Each rule sees the command as written and every reading bash could run
    (quotes removed, wrappers peeled, …). Tenant rules from Augment's backend are out of
    rtok's reach.
    """
    rules = auggie_shell_rules(cwd, env)
    if not rules:
        return "default"
    import re  # only when the user has such rules: the hook does not pay for it otherwise

    texts = [cmd, *_readings_of(cmd)]
    for _kind, regex in rules:
        if not regex:
            return "deny"
        try:
            if any(re.search(regex, text) for text in texts):
                return "deny"
        except (re.error, RecursionError):
            return "deny"
    from rtok.permissions.verdict import is_opaque

    # A line running what no reading shows (`python3 -c …`): no rule can be checked.
    return "opaque" if is_opaque(cmd) else "default"


def _readings_of(cmd: str) -> list[str]:
    """Every reading of every command bash could run for `cmd` (rtok.shell.readings):
    Auggie's regex sees the text only; `"git" push` is still a push."""
    from rtok.shell.readings import all_readings
    from rtok.shell.segments import TooDeep, permission_commands

    try:
        commands = permission_commands(cmd)
    except TooDeep:
        return []
    return [
        form
        for words, dialect, _direct in commands
        for reading in all_readings(words, dialect)
        for form in reading.forms
    ]
