"""`rtok expand ID [--full|--merged|--from N|--lines N|--grep RE]` and `rtok expand --list`.

Stdlib only. With no option (or `--full`) the archived bytes are written exactly as the
command produced them, each stream to its own fd: what the command wrote on stdout to
stdout, what it wrote on stderr to stderr (an output captured with both streams going to
one place, and every entry archived before the streams were kept apart, is one stream and
goes to stdout). `--merged` writes stdout's bytes then stderr's, all to stdout. `--from N`
starts at line N (1-based), `--lines N` stops after N lines, `--grep RE` prints matching
lines as `N:line`; these read stdout and stderr as one text (stdout first). An id may be
shortened to any unique prefix of at least 4 hex digits.

An output past the per-entry cap was archived as a head and a tail (rtok/store/slices.py):
where bytes were left out, one marker line says how many and which; the line numbers of
`--from` and `--grep` count that line, so past it they are those of what was archived. The
ranges kept are named on stderr after the bytes, and in `--list`.
"""

from __future__ import annotations

import sys
import time

from rtok._fast.argv import option_value

TYPE_CHECKING = False
if TYPE_CHECKING:
    import sqlite3
    from collections.abc import Iterable, Iterator
    from typing import BinaryIO

    from rtok.store.archive import Entry
    from rtok.store.slices import Cut

USAGE = (
    "usage: rtok expand ID [--full | --merged | --from N | --lines N | --grep RE]\n"
    "       rtok expand --list\n"
)
HELP = """
Writes an archived output back. Each stream goes to its own fd: the command's stdout to
stdout, its stderr to stderr (an output whose streams went to one place is one stream, on
stdout).

  --full        everything, exactly as archived (the default)
  --merged      stdout's bytes, then stderr's, all on stdout
  --from N      start at line N (1-based); stdout and stderr read as one text
  --lines N     stop after N lines
  --grep RE     only lines matching RE, as N:line
  --list        the archived entries, newest first

An output longer than the archive's per-entry cap was kept as its head and its tail: it
comes back with one marker line where bytes were left out, and stderr (and --list) names
the byte ranges the archive holds.
"""
MIN_PREFIX = 4


class Options:
    __slots__ = ("count", "entry_id", "first", "full", "grep", "listing", "merged")

    def __init__(self) -> None:
        self.entry_id = ""
        self.full = False
        self.merged = False
        self.listing = False
        self.first = 1
        self.count: int | None = None
        self.grep: str | None = None


def parse_args(args: list[str]) -> Options | str:
    """The options of `rtok expand`, or the message that says what is wrong with them."""
    options = Options()
    i = 0
    while i < len(args):
        arg = args[i]
        name = arg.partition("=")[0]
        problem: str | None = None
        if arg in _SWITCHES:
            setattr(options, _SWITCHES[arg], True)
        elif name in _VALUED:
            value, i = option_value(args, i)
            problem = f"{name} needs a value" if value is None else _set_value(options, name, value)
        elif arg.startswith("-"):
            problem = f"unknown option {arg!r}"
        elif options.entry_id:
            problem = f"unexpected argument {arg!r}"
        else:
            options.entry_id = arg.lower()
        if problem is not None:
            return problem
        i += 1
    return _combination_problem(options) or options


_SWITCHES = {"--full": "full", "--merged": "merged", "--list": "listing"}
_VALUED = ("--from", "--lines", "--grep")


def _set_value(options: Options, name: str, value: str) -> str | None:
    """Store the value of `--from`, `--lines` or `--grep`; the problem with it, if any."""
    if name == "--grep":
        options.grep = value
        return None
    try:
        number = int(value)
    except ValueError:
        return f"{name} takes a number, not {value!r}"
    if number < 1:
        return f"{name} must be 1 or more"
    if name == "--from":
        options.first = number
    else:
        options.count = number
    return None


def _slicing(options: Options) -> bool:
    """True when only part of the output is asked for (`--from`, `--lines`, `--grep`)."""
    return options.first != 1 or options.count is not None or options.grep is not None


def _combination_problem(options: Options) -> str | None:
    """What is wrong with the options taken together, or None."""
    slicing = _slicing(options)
    if (options.full or options.merged) and slicing:
        return (
            "--full and --merged print everything; they cannot be combined with"
            " --from/--lines/--grep"
        )
    if options.listing:
        if options.entry_id or options.full or options.merged or slicing:
            return "--list takes no id and no other option"
        return None
    if not options.entry_id:
        return "an archive id is required (see `rtok expand --list`)"
    if len(options.entry_id) < MIN_PREFIX:
        return f"an id needs at least {MIN_PREFIX} characters"
    return None


def main(args: list[str]) -> int:
    if args and args[0] in ("-h", "--help"):
        sys.stdout.write(USAGE + HELP)
        return 0
    parsed = parse_args(args)
    if isinstance(parsed, str):
        sys.stderr.write(f"rtok expand: {parsed}\n{USAGE}")
        return 2
    from rtok import paths
    from rtok._fast import oslite as os
    from rtok.store import archive

    if not os.path.exists(paths.archive_db()):
        if parsed.listing:
            return 0
        sys.stderr.write(f"rtok expand: no archived output with id {parsed.entry_id}\n")
        return 1
    conn = archive.open_archive()
    try:
        if parsed.listing:
            _print_list(archive.list_entries(conn), archive.all_cuts(conn))
            return 0
        entry = _one_entry(conn, parsed.entry_id)
        if isinstance(entry, int):
            return entry
        counter = _Counter()
        try:
            status = _write_entry(conn, entry, parsed, counter)
        except BrokenPipeError:
            _book_reread(entry.id, counter.bytes)
            return 0  # the reader has seen enough
        _book_reread(entry.id, counter.bytes)
        if status == 0 and not entry.complete:
            sys.stderr.write(_partial_notice(entry, archive.cuts_of(conn, entry.key)))
        return status
    finally:
        conn.close()


