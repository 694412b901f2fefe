"""rtok.config.load(): parsed only when config.toml changes; a malformed file warns once."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from rtok import config, paths
from rtok._fast import cachefile


def write_config(text: str) -> Path:
    path = Path(paths.config_file())
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def test_missing_config_is_empty() -> None:
    assert config.load() == {}


def test_reads_hooks_section() -> None:
    write_config('[hooks]\nexclude_commands = ["git push"]\n')
    assert config.load() == {"hooks": {"exclude_commands": ["git push"]}}


def test_parsed_value_is_cached_until_the_bytes_change() -> None:
    path = write_config("[hooks]\nexclude_commands = []\n")
    assert config.load()["hooks"] == {"exclude_commands": []}
    cachefile.flush()  # what the entry point does once a verb has finished
    cache = Path(paths.cache_dir()) / "parsed" / f"{config.CACHE_NAMESPACE}.json"
    entries = json.loads(cache.read_text())
    # Unchanged bytes: the cached value is used (the cache is what we read back).
    entries[str(path)]["value"] = {"hooks": {"exclude_commands": ["from-cache"]}}
    cache.write_text(json.dumps(entries))
    assert config.load()["hooks"] == {"exclude_commands": ["from-cache"]}
    # Same size and mtime but other bytes: parsed again (the key is the content hash).
    stat = path.stat()
    same_size = "[hooks]\nexclude_commandz = 12\n"
    assert len(same_size) == stat.st_size
    path.write_text(same_size, encoding="utf-8")
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert config.load()["hooks"] == {"exclude_commandz": 12}


def test_dates_become_strings() -> None:
    write_config("[telemetry]\nconsent_date = 2026-01-02T03:04:05Z\n")
    assert config.load() == {"telemetry": {"consent_date": "2026-01-02T03:04:05+00:00"}}


def test_malformed_config_warns_once_and_gives_defaults(
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = write_config("[hooks\nexclude_commands = [")
    config._warned.clear()
    assert config.load() == {}
    assert config.load() == {}
    err = capsys.readouterr().err
    assert err.count("warning") == 1
    assert str(path) in err


def test_invalid_utf8_is_malformed(capsys: pytest.CaptureFixture[str]) -> None:
    path = Path(paths.config_file())
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"[hooks]\nx = '\xff'\n")
    config._warned.clear()
    assert config.load() == {}
    assert "warning" in capsys.readouterr().err
