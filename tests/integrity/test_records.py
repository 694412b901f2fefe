"""Integrity records: atomic, locked updates in rtok's data dir."""

from __future__ import annotations

import json
import multiprocessing
import os
from pathlib import Path

import pytest

from rtok import paths
from rtok.integrity import (
    ArtifactRecord,
    RecordsError,
    forget_artifacts,
    load_records,
    record_artifacts,
)

HASH_A = "a" * 64
HASH_B = "b" * 64


def _record(
    path: str, agent: str = "claude", kind: str = "settings_entry", sha: str = HASH_A
) -> ArtifactRecord:
    return ArtifactRecord(
        path=path,
        agent=agent,
        scope="global",
        project_root=None,
        kind=kind,
        sha256=sha,
        rtok_version="0.1.0",
    )


def test_record_then_load(tmp_path: Path) -> None:
    target = str(tmp_path / "settings.json")
    record_artifacts([_record(target)])
    loaded = load_records()
    assert len(loaded) == 1
    assert loaded[0].path == target and loaded[0].sha256 == HASH_A
    assert loaded[0].time  # stamped on write
    doc = json.loads(Path(paths.integrity_records()).read_text())
    assert doc["version"] == 1 and doc["artifacts"][0]["agent"] == "claude"


def test_same_identity_replaces(tmp_path: Path) -> None:
    target = str(tmp_path / "settings.json")
    record_artifacts([_record(target)])
    record_artifacts([_record(target, sha=HASH_B)])
    assert [r.sha256 for r in load_records()] == [HASH_B]


def test_shared_file_keeps_other_agents_record(tmp_path: Path) -> None:
    agents_md = str(tmp_path / "AGENTS.md")
    record_artifacts(
        [
            _record(agents_md, "codex", "awareness_block"),
            _record(agents_md, "kimi", "awareness_block"),
        ]
    )
    assert forget_artifacts([(agents_md, "awareness_block", "codex")]) == 1
    assert [r.agent for r in load_records()] == ["kimi"]
    assert forget_artifacts([(agents_md, "awareness_block")]) == 1
    assert load_records() == []


def test_invalid_record_writes_nothing(tmp_path: Path) -> None:
    good = _record(str(tmp_path / "a.json"))
    bad = _record(str(tmp_path / "b.json"), kind="mystery")
    with pytest.raises(ValueError):
        record_artifacts([good, bad])
    assert not os.path.exists(paths.integrity_records())
    with pytest.raises(ValueError):
        record_artifacts([_record("relative/path.json")])
    with pytest.raises(ValueError):
        record_artifacts([_record(str(tmp_path / "c.json"), sha="XYZ")])


def test_corrupt_records_file_is_an_error_not_empty(tmp_path: Path) -> None:
    Path(paths.integrity_records()).parent.mkdir(parents=True)
    Path(paths.integrity_records()).write_text("[1, 2")
    with pytest.raises(RecordsError):
        load_records()
    with pytest.raises(RecordsError):
        record_artifacts([_record(str(tmp_path / "x.json"))])
    assert Path(paths.integrity_records()).read_text() == "[1, 2"


def _worker(args: tuple[str, int]) -> None:
    base, index = args
    os.environ["XDG_DATA_HOME"] = base
    record_artifacts([_record(f"/tmp/file-{index}.json", agent=f"agent{index}")])


def test_concurrent_writers_lose_nothing(tmp_path: Path) -> None:
    base = os.environ["XDG_DATA_HOME"]
    ctx = multiprocessing.get_context("spawn")
    with ctx.Pool(4) as pool:
        pool.map(_worker, [(base, i) for i in range(16)], chunksize=1)
    assert sorted(r.agent for r in load_records()) == sorted(f"agent{i}" for i in range(16))
