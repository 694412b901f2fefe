"""The block finder behind the protected-line scan answers as `bytes.find` does."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from rtok.filter.memfind import finder


@settings(max_examples=500, deadline=None)
@given(
    block=st.binary(max_size=400),
    needle=st.binary(min_size=1, max_size=6),
    start=st.integers(0, 420),
    fast=st.booleans(),
)
def test_find_agrees_with_bytes_find(block: bytes, needle: bytes, start: int, fast: bool) -> None:
    block = block + needle + block[:50] if start % 3 == 0 else block
    assert finder(block, fast)(needle, start) == block.find(needle, start)


def test_every_occurrence_is_found_in_a_large_block() -> None:
    block = b"".join(
        b"line %d ok\n" % i if i % 997 else b"line %d ERR\n" % i for i in range(50_000)
    )
    find = finder(block)
    hits = []
    pos = find(b"ERR", 0)
    while pos != -1:
        hits.append(pos)
        pos = find(b"ERR", pos + 1)
    expected = []
    pos = block.find(b"ERR")
    while pos != -1:
        expected.append(pos)
        pos = block.find(b"ERR", pos + 1)
    assert hits == expected and len(hits) == 51
