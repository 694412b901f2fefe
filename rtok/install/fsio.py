"""Low-level file operations of the installer: read, atomic replace, durable delete.

Every write goes to a temp file in the target's own directory, is fsynced, renamed over the
target and the directory is fsynced, so a crash at any instant leaves the old or the new
bytes, never a mixture. Temp files carry a recognisable name with the writer's pid so a
later run can sweep the ones a killed process left behind.
"""

from __future__ import annotations

import contextlib
import os
import secrets
from collections.abc import Callable
from typing import TypeVar

from rtok import fileio

T = TypeVar("T")

TEMP_MARKER = ".rtok-tmp."


class FileAccessError(OSError):
    """A target that cannot be read or written, with a message fit for the user."""


class TargetChanged(Exception):
    """The target no longer holds the bytes the write was planned against; nothing was
    written. `current` is what it holds now (None: absent)."""

    def __init__(self, target: str, current: bytes | None) -> None:
        self.target = target
        self.current = current
        super().__init__(f"{target}: changed while rtok was writing it")


_UNCHECKED = object()


def read_target(path: str) -> bytes | None:
    """Current bytes of a file rtok may edit: None when it does not exist; a
    `FileAccessError` that says why when it cannot be read (a directory, no permission)."""
    return _readable(fileio.read_if_exists, path)


def read_with_mode(path: str) -> tuple[bytes | None, int | None]:
    """Current bytes and permission bits of `path` from one open file ((None, None) when it
    does not exist): another rtok removing it in between cannot make them disagree."""
    return _readable(fileio.read_with_mode, path)


def _readable(read: Callable[[str], T], path: str) -> T:
    try:
        return read(path)
    except IsADirectoryError as exc:
        raise FileAccessError(f"{path}: is a directory, expected a file") from exc
    except PermissionError as exc:
        raise FileAccessError(f"{path}: cannot be read (permission denied)") from exc
    except OSError as exc:
        raise FileAccessError(f"{path}: cannot be read ({exc.strerror or exc})") from exc


def current_umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def fsync_dir(directory: str) -> None:
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return  # some platforms cannot open directories; the rename is still atomic
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def temp_name_for(target: str) -> str:
    directory, base = os.path.split(target)
    # Keep the name under the usual 255-byte limit even for a long target name.
    return os.path.join(
        directory, f".{base[:120]}{TEMP_MARKER}{os.getpid()}.{secrets.token_hex(4)}"
    )


def atomic_write(
    target: str, data: bytes, mode: int, *, expect: bytes | object | None = _UNCHECKED
) -> None:
    """Replace `target` with `data` (mode `mode`, the old owner kept when possible) through
    a fsynced temp file + rename. With `expect`, the target is re-read right before the
    rename (after the temp file is durable) and TargetChanged is raised, nothing written,
    when it no longer holds exactly those bytes (None: it must still be absent): an edit
    another program saved meanwhile is never replaced."""
    try:
        owner: os.stat_result | None = os.stat(target)
    except OSError:
        owner = None
    temp = temp_name_for(target)
    fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        try:
            write_all(fd, data)
            os.fchmod(fd, mode)
            if owner is not None and (owner.st_uid, owner.st_gid) != (os.geteuid(), os.getegid()):
                # A file of another user edited with privileges keeps its owner.
                with contextlib.suppress(OSError):
                    os.fchown(fd, owner.st_uid, owner.st_gid)
            os.fsync(fd)
        finally:
            os.close(fd)
        if expect is not _UNCHECKED:
            current = read_target(target)
            if current != expect:
                raise TargetChanged(target, current)
        os.replace(temp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise
    fsync_dir(os.path.dirname(target) or ".")


def write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        view = view[written:]


def durable_unlink(target: str, *, expect: bytes | object | None = _UNCHECKED) -> None:
    if expect is not _UNCHECKED:
        current = read_target(target)
        if current != expect:
            raise TargetChanged(target, current)
    os.unlink(target)
    fsync_dir(os.path.dirname(target) or ".")


def sweep_stale_temps(directory: str) -> list[str]:
    """Remove temp files that a killed rtok process left in `directory`; return them."""
    removed: list[str] = []
    try:
        names = os.listdir(directory)
    except OSError:
        return removed
    for name in names:
        if not name.startswith(".") or TEMP_MARKER not in name:
            continue
        pid_text = name.rsplit(TEMP_MARKER, 1)[1].split(".", 1)[0]
        if not pid_text.isdigit() or _pid_alive(int(pid_text)):
            continue
        path = os.path.join(directory, name)
        with contextlib.suppress(OSError):
            os.unlink(path)
            removed.append(path)
    return removed


def _pid_alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
