"""From finished captures to the bytes shown, archiving first when anything is cut.

Stdlib only (hot path). Guarantees: the raw output is archived before a shortened result is
printed; each shortened stream (trailer included) is shorter than its raw bytes, in bytes
and in estimated tokens, or that stream is printed unchanged (never_worse); if archiving
fails, the raw output is printed. A run has one capture per stream (stdout and stderr,
each shortened by the same rule), or one merged capture. All its streams go into one
archive entry, even those left uncut, and every shortened stream ends with the trailer
naming it (a reader of either stream alone, `2>/dev/null` or `2>&1 >/dev/null`, still
learns where the rest is). An output that is not text is one line saying what it is
(rtok/filter/binary.py).
"""

from __future__ import annotations

from rtok._fast import regex
from rtok.filter.binary import SAMPLE_BYTES, binary_kind, described, text_end, text_lead
from rtok.filter.engine import normalise, shorten
from rtok.filter.protect import is_protected
from rtok.filter.streams import STDERR_STREAM, TRAILER_BYTES
from rtok.filter.textlines import omitted
from rtok.store.slices import head_cap, tail_cap

TYPE_CHECKING = False
if TYPE_CHECKING:
    from rtok.filter.capture import Capture
    from rtok.filter.formatters import Formatter
    from rtok.filter.rule import Rule
    from rtok.filter.settings import Settings
    from rtok.store.archive import ArchiveWriter
    from rtok.store.ledger import Row


class Shown:
    """What to print on stdout and on stderr, and the archive entry that holds the rest."""

    __slots__ = ("archive_id", "err", "out")

    def __init__(self, out: bytes, err: bytes, archive_id: str | None) -> None:
        self.out = out
        self.err = err
        self.archive_id = archive_id

    @property
    def data(self) -> bytes:
        """Everything shown, stdout's part first (a merged stream is all stdout)."""
        return self.out + self.err


def trailer(entry_id: str, lines: int, note: str = "") -> str:
    """The last line of a shortened output: the command that prints all of it, and how many
    lines that is (`[rtok expand 3f2a9c0b1d7e · 812 lines]`)."""
    extra = f" · {note}" if note else ""
    return f"[rtok expand {entry_id} · {lines} lines{extra}]"


def mib(size: int) -> str:
    return f"{size / (1024 * 1024):.1f} MiB"


# One piece per word (long words split), per group of up to three digits, per run of up to
# eight equal punctuation characters (`........`), per other character; leading blanks join
# the piece, as they do in the tokenizers agents use. A hex id or a path costs several
# pieces, which a bytes/4 estimate does not see.
_PIECE = regex.compile(rb"\s*(?:[A-Za-z]{1,8}|[0-9]{1,3}|([^\sA-Za-z0-9])\1{0,7})|\s+")
# Past this size, a result under a quarter of the raw bytes is taken as shorter in tokens
# too, without counting them.
_COUNT_BYTES = 256 * 1024


def estimate_tokens(data: bytes) -> int:
    return sum(1 for _ in _PIECE.finditer(data))


def never_worse(raw: bytes, shown: bytes) -> bool:
    """True when `shown` may replace `raw`: fewer bytes and fewer estimated tokens (a cut
    that saves less than its trailer costs is no saving)."""
    if len(shown) >= len(raw):
        return False
    if len(raw) > _COUNT_BYTES and len(shown) * 4 < len(raw):
        return True
    return estimate_tokens(shown) < estimate_tokens(raw)


def raw_of(captures: list[Capture]) -> Shown:
    """Every stream as it was written (only for captures that did not stream)."""
    out = b"".join(c.data() for c in captures if c.stream != STDERR_STREAM)
    err = b"".join(c.data() for c in captures if c.stream == STDERR_STREAM)
    return Shown(out, err, None)


def render(
    captures: Capture | list[Capture],
    rule: Rule,
    formatter: Formatter | None,
    exit_code: int,
    settings: Settings,
    command: str,
    family: str,
    row: Row | None = None,
) -> Shown:
    """Shorten each stream, archive the entry (with the ledger `row`, one transaction) and
    return what to print. `row` is written here when an entry is archived."""
    from rtok.store.entry_id import content_id, entry_digest

    if not isinstance(captures, list):
        captures = [captures]

    present = [c for c in captures if c.total]
    if not any(c.streaming or c.total > TRAILER_BYTES for c in present):
        return raw_of(captures)
    digest = entry_digest([(c.stream, c.sha256_hex()) for c in present])
    entry_id = content_id(digest)
    total_lines = sum(c.lines for c in present)
    bodies = _bodies(captures, rule, formatter, exit_code, settings, entry_id)
    line = trailer(entry_id, total_lines, _partial_note(present, settings)) + "\n"
    shown = _worth_showing(captures, bodies, line)
    if not shown:
        return raw_of(captures)
    stored_id = _archive(
        captures, digest, total_lines, exit_code, settings, command, family, row, shown
    )
    if stored_id is None:
        if not any(c.streaming for c in captures):
            return raw_of(captures)
        # Only what is shown remains of a large output: print it without a trailer.
        for index in shown:
            shown[index] = bodies[index].encode("utf-8", "replace")
    return Shown(_joined(captures, shown, False), _joined(captures, shown, True), stored_id)


