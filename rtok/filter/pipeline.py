"""The part `rtok run` and `rtok filter` share: capture, rule, render, ledger, print.

Stdlib only (hot path).
"""

from __future__ import annotations

import os
import sys

from rtok.filter.capture import Capture

TYPE_CHECKING = False
if TYPE_CHECKING:
    from rtok.filter.settings import Settings

READ_BYTES = 256 * 1024
# A shortened result carries a trailer of at least this many bytes, so output this small
# can never be shortened (never_worse) and is printed as it is.
TRAILER_BYTES = 64
# Exit statuses that report a result, not a failure (`grep` found nothing, `diff` found
# differences): their output is shortened like a success's, and the status still propagates.
NOT_A_FAILURE = {"grep": 1, "egrep": 1, "fgrep": 1, "rg": 1, "diff": 1, "cmp": 1}


def new_capture(command: str, family: str, settings: Settings) -> Capture:
    def writer() -> object:
        from rtok.store.archive import ArchiveWriter

        return ArchiveWriter(command, family, settings.max_entry_bytes)

    return Capture(writer)


def pump(fd: int, capture: Capture) -> None:
    """Read `fd` to its end into `capture`."""
    read = os.read
    feed = capture.feed
    while True:
        try:
            chunk = read(fd, READ_BYTES)
        except InterruptedError:
            continue
        if not chunk:
            return
        feed(chunk)


def finish(capture: Capture, command: str, family: str, words: list[str], exit_code: int,
           exec_ms: int, source: str, settings: Settings) -> None:
    """Shorten, archive, record and print one captured output."""
    notices: list[str] = []
    cwd = _cwd()
    if capture.total and (capture.streaming or capture.total > TRAILER_BYTES):
        shown_data, archive_id = _shorten(capture, command, family, words, exit_code, settings,
                                          cwd, notices)
    else:
        # Shorter than any trailer: nothing can be gained, so no rules are loaded.
        shown_data, archive_id = capture.data(), None
    write_stdout(shown_data)
    if notices:
        extra = f" (+{len(notices) - 1} more)" if len(notices) > 1 else ""
        _stderr(f"rtok: skipped malformed rule file {notices[0]}{extra};"
                " see `rtok config validate`")
    try:
        from rtok.store.ledger import record

        record(command, family, source, capture.total, len(shown_data), exec_ms, exit_code,
               cwd, archive_id)
    except Exception:
        # The ledger is bookkeeping; losing one row must not fail the command.
        pass


def _shorten(capture: Capture, command: str, family: str, words: list[str], exit_code: int,
             settings: Settings, cwd: str, notices: list[str]) -> tuple[bytes, str | None]:
    from rtok.filter.family import formatter_for
    from rtok.filter.layers import resolve_rule
    from rtok.filter.render import render

    try:
        rule = resolve_rule(family, cwd, notices)
    except Exception as exc:
        from rtok.filter.rule import default_rule

        notices.append(f"rules unavailable ({exc})")
        rule = default_rule(family)
    shown_as = 0 if NOT_A_FAILURE.get(family) == exit_code else exit_code
    shown = render(capture, rule, formatter_for(family, words), shown_as, settings, command,
                   family)
    return shown.data, shown.archive_id


def write_stdout(data: bytes) -> None:
    if not data:
        return
    try:
        out = sys.stdout.buffer
        out.write(data)
        out.flush()
    except BrokenPipeError:
        # The reader went away; keep the exit status of the command itself.
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        except OSError:
            pass
    except (OSError, ValueError):
        pass


def _stderr(message: str) -> None:
    try:
        sys.stderr.write(message + "\n")
        sys.stderr.flush()
    except (OSError, ValueError):
        pass


def _cwd() -> str:
    try:
        return os.path.realpath(os.getcwd())
    except OSError:
        return ""


def join_command(argv: list[str]) -> str:
    """argv as one readable shell-like string (quoted only where needed)."""
    safe = set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789@%+=:,./-_")
    parts = []
    for word in argv:
        if word and all(c in safe for c in word):
            parts.append(word)
        else:
            parts.append("'" + word.replace("'", "'\"'\"'") + "'")
    return " ".join(parts)
