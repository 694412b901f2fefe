"""The lexer keeps every byte and flags exactly the constructs rtok cannot attest."""

from __future__ import annotations

import pytest

from rtok.shell import lexer
from rtok.shell.lexer import is_unattestable, lex, unattestable_reasons


def kinds_and_texts(cmd: str) -> list[tuple[str, str]]:
    lexed = lex(cmd)
    return [(kind, cmd[start:end]) for kind, start, end in lexed.tokens]


def test_tokens_of_a_compound_line() -> None:
    assert kinds_and_texts("git status && ls -la | head -5; make &") == [
        ("word", "git"),
        ("space", " "),
        ("word", "status"),
        ("space", " "),
        ("op", "&&"),
        ("space", " "),
        ("word", "ls"),
        ("space", " "),
        ("word", "-la"),
        ("space", " "),
        ("op", "|"),
        ("space", " "),
        ("word", "head"),
        ("space", " "),
        ("word", "-5"),
        ("op", ";"),
        ("space", " "),
        ("word", "make"),
        ("space", " "),
        ("op", "&"),
    ]


def test_quotes_keep_operators_inside_one_word() -> None:
    tokens = kinds_and_texts("""grep 'a && b' "c | d" e\\;f""")
    assert tokens == [
        ("word", "grep"),
        ("space", " "),
        ("word", "'a && b'"),
        ("space", " "),
        ("word", '"c | d"'),
        ("space", " "),
        ("word", "e\\;f"),
    ]


def test_pipe_with_stderr_and_or_operators() -> None:
    ops = [t for k, t in kinds_and_texts("a |& b || c") if k == "op"]
    assert ops == ["|&", "||"]


def test_redirect_tokens_carry_their_io_number() -> None:
    tokens = kinds_and_texts("cmd 2>&1 >/dev/null &>/dev/null 3<&-")
    assert [t for k, t in tokens if k == "redir"] == ["2>&", ">", "&>", "3<&"]


def test_line_continuation_is_blank_space() -> None:
    tokens = kinds_and_texts("git \\\n  status")
    assert tokens == [("word", "git"), ("space", " \\\n  "), ("word", "status")]


def test_newlines_and_comments() -> None:
    tokens = kinds_and_texts("ls # list\r\nmake\rx")
    assert tokens == [
        ("word", "ls"),
        ("space", " "),
        ("comment", "# list"),
        ("newline", "\r\n"),
        ("word", "make"),
        ("newline", "\r"),
        ("word", "x"),
    ]


def test_hash_inside_a_word_is_not_a_comment() -> None:
    assert kinds_and_texts("echo a#b") == [("word", "echo"), ("space", " "), ("word", "a#b")]


@pytest.mark.parametrize(
    ("cmd", "reason"),
    [
        ("echo $(rm -rf /)", lexer.COMMAND_SUBSTITUTION),
        ('echo "$(rm -rf /)"', lexer.COMMAND_SUBSTITUTION),
        ('echo "a `id` b"', lexer.BACKTICK),
        ("echo `id`", lexer.BACKTICK),
        ("diff <(ls a) <(ls b)", lexer.PROCESS_SUBSTITUTION),
        ("tee >(wc -l)", lexer.PROCESS_SUBSTITUTION),
        ("zsh -c 'diff =(ls a) b'", lexer.PROCESS_SUBSTITUTION),
        ("cat <<EOF\nhi\nEOF", lexer.HEREDOC),
        ("cat <<-'EOF'\n\thi\nEOF", lexer.HEREDOC),
        ("echo $((1 + 2))", lexer.ARITHMETIC),
        ("echo $'a\\'b'", lexer.ANSI_C_QUOTE),
        ("git log > /tmp/out.txt", lexer.FILE_REDIRECT),
        ("git log >> out", lexer.FILE_REDIRECT),
        ("sort < input", lexer.FILE_REDIRECT),
        ("make &> build.log", lexer.FILE_REDIRECT),
        ("make >& build.log", lexer.FILE_REDIRECT),
        ("make 2> err.txt", lexer.FILE_REDIRECT),
        ("echo 'unterminated", lexer.UNTERMINATED),
        ('echo "unterminated', lexer.UNTERMINATED),
        ("echo $(unterminated", lexer.UNTERMINATED),
        ("git status >", lexer.DANGLING_REDIRECT),
        ("echo ${x:-$(id)}", lexer.COMMAND_SUBSTITUTION),
    ],
)
def test_unattestable_constructs(cmd: str, reason: str) -> None:
    assert reason in unattestable_reasons(cmd)
    assert is_unattestable(cmd)


