"""Finding short byte strings in a large block fast (stdlib only; streamed outputs only).

Looking for protected lines in an output is one substring search per hint over each block
(`rtok.filter.protect.protected_lines`). CPython's `bytes.find` runs these short needles at
one to two GB/s, so the few dozen hints of the catalogue would hold a large output to tens
of MB/s; the C library's `memmem` runs them several times faster. It is reached through
`ctypes` (which costs milliseconds to import, so only outputs large enough to stream use
it); where the C library has no `memmem` (or `ctypes` is missing), `bytes.find` is used.
tests/filter/test_memfind.py checks both agree with `bytes.find`.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

# [(memmem, ctypes)] once looked up, [None] when there is none.
_MEMMEM: list[tuple[Any, Any] | None] = []


def _memmem() -> tuple[Any, Any] | None:
    if not _MEMMEM:
        try:
            import ctypes

            function = ctypes.CDLL(None).memmem
            function.restype = ctypes.c_void_p
            function.argtypes = (ctypes.c_void_p, ctypes.c_size_t, ctypes.c_char_p, ctypes.c_size_t)
            _MEMMEM.append((function, ctypes))
        except (ImportError, OSError, AttributeError, TypeError):
            _MEMMEM.append(None)
    return _MEMMEM[0]


def finder(block: bytes, fast: bool = True) -> Callable[[bytes, int], int]:
    """`find(needle, start)` on `block`, answering as `block.find(needle, start)` does for
    a non-empty needle and 0 <= start."""
    found = _memmem() if fast else None
    if found is None:
        return block.find
    memmem, ctypes = found
    pointer = ctypes.c_char_p(block)  # the bytes object's own buffer, no copy
    base = ctypes.cast(pointer, ctypes.c_void_p).value or 0
    size = len(block)

    def find(needle: bytes, start: int = 0) -> int:
        if start + len(needle) > size or not pointer:
            return -1
        hit = memmem(base + start, size - start, needle, len(needle))
        return -1 if hit is None else int(hit) - base

    return find
