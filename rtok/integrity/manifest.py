"""The shipped/ manifest: SHA-256 of every template and awareness file rtok has shipped.

It lets rtok recognise its own files from any released version and tell a stock file from
one the user edited. Templates may hold placeholders the installer substitutes (the rtok
path, the agent name); the manifest records where each placeholder sits in the template,
so a written file is recognised whatever value was put there: the values' lengths follow
from the file's length, the values are cut back out, and the result must hash to a shipped
template.

Format of shipped/manifest.json:
    {"version": 1,
     "artifacts": {"templates/opencode/rtok.ts": [
         {"sha256": "<hex of the template bytes>", "size": 1234,
          "slots": [[<byte offset>, "<placeholder>"], ...],
          "versions": ["0.1.0", ...]}]}}
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterable, Mapping
from functools import lru_cache

from rtok import resources
from rtok.fileio import sha256_hex

MANIFEST_VERSION = 1
MANIFEST_FILE = "manifest.json"
SHIPPED_FOLDERS = ("templates", "awareness")
# Placeholders the installer substitutes in templates: {{NAME}} and @RTOK_NAME@.
PLACEHOLDER = re.compile(rb"\{\{\s*[A-Za-z_][A-Za-z0-9_]*\s*\}\}|@RTOK_[A-Z0-9_]+@")
# Kinds of artifact and the shipped folder their stock files come from.
KIND_FOLDERS: dict[str, tuple[str, ...]] = {
    "whole_file": ("templates", "awareness"),
    "awareness_file": ("awareness",),
    "awareness_block": ("awareness",),
}
# Reconstruction with two distinct placeholders tries every split of the extra length;
# bound the work for large files.
_MAX_TWO_SLOT_TRIES = 20000

ManifestEntry = dict[str, object]
Manifest = dict[str, object]


def placeholder_slots(template: bytes) -> list[tuple[int, str]]:
    return [(m.start(), m.group().decode("ascii")) for m in PLACEHOLDER.finditer(template)]


def shipped_files() -> dict[str, bytes]:
    """Current bytes of every shipped template and awareness file, keyed `folder/relpath`."""
    files: dict[str, bytes] = {}
    for folder in SHIPPED_FOLDERS:
        if not os.path.isdir(resources.data_dir(folder)):
            continue
        for relpath in resources.list_files(folder):
            key = f"{folder}/{relpath.replace(os.sep, '/')}"
            files[key] = resources.read_bytes(folder, relpath)
    return files


def build_manifest(
    existing: Mapping[str, object] | None, version: str, files: Mapping[str, bytes]
) -> Manifest:
    """The manifest with `version`'s entries replaced by `files` and every earlier
    version's entries kept. Pure: the script and the sync test both call it."""
    artifacts = _earlier_entries(existing, version)
    for relpath, data in sorted(files.items()):
        _add_file(artifacts.setdefault(relpath, []), data, version)
    ordered = {
        k: sorted(v, key=lambda e: _version_key(_strs(e["versions"])[0]))
        for k, v in sorted(artifacts.items())
    }
    return {"version": MANIFEST_VERSION, "artifacts": ordered}


def _earlier_entries(
    existing: Mapping[str, object] | None, version: str
) -> dict[str, list[ManifestEntry]]:
    """The entries of `existing` with `version` taken out of each (an entry left with no
    version, and a file left with no entry, are dropped)."""
    old = existing.get("artifacts", {}) if existing else {}
    artifacts: dict[str, list[ManifestEntry]] = {}
    if not isinstance(old, dict):
        return artifacts
    for relpath, entries in old.items():
        kept: list[ManifestEntry] = []
        for entry in entries if isinstance(entries, list) else []:
            versions = [v for v in entry.get("versions", []) if v != version]
            if versions:
                kept.append({**entry, "versions": versions})
        if kept:
            artifacts[relpath] = kept
    return artifacts


def _add_file(entries: list[ManifestEntry], data: bytes, version: str) -> None:
    """`version` added to the entry of these bytes, or a new entry for them."""
    digest = sha256_hex(data)
    for entry in entries:
        if entry["sha256"] == digest:
            entry["versions"] = _sorted_versions([*_strs(entry["versions"]), version])
            return
    entries.append(
        {
            "sha256": digest,
            "size": len(data),
            "slots": [[offset, name] for offset, name in placeholder_slots(data)],
            "versions": [version],
        }
    )


def _strs(value: object) -> list[str]:
    return [str(v) for v in value] if isinstance(value, list) else []


def _version_key(version: str) -> tuple[tuple[int, str], ...]:
    parts = re.split(r"[.\-+]", version)
    return tuple((int(p), "") if p.isdigit() else (-1, p) for p in parts)


