"""Savings reports over the ledger, for `rtok gain`.

Percentages are token-weighted: saved tokens over raw tokens, summed over the rows (one
large output weighs more than many small ones). Project scoping matches the project path
itself and every path below it; `_` and `%` in paths are matched literally.
"""

from __future__ import annotations

import os
from dataclasses import asdict, dataclass

from rtok import paths
from rtok.store.ledger import open_ledger


@dataclass(frozen=True)
class Totals:
    runs: int
    raw_tokens: int
    shown_tokens: int
    saved_tokens: int
    saved_pct: float
    avg_exec_ms: float


@dataclass(frozen=True)
class FamilyRow:
    family: str
    runs: int
    raw_tokens: int
    shown_tokens: int
    saved_tokens: int
    saved_pct: float


@dataclass(frozen=True)
class HistoryRow:
    time: float
    command: str
    family: str
    raw_tokens: int
    shown_tokens: int
    saved_pct: float
    exec_ms: int
    exit_code: int | None
    project: str
    archive_id: str | None


@dataclass(frozen=True)
class Report:
    scope: str
    totals: Totals
    families: list[FamilyRow]
    history: list[HistoryRow]

    def as_dict(self) -> dict[str, object]:
        return asdict(self)


def like_prefix(path: str) -> str:
    """A LIKE pattern for "below `path`", with `\\`, `%` and `_` escaped (ESCAPE '\\')."""
    escaped = path.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return escaped.rstrip("/") + "/%"


def _pct(saved: int, raw: int) -> float:
    return round(100.0 * saved / raw, 1) if raw else 0.0


def _family_row(family: str, runs: int, raw: int, shown: int) -> FamilyRow:
    return FamilyRow(family, runs, raw, shown, raw - shown, _pct(raw - shown, raw))


def build_report(project: str | None = None, history_limit: int = 0) -> Report:
    where, params = "", []
    if project is not None:
        where = "WHERE (project = ? OR project LIKE ? ESCAPE '\\')"
        params = [project, like_prefix(project)]
    scope = project or "all projects"
    if not os.path.exists(paths.ledger_db()) and not os.path.exists(paths.ledger_pending()):
        return Report(scope, Totals(0, 0, 0, 0, 0.0, 0.0), [], [])
    if os.path.exists(paths.ledger_pending()):
        from rtok.store.ledger import write

        write(None)  # move the pending rows in first
    conn = open_ledger()
    try:
        row = conn.execute(
            "SELECT COUNT(*), COALESCE(SUM(raw_tokens), 0), COALESCE(SUM(shown_tokens), 0),"
            f" COALESCE(AVG(exec_ms), 0) FROM runs {where}", params).fetchone()
        runs, raw, shown, avg_ms = int(row[0]), int(row[1]), int(row[2]), float(row[3])
        totals = Totals(runs, raw, shown, raw - shown, _pct(raw - shown, raw), round(avg_ms, 1))
        families = [
            _family_row(str(f), int(n), int(r), int(s))
            for f, n, r, s in conn.execute(
                "SELECT family, COUNT(*), SUM(raw_tokens), SUM(shown_tokens) FROM runs"
                f" {where} GROUP BY family ORDER BY SUM(raw_tokens) - SUM(shown_tokens) DESC,"
                " family", params)
        ]
        history = [
            HistoryRow(float(t), str(c), str(f), int(r), int(s), _pct(int(r) - int(s), int(r)),
                       int(ms), code, str(p), aid)
            for t, c, f, r, s, ms, code, p, aid in conn.execute(
                "SELECT time, command, family, raw_tokens, shown_tokens, exec_ms, exit_code,"
                f" project, archive_id FROM runs {where} ORDER BY time DESC, id DESC LIMIT ?",
                [*params, history_limit])
        ] if history_limit else []
    finally:
        conn.close()
    return Report(scope, totals, families, history)
