"""The readings the permission gate checks deny, ask and allow rules against."""

from __future__ import annotations

import pytest

from rtok.shell import lexer, segments
from rtok.shell.readings import all_attestable, all_readings, executed_form, read_command


def _words(segment: str) -> list[str]:
    lexed = lexer.lex(segment)
    commands = segments.simple_commands(lexed)
    assert len(commands) == 1
    return segments.strip_grammar(segments.word_texts(lexed, commands[0]))


def forms(segment: str) -> list[str]:
    out: list[str] = []
    for reading in all_readings(_words(segment)):
        out += [form for form in reading.forms if form not in out]
    return out


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
        "env -S 'git push'",
        "env --split-string='git push'",
        "nice -n 5 git push",
        "nice -5 git push",
        "nohup git push",
        "time -p git push",
        "command git push",
        "builtin git push",
        "exec git push",
        "exec -a name git push",
        "stdbuf -oL git push",
        "setsid -w git push",
        "ionice -c 3 git push",
        "chrt -b 0 git push",
        "taskset -c 1 git push",
        "noglob git push",
        "sudo -u root git push",
        "sudo -u root timeout -s KILL 5 env A=1 git push",
        "{ git push",
        "! git push",
        "'timeout' 5 git push",
        "/usr/bin/env git push",
        "xargs -n 1 git push",
        "xargs -I{} git push {}",
        "timeout --odd-option 5 git push",
        '"git" push',
        "\\git push",
        "g''it push",
        "git pu''sh",
        "/usr/bin/git push",
        "./git push",
        "git -C . push",
        "git --no-pager push",
        "git -c k=v push",
        "git -C /tmp -c a=b --no-pager push",
        "and git push",
        "find . -exec git push {} \\;",
        "find . -name x -execdir git push \\;",
        "fd -x git push",
    ],
)
def test_every_executed_spelling_reaches_the_command(segment: str) -> None:
    assert any(form == "git push" or form.startswith("git push ") for form in forms(segment))


def test_arguments_are_never_read_as_commands() -> None:
    assert not any(f.startswith("git push") for f in forms("echo git push"))
    assert not any(f.startswith("git push") for f in forms("grep 'git push' log"))
    assert not any(f.startswith("rm") for f in forms("finder -exec rm x"))


def test_executed_form_removes_quotes_and_requotes() -> None:
    assert executed_form(['"git"', "status"]) == "git status"
    assert executed_form(["git", "'status; rm -rf /'"]) == "git 'status; rm -rf /'"
    assert executed_form(["ls", "$HOME"]) is None
    assert read_command(["ls", "-la"]).executed == "ls -la"


@pytest.mark.parametrize(
    "segment",
    [
        "$x push",
        "git $y",
        '"$GIT" push',
        "git -C . $(echo push)",
        "find . -exec $x {} \\;",
        "timeout 5 $CMD",
        "xargs $tool",
    ],
)
def test_expanded_command_words_are_not_attestable(segment: str) -> None:
    assert not all_attestable(_words(segment))


@pytest.mark.parametrize("segment", ["ls $x", "git log $range", "echo $HOME", 'git -C "$d" status'])
def test_expanded_arguments_stay_attestable(segment: str) -> None:
    assert all_attestable(_words(segment))


def test_inner_commands_are_exposed() -> None:
    inner = read_command(_words("find . -exec rm -rf {} \\; -o -ok git push \\;")).inner
    assert [" ".join(words) for words in inner] == ["rm -rf {}", "git push"]
    assert [" ".join(w) for w in read_command(_words("timeout 5 git status")).inner] == [
        "git status"
    ]


def test_padding_does_not_hide_the_command() -> None:
    assert forms("A=1 " * 100 + "git push")[-1].startswith("git push")
    assert any(f == "git push" for f in forms("timeout 5 " * 40 + "git push"))
    # Past the wrappers rtok reads, the command is not attested (never rewritten nor
    # allowed), whatever deny rules find.
    assert not all_attestable(_words("nice " * 200 + "git push"))


def test_huge_argument_list_is_read_in_linear_time() -> None:
    words = ["git", "add", *(f"f{i}" for i in range(200_000))]
    reading = read_command(words)
    assert reading.attestable
    assert reading.executed is not None and reading.executed.startswith("git add f0 f1")


@pytest.mark.parametrize(
    "segment",
    [
        "{git,push} origin",
        "git {push,} origin",
        "/usr/bin/gi? push",
        "git pu[s]h",
        "/usr/bin/g*t push",
        "~other/bin/git push",
    ],
)
def test_words_bash_expands_are_not_attestable(segment: str) -> None:
    assert not all_attestable(_words(segment))


@pytest.mark.parametrize("segment", ["ls *.py", "git add src/*.py", "cat ~/notes", "grep -r x ~"])
def test_expanding_arguments_stay_attestable(segment: str) -> None:
    assert all_attestable(_words(segment))


@pytest.mark.parametrize(
    "segment",
    [
        "sh",
        "bash -s",
        "bash -s -- a b",
        "zsh -",
        "git -c alias.p=push p",
        "git -calias.p=push p",
        "git --config-env=alias.p=P p",
        "alias g='git push'",
    ],
)
def test_commands_whose_meaning_is_elsewhere_are_not_attestable(segment: str) -> None:
    assert not all_attestable(_words(segment))


@pytest.mark.parametrize("segment", ["bash -c 'ls'", "bash deploy.sh", "git -c core.pager=cat log"])
def test_shells_with_a_script_and_plain_options_stay_attestable(segment: str) -> None:
    assert all_attestable(_words(segment))


@pytest.mark.parametrize(
    "segment",
    ["watch -n 1 git push", "flock /tmp/l git push", "unbuffer git push", "chroot / git push"],
)
def test_command_runners_expose_their_command(segment: str) -> None:
    assert any(form.startswith("git push") for form in forms(segment))


def test_a_global_option_missing_its_value_is_read() -> None:
    assert read_command(["git", "-C"]).forms[0] == "git -C"
    assert not read_command(["git", "-c"]).attestable  # a `-c` whose setting is unknown
