"""Savings reports over the ledger, for `rtok gain`.

Every figure is in tokens and summed over the rows:
- raw: what the command printed;
- counterfactual: what the agent would have put in its context without rtok (raw cut at
  the agent's own tool-result cap; an agent whose cap is not known counts as uncapped, and
  its rows are counted in `uncapped_runs`);
- shown: what rtok printed;
- re-read: what `rtok expand` wrote back of the run's entry, each expand cut at the cap of
  the agent that ran it (what reached the agent's context again), and raw re-runs of the
  same command the agents' transcripts show (booked here, once: `discover.book_reruns`);
- net saved = counterfactual - shown - re-read (negative when rtok cost more than it saved).
Percentages are net saved over counterfactual. Project scoping matches the project path
itself and every path below it; `_` and `%` in paths are matched literally. Days, weeks
(ISO) and months are local time.
"""

from __future__ import annotations

import datetime as dt
import os
from dataclasses import asdict, dataclass, field
from typing import Any

from rtok import paths
from rtok.store import tokens
from rtok.store.ledger import open_ledger

JSON_SCHEMA = "rtok.gain/1"
GROUPS = ("agent", "project", "family", "day", "week", "month")
# Tokens of a row's re-reads: the estimate, or, once the row is recounted, the tokens per
# byte of its counterfactual (a re-read reaches the agent cut the way that text was).
_REREAD_TOKENS = (
    "CASE WHEN tokenizer = 'estimate' OR cf_bytes = 0 THEN (reread_ctx_bytes + 3) / 4"
    " ELSE (reread_ctx_bytes * cf_tokens + cf_bytes - 1) / cf_bytes END"
)
_SUMS = (
    "COUNT(*), COALESCE(SUM(raw_bytes), 0), COALESCE(SUM(raw_tokens), 0),"
    " COALESCE(SUM(cf_tokens), 0), COALESCE(SUM(shown_tokens), 0),"
    f" COALESCE(SUM({_REREAD_TOKENS}), 0), COALESCE(SUM(rereads), 0),"
    " COALESCE(SUM(reread_bytes), 0),"
    " COALESCE(SUM(cap_chars IS NULL), 0), COALESCE(AVG(exec_ms), 0)"
)


@dataclass(frozen=True)
class Figures:
    """One row of a report: a group's key (or "total") and its sums."""

    key: str
    runs: int
    raw_bytes: int
    raw_tokens: int
    counterfactual_tokens: int
    shown_tokens: int
    reread_tokens: int
    net_saved_tokens: int
    net_saved_pct: float
    rereads: int
    reread_raw_bytes: int  # what was written back, before the agents cut it
    uncapped_runs: int
    avg_exec_ms: float


@dataclass(frozen=True)
class Filters:
    project: str | None = None
    since: float | None = None  # epoch seconds, inclusive
    until: float | None = None  # epoch seconds, exclusive


@dataclass(frozen=True)
class Report:
    scope: str
    filters: Filters
    tokenizer: dict[str, object]
    totals: Figures
    groups: dict[str, list[Figures]]
    hosts: dict[str, dict[str, object]]
    history: list[dict[str, object]] = field(default_factory=list)

    def as_dict(self) -> dict[str, object]:
        return {
            "schema": JSON_SCHEMA,
            "scope": self.scope,
            "filters": asdict(self.filters),
            "tokenizer": self.tokenizer,
            "totals": asdict(self.totals),
            "groups": {name: [asdict(row) for row in rows] for name, rows in self.groups.items()},
            "hosts": self.hosts,
            "history": self.history,
        }


def like_prefix(path: str) -> str:
    """A LIKE pattern for "below `path`", with `\\`, `%` and `_` escaped (ESCAPE '\\')."""
    escaped = path.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return escaped.rstrip("/") + "/%"


def _pct(saved: int, base: int) -> float:
    return round(100.0 * saved / base, 1) if base else 0.0