@pytest.mark.parametrize(
    "cmd",
    [
        "git status 2>&1",
        "git status >/dev/null 2>&1",
        "git status &>/dev/null",
        "make 2>&-",
        "cmd 3>&1 1>&2 2>&3",
        "echo '$(not a substitution)'",
        "echo '`not either`'",
        "echo \\$(escaped)",
        "echo ${HOME}/x $PATH",
        'echo "$HOME"',
        "grep <<< 'here string'",
        "git status && cargo test | head -5 ; ls &",
        "(cd x && make)",
        "{ git status; }",
    ],
)
def test_attestable_commands(cmd: str) -> None:
    assert unattestable_reasons(cmd) == set()


def test_unattestable_inside_shell_c_script() -> None:
    assert is_unattestable("bash -c 'git log > /tmp/x'")
    assert is_unattestable('timeout 5 sh -c "echo \\$(id)"') is True
    assert is_unattestable("sh -lc 'cat <<EOF\nx\nEOF'")
    assert not is_unattestable("bash -c 'git status && ls'")


def test_shell_script_that_expands_is_unattestable() -> None:
    assert is_unattestable('bash -c "$CMD"')
    assert is_unattestable("eval $CMD")
    assert not is_unattestable("eval 'git status'")


def test_fish_scripts_are_read_with_fish_rules() -> None:
    # In fish, (…) is a command substitution and backticks are ordinary characters.
    assert is_unattestable("fish -c 'echo (rm -rf ~)'")
    assert is_unattestable("""fish -c 'echo "$(id)"'""")
    assert not is_unattestable("fish -c 'git status; and ls'")
    assert not is_unattestable("fish -c 'echo `x`'")
    # The same script under bash rules is fine: parentheses in quotes are literal there.
    assert not is_unattestable("bash -c 'echo \"(x)\"'")


def test_fish_single_quote_escapes() -> None:
    lexed = lex("echo 'it\\'s' (ls)", "fish")
    assert lexer.UNTERMINATED not in lexed.reasons
    assert lexer.COMMAND_SUBSTITUTION in lexed.reasons


def test_substitution_spans_point_at_the_inner_command() -> None:
    cmd = 'echo "$(git push)" `rm x` <(ls)'
    lexed = lex(cmd)
    inner = sorted(cmd[s:e] for s, e, _ in lexed.substitutions)
    assert inner == ["git push", "ls", "rm x"]


def test_nested_substitutions_are_all_recorded() -> None:
    cmd = "echo $(a $(b) c)"
    inner = sorted(cmd[s:e] for s, e, _ in lex(cmd).substitutions)
    assert inner == ["a $(b) c", "b"]


def test_constructs_revealed_by_joining_continuations() -> None:
    # bash removes backslash-newline first: these are a substitution and a heredoc.
    assert lexer.COMMAND_SUBSTITUTION in unattestable_reasons("echo $\\\n(rm -rf ~)")
    assert lexer.HEREDOC in unattestable_reasons("cat <\\\n<EOF\nx\nEOF")
    assert not is_unattestable("git \\\n  status")


@pytest.mark.parametrize(
    "cmd",
    [
        "echo " + "$(" * 3000 + ")" * 3000,
        "echo " + '"$(echo ' * 400 + ')"' * 400,
        "eval " * 2000 + "ls",
    ],
)
def test_pathological_nesting_is_unattestable_not_a_crash(cmd: str) -> None:
    lexed = lex(cmd)
    assert "".join(lexed.texts()) == cmd
    assert is_unattestable(cmd)
