"""Generate the README's agent table from the e2e tier's recorded results.

`python scripts/e2e/agents_table.py [--results DIR] [--readme README.md] [--check]
[--only AGENT ...]`

An agent is marked "verified end to end with <agent> <version>" only when its round-trip
test (install -> rewritten run -> uninstall -> raw run) passed with the version pinned
now. The table is written between `<!-- rtok:agents-table:start -->` and
`<!-- rtok:agents-table:end -->` under an "## Agents" heading; nothing else is touched.
With `--only`, the rows of other agents keep what the README says now (results of a run
of a few agents update just their rows). A descriptor's `install.hook_condition` (a host
setting without which the agent never runs its hook) is appended to the agent's status.
The proof column is the descriptor's `[proof]`: `e2e` with the pinned version, or
`contract` (built from the host's docs, tested against recorded payloads).
"""

from __future__ import annotations

import argparse
import glob
import json
import os
import sys
from typing import Any

if __package__ in (None, ""):
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from e2e.agents import PROFILES
from e2e.descriptors import REPO, load_integrations
from e2e.pins import AGENTS, agent_package, agent_version
from e2e.settings import RESULTS_DIR

START = "<!-- rtok:agents-table:start -->"
END = "<!-- rtok:agents-table:end -->"
HEADING = "## Agents"


def load_results(results_dir: str) -> dict[tuple[str, str], dict[str, Any]]:
    results: dict[tuple[str, str], dict[str, Any]] = {}
    for path in glob.glob(os.path.join(results_dir, "*.json")):
        try:
            with open(path, encoding="utf-8") as handle:
                data = json.load(handle)
        except (OSError, ValueError):
            continue
        results[(data.get("agent", ""), data.get("kind", ""))] = data
    return results


def _passed(
    results: dict[tuple[str, str], dict[str, Any]], agent: str, kind: str, version: str
) -> bool:
    record = results.get((agent, kind))
    return bool(record and record.get("version") == version and record.get("passed"))


def status_for(agent: str, results: dict[tuple[str, str], dict[str, Any]]) -> str:
    profile = PROFILES.get(agent)
    if profile is None:
        return "not in the end-to-end tier: built from the host's docs, tested on recorded payloads"
    trip = results.get((agent, "round_trip"))
    control = results.get((agent, "control"))
    if _passed(results, agent, "round_trip", profile.version):
        scopes = "user scope"
        if _passed(results, agent, "project_round_trip", profile.version):
            scopes = "user and project scope"
        how = "deny-and-suggest" if profile.follow_suggestions else "rewritten in place"
        return f"verified end to end with {profile.label} {profile.version} ({scopes}; {how})"
    if not trip or trip.get("version") != profile.version:
        return f"not verified yet with {profile.label} {profile.version} (no result recorded)"
    failed = next((c for c in trip.get("checks", []) if not c.get("ok")), None)
    reason = failed["name"] if failed else "no checks ran"
    plain = ""
    if control and control.get("version") == profile.version:
        plain = "; plain run passes" if control.get("passed") else "; plain run fails too"
    return (
        f"not verified with {profile.label} {profile.version}: "
        f"failed at \u201c{reason}\u201d{plain} (see tests/e2e/README.md)"
    )


def current_rows(readme: str) -> dict[str, str]:
    """agent -> its end-to-end status in the README's table now (empty without a table)."""
    if START not in readme or END not in readme:
        return {}
    block = readme.split(START, 1)[1].split(END, 1)[0]
    rows: dict[str, str] = {}
    for line in block.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) >= 4 and cells[1].startswith("`") and cells[1].endswith("`"):
            rows[cells[1].strip("`")] = cells[-1]
    return rows


def proof_cell(item: dict[str, Any]) -> str:
    """The descriptor's `[proof]`: `e2e` with the tier's pin, or `contract`."""
    proof = item.get("proof") or {}
    kind = proof.get("kind", "") if isinstance(proof, dict) else ""
    if kind == "e2e" and item["name"] in AGENTS:
        return f"e2e ({agent_package(item['name'])} {agent_version(item['name'])})"
    if kind == "contract":
        return "contract (host docs, recorded payloads)"
    return "none stated"


def _status(item: dict[str, Any], results: dict[tuple[str, str], dict[str, Any]]) -> str:
    status = status_for(item["name"], results)
    condition = (item.get("install") or {}).get("hook_condition")
    return f"{status}. {condition}" if isinstance(condition, str) and condition else status


def render_table(
    repo: str, results_dir: str, only: list[str] | None = None, keep: dict[str, str] | None = None
) -> str:
    results = load_results(results_dir)
    rows = ["| agent | `--agent` | tier | proof | end-to-end status |", "|---|---|---|---|---|"]
    names = set()
    for item in load_integrations(repo):
        name = item["name"]
        names.add(name)
        kept = only is not None and name not in only and keep and name in keep
        status = keep[name] if kept and keep else _status(item, results)
        rows.append(
            f"| {item.get('display_name', name)} | `{name}` | {item.get('tier', '')} "
            f"| {proof_cell(item)} | {status} |"
        )
    for name in PROFILES:
        if name not in names:
            rows.append(
                f"| {PROFILES[name].label} | `{name}` | – | – | {status_for(name, results)} |"
            )
    note = (
        "Generated by `scripts/e2e/agents_table.py` from the results of the real-agent "
        "tier (`tests/e2e/`); do not edit by hand."
    )
    return "\n".join([START, note, "", *rows, END])


def replace_block(readme: str, block: str) -> str:
    if START in readme and END in readme:
        before, rest = readme.split(START, 1)
        _, after = rest.split(END, 1)
        return before + block + after
    if HEADING in readme.splitlines():
        lines = readme.splitlines(keepends=True)
        at = lines.index(HEADING + "\n") + 1 if HEADING + "\n" in lines else len(lines)
        return "".join(lines[:at]) + "\n" + block + "\n" + "".join(lines[at:])
    sep = "" if readme.endswith("\n") else "\n"
    return f"{readme}{sep}\n{HEADING}\n\n{block}\n"


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--results", default=RESULTS_DIR)
    parser.add_argument("--readme", default=os.path.join(REPO, "README.md"))
    parser.add_argument("--check", action="store_true", help="exit 1 if the README is stale")
    parser.add_argument(
        "--only",
        nargs="+",
        metavar="AGENT",
        help="regenerate these agents' rows; keep the others as they are",
    )
    ns = parser.parse_args(argv)
    with open(ns.readme, encoding="utf-8") as handle:
        current = handle.read()
    table = render_table(REPO, ns.results, ns.only, current_rows(current))
    updated = replace_block(current, table)
    if ns.check:
        return 0 if updated == current else 1
    if updated != current:
        with open(ns.readme + ".tmp", "w", encoding="utf-8") as handle:
            handle.write(updated)
        os.replace(ns.readme + ".tmp", ns.readme)
    print(table)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
