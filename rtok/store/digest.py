"""A SHA-256 hasher for the hot path (stdlib only), below the capture and the archive.

The builtin module (`_sha256` on 3.11, `_sha2` later) is used: `hashlib` loads OpenSSL and
blake2 first, which costs a short run more than the hashing. A streamed output, where the
hashing itself dominates, uses `hashlib` (rtok/filter/capture.py).
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def sha256() -> Any:
    for name in ("_sha256", "_sha2"):
        try:
            return __import__(name).sha256()
        except (ImportError, AttributeError):
            continue
    import hashlib

    return hashlib.sha256()
