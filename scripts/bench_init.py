#!/usr/bin/env python3
"""Time `rtok init --dry-run` for every agent at once, global and project scope.

Runs the installed `rtok` console script (next to this interpreter) in a throw-away HOME,
5 runs each after one warm-up, and prints the median and min/max in seconds. The target
on the reference machine is a median of at most 0.3 s.

    .venv/bin/python scripts/bench_init.py [--runs N]
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

TARGET_SECONDS = 0.3


def _rtok() -> list[str]:
    script = os.path.join(os.path.dirname(sys.executable), "rtok")
    return [script] if os.path.exists(script) else [sys.executable, "-m", "rtok"]


def _time(
    args: list[str], env: dict[str, str], cwd: str, runs: int
) -> tuple[list[float], list[float]]:
    """Wall-clock and CPU (user + system) seconds of each run."""
    command = _rtok() + args
    subprocess.run(command, env=env, cwd=cwd, capture_output=True, check=False)  # warm-up
    samples: list[float] = []
    cpu: list[float] = []
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        done = subprocess.run(command, env=env, cwd=cwd, capture_output=True, check=False)
        samples.append(time.perf_counter() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
        if done.returncode not in (0, 1):
            sys.stderr.write(done.stderr.decode("utf-8", "replace"))
            raise SystemExit(f"rtok {' '.join(args)} exited {done.returncode}")
    return samples, cpu


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="rtok-bench-init-") as scratch:
        home = os.path.join(scratch, "home")
        project = os.path.join(scratch, "project")
        os.makedirs(home)
        os.makedirs(os.path.join(project, ".git"))
        env = {k: v for k, v in os.environ.items() if not k.startswith("RTOK_")}
        env.update(
            HOME=home,
            XDG_CONFIG_HOME=os.path.join(home, ".config"),
            XDG_DATA_HOME=os.path.join(home, ".local", "share"),
            XDG_CACHE_HOME=os.path.join(home, ".cache"),
        )
        cases = {
            "global (init --all -g --dry-run)": ["init", "--all", "-g", "--dry-run"],
            "project (init --all --project --dry-run)": ["init", "--all", "--project", "--dry-run"],
        }
        worst = 0.0
        for label, args in cases.items():
            samples, cpu = _time(args, env, project, options.runs)
            median = statistics.median(samples)
            worst = max(worst, median)
            print(
                f"{label:<36} median {median:.3f} s  min {min(samples):.3f}  "
                f"max {max(samples):.3f}  cpu median {statistics.median(cpu):.3f} s  "
                f"({options.runs} runs)"
            )
        print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cpus")
        verdict = "within" if worst <= TARGET_SECONDS else "OVER"
        print(f"target {TARGET_SECONDS:.1f} s: {verdict}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
