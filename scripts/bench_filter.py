"""Throughput and memory of `rtok filter` on a large log, and start-up cost of `rtok run`.

1. A synthetic log (default 1 GiB) is written into `rtok filter --stdin --cmd app` through a
   pipe; the archive write is included (past the 10 MiB cap the entry keeps the first
   7.5 MiB and the last 2.5 MiB; every byte is counted, hashed and scanned for error lines).
   One distinct error line is written at 900 MB (`--late-error-at`): the run reports
   whether the shown output holds it. Prints MB/s, the peak RSS of the rtok process (from
   wait4), the load average and the ranges `rtok expand --list` names.
   Target: >= 50 MB/s, <= 64 MiB, the late error shown.
2. `rtok run true` p50 next to `python -c "import json, sqlite3, subprocess, zlib"` of the
   same interpreter (the floor of any Python wrapper that archives to SQLite), interleaved
   round by round. Goal: ratio <= 1.3.

Both run with a temporary HOME and XDG dirs; bytecode is compiled first, as an installed
package would have it.

    .venv/bin/python scripts/bench_filter.py [--megabytes N] [--rounds N]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BLOCK_BYTES = 1024 * 1024


def synthetic_block(seed: int) -> bytes:
    """About 1 MiB of log lines; one WARN per 500 lines and one ERROR per 2000."""
    lines = []
    size = 0
    i = 0
    while size < BLOCK_BYTES:
        n = seed * 100_000 + i
        stamp = f"2026-11-29T12:{n % 60:02d}:{n % 59:02d}.{n % 997:03d}Z"
        if i % 2000 == 1999:
            line = f"{stamp} ERROR db timeout after {n % 5000}ms query=select-{n % 83}\n"
        elif i % 500 == 499:
            line = (
                f"{stamp} WARN  slow request id={n:x} path=/api/v1/items/{n % 9973}"
                f" took {n % 900}ms\n"
            )
        else:
            line = (
                f"{stamp} INFO  request id={n:x} path=/api/v1/items/{n % 9973}"
                f" status=200 bytes={n % 65536}\n"
            )
        lines.append(line)
        size += len(line)
        i += 1
    return "".join(lines).encode()


LATE_ERROR = b"2026-11-29T13:00:00.000Z FATAL replica lost: wal segment 0042 is corrupt\n"


def bench_throughput(rtok: str, env: dict[str, str], megabytes: int, late_at: int) -> None:
    blocks = [synthetic_block(seed) for seed in range(8)]
    load_before = os.getloadavg()
    child = subprocess.Popen(
        [rtok, "filter", "--stdin", "--cmd", "app --serve"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        env=env,
    )
    assert child.stdin is not None and child.stdout is not None
    started = time.perf_counter()
    sent = 0
    for i in range(megabytes):
        block = blocks[i % len(blocks)]
        if sent <= late_at * 1_000_000 < sent + len(block):
            cut = block.index(b"\n", late_at * 1_000_000 - sent) + 1
            block = block[:cut] + LATE_ERROR + block[cut:]
        child.stdin.write(block)
        sent += len(block)
    child.stdin.close()
    shown = child.stdout.read()
    child.stdout.close()
    _, status, usage = os.wait4(child.pid, 0)
    elapsed = time.perf_counter() - started
    child.returncode = os.waitstatus_to_exitcode(status)
    rss_mib = usage.ru_maxrss / 1024  # Linux reports KiB
    cpu = usage.ru_utime + usage.ru_stime
    print(
        f"rtok filter: {sent / 1e6:.0f} MB in {elapsed:.2f} s = {sent / 1e6 / elapsed:.1f} MB/s,"
        f" peak RSS {rss_mib:.1f} MiB, shown {len(shown)} bytes, exit {child.returncode}"
    )
    print(f"  rtok CPU time {cpu:.2f} s ({sent / 1e6 / cpu:.0f} MB per CPU second)")
    load_after = os.getloadavg()
    print(f"  load average before {load_before[0]:.2f}, after {load_after[0]:.2f} (1 min)")
    if late_at * 1_000_000 < sent:
        found = LATE_ERROR.rstrip(b"\n") in shown
        print(f"  error line written at {late_at} MB shown: {'yes' if found else 'NO'}")
    listed = subprocess.run([rtok, "expand", "--list"], env=env, capture_output=True, check=False)
    print("  archived:", listed.stdout.decode().strip()[:300])
    print("  last lines shown:")
    for line in shown.decode("utf-8", "replace").splitlines()[-3:]:
        print("   ", line[:150])


def _percentile(samples: list[float], fraction: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, max(0, round(fraction * (len(ordered) - 1))))]


def bench_startup(python: str, rtok: str, env: dict[str, str], rounds: int) -> None:
    cases = [
        ("python -c pass", [python, "-c", "pass"]),
        (
            'python -c "import json, sqlite3, subprocess, zlib"',
            [python, "-c", "import json, sqlite3, subprocess, zlib"],
        ),
        ("rtok run true", [rtok, "run", "true"]),
        ("rtok run echo hello", [rtok, "run", "echo", "hello"]),
    ]
    samples: dict[str, list[float]] = {name: [] for name, _ in cases}
    for _ in range(3):
        for _, argv in cases:
            subprocess.run(argv, env=env, stdout=subprocess.DEVNULL, check=False)
    for _ in range(rounds):
        for name, argv in cases:
            started = time.perf_counter()
            subprocess.run(argv, env=env, stdout=subprocess.DEVNULL, check=False)
            samples[name].append((time.perf_counter() - started) * 1000)
    floor = statistics.median(samples[cases[1][0]])
    for name, _ in cases:
        p50 = statistics.median(samples[name])
        print(
            f"{name:55s} p50 {p50:7.1f} ms  p95 {_percentile(samples[name], 0.95):7.1f} ms"
            f"  {p50 / floor:5.2f}x floor"
        )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--megabytes", type=int, default=1024, help="log size in MiB (1024)")
    parser.add_argument("--rounds", type=int, default=40, help="runs per start-up case (40)")
    parser.add_argument(
        "--late-error-at", type=int, default=900, help="MB at which one error line is written"
    )
    parser.add_argument("--skip-throughput", action="store_true")
    args = parser.parse_args()
    python = sys.executable
    rtok = os.path.join(os.path.dirname(python), "rtok")
    if not os.path.isfile(rtok):
        print(f"no rtok console script next to {python}; run `pip install -e .` first")
        return 1
    compile_env = dict(os.environ)
    compile_env.pop("PYTHONDONTWRITEBYTECODE", None)
    subprocess.run(
        [python, "-m", "compileall", "-q", os.path.join(ROOT, "rtok")], env=compile_env, check=False
    )
    with tempfile.TemporaryDirectory(prefix="rtok-bench-") as tmp:
        env = {k: v for k, v in os.environ.items() if not k.startswith("RTOK_")}
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env.update(
            HOME=tmp,
            XDG_CONFIG_HOME=os.path.join(tmp, "config"),
            XDG_DATA_HOME=os.path.join(tmp, "data"),
            XDG_CACHE_HOME=os.path.join(tmp, "cache"),
        )
        if not args.skip_throughput:
            bench_throughput(rtok, env, args.megabytes, args.late_error_at)
        bench_startup(python, rtok, env, args.rounds)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
