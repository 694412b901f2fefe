"""What `rtok discover` and `rtok session` report: each shell call of the agents'
transcripts, classified with the hook's decision log.

A call went through rtok when (in this order):
1. the decision log holds a decision for its tool-call id that rewrote it (or rewrote it
   and asked the user);
2. no decision names its id, but one of the same session rewrote the same command within
   `MATCH_WINDOW_S` of it (hosts whose payloads carry no call id), each decision matched
   to at most one call;
3. its result carries rtok's trailer (`[rtok expand ...`), or the command itself is an
   rtok command.
A call the hook denied is `denied`. Transcripts keep the command the model asked for, not
the rewritten one, so without these rules every rewritten call would look missed; with
them a rewritten call is never reported as missed.

Any other call ran raw. It is `missed` when rtok would rewrite it today
(`rtok.rewrite.rewriter.rewrite_command`) and its output was at least `MISSED_MIN_BYTES`
(smaller outputs are rarely shortened); `not_covered` when rtok has no rewrite for it and
its output was that large; `raw` otherwise. A raw call whose command went through rtok
earlier in the same session is also a `rerun` (the agent may have found the shortened
result misleading).

The saving a missed call would have brought is estimated from the transcript's own output
size: the counterfactual (the output cut at the agent's cap) times the share of output
rtok's ledger shows it removing for that family (for all families when the ledger has none
of it); null when the ledger is empty.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from typing import Any

from rtok.store import decision_history as decision_log
from rtok.store import host
from rtok.store.transcripts import ShellCall, shell_calls

JSON_SCHEMA = "rtok.discover/1"
SESSION_SCHEMA = "rtok.session/1"
MATCH_WINDOW_S = 120.0
MISSED_MIN_BYTES = 2048
VIA_RTOK = ("rewritten", "asked")


@dataclass
class Classified:
    call: ShellCall
    status: str  # rtok | denied | missed | not_covered | raw
    family: str
    how: str = ""  # why it counts as rtok: call_id | command_time | trailer
    rerun: bool = False
    previous: ShellCall | None = None  # a rerun: the earlier call that went through rtok


@dataclass
class Missed:
    family: str
    calls: int = 0
    output_bytes: int = 0
    estimated_saved_tokens: int | None = None
    examples: list[str] = field(default_factory=list)


def _family(command: str) -> str:
    try:
        from rtok.filter.family import family_of_command

        return family_of_command(command)[0] or "?"
    except Exception:
        words = command.split()
        return words[0] if words else "?"


def _is_rtok_command(command: str) -> bool:
    words = command.split()
    return bool(words) and os.path.basename(words[0]) == "rtok"


def _would_rewrite(command: str) -> bool:
    try:
        from rtok.rewrite.rewriter import rewrite_command

        return rewrite_command(command) is not None
    except Exception:
        return False


def _normal(command: str) -> str:
    """The command with its spacing normalised, a leading `RTOK_DISABLED=...` assignment
    dropped (that is the same command, run raw on purpose) and a leading `rtok run` too
    (an agent that records the rewritten command, as Gemini CLI does)."""
    words = command.split()
    while words and words[0].startswith("RTOK_DISABLED="):
        words = words[1:]
    if len(words) > 2 and os.path.basename(words[0]) == "rtok" and words[1] == "run":
        words = words[2:]
    return " ".join(words)


def classify(calls: Iterable[ShellCall], records: Iterable[dict[str, Any]]) -> list[Classified]:
    by_call: dict[tuple[str, str], dict[str, Any]] = {}
    by_command: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for decision in records:
        if decision.get("call"):  # an id is the match: never used by command and time
            by_call[(str(decision.get("agent")), str(decision["call"]))] = decision
        elif decision.get("session"):
            key = (str(decision["session"]), _normal(str(decision.get("command", ""))))
            by_command.setdefault(key, []).append(decision)
    out: list[Classified] = []
    through: dict[str, dict[str, ShellCall]] = {}  # session -> command -> its rtok call
    for call in sorted(calls, key=lambda c: c.time):
        record: dict[str, Any] | None = by_call.get((call.agent, call.call_id))
        how = "call_id"
        if record is None:
            record, how = _by_command(by_command, call), "command_time"
        item = _one(call, record, how)
        seen = through.setdefault(call.session, {})
        if item.status == "rtok":
            seen[_normal(call.command)] = call
        elif item.status != "denied" and _normal(call.command) in seen:
            item.rerun = True
            item.previous = seen[_normal(call.command)]
        out.append(item)
    return out


def _by_command(
    by_command: dict[tuple[str, str], list[dict[str, Any]]], call: ShellCall
) -> dict[str, Any] | None:
    candidates = by_command.get((call.session, _normal(call.command)), [])
    best = None
    for record in candidates:
        distance = abs(float(record.get("t", 0)) - call.time)
        if distance <= MATCH_WINDOW_S and (best is None or distance < best[0]):
            best = (distance, record)
    if best is None:
        return None
    candidates.remove(best[1])  # one decision matches one call
    return best[1]


def _one(call: ShellCall, record: dict[str, Any] | None, how: str) -> Classified:
    family = _family(call.command)
    verdict = record.get("verdict") if record else None
    if verdict in VIA_RTOK:
        return Classified(call, "rtok", family, how)
    if call.shortened or _is_rtok_command(call.command):
        return Classified(call, "rtok", family, "trailer")
    if verdict == "denied":
        return Classified(call, "denied", family, how)
    if call.output_bytes < MISSED_MIN_BYTES or call.command.lstrip().startswith(
        "RTOK_DISABLED="
    ):  # short, or run raw on purpose
        return Classified(call, "raw", family)
    if _would_rewrite(call.command):
        return Classified(call, "missed", family)
    return Classified(call, "not_covered", family)


def _removed_share() -> dict[str, float]:
    """family -> share of its raw output rtok's ledger shows removed ("" = all)."""
    from rtok import paths

    if not os.path.exists(paths.ledger_db()):
        return {}
    from rtok.store.ledger import open_ledger

    conn = open_ledger()
    try:
        rows = conn.execute(
            "SELECT family, SUM(raw_bytes), SUM(shown_bytes) FROM runs GROUP BY family"
        ).fetchall()
    finally:
        conn.close()
    shares = {str(f): 1 - int(s) / int(r) for f, r, s in rows if int(r) > 0}
    raw = sum(int(r) for _, r, _ in rows)
    if raw:
        shares[""] = 1 - sum(int(s) for _, _, s in rows) / raw
    return shares


