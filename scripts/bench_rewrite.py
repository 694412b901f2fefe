"""In-process cost of the decision core, and the import cost of the rewrite path.

Prints, for a small corpus of agent commands, the median and p95 time of one `decide()`
call (lexing, gate segmenting and rewriting, memo cleared each time so every call does the
whole work), and the median self+children import time of `rtok.rewrite.decision` measured
with `-X importtime` in fresh interpreters. Complements scripts/bench_hook.py, which times
whole processes.

    .venv/bin/python scripts/bench_rewrite.py [--rounds N]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from rtok.rewrite.decision import decide  # noqa: E402
from rtok.rewrite.rewriter import Settings  # noqa: E402
from rtok.shell import lexer  # noqa: E402
from rtok.shell.segments import split_for_permissions  # noqa: E402

CORPUS = [
    "git status",
    "cargo test 2>&1 | tail -30",
    "cd src && FOO=1 timeout 60 pytest -q tests/unit",
    "git log --oneline -20 | grep fix && git diff --stat",
    "bash -lc 'npm run build && npm test'",
    "for f in *.py; do ruff check $f; done",
    'git commit -m "$(date)"',
    "echo hello",
]

# Hostile inputs: each must be decided in at most 20 ms on a quiet machine (the CPU column
# counts this process only; on a loaded machine compare instruction counts instead).
HOSTILE = {
    "$( nested 22 deep": "echo " + "$(" * 22 + "git push" + ")" * 22,
    "$( nested 10,000 deep": "echo " + "$(" * 10_000 + "x" + ")" * 10_000,
    "1 MiB command": "git status " + "a " * (512 * 1024),
    "200 wrappers": "nice " * 200 + "git push",
}


def _nested(opener: str, depth: int = 46, total: int = 16_000) -> str:
    """A line of about `total` bytes of `depth` nested substitutions, each level holding
    its share of the words: lexing every body again at each level costs depth x length."""
    pad = (total - depth * 16) // (depth + 1) // 2
    return "".join("cat " + "a " * pad + opener for _ in range(depth)) + "x" + ")" * depth


def _filled(head: str, unit: str, tail: str = "") -> str:
    """`head`, then `unit` repeated, then `tail`: as long as the hook reads (16 KiB)."""
    return head + unit * ((lexer.MAX_LENGTH - len(head) - len(tail)) // len(unit)) + tail


def _distinct(head: str, unit: str) -> str:
    """`head`, then `unit` with 0, 1, 2, … in place of `{}`, up to 16 KiB: no two commands
    or bodies alike, so no memo answers for another."""
    parts = [head]
    size = len(head)
    k = 0
    while size + len(unit.format(k)) <= lexer.MAX_LENGTH:
        parts.append(unit.format(k))
        size += len(parts[-1])
        k += 1
    return "".join(parts)


# Every shape of a flat line as long as the hook reads: each is decided in one pass per
# reader, every word dequoted once.
HOSTILE.update(
    {
        "16 KiB: words": _filled("git status ", "a "),
        "16 KiB: distinct words": _distinct("git status ", "a{} "),
        "16 KiB: sibling $(x)": _filled("echo ", "$(x) "),
        "16 KiB: distinct sibling $(xN)": _distinct("echo ", "$(x{}) "),
        "16 KiB: ;-separated commands": _filled("", "a; "),
        "16 KiB: distinct ;-separated commands": _distinct("", "a{};"),
        "16 KiB: single-quoted strings": _filled("echo ", "'a b' "),
        "16 KiB: double-quoted strings": _filled("echo ", '"a b" '),
        "16 KiB: here-strings": _filled("cat ", "<<<a "),
        "16 KiB: a=b assignments": _filled("", "a=b ", "git status"),
        "16 KiB: redirections 2>&1": _filled("git status ", "2>&1 "),
        "16 KiB: redirections >/dev/null": _filled("git status ", ">/dev/null "),
    }
)
HOSTILE.update(
    {
        "16 KiB of nested <( 46 deep": _nested("<("),
        "16 KiB of nested >( 46 deep": _nested(">("),
        "16 KiB of nested $( 46 deep": _nested("$("),
        "16 KiB of nested <( 8 deep": _nested("<(", 8),
    }
)
CORPUS_FILES = (
    "tests/permissions/data/bypass_corpus.jsonl",
    "tests/permissions/data/runner_corpus.jsonl",
)
DENY = ["git push:*", "rm:*", "curl:*"]


def _time_calls(fn: object, cmd: str, rounds: int) -> list[float]:
    samples = []
    for _ in range(rounds):
        lexer.clear_memos()
        start = time.perf_counter()
        fn(cmd)  # type: ignore[operator]
        samples.append((time.perf_counter() - start) * 1e6)
    return samples


def _import_time_us(rounds: int) -> list[float]:
    samples = []
    for _ in range(rounds):
        result = subprocess.run(
            [sys.executable, "-X", "importtime", "-c", "import rtok.rewrite.decision"],
            capture_output=True,
            text=True,
            cwd=ROOT,
            check=False,
        )
        for line in result.stderr.splitlines():
            if line.rstrip().endswith("| rtok.rewrite.decision"):
                samples.append(float(line.split("|")[1]))
    return samples


def _bench_settings_files(rounds: int) -> None:
    """Reading Claude's rules from a settings file of each size, in a scratch HOME (the
    86 MB file is not parsed: over the cap it counts as unreadable)."""
    import json
    import tempfile

    from rtok.permissions import verdict

    print(f"\n{'claude settings.json size':55s} {'p50 ms':>8s} {'max ms':>8s}  verdict")
    for label, size in (
        ("2 KB", 2_000),
        ("900 KB (parsed once, cached)", 900_000),
        ("86 MB (over the cap)", 86_000_000),
    ):
        with tempfile.TemporaryDirectory() as home:
            os.environ["HOME"] = home
            os.environ["XDG_CACHE_HOME"] = os.path.join(home, ".cache")
            os.makedirs(os.path.join(home, ".claude"))
            body = {
                "permissions": {"deny": ["Bash(git push:*)"], "allow": ["Bash(*)"]},
                "padding": "x" * size,
            }
            with open(os.path.join(home, ".claude", "settings.json"), "w") as handle:
                json.dump(body, handle)
            samples = []
            result = ""
            for _ in range(rounds):
                start = time.perf_counter()
                result = verdict.rule_verdict("git status", "claude", home)
                samples.append((time.perf_counter() - start) * 1e3)
            print(f"{label:55s} {statistics.median(samples):8.1f} {max(samples):8.1f}  {result}")


def _bench_corpus(settings: Settings) -> None:
    """Gate + decide once for every line of the bypass corpora (memo cleared): p50, p99."""
    import json

    from rtok.permissions.verdict import verdict_with_rules

    samples = []
    for name in CORPUS_FILES:
        with open(os.path.join(ROOT, name), encoding="utf-8") as handle:
            lines = [json.loads(line)["cmd"] for line in handle]
        for cmd in lines:
            lexer.clear_memos()
            start = time.perf_counter()
            decide(cmd, verdict_with_rules(cmd, DENY, [], ["*"]), settings=settings)
            samples.append((time.perf_counter() - start) * 1e3)
    samples.sort()
    p99 = samples[int(0.99 * (len(samples) - 1))]
    print(
        f"\n{'bypass corpora, ' + str(len(samples)) + ' lines (gate + decide)':55s} "
        f"p50 {statistics.median(samples):.2f} ms  p99 {p99:.2f} ms  max {samples[-1]:.2f} ms"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=300)
    args = parser.parse_args()
    settings = Settings()
    print(f"{'command':55s} {'decide p50 us':>14s} {'p95 us':>8s} {'gate p50 us':>12s}")
    for cmd in CORPUS:
        decided = sorted(
            _time_calls(lambda c: decide(c, "default", settings=settings), cmd, args.rounds)
        )
        gate = sorted(_time_calls(split_for_permissions, cmd, args.rounds))
        p95 = decided[int(0.95 * (len(decided) - 1))]
        print(
            f"{cmd[:55]:55s} {statistics.median(decided):14.0f} {p95:8.0f} "
            f"{statistics.median(gate):12.0f}"
        )
    from rtok.permissions.verdict import verdict_with_rules

    print(
        f"\n{'hostile input (gate + decide, deny rules set)':55s} {'p50 ms':>8s} "
        f"{'max ms':>8s} {'cpu ms':>8s}  decision"
    )
    for label, cmd in HOSTILE.items():
        samples = []
        cpu = []
        kind = ""
        for _ in range(max(3, args.rounds // 30)):
            lexer.clear_memos()
            start = time.perf_counter()
            start_cpu = time.process_time()
            verdict = verdict_with_rules(cmd, DENY, [], ["*"])
            kind = decide(cmd, verdict, settings=settings).kind
            cpu.append((time.process_time() - start_cpu) * 1e3)
            samples.append((time.perf_counter() - start) * 1e3)
        print(
            f"{label:55s} {statistics.median(samples):8.1f} {max(samples):8.1f} "
            f"{statistics.median(cpu):8.1f}  {kind}"
        )
    _bench_corpus(settings)
    _bench_settings_files(max(3, args.rounds // 30))
    imports = _import_time_us(max(5, args.rounds // 30))
    print(
        f"\nimport rtok.rewrite.decision (cumulative, fresh interpreter): "
        f"p50 {statistics.median(imports):.0f} us over {len(imports)} runs"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
