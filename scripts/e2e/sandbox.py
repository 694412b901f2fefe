"""Run one agent session inside a loopback-only network namespace (when root).

`python sandbox.py SPEC.json` (started by the driver, under `unshare -n` when possible):
brings `lo` up, serves the fake model in a thread, runs each step with its own timeout and
process group, sweeps processes carrying the run's env marker, and writes a result JSON.
Standard library only.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from e2e.fake_model import serve
from e2e.procs import become_subreaper, reap_children, run_bounded, sweep_marked


def _bring_loopback_up() -> None:
    subprocess.run(
        ["ip", "link", "set", "lo", "up"],
        check=True,
        timeout=10,
        stdin=subprocess.DEVNULL,
        capture_output=True,
    )


def _start_server(server: dict[str, Any]) -> None:
    ready = server["ready"]
    thread = threading.Thread(
        target=serve,
        args=(server["spec"],),
        kwargs={
            "port": server["port"],
            "log_path": server["log"],
            "lifetime": server["lifetime"],
            "ready_path": ready,
        },
        daemon=True,
    )
    thread.start()
    deadline = time.monotonic() + 10
    while not os.path.exists(ready):
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("fake model server did not start")
        time.sleep(0.02)


def main(spec_path: str) -> int:
    with open(spec_path, encoding="utf-8") as handle:
        spec = json.load(handle)
    become_subreaper()
    if spec.get("netns"):
        _bring_loopback_up()
    _start_server(spec["server"])
    results = []
    for step in spec["steps"]:
        outcome = run_bounded(
            step["argv"],
            env=step["env"],
            cwd=step["cwd"],
            stdout_path=step["stdout"],
            stderr_path=step["stderr"],
            timeout=step["timeout"],
        )
        results.append(
            {
                "name": step["name"],
                "returncode": outcome.returncode,
                "seconds": round(outcome.seconds, 3),
                "timed_out": outcome.timed_out,
            }
        )
        reap_children()
        if outcome.timed_out or (outcome.returncode != 0 and step.get("required", False)):
            break
    swept = sweep_marked(spec["marker"])
    reap_children()
    tmp = spec["result"] + ".tmp"
    with open(tmp, "w", encoding="utf-8") as handle:
        json.dump({"steps": results, "swept_pids": swept}, handle, indent=1)
    os.replace(tmp, spec["result"])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
