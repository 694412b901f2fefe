"""What a run must show: rtok's trailer, expand, ledger and hook log; git's raw output."""

from __future__ import annotations

import json
import os
import re
from typing import Any

from e2e.agents import PROFILES
from e2e.descriptors import agent_tier
from e2e.records import AgentReport, Session
from e2e.settings import COMMAND
from e2e.workspace import Workspace, run_rtok

# rtok's trailer: `[rtok expand <id> · N lines]` (a note may follow the count).
TRAILER = re.compile(
    r"\[(?:\S*/)?rtok expand (?P<id>[0-9A-Za-z_.:-]+) · (?P<lines>\d+) lines"
    r"(?: · [^\]\n]*)?\]"
)


def unescaped(text: str) -> str:
    """Undo the JSON string escaping some agents leave around a command's output."""
    if "\\n" not in text:
        return text.replace("\r\n", "\n")
    try:
        return str(json.loads(f'"{text}"'))
    except ValueError:
        return text.replace("\\n", "\n").replace("\\u00b7", "·").replace('\\"', '"')


def find_trailer(output: str) -> re.Match[str] | None:
    return TRAILER.search(output) or TRAILER.search(unescaped(output))


def looks_raw(output: str, raw_log: bytes) -> tuple[bool, str]:
    """The tool result is git's own output: its first commits verbatim, and no rtok trailer."""
    raw = raw_log.decode()
    head = "\n".join(raw.splitlines()[:30])
    if find_trailer(output):
        return False, "rtok trailer present"
    how = "verbatim"
    if head not in output.replace("\r\n", "\n") and head not in unescaped(output):
        # OpenHands' terminal drops the spaces git prints on a message's blank lines.
        if _rstripped(head) not in _rstripped(unescaped(output)):
            return False, f"first 30 lines of git log not found in {len(output)} chars of output"
        how = "verbatim but for trailing spaces"
    oldest = raw.split("commit ")[-1].split("\n", 1)[0]
    return True, f"{len(output)} chars, newest {len(head)} chars {how}, oldest {oldest[:12]}" + (
        " present" if oldest in output else " cut by the agent"
    )


def _rstripped(text: str) -> str:
    return "\n".join(line.rstrip() for line in text.splitlines())


def evaluate_rewritten(report: AgentReport, session: Session, ws: Workspace, rtok: str) -> None:
    _evaluate_rewritten_call(report, session)
    output = session.final_output
    match = find_trailer(output)
    report.check(
        "rewritten: rtok trailer in tool result",
        bool(match),
        match.group(0) if match else output[-300:],
    )
    if match:
        _evaluate_rewritten_archive(report, session, ws, rtok, match.group("id"))


def _evaluate_rewritten_call(report: AgentReport, session: Session) -> None:
    """The hook saw the call, and rewrote it in place or suggested rtok's command."""
    if agent_tier(report.agent) == "hook":
        calls = [
            c
            for c in session.hook_calls
            if COMMAND in str(c.get("command")) and c.get("agent") == report.agent
        ]
        report.check(
            "rewritten: the agent ran rtok's hook for the git log call",
            bool(calls),
            json.dumps(calls[:2]) if calls else f"{len(session.hook_calls)} hook calls",
        )
    if PROFILES[report.agent].companions:
        evaluate_companions(report, session)
    if PROFILES[report.agent].follow_suggestions:
        evaluate_suggestion(report, session)
    else:
        report.check(
            "rewritten: the hook rewrote the call in place (one shell call)",
            len(session.tool_results) == 1,
            f"{len(session.tool_results)} tool results",
        )


