"""Exact uninstall for files rtok changed: the bytes a file had before rtok touched it.

The format editors remove exactly rtok's bytes, but some removals cannot know what was
there before: a user's empty `"hooks": {}` looks the same after uninstall as an object rtok
created and emptied again. So when rtok changes a file it keeps the file's earlier bytes
(its origin) with the hash of what rtok wrote. An uninstall that finds the file exactly as
rtok left it, and whose minimal removal leaves nothing of rtok's but empty containers,
gives back the origin byte for byte. A file the user edited since is handled by the
minimal removal alone, so the user's edits stay.
"""

from __future__ import annotations

from collections.abc import Iterable

from rtok.fileio import sha256_hex
from rtok.formats import jsonc
from rtok.formats.errors import FormatError
from rtok.install import state
from rtok.install.model import Action

# Origins are kept in the state file; a settings file larger than this is not kept.
MAX_ORIGIN_BYTES = 1024 * 1024


def _without_empty_containers(value: object) -> object:
    if isinstance(value, dict):
        pruned = {k: _without_empty_containers(v) for k, v in value.items()}
        return {k: v for k, v in pruned.items() if v != {} and v != []}
    if isinstance(value, list):
        return [_without_empty_containers(v) for v in value]
    return value


def _equivalent(planned: bytes, origin: bytes) -> bool:
    """`planned` differs from `origin` at most by empty JSON objects or arrays."""
    if planned == origin:
        return True
    if not origin.strip():
        # An empty or whitespace-only file: the removal leaves a skeleton such as `{}` or
        # the `{"version": 1}` rtok started the file with (Cursor, Trae, Copilot), whose
        # scalar keys can only be rtok's since the file is still exactly as rtok left it.
        try:
            value = jsonc.parse(planned)
        except (FormatError, ValueError):
            return False
        if value is None:
            return True
        pruned = _without_empty_containers(value)
        return isinstance(pruned, dict) and not any(
            isinstance(item, (dict, list)) for item in pruned.values()
        )
    try:
        left = jsonc.parse(planned)
        right = jsonc.parse(origin)
    except (FormatError, ValueError):
        return False
    return _without_empty_containers(left) == _without_empty_containers(right)


def restore(
    table: state.OriginTable, real_path: str, current: bytes | None, planned: bytes | None
) -> bytes | None:
    """The bytes an uninstall should leave: the origin when it applies, else `planned`.
    `table` is `state.load_origins()`, read once per plan or apply."""
    if current is None or planned is None:
        return planned
    origin = state.origin_of(table, real_path, sha256_hex(current))
    if origin is None or not _equivalent(planned, origin):
        return planned
    return origin


def after_apply(action: Action, changes: Iterable[tuple[str, bytes | None, bytes | None]]) -> None:
    """Update the kept origins for (real path, old bytes, new bytes) that were written."""
    table = state.load_origins()
    keep: dict[str, tuple[str, bytes]] = {}
    drop: list[str] = []
    for real_path, old, new in changes:
        previous = state.origin_of(table, real_path, sha256_hex(old)) if old is not None else None
        if new is None:
            drop.append(real_path)
            continue
        if action == "uninstall":
            if previous is None or new == previous:
                drop.append(real_path)
            else:
                keep[real_path] = (sha256_hex(new), previous)
            continue
        origin = previous if previous is not None else old
        if origin is None or len(origin) > MAX_ORIGIN_BYTES:
            drop.append(real_path)
        else:
            keep[real_path] = (sha256_hex(new), origin)
    state.update_origins(keep=keep, drop=drop)
