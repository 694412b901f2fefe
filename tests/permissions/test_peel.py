"""Peeling env prefixes, process wrappers and grammar words off a segment."""

from __future__ import annotations

import pytest

from rtok.permissions.verdict import command_forms, unquote, word_spans


@pytest.mark.parametrize(
    "segment",
    [
        "FOO=1 git push",
        "FOO=1 BAR='a b' git push",
        "timeout 5 git push",
        "timeout -s KILL 5 git push",
        "timeout --signal=KILL 5s git push",
        "env git push",
        "env -i A=b -u X git push",
        "nice -n 5 git push",
        "nice -5 git push",
        "nohup git push",
        "time -p git push",
        "command git push",
        "exec git push",
        "stdbuf -oL git push",
        "sudo -u root git push",
        "sudo -u root timeout -s KILL 5 env A=1 git push",
        "{ git push",
        "! git push",
        "( git push",
        "'timeout' 5 git push",
        "/usr/bin/env git push",
        "xargs -n 1 git push",
    ],
)
def test_wrapped_command_is_reached(segment: str) -> None:
    assert "git push" in command_forms(segment)


def test_segment_itself_comes_first() -> None:
    assert command_forms("  timeout 5 git push ") == ["timeout 5 git push", "git push"]


def test_plain_command_has_one_form() -> None:
    assert command_forms("git push origin") == ["git push origin"]


def test_arguments_are_never_peeled() -> None:
    # Peeling stops at the first word that runs a command: arguments are not commands.
    assert command_forms("echo git push") == ["echo git push"]
    assert command_forms("grep 'git push' log") == ["grep 'git push' log"]


def test_empty_segment() -> None:
    assert command_forms("   ") == []


def test_word_spans_respect_quotes() -> None:
    text = "a 'b c' \"d \\\" e\" f\\ g"
    words = [text[a:b] for a, b in word_spans(text)]
    assert words == ["a", "'b c'", '"d \\" e"', "f\\ g"]
    assert [unquote(word) for word in words] == ["a", "b c", 'd " e', "f g"]


def test_unterminated_quote_does_not_fail() -> None:
    assert word_spans("echo 'oops") == [(0, 4), (5, 10)]


def test_huge_segment_is_scanned_only_at_its_start() -> None:
    segment = "FOO=1 git push " + "x " * 500_000
    assert command_forms(segment)[1].startswith("git push x x")
    assert len(word_spans(segment, 3)) == 3
    # Padding with more prefix words than the quick scan covers does not hide the command.
    assert command_forms("A=1 " * 100 + "git push")[-1] == "git push"
    assert command_forms("timeout 5 " * 40 + "git push")[-1] == "git push"


def test_find_exec_commands_are_forms() -> None:
    forms = command_forms("find . -name '*.tmp' -exec rm -rf {} \\; -o -execdir git push \\;")
    assert any(form.startswith("rm -rf {}") for form in forms)
    assert any(form.startswith("git push") for form in forms)
    assert command_forms("finder -exec rm x") == ["finder -exec rm x"]
