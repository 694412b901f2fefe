"""Which lines no rule may remove: lines that carry an error, a warning or a secret.

Stdlib only (hot path). Rules never redact: a protected line is shown as it is.
"""

from __future__ import annotations

import re

PROTECTED = re.compile(
    r"(?i:\b(?:errors?|err!?|warn(?:ing|ings|s)?|fatal|panic(?:ked|s)?|exceptions?|traceback"
    r"|fail(?:ed|ure|ures|ing|s)?|critical|denied|abort(?:ed)?|segmentation fault)\b)"
    r"|[a-z](?:Error|Exception|Warning)\b"
    r"|^E\s"
    r"|(?i:api[_-]?key|secret|passw(?:or)?d|\btoken\b|\bbearer\s|private key|credential)"
    r"|AKIA[0-9A-Z]{16}|gh[pousr]_[A-Za-z0-9]{30,}|sk-[A-Za-z0-9_-]{20,}|xox[abprs]-"
)

# Cheap byte-level pre-check for streamed chunks: a chunk none of these appear in (after
# lower-casing) has no protected line, so the per-line regex is skipped for it.
_HINTS = (b"err", b"warn", b"fatal", b"panic", b"exception", b"traceback", b"fail",
          b"critical", b"denied", b"abort", b"segmentation", b"e ", b"key", b"secret",
          b"passw", b"token", b"bearer", b"credential", b"akia", b"gh", b"sk-", b"xox")


def is_protected(line: str) -> bool:
    return PROTECTED.search(line) is not None


def chunk_may_hold_protected(chunk: bytes) -> bool:
    low = chunk.lower()
    return any(hint in low for hint in _HINTS)
