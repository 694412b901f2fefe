"""The `rtok run` settings from config.toml, with their defaults.

Stdlib only (hot path). config.toml is parsed through `rtok._fast.cachefile`, so an unchanged file
costs one stat and one small JSON read (`rtok.config.load`).

    [plugins.cmd]
    rules = "<path>"          # user rules file (default: <config dir>/rules.toml)
    rules_dir = "<path>"      # drop-in folder (default: <config dir>/rules.d)
    fail_tail_lines = 80      # lines a failed command prints verbatim

    [archive]
    max_entries = 200
    max_entry_bytes = 10485760
    max_age_days = 30
"""

from __future__ import annotations

from rtok import paths

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping


class Settings:
    __slots__ = (
        "fail_tail_lines",
        "max_age_days",
        "max_entries",
        "max_entry_bytes",
        "rules_dir",
        "rules_file",
    )

    def __init__(self, env: Mapping[str, str] | None = None) -> None:
        self.rules_file = paths.user_rules_file(env)
        self.rules_dir = paths.user_rules_dir(env)
        self.fail_tail_lines = 80
        self.max_entries = 200
        self.max_entry_bytes = 10 * 1024 * 1024
        self.max_age_days = 30


# Settings per (config file, size, mtime, environment the paths in it expand with): a
# process that changes HOME or edits config.toml (tests, long-running callers, doctor
# reading for another environment) never sees stale values.
_loaded: dict[tuple[str, int, int, str], Settings] = {}


def _config_key(env: Mapping[str, str] | None = None) -> tuple[str, int, int, str]:
    from rtok._fast import oslite as os

    path = paths.config_file(env)
    home = paths.home(env)
    try:
        st = os.stat(path)
    except OSError:
        return (path, -1, -1, home)
    return (path, st.st_size, st.st_mtime_ns, home)


def load_settings(env: Mapping[str, str] | None = None) -> Settings:
    """config.toml's output settings, found through `env` (by default the process
    environment)."""
    key = _config_key(env)
    cached = _loaded.get(key)
    if cached is not None:
        return cached
    settings = Settings(env)
    from rtok.config import load

    try:
        document: object = load(key[0])
    except Exception:
        document = None
    if isinstance(document, dict):
        plugins = document.get("plugins")
        cmd = plugins.get("cmd") if isinstance(plugins, dict) else None
        if isinstance(cmd, dict):
            settings.rules_file = _path(cmd.get("rules"), settings.rules_file, env)
            settings.rules_dir = _path(cmd.get("rules_dir"), settings.rules_dir, env)
            settings.fail_tail_lines = _count(cmd.get("fail_tail_lines"), 80)
        archive = document.get("archive")
        if isinstance(archive, dict):
            # An archive cap of 0 would drop the entry a trailer just pointed to.
            settings.max_entries = _count(archive.get("max_entries"), 200, 1)
            settings.max_entry_bytes = _count(archive.get("max_entry_bytes"), 10 * 1024 * 1024, 1)
            settings.max_age_days = _count(archive.get("max_age_days"), 30, 1)
    _loaded[key] = settings
    return settings


def _path(value: object, fallback: str, env: Mapping[str, str] | None) -> str:
    if isinstance(value, str) and value:
        if "~" in value or "$" in value:
            return paths.expand_user_path(value, env)
        return value
    return fallback


def _count(value: object, fallback: int, minimum: int = 0) -> int:
    if isinstance(value, int) and not isinstance(value, bool) and value >= minimum:
        return value
    return fallback


def reset_cache() -> None:
    """Forget the loaded settings (tests and long-running processes)."""
    _loaded.clear()
