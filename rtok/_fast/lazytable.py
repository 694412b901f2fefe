"""A read-only table of name -> entry whose entries are unmarshalled at their first lookup.

The compiled registry (rtok/compiled/registry.py) holds about 300 rewrite groups, wrappers
and runners; building every one of them as dicts and tuples cost each hook about 3.7
million instructions at start, when a call looks up a handful. Here each entry stays the
marshal bytes it was compiled to until it is looked up; membership and iteration read only
the names. Stdlib only (`marshal` is builtin).
"""

from __future__ import annotations

import marshal

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator


class LazyTable:
    """name -> entry; each entry is `marshal.loads` of its bytes, made once."""

    __slots__ = ("_blobs", "_entries")
    __hash__ = None  # type: ignore[assignment]  # a mapping: equal by content, unhashable

    def __init__(self, blobs: dict[str, bytes]) -> None:
        self._blobs = blobs
        self._entries: dict[str, object] = {}

    def __getitem__(self, name: str) -> object:
        entry = self._entries.get(name)
        if entry is None:
            entry = self._entries[name] = marshal.loads(self._blobs[name])
        return entry

    def get(self, name: str, default: object = None) -> object:
        return self[name] if name in self._blobs else default

    def __contains__(self, name: object) -> bool:
        return name in self._blobs

    def __iter__(self) -> Iterator[str]:
        return iter(self._blobs)

    def __len__(self) -> int:
        return len(self._blobs)

    def keys(self) -> Iterator[str]:
        return iter(self._blobs)

    def values(self) -> Iterator[object]:
        return (self[name] for name in self._blobs)

    def items(self) -> Iterator[tuple[str, object]]:
        return ((name, self[name]) for name in self._blobs)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, LazyTable):
            other = dict(other.items())
        if not isinstance(other, dict):
            return NotImplemented
        return dict(self.items()) == other

    def __repr__(self) -> str:
        return f"LazyTable({len(self._blobs)} entries)"


def with_lazy_sections(data: dict[str, object], sections: tuple[str, ...]) -> dict[str, object]:
    """`data` with each of `sections` (a dict of name -> marshal bytes) made a LazyTable."""
    for section in sections:
        blobs = data[section]
        assert isinstance(blobs, dict)
        data[section] = LazyTable(blobs)
    return data
