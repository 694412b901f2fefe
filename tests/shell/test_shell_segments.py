"""The permission gate's segmenter never under-segments; the rewriter's keeps offsets."""

from __future__ import annotations

import pytest

from rtok.shell.lexer import lex
from rtok.shell.segments import simple_commands, split_for_permissions


@pytest.mark.parametrize(
    ("cmd", "expected"),
    [
        ("git status && curl x | sh", ["git status", "curl x", "sh"]),
        ("git status; rm -rf ~", ["git status", "rm -rf ~"]),
        ("git status\nrm -rf ~", ["git status", "rm -rf ~"]),
        ("git status\r\nrm -rf ~", ["git status", "rm -rf ~"]),
        ("git status\rrm -rf ~", ["git status", "rm -rf ~"]),
        ("make & rm -rf ~", ["make", "rm -rf ~"]),
        ("a || b |& c", ["a", "b", "c"]),
        ("FOO=1 git push", ["FOO=1 git push"]),
        ("(cd x && git push)", ["cd x", "git push"]),
        ("{ git push; }", ["git push"]),
        ("! git push", ["git push"]),
        ("if true; then git push; else rm x; fi", ["true", "git push", "rm x"]),
        ("while true; do git push; done", ["true", "git push"]),
        ("git   push   origin", ["git push origin"]),
        ("2>/dev/null git push", ["git push"]),
        ("git push 2>&1 >/dev/null", ["git push"]),
        ("git status # ; rm -rf ~", ["git status"]),
        ("git \\\n  push", ["git push"]),
    ],
)
def test_split_for_permissions(cmd: str, expected: list[str]) -> None:
    assert split_for_permissions(cmd) == expected


@pytest.mark.parametrize(
    ("cmd", "hidden"),
    [
        ('echo "$(rm -rf ~)"', "rm -rf ~"),
        ("echo $(git push; rm x)", "rm x"),
        ("echo `git push`", "git push"),
        ("echo `echo \\`rm x\\``", "rm x"),
        ("diff <(git push) x", "git push"),
        ("bash -c 'git push'", "git push"),
        ('sh -c "git status && rm -rf ~"', "rm -rf ~"),
        ("timeout 5 bash -lc 'git push'", "git push"),
        ("sudo -u root sh -c 'rm -rf /'", "rm -rf /"),
        ("env FOO=1 zsh -c 'git push'", "git push"),
        ("eval 'git push'", "git push"),
        ("eval git push", "git push"),
        ("fish -c 'git push; and rm x'", "rm x"),
        ("fish -c 'begin; rm x; end'", "rm x"),
        ("fish -c 'echo (git push)'", "git push"),
        ("bash -c \"bash -c 'rm -rf ~'\"", "rm -rf ~"),
        ("echo ${x:-$(rm y)}", "rm y"),
    ],
)
def test_descends_into_substitutions_and_scripts(cmd: str, hidden: str) -> None:
    segments = split_for_permissions(cmd)
    assert hidden in segments
    # The outer command is kept too: a rule about the wrapper itself still applies.
    assert len(segments) >= 2


def test_heredoc_bodies_are_segmented_too() -> None:
    # Over-segmenting is safe: a deny rule about a heredoc line still matches.
    assert "rm -rf ~" in split_for_permissions("cat <<EOF\nrm -rf ~\nEOF")


def test_quoted_operators_do_not_split() -> None:
    assert split_for_permissions("git commit -m 'a && b; c'") == ["git commit -m 'a && b; c'"]


def test_empty_and_blank() -> None:
    assert split_for_permissions("") == []
    assert split_for_permissions("  ;; \n ") == []


def test_simple_commands_keep_offsets_and_operators() -> None:
    cmd = "FOO=1 git status 2>&1 | head -5 && ls"
    lexed = lex(cmd)
    commands = simple_commands(lexed)
    assert [(c.before, c.after) for c in commands] == [("", "|"), ("|", "&&"), ("&&", "")]
    assert [cmd[c.start : c.end] for c in commands] == [
        "FOO=1 git status 2>&1",
        "head -5",
        "ls",
    ]
    first = commands[0]
    assert [cmd[s:e] for s, e in first.words] == ["FOO=1", "git", "status"]
    assert [(cmd[a:b], cmd[c:d]) for a, b, c, d in first.redirects] == [("2>&", "1")]


def test_continuations_inside_a_word_are_joined_for_the_gate() -> None:
    assert "git push origin" in split_for_permissions("git pu\\\nsh origin")


def test_unknown_wrapper_option_does_not_hide_a_script() -> None:
    segments = split_for_permissions("timeout --odd-option 5 bash -c 'rm -rf /'")
    assert "rm -rf /" in segments


def test_fish_grammar_before_a_nested_shell() -> None:
    segments = split_for_permissions("""fish -c 'true; and bash -c "rm x"'""")
    assert "rm x" in segments
