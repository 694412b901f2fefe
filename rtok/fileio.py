"""File reading and hashing shared by the installer, verify and doctor.

Stdlib only and free of typing imports, so the hot path may import it too.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

_sha256_impl: list[object] = []


def sha256() -> Any:
    """A new SHA-256 hasher, from the interpreter's built-in module (`_sha256` on 3.11,
    `_sha2` later) when it has one: it loads in well under a millisecond, while `hashlib`
    loads OpenSSL and blake2 first, so that is only the fallback. The one probe for it in
    rtok; the choice is made once (a failed import costs a search of sys.path)."""
    if not _sha256_impl:
        for name in ("_sha2", "_sha256"):
            try:
                _sha256_impl.append(__import__(name).sha256)
                break
            except (ImportError, AttributeError):
                continue
        else:
            import hashlib

            _sha256_impl.append(hashlib.sha256)
    return _sha256_impl[0]()  # type: ignore[operator]


def sha256_hex(data: bytes) -> str:
    """Hex SHA-256 of `data` (see `sha256`)."""
    hasher = sha256()
    hasher.update(data)
    digest: str = hasher.hexdigest()
    return digest


def read_if_exists(path: str) -> bytes | None:
    """The bytes of `path`, None when it does not exist; other errors (a directory, no
    permission) propagate as the OSError they are."""
    try:
        with open(path, "rb") as handle:
            return handle.read()
    except FileNotFoundError:
        return None


def read_with_mode(path: str) -> tuple[bytes | None, int | None]:
    """The bytes and permission bits of `path`, (None, None) when it does not exist; other
    errors propagate. Both come from one open file, so a file removed or replaced between
    two calls cannot make them disagree."""
    import os

    try:
        with open(path, "rb") as handle:
            mode = os.fstat(handle.fileno()).st_mode & 0o7777
            return handle.read(), mode
    except FileNotFoundError:
        return None, None


def read_if_readable(path: str) -> bytes | None:
    """The bytes of `path`, None when it is missing or cannot be read (checks that report
    on a file, rather than write it, treat both alike)."""
    try:
        return read_if_exists(path)
    except OSError:
        return None
