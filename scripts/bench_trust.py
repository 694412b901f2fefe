"""Time the trust gate the hot path pays for, and `rtok verify` / `rtok doctor` end to end.

Prints numbers; asserts nothing. Runs in a temporary HOME so nothing real is touched.

    python scripts/bench_trust.py [--runs N]
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
sys.path.insert(0, ROOT)


def _median_ms(argv: list[str], runs: int, env: dict[str, str], cwd: str) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(argv, env=env, cwd=cwd, capture_output=True, check=False, timeout=600)
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="rtok-bench-trust-") as home:
        env = {
            **os.environ,
            "HOME": home,
            "XDG_DATA_HOME": f"{home}/.local/share",
            "XDG_CONFIG_HOME": f"{home}/.config",
            "XDG_CACHE_HOME": f"{home}/.cache",
        }
        env = {k: v for k, v in env.items() if not k.startswith("RTOK_")}
        os.environ.update(env)
        from rtok import trust

        project = os.path.join(home, "proj")
        os.makedirs(os.path.join(project, ".rtok", "rules.d"))
        files = []
        for i in range(5):
            path = os.path.join(project, ".rtok", "rules.d", f"r{i}.toml")
            with open(path, "w") as handle:
                handle.write(f"[tool{i}]\nmax_lines = 30\n" * 20)
            files.append(path)
            with open(path, "rb") as handle:
                trust.trust_bytes(path, handle.read())
        for i in range(200):  # a store with many unrelated entries
            trust.trust_bytes(os.path.join(home, f"other{i}.toml"), b"x")
        calls = 2000
        start = time.perf_counter()
        for _ in range(calls // len(files)):
            for path in files:
                trust.is_trusted(path)
        per_call_us = (time.perf_counter() - start) / calls * 1e6
        python = sys.executable
        floor = _median_ms([python, "-c", "import json"], args.runs, env, project)
        gate = _median_ms(
            [
                python,
                "-c",
                f"from rtok import trust; import sys; [trust.is_trusted(p) for p in {files!r}]",
            ],
            args.runs,
            env,
            project,
        )
        print(f"is_trusted, warm process, 5 files / 205 store entries: {per_call_us:.1f} us/call")
        print(f"python -c 'import json' (floor):                    {floor:.1f} ms")
        print(
            f"python: import rtok.trust + 5 is_trusted (cold):    {gate:.1f} ms "
            f"(+{gate - floor:.1f} ms over the floor)"
        )
        rtok = os.path.join(os.path.dirname(python), "rtok")
        subprocess.run(
            [rtok, "init", "--all", "-g", "--auto-patch"],
            env=env,
            cwd=home,
            capture_output=True,
            check=True,
            timeout=600,
        )
        verify = _median_ms([rtok, "verify"], max(3, args.runs // 2), env, home)
        doctor = _median_ms([rtok, "doctor"], 1, env, home)
        print(f"rtok verify, all 19 agents installed globally:       {verify:.0f} ms")
        print(f"rtok doctor, all agents (one run):                   {doctor:.0f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