def _figures(key: str, row: tuple[Any, ...]) -> Figures:
    runs, raw_b, raw, cf, shown, reread, rereads, reread_raw, uncapped, avg_ms = row
    net = int(cf) - int(shown) - int(reread)
    return Figures(
        key,
        int(runs),
        int(raw_b),
        int(raw),
        int(cf),
        int(shown),
        int(reread),
        net,
        _pct(net, int(cf)),
        int(rereads),
        int(reread_raw),
        int(uncapped),
        round(float(avg_ms), 1),
    )


def _add(key: str, rows: list[Figures]) -> Figures:
    """The sum of `rows` (weeks and months from days)."""

    def total(name: str) -> int:
        return sum(int(getattr(row, name)) for row in rows)

    runs = total("runs")
    net = total("net_saved_tokens")
    cf = total("counterfactual_tokens")
    avg = sum(row.avg_exec_ms * row.runs for row in rows) / runs if runs else 0.0
    return Figures(
        key,
        runs,
        total("raw_bytes"),
        total("raw_tokens"),
        cf,
        total("shown_tokens"),
        total("reread_tokens"),
        net,
        _pct(net, cf),
        total("rereads"),
        total("reread_raw_bytes"),
        total("uncapped_runs"),
        round(avg, 1),
    )


def _where(filters: Filters) -> tuple[str, list[object]]:
    clauses: list[str] = []
    params: list[object] = []
    if filters.project is not None:
        clauses.append("(project = ? OR project LIKE ? ESCAPE '\\')")
        params += [filters.project, like_prefix(filters.project)]
    if filters.since is not None:
        clauses.append("time >= ?")
        params.append(filters.since)
    if filters.until is not None:
        clauses.append("time < ?")
        params.append(filters.until)
    return ("WHERE " + " AND ".join(clauses)) if clauses else "", params


def _empty_totals() -> Figures:
    return Figures("total", 0, 0, 0, 0, 0, 0, 0, 0.0, 0, 0, 0, 0.0)


def hosts_known() -> dict[str, dict[str, object]]:
    """agent -> its cap and where that figure comes from (integrations/*.toml [limits])."""
    from rtok.install.descriptor import host_limits

    return {
        name: {
            "cap_chars": item.tool_result_chars,
            "cap_env": item.cap_env or None,
            "over_cap_chars": item.over_cap_chars,
            "source": item.source,
        }
        for name, item in sorted(host_limits().items())
    }


def build_report(filters: Filters | None = None, history_limit: int = 0, top: int = 0) -> Report:
    """The report over the rows `filters` select; `top` > 0 keeps that many rows of the
    agent, project and family groups (largest net saving first)."""
    filters = filters or Filters()
    scope = filters.project or "all projects"
    hosts = hosts_known()
    if not os.path.exists(paths.ledger_db()) and not os.path.exists(paths.ledger_pending()):
        return Report(
            scope,
            filters,
            _tokenizer_info(None, {}),
            _empty_totals(),
            {name: [] for name in GROUPS},
            hosts,
        )
    if os.path.exists(paths.ledger_pending()):
        from rtok.store.ledger import write

        write(None)  # move the pending rows in first
    found = tokens.tokenizer()
    conn = open_ledger()
    try:
        if found is not None:
            tokens.recount(conn, *found)
        _book_reruns(conn)
        where, params = _where(filters)
        totals = _figures(
            "total", conn.execute(f"SELECT {_SUMS} FROM runs {where}", params).fetchone()
        )
        groups = _groups(conn, where, params, top)
        methods = {
            str(name): int(n)
            for name, n in conn.execute(
                f"SELECT tokenizer, COUNT(*) FROM runs {where} GROUP BY tokenizer", params
            )
        }
        history = _history(conn, where, params, history_limit) if history_limit else []
    finally:
        conn.close()
    return Report(scope, filters, _tokenizer_info(found, methods), totals, groups, hosts, history)


