"""Naming an archive entry by its content (stdlib only, hot path).

Apart from `archive.py` so that deciding whether an output is worth cutting (the trailer
names the entry) loads neither zlib nor SQLite.
"""

from __future__ import annotations

from rtok.fileio import sha256

ID_LENGTH = 12


def content_id(sha256_hex: str) -> str:
    return sha256_hex[:ID_LENGTH]


def entry_digest(digests: list[tuple[int, str]]) -> str:
    """The SHA-256 (hex) naming an entry whose non-empty streams have these digests."""
    if len(digests) == 1:
        return digests[0][1]
    hasher = sha256()
    hasher.update("".join(f"{stream}:{digest}\n" for stream, digest in digests).encode())
    return str(hasher.hexdigest())
