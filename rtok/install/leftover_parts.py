"""The records of what stays in rtok's own folders, and their sizes as people read them.

Below both the inventory and purge (leftovers.py) and the text that reports them
(report.py), so that neither imports the other for them.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from rtok.install.diff import shown_path


@dataclass(frozen=True)
class Part:
    """One part of rtok's folders: its name, the paths it is made of, files and bytes."""

    label: str
    paths: tuple[str, ...]
    files: int
    size: int
    detail: str = ""


@dataclass(frozen=True)
class Install:
    """An agent rtok is still installed in (from its integrity records)."""

    agent: str
    scope: str
    project_root: str | None

    def describe_short(self) -> str:
        where = (
            "global" if self.project_root is None else (f"project {shown_path(self.project_root)}")
        )
        return f"{self.agent} ({where})"


def human_size(size: int) -> str:
    value = float(size)
    for unit in ("B", "KB", "MB", "GB"):
        if value < 1000 or unit == "GB":
            return f"{int(value)} {unit}" if unit == "B" else f"{value:.1f} {unit}"
        value /= 1000
    return f"{size} B"  # pragma: no cover (the loop always returns)


def total_size(parts: Iterable[Part]) -> int:
    return sum(p.size for p in parts)
