"""Gemini CLI's rule format, shared by Qwen Code (a Gemini CLI fork): `tools.allowed` (run
without confirmation) and `tools.exclude` / legacy `excludeTools` (blocked)
`run_shell_command(…)` / `ShellTool(…)` entries in JSON-with-comments settings files.

Hot path: stdlib only.
"""

from __future__ import annotations

from rtok._fast import oslite as os
from rtok.permissions.readers import project_root, strings, tool_patterns
from rtok.permissions.settings import read_settings

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

    from rtok.permissions.settings import Rules


def gemini_rules(cwd: str, env: Mapping[str, str]) -> Rules:
    """Gemini CLI's allowed and excluded shell commands.

    The user file is `${GEMINI_CLI_HOME:-~}/.gemini/settings.json`; a project's
    `.gemini/settings.json` counts only when Gemini trusts the workspace
    (`GEMINI_CLI_TRUST_WORKSPACE=true`, or folder trust not enabled). Exclusions add up;
    a project's allow list replaces the user's, as Gemini's settings merge does.
    """
    home = env.get("GEMINI_CLI_HOME", "") or env.get("HOME", "")
    trusted = env.get("GEMINI_CLI_TRUST_WORKSPACE", "").lower() == "true"
    return _gemini_family_rules(cwd, home, ".gemini", trusted)


def qwen_rules(cwd: str, env: Mapping[str, str]) -> Rules:
    """Qwen Code: the same keys in `~/.qwen/settings.json` and a trusted project's
    `.qwen/settings.json`."""
    return _gemini_family_rules(cwd, env.get("HOME", ""), ".qwen", False)


def _gemini_family_rules(cwd: str, home: str, folder: str, trusted_by_env: bool) -> Rules:
    user_path = os.path.join(home or os.path.expanduser("~"), folder, "settings.json")
    user = read_settings(user_path, "jsonc") or {}
    layers = [user]
    root = project_root(cwd, folder)
    if root is not None and (trusted_by_env or _folder_trust_off(user)):
        project_path = os.path.join(root, folder, "settings.json")
        if os.path.normpath(project_path) != os.path.normpath(user_path):
            project = read_settings(project_path, "jsonc")
            if project is not None:
                layers.append(project)
    deny: list[str] = []
    allow: list[str] = []
    for layer in layers:
        tools = layer.get("tools")
        tools = tools if isinstance(tools, dict) else {}
        excluded = strings(tools.get("exclude")) + strings(layer.get("excludeTools"))
        deny += _gemini_patterns(excluded)
        if "allowed" in tools:
            allow = _gemini_patterns(strings(tools.get("allowed")))
    return deny, [], allow


def _gemini_patterns(rules: list[str]) -> list[str]:
    return tool_patterns(rules, "run_shell_command") + tool_patterns(rules, "ShellTool")


def _folder_trust_off(user: dict[str, object]) -> bool:
    """Without folder trust enabled, Gemini (and Qwen) read every workspace's settings."""
    security = user.get("security")
    folder_trust = security.get("folderTrust") if isinstance(security, dict) else None
    enabled = folder_trust.get("enabled") if isinstance(folder_trust, dict) else None
    return enabled is not True
