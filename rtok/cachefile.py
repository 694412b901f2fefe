"""A JSON cache of parsed user files, keyed by path, size and mtime_ns.

The hot path must not parse TOML on every call (tomllib alone costs more than a bare
interpreter start). Callers hand over a parser that is only invoked when the file changed;
the parser is imported lazily by the caller, inside that function.
"""

from __future__ import annotations

import os

from rtok import fastjson as json
from rtok import paths

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

_MISSING: dict[str, object] = {"missing": True}


def _stamp(path: str) -> list[int] | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return [st.st_size, st.st_mtime_ns]


def cached_parse(path: str, namespace: str, parse: Callable[[bytes], object]) -> object:
    """Return `parse(bytes of path)`, reusing a cached result while the file is unchanged.

    A missing file returns None. The parsed value must be JSON-serialisable. Errors from
    `parse` propagate and nothing is cached for them.
    """
    stamp = _stamp(path)
    if stamp is None:
        return None
    cache_path = os.path.join(paths.cache_dir(), "parsed", namespace + ".json")
    key = os.path.abspath(path)
    entries: dict[str, object] = {}
    try:
        with open(cache_path, encoding="utf-8") as handle:
            loaded = json.loads(handle.read())
        if isinstance(loaded, dict):
            entries = loaded
            hit = entries.get(key)
            if isinstance(hit, dict) and hit.get("stamp") == stamp:
                return hit.get("value")
    except (OSError, ValueError):
        pass
    with open(path, "rb") as handle:
        data = handle.read()
    value = parse(data)
    # The file may have changed while we read it; only cache a stable read.
    if _stamp(path) == stamp:
        entries[key] = {"stamp": stamp, "value": value}
        _write_atomic(cache_path, json.dumps(entries))
    return value


def _write_atomic(path: str, text: str) -> None:
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        tmp = f"{path}.{os.getpid()}.tmp"
        with open(tmp, "w", encoding="utf-8") as handle:
            handle.write(text)
        os.replace(tmp, path)
    except OSError:
        # A cache that cannot be written only costs speed.
        pass
