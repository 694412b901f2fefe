"""Quote removal of single words, checked against what bash itself passes on."""

from __future__ import annotations

import subprocess

import pytest

from rtok.shell.words import dequote

# Words whose value the text fully shows: bash must agree with `dequote` on each.
LITERAL_WORDS = [
    "plain",
    "'single quoted'",
    "''",
    "'it'\\''s'",
    "'a\\b'",
    '"double quoted"',
    '""',
    '"a\\"b"',
    '"a\\\\b"',
    '"a\\$b"',
    '"a\\`b"',
    '"a\\xb"',
    '"line\\\nnext"',
    "back\\ slash",
    "a\\\nb",
    "mixed'single'\"double\"bare",
    "'$HOME'",
    "'`x`'",
    '"(paren)"',
    "trailing$",
    "'x'$",
    "-c'alias.p=push'",
    '--signal="KILL"',
]


def _bash_value(word: str) -> str:
    done = subprocess.run(
        ["bash", "--norc", "--noprofile", "-c", f"printf '%s' {word}"],
        capture_output=True,
        text=True,
        check=True,
        timeout=10,
    )
    return done.stdout


@pytest.mark.parametrize("word", LITERAL_WORDS)
def test_dequote_matches_bash(word: str) -> None:
    assert dequote(word) == _bash_value(word)


@pytest.mark.parametrize(
    "word",
    [
        "$HOME",
        "a$x",
        '"$HOME"',
        '"a`x`"',
        "`x`",
        "$(x)",
        "$'a'",
        "'unclosed",
        '"unclosed',
        '"a\\"',
        "'a'\"b",
    ],
)
def test_dequote_has_no_value_for_expansions_and_open_quotes(word: str) -> None:
    assert dequote(word) is None


@pytest.mark.parametrize(
    ("word", "value"),
    [
        ("'it\\'s'", "it's"),  # fish reads \' and \\ inside single quotes
        ("'a\\\\b'", "a\\b"),
        ("'a\\b'", "a\\b"),  # any other backslash stays
        ('"a`x`"', "a`x`"),  # no backticks in fish
        ("`x`", "`x`"),
        ("'\\", None),
        ("(x)", None),  # command substitution
        ('"$x"', None),
    ],
)
def test_dequote_fish(word: str, value: str | None) -> None:
    assert dequote(word, "fish") == value
