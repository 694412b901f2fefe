"""From a finished capture to the bytes shown, archiving first when anything is cut.

Stdlib only (hot path). Guarantees: the raw output is archived before a shortened result is
printed; the result (trailer included) is shorter than the raw output in bytes and in
estimated tokens, or the raw output is printed unchanged (never_worse); if archiving fails,
the raw output is printed.
"""

from __future__ import annotations

import re

from rtok.filter.engine import normalise, omitted, shorten
from rtok.filter.protect import is_protected

TYPE_CHECKING = False
if TYPE_CHECKING:
    from rtok.filter.capture import Capture
    from rtok.filter.family import Formatter
    from rtok.filter.rule import Rule
    from rtok.filter.settings import Settings


class Shown:
    """What to print, and what the ledger records about it."""

    __slots__ = ("archive_id", "data")

    def __init__(self, data: bytes, archive_id: str | None) -> None:
        self.data = data
        self.archive_id = archive_id


def trailer(entry_id: str, lines: int, note: str = "") -> str:
    extra = f" · {note}" if note else ""
    return f"[rtok {entry_id} · {lines} lines · expand: rtok expand {entry_id}{extra}]"


def mib(size: int) -> str:
    return f"{size / (1024 * 1024):.1f} MiB"


# One piece per word (long words split), per group of up to three digits, per run of up to
# eight equal punctuation characters (`........`), per other character; leading blanks join
# the piece, as they do in the tokenizers agents use. A hex id or a path costs several
# pieces, which a bytes/4 estimate does not see.
_PIECE = re.compile(rb"\s*(?:[A-Za-z]{1,8}|[0-9]{1,3}|([^\sA-Za-z0-9])\1{0,7})|\s+")
# Past this size, a result under a quarter of the raw bytes is taken as shorter in tokens
# too, without counting them.
_COUNT_BYTES = 256 * 1024


def estimate_tokens(data: bytes) -> int:
    return sum(1 for _ in _PIECE.finditer(data))


def never_worse(raw: bytes, shown: bytes) -> bool:
    """True when `shown` may replace `raw`: fewer bytes and fewer estimated tokens."""
    if len(shown) >= len(raw):
        return False
    if len(raw) > _COUNT_BYTES and len(shown) * 4 < len(raw):
        return True
    return estimate_tokens(shown) < estimate_tokens(raw)


def render(capture: Capture, rule: Rule, formatter: Formatter | None, exit_code: int,
           settings: Settings, command: str, family: str) -> Shown:
    if capture.streaming:
        return _render_streamed(capture, rule, exit_code, settings)
    raw = capture.data()
    if not raw:
        return Shown(raw, None)
    text = raw.decode("utf-8", "replace")
    lines = shorten(text, rule, formatter, exit_code, settings.fail_tail_lines)
    if lines == normalise(text) and "\x1b" not in text and "\r" not in text:
        return Shown(raw, None)
    entry_id = _content_id(capture)
    body = "\n".join(lines) + "\n" if lines else ""
    shown = (body + trailer(entry_id, capture.lines) + "\n").encode("utf-8", "replace")
    worse = not never_worse(raw, shown)
    try:
        from rtok.store.archive import ArchiveWriter

        writer = ArchiveWriter(command, family, settings.max_entry_bytes)
        try:
            writer.write(raw)
            stored_id = writer.finish(capture.sha256_hex(), capture.total, capture.lines,
                                      exit_code, settings.max_entries, settings.max_age_days)
        finally:
            writer.close()
    except Exception as exc:
        if not worse:
            _notice(f"archive unavailable ({exc}); showing the full output")
        return Shown(raw, None)
    if worse:
        # The cut saves less than its trailer costs: the raw output as it is (archived,
        # like every output a rule changed).
        return Shown(raw, stored_id)
    if len(raw) > settings.max_entry_bytes:
        shown = (body + trailer(stored_id, capture.lines, _partial_note(capture, settings))
                 + "\n").encode("utf-8", "replace")
    return Shown(shown, stored_id)


def _content_id(capture: Capture) -> str:
    from rtok.store.archive import content_id

    return content_id(capture.sha256_hex())


def _partial_note(capture: Capture, settings: Settings) -> str:
    return (f"first {mib(min(settings.max_entry_bytes, capture.total))} of "
            f"{mib(capture.total)} archived")


def _render_streamed(capture: Capture, rule: Rule, exit_code: int, settings: Settings) -> Shown:
    """A large output: head, collected protected lines, tail (the archive holds the rest)."""
    capture.finish()
    writer = capture.archive
    entry_id = ""
    if writer is None:
        _notice(f"archive unavailable ({capture.archive_error}); only the lines shown here"
                f" remain of {capture.total} bytes of output")
    else:
        try:
            entry_id = writer.finish(capture.sha256_hex(), capture.total, capture.lines,
                                     exit_code, settings.max_entries, settings.max_age_days)
        except Exception as exc:
            _notice(f"archive unavailable ({exc}); only the lines shown here remain of"
                    f" {capture.total} bytes of output")
        finally:
            writer.close()
    failed = exit_code != 0
    head_count = 0 if failed else rule.head
    tail_count = settings.fail_tail_lines if failed else rule.tail
    total_lines = capture.lines
    head = _complete_lines(capture.head, head_count)
    tail_text = capture.tail_bytes().decode("utf-8", "replace")
    tail_all = tail_text.split("\n")
    if tail_all and tail_all[-1] == "":
        tail_all.pop()
    tail_all = tail_all[1:] if len(tail_all) > 1 else tail_all  # first may be partial
    tail_first_line = total_lines - len(tail_all)
    tail = tail_all[len(tail_all) - tail_count:] if tail_count else []
    tail_start = total_lines - len(tail)
    protected = dict(capture.protected)
    for offset, line in enumerate(tail_all[: len(tail_all) - len(tail)]):
        if is_protected(line):
            protected.setdefault(tail_first_line + offset, line)
    out = [_clip(line) for line in normalise("\n".join(head))] if head else []
    position = len(head)
    for line_no in sorted(protected):
        if position <= line_no < tail_start:
            if line_no > position:
                out.append(omitted(line_no - position))
            out.append(_clip(normalise(protected[line_no])[0] if protected[line_no] else ""))
            position = line_no + 1
    if tail_start > position:
        out.append(omitted(tail_start - position))
    if capture.protected_more:
        out.append(f"… {capture.protected_more} more error/warning lines in the archive"
                   f" (rtok expand {entry_id} --grep ...)")
    if tail:
        # A failure's tail is shown as written; a success's is tidied like any output.
        out.extend(_clip(line) for line in (tail if failed else normalise("\n".join(tail))))
    if capture.total > settings.max_entry_bytes:
        out.append(f"… bytes past the first {mib(settings.max_entry_bytes)} were counted,"
                   " not archived nor scanned for errors")
    note = _partial_note(capture, settings) if capture.total > settings.max_entry_bytes else ""
    if entry_id:
        out.append(trailer(entry_id, total_lines, note))
    return Shown(("\n".join(out) + "\n").encode("utf-8", "replace"), entry_id or None)


def _complete_lines(data: bytes, count: int) -> list[str]:
    if not count:
        return []
    lines = data.decode("utf-8", "replace").split("\n")
    return lines[:-1][:count]


def _clip(line: str) -> str:
    if len(line) <= 2000:
        return line
    return f"{line[:2000]}… ({len(line)} chars)"


def _notice(message: str) -> None:
    import sys

    try:  # noqa: SIM105 (contextlib costs start-up time)
        sys.stderr.write(f"rtok: {message}\n")
    except (OSError, ValueError):
        pass
