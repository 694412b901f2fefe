"""The part `rtok run` and `rtok filter` share: capture, rule, render, ledger, print.

Stdlib only (hot path).
"""

from __future__ import annotations

import sys

from rtok._fast import oslite as os
from rtok.filter.capture import Capture
from rtok.filter.streams import STDERR_STREAM, TRAILER_BYTES

TYPE_CHECKING = False
if TYPE_CHECKING:
    from rtok.filter.render import Shown
    from rtok.filter.settings import Settings
    from rtok.store.ledger import Row

READ_BYTES = 256 * 1024
# Exit statuses that report a result, not a failure (`grep` found nothing, `diff` found
# differences): their output is shortened like a success's, and the status still propagates.
NOT_A_FAILURE = {"grep": 1, "egrep": 1, "fgrep": 1, "rg": 1, "diff": 1, "cmp": 1}


def new_captures(
    command: str, family: str, settings: Settings, streams: tuple[int, ...]
) -> list[Capture]:
    """One capture per archive stream; they share one archive writer, made when needed."""
    shared: list[object] = []

    def writer() -> object:
        if not shared:
            from rtok.store.archive import ArchiveWriter

            shared.append(ArchiveWriter(command, family, settings.max_entry_bytes))
        return shared[0]

    return [Capture(writer, stream) for stream in streams]


def new_capture(command: str, family: str, settings: Settings) -> Capture:
    return new_captures(command, family, settings, (0,))[0]


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


def finish(
    captures: Capture | list[Capture],
    command: str,
    family: str,
    words: list[str],
    exit_code: int,
    exec_ms: int,
    source: str,
    settings: Settings,
) -> None:
    """Shorten, archive, record and print one run's captured output (stdout and stderr
    apart, or one merged stream printed on stdout)."""
    if not isinstance(captures, list):
        captures = [captures]
    notices: list[str] = []
    cwd = _cwd()
    from rtok.store.ledger import Row

    total = sum(c.total for c in captures)
    row = Row(command, family, source, total, total, exec_ms, exit_code, cwd)
    if any(c.streaming or c.total > TRAILER_BYTES for c in captures):
        shown = _shorten(captures, family, words, exit_code, settings, cwd, notices, row)
    else:
        # Shorter than any trailer: nothing can be gained, so no rules are loaded.
        write_stdout(b"".join(c.data() for c in captures if c.stream != STDERR_STREAM))
        write_stderr(b"".join(c.data() for c in captures if c.stream == STDERR_STREAM))
        _record(row)
        return
    write_stdout(shown.out)
    write_stderr(shown.err)
    if notices:
        extra = f" (+{len(notices) - 1} more)" if len(notices) > 1 else ""
        _stderr(
            f"rtok: skipped malformed rule file {notices[0]}{extra}; see `rtok config validate`"
        )
    if shown.archive_id is None:  # else the row went into the archive's transaction
        row.shown_bytes = len(shown.out) + len(shown.err)
        _record(row)


def _record(row: Row) -> None:
    try:
        from rtok.store.ledger import append_pending

        append_pending(row)
    except Exception:
        # The ledger is bookkeeping; losing one row must not fail the command.
        pass


def _shorten(
    captures: list[Capture],
    family: str,
    words: list[str],
    exit_code: int,
    settings: Settings,
    cwd: str,
    notices: list[str],
    row: Row,
) -> Shown:
    # Loaded only for an output long enough to cut (hot path: a short run never pays for
    # the rules, the formatters or the renderer); none of them imports this module.
    from rtok.filter.dispatch import formatter_for
    from rtok.filter.layers import resolve_rule
    from rtok.filter.render import render

    try:
        rule = resolve_rule(family, cwd, notices)
    except Exception as exc:
        from rtok.filter.rule import default_rule

        notices.append(f"rules unavailable ({exc})")
        rule = default_rule(family)
    shown_as = 0 if NOT_A_FAILURE.get(family) == exit_code else exit_code
    return render(
        captures, rule, formatter_for(family, words), shown_as, settings, row.command, family, row
    )


def write_stdout(data: bytes) -> None:
    write_fd(1, data)


def write_stderr(data: bytes) -> None:
    write_fd(2, data)


def write_fd(fd: int, data: bytes) -> None:
    """Write all of `data` to `fd` (unbuffered: nothing of rtok's own is pending on it)."""
    view = memoryview(data)
    while view:
        try:
            view = view[os.write(fd, view) :]
        except InterruptedError:
            continue
        except BrokenPipeError:
            # The reader went away; keep the exit status of the command itself.
            try:
                devnull = os.open(os.devnull, os.O_WRONLY)
                os.dup2(devnull, fd)
                os.close(devnull)
            except OSError:
                pass
            return
        except OSError:
            return


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
