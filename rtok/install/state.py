"""Which files and directories rtok created, so uninstall can delete exactly those.

Kept as JSON in rtok's data dir (`install-state.json`), replaced atomically and updated
under a lock. Paths are stored as given and as their real path; a lookup matches either,
so a file reached through a symlink is still recognised.
"""

from __future__ import annotations

import base64
import json
import os
import time
from collections.abc import Iterable
from dataclasses import dataclass

from rtok import paths
from rtok.install import fsio
from rtok.install.locks import locked

STATE_VERSION = 1
_STATE_LOCK = "rtok-install-state"


class StateError(RuntimeError):
    """The state file exists but cannot be read as rtok's install state."""


@dataclass(frozen=True)
class InstallState:
    created_files: frozenset[str]
    created_dirs: frozenset[str]

    def created(self, path: str) -> bool:
        keys = _keys_for(path)
        return bool(keys & self.created_files) or bool(keys & self.created_dirs)


def state_file() -> str:
    return os.path.join(paths.data_dir(), "install-state.json")


def _keys_for(path: str) -> set[str]:
    absolute = os.path.abspath(path)
    return {absolute, os.path.realpath(absolute)}


def load() -> InstallState:
    raw = fsio.read_target(state_file())
    if raw is None:
        return InstallState(frozenset(), frozenset())
    try:
        data = json.loads(raw.decode("utf-8"))
        files = data["created_files"]
        dirs = data["created_dirs"]
        if not isinstance(files, dict) or not isinstance(dirs, dict):
            raise TypeError("created_files and created_dirs must be objects")
    except (ValueError, KeyError, TypeError) as exc:
        raise StateError(
            f"{state_file()}: not a valid rtok install state ({exc}); move it aside to "
            "continue (rtok then keeps files it created instead of deleting them)"
        ) from exc
    return InstallState(frozenset(files), frozenset(dirs))


def update(
    *,
    add_files: Iterable[str] = (),
    add_dirs: Iterable[str] = (),
    remove_files: Iterable[str] = (),
    remove_dirs: Iterable[str] = (),
) -> None:
    """Add and remove entries in one atomic replacement of the state file."""
    add_files, add_dirs = list(add_files), list(add_dirs)
    remove_files, remove_dirs = list(remove_files), list(remove_dirs)
    if not (add_files or add_dirs or remove_files or remove_dirs):
        return
    with locked([_STATE_LOCK]):
        raw = fsio.read_target(state_file())
        data: dict[str, dict[str, dict[str, object]]]
        if raw is None:
            data = {"created_files": {}, "created_dirs": {}}
        else:
            load()  # validates, raising StateError on a corrupt file
            data = json.loads(raw.decode("utf-8"))
        stamp = {"time": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}
        for key, additions, removals in (
            ("created_files", add_files, remove_files),
            ("created_dirs", add_dirs, remove_dirs),
        ):
            table = data.setdefault(key, {})
            for path in removals:
                for alias in _keys_for(path):
                    table.pop(alias, None)
            for path in additions:
                for alias in _keys_for(path):
                    table.setdefault(alias, dict(stamp))
        document = {"version": STATE_VERSION, **data}
        paths.private_dir(paths.data_dir())
        _write(document)


def _write(document: dict[str, object]) -> None:
    paths.private_dir(paths.data_dir())
    body = json.dumps(document, indent=2, sort_keys=True).encode("utf-8") + b"\n"
    fsio.atomic_write(state_file(), body, 0o600)


OriginTable = dict[str, tuple[str, str]]


def load_origins() -> OriginTable:
    """Real path -> (hash of the bytes rtok wrote, base64 of the bytes before rtok)."""
    raw = fsio.read_target(state_file())
    if raw is None:
        return {}
    try:
        table = json.loads(raw.decode("utf-8")).get("origins", {})
        return {
            path: (entry["sha_after"], entry["origin"])
            for path, entry in table.items()
            if isinstance(entry, dict)
            and isinstance(entry.get("sha_after"), str)
            and isinstance(entry.get("origin"), str)
        }
    except (ValueError, TypeError, AttributeError):
        return {}


def origin_of(table: OriginTable, path: str, current_sha256: str) -> bytes | None:
    """The bytes `path` had before rtok changed it, if the file is still exactly as rtok
    left it (`current_sha256` is the hash of its current bytes)."""
    entry = table.get(os.path.realpath(os.path.abspath(path)))
    if entry is None or entry[0] != current_sha256:
        return None
    try:
        return base64.b64decode(entry[1], validate=True)
    except ValueError:
        return None


def update_origins(*, keep: dict[str, tuple[str, bytes]], drop: Iterable[str]) -> None:
    """Record (hash of what rtok wrote, earlier bytes) per real path; forget `drop`."""
    drop = list(drop)
    if not keep and not drop:
        return
    with locked([_STATE_LOCK]):
        raw = fsio.read_target(state_file())
        if raw is None:
            document: dict[str, object] = {
                "version": STATE_VERSION,
                "created_files": {},
                "created_dirs": {},
            }
        else:
            load()  # validates, raising StateError on a corrupt file
            document = json.loads(raw.decode("utf-8"))
        table = document.get("origins")
        if not isinstance(table, dict):
            table = {}
        for path in drop:
            table.pop(os.path.realpath(os.path.abspath(path)), None)
        for path, (sha_after, origin) in keep.items():
            table[os.path.realpath(os.path.abspath(path))] = {
                "sha_after": sha_after,
                "origin": base64.b64encode(origin).decode("ascii"),
            }
        document["origins"] = table
        _write(document)
