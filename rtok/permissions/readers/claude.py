"""Claude's rule format: `permissions.deny|ask|allow` lists of `Tool(pattern)` rules in
strict-JSON settings files. Read for Claude Code (`Bash(…)`), CodeBuddy Code (Claude's
layout under `.codebuddy/`) and Cursor CLI (`Shell(…)` in `~/.cursor/cli-config.json`).

Hot path: stdlib only.
"""

from __future__ import annotations

import sys

from rtok._fast import oslite as os
from rtok.permissions.readers import home, project_root, strings, tool_patterns, unique
from rtok.permissions.settings import read_settings

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

    from rtok.permissions.settings import Rules


def claude_config_dir(env: Mapping[str, str]) -> str:
    configured = env.get("CLAUDE_CONFIG_DIR", "")
    if configured:
        return configured
    return os.path.join(home(env), ".claude")


def _claude_managed_settings() -> str:
    """The administrator's policy file; its deny rules bind every user and project."""
    if sys.platform == "darwin":
        return "/Library/Application Support/ClaudeCode/managed-settings.json"
    if os.name == "nt":
        return os.path.join(
            os.environ.get("PROGRAMDATA", r"C:\ProgramData"), "ClaudeCode", "managed-settings.json"
        )
    return "/etc/claude-code/managed-settings.json"


MANAGED_SETTINGS = _claude_managed_settings()


def _project_and_user(cwd: str, folder: str, user: str) -> list[str]:
    """`settings.json` and `settings.local.json` of the project's `folder`, then the
    user's two files in `user`."""
    files = []
    root = project_root(cwd, folder)
    if root is not None:
        files += [
            os.path.join(root, folder, "settings.json"),
            os.path.join(root, folder, "settings.local.json"),
        ]
    files += [os.path.join(user, "settings.json"), os.path.join(user, "settings.local.json")]
    return files


def claude_settings_files(cwd: str, env: Mapping[str, str]) -> list[str]:
    """Project `settings.json` and `settings.local.json`, then the user's two files, then
    the managed policy file when an administrator installed one."""
    files = _project_and_user(cwd, ".claude", claude_config_dir(env))
    files.append(MANAGED_SETTINGS)
    return unique(files)


def claude_rules(cwd: str, env: Mapping[str, str]) -> Rules:
    """`permissions.deny|ask|allow` `Bash(…)` rules merged from Claude's settings files."""
    return permission_rules(claude_settings_files(cwd, env), "Bash")


def codebuddy_settings_files(cwd: str, env: Mapping[str, str]) -> list[str]:
    """CodeBuddy Code's settings files, in Claude's layout under `.codebuddy/`: the
    project's `settings.json` and `settings.local.json`, then the user's two files."""
    user = env.get("CODEBUDDY_CONFIG_DIR", "").strip() or os.path.join(home(env), ".codebuddy")
    return unique(_project_and_user(cwd, ".codebuddy", user))


def codebuddy_rules(cwd: str, env: Mapping[str, str]) -> Rules:
    """`permissions.deny|ask|allow` `Bash(…)` rules merged from CodeBuddy Code's settings."""
    return permission_rules(codebuddy_settings_files(cwd, env), "Bash")


def cursor_rules(cwd: str, env: Mapping[str, str]) -> Rules:
    """Cursor CLI's `~/.cursor/cli-config.json`: `permissions.allow|deny` with `Shell(…)`."""
    del cwd  # Cursor keeps shell permissions per user only
    return permission_rules([os.path.join(home(env), ".cursor", "cli-config.json")], "Shell")


def permission_rules(files: list[str], tool: str) -> Rules:
    """The `permissions` lists of `tool` rules of every file, merged in file order."""
    deny: list[str] = []
    ask: list[str] = []
    allow: list[str] = []
    for path in files:
        settings = read_settings(path)
        if settings is None:
            continue
        permissions = settings.get("permissions")
        if not isinstance(permissions, dict):
            continue
        deny += tool_patterns(strings(permissions.get("deny")), tool)
        ask += tool_patterns(strings(permissions.get("ask")), tool)
        allow += tool_patterns(strings(permissions.get("allow")), tool)
    return deny, ask, allow
