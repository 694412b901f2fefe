"""FileEdits built in tests, to drive the installer engine independently of any agent."""

from __future__ import annotations

import os
from collections.abc import Callable

from rtok.formats import jsonc
from rtok.install.model import FileEdit

RTOK_ENTRY = {"type": "command", "command": "/opt/rtok/bin/rtok hook test"}
AWARENESS = b"# rtok\nShortened output: run `rtok expand ID` for the raw bytes.\n"


def _is_ours(value: object) -> bool:
    return value == RTOK_ENTRY


def settings_edit(
    path: str,
    action: str = "install",
    *,
    scope: str = "global",
    created_by_rtok: Callable[[str], bool] | None = None,
    needs_consent: bool = False,
) -> FileEdit:
    """Append (or remove) one hook entry in a JSON settings file, like a hook integration."""

    def install(current: bytes | None) -> bytes | None:
        hooks = jsonc.get(current, ("hooks",), [], label=path)
        if isinstance(hooks, list) and any(_is_ours(v) for v in hooks):
            return current
        return jsonc.append_to_array(current, ("hooks",), RTOK_ENTRY, label=path)

    def uninstall(current: bytes | None) -> bytes | None:
        if current is None:
            return None
        depth = jsonc.existing_depth(current, ("hooks",), label=path)
        if depth < 1:
            return current
        new = jsonc.remove_array_items(current, ("hooks",), _is_ours, prune=1, label=path)
        if created_by_rtok and created_by_rtok(path) and jsonc.parse(new, label=path) == {}:
            return None
        return new

    return FileEdit(
        path=path,
        agent="test",
        scope=scope,
        kind="settings_entry",
        transform=install if action == "install" else uninstall,
        needs_consent=needs_consent,
        description="add the test hook",
    )


def whole_file_edit(
    path: str,
    action: str = "install",
    *,
    body: bytes = AWARENESS,
    scope: str = "global",
    mode: int | None = None,
) -> FileEdit:
    def install(current: bytes | None) -> bytes | None:
        return body

    def uninstall(current: bytes | None) -> bytes | None:
        return None if current == body else current

    return FileEdit(
        path=path,
        agent="test",
        scope=scope,
        kind="awareness_file",
        transform=install if action == "install" else uninstall,
        mode=mode,
        description="awareness file",
    )


def failing_edit(path: str) -> FileEdit:
    def explode(current: bytes | None) -> bytes | None:
        raise jsonc.FormatError(path, 3, "expected a value")

    return FileEdit(
        path=path, agent="test", scope="global", kind="settings_entry", transform=explode
    )


def snapshot(root: str) -> dict[str, tuple[bytes, int, int]]:
    """Every file below root: bytes, mode, mtime_ns (to prove nothing was written)."""
    found: dict[str, tuple[bytes, int, int]] = {}
    for dirpath, _dirs, files in os.walk(root):
        for name in files:
            path = os.path.join(dirpath, name)
            st = os.lstat(path)
            if os.path.islink(path):
                data = os.readlink(path).encode()
            else:
                with open(path, "rb") as handle:
                    data = handle.read()
            found[path] = (data, st.st_mode, st.st_mtime_ns)
    return found
