"""Mistral Vibe's rule format: the `[tools.bash] denylist` of its TOML config.

Hot path: stdlib only (tomllib only when the file changed).
"""

from __future__ import annotations

from rtok.permissions.readers import strings, user_config_toml
from rtok.permissions.settings import parsed_toml

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

    from rtok.permissions.settings import Rules


def vibe_rules(cwd: str, env: Mapping[str, str]) -> Rules:
    """Mistral Vibe's `[tools.bash] denylist` from `${VIBE_HOME:-~/.vibe}/config.toml`.

    Only the deny list matters: Vibe's reply carries no decision, and a rewrite must not
    slip past a command the user blocked. The TOML is parsed only when the file changes
    (`rtok._fast.cachefile`); Vibe's built-in deny list (editors, debuggers, interactive shells)
    names nothing rtok rewrites.
    """
    del cwd  # Vibe keeps tool settings per user
    path = user_config_toml(env, "VIBE_HOME", ".vibe")
    readable, parsed = parsed_toml(path, "vibe-bash-denylist", _vibe_denylist)
    return (strings(parsed), [], []) if readable else ([], [], [])


def _vibe_denylist(data: bytes) -> list[str]:
    import tomllib

    config = tomllib.loads(data.decode("utf-8"))
    tools = config.get("tools")
    bash = tools.get("bash") if isinstance(tools, dict) else None
    denylist = bash.get("denylist") if isinstance(bash, dict) else None
    return strings(denylist)
