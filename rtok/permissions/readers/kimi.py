"""Kimi Code's rule format: `[permission]` deny and ask rules for its `Bash` tool (globs) in
its TOML config.

Hot path: stdlib only (tomllib only when the file changed).
"""

from __future__ import annotations

from rtok.permissions.readers import strings, user_config_toml
from rtok.permissions.settings import parsed_toml

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

    from rtok.permissions.settings import Rules


def kimi_rules(cwd: str, env: Mapping[str, str]) -> Rules:
    """Kimi Code's `[permission]` deny and ask rules for its `Bash` tool, from
    `${KIMI_CODE_HOME:-~/.kimi-code}/config.toml` (`rules = [{decision, pattern}]` and the
    `deny` / `ask` lists of `{tool, match}`), both as deny.

    Kimi judges the command the model sends after rtok's suggestion, and `rtok run git
    push` no longer matches `Bash(git push*)`; such a command is left to Kimi. Its globs
    are read at least as broadly as Kimi reads them. Allow rules do not matter: the hook
    only ever suggests. The TOML is parsed only when the file changes.
    """
    del cwd  # Kimi keeps permission rules per user
    path = user_config_toml(env, "KIMI_CODE_HOME", ".kimi-code")
    readable, parsed = parsed_toml(path, "kimi-bash-rules", _kimi_bash_patterns)
    return (strings(parsed), [], []) if readable else ([], [], [])


def _kimi_bash_patterns(data: bytes) -> list[str]:
    import tomllib

    permission = tomllib.loads(data.decode("utf-8")).get("permission")
    if not isinstance(permission, dict):
        return []
    entries: list[tuple[object, object]] = []
    for key in ("deny", "ask"):
        value = permission.get(key)
        entries += [(key, item) for item in (value if isinstance(value, list) else [value])]
    rules = permission.get("rules")
    for item in rules if isinstance(rules, list) else []:
        entries.append((item.get("decision") if isinstance(item, dict) else None, item))
    patterns: list[str] = []
    for decision, item in entries:
        if decision not in ("deny", "ask") or not isinstance(item, dict):
            continue
        tool, args = _kimi_rule_parts(item)
        if tool and (tool == "Bash" or any(c in tool for c in "*?[{")):
            patterns.append(_kimi_glob_as_pattern(args))
    return patterns


def _kimi_rule_parts(item: dict[str, object]) -> tuple[str, str]:
    """(tool name pattern, argument glob) of one rule: `tool` + `match`, or `Tool(glob)`."""
    tool = item.get("tool")
    if isinstance(tool, str):
        match = item.get("match", item.get("pattern"))
        return tool.strip(), match.strip() if isinstance(match, str) else ""
    pattern = item.get("pattern")
    if not isinstance(pattern, str):
        return "", ""
    pattern = pattern.strip()
    if "(" not in pattern or not pattern.endswith(")"):
        return pattern, ""
    name, _, args = pattern[:-1].partition("(")
    return name.strip(), args.strip()


def _kimi_glob_as_pattern(glob: str) -> str:
    """A Kimi argument glob as a pattern of rtok's matcher that matches at least as much:
    its `*` crosses word ends (a trailing one becomes a plain prefix), and a glob with any
    other special character is cut to the literal text before it."""
    if not glob or glob.startswith("!"):
        return "*"  # every command, or every command but some: judged by Kimi alone
    cut = min((glob.find(c) for c in "?[]{}()+@" if c in glob), default=-1)
    if cut >= 0:
        glob = glob[:cut] + "*"
    return glob + "*" if glob.endswith("*") else glob
