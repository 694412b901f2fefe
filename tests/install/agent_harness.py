"""Applying an integration's edits in-process, the way the engine would (minus locking and
backups): a pure bytes -> bytes round trip on real files, with the set of files rtok
created standing in for the engine's install state."""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass, field

from rtok.install import integrations
from rtok.install.model import Action, FileEdit, InstallContext
from rtok.install.strategies import STRATEGIES

FIXTURES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures")


@dataclass
class Sandbox:
    """One HOME and one project; `created` is what rtok created (files and dirs)."""

    home: str
    project: str
    rtok_bin: str = "/opt/rtok tools/bin/rtok"
    created: set[str] = field(default_factory=set)
    awareness_level: str = "default"
    env: dict[str, str] = field(default_factory=dict)

    def context(self, scope: str, *, hook_only: bool = False) -> InstallContext:
        env = {"HOME": self.home, "PATH": "/nonexistent", **self.env}
        return InstallContext(
            home=self.home,
            env=env,
            project_root=self.project if scope == "project" else None,
            rtok_bin=self.rtok_bin,
            awareness_level=self.awareness_level,
            hook_only=hook_only,
            auto_patch=True,
            created_by_rtok=lambda path: os.path.abspath(path) in self.created,
        )

    def edits(self, agent: str, scope: str, action: Action) -> list[FileEdit]:
        return integrations.edits_for(agent, scope, action, self.context(scope))

    def apply(self, edits: list[FileEdit]) -> list[str]:
        """Apply edits (folded per file, in order); returns the paths that changed."""
        changed: list[str] = []
        by_path: dict[str, list[FileEdit]] = {}
        for edit in edits:
            by_path.setdefault(os.path.abspath(edit.path), []).append(edit)
        for path, group in by_path.items():
            current = read(path)
            new = current
            for edit in group:
                new = edit.transform(new)
            if new == current:
                continue
            changed.append(path)
            if new is None:
                os.remove(path)
                self._remove_created_dirs(os.path.dirname(path))
                continue
            if current is None:
                self._make_dirs(os.path.dirname(path))
                self.created.add(path)
            with open(path, "wb") as handle:
                handle.write(new)
            mode = next((e.mode for e in group if e.mode is not None), None)
            if mode is not None and current is None:
                os.chmod(path, mode)
        return changed

    def _make_dirs(self, directory: str) -> None:
        missing = []
        while not os.path.isdir(directory):
            missing.append(directory)
            directory = os.path.dirname(directory)
        for path in reversed(missing):
            os.mkdir(path)
            self.created.add(path)

    def _remove_created_dirs(self, directory: str) -> None:
        while directory in self.created and not os.listdir(directory):
            os.rmdir(directory)
            self.created.discard(directory)
            directory = os.path.dirname(directory)


def read(path: str) -> bytes | None:
    try:
        with open(path, "rb") as handle:
            return handle.read()
    except FileNotFoundError:
        return None


def fixture_names(folder: str) -> list[str]:
    return sorted(os.listdir(os.path.join(FIXTURES, folder)))


def fixture_bytes(folder: str, name: str) -> bytes:
    with open(os.path.join(FIXTURES, folder, name), "rb") as handle:
        return handle.read()


def all_files(root: str) -> dict[str, bytes]:
    found: dict[str, bytes] = {}
    for dirpath, _dirs, files in os.walk(root):
        for name in files:
            path = os.path.join(dirpath, name)
            with open(path, "rb") as handle:
                found[path] = handle.read()
    return found


def all_dirs(root: str) -> set[str]:
    return {dirpath for dirpath, _dirs, _files in os.walk(root)}


def agent_scopes() -> Iterator[tuple[str, str]]:
    for name, descriptor in sorted(integrations.load_descriptors().items()):
        for scope in descriptor.scopes:
            yield name, scope


# The fixture folder that fits each strategy's file format (None: a file rtok owns whole).
FORMAT_OF_STRATEGY: dict[str, str | None] = {
    name: strategy.file_format or None for name, strategy in STRATEGIES.items()
}
