"""Token counts for the ledger: a real tokenizer where one is installed, else an estimate.

Not on the hot path. `rtok run` books every row with the estimate, ceil(bytes / 4)
(`ledger.estimate_tokens`): it runs without site-packages and cannot wait for a tokenizer.
`rtok gain` then recounts, with a tokenizer, each row whose raw output is still complete in
the archive (`recount`): the raw output, and the counterfactual (the raw text cut as the
host cuts it: its first and last halves of the cap). The shown output and the re-reads are
not kept as text, so their counts take a ratio of tokens to bytes: the shown output that
of the raw output, a re-read (which reached the agent cut the same way) that of the
counterfactual.
Rows whose entry expired, or was archived only in part, keep the estimate; `rtok gain`
says how many rows each method counted.

Tokenizers tried, in order: `tiktoken` (when its encoding loads without a download), then
`bpe-openai` (ships its encodings; the `tokens` extra installs it). Encoding: o200k_base,
an OpenAI encoding used as a proxy (the hosts' own tokenizers are not all public).
`RTOK_TOKENIZER=estimate` turns recounting off.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

ESTIMATE = "estimate"
ENCODING = "o200k_base"
# One `rtok gain` recounts at most this many rows and bytes (the next one goes on).
RECOUNT_ROWS = 500
RECOUNT_BYTES = 64 * 1024 * 1024

Counter = Callable[[str], int]


def tokenizer() -> tuple[str, Counter] | None:
    """(name, count function) of the first tokenizer that works, or None."""
    if os.environ.get("RTOK_TOKENIZER", "") == ESTIMATE:
        return None
    for module_name in ("tiktoken", "bpe_openai"):
        try:
            module: Any = __import__(module_name)
            encoding = module.get_encoding(ENCODING)
            encoding.encode("probe")
        except Exception:  # absent, or its data cannot be had offline
            continue
        label = f"{module_name.replace('_', '-')} {ENCODING}"

        def count(text: str, encoding: Any = encoding) -> int:
            return sum(len(encoding.encode(piece, disallowed_special=())) for piece in pieces(text))

        return label, count
    return None


PIECE_CHARS = 64 * 1024


def pieces(text: str) -> list[str]:
    """`text` in pieces of about `PIECE_CHARS`, each ending at a line end where there is
    one (tokenizers refuse or slow down on long inputs; a BPE token never spans a line
    end, so the count is the same but for the rare cut inside a long line)."""
    out = []
    start = 0
    while start < len(text):
        end = min(start + PIECE_CHARS, len(text))
        if end < len(text):
            newline = text.rfind("\n", start, end)
            if newline > start:
                end = newline + 1
        out.append(text[start:end])
        start = end
    return out


def cut_like_host(text: str, cap_chars: int | None, preview_chars: int | None = None) -> str:
    """`text` as a host that keeps `cap_chars` characters keeps it: head and tail, or the
    first `preview_chars` when the host shows a preview of a result over its cap."""
    if cap_chars is None or len(text) <= cap_chars:
        return text
    if preview_chars is not None:
        return text[: min(preview_chars, cap_chars)]
    head = cap_chars // 2
    return text[:head] + text[len(text) - (cap_chars - head) :]


def scaled(size: int, tokens: int, total_bytes: int) -> int:
    """Tokens of `size` bytes at the ratio `tokens / total_bytes`, rounded up."""
    if total_bytes <= 0:
        return (size + 3) // 4
    return (size * tokens + total_bytes - 1) // total_bytes


def recount(ledger_conn: Any, name: str, count: Counter) -> int:
    """Recount the rows still booked with the estimate whose raw output the archive holds
    whole; the number of rows recounted. Counting happens outside any transaction; the
    results are written in one short one (a run waiting for the ledger waits for that)."""
    from rtok import paths
    from rtok.store import archive, host

    rows = ledger_conn.execute(
        "SELECT id, archive_id, raw_bytes, shown_bytes, cap_chars, agent FROM runs"
        " WHERE tokenizer = ? AND archive_id IS NOT NULL ORDER BY id DESC LIMIT ?",
        (ESTIMATE, RECOUNT_ROWS),
    ).fetchall()
    if not rows or not os.path.exists(paths.archive_db()):
        return 0
    store = archive.open_archive()
    budget = 0
    updates: list[tuple[int, int, int, str, int]] = []
    try:
        for row_id, archive_id, raw_bytes, shown_bytes, cap_chars, agent in rows:
            entries = archive.find_entries(store, str(archive_id))
            if not entries or not entries[0].complete or entries[0].raw_bytes != raw_bytes:
                continue
            budget += int(raw_bytes)
            if budget > RECOUNT_BYTES:
                break
            data = b"".join(archive.iter_raw(store, entries[0].key))
            text = data.decode("utf-8", "replace")
            try:
                raw_tokens = count(text)
                cf_tokens = count(cut_like_host(text, cap_chars, host.over_cap(str(agent))))
            except Exception:  # the row keeps its estimate
                continue
            updates.append(
                (
                    raw_tokens,
                    cf_tokens,
                    scaled(int(shown_bytes), raw_tokens, int(raw_bytes)),
                    name,
                    int(row_id),
                )
            )
    finally:
        store.close()
    if updates:
        ledger_conn.execute("BEGIN IMMEDIATE")
        try:
            ledger_conn.executemany(
                "UPDATE runs SET raw_tokens = ?, cf_tokens = ?, shown_tokens = ?,"
                " tokenizer = ? WHERE id = ? AND tokenizer = 'estimate'",
                updates,
            )
            ledger_conn.execute("COMMIT")
        except BaseException:
            ledger_conn.execute("ROLLBACK")
            raise
    return len(updates)
