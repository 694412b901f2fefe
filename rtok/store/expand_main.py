"""`rtok expand ID [--full|--from N|--lines N|--grep RE]` and `rtok expand --list`.

Stdlib only. With no option (or `--full`) the archived bytes are written exactly as the
command produced them. `--from N` starts at line N (1-based), `--lines N` stops after N
lines, `--grep RE` prints matching lines as `N:line`. An id may be shortened to any unique
prefix of at least 4 hex digits.
"""

from __future__ import annotations

import sys
import time

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator
    from typing import BinaryIO

    from rtok.store.archive import Entry

USAGE = ("usage: rtok expand ID [--full | --from N | --lines N | --grep RE]\n"
         "       rtok expand --list\n")
HELP = USAGE + """
Print the raw output `rtok run` archived under ID (shown in its shortened result), byte for
byte. An ID prefix of at least 4 characters is enough when it is unique.

  --full        the whole output
  --from N      from line N on
  --lines N     N lines (with --from: from there)
  --grep RE     only the lines matching the regular expression RE
  --list        the archived outputs and their ids
"""
MIN_PREFIX = 4


class Options:
    __slots__ = ("count", "entry_id", "first", "full", "grep", "listing")

    def __init__(self) -> None:
        self.entry_id = ""
        self.full = False
        self.listing = False
        self.first = 1
        self.count: int | None = None
        self.grep: str | None = None


def parse_args(args: list[str]) -> Options | str:
    options = Options()
    i = 0
    while i < len(args):
        arg = args[i]
        name, eq, inline = arg.partition("=")
        if arg == "--full":
            options.full = True
        elif arg == "--list":
            options.listing = True
        elif name in ("--from", "--lines", "--grep"):
            if eq:
                value = inline
            elif i + 1 < len(args):
                i += 1
                value = args[i]
            else:
                return f"{name} needs a value"
            if name == "--grep":
                options.grep = value
            else:
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
        elif arg.startswith("-"):
            return f"unknown option {arg!r}"
        elif options.entry_id:
            return f"unexpected argument {arg!r}"
        else:
            options.entry_id = arg.lower()
        i += 1
    slicing = options.first != 1 or options.count is not None or options.grep is not None
    if options.full and slicing:
        return "--full prints everything; it cannot be combined with --from/--lines/--grep"
    if options.listing:
        if options.entry_id or options.full or slicing:
            return "--list takes no id and no other option"
        return options
    if not options.entry_id:
        return "an archive id is required (see `rtok expand --list`)"
    if len(options.entry_id) < MIN_PREFIX:
        return f"an id needs at least {MIN_PREFIX} characters"
    return options


def main(args: list[str]) -> int:
    if args and args[0] in ("-h", "--help"):
        sys.stdout.write(HELP)
        return 0
    parsed = parse_args(args)
    if isinstance(parsed, str):
        sys.stderr.write(f"rtok expand: {parsed}\n{USAGE}")
        return 2
    import os

    from rtok import paths
    from rtok.store import archive

    if not os.path.exists(paths.archive_db()):
        if parsed.listing:
            return 0
        sys.stderr.write(f"rtok expand: no archived output with id {parsed.entry_id}\n")
        return 1
    conn = archive.open_archive()
    try:
        if parsed.listing:
            _print_list(archive.list_entries(conn))
            return 0
        entries = archive.find_entries(conn, parsed.entry_id)
        if not entries:
            sys.stderr.write(f"rtok expand: no archived output with id {parsed.entry_id}"
                             " (it may have expired; see `rtok expand --list`)\n")
            return 1
        if len({entry.id for entry in entries}) > 1:
            ids = ", ".join(str(entry.id) for entry in entries[:5])
            sys.stderr.write(f"rtok expand: {parsed.entry_id} is ambiguous: {ids}\n")
            return 2
        entry = entries[0]
        chunks = archive.iter_raw(conn, entry.key)
        out = sys.stdout.buffer
        try:
            if parsed.grep is not None or parsed.first != 1 or parsed.count is not None:
                status = _write_lines(out, chunks, parsed)
                if status:
                    return status
            else:
                for chunk in chunks:
                    out.write(chunk)
            out.flush()
        except BrokenPipeError:
            return 0
        if not entry.complete:
            sys.stderr.write(
                f"rtok expand: only the first {entry.stored_bytes} of {entry.raw_bytes} bytes"
                " of this output were archived (the per-entry cap)\n")
        return 0
    finally:
        conn.close()


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


def _write_lines(out: BinaryIO, chunks: Iterable[bytes], options: Options) -> int:
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
            write(str(number).encode() + b":" + line)
        else:
            write(line)
        shown += 1
        if options.count is not None and shown >= options.count:
            break
    return 0


def _print_list(entries: list[Entry]) -> None:
    out = sys.stdout
    for entry in entries:
        stamp = time.strftime("%Y-%m-%d %H:%M", time.localtime(entry.created))
        partial = "" if entry.complete else " (partial)"
        out.write(f"{entry.id}  {stamp}  {entry.lines:>7} lines  {entry.raw_bytes:>10} bytes"
                  f"{partial}  {entry.command}\n")
