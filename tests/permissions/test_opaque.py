"""Opaque lines: a line running what the gate cannot read is never allowed (nor rewritten)
while any deny or ask rule exists, and is judged as before when there are none."""

from __future__ import annotations

import pytest

from rtok.permissions.verdict import is_opaque, verdict_with_rules
from rtok.rewrite.decision import decide
from rtok.rewrite.rewriter import Settings

OPAQUE = [
    "python3 -c 'import os; os.system(1)'; git status",
    "perl -e 'system 1'; git status",
    "node -e 'x()'; git status",
    "awk 'BEGIN{system(\"x\")}'; git status",
    "awk '{print | \"sh\"}' f; git status",
    "echo x | sed '1e id'; git status",
    "echo x | sed 's/x/id/e'; git status",
    "tar -cf /dev/null x --checkpoint-action=exec=id; git status",
    "rsync -e 'sh -c id' a b:c; git status",
    "ssh host id; git status",
    "bash script.sh; git status",
    "bash /dev/stdin <<< x; git status",
    "source ./env.sh; git status",
    "python3 tool.py; git status",
    "find . -exec {} \\;; git status",
    "echo x | xargs sh -c; git status",
    "parallel ::: x; git status",
    "PAGER='x' git -p log; git status",
    "git -c core.pager=x log; git status",
    "export BASH_ENV=x; git status",
    "export PAGER; git status",
    "read PS4 <<< x; git status",
    "declare -n r=x; git status",
    "x=1; echo ${x@P}; git status",
    "su; git status",
    "chroot /; git status",
    "git status\r\ngit log",
    "git status; fi",
]
READABLE = [
    "git status",
    "python3 -m pytest -q",
    "awk '{print $1}' f; git status",
    "sed -n 1p f; git status",
    "tar -tf x.tar; git status",
    "git -c color.ui=always status",
    "flock /tmp/l git status",
    "su -c 'git status'",
    "bash -c 'git status'",
    "echo HOME; git status",
    "grep PATH notes.txt; git status",
]


@pytest.mark.parametrize("cmd", OPAQUE)
def test_opaque_lines_are_never_allowed_while_rules_deny_or_ask(cmd: str) -> None:
    assert is_opaque(cmd)
    assert verdict_with_rules(cmd, ["rm:*"], [], ["*"]) == "opaque"
    assert verdict_with_rules(cmd, [], ["curl:*"], ["*"]) == "opaque"
    # Without deny or ask rules nothing is hidden from anyone: the verdict stands.
    assert verdict_with_rules(cmd, [], [], ["*"]) != "opaque"


@pytest.mark.parametrize("cmd", READABLE)
def test_readable_lines_are_not_opaque(cmd: str) -> None:
    assert not is_opaque(cmd)
    assert verdict_with_rules(cmd, ["rm:*"], [], ["*"]) == "allow"


def test_an_opaque_command_still_rewrites_without_rules() -> None:
    assert decide("perl -e 1; git status", "default", settings=Settings()).kind == "ask_rewrite"
