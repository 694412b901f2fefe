"""`rtok mcp`: a real MCP server, the same session direct and through the proxy."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import Any

from rtok_testing import run_rtok

SERVER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "server_app.py")

SESSION: list[dict[str, Any]] = [
    {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {
            "protocolVersion": "2025-06-18",
            "capabilities": {},
            "clientInfo": {"name": "rtok-test", "version": "0"},
        },
    },
    {"jsonrpc": "2.0", "method": "notifications/initialized"},
    {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
    {
        "jsonrpc": "2.0",
        "id": 3,
        "method": "tools/call",
        "params": {"name": "long_text", "arguments": {"count": 400}},
    },
    {
        "jsonrpc": "2.0",
        "id": "four",
        "method": "tools/call",
        "params": {"name": "short_text", "arguments": {}},
    },
    {
        "jsonrpc": "2.0",
        "id": 5,
        "method": "tools/call",
        "params": {"name": "failing", "arguments": {"count": 300}},
    },
    {
        "jsonrpc": "2.0",
        "id": 6,
        "method": "tools/call",
        "params": {"name": "long_text", "arguments": {"count": 30}},
    },
]


def _session(argv: list[str]) -> tuple[list[bytes], int]:
    """Send SESSION one request at a time; the raw response lines, and the exit status."""
    proc = subprocess.Popen(
        argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL
    )
    assert proc.stdin is not None and proc.stdout is not None
    replies: list[bytes] = []
    try:
        for message in SESSION:
            proc.stdin.write(json.dumps(message).encode() + b"\n")
            proc.stdin.flush()
            if "id" not in message:
                continue
            for _ in range(100):
                line = proc.stdout.readline()
                assert line, "server closed its output"
                if b'"id"' in line and json.loads(line).get("id") == message["id"]:
                    replies.append(line)
                    break
        proc.stdin.close()
        status = proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    return replies, status


def _check_cut_message(direct: bytes, proxied: bytes) -> tuple[str, str]:
    """The long result's text block is cut (its errors and first line kept, rtok's trailer
    added) and the rest of the message is as sent; returns (raw text, trailer)."""
    raw_msg = json.loads(direct)
    cut_msg = json.loads(proxied)
    raw_text = raw_msg["result"]["content"][0]["text"]
    cut_text = cut_msg["result"]["content"][0]["text"]
    assert len(cut_text) < len(raw_text)
    assert "ERROR: row 50 is broken" in cut_text
    assert cut_text.splitlines()[0] == "row 0"
    trailer = cut_text.splitlines()[-1]
    assert trailer.startswith("[rtok expand ") and trailer.endswith(" · 400 lines]")
    # Everything but the cut text block is the same message.
    cut_msg["result"]["content"][0]["text"] = raw_text
    assert cut_msg == raw_msg
    return str(raw_text), str(trailer)


def test_proxied_session_matches_direct_except_cut_text_blocks() -> None:
    direct, direct_status = _session([sys.executable, SERVER])
    proxied, proxied_status = _session(
        [sys.executable, "-m", "rtok", "mcp", "--", sys.executable, SERVER]
    )
    assert direct_status == proxied_status == 0
    assert len(direct) == len(proxied) == 6
    by_id = dict(zip([m["id"] for m in SESSION if "id" in m], range(6), strict=True))
    for request_id, index in by_id.items():
        if request_id != 3:
            # Not a long, successful tools/call: forwarded byte for byte.
            assert proxied[index] == direct[index], request_id
    raw_text, trailer = _check_cut_message(direct[by_id[3]], proxied[by_id[3]])
    # The failing call is an error result: untouched even though its text is long.
    assert json.loads(direct[by_id[5]])["result"]["isError"] is True
    entry_id = trailer.split()[2]
    expanded = run_rtok(["expand", entry_id])
    assert expanded.stdout.decode() == raw_text
    gain = json.loads(run_rtok(["gain", "--json"]).stdout)
    assert [f["key"] for f in gain["groups"]["family"]] == ["mcp"]


def test_server_exit_status_propagates() -> None:
    result = run_rtok(["mcp", "--", sys.executable, SERVER, "--exit"], input=b"")
    assert result.returncode == 5


def test_missing_server_is_127() -> None:
    result = run_rtok(["mcp", "--", "rtok-no-such-mcp-server"], input=b"")
    assert result.returncode == 127
    assert b"command not found" in result.stderr


def test_signals_reach_the_server_and_its_death_is_reported() -> None:
    import signal
    import time

    proc = subprocess.Popen(
        [sys.executable, "-m", "rtok", "mcp", "--", sys.executable, SERVER],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    assert proc.stdin is not None and proc.stdout is not None
    try:
        proc.stdin.write(json.dumps(SESSION[0]).encode() + b"\n")
        proc.stdin.flush()
        assert b'"id":1' in proc.stdout.readline().replace(b" ", b"")
        time.sleep(0.2)
        proc.send_signal(signal.SIGTERM)
        status = proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    # The server either exits cleanly on SIGTERM or dies of it (128 + 15).
    assert status in (0, 128 + signal.SIGTERM)
