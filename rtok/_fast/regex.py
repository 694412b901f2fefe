"""Regular expressions for the hot path without importing `re`.

Stdlib only (hot path). Importing `re` (with `enum` and `functools` behind it) costs an
`rtok run` about as much as the interpreter's own start, and parsing each pattern costs more.
The regex engine itself is the builtin `_sre` module: `re` only turns a pattern's text into
the engine's code. So the code `re` makes for each pattern is kept in private cache files
(`regex/<module>.json` in the cache dir, 0600 in 0700 dirs; one per module that compiles
patterns, so a run reads only the code of the modules it loads), tagged with the
interpreter's version and the engine's magic number, and a pattern found there is built
with `_sre.compile` directly. A pattern not found there (or any doubt about the cache) goes
through `re` as usual, and its code is kept for the next run: the cache files are written
by `flush()`, which the entry point calls once a verb has finished (never for a run that
was cancelled, and never while a module is merely imported, as when a test suite is
collected). A pattern built
from the cache is equal to the one `re.compile` returns. `_sre` checks the code it is given,
so a damaged entry cannot crash the engine (it is compiled again); the file is private to the
user, and whoever could rewrite it could rewrite rtok's own code.
"""

from __future__ import annotations

import sys

from rtok import paths
from rtok._fast import fastjson as json
from rtok._fast import oslite as os
from rtok._fast.cachefile import write_cache

TYPE_CHECKING = False
if TYPE_CHECKING:
    from re import Pattern
    from typing import Any

# The `re` flags (values of sre_constants, unchanged since Python 2).
IGNORECASE = 2
MULTILINE = 8
DOTALL = 16
VERBOSE = 64

CACHE_DIR = "regex"
# A cache past this many patterns starts again (user rules that changed often).
MAX_ENTRIES = 1000

_groups: dict[str, dict[str, list[Any]]] = {}
# The groups that met a pattern their cache file did not have (written by flush()).
_dirty: set[str] = set()
_tag = ""


def compile(source: str | bytes, flags: int = 0) -> Pattern[Any]:
    """`re.compile(source, flags)`, from the cached engine code when there is some. The
    code is cached with the other patterns of the calling module."""
    group = str(sys._getframe(1).f_globals.get("__name__", ""))
    key = _key(source, flags)
    entries = _load(group)
    found = entries.get(key)
    if found is not None:
        try:
            return _build(source, found)
        except Exception:  # a bad entry is compiled again, never trusted
            pass
    import re

    args = _engine_args(source, flags)
    if args is None:
        return re.compile(source, flags)
    entries[key] = args
    _dirty.add(group)
    return _build(source, args)


def flush() -> None:
    """Write the cache file of every module that compiled a pattern its file lacked."""
    while _dirty:
        group = _dirty.pop()
        _save(group, _groups.get(group, {}))


def _key(source: str | bytes, flags: int) -> str:
    if isinstance(source, bytes):
        return f"b{flags}:{source.decode('latin-1')}"
    return f"s{flags}:{source}"


def _build(source: str | bytes, args: list[Any]) -> Pattern[Any]:
    _sre = _engine()
    final_flags, code, groups, groupindex, indexgroup = args
    pattern: Pattern[Any] = _sre.compile(
        source, final_flags, code, groups, groupindex, tuple(indexgroup)
    )
    return pattern


def _engine_args(source: str | bytes, flags: int) -> list[Any] | None:
    """What `re` hands to `_sre.compile` for `source`, or None when it cannot be seen."""
    import re

    _sre = _engine()

    seen: list[tuple[Any, ...]] = []
    real = _sre.compile

    def spy(*args: Any) -> Any:
        seen.append(args)
        return real(*args)

    try:
        _sre.compile = spy
        re._compiler.compile(source, flags)  # type: ignore[attr-defined]
    except Exception:  # an interpreter whose `re` is built otherwise
        return None
    finally:
        _sre.compile = real
    if len(seen) != 1 or len(seen[0]) != 6 or seen[0][0] != source:
        return None
    _pattern, final_flags, code, groups, groupindex, indexgroup = seen[0]
    return [final_flags, list(code), groups, dict(groupindex), list(indexgroup)]


def _engine() -> Any:
    """The builtin regex engine (no stubs: it is `re`'s private part)."""
    return __import__("_sre")


def cache_path(group: str) -> str:
    name = "".join(c if c.isalnum() or c in "._-" else "_" for c in group) or "_"
    return os.path.join(paths.cache_dir(), CACHE_DIR, name + ".json")


def _interpreter_tag() -> str:
    _sre = _engine()
    return f"{sys.version}|{_sre.MAGIC}|{_sre.CODESIZE}"


def _load(group: str) -> dict[str, list[Any]]:
    global _tag
    cached = _groups.get(group)
    if cached is not None:
        return cached
    if not _tag:
        _tag = _interpreter_tag()
    entries: dict[str, list[Any]] = {}
    _groups[group] = entries
    try:
        with open(cache_path(group), encoding="utf-8") as handle:
            loaded = json.loads(handle.read())
    except (OSError, ValueError):
        return entries
    if isinstance(loaded, dict) and loaded.get("tag") == _tag:
        patterns = loaded.get("patterns")
        if isinstance(patterns, dict):
            entries.update(
                (key, value)
                for key, value in patterns.items()
                if isinstance(value, list) and len(value) == 5
            )
    return entries


def _save(group: str, entries: dict[str, list[Any]]) -> None:
    if len(entries) > MAX_ENTRIES:
        entries.clear()
    write_cache(cache_path(group), json.dumps({"tag": _tag, "patterns": entries}))
