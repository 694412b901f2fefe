"""Protected lines: the fast pre-check never disagrees with the full pattern."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rtok.filter.protect import (
    CATALOGUE,
    PASSING,
    PASSING_SOURCE,
    PROTECTED_SOURCE,
    Entry,
    carries_secret,
    is_passing_test,
    is_protected,
    protected_lines,
)

WORDS = [
    "error",
    "Error:",
    "ERR!",
    "warning",
    "WARN",
    "fatal",
    "panic",
    "TypeError",
    "E   assert",
    "token",
    "api_key",
    "API-KEY",
    "passwd",
    "Password",
    "bearer x",
    "private key",
    "AKIA" + "B" * 16,
    "ghp_" + "a" * 36,
    "sk-" + "a" * 25,
    "xoxb-1",
    "credentials",
    "aborted",
    "Segmentation fault",
    "FAILED",
    "denied",
    "hello",
    "stderr",
    "errand",
    "E\tx",
    "keyboard",
    "ok",
]


PROTECTED = re.compile(PROTECTED_SOURCE, re.M)
PASSING_LINE = re.compile(PASSING_SOURCE)


@settings(max_examples=400, deadline=None)
@given(st.lists(st.one_of(st.sampled_from(WORDS), st.text(max_size=8)), max_size=5))
def test_fast_check_agrees_with_the_pattern(parts: list[str]) -> None:
    line = " ".join(parts).replace("\n", " ")
    expected = PROTECTED.search(line) is not None
    if expected and PASSING_LINE.match(line):
        expected = carries_secret(line)
    assert is_protected(line) == expected


def test_block_scan_finds_lines_with_their_numbers() -> None:
    block = b"ok line\nE   assert 1\nfoo ERROR bar\nsome thing\nwarning: x\nmy token=x\nplain\n"
    assert protected_lines(block) == [
        (1, "E   assert 1"),
        (2, "foo ERROR bar"),
        (4, "warning: x"),
        (5, "my token=x"),
    ]


def test_ordinary_words_are_not_protected() -> None:
    for line in (
        "stderr redirected",
        "errand boy",
        "test_error_handling PASSED",
        "keyboard layout",
        "compiling unit3.c",
    ):
        assert not is_protected(line), line


@pytest.mark.parametrize("entry", CATALOGUE, ids=[entry.name for entry in CATALOGUE])
def test_catalogue_entry_protects_its_example_and_not_its_near_miss(entry: Entry) -> None:
    own = re.compile(entry.pattern, re.M)
    assert own.search(entry.example), entry.example
    assert is_protected(entry.example)
    assert own.search(entry.near_miss) is None, entry.near_miss
    if entry.kind == "secret":
        assert carries_secret(entry.example)


@pytest.mark.parametrize("entry", CATALOGUE, ids=[entry.name for entry in CATALOGUE])
def test_catalogue_entry_is_found_in_a_streamed_block(entry: Entry) -> None:
    block = f"plain line\n-----BEGIN X-----\n{entry.example}\nanother plain line\n".encode()
    assert (2, entry.example) in protected_lines(block)


@pytest.mark.parametrize(
    "line",
    [
        "OSError: [Errno 28] No space left on device",
        "java.io.IOException: stream closed",
        "java.sql.SQLException: connection refused",
        "requests.exceptions.HTTPError: 500",
        "ls: cannot access 'x': No such file or directory",
        "zsh: command not found: jqq",
        "Killed",
        "Out of memory",
        "undefined reference to `main'",
        "assert x == 1",
        '10.0.0.1 - - [x] "POST /login HTTP/2.0" 401 12',
        "< HTTP/1.1 500 Internal Server Error",
        "token=github_pat_" + "A" * 30,
        "sk_live_" + "a" * 20,
        "AIza" + "b" * 35,
        "glpat-" + "c" * 20,
        "npm_" + "d" * 36,
        "hf_" + "e" * 34,
        "postgres://user:pass@host/db",
        "Authorization: Basic dXNlcjpwYXNz",
        "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.sig",
    ],
)
def test_the_issue_catalogue_is_protected(line: str) -> None:
    assert is_protected(line), line


def test_secret_lines_are_secrets_and_error_lines_are_not() -> None:
    assert carries_secret("DATABASE_URL=postgres://app:pw@db/app")
    assert not carries_secret("OSError: [Errno 28] No space left on device")
    assert not carries_secret('    raise RuntimeError("boom")')


@pytest.mark.parametrize("entry", PASSING, ids=[entry.name for entry in PASSING])
def test_a_passing_test_line_is_not_protected_and_its_near_miss_is(entry: Entry) -> None:
    assert re.match(entry.pattern, entry.example), entry.example
    assert re.match(entry.pattern, entry.near_miss) is None, entry.near_miss
    assert is_passing_test(entry.example)
    # each example names an error only through its test or package name
    assert PROTECTED.search(entry.example), entry.example
    assert not is_protected(entry.example)
    assert is_protected(entry.near_miss)


def test_a_passing_test_line_with_a_secret_is_still_protected() -> None:
    line = "tests/test_auth.py::test_password=hunter2 PASSED"
    assert is_passing_test(line)
    assert is_protected(line)


def test_the_streamed_scan_leaves_out_passing_tests_with_error_in_their_name() -> None:
    block = (
        b"tests/test_io.py::test_IOError PASSED  [ 40%]\n"
        b"tests/test_io.py::test_OSError FAILED  [ 80%]\n"
        b"test error::tests::display ... ok\n"
        b"    --- PASS: TestParseError (0.00s)\n"
        b"ok  \tgithub.com/pkg/errors\t0.012s\n"
    )
    assert protected_lines(block) == [(1, "tests/test_io.py::test_OSError FAILED  [ 80%]")]


@pytest.mark.parametrize(
    ("line", "protected"),
    [
        ("GITHUB_TOKEN=ghx123", True),
        ('{"token": "abc"}', True),
        ("token: abc", True),
        ("access_token = abc", True),
        ("x-auth-token: abc", True),
        ("reads the token in ~/.netrc", False),
        ("the tokenizer splits words", False),
        ("3 tokens left", False),
    ],
)
def test_token_is_a_secret_only_when_given_a_value(line: str, protected: bool) -> None:
    assert carries_secret(line) is protected, line
