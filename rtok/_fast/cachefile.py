"""A JSON cache of parsed user files, keyed by path and the SHA-256 of their bytes.

The hot path must not parse TOML on every call (tomllib alone costs more than a bare
interpreter start). Callers hand over a parser that is only invoked when the bytes differ
from the cached ones; the parser is imported lazily by the caller, inside that function.

The key is the content hash, never (size, mtime): a file swapped for other bytes of the
same size and time must not be answered from the cache, and a caller that checks trust can
check it against exactly the bytes that were parsed (`parse_with_bytes`).

The cache files (`parsed/<namespace>.json` in the cache dir, 0600 in 0700 dirs) are
written by `flush()`, which the entry point calls once a verb has finished: a cancelled
run writes none. Until then a new result is kept in memory, and this process reads it
from there.
"""

from __future__ import annotations

from rtok import paths
from rtok._fast import fastjson as json
from rtok._fast import oslite as os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

# User files larger than this are not read on the hot path (a parse error for the caller).
MAX_FILE_BYTES = 1 << 20


# cache file -> its entries, as they will be written by flush()
_pending: dict[str, dict[str, object]] = {}


class TooLarge(OSError):
    """The file is larger than MAX_FILE_BYTES."""


def cached_parse(path: str, namespace: str, parse: Callable[[bytes], object]) -> object:
    """Return `parse(bytes of path)`, reusing a cached result while the bytes are the same.

    A missing file returns None. The parsed value must be JSON-serialisable. Errors from
    `parse` propagate and nothing is cached for them; a file over MAX_FILE_BYTES raises
    TooLarge.
    """
    return parse_with_bytes(path, namespace, parse)[0]


def parse_with_bytes(
    path: str, namespace: str, parse: Callable[[bytes], object], data: bytes | None = None
) -> tuple[object, bytes | None]:
    """`(parse(data), data)` for the bytes read in this call (`(None, None)` when missing);
    a caller that already read the file passes its bytes as `data`."""
    if data is None:
        try:
            with open(path, "rb") as handle:
                data = handle.read(MAX_FILE_BYTES + 1)
        except FileNotFoundError:
            return None, None
    if len(data) > MAX_FILE_BYTES:
        raise TooLarge(f"{path} is larger than {MAX_FILE_BYTES >> 20} MiB")
    digest = _digest(data)
    cache_path = os.path.join(paths.cache_dir(), "parsed", namespace + ".json")
    key = os.path.abspath(path)
    entries = _entries(cache_path)
    hit = entries.get(key)
    if isinstance(hit, dict) and hit.get("sha256") == digest:
        return hit.get("value"), data
    value = parse(data)
    entries[key] = {"sha256": digest, "value": value}
    _pending[cache_path] = entries
    return value, data


def _entries(cache_path: str) -> dict[str, object]:
    pending = _pending.get(cache_path)
    if pending is not None:
        return pending
    try:
        with open(cache_path, encoding="utf-8") as handle:
            loaded = json.loads(handle.read())
    except (OSError, ValueError):
        return {}
    return loaded if isinstance(loaded, dict) else {}


def flush() -> None:
    """Write every cache file this process added to."""
    while _pending:
        cache_path, entries = _pending.popitem()
        write_cache(cache_path, json.dumps(entries))


# Past this size OpenSSL's SHA-256 (hashlib: a few milliseconds to import) beats the
# interpreter's built-in one (about 130 MB/s) by more than its import costs.
_OPENSSL_FROM_BYTES = 256 << 10


def _digest(data: bytes) -> str:
    if len(data) > _OPENSSL_FROM_BYTES:
        import hashlib

        return hashlib.sha256(data).hexdigest()
    from rtok.fileio import sha256_hex

    return sha256_hex(data)


def write_cache(path: str, text: str) -> None:
    """Write a cache file under the cache dir atomically, private to the user; a cache that
    cannot be written is left out."""
    tmp = f"{path}.{os.getpid()}.tmp"
    try:
        # Private like the data dir (0700 dirs, 0600 files): a parsed permission or rule
        # file says what the user allows and denies.
        paths.private_dir(paths.cache_dir())
        paths.private_dir(os.path.dirname(path))
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with open(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
        os.replace(tmp, path)
    except OSError:
        # A cache that cannot be written only costs speed.
        try:  # noqa: SIM105 (contextlib costs start-up time)
            os.unlink(tmp)
        except OSError:
            pass
