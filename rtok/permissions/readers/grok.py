"""Grok Build's rule format: Claude's settings files (which Grok merges into its own) plus
the `[permission]` tables of its TOML config files.

Hot path: stdlib only (tomllib only when a file changed).
"""

from __future__ import annotations

from rtok._fast import oslite as os
from rtok.permissions.readers import home, project_root, strings, tool_patterns, unique
from rtok.permissions.readers.claude import claude_rules
from rtok.permissions.settings import parsed_toml

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

    from rtok.permissions.settings import Rules


def grok_config_files(cwd: str, env: Mapping[str, str]) -> list[str]:
    """Grok Build's own config files with `[permission]` tables: the user's
    `${GROK_HOME:-~/.grok}/config.toml`, then `.grok/config.toml` of every folder from the
    git top level down to `cwd` (outside a repository, of `cwd` only)."""
    user = env.get("GROK_HOME", "").strip() or os.path.join(home(env), ".grok")
    files = [os.path.join(user, "config.toml")]
    top = project_root(cwd, ".git")
    current = os.path.abspath(cwd)
    folders = [] if top is not None else [current]  # outside a repository: cwd only
    while top is not None:
        folders.append(current)
        parent = os.path.dirname(current)
        if current == top or parent == current:
            break
        current = parent
    files += [os.path.join(folder, ".grok", "config.toml") for folder in reversed(folders)]
    return unique(files)


def grok_rules(cwd: str, env: Mapping[str, str]) -> Rules:
    """Grok Build's rules: those of Claude's settings files, plus the `[permission]` tables
    of its config files (`allow`, `ask`, `deny` lists of `Bash(…)` rules, and `rules`
    entries with `tool = "bash"`). The TOML is parsed only when a file changes
    (`rtok._fast.cachefile`).

    Ask rules count as deny: Grok judges the command the model sends after rtok's
    suggestion, and `rtok run git log` no longer matches `Bash(git log *)`, so a command
    the user wants to be asked about is left to Grok."""
    deny, ask, allow = claude_rules(cwd, env)
    for path in grok_config_files(cwd, env):
        readable, parsed = parsed_toml(path, "grok-permission", _grok_permission)
        if readable and isinstance(parsed, list) and len(parsed) == 3:
            deny += strings(parsed[0])
            ask += strings(parsed[1])
            allow += strings(parsed[2])
    return deny + ask, [], allow


def _grok_permission(data: bytes) -> list[list[str]]:
    import tomllib

    table = tomllib.loads(data.decode("utf-8")).get("permission")
    if not isinstance(table, dict):
        return [[], [], []]
    found = {
        action: tool_patterns(strings(table.get(action)), "Bash")
        for action in ("deny", "ask", "allow")
    }
    rules = table.get("rules")
    for rule in rules if isinstance(rules, list) else []:
        if not isinstance(rule, dict) or str(rule.get("tool", "")).lower() != "bash":
            continue
        action, pattern = rule.get("action"), rule.get("pattern", "*")
        if action in found and isinstance(pattern, str) and pattern.strip():
            found[action].append(pattern.strip())
    return [found["deny"], found["ask"], found["allow"]]
