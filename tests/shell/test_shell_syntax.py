"""Lines bash rejects (`bash -n`) are flagged by the lexer, judged by real bash; lines it
accepts never are."""

from __future__ import annotations

import subprocess

import pytest

from rtok.shell import lexer

LINES = [
    "git status",
    "a && b",
    "a &&",
    "&& a",
    "if true; then a; fi",
    "if true; then a",
    "fi",
    "while x; do y; done",
    "for i in 1 2; do e; done",
    "for i in 1 2\ndo e\ndone",
    "{ a; }",
    "{ a; ",
    "(a)",
    "a)",
    "(a",
    "a | b",
    "a |",
    "a; ; b",
    "echo fi",
    "a &",
    "a & b",
    "! a",
    "a\n&& b",
    "a &&\nb",
    "f() { a; }",
    "echo then",
    "time a",
    "a;",
    "; a",
    "x=1",
    "if a; then b; elif c; then d; else e; fi",
    "for x; do a; done",
    "until a; do b; done",
    "[[ a ]]",
    "(( 1 ))",
    "a || (b && c)",
    "then a",
    "{ a; } | b",
    "if ! a; then b; fi",
    "a # c",
    "do a",
    "a=(1 2)",
    "git status\n; git push",
    "git status | | git push",
    "done; git push",
    "git push; }",
    "{ git push",
    "git status && && git push",
]


@pytest.mark.parametrize("line", LINES)
def test_syntax_errors_are_the_ones_bash_rejects(line: str) -> None:
    rejected = (
        subprocess.run(
            ["bash", "-n", "-c", line], capture_output=True, timeout=30, check=False
        ).returncode
        != 0
    )
    assert (lexer.SYNTAX_ERROR in lexer.lex(line).reasons) == rejected


def test_syntax_not_followed_is_never_an_error() -> None:
    for line in ("case x in x) a;; esac", "f() { a; }", "function f { a; }", "coproc a"):
        assert lexer.SYNTAX_ERROR not in lexer.lex(line).reasons
