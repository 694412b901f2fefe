"""An agent name no descriptor has is a usage error in every verb that takes one: one line
that names the nearest known agent(s), exit status 2, nothing written."""

from __future__ import annotations

from pathlib import Path

import pytest

from rtok_testing import run_rtok

VERBS = [["verify"], ["doctor"], ["init", "-g"], ["uninstall", "-g"], ["init", "--dry-run"]]


@pytest.mark.parametrize("verb", VERBS, ids=lambda v: " ".join(v))
@pytest.mark.parametrize(
    ("typed", "nearest"), [("claud", "claude"), ("codx", "codex"), ("gemni", "gemini")]
)
def test_a_near_miss_names_the_agent_meant(
    verb: list[str], typed: str, nearest: str, isolated_home: Path
) -> None:
    (isolated_home / ".claude").mkdir()  # an agent to install into, were the name known
    before = sorted(isolated_home.rglob("*"))
    result = run_rtok([*verb, "--agent", typed], cwd=str(isolated_home))
    assert result.returncode == 2
    lines = result.stderr.decode().splitlines()
    assert len(lines) == 1, lines
    assert lines[0].startswith(f"rtok {verb[0]}: unknown agent {typed!r}; did you mean ")
    assert nearest in lines[0].split("did you mean ", 1)[1].split("?")[0].split(" or ")
    assert result.stdout == b""
    assert sorted(isolated_home.rglob("*")) == before  # nothing written


@pytest.mark.parametrize("verb", ["verify", "doctor"])
def test_a_name_like_no_agent_points_at_the_list(verb: str) -> None:
    result = run_rtok([verb, "-a", "no-such-agent"])
    assert result.returncode == 2
    assert result.stderr.decode() == (
        f"rtok {verb}: unknown agent 'no-such-agent'; (all agents: `rtok agents`)\n"
    )
    assert result.stdout == b""


def test_the_hook_keeps_no_opinion_for_an_unknown_agent() -> None:
    result = run_rtok(["hook", "claud"], input=b'{"tool_name": "Bash"}')
    assert result.returncode == 0
    assert result.stdout == b""