def _sorted_versions(versions: Iterable[str]) -> list[str]:
    return sorted(set(versions), key=_version_key)


def render_manifest(manifest: Manifest) -> str:
    return json.dumps(manifest, indent=2, sort_keys=True) + "\n"


def manifest_path() -> str:
    return resources.data_path("shipped", MANIFEST_FILE)


@lru_cache(maxsize=1)
def load_manifest() -> Manifest:
    try:
        with open(manifest_path(), encoding="utf-8") as handle:
            doc = json.load(handle)
    except FileNotFoundError:
        return {"version": MANIFEST_VERSION, "artifacts": {}}
    if not isinstance(doc, dict) or doc.get("version") != MANIFEST_VERSION:
        raise ValueError(f"{manifest_path()} is not a version 1 manifest")
    return doc


def _entries_for(relpath_or_kind: str, manifest: Manifest) -> list[ManifestEntry]:
    artifacts = manifest.get("artifacts", {})
    if not isinstance(artifacts, dict):
        return []
    key = relpath_or_kind.replace(os.sep, "/")
    if key in KIND_FOLDERS:
        prefixes = tuple(f"{folder}/" for folder in KIND_FOLDERS[key])
        return [e for rel, es in artifacts.items() if rel.startswith(prefixes) for e in es]
    for candidate in (key, *(f"{folder}/{key}" for folder in SHIPPED_FOLDERS)):
        if candidate in artifacts:
            found: list[ManifestEntry] = artifacts[candidate]
            return found
    return []


def _matches_entry(entry: ManifestEntry, data: bytes) -> bool:
    digest = str(entry.get("sha256", ""))
    if sha256_hex(data) == digest:
        return True
    raw_slots = entry.get("slots") or []
    size = entry.get("size")
    if not raw_slots or not isinstance(size, int) or not isinstance(raw_slots, list):
        return False
    slots = [(int(offset), str(name)) for offset, name in raw_slots]
    return any(sha256_hex(candidate) == digest for candidate in _reconstructions(data, size, slots))


def _reconstructions(data: bytes, size: int, slots: list[tuple[int, str]]) -> Iterable[bytes]:
    """Candidate template bytes: `data` with the substituted values put back as
    placeholders, for every split of lengths consistent with the file's size."""
    names = sorted({name for _, name in slots})
    counts = {name: sum(1 for _, n in slots if n == name) for name in names}
    placeholder_total = sum(len(name) for _, name in slots)
    extra = len(data) - (size - placeholder_total)  # total length of substituted values
    if extra < 0:
        return
    if len(names) == 1:
        count = counts[names[0]]
        if extra % count == 0:
            candidate = _put_back(data, slots, {names[0]: extra // count})
            if candidate is not None:
                yield candidate
        return
    if len(names) == 2:
        first, second = names
        tries = 0
        for first_len in range(extra // counts[first] + 1):
            rest = extra - first_len * counts[first]
            if rest % counts[second]:
                continue
            tries += 1
            if tries > _MAX_TWO_SLOT_TRIES:
                return
            candidate = _put_back(data, slots, {first: first_len, second: rest // counts[second]})
            if candidate is not None:
                yield candidate


def _put_back(
    data: bytes, slots: list[tuple[int, str]], lengths: Mapping[str, int]
) -> bytes | None:
    out = bytearray()
    cursor = 0  # position in data
    template_cursor = 0  # position in the template
    values: dict[str, bytes] = {}
    for offset, name in slots:
        literal = offset - template_cursor
        out += data[cursor : cursor + literal]
        cursor += literal
        value = data[cursor : cursor + lengths[name]]
        # Every occurrence of one placeholder got the same value.
        if values.setdefault(name, value) != value:
            return None
        cursor += lengths[name]
        out += name.encode("ascii")
        template_cursor = offset + len(name)
    out += data[cursor:]
    return bytes(out)


def known_versions_of(
    relpath_or_kind: str, data: bytes, manifest: Manifest | None = None
) -> list[str]:
    """The rtok versions that shipped `data` as this artifact (empty: not stock)."""
    doc = load_manifest() if manifest is None else manifest
    versions: list[str] = []
    for entry in _entries_for(relpath_or_kind, doc):
        if _matches_entry(entry, data):
            versions.extend(_strs(entry.get("versions")))
    return _sorted_versions(versions)


def is_stock_artifact(relpath_or_kind: str, data: bytes, manifest: Manifest | None = None) -> bool:
    """Is `data` a file some rtok release shipped as `relpath_or_kind` (a path such as
    `templates/opencode/rtok.ts` or `opencode/rtok.ts`, or an artifact kind such as
    `awareness_file`), with any values in its placeholders?"""
    return bool(known_versions_of(relpath_or_kind, data, manifest))