def _bodies(
    captures: list[Capture],
    rule: Rule,
    formatter: Formatter | None,
    exit_code: int,
    settings: Settings,
    entry_id: str,
) -> dict[int, str]:
    """index in `captures` -> its shortened text (no trailer), for the streams that change."""
    bodies: dict[int, str] = {}
    for index, capture in enumerate(captures):
        if capture.streaming:
            bodies[index] = _streamed_text(capture, rule, exit_code, settings, entry_id)
        elif capture.total > TRAILER_BYTES:
            text = _shortened_text(capture, rule, formatter, exit_code, settings)
            if text is not None:
                bodies[index] = text
    return bodies


def _worth_showing(captures: list[Capture], bodies: dict[int, str], line: str) -> dict[int, bytes]:
    """index -> the bytes to show (body and trailer) for each stream whose shortened form
    is never worse than it (a streamed one always is); the others stay as they are."""
    shown: dict[int, bytes] = {}
    for index, text in bodies.items():
        data = (text + line).encode("utf-8", "replace")
        if captures[index].streaming or never_worse(captures[index].data(), data):
            shown[index] = data
    return shown


def _joined(captures: list[Capture], shown: dict[int, bytes], stderr: bool) -> bytes:
    """What goes to stdout (or stderr): each stream's shown bytes, or its own bytes."""
    return b"".join(
        shown.get(i, c.data() if not c.streaming else b"")
        for i, c in enumerate(captures)
        if (c.stream == STDERR_STREAM) == stderr
    )


def _shortened_text(
    capture: Capture, rule: Rule, formatter: Formatter | None, exit_code: int, settings: Settings
) -> str | None:
    """The shortened text of an output kept in memory, or None when nothing would change."""
    raw = capture.data()
    kind = binary_kind(raw)
    # Text may turn into data further on; data of no known kind may follow text lines (a
    # script carrying its payload). The text part is shortened, the rest is one line.
    if kind is None:
        end = text_end(raw) or len(raw)
    elif kind == "binary data":
        end = text_lead(raw)
    else:
        end = 0
    if kind is not None and not end:
        return described(kind, len(raw)) + "\n"
    text = raw[:end].decode("utf-8", "replace")
    lines = shorten(text, rule, formatter, exit_code, settings.fail_tail_lines)
    if end < len(raw):
        # text, then data (a log, then the image written to the same stream)
        rest = described(binary_kind(raw[end:]) or "binary data", len(raw) - end)
        return "\n".join([*lines, rest]) + "\n"
    if lines == normalise(text) and "\x1b" not in text and "\r" not in text:
        return None
    return "\n".join(lines) + "\n" if lines else ""


def _archive(
    captures: list[Capture],
    digest: str,
    total_lines: int,
    exit_code: int,
    settings: Settings,
    command: str,
    family: str,
    row: Row | None,
    shown: dict[int, bytes],
) -> str | None:
    """Store every stream of the run in one entry (and the ledger row); its id, or None
    (with a notice) when the store is unavailable or busy."""
    writer = next((c.archive for c in captures if c.archive is not None), None)
    failed = next((c.archive_error for c in captures if c.streaming and c.archive is None), "")
    if failed:
        _notice(
            f"archive unavailable ({failed}); only the lines shown here remain of"
            f" {sum(c.total for c in captures)} bytes of output"
        )
        if writer is not None:
            writer.abandon()
        return None
    try:
        if writer is None:
            from rtok.store.archive import ArchiveWriter

            writer = ArchiveWriter(command, family, settings.max_entry_bytes)
        return _store(writer, captures, digest, total_lines, exit_code, settings, row, shown)
    except Exception as exc:
        _notice(f"archive unavailable ({_reason(exc)}); {_what_remains(captures)}")
        if writer is not None:
            writer.abandon()
        return None
    finally:
        if writer is not None:
            writer.close()


def _store(
    writer: ArchiveWriter,
    captures: list[Capture],
    digest: str,
    total_lines: int,
    exit_code: int,
    settings: Settings,
    row: Row | None,
    shown: dict[int, bytes],
) -> str:
    """Write the streams kept in memory (streamed ones are in already), then name the
    entry and book the ledger `row` with the bytes shown."""
    for capture in captures:
        if not capture.streaming and capture.total:
            writer.write(capture.data(), capture.stream)
    if row is not None:
        row.shown_bytes = sum(len(data) for data in shown.values()) + sum(
            c.total for i, c in enumerate(captures) if i not in shown and not c.streaming
        )
    return writer.finish(
        digest,
        sum(c.total for c in captures),
        total_lines,
        exit_code,
        settings.max_entries,
        settings.max_age_days,
        row,
    )


