"""rtok's own config.toml, read cheaply enough for the hot path.

`load()` returns the parsed file as a dict ({} when there is none). tomllib is imported and
run only when the file changed since the last call (rtok._fast.cachefile keeps the parsed value
keyed by path and content hash). A malformed file gives one warning on stderr and defaults.

Known keys (others are kept and ignored here):
    [hooks] exclude_commands = [...]      commands never rewritten (word prefix, or ^regex)
    [hooks] transparent_prefixes = [...]  user wrapper prefixes rtok looks through

Hot path: stdlib only; tomllib only inside `_parse`.
"""

from __future__ import annotations

import sys

from rtok import paths
from rtok._fast import oslite as os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

CACHE_NAMESPACE = "config"
_warned: set[str] = set()


class ConfigError(ValueError):
    """config.toml cannot be read as TOML."""


def parse_config_bytes(data: bytes) -> dict[str, object]:
    """The TOML document as JSON-compatible values (dates become ISO strings)."""
    import tomllib

    try:
        parsed = tomllib.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ConfigError(str(exc)) from exc
    value = _jsonable(parsed)
    assert isinstance(value, dict)
    return value


def _jsonable(value: object) -> object:
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_jsonable(v) for v in value]
    if isinstance(value, str | int | float | bool) or value is None:
        return value
    isoformat = getattr(value, "isoformat", None)
    if callable(isoformat):
        return str(isoformat())
    return str(value)


def load(path: str | None = None, env: Mapping[str, str] | None = None) -> dict[str, object]:
    """config.toml as a dict; {} when missing or malformed (malformed: one stderr warning).
    Found through `env` (by default the process environment) unless `path` is given."""
    target = path or paths.config_file(env)
    try:
        os.stat(target)
    except OSError:
        return {}
    from rtok._fast import cachefile

    try:
        value = cachefile.cached_parse(target, CACHE_NAMESPACE, parse_config_bytes)
    except (ConfigError, OSError) as exc:
        if target not in _warned:
            _warned.add(target)
            detail = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            sys.stderr.write(f"rtok: warning: ignoring {target} (not valid TOML: {detail})\n")
        return {}
    return value if isinstance(value, dict) else {}


def hooks_section(config: dict[str, object]) -> dict[str, object]:
    section = config.get("hooks")
    return section if isinstance(section, dict) else {}
