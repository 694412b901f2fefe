"""Integrity of what rtok installed, and recognition of rtok's own shipped files.

Public API (used by the installer): `ArtifactRecord`, `record_artifacts`,
`forget_artifacts`, `load_records`, `is_stock_artifact`. `rtok verify` and `rtok doctor`
live in `rtok.integrity.verify` and `rtok.integrity.doctor`.
"""

from __future__ import annotations

from rtok.integrity.manifest import is_stock_artifact, known_versions_of
from rtok.integrity.records import (
    ARTIFACT_KINDS,
    ArtifactRecord,
    RecordsError,
    forget_artifacts,
    load_records,
    record_artifacts,
    records_for,
)

__all__ = [
    "ARTIFACT_KINDS",
    "ArtifactRecord",
    "RecordsError",
    "forget_artifacts",
    "is_stock_artifact",
    "known_versions_of",
    "load_records",
    "record_artifacts",
    "records_for",
]
