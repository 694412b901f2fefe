"""Backups of every pre-existing file the installer changes.

Each run that changes a pre-existing file gets its own new directory under
`rtok.paths.backups_dir()` (UTC time, pid and a random suffix; created exclusively), so a
later run can never overwrite an earlier backup. A `manifest.json` in the directory maps
each backup to the path it came from.
"""

from __future__ import annotations

import json
import os
import secrets
import time

from rtok import paths
from rtok.install import fsio


class BackupRun:
    """The backup directory of one installer run, created on first use."""

    def __init__(self) -> None:
        self.directory: str | None = None
        self.entries: dict[str, str] = {}  # backup file name -> original path

    def _ensure_directory(self) -> str:
        if self.directory is None:
            root = paths.backups_dir()
            paths.private_dir(root)
            stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
            name = f"{stamp}-{os.getpid()}-{secrets.token_hex(3)}"
            directory = os.path.join(root, name)
            os.mkdir(directory, 0o700)  # raises if it exists: never reuse a directory
            self.directory = directory
        return self.directory

    def save(self, original_path: str, data: bytes) -> str:
        """Store `data` (the bytes `original_path` held before this run); return its path."""
        directory = self._ensure_directory()
        base = os.path.basename(original_path) or "file"
        name = f"{len(self.entries) + 1:03d}-{base}"
        target = os.path.join(directory, name)
        fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            fsio.write_all(fd, data)
            os.fsync(fd)
        finally:
            os.close(fd)
        self.entries[name] = original_path
        manifest = json.dumps({"files": self.entries}, indent=2, sort_keys=True)
        fsio.atomic_write(
            os.path.join(directory, "manifest.json"), manifest.encode() + b"\n", 0o600
        )
        return target
