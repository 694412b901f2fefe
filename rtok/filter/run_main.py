"""`rtok run [--] CMD...`: run a command, archive its raw output, print the shortened result.

Stdlib only (hot path). argv is executed as given (no shell), started with
`os.posix_spawnp` (the `subprocess` module alone costs more to import than the rest of a
run). The command's stdout and stderr stay apart: each goes to a pipe of its own, is
shortened by the same rules, and is printed on rtok's stdout and stderr respectively, so
redirections written after `rtok run CMD` act on the same bytes as they did on CMD. When
rtok's stdout and stderr are the same file or pipe (the agent ran the command with `2>&1`),
the command gets one pipe for both: the archive then holds the output in the order it was
written, and the result goes to stdout, which is where both streams were going anyway.

Signals sent to rtok are passed to the command; a command killed by signal N exits 128+N,
like in a shell.
"""

from __future__ import annotations

import sys
import time

from rtok._fast import oslite as os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from rtok.filter.capture import Capture

USAGE = "usage: rtok run [--] COMMAND [ARGS...]\n"
HELP = (
    USAGE
    + """
Run COMMAND, archive its raw output, and print a shortened form of it (the output rules of
`rtok config show` decide how). The exit status is COMMAND's own; stdout and stderr stay on
their own streams. A shortened result ends with the line to see everything again
(`rtok expand ID`). A failed command prints its last lines verbatim.

Coding agents call this through the hook `rtok init` installs; run it yourself to see what
an agent would read. Put `--` before a COMMAND that starts with a dash.
"""
)
FORWARDED = ("SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT", "SIGUSR1", "SIGUSR2", "SIGWINCH")
# Python ignores SIGPIPE (and SIGXFSZ); a command must start with the defaults, as from a
# shell.
RESET_SIGNALS = ("SIGPIPE", "SIGXFSZ")
MERGED, STDOUT, STDERR = 0, 1, 2


def main(args: list[str]) -> int:
    if args and args[0] == "--":
        args = args[1:]
    elif args and args[0] in ("-h", "--help"):
        sys.stdout.write(HELP)
        return 0
    if not args:
        sys.stderr.write(USAGE)
        return 2
    from rtok.filter.family import family_of
    from rtok.filter.pipeline import finish, join_command, new_captures
    from rtok.filter.settings import load_settings

    settings = load_settings()
    command = join_command(args)
    family, words = family_of(args)
    merged = same_destination(1, 2)
    started = time.monotonic()
    spawned = spawn(args, merged)
    if isinstance(spawned, int):
        return spawned
    pid, fds = spawned
    streams = (MERGED,) if merged else (STDOUT, STDERR)
    captures = new_captures(command, family, settings, streams)
    previous = _forward_signals(pid)
    try:
        status = pump_child(pid, dict(zip(fds, captures, strict=True)))
    finally:
        for fd in fds:
            os.close(fd)
        _restore_signals(previous)
    exec_ms = int((time.monotonic() - started) * 1000)
    exit_code = status if status >= 0 else 128 - status
    finish(captures, command, family, words, exit_code, exec_ms, "run", settings)
    if status < 0:
        sys.stderr.write(f"rtok: {args[0]} was killed by {_signal_name(-status)}\n")
    return exit_code


def same_destination(a: int, b: int) -> bool:
    """Do fds `a` and `b` lead to the same file or pipe?"""
    try:
        sa, sb = os.fstat(a), os.fstat(b)
    except OSError:
        return False
    return (sa.st_dev, sa.st_ino) == (sb.st_dev, sb.st_ino)


def spawn(args: list[str], merged: bool) -> tuple[int, list[int]] | int:
    """Start `args` with its stdout and stderr on pipes (one shared pipe when `merged`):
    (pid, read ends), or the exit status to return when it cannot start."""
    _signal = _signals()

    pipes = [os.pipe()] if merged else [os.pipe(), os.pipe()]
    writes = [pipes[0][1], pipes[0][1]] if merged else [pipes[0][1], pipes[1][1]]
    actions = [(os.POSIX_SPAWN_DUP2, writes[0], 1), (os.POSIX_SPAWN_DUP2, writes[1], 2)]
    defaults = [getattr(_signal, name) for name in RESET_SIGNALS if hasattr(_signal, name)]
    try:
        pid = os.posix_spawnp(args[0], args, os.environ, file_actions=actions, setsigdef=defaults)
    except OSError as exc:
        for read_end, write_end in pipes:
            os.close(read_end)
            os.close(write_end)
        if isinstance(exc, FileNotFoundError):
            sys.stderr.write(f"rtok: {args[0]}: command not found\n")
            return 127
        if isinstance(exc, PermissionError):
            sys.stderr.write(f"rtok: {args[0]}: permission denied\n")
            return 126
        sys.stderr.write(f"rtok: {args[0]}: {exc.strerror or exc}\n")
        return 126
    for _read_end, write_end in pipes:
        os.close(write_end)
    return pid, [read_end for read_end, _write_end in pipes]