def _what_remains(captures: list[Capture]) -> str:
    if any(c.streaming for c in captures):
        return "only the lines shown here remain of the output"
    return "not archived; showing the full output"


def _reason(exc: Exception) -> str:
    text = str(exc) or type(exc).__name__
    return "another rtok process holds it" if text == "database is locked" else text


def _partial_note(captures: list[Capture], settings: Settings) -> str:
    total = sum(c.total for c in captures)
    if total <= settings.max_entry_bytes:
        return ""
    return f"head and tail of {mib(total)} archived"


def _cap_note(settings: Settings, total: int) -> str:
    """What the archive keeps of an output past its cap (rtok/store/slices.py)."""
    cap = settings.max_entry_bytes
    return (
        f"… {mib(total)} in all, every line scanned for errors; the archive keeps the first"
        f" {mib(head_cap(cap))} and the last {mib(tail_cap(cap))} (rtok expand names the ranges)"
    )


def _streamed_text(
    capture: Capture, rule: Rule, exit_code: int, settings: Settings, entry_id: str
) -> str:
    """A large output: head, collected protected lines, tail (the archive holds the rest)."""
    capture.finish()
    kind = binary_kind(capture.head)
    if kind is not None:
        return _streamed_data(capture, kind, settings)
    failed = exit_code != 0
    head = _complete_lines(capture.head, 0 if failed else rule.head)
    tail_all, ending = _tail_lines(capture)
    tail_count = settings.fail_tail_lines if failed else rule.tail
    tail = tail_all[len(tail_all) - tail_count :] if tail_count else []
    tail_start = capture.lines - len(tail)
    protected = _protected_before_tail(capture, tail_all, len(tail))
    out = [_clip(line) for line in normalise("\n".join(head))] if head else []
    _middle(out, protected, len(head), tail_start)
    if capture.protected_more:
        out.append(
            f"… {capture.protected_more} more error/warning lines, most like those shown"
            f" (rtok expand {entry_id} --grep ... searches the archived part)"
        )
    if tail:
        # A failure's tail is shown as written; a success's is tidied like any output.
        out.extend(_clip(line) for line in (tail if failed else normalise("\n".join(tail))))
    if ending is not None:
        out.append(f"[binary output not shown: the output ends in {ending}]")
    if capture.total > settings.max_entry_bytes:
        out.append(_cap_note(settings, capture.total))
    return "\n".join(out) + "\n"


def _streamed_data(capture: Capture, kind: str, settings: Settings) -> str:
    """A large output that is data: its leading text lines, if any, then one line for it."""
    lead = text_lead(capture.head) if kind == "binary data" else 0
    out = [_clip(line) for line in capture.head[:lead].decode("utf-8").split("\n")[:-1]]
    out.append(described(kind, capture.total - lead))
    if capture.total > settings.max_entry_bytes:
        out.append(_cap_note(settings, capture.total))
    return "\n".join(out) + "\n"


def _tail_lines(capture: Capture) -> tuple[list[str], str | None]:
    """The complete lines of the kept tail (its first, maybe partial, line left out) and,
    when the output ends in data, what kind (that part is not among the lines)."""
    tail_data = capture.tail_bytes()
    ending = _data_at_end(tail_data)
    if ending is not None:
        tail_data = tail_data[: ending[0]]
    tail_all = tail_data.decode("utf-8", "replace").split("\n")
    if tail_all and tail_all[-1] == "":
        tail_all.pop()
    tail_all = tail_all[1:] if len(tail_all) > 1 else tail_all  # first may be partial
    return tail_all, None if ending is None else ending[1]


def _protected_before_tail(capture: Capture, tail_all: list[str], shown: int) -> dict[int, str]:
    """line number -> text: the protected lines collected while streaming, and those of
    the kept tail above its `shown` last lines."""
    protected = dict(capture.protected)
    first = capture.lines - len(tail_all)
    for offset, line in enumerate(tail_all[: len(tail_all) - shown]):
        if is_protected(line):
            protected.setdefault(first + offset, line)
    return protected


def _middle(out: list[str], protected: dict[int, str], position: int, tail_start: int) -> None:
    """Append the protected lines between the head (`position` lines) and the tail (from
    line `tail_start`), each gap counted."""
    for line_no in sorted(protected):
        if position <= line_no < tail_start:
            if line_no > position:
                out.append(omitted(line_no - position))
            out.append(_clip(normalise(protected[line_no])[0] if protected[line_no] else ""))
            position = line_no + 1
    if tail_start > position:
        out.append(omitted(tail_start - position))


def _data_at_end(tail: bytes) -> tuple[int, str] | None:
    """(where in `tail` the data starts, its kind) when a large output ends in data."""
    if not tail or binary_kind(tail[-SAMPLE_BYTES:]) is None:
        return None
    cut = 0 if binary_kind(tail[:SAMPLE_BYTES]) is not None else text_end(tail)
    return cut, binary_kind(tail[cut:]) or "binary data"


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
