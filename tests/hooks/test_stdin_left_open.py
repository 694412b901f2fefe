"""A hook whose stdin is never closed answers once the JSON document is complete."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

PAYLOAD = {
    "session_id": "s",
    "hook_event_name": "PreToolUse",
    "tool_name": "Bash",
    "tool_input": {"command": "git status"},
}


def _hook_with_open_stdin(payload: bytes, cwd: Path) -> tuple[int, bytes]:
    # stdin stays open (the test holds the write end) until the hook has answered.
    proc = subprocess.Popen(
        [sys.executable, "-m", "rtok", "hook", "claude"],
        cwd=cwd,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env=dict(os.environ, RTOK_BIN="rtok"),
    )
    assert proc.stdin is not None and proc.stdout is not None
    try:
        proc.stdin.write(payload)
        proc.stdin.flush()
        code = proc.wait(timeout=60)  # generous bound; without the fix it never returns
        return code, proc.stdout.read()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=60)
        proc.stdin.close()
        proc.stdout.close()


def test_answers_a_complete_document_on_a_pipe_never_closed(tmp_path: Path) -> None:
    payload = json.dumps(dict(PAYLOAD, cwd=str(tmp_path))).encode()
    code, out = _hook_with_open_stdin(payload, tmp_path)
    assert code == 0
    reply = json.loads(out)
    assert reply["hookSpecificOutput"]["updatedInput"]["command"] == "rtok run git status"


def test_a_document_in_pieces_with_a_newline_inside_strings_still_parses(tmp_path: Path) -> None:
    payload = json.dumps(dict(PAYLOAD, cwd=str(tmp_path), note="a}\nb}"), indent=2).encode()
    code, out = _hook_with_open_stdin(payload, tmp_path)
    assert code == 0 and b"rtok run git status" in out


def test_the_document_reader_stops_at_the_object_and_caps(tmp_path: Path) -> None:
    from rtok.hooks.payload import parse_payload, read_document

    read_end, write_end = os.pipe()
    try:
        os.write(write_end, b'{"a": "}"')
        os.write(write_end, b', "b": [1, {"c": 2}]}\n')
        data = read_document(read_end, cap=1024)
        assert parse_payload(data) == {"a": "}", "b": [1, {"c": 2}]}
        # An incomplete document on a pipe nobody closes is given up on after the deadline.
        os.write(write_end, b'{"half": ')
        assert read_document(read_end, cap=1024, deadline_s=0.2) == b""
    finally:
        os.close(read_end)
        os.close(write_end)
    # Over the cap: not a payload.
    read_end, write_end = os.pipe()
    try:
        os.write(write_end, b'{"k": "' + b"x" * 2000 + b'"}')
        os.close(write_end)
        write_end = -1
        assert parse_payload(read_document(read_end, cap=1024), cap=1024) is None
    finally:
        os.close(read_end)
        if write_end >= 0:
            os.close(write_end)
