"""The permission rule readers, one module per rule format, registered in `READERS`.

A reader is `rules(cwd, env) -> (deny, ask, allow)`: pattern lists in the Claude pattern
language (rtok.permissions.verdict) read from the files the host keeps for `cwd`, with
every location taken from `env` (never the process environment). A judge
(`JUDGES`) is `verdict(cmd, cwd, env) -> str` for a host whose rules are not prefix
patterns (Auggie's regexes). Files a reader cannot read go into
`rtok.permissions.settings.problems`.

A new rule format is one module here and one line in `READERS` (or `JUDGES`): the source
name a descriptor's `[hook] permissions` may name, the module, the function, and the
top-level keys of a JSON settings file it reads (kept when a large file is cached).

What several readers share lives here too (where a host's project is, the user's home in
`env`, `Tool(…)` patterns): one module fewer for the hook to load.

Hot path: stdlib only. Only the module of the host being judged is imported.
"""

from __future__ import annotations

from rtok._fast import oslite as os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Mapping
    from typing import Any

    from rtok.permissions.settings import Reader

    Judge = Callable[[str, str, Mapping[str, str]], str]

# source -> (module under rtok.permissions.readers, function, top-level JSON keys it reads)
READERS: dict[str, tuple[str, str, tuple[str, ...]]] = {
    "claude": ("claude", "claude_rules", ("permissions",)),
    "codebuddy": ("claude", "codebuddy_rules", ("permissions",)),
    "cursor": ("claude", "cursor_rules", ("permissions",)),
    "droid": ("droid", "droid_rules", ("commandBlocklist", "commandDenylist")),
    "gemini": ("gemini", "gemini_rules", ("tools", "excludeTools", "security")),
    "grok": ("grok", "grok_rules", ("permissions",)),
    "qwen": ("gemini", "qwen_rules", ("tools", "excludeTools", "security")),
    "vibe": ("vibe", "vibe_rules", ()),
    "codex": ("codex", "codex_rules", ()),
    "kimi": ("kimi", "kimi_rules", ()),
}
JUDGES: dict[str, tuple[str, str, tuple[str, ...]]] = {
    "auggie": ("auggie", "auggie_verdict", ("toolPermissions",)),
}
# Read by rtok.permissions.opencode, which is not a reader of this table.
_OTHER_KEYS = ("permission",)

# The top-level keys any reader looks at: only these are kept in the settings cache.
RULE_KEYS = (
    tuple(
        dict.fromkeys(
            key for entry in (*READERS.values(), *JUDGES.values()) for key in entry[2]
        ).keys()
    )
    + _OTHER_KEYS
)


def _function(table: dict[str, tuple[str, str, tuple[str, ...]]], source: str) -> Any:
    """The function `table` registers for `source` (its module imported now), or None."""
    entry = table.get(source)
    if entry is None:
        return None
    module = __import__(f"rtok.permissions.readers.{entry[0]}", fromlist=[entry[1]])
    return getattr(module, entry[1])


def reader(source: str) -> Reader | None:
    """The rule reader of `source`, or None when it has none."""
    found: Reader | None = _function(READERS, source)
    return found


def judge(source: str) -> Judge | None:
    """The command judge of `source`, or None when it has none."""
    found: Judge | None = _function(JUDGES, source)
    return found


def project_root(cwd: str, marker: str) -> str | None:
    """Nearest ancestor of `cwd` (itself included) holding a `marker` directory, else the
    top of the enclosing git work tree (found by walking up to `.git`, no git process)."""
    current = os.path.abspath(cwd)
    git_top = None
    while True:
        if os.path.isdir(os.path.join(current, marker)):
            return current
        if git_top is None and os.path.exists(os.path.join(current, ".git")):
            git_top = current
        parent = os.path.dirname(current)
        if parent == current:
            return git_top
        current = parent


def home(env: Mapping[str, str]) -> str:
    """The user's home: `HOME` in `env`, else the account's."""
    return env.get("HOME") or os.path.expanduser("~")


def config_home(env: Mapping[str, str], variable: str, default_folder: str) -> str:
    """`${variable:-~/default_folder}`: a host's per-user folder."""
    return env.get(variable, "") or os.path.join(home(env), default_folder)


def user_config_toml(env: Mapping[str, str], variable: str, default_folder: str) -> str:
    """`${variable:-~/default_folder}/config.toml`, the per-user config of a TOML host."""
    return os.path.join(config_home(env, variable, default_folder), "config.toml")


def strings(value: object) -> list[str]:
    """The non-blank strings of a list (stripped); nothing for any other value."""
    if not isinstance(value, list):
        return []
    return [item.strip() for item in value if isinstance(item, str) and item.strip()]


def tool_patterns(rules: Iterable[str], tool: str) -> list[str]:
    """Inner patterns of `Tool(…)` rules; a bare `Tool` rule covers every command."""
    out = []
    for rule in rules:
        if rule == tool:
            out.append("*")
        elif rule.startswith(tool + "(") and rule.endswith(")"):
            out.append(rule[len(tool) + 1 : -1])
    return out


def unique(paths: list[str]) -> list[str]:
    """`paths` without the later ones naming a path already listed."""
    seen: set[str] = set()
    out = []
    for path in paths:
        key = os.path.normpath(path)
        if key not in seen:
            seen.add(key)
            out.append(path)
    return out