# Once the command has exited, output still arriving is drained until the pipes have been
# quiet this long. A background process it left behind may hold a pipe open for ever;
# a shell would not wait for it either.
QUIET_AFTER_EXIT_S = 0.5
READ_BYTES = 256 * 1024


def pump_child(pid: int, captures: dict[int, Capture]) -> int:
    """Read the command's pipes into their captures until EOF on all of them, or until the
    command has exited and the pipes stay quiet; then its wait status as an exit code
    (negative: killed by that signal)."""
    import select

    poller = select.poll()
    for fd in captures:
        poller.register(fd, select.POLLIN)
    open_fds = len(captures)
    status: int | None = None
    read = os.read
    while open_fds:
        if status is None:
            status = _reap(pid, os.WNOHANG)
        timeout = QUIET_AFTER_EXIT_S if status is not None else 0.25
        try:
            events = poller.poll(int(timeout * 1000))
        except InterruptedError:
            continue
        if not events:
            if status is not None:
                break
            continue
        for fd, _event in events:
            try:
                chunk = read(fd, READ_BYTES)
            except InterruptedError:
                continue
            except OSError:
                chunk = b""
            if chunk:
                captures[fd].feed(chunk)
            else:
                poller.unregister(fd)
                open_fds -= 1
    if status is None:
        status = _reap(pid, 0)
    return status if status is not None else 1


def _reap(pid: int, flags: int) -> int | None:
    """The exit code of `pid` once it has ended (None while it runs)."""
    while True:
        try:
            done, wait_status = os.waitpid(pid, flags)
        except InterruptedError:
            continue
        except ChildProcessError:
            return 1
        if done == 0:
            return None
        return os.waitstatus_to_exitcode(wait_status)


def _forward_signals(pid: int) -> dict[int, object]:
    _signal = _signals()

    previous: dict[int, object] = {}

    def forward(signum: int, _frame: object) -> None:
        if signum in terminal and _terminal_signals_reach_child():
            return  # the terminal already sent it to the whole foreground group
        try:  # noqa: SIM105 (contextlib costs start-up time)
            os.kill(pid, signum)
        except OSError:
            pass

    # Signals a terminal sends to its whole foreground group (no SIGQUIT on Windows).
    terminal = tuple(
        getattr(_signal, name) for name in ("SIGINT", "SIGQUIT") if hasattr(_signal, name)
    )
    for name in FORWARDED:
        signum = getattr(_signal, name, None)
        if signum is None:
            continue
        try:  # noqa: SIM105 (contextlib costs start-up time)
            previous[signum] = _signal.signal(signum, forward)
        except (OSError, ValueError):
            pass
    return previous


def _terminal_signals_reach_child() -> bool:
    """True when we run in the terminal's foreground group (the child shares it), so a
    Ctrl-C or Ctrl-\\ reached the child directly and must not be delivered twice."""
    try:
        return os.tcgetpgrp(sys.stdin.fileno()) == os.getpgrp()
    except (OSError, ValueError, AttributeError):
        return False


def _restore_signals(previous: dict[int, object]) -> None:
    _signal = _signals()

    for signum, handler in previous.items():
        try:  # noqa: SIM105 (contextlib costs start-up time)
            _signal.signal(signum, handler)
        except (OSError, ValueError, TypeError):
            pass


def _signals() -> Any:
    """The `_signal` extension: `signal` itself builds enums at import, which costs time."""
    return __import__("_signal")


def _signal_name(signum: int) -> str:
    import signal

    try:
        return signal.Signals(signum).name
    except ValueError:
        return f"signal {signum}"
