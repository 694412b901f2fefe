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
          b"critical", b"denied", b"abort", b"segmentation", b"\ne ", b"\ne\t", b"apikey",
          b"api_key", b"api-key", b"private key", b"secret", b"passw", b"passwd", b"token",
          b"bearer", b"credential", b"akia", b"ghp_", b"gho_", b"ghu_", b"ghs_", b"ghr_",
          b"sk-", b"xox")


# Literal alternation over the lower-cased line: a superset of PROTECTED that Python's
# regex engine scans an order of magnitude faster; PROTECTED runs only on its hits.
_QUICK = re.compile("|".join(re.escape(hint.decode()) for hint in _HINTS if hint[:1] != b"\n"))


def is_protected(line: str) -> bool:
    if _QUICK.search(line.lower()) is None and not (line[:1] == "E" and line[1:2].isspace()):
        return False
    return PROTECTED.search(line) is not None


def protected_lines(block: bytes) -> list[tuple[int, str]]:
    """(line index, text) of the protected lines of `block`, a run of complete lines.

    Candidate lines are found with fast substring searches on the lower-cased block; only
    those lines go through the regular expression.
    """
    low = b"\n" + block.lower()
    starts: set[int] = set()
    for hint in _HINTS:
        pos = low.find(hint)
        while pos != -1:
            at = pos + 1 if hint[0] == 10 else pos
            starts.add(low.rfind(b"\n", 0, at) + 1)
            end = low.find(b"\n", at)
            if end == -1:
                break
            pos = low.find(hint, end)
    found: list[tuple[int, str]] = []
    line_no = 0
    counted = 0
    for start in sorted(starts):
        # Offsets in `low` are one past those in `block` (the leading newline).
        begin = start - 1 if start else 0
        end = block.find(b"\n", begin)
        line_no += block.count(b"\n", counted, begin)
        counted = begin
        text = block[begin: end if end != -1 else len(block)].decode("utf-8", "replace")
        if is_protected(text):
            found.append((line_no, text))
    return found
