"""Time and memory of the test-runner and build summaries on the largest signal cases.

Runs `rtok filter --stdin` on each case of tests/golden/signal over 100 KiB (a 1.3 MB
`go test -v`, a 2,000-error tsc, ruff's full format, xo, node --test) and prints the wall
time, the peak RSS of the rtok process (from wait4) and raw -> shown bytes. Outputs up to
4 MiB are summarised in memory; larger ones stream (rtok/filter/capture.py) and are not
summarised. Runs with a temporary HOME and XDG dirs.

    .venv/bin/python scripts/bench_summaries.py [--rounds N]
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SIGNAL = os.path.join(ROOT, "tests", "golden", "signal")
LARGE = 100 * 1024


def cases() -> list[tuple[str, dict[str, object], bytes]]:
    found = []
    for name in sorted(os.listdir(SIGNAL)):
        folder = os.path.join(SIGNAL, name)
        if not os.path.isfile(os.path.join(folder, "case.json")):
            continue
        if os.path.exists(os.path.join(folder, "raw.gz")):
            with gzip.open(os.path.join(folder, "raw.gz"), "rb") as handle:
                data = handle.read()
        else:
            with open(os.path.join(folder, "raw"), "rb") as handle:
                data = handle.read()
        if len(data) >= LARGE:
            with open(os.path.join(folder, "case.json"), encoding="utf-8") as handle:
                found.append((name, json.load(handle), data))
    return found


def run_once(
    rtok: str, env: dict[str, str], meta: dict[str, object], data: bytes
) -> tuple[float, int, int]:
    with tempfile.TemporaryFile() as source, tempfile.TemporaryFile() as sink:
        source.write(data)
        source.seek(0)
        started = time.perf_counter()
        child = subprocess.Popen(
            [
                rtok,
                "filter",
                "--stdin",
                "--cmd",
                str(meta["command"]),
                "--exit-code",
                str(meta["exit_code"]),
            ],
            stdin=source,
            stdout=sink,
            env=env,
        )
        _, _, usage = os.wait4(child.pid, 0)
        elapsed = time.perf_counter() - started
        sink.seek(0, os.SEEK_END)
        return elapsed, usage.ru_maxrss, sink.tell()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    rtok = os.path.join(os.path.dirname(sys.executable), "rtok")
    with tempfile.TemporaryDirectory() as home:
        env = dict(
            os.environ,
            HOME=home,
            XDG_CONFIG_HOME=os.path.join(home, "config"),
            XDG_DATA_HOME=os.path.join(home, "data"),
            XDG_CACHE_HOME=os.path.join(home, "cache"),
        )
        subprocess.run(
            [sys.executable, "-m", "compileall", "-q", os.path.join(ROOT, "rtok")], check=False
        )
        print(f"{'case':28} {'raw KiB':>9} {'shown KiB':>10} {'best s':>8} {'peak MiB':>9}")
        for name, meta, data in cases():
            runs = [run_once(rtok, env, meta, data) for _ in range(max(1, args.rounds))]
            best = min(run[0] for run in runs)
            peak = max(run[1] for run in runs) / 1024
            shown = runs[0][2]
            print(f"{name:28} {len(data) / 1024:9.0f} {shown / 1024:10.1f} {best:8.2f} {peak:9.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
