"""The `[limits]` and `[transcripts]` descriptor tables, and how a run finds its agent,
session and cap from its environment."""

from __future__ import annotations

from typing import Any

import pytest

from rtok.install.descriptor import DescriptorError, host_limits, load_all, parse
from rtok.store import host


def _minimal(**extra: Any) -> dict[str, Any]:
    return {
        "name": "x",
        "display_name": "X",
        "tier": "rules",
        "proof": {"kind": "contract", "docs": ["x's own docs"]},
        "install": {"global": [{"strategy": "awareness_file", "path": "~/.x/RTOK.md"}]},
        **extra,
    }


def test_every_hook_host_of_the_issue_has_its_cap_and_source() -> None:
    limits = host_limits()
    assert limits["claude"].tool_result_chars == 30000
    assert limits["claude"].cap_env == "BASH_MAX_OUTPUT_LENGTH"
    assert limits["codex"].tool_result_chars == 10240
    assert limits["gemini"].tool_result_chars == 40000
    assert limits["opencode"].tool_result_chars == 51200
    assert limits["copilot"].tool_result_chars is None  # not known: said so
    for name, item in limits.items():
        assert item.source, name
    assert "Not known" in limits["copilot"].source
    assert load_all()["codex"].transcripts == (
        "${CODEX_HOME:-~/.codex}/sessions/*/*/*/*.jsonl",
        "codex-jsonl",
    )
    assert load_all()["gemini"].transcripts == (
        "${GEMINI_CLI_HOME:-~}/.gemini/tmp/*/chats/*.jsonl",
        "gemini-jsonl",
    )
    assert load_all()["claude"].transcripts == (
        "${CLAUDE_CONFIG_DIR:-~/.claude}/projects/*/*.jsonl",
        "claude-jsonl",
    )


@pytest.mark.parametrize(
    ("table", "message"),
    [
        ({"limits": {"tool_result_chars": 30000}}, "limits.source"),
        ({"limits": {"tool_result_chars": -1, "source": "s"}}, "positive integer"),
        ({"limits": {"tool_result_chars": True, "source": "s"}}, "positive integer"),
        ({"limits": {"source": "s", "cap": 1}}, "cap"),
        ({"limits": {"source": "s", "agent_env": "X"}}, "agent_env"),
        ({"limits": {"source": "s", "over_cap_chars": 2000}}, "needs tool_result_chars"),
        (
            {"limits": {"source": "s", "tool_result_chars": 9, "over_cap_chars": 0}},
            "over_cap_chars must be a positive integer",
        ),
        ({"transcripts": {"glob": "projects/*.jsonl", "format": "claude-jsonl"}}, "must start"),
        ({"transcripts": {"glob": "~/x/*.jsonl", "format": "yaml"}}, "format"),
    ],
)
def test_bad_tables_are_refused_with_the_key_named(table: dict[str, Any], message: str) -> None:
    with pytest.raises(DescriptorError, match=message):
        parse(_minimal(**table), "x.toml")


def test_agent_from_the_environment() -> None:
    assert host.agent({}) == "unknown"
    assert host.agent({"CLAUDECODE": "1"}) == "claude"
    assert host.agent({"GEMINI_CLI": "1"}) == "gemini"
    assert host.agent({"CLAUDECODE": ""}) == "unknown"  # set but empty: not a marker
    assert host.agent({"RTOK_AGENT": "codex", "CLAUDECODE": "1"}) == "codex"


def test_session_from_the_environment() -> None:
    assert host.session("claude", {"CLAUDE_CODE_SESSION_ID": "abc"}) == "abc"
    assert (
        host.session("claude", {"RTOK_SESSION": "mine", "CLAUDE_CODE_SESSION_ID": "abc"}) == "mine"
    )
    assert host.session("gemini", {"CLAUDE_CODE_SESSION_ID": "abc"}) == ""


def test_cap_from_the_environment_and_what_it_keeps() -> None:
    assert host.cap("claude", {}) == 30000
    assert host.cap("claude", {"BASH_MAX_OUTPUT_LENGTH": "80000"}) == 80000
    assert host.cap("claude", {"BASH_MAX_OUTPUT_LENGTH": "lots"}) == 30000
    assert host.cap("claude", {"BASH_MAX_OUTPUT_LENGTH": "-5"}) == 30000
    assert host.cap("copilot", {}) is None and host.cap("nobody", {}) is None
    assert host.counterfactual(100_000, 30000) == 30000
    assert host.counterfactual(100, 30000) == 100
    assert host.counterfactual(100_000, None) == 100_000


def test_a_host_that_keeps_a_preview_over_its_cap() -> None:
    from rtok.store.tokens import cut_like_host

    assert host_limits()["claude"].over_cap_chars == 2000
    assert host.over_cap("claude") == 2000
    assert host.over_cap("codex") is None and host.over_cap("nobody") is None
    assert host.counterfactual(30000, 30000, 2000) == 30000  # up to the cap: whole
    assert host.counterfactual(30001, 30000, 2000) == 2000  # over it: the preview only
    assert host.counterfactual(30001, 30000) == 30000  # a host that cuts
    text = "".join(f"{n}\n" for n in range(20000))
    assert cut_like_host(text, 30000, 2000) == text[:2000]
    cut = cut_like_host(text, 30000)
    assert len(cut) == 30000 and cut.startswith(text[:15000]) and cut.endswith(text[-15000:])
    assert cut_like_host(text[:100], 30000, 2000) == text[:100]
