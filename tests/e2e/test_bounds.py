"""The tier's bounds, with real processes and no agent: timeouts kill the whole group, the
env-marker sweep kills detached daemons, and the sandbox serves the fake model to its steps."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import uuid
from pathlib import Path

from e2e.procs import MARKER_NAME, pids_with_env, run_bounded, sweep_marked
from e2e.settings import SCRIPTS_DIR
from e2e.workspace import free_port, netns_available, netns_prefix


def marked_env(marker: str) -> dict[str, str]:
    return {"PATH": "/usr/bin:/bin", MARKER_NAME: marker}


def test_timeout_kills_the_whole_process_group(tmp_path: Path) -> None:
    marker = uuid.uuid4().hex
    start = time.monotonic()
    outcome = run_bounded(
        ["sh", "-c", "sleep 30 & sleep 30"],
        env=marked_env(marker),
        cwd=str(tmp_path),
        stdout_path=str(tmp_path / "out"),
        stderr_path=str(tmp_path / "err"),
        timeout=1,
    )
    assert outcome.timed_out and outcome.returncode is None
    assert time.monotonic() - start < 15
    deadline = time.monotonic() + 5
    while pids_with_env(MARKER_NAME, marker) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert pids_with_env(MARKER_NAME, marker) == []


def test_sweep_kills_a_daemon_that_left_the_group(tmp_path: Path) -> None:
    marker = uuid.uuid4().hex
    # setsid puts the sleeper in its own session, out of reach of a group kill; the step
    # waits until the daemon has written its pid, i.e. until it has left the group.
    script = (
        "setsid sh -c 'echo $$ > daemon.pid; exec sleep 60' >/dev/null 2>&1 </dev/null &"
        " n=0; while [ ! -s daemon.pid ] && [ $n -lt 200 ]; do sleep 0.05; n=$((n+1));"
        " done"
    )
    outcome = run_bounded(
        ["sh", "-c", script],
        env=marked_env(marker),
        cwd=str(tmp_path),
        stdout_path=str(tmp_path / "out"),
        stderr_path=str(tmp_path / "err"),
        timeout=10,
    )
    assert outcome.returncode == 0
    assert len(pids_with_env(MARKER_NAME, marker)) == 1
    swept = sweep_marked(marker)
    assert len(swept) == 1
    assert pids_with_env(MARKER_NAME, marker) == []


def test_sandbox_serves_the_fake_model_to_its_steps(tmp_path: Path) -> None:
    port = free_port()
    marker = uuid.uuid4().hex
    client = (
        "import json, sys, urllib.request\n"
        "body = json.dumps({'stream': False, 'messages': [{'role': 'user', 'content': 'x'}],"
        " 'tools': [{'type': 'function', 'function': {'name': 'bash', 'parameters':"
        " {'type': 'object', 'properties': {'command': {'type': 'string'}}}}}]}).encode()\n"
        f"req = urllib.request.Request('http://127.0.0.1:{port}/v1/chat/completions', body,"
        " {'Content-Type': 'application/json'})\n"
        "print(urllib.request.urlopen(req, timeout=10).read().decode())\n"
    )
    spec = {
        "netns": netns_available(),
        "marker": marker,
        "result": str(tmp_path / "result.json"),
        "server": {
            "spec": {"tool_names": ["bash"], "command": "git log"},
            "port": port,
            "log": str(tmp_path / "requests.jsonl"),
            "lifetime": 60,
            "ready": str(tmp_path / "ready"),
        },
        "steps": [
            {
                "name": "agent",
                "argv": [sys.executable, "-c", client],
                "env": {**os.environ, MARKER_NAME: marker},
                "cwd": str(tmp_path),
                "timeout": 30,
                "stdout": str(tmp_path / "agent.stdout"),
                "stderr": str(tmp_path / "agent.stderr"),
            }
        ],
    }
    (tmp_path / "spec.json").write_text(json.dumps(spec))
    sandbox = os.path.join(SCRIPTS_DIR, "sandbox.py")
    launcher = [sys.executable, sandbox, str(tmp_path / "spec.json")]
    if spec["netns"]:
        launcher = [*netns_prefix(), *launcher]
    subprocess.run(launcher, check=True, timeout=90, stdin=subprocess.DEVNULL, capture_output=True)
    result = json.loads((tmp_path / "result.json").read_text())
    assert result["steps"][0]["returncode"] == 0
    answer = json.loads((tmp_path / "agent.stdout").read_text())
    call = answer["choices"][0]["message"]["tool_calls"][0]["function"]
    assert json.loads(call["arguments"]) == {"command": "git log"}
    records = [json.loads(line) for line in (tmp_path / "requests.jsonl").read_text().splitlines()]
    assert records[-1]["answer"]["tool"] == "bash"
