"""Is `rtok gain` true? The same scripted task through a real agent, without and with rtok.

    .venv/bin/python scripts/bench_gain.py [--agent claude] [--keep] [--json]

The agent (a pinned CLI of the e2e tier, installed in its cache; see tests/e2e/README.md)
runs twice against the fake model (scripts/e2e/fake_model.py), each time in a fresh
workspace holding the same repository and generated tree: once without rtok, once after
`rtok init --agent AGENT --auto-patch` in the repository. The fake model sends the same list
of long commands both times, plus one `rtok expand ID` of a cut output in the run with rtok.
What the agent sent the model is read from the fake model's log (`requests.jsonl`): every
tool result, once per call. Measured saving = tokens of the tool results without rtok -
tokens of the tool results with rtok (the expand's result included). It is compared with
`rtok gain --json`'s `totals.net_saved_tokens` for the run with rtok (its ledger holds that
session only). Tokens are counted the way `rtok gain` counts them (rtok/store/tokens.py: the
installed tokenizer, else ceil(bytes / 4)). Exit 1 when gain is more than 10% off.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import shutil
import sys
import tempfile
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from e2e import gitrepo
from e2e.agents import PROFILES
from e2e.records import read_requests
from e2e.session import run_session
from e2e.workspace import Workspace, make_workspace, rtok_executable, run_rtok

from rtok.store import tokens

TOLERANCE = 0.10
EXPAND = "rtok expand {last_id}"
# At least ten long commands; `cat numbers.txt` (seq 1 300000, 2 MB) is far above every
# host's cap and is the one expanded in full.
COMMANDS = [
    "git log",
    "git log --stat",
    "git log -p",
    "find . -type f",
    "ls -laR src",
    "cat numbers.txt",
    EXPAND,
    "grep -rn value src",
    "du -a src",
    "git show --stat HEAD~3",
    "find src -name '*.py'",
    "cat src/pkg03/mod07.py",
]


def fill_tree(repo: str) -> None:
    """The generated files the commands read (the same bytes in both workspaces)."""
    with open(os.path.join(repo, "numbers.txt"), "w", encoding="utf-8") as handle:
        handle.write("".join(f"{n}\n" for n in range(1, 300_001)))
    for pkg in range(12):
        folder = os.path.join(repo, "src", f"pkg{pkg:02d}")
        os.makedirs(folder)
        for mod in range(25):
            lines = [f"# module {pkg}.{mod}\n"]
            lines += [
                f"value_{i} = {pkg * 1000 + mod * 10 + i}  # value {i} of {mod}\n"
                for i in range(12)
            ]
            with open(os.path.join(folder, f"mod{mod:02d}.py"), "w", encoding="utf-8") as out:
                out.writelines(lines)


def tool_results(log: str) -> list[dict[str, Any]]:
    """Each of the fake model's calls: its command and the result the agent sent back
    (first seen; later requests repeat the history)."""
    records = read_requests(log)
    commands: dict[str, str] = {}
    for record in records:
        answer = record.get("answer") or {}
        if answer.get("call_id"):
            args = answer.get("args") or {}
            commands[answer["call_id"]] = str(args.get("command", args))
    seen: dict[str, str] = {}
    for record in records:
        for result in record.get("tool_results") or []:
            seen.setdefault(str(result["call_id"]), str(result["text"]))
    return [
        {"call_id": cid, "command": commands.get(cid, "?"), "text": text}
        for cid, text in seen.items()
    ]


def count_tokens(text: str) -> int:
    found = tokens.tokenizer()
    if found is None:
        return (len(text.encode()) + 3) // 4
    return found[1](text)


def run(
    agent: str, template: str, root: str, with_rtok: bool
) -> tuple[Workspace, str, dict[str, Any]]:
    ws = make_workspace(agent, root, template)
    fill_tree(ws.ctx.cwd)
    profile = dataclasses.replace(PROFILES[agent], timeout=600.0)
    commands = COMMANDS if with_rtok else [c for c in COMMANDS if c != EXPAND]
    init: dict[str, Any] = {}
    if with_rtok:
        init = run_rtok(
            rtok_executable(),
            ["init", "--agent", agent, "--auto-patch"],
            ws.env,
            ws.ctx.cwd,
            ws.ctx.run_dir,
            "rtok-init",
        )
        if init["returncode"] != 0:
            raise SystemExit(f"rtok init failed: {init['stderr'] or init['stdout']}")
    session = run_session(
        profile, ws.ctx, ws.env, "with-rtok" if with_rtok else "without", commands=commands
    )
    if session.timed_out or session.returncode != 0:
        raise SystemExit(
            f"{agent} session failed (exit {session.returncode}, timed out "
            f"{session.timed_out}); see {session.folder}"
        )
    return ws, os.path.join(session.folder, "requests.jsonl"), init


def summarise(results: list[dict[str, Any]]) -> dict[str, Any]:
    rows = [
        {
            "command": r["command"],
            "bytes": len(r["text"].encode()),
            "tokens": count_tokens(r["text"]),
        }
        for r in results
    ]
    return {
        "calls": rows,
        "bytes": sum(r["bytes"] for r in rows),
        "tokens": sum(r["tokens"] for r in rows),
    }


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--agent", default="claude")
    parser.add_argument("--keep", action="store_true", help="keep the run folders")
    parser.add_argument("--json", action="store_true")
    ns = parser.parse_args(argv)
    root = tempfile.mkdtemp(prefix="rtok-bench-gain-")
    try:
        template = os.path.join(root, "template")
        gitrepo.make_template(template, root)
        _ws_raw, raw_log, _ = run(ns.agent, template, root, with_rtok=False)
        ws, rtok_log, _ = run(ns.agent, template, root, with_rtok=True)
        without, with_ = summarise(tool_results(raw_log)), summarise(tool_results(rtok_log))
        gain = run_rtok(
            rtok_executable(), ["gain", "--json"], ws.env, ws.ctx.cwd, ws.ctx.run_dir, "rtok-gain"
        )
        doc = json.loads(gain["stdout"])
        booked = int(doc["totals"]["net_saved_tokens"])
        measured = without["tokens"] - with_["tokens"]
        ratio = booked / measured if measured else float("inf")
        report = {
            "agent": ns.agent,
            "tokenizer": doc["tokenizer"],
            "without_rtok": without,
            "with_rtok": with_,
            "measured_saved_tokens": measured,
            "measured_saved_bytes": without["bytes"] - with_["bytes"],
            "gain_net_saved_tokens": booked,
            "gain_totals": doc["totals"],
            "ratio": round(ratio, 4),
            "run_dirs": root if ns.keep else None,
        }
        if ns.json:
            print(json.dumps(report, indent=1))
        else:
            print_report(report)
        return 0 if abs(ratio - 1) <= TOLERANCE else 1
    finally:
        if not ns.keep:
            shutil.rmtree(root, ignore_errors=True)


def print_report(report: dict[str, Any]) -> None:
    print(f"agent {report['agent']}; tokens: {report['tokenizer']['installed'] or 'estimate'}")
    print(
        f"{'command':<28} {'bytes without':>14} {'bytes with':>11} {'tokens without':>15}"
        f" {'tokens with':>12}"
    )
    before = {r["command"]: r for r in report["without_rtok"]["calls"]}
    for row in report["with_rtok"]["calls"]:
        raw = before.get(row["command"], {"bytes": 0, "tokens": 0})
        print(
            f"{row['command'][:28]:<28} {raw['bytes']:>14,} {row['bytes']:>11,}"
            f" {raw['tokens']:>15,} {row['tokens']:>12,}"
        )
    print(
        f"{'total':<28} {report['without_rtok']['bytes']:>14,} "
        f"{report['with_rtok']['bytes']:>11,} {report['without_rtok']['tokens']:>15,} "
        f"{report['with_rtok']['tokens']:>12,}"
    )
    totals = report["gain_totals"]
    print(
        f"measured saving: {report['measured_saved_tokens']:,} tokens "
        f"({report['measured_saved_bytes']:,} bytes)"
    )
    print(
        f"rtok gain net saved: {report['gain_net_saved_tokens']:,} tokens (counterfactual "
        f"{totals['counterfactual_tokens']:,}, shown {totals['shown_tokens']:,}, re-read "
        f"{totals['reread_tokens']:,}, {totals['runs']} runs)"
    )
    print(f"ratio gain / measured: {report['ratio']:.3f} (tolerance ±{TOLERANCE:.0%})")


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
