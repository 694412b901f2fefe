"""Text, chart and CSV forms of a `rtok gain` report (no colour: readable anywhere).

Tables drop their least important columns, then shorten their first column, until every
line fits the width; the bar chart scales its bars to what is left beside its labels.
"""

from __future__ import annotations

import csv
import io
import time
from collections.abc import Callable, Sequence

from rtok.store.gain import Figures, Report

CSV_COLUMNS = (
    "group",
    "key",
    "runs",
    "raw_bytes",
    "raw_tokens",
    "counterfactual_tokens",
    "shown_tokens",
    "reread_tokens",
    "net_saved_tokens",
    "net_saved_pct",
    "rereads",
    "reread_raw_bytes",
    "uncapped_runs",
)
MIN_KEY = 8

# (heading, value of a row, priority: lower survives a narrow terminal longer)
Column = tuple[str, Callable[[Figures], str], int]
COLUMNS: tuple[Column, ...] = (
    ("runs", lambda f: str(f.runs), 3),
    ("raw", lambda f: compact(f.raw_tokens), 4),
    ("counterf.", lambda f: compact(f.counterfactual_tokens), 2),
    ("shown", lambda f: compact(f.shown_tokens), 5),
    ("re-read", lambda f: compact(f.reread_tokens), 6),
    ("net saved", lambda f: compact(f.net_saved_tokens), 0),
    ("net %", lambda f: f"{f.net_saved_pct:.1f}%", 1),
)


def compact(value: int) -> str:
    """12345 -> 12.3k, 4567890 -> 4.6M (sign kept)."""
    size = abs(value)
    sign = "-" if value < 0 else ""
    if size < 10_000:
        return f"{value}"
    if size < 1_000_000:
        return f"{sign}{size / 1000:.1f}k"
    return f"{sign}{size / 1_000_000:.1f}M"


def table(title: str, rows: Sequence[Figures], width: int) -> list[str]:
    """`rows` as a table no line of which is wider than `width`."""
    columns = list(COLUMNS)
    key_width = max([len(title), *(len(row.key) for row in rows)])
    while True:
        cells = [[value(row) for _, value, _ in columns] for row in rows]
        widths = [
            max([len(head), *(len(line[i]) for line in cells)])
            for i, (head, _, _) in enumerate(columns)
        ]
        rest = sum(w + 1 for w in widths)
        if min(key_width, 40) + rest <= width or len(columns) <= 2:
            break
        columns.remove(max(columns, key=lambda column: column[2]))
    key_width = max(min(key_width, 40, width - rest), 4)
    lines = [_cells(title, [head for head, _, _ in columns], key_width, widths)]
    for row, line in zip(rows, cells, strict=True):
        lines.append(_cells(row.key, line, key_width, widths))
    return [line[:width] for line in lines]


def _cells(key: str, values: list[str], key_width: int, widths: list[int]) -> str:
    if len(key) > key_width:
        key = "…" + key[len(key) - key_width + 1 :]
    return f"{key:<{key_width}}" + "".join(
        f" {v:>{w}}" for v, w in zip(values, widths, strict=True)
    )


def bar_chart(title: str, rows: Sequence[Figures], width: int, last: int = 14) -> list[str]:
    """Net saved tokens per bucket, one line each: `key  ####  value` (`-` bars below 0)."""
    rows = list(rows)[-last:]
    lines = [title]
    if not rows:
        return [*lines, "  (no runs)"]
    label = max(len(row.key) for row in rows)
    values = [compact(row.net_saved_tokens) for row in rows]
    value_width = max(len(v) for v in values)
    room = max(width - label - value_width - 3, 1)
    top = max(abs(row.net_saved_tokens) for row in rows) or 1
    for row, value in zip(rows, values, strict=True):
        size = round(room * abs(row.net_saved_tokens) / top)
        if row.net_saved_tokens and not size:
            size = 1
        bar = ("#" if row.net_saved_tokens >= 0 else "-") * size
        lines.append(f"{row.key:<{label}} {bar:<{room}} {value:>{value_width}}"[:width])
    return lines


def render_text(report: Report, width: int, by: str, history: bool) -> str:
    t = report.totals
    lines = [f"rtok gain ({report.scope})"[:width]]
    if not t.runs:
        lines.append("No runs recorded yet.")
        return "\n".join(lines)
    lines += table("tokens", [t], width)
    lines += _notes(report, width)
    for name, title in (("agent", "agent"), ("family", "family"), ("project", "project")):
        rows = report.groups.get(name, [])
        if rows:
            lines += ["", *table(title, rows, width)]
    lines += ["", *bar_chart(f"net saved per {by}", report.groups[by], width)]
    if history:
        lines += ["", *_history(report, width)]
    return "\n".join(lines)


def _notes(report: Report, width: int) -> list[str]:
    t = report.totals
    methods = report.tokenizer["rows_by_method"]
    assert isinstance(methods, dict)
    estimated = int(methods.get("estimate", 0))
    counted = {k: v for k, v in methods.items() if k != "estimate"}
    if counted:
        how = ", ".join(f"{v} rows by {k}" for k, v in sorted(counted.items()))
        how += f", {estimated} estimated as bytes / 4" if estimated else ""
    else:
        installed = report.tokenizer["installed"]
        how = "estimated as bytes / 4" + (
            "" if installed else " (no tokenizer installed: pip install 'rtok[tokens]')"
        )
    notes = [f"tokens: {how}"]
    if t.uncapped_runs:
        notes.append(
            f"{t.uncapped_runs} of {t.runs} runs for an agent whose own output cap"
            " is not known: counted as uncapped"
        )
    if t.rereads:
        notes.append(
            f"{t.rereads} re-reads (rtok expand, raw re-runs) subtracted as the"
            f" agents kept them ({compact(t.reread_raw_bytes)} bytes written back)"
        )
    return [_wrap(note, width) for note in notes]


def _wrap(text: str, width: int) -> str:
    words, lines, line = text.split(), [], ""
    for word in words:
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    lines.append(line)
    return "\n".join(item[:width] for item in lines)


def _history(report: Report, width: int) -> list[str]:
    lines = ["time              net saved  command"]
    for item in report.history:
        stamp = time.strftime("%Y-%m-%d %H:%M", time.localtime(float(str(item["time"]))))
        net = compact(int(str(item["net_saved_tokens"])))
        lines.append(f"{stamp:<16} {net:>10}  {item['command']}"[:width])
    return lines


def render_csv(report: Report) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    writer.writerow(_csv_row("total", report.totals))
    for name, rows in report.groups.items():
        for row in rows:
            writer.writerow(_csv_row(name, row))
    return out.getvalue()


def _csv_row(group: str, row: Figures) -> list[object]:
    return [
        group,
        row.key,
        row.runs,
        row.raw_bytes,
        row.raw_tokens,
        row.counterfactual_tokens,
        row.shown_tokens,
        row.reread_tokens,
        row.net_saved_tokens,
        row.net_saved_pct,
        row.rereads,
        row.reread_raw_bytes,
        row.uncapped_runs,
    ]