def _estimate(call: ShellCall, share: float | None) -> int | None:
    if share is None:
        return None
    cf = host.counterfactual(call.output_bytes, host.cap(call.agent), host.over_cap(call.agent))
    return round((cf + 3) // 4 * max(share, 0.0))


@dataclass
class Discovery:
    since: float | None
    project: str | None
    sources: dict[str, str]
    calls: int
    via_rtok: int
    denied: int
    raw: int
    missed: list[Missed]
    not_covered: list[Missed]
    reruns: list[dict[str, object]]
    matched_by: dict[str, int]
    without_rtok: list[dict[str, object]] = field(default_factory=list)
    silent_hooks: list[dict[str, object]] = field(default_factory=list)

    def as_dict(self) -> dict[str, object]:
        return {"schema": JSON_SCHEMA, **asdict(self)}


def _in_project(call: ShellCall, project: str | None) -> bool:
    if project is None:
        return True
    cwd = call.cwd.rstrip("/")
    return cwd == project.rstrip("/") or cwd.startswith(project.rstrip("/") + "/")


def load(
    since: float | None = None,
    project: str | None = None,
    sources: dict[str, tuple[str, str]] | None = None,
    wanted: Any = None,
) -> list[Classified]:
    from rtok.store.transcripts import transcript_sources

    sources = sources if sources is not None else transcript_sources()
    calls = [c for c in shell_calls(since, sources, wanted) if _in_project(c, project)]
    return classify(calls, list(decision_log.read(since=since)))


def _groups(items: list[Classified], shares: dict[str, float]) -> dict[str, dict[str, Missed]]:
    """The missed and not-covered calls, grouped by family (calls, bytes, three examples,
    and for missed ones the tokens rtok would have saved)."""
    groups: dict[str, dict[str, Missed]] = {"missed": {}, "not_covered": {}}
    for item in items:
        if item.status not in groups:
            continue
        group = groups[item.status].setdefault(item.family, Missed(item.family))
        group.calls += 1
        group.output_bytes += item.call.output_bytes
        if len(group.examples) < 3 and item.call.command not in group.examples:
            group.examples.append(item.call.command[:200])
        if item.status == "missed":
            saved = _estimate(item.call, shares.get(item.family, shares.get("")))
            if saved is not None:
                group.estimated_saved_tokens = (group.estimated_saved_tokens or 0) + saved
    return groups


def _rerun_row(call: ShellCall) -> dict[str, object]:
    return {
        "session": call.session,
        "call_id": call.call_id,
        "time": call.time,
        "command": call.command[:200],
        "output_bytes": call.output_bytes,
    }


def discover(since: float | None = None, project: str | None = None) -> Discovery:
    from rtok.store.transcripts import transcript_sources

    sources = transcript_sources()
    items = load(since, project, sources)
    groups = _groups(items, _removed_share())
    matched: dict[str, int] = {}
    for item in items:
        if item.status == "rtok":
            matched[item.how] = matched.get(item.how, 0) + 1
    reruns = [_rerun_row(i.call) for i in items if i.rerun]

    def ordered(kind: str) -> list[Missed]:
        return sorted(groups[kind].values(), key=lambda m: (-m.output_bytes, m.family))

    from rtok.store.coverage import coverage

    hosts = coverage(decision_log.read())
    return Discovery(
        since,
        project,
        {k: v[0] for k, v in sources.items()},
        len(items),
        sum(i.status == "rtok" for i in items),
        sum(i.status == "denied" for i in items),
        sum(i.status == "raw" for i in items),
        ordered("missed"),
        ordered("not_covered"),
        reruns,
        matched,
        hosts["without_rtok"],
        hosts["silent_hooks"],
    )


@dataclass
class SessionRow:
    session: str
    agent: str
    cwd: str
    first: float
    last: float
    shell_calls: int = 0
    via_rtok: int = 0
    denied: int = 0
    missed: int = 0
    raw: int = 0
    reruns: int = 0
    source: str = "transcript"  # transcript | decision_log


def sessions(
    since: float | None = None, project: str | None = None, limit: int = 20
) -> list[SessionRow]:
    """Recent sessions, newest first: from the transcripts, and from the decision log for
    sessions no transcript holds (agents whose transcripts rtok does not read)."""
    items = load(since, project)
    rows: dict[str, SessionRow] = {}
    for item in items:
        call = item.call
        row = rows.setdefault(
            call.session, SessionRow(call.session, call.agent, call.cwd, call.time, call.time)
        )
        row.first, row.last = min(row.first, call.time), max(row.last, call.time)
        row.shell_calls += 1
        row.via_rtok += item.status == "rtok"
        row.denied += item.status == "denied"
        row.missed += item.status == "missed"
        row.raw += item.status in ("raw", "not_covered")
        row.reruns += item.rerun
    for record in decision_log.read(since=since):
        session = str(record.get("session") or "")
        if not session or (session in rows and rows[session].source == "transcript"):
            continue
        if not record.get("command"):
            continue  # not a shell call
        stamp = float(str(record.get("t", 0)))
        cwd = str(record.get("cwd", ""))
        if project is not None and not _in_project(ShellCall("", "", "", 0, cwd, ""), project):
            continue
        row = rows.setdefault(
            session,
            SessionRow(
                session, str(record.get("agent", "")), cwd, stamp, stamp, source="decision_log"
            ),
        )
        if row.source != "decision_log":
            continue
        row.first, row.last = min(row.first, stamp), max(row.last, stamp)
        row.shell_calls += 1
        verdict = record.get("verdict")
        row.via_rtok += verdict in VIA_RTOK
        row.denied += verdict == "denied"
        row.raw += verdict == "no_opinion"
    return sorted(rows.values(), key=lambda r: -r.last)[:limit]


RERUN_TABLE = (
    "CREATE TABLE IF NOT EXISTS reruns_booked (agent TEXT NOT NULL,"
    " call_id TEXT NOT NULL, run_id INTEGER, PRIMARY KEY (agent, call_id))"
)
SEEN_TABLE = (
    "CREATE TABLE IF NOT EXISTS transcripts_seen (path TEXT PRIMARY KEY,"
    " size INTEGER NOT NULL, mtime_ns INTEGER NOT NULL)"
)


def changed_transcripts(conn: Any) -> Any:
    """A `wanted` filter for `load`: only transcript files that changed since the last
    `rtok gain` read them (a re-run and the call it repeats are in one session's file),
    each noted as read."""
    conn.execute(SEEN_TABLE)
    seen = {
        str(path): (int(size), int(mtime))
        for path, size, mtime in conn.execute("SELECT path, size, mtime_ns FROM transcripts_seen")
    }

    def wanted(path: str, info: os.stat_result) -> bool:
        now = (int(info.st_size), int(info.st_mtime_ns))
        if seen.get(path) == now:
            return False
        conn.execute("INSERT OR REPLACE INTO transcripts_seen VALUES (?, ?, ?)", (path, *now))
        return True

    return wanted


# A ledger row belongs to the call that went through rtok when it was written this soon
# after the call started.
RUN_WINDOW_S = 600.0


def book_reruns(conn: Any, items: list[Classified]) -> int:
    """Subtract each raw re-run seen in the transcripts from the saving of the ledger row
    of the call it re-ran (as a re-read, cut at the agent's cap), once per re-run; how many
    were booked now."""
    conn.execute(RERUN_TABLE)
    booked = 0
    for item in items:
        if not item.rerun or item.previous is None or not item.call.call_id:
            continue
        call, first = item.call, item.previous
        if conn.execute(
            "SELECT 1 FROM reruns_booked WHERE agent = ? AND call_id = ?",
            (call.agent, call.call_id),
        ).fetchone():
            continue
        row = conn.execute(
            "SELECT id FROM runs WHERE command = ? AND time >= ? AND time <= ?"
            " AND agent IN (?, 'unknown') ORDER BY ABS(time - ?) LIMIT 1",
            (
                _normal(first.command),
                first.time - 5,
                first.time + RUN_WINDOW_S,
                call.agent,
                first.time,
            ),
        ).fetchone()
        run_id = int(row[0]) if row else None
        conn.execute("BEGIN IMMEDIATE")
        try:
            if run_id is not None:
                in_context = host.counterfactual(
                    call.output_bytes, host.cap(call.agent), host.over_cap(call.agent)
                )
                conn.execute(
                    "UPDATE runs SET reread_bytes = reread_bytes + ?,"
                    " reread_ctx_bytes = reread_ctx_bytes + ?, rereads = rereads + 1"
                    " WHERE id = ?",
                    (call.output_bytes, in_context, run_id),
                )
            conn.execute(
                "INSERT INTO reruns_booked VALUES (?, ?, ?)", (call.agent, call.call_id, run_id)
            )
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        booked += run_id is not None
    return booked