_STREAM_NAMES = {0: "output", 1: "stdout", 2: "stderr"}


def _partial_notice(entry: Entry, cuts: dict[int, Cut]) -> str:
    """What stderr says after the bytes of an entry cut at the cap: the ranges it holds."""
    from rtok.store.archive import kept_ranges

    if not cuts:  # an entry written before tails were kept: its head only
        return (
            f"rtok expand: only the first {entry.stored_bytes} of {entry.raw_bytes} bytes"
            " of this output were archived (the per-entry cap)\n"
        )
    lines = [
        f"rtok expand: {_STREAM_NAMES.get(stream, 'output')}: the archive holds"
        f" {kept_ranges(cut)} ({cut.left_out} bytes between were counted, not archived;"
        " the marker line shows where)\n"
        for stream, cut in sorted(cuts.items())
    ]
    return "".join(lines)


def _one_entry(conn: sqlite3.Connection, entry_id: str) -> Entry | int:
    """The one entry `entry_id` (a prefix) names, or the exit status after saying that
    none or several do."""
    from rtok.store import archive

    entries = archive.find_entries(conn, entry_id)
    if not entries:
        sys.stderr.write(
            f"rtok expand: no archived output with id {entry_id}"
            " (it may have expired; see `rtok expand --list`)\n"
        )
        return 1
    if len({entry.id for entry in entries}) > 1:
        ids = ", ".join(str(entry.id) for entry in entries[:5])
        sys.stderr.write(f"rtok expand: {entry_id} is ambiguous: {ids}\n")
        return 2
    return entries[0]


class _Counter:
    """Bytes written back, for the ledger (what the agent reads again)."""

    __slots__ = ("bytes",)

    def __init__(self) -> None:
        self.bytes = 0


def _book_reread(entry_id: str, written: int) -> None:
    """Subtract what was written back from the saving of the run that archived it. Never
    fails the expand: the ledger is bookkeeping."""
    if written <= 0:
        return
    try:
        from rtok.store import host, ledger

        agent = host.agent()
        ledger.add_reread(entry_id, written, host.cap(agent), host.over_cap(agent))
    except Exception:
        pass


def _write_entry(
    conn: sqlite3.Connection, entry: Entry, options: Options, counter: _Counter
) -> int:
    """Write the entry's bytes the way `options` ask; the exit status."""
    from rtok.store import archive

    out = sys.stdout.buffer
    if _slicing(options):
        status = _write_lines(out, archive.iter_marked(conn, entry.key), options, counter)
        if status:
            return status
    elif options.merged:
        for chunk in archive.iter_marked(conn, entry.key):
            counter.bytes += len(chunk)
            out.write(chunk)
    else:
        _write_streams(conn, entry.key, counter)
    out.flush()
    return 0


def _write_streams(conn: sqlite3.Connection, key: int, counter: _Counter) -> None:
    """Each archived stream to its own fd (stderr's to fd 2)."""
    from rtok.store import archive

    for stream in archive.streams_of(conn, key):
        target = sys.stderr.buffer if stream == archive.STDERR else sys.stdout.buffer
        sys.stdout.flush()
        for chunk in archive.iter_marked(conn, key, stream):
            counter.bytes += len(chunk)
            target.write(chunk)
        target.flush()


def _lines(chunks: Iterable[bytes]) -> Iterator[bytes]:
    """Lines (with their end-of-line bytes) from a stream of chunks."""
    pending = b""
    for chunk in chunks:
        pending += chunk
        parts = pending.split(b"\n")
        pending = parts.pop()
        for part in parts:
            yield part + b"\n"
    if pending:
        yield pending


def _write_lines(
    out: BinaryIO, chunks: Iterable[bytes], options: Options, counter: _Counter
) -> int:
    pattern = None
    if options.grep is not None:
        import re

        try:
            pattern = re.compile(options.grep.encode("utf-8", "surrogateescape"))
        except re.error as exc:
            sys.stderr.write(f"rtok expand: bad --grep expression: {exc}\n")
            return 2
    shown = 0
    write = out.write
    for number, line in enumerate(_lines(chunks), start=1):
        if number < options.first:
            continue
        if pattern is not None:
            if pattern.search(line) is None:
                continue
            line = str(number).encode() + b":" + line
        counter.bytes += len(line)
        write(line)
        shown += 1
        if options.count is not None and shown >= options.count:
            break
    return 0


def _print_list(entries: list[Entry], cuts: dict[int, dict[int, Cut]]) -> None:
    out = sys.stdout
    for entry in entries:
        stamp = time.strftime("%Y-%m-%d %H:%M", time.localtime(entry.created))
        partial = "" if entry.complete else _partial_label(cuts.get(entry.key, {}))
        out.write(
            f"{entry.id}  {stamp}  {entry.lines:>7} lines  {entry.raw_bytes:>10} bytes"
            f"{partial}  {entry.command}\n"
        )


def _partial_label(cuts: dict[int, Cut]) -> str:
    """` (partial: stdout bytes 0-7864319 and 1071644672-1073741823 of 1073741824)`."""
    from rtok.store.archive import kept_ranges

    if not cuts:
        return " (partial)"
    named = len(cuts) > 1 or 0 not in cuts
    parts = [
        (f"{_STREAM_NAMES.get(stream, 'output')} " if named else "") + kept_ranges(cut)
        for stream, cut in sorted(cuts.items())
    ]
    return f" (partial: {'; '.join(parts)})"
