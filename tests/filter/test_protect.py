"""Protected lines: the fast pre-check never disagrees with the full pattern."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from rtok.filter.protect import PROTECTED, is_protected, protected_lines

WORDS = ["error", "Error:", "ERR!", "warning", "WARN", "fatal", "panic", "TypeError",
         "E   assert", "token", "api_key", "API-KEY", "passwd", "Password", "bearer x",
         "private key", "AKIA" + "B" * 16, "ghp_" + "a" * 36, "sk-" + "a" * 25, "xoxb-1",
         "credentials", "aborted", "Segmentation fault", "FAILED", "denied", "hello", "stderr",
         "errand", "E\tx", "keyboard", "ok"]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.one_of(st.sampled_from(WORDS), st.text(max_size=8)), max_size=5))
def test_fast_check_agrees_with_the_pattern(parts: list[str]) -> None:
    line = " ".join(parts).replace("\n", " ")
    assert is_protected(line) == (PROTECTED.search(line) is not None)


def test_block_scan_finds_lines_with_their_numbers() -> None:
    block = (b"ok line\nE   assert 1\nfoo ERROR bar\nsome thing\nwarning: x\n"
             b"my token is x\nplain\n")
    assert protected_lines(block) == [(1, "E   assert 1"), (2, "foo ERROR bar"),
                                      (4, "warning: x"), (5, "my token is x")]


def test_ordinary_words_are_not_protected() -> None:
    for line in ("stderr redirected", "errand boy", "test_error_handling PASSED",
                 "keyboard layout", "compiling unit3.c"):
        assert not is_protected(line), line
