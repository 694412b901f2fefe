"""File reading and hashing shared by the installer, verify and doctor.

Stdlib only and free of typing imports, so the hot path may import it too.
"""

from __future__ import annotations

_sha256_impl: list[object] = []


def sha256_hex(data: bytes) -> str:
    """Hex SHA-256 of `data`. The interpreter's built-in module loads in well under a
    millisecond; `hashlib` loads OpenSSL first, so it is only the fallback. The choice is
    made once: a failed import costs a search of sys.path."""
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
    digest: str = _sha256_impl[0](data).hexdigest()  # type: ignore[operator]
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