def _book_reruns(conn: Any) -> None:
    """Raw re-runs the agents' transcripts show (rtok/store/discover.py) go against the
    saving of the run they re-ran. A transcript that cannot be read books nothing."""
    import time

    from rtok.store import decisions, discover

    try:
        since = time.time() - decisions.MAX_AGE_DAYS * 86400
        wanted = discover.changed_transcripts(conn)
        discover.book_reruns(conn, discover.load(since=since, wanted=wanted))
    except (OSError, ValueError):
        pass


def _tokenizer_info(
    found: tuple[str, tokens.Counter] | None, methods: dict[str, int]
) -> dict[str, object]:
    return {
        "installed": found[0] if found else None,
        "estimate": "ceil(bytes / 4)",
        "rows_by_method": methods,
    }


def _groups(conn: Any, where: str, params: list[object], top: int) -> dict[str, list[Figures]]:
    columns = {
        "agent": "agent",
        "project": "project",
        "family": "family",
        "day": "date(time, 'unixepoch', 'localtime')",
    }
    groups: dict[str, list[Figures]] = {}
    for name, column in columns.items():
        rows = [
            _figures(str(key), rest)
            for key, *rest in conn.execute(
                f"SELECT {column} AS k, {_SUMS} FROM runs {where} GROUP BY k", params
            )
        ]
        if name == "day":
            rows.sort(key=lambda row: row.key)
        else:
            rows.sort(key=lambda row: (-row.net_saved_tokens, row.key))
            if top > 0:
                rows = rows[:top]
        groups[name] = rows
    groups["week"] = _fold(groups["day"], _iso_week)
    groups["month"] = _fold(groups["day"], lambda day: day[:7])
    return {name: groups[name] for name in GROUPS}


def _iso_week(day: str) -> str:
    year, week, _ = dt.date.fromisoformat(day).isocalendar()
    return f"{year}-W{week:02d}"


def _fold(days: list[Figures], bucket: Any) -> list[Figures]:
    buckets: dict[str, list[Figures]] = {}
    for row in days:
        buckets.setdefault(bucket(row.key), []).append(row)
    return [_add(key, rows) for key, rows in sorted(buckets.items())]


def _history(conn: Any, where: str, params: list[object], limit: int) -> list[dict[str, object]]:
    keys = (
        "time",
        "command",
        "family",
        "agent",
        "project",
        "archive_id",
        "exec_ms",
        "exit_code",
        "raw_tokens",
        "counterfactual_tokens",
        "shown_tokens",
        "reread_tokens",
    )
    rows = conn.execute(
        "SELECT time, command, family, agent, project, archive_id, exec_ms, exit_code,"
        f" raw_tokens, cf_tokens, shown_tokens, {_REREAD_TOKENS} FROM runs {where}"
        " ORDER BY time DESC, id DESC LIMIT ?",
        [*params, limit],
    ).fetchall()
    history = []
    for row in rows:
        item: dict[str, object] = dict(zip(keys, row, strict=True))
        item["net_saved_tokens"] = int(row[9]) - int(row[10]) - int(row[11])
        history.append(item)
    return history


def reset() -> int:
    """Delete every ledger row (and the pending ones); how many rows there were."""
    removed = 0
    pending = paths.ledger_pending()
    if os.path.exists(pending):
        with open(pending, "rb") as handle:
            removed += sum(1 for line in handle if line.strip())
        os.unlink(pending)
    if os.path.exists(paths.ledger_db()):
        from rtok.store.db import sqlite_module

        try:
            conn = open_ledger()
            try:
                removed += int(conn.execute("DELETE FROM runs").rowcount)
            finally:
                conn.close()
        except sqlite_module().DatabaseError:  # not a database: start a new one
            for suffix in ("", "-wal", "-shm"):
                if os.path.exists(paths.ledger_db() + suffix):
                    os.unlink(paths.ledger_db() + suffix)
    return removed