def _evaluate_rewritten_archive(
    report: AgentReport, session: Session, ws: Workspace, rtok: str, archive_id: str
) -> None:
    """The shortened output is shorter, `rtok expand` gives the raw bytes, the ledger has it."""
    output = session.final_output
    raw = ws.raw_log.decode()
    report.check(
        "rewritten: output shorter than raw git log",
        len(output) < len(raw),
        f"{len(output)} < {len(raw)} chars",
    )
    report.check(
        "rewritten: output is not git's raw output",
        "\n".join(raw.splitlines()[:30]) not in output,
        "",
    )
    expanded = run_rtok(
        rtok, ["expand", archive_id], ws.env, ws.ctx.cwd, session.folder, "rtok-expand"
    )
    report.commands.append({k: v for k, v in expanded.items() if k not in ("stdout",)})
    report.check(
        "rewritten: rtok expand gives back git's raw bytes",
        expanded["returncode"] == 0 and expanded["stdout"].encode() == ws.raw_log,
        f"exit {expanded['returncode']}, {len(expanded['stdout'])} bytes vs {len(ws.raw_log)}",
    )
    rows = ledger_rows(ws)
    wanted = [r for r in rows if r["archive_id"] == archive_id]
    report.check(
        "rewritten: ledger row for this run",
        any(r["command"] == COMMAND and r["raw_bytes"] == len(ws.raw_log) for r in wanted),
        json.dumps(wanted[-1]) if wanted else f"{len(rows)} rows, none with this id",
    )


def evaluate_suggestion(report: AgentReport, session: Session) -> None:
    """Deny-and-suggest: the first call is refused with the rtok command to run instead,
    the model runs that, and the original command never runs."""
    first = session.tool_results[0] if session.tool_results else ""
    suggested = re.search(r"`([^`]*rtok run git log)`", first)
    report.check(
        "deny-and-suggest: first call denied with the rtok command to run",
        bool(suggested) and not find_trailer(first) and "commit " not in first,
        first[:300],
    )
    report.check(
        "deny-and-suggest: the suggested command ran as a second call",
        len(session.tool_results) == 2,
        f"{len(session.tool_results)} tool results",
    )


# Hook log decisions whose reply is the agent's "no opinion".
SILENT_DECISIONS = ("unknown_shape", "passthrough", "unreadable", "defer")


def evaluate_companions(report: AgentReport, session: Session) -> None:
    """The agent also runs the hooks rtok installed for its companions (Grok runs Claude's
    and Cursor's): each shell call gets exactly one rtok answer, from the agent's own hook,
    and a companion's hook either is not run or leaves the call unanswered."""
    calls = len(session.tool_results)
    own = [c for c in session.hook_calls if c.get("agent") == report.agent]
    report.check(
        "companions: the agent's own hook ran once per shell call",
        len(own) == calls,
        f"{len(own)} calls of rtok hook {report.agent}, {calls} shell calls",
    )
    ran = 0
    for companion in PROFILES[report.agent].companions:
        theirs = [c for c in session.hook_calls if c.get("agent") == companion]
        ran += len(theirs)
        decisions = sorted({str(c.get("decision")) for c in theirs})
        report.check(
            f"companions: rtok hook {companion} left every call unanswered",
            all(d in SILENT_DECISIONS for d in decisions),
            f"ran {len(theirs)} times for {calls} shell calls, decisions {decisions}",
        )
    report.check(
        "companions: the agent ran a companion's hook (the check above is not vacuous)",
        ran > 0,
        f"{ran} companion hook calls",
    )


def ledger_rows(ws: Workspace) -> list[dict[str, Any]]:
    """rtok's savings ledger in the run's XDG data dir (`$XDG_DATA_HOME/rtok/ledger.sqlite3`)."""
    import sqlite3

    path = os.path.join(ws.env["XDG_DATA_HOME"], "rtok", "ledger.sqlite3")
    if not os.path.exists(path):
        return []
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    conn.row_factory = sqlite3.Row
    try:
        return [
            dict(row)
            for row in conn.execute(
                "SELECT command, family, source, raw_bytes, shown_bytes, exit_code, archive_id "
                "FROM runs ORDER BY id"
            )
        ]
    except sqlite3.Error as exc:
        return [{"error": str(exc), "archive_id": None, "command": "", "raw_bytes": -1}]
    finally:
        conn.close()


def session_ran(report: AgentReport, session: Session) -> bool:
    report.sessions.append(session)
    return report.check(
        f"{session.scenario}: agent called the shell tool and sent back its result",
        bool(session.tool_results) and not session.timed_out,
        f"exit {session.returncode}, {session.seconds:.1f}s, {session.requests} requests, "
        f"{len(session.tool_results)} tool results, timed out: {session.timed_out}, "
        f"tools offered: {session.offered_tools[:12]}",
    )
