"""One loader for the data folders shipped with rtok.

In a wheel they live in `rtok/_data/<name>` (hatch force-include); in a source checkout
or an editable install they are the top-level folders of the repository.
"""

from __future__ import annotations

import os

DATA_FOLDERS = ("integrations", "templates", "awareness", "shipped", "rules")

_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))


def data_dir(name: str) -> str:
    """Absolute path of one data folder (`integrations`, `templates`, ...)."""
    if name not in DATA_FOLDERS:
        raise ValueError(f"unknown data folder {name!r}")
    installed = os.path.join(_PACKAGE_DIR, "_data", name)
    if os.path.isdir(installed):
        return installed
    return os.path.join(os.path.dirname(_PACKAGE_DIR), name)


def data_path(name: str, *parts: str) -> str:
    return os.path.join(data_dir(name), *parts)


def read_bytes(name: str, *parts: str) -> bytes:
    with open(data_path(name, *parts), "rb") as handle:
        return handle.read()


def read_text(name: str, *parts: str) -> str:
    return read_bytes(name, *parts).decode("utf-8")


def list_files(name: str, suffix: str = "") -> list[str]:
    """Sorted relative paths of every file under a data folder (README.md excluded)."""
    root = data_dir(name)
    found: list[str] = []
    for dirpath, _dirnames, filenames in os.walk(root):
        for filename in filenames:
            if filename == "README.md" and dirpath == root:
                continue
            if suffix and not filename.endswith(suffix):
                continue
            found.append(os.path.relpath(os.path.join(dirpath, filename), root))
    return sorted(found)
