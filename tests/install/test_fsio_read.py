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
    assert fsio.read_target(str(target)) == b"{}\n"


def test_a_missing_file_has_neither(tmp_path: Path) -> None:
    assert fsio.read_with_mode(str(tmp_path / "gone.json")) == (None, None)
    assert fsio.read_target(str(tmp_path / "gone.json")) is None


def test_a_directory_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(fsio.FileAccessError, match="is a directory"):
        fsio.read_with_mode(str(tmp_path))
    with pytest.raises(fsio.FileAccessError, match="is a directory"):
        fsio.read_target(str(tmp_path))


def test_each_reader_keeps_its_own_contract(tmp_path: Path) -> None:
    """fileio.read_if_exists: None only for a missing file; fileio.read_if_readable: None
    for an unreadable one too; fsio.read_target: a FileAccessError that says why."""
    from rtok import fileio

    gone, folder = str(tmp_path / "gone"), str(tmp_path)
    assert fileio.read_if_exists(gone) is None
    assert fileio.read_if_readable(gone) is None
    with pytest.raises(IsADirectoryError):
        fileio.read_if_exists(folder)
    assert fileio.read_if_readable(folder) is None
    with pytest.raises(fsio.FileAccessError):
        fsio.read_target(folder)
