"""The generated modules in rtok/compiled/ match their TOML sources."""

from __future__ import annotations

import os

from rtok import build
from rtok_testing import REPO_ROOT


def test_compiled_modules_match_sources() -> None:
    for name, text in build.compile_all().items():
        path = os.path.join(REPO_ROOT, "rtok", "compiled", f"{name}.py")
        with open(path, encoding="utf-8") as handle:
            assert handle.read() == text, f"run: python scripts/compile_data.py ({name})"
