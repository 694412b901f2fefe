"""The installer reads a target's bytes and mode from one open file."""

from __future__ import annotations

from pathlib import Path

import pytest

from rtok.install import fsio


def test_bytes_and_mode_come_together(tmp_path: Path) -> None:
    target = tmp_path / "settings.json"
    target.write_bytes(b"{}\n")
    target.chmod(0o640)
    assert fsio.read_with_mode(str(target)) == (b"{}\n", 0o640)
    assert fsio.read_or_none(str(target)) == b"{}\n"


def test_a_missing_file_has_neither(tmp_path: Path) -> None:
    assert fsio.read_with_mode(str(tmp_path / "gone.json")) == (None, None)
    assert fsio.read_or_none(str(tmp_path / "gone.json")) is None


def test_a_directory_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(fsio.FileAccessError, match="is a directory"):
        fsio.read_with_mode(str(tmp_path))
    with pytest.raises(fsio.FileAccessError, match="is a directory"):
        fsio.read_or_none(str(tmp_path))
