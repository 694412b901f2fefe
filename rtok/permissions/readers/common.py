"""What several rule readers share: where a host's project is, the user's home in `env`,
and turning rule lists into patterns.

Hot path: stdlib only.
"""

from __future__ import annotations

from rtok._fast import oslite as os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping


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
