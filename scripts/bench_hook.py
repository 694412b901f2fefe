"""Wall time of the hook hot path, next to the floor of any Python hook that reads JSON.

Runs each case as a fresh process (as an agent does), interleaved round by round so that
machine noise hits every case alike, and prints p50 / p95 in milliseconds plus the ratio
of each p50 to `python -c "import json"` of the same interpreter. The rtok cases run the
installed console script next to the interpreter (`.venv/bin/rtok`), which is what agents
run. The issue's target: `rtok hook claude` p50 <= 1.3 x the json floor.

    .venv/bin/python scripts/bench_hook.py [--rounds N]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

REWRITE = {"session_id": "s", "cwd": "", "hook_event_name": "PreToolUse", "tool_name": "Bash",
           "tool_input": {"command": "git status", "description": "Show status"},
           "tool_use_id": "t", "permission_mode": "default"}
PASSTHROUGH = {"session_id": "s", "cwd": "", "hook_event_name": "PreToolUse",
               "tool_name": "Read", "tool_input": {"file_path": "/etc/hosts"}}


def _cases(python: str, rtok: str, cwd: str) -> list[tuple[str, list[str], bytes]]:
    rewrite = dict(REWRITE, cwd=cwd)
    passthrough = dict(PASSTHROUGH, cwd=cwd)
    return [
        ("python -c pass", [python, "-c", "pass"], b""),
        ('python -c "import json"', [python, "-c", "import json"], b""),
        ("rtok hook claude (rewrite)", [rtok, "hook", "claude"], json.dumps(rewrite).encode()),
        ("rtok hook claude (passthrough)", [rtok, "hook", "claude"],
         json.dumps(passthrough).encode()),
        ("rtok rewrite git status", [rtok, "rewrite", "git", "status"], b""),
    ]


def _percentile(samples: list[float], fraction: float) -> float:
    ordered = sorted(samples)
    index = min(len(ordered) - 1, max(0, round(fraction * (len(ordered) - 1))))
    return ordered[index]


def _print_importtime(python: str, rtok: str, payload: bytes, env: dict[str, str],
                      cwd: str) -> None:
    """Median self time (us) of each module imported by the rewrite case, over 9 runs."""
    samples: dict[str, list[int]] = {}
    for _ in range(9):
        result = subprocess.run([python, "-X", "importtime", rtok, "hook", "claude"],
                                input=payload, capture_output=True, env=env, cwd=cwd,
                                check=False)
        for line in result.stderr.decode(errors="replace").splitlines():
            parts = line.removeprefix("import time:").split("|")
            if len(parts) == 3 and parts[0].strip().isdigit():
                samples.setdefault(parts[2].strip(), []).append(int(parts[0]))
    rows = sorted(((statistics.median(v), k) for k, v in samples.items()), reverse=True)
    ours = sum(us for us, name in rows if name.split(".")[0] == "rtok")
    print(f"import self time of rtok's own modules: {ours / 1000:.2f} ms (importtime, median)")
    for us, name in rows[:25]:
        print(f"  {us:8.0f} us  {name}")
    print()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=60, help="runs per case (default 60)")
    parser.add_argument("--importtime", action="store_true",
                        help="also list the modules `rtok hook claude` imports, by self time")
    args = parser.parse_args()
    python = sys.executable
    rtok = os.path.join(os.path.dirname(python), "rtok")
    if not os.path.isfile(rtok):
        print(f"no rtok console script next to {python}; run `pip install -e .` first")
        return 1
    with tempfile.TemporaryDirectory(prefix="rtok-bench-") as tmp:
        home = os.path.join(tmp, "home")
        project = os.path.join(tmp, "project")
        os.makedirs(os.path.join(home, ".claude"))
        os.makedirs(os.path.join(project, ".git"))
        # A realistic user: a few rules, so the permission readers do real work.
        with open(os.path.join(home, ".claude", "settings.json"), "w") as handle:
            json.dump({"permissions": {"allow": ["Bash(git status:*)", "Bash(ls:*)"],
                                       "deny": ["Bash(rm -rf:*)"], "ask": ["Bash(git push:*)"]}},
                      handle)
        # Installed packages ship bytecode; let the warm-up runs write it as pip would.
        env = {k: v for k, v in os.environ.items()
               if not k.startswith("RTOK_") and k != "PYTHONDONTWRITEBYTECODE"}
        env.update(HOME=home, XDG_CONFIG_HOME=os.path.join(home, ".config"),
                   XDG_DATA_HOME=os.path.join(home, ".local", "share"),
                   XDG_CACHE_HOME=os.path.join(home, ".cache"))
        env.pop("CLAUDE_CONFIG_DIR", None)
        cases = _cases(python, rtok, project)
        times: dict[str, list[float]] = {name: [] for name, _, _ in cases}
        cpu: dict[str, list[float]] = {name: [] for name, _, _ in cases}
        for _name, argv, data in cases:  # warm the page cache and .pyc files
            subprocess.run(argv, input=data, capture_output=True, env=env, cwd=project,
                           check=False)
        for _ in range(args.rounds):
            for name, argv, data in cases:
                before = resource.getrusage(resource.RUSAGE_CHILDREN)
                start = time.perf_counter()
                subprocess.run(argv, input=data, capture_output=True, env=env, cwd=project,
                               check=False)
                times[name].append((time.perf_counter() - start) * 1000)
                after = resource.getrusage(resource.RUSAGE_CHILDREN)
                cpu[name].append((after.ru_utime - before.ru_utime
                                  + after.ru_stime - before.ru_stime) * 1000)
        if args.importtime:
            _print_importtime(python, rtok, cases[2][2], env, project)
    floor = statistics.median(times['python -c "import json"'])
    cpu_floor = statistics.median(cpu['python -c "import json"'])
    print(f"{'case':32} {'p50 ms':>7} {'p95 ms':>7} {'/ json':>7}   {'cpu p50':>7} {'/ json':>7}")
    for name, samples in times.items():
        p50 = statistics.median(samples)
        p95 = _percentile(samples, 0.95)
        cpu50 = statistics.median(cpu[name])
        print(f"{name:32} {p50:7.2f} {p95:7.2f} {p50 / floor:7.2f}   {cpu50:7.2f} "
              f"{cpu50 / cpu_floor:7.2f}")
    hook = statistics.median(times["rtok hook claude (rewrite)"]) / floor
    hook_cpu = statistics.median(cpu["rtok hook claude (rewrite)"]) / cpu_floor
    print(f"\ntarget: rtok hook claude p50 <= 1.30 x import json; measured {hook:.2f} x wall, "
          f"{hook_cpu:.2f} x cpu ({args.rounds} rounds; cpu = user+sys of the process, "
          f"steadier than wall time on a busy machine)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
