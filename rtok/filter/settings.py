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


class Settings:
    __slots__ = (
        "fail_tail_lines",
        "max_age_days",
        "max_entries",
        "max_entry_bytes",
        "rules_dir",
        "rules_file",
    )

    def __init__(self) -> None:
        self.rules_file = paths.user_rules_file()
        self.rules_dir = paths.user_rules_dir()
        self.fail_tail_lines = 80
        self.max_entries = 200
        self.max_entry_bytes = 10 * 1024 * 1024
        self.max_age_days = 30


# Settings per (config file, size, mtime): a process that changes HOME or edits config.toml
# (tests, long-running callers) never sees stale values.
_loaded: dict[tuple[str, int, int], Settings] = {}


def _config_key() -> tuple[str, int, int]:
    from rtok._fast import oslite as os

    path = paths.config_file()
    try:
        st = os.stat(path)
    except OSError:
        return (path, -1, -1)
    return (path, st.st_size, st.st_mtime_ns)


def load_settings() -> Settings:
    key = _config_key()
    cached = _loaded.get(key)
    if cached is not None:
        return cached
    settings = Settings()
    from rtok.config import load

    try:
        document: object = load()
    except Exception:
        document = None
    if isinstance(document, dict):
        plugins = document.get("plugins")
        cmd = plugins.get("cmd") if isinstance(plugins, dict) else None
        if isinstance(cmd, dict):
            settings.rules_file = _path(cmd.get("rules"), settings.rules_file)
            settings.rules_dir = _path(cmd.get("rules_dir"), settings.rules_dir)
            settings.fail_tail_lines = _count(cmd.get("fail_tail_lines"), 80)
        archive = document.get("archive")
        if isinstance(archive, dict):
            # An archive cap of 0 would drop the entry a trailer just pointed to.
            settings.max_entries = _count(archive.get("max_entries"), 200, 1)
            settings.max_entry_bytes = _count(archive.get("max_entry_bytes"), 10 * 1024 * 1024, 1)
            settings.max_age_days = _count(archive.get("max_age_days"), 30, 1)
    _loaded[key] = settings
    return settings


def _path(value: object, fallback: str) -> str:
    if isinstance(value, str) and value:
        return paths.expand_user_path(value) if "~" in value or "$" in value else value
    return fallback


def _count(value: object, fallback: int, minimum: int = 0) -> int:
    if isinstance(value, int) and not isinstance(value, bool) and value >= minimum:
        return value
    return fallback


def reset_cache() -> None:
    """Forget the loaded settings (tests and long-running processes)."""
    _loaded.clear()
