"""Integrity records: what rtok wrote where, and the SHA-256 of rtok's own bytes there.

The installer's transaction calls `record_artifacts` after a successful apply and
`forget_artifacts` after an uninstall; `rtok verify` compares the records with the disk.
Records live in `rtok.paths.integrity_records()` and every update is a read-modify-write
under a file lock, written to a temp file, fsynced and renamed into place.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, fields
from datetime import UTC, datetime

from filelock import FileLock

from rtok import __version__, paths

RECORDS_VERSION = 1

ARTIFACT_KINDS: tuple[str, ...] = (
    "whole_file",
    "settings_entry",
    "awareness_file",
    "awareness_block",
    "trust_entry",
    "reference_line",
)


class RecordsError(Exception):
    """The records file cannot be read or is not a records document."""


@dataclass(frozen=True)
class ArtifactRecord:
    """One artifact rtok installed. `sha256` hashes rtok's own bytes (the whole file for
    `whole_file` / `awareness_file`; the entry, block or line for the other kinds)."""

    path: str  # absolute path as the installer wrote it (a link is kept as the link)
    agent: str
    scope: str  # "global" | "project"
    project_root: str | None
    kind: str  # one of ARTIFACT_KINDS
    sha256: str
    rtok_version: str = __version__
    time: str = ""  # ISO 8601, UTC; filled in by record_artifacts when empty
    # Tells two artifacts of one kind and agent in one file apart (e.g. a JSON pointer).
    locator: str = ""

    def identity(self) -> tuple[str, str, str, str]:
        return (os.path.abspath(self.path), self.kind, self.agent, self.locator)

    def to_json(self) -> dict[str, object]:
        return asdict(self)


def _record_from_json(raw: object) -> ArtifactRecord:
    if not isinstance(raw, dict):
        raise RecordsError("a record is not an object")
    known = {f.name for f in fields(ArtifactRecord)}
    values = {k: v for k, v in raw.items() if k in known}
    for required in ("path", "agent", "scope", "kind", "sha256"):
        if not isinstance(values.get(required), str):
            raise RecordsError(f"a record has no string {required!r}")
    try:
        return ArtifactRecord(**values)
    except TypeError as exc:
        raise RecordsError(str(exc)) from exc


def _validate(record: ArtifactRecord) -> None:
    if record.kind not in ARTIFACT_KINDS:
        raise ValueError(f"unknown artifact kind {record.kind!r}")
    if not os.path.isabs(record.path):
        raise ValueError(f"artifact path must be absolute: {record.path!r}")
    if len(record.sha256) != 64 or any(c not in "0123456789abcdef" for c in record.sha256):
        raise ValueError(f"sha256 must be 64 lowercase hex digits: {record.sha256!r}")


def load_records() -> list[ArtifactRecord]:
    """Every record, in stored order. A missing file means no records."""
    return _parse(_read_raw())


def _read_raw() -> bytes | None:
    try:
        with open(paths.integrity_records(), "rb") as handle:
            return handle.read()
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise RecordsError(f"cannot read {paths.integrity_records()}: {exc}") from exc


def _parse(raw: bytes | None) -> list[ArtifactRecord]:
    if raw is None:
        return []
    try:
        doc = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as exc:
        raise RecordsError(f"{paths.integrity_records()} is not valid JSON: {exc}") from exc
    if not isinstance(doc, dict) or doc.get("version") != RECORDS_VERSION:
        raise RecordsError(f"{paths.integrity_records()} is not a version 1 records file")
    artifacts = doc.get("artifacts")
    if not isinstance(artifacts, list):
        raise RecordsError(f"{paths.integrity_records()} has no 'artifacts' list")
    return [_record_from_json(item) for item in artifacts]


def _write(records: Sequence[ArtifactRecord]) -> None:
    from rtok.install import fsio

    target = paths.integrity_records()
    paths.private_dir(os.path.dirname(target))
    ordered = sorted(records, key=lambda r: (r.agent, r.scope, r.path, r.kind, r.locator))
    text = json.dumps(
        {"version": RECORDS_VERSION, "artifacts": [r.to_json() for r in ordered]},
        indent=2,
        sort_keys=True,
    )
    fsio.atomic_write(target, (text + "\n").encode("utf-8"), 0o600)


def _lock() -> FileLock:
    target = paths.integrity_records()
    paths.private_dir(os.path.dirname(target))
    return FileLock(target + ".lock", timeout=60, mode=0o600)


def record_artifacts(records: Iterable[ArtifactRecord]) -> None:
    """Add or replace records (same path, kind, agent and locator replace the old one).
    Invalid records raise ValueError and nothing is written."""
    incoming = list(records)
    stamp = datetime.now(UTC).isoformat(timespec="seconds")
    prepared: list[ArtifactRecord] = []
    for record in incoming:
        _validate(record)
        fixed = record
        if not record.time:
            fixed = ArtifactRecord(**{**asdict(record), "time": stamp})
        fixed = ArtifactRecord(**{**asdict(fixed), "path": os.path.abspath(fixed.path)})
        prepared.append(fixed)
    if not prepared:
        return
    with _lock():
        current = _parse(_read_raw())
        by_identity = {r.identity(): r for r in current}
        for record in prepared:
            by_identity[record.identity()] = record
        _write(list(by_identity.values()))


ArtifactKey = tuple[str, str] | tuple[str, str, str] | ArtifactRecord


def _matches(record: ArtifactRecord, key: ArtifactKey) -> bool:
    if isinstance(key, ArtifactRecord):
        return record.identity() == key.identity()
    path, kind = key[0], key[1]
    if os.path.abspath(path) != os.path.abspath(record.path) or kind != record.kind:
        return False
    return len(key) < 3 or key[2] == record.agent


def forget_artifacts(paths_and_kinds: Iterable[ArtifactKey]) -> int:
    """Remove records after an uninstall. Each key is `(path, kind)` (every agent's record
    of that artifact), `(path, kind, agent)` (one agent's; shared files keep the others'),
    or an `ArtifactRecord`. Returns how many records were removed."""
    keys = list(paths_and_kinds)
    if not keys:
        return 0
    with _lock():
        current = _parse(_read_raw())
        kept = [r for r in current if not any(_matches(r, key) for key in keys)]
        removed = len(current) - len(kept)
        if removed:
            _write(kept)
    return removed


def records_for(agent: str | None = None) -> list[ArtifactRecord]:
    records = load_records()
    return [r for r in records if agent is None or r.agent == agent]
