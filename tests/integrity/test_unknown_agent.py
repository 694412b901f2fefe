"""`rtok verify --agent` and `rtok doctor --agent` refuse a name no descriptor has."""

from __future__ import annotations

import pytest

from rtok_testing import run_rtok


@pytest.mark.parametrize("verb", ["verify", "doctor"])
def test_unknown_agent_is_a_usage_error_naming_the_known_ones(verb: str) -> None:
    result = run_rtok([verb, "--agent", "no-such-agent"])
    assert result.returncode == 2
    message = result.stderr.decode()
    assert message.startswith(f"rtok {verb}: unknown agent 'no-such-agent'; known: ")
    assert "claude" in message.split("known: ", 1)[1].split(", ")
    assert result.stdout == b""
