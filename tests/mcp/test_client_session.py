"""`rtok mcp` under the official MCP client (`mcp` package): same session, cut long text."""

from __future__ import annotations

import os
import sys
from typing import Any

import anyio
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

from rtok_testing import run_rtok

SERVER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "server_app.py")
PASSED_ENV = ("HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "PATH")


async def _session(command: list[str]) -> dict[str, Any]:
    env = {name: os.environ[name] for name in PASSED_ENV if name in os.environ}
    params = StdioServerParameters(command=command[0], args=command[1:], env=env)
    async with stdio_client(params) as streams, ClientSession(streams[0], streams[1]) as session:
        await session.initialize()
        tools = await session.list_tools()
        long = await session.call_tool("long_text", {"count": 250})
        short = await session.call_tool("short_text", {})
        failing = await session.call_tool("failing", {"count": 250})
    return {
        "tools": [tool.model_dump() for tool in tools.tools],
        "long": long,
        "short": short.model_dump(),
        "failing": failing.model_dump(),
    }


def test_official_client_sees_the_same_session_through_the_proxy() -> None:
    direct = anyio.run(_session, [sys.executable, SERVER])
    proxied = anyio.run(
        _session, [sys.executable, "-m", "rtok", "mcp", "--", sys.executable, SERVER]
    )
    assert proxied["tools"] == direct["tools"]
    assert proxied["short"] == direct["short"]
    assert proxied["failing"] == direct["failing"]
    assert direct["failing"]["is_error"] is True
    raw = direct["long"].content[0].text
    cut = proxied["long"].content[0].text
    assert proxied["long"].is_error is False
    assert len(cut) < len(raw) and "ERROR: row 50 is broken" in cut
    trailer = cut.splitlines()[-1]
    assert trailer.startswith("[rtok expand ") and trailer.endswith(" · 250 lines]")
    assert run_rtok(["expand", trailer.split()[2]]).stdout.decode() == raw
