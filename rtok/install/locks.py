"""Inter-process locks for the files the installer edits, kept in rtok's data dir.

Lock files never sit beside a user's file: they live in `<data dir>/locks/`, named by a hash
of the real path they guard, so two rtok processes editing the same file serialise while
the user's directories stay clean.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from contextlib import ExitStack, contextmanager

from rtok import paths
from rtok.fileio import sha256_hex

LOCK_TIMEOUT_SECONDS = 60.0


class LockTimeoutError(RuntimeError):
    """Another rtok process held a lock for too long."""


def locks_dir() -> str:
    return os.path.join(paths.data_dir(), "locks")


def lock_path_for(name: str) -> str:
    digest = sha256_hex(name.encode("utf-8", "surrogateescape"))[:32]
    return os.path.join(locks_dir(), f"{digest}.lock")


@contextmanager
def locked(names: Iterable[str], timeout: float = LOCK_TIMEOUT_SECONDS) -> Iterator[None]:
    """Hold one lock per name (real paths, or a fixed name such as "state").

    Locks are taken in sorted order so two processes wanting overlapping sets cannot
    deadlock.
    """
    from filelock import FileLock, Timeout  # only a run that writes pays for the import

    paths.private_dir(paths.data_dir())
    paths.private_dir(locks_dir())
    with ExitStack() as stack:
        for name in sorted(set(names)):
            lock = FileLock(lock_path_for(name), timeout=timeout, mode=0o600)
            try:
                lock.acquire()
            except Timeout as exc:
                raise LockTimeoutError(
                    f"another rtok process has held the lock for {name} for over "
                    f"{timeout:.0f} s; try again when it has finished"
                ) from exc
            stack.callback(lock.release)
        yield
