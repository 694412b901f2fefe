"""`rtok run [--] CMD...`: run a command, archive its raw output, print the shortened result.

Stdlib only (hot path). argv is executed as given (no shell). stdout and stderr share one
pipe, so the archive holds the output in the order the command wrote it, exactly as a
terminal or an agent's shell tool would have received it. Signals sent to rtok are passed
to the command; a command killed by signal N exits 128+N, like in a shell.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

from rtok.filter.pipeline import finish, join_command, new_capture

TYPE_CHECKING = False
if TYPE_CHECKING:
    from rtok.filter.capture import Capture

USAGE = "usage: rtok run [--] COMMAND [ARGS...]\n"
HELP = USAGE + """
Run COMMAND, archive its raw output, and print a shortened form of it (the output rules of
`rtok config show` decide how). The exit status is COMMAND's own; stdout and stderr stay on
their own streams. A shortened result ends with the line to see everything again
(`rtok expand ID`). A failed command prints its last lines verbatim.

Coding agents call this through the hook `rtok init` installs; run it yourself to see what
an agent would read. Put `--` before a COMMAND that starts with a dash.
"""
FORWARDED = ("SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT", "SIGUSR1", "SIGUSR2", "SIGWINCH")


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
    from rtok.filter.settings import load_settings

    settings = load_settings()
    command = join_command(args)
    family, words = family_of(args)
    started = time.monotonic()
    try:
        child = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    except FileNotFoundError:
        sys.stderr.write(f"rtok: {args[0]}: command not found\n")
        return 127
    except PermissionError:
        sys.stderr.write(f"rtok: {args[0]}: permission denied\n")
        return 126
    except OSError as exc:
        sys.stderr.write(f"rtok: {args[0]}: {exc.strerror or exc}\n")
        return 126
    previous = _forward_signals(child)
    capture = new_capture(command, family, settings)
    assert child.stdout is not None
    try:
        pump_child(child, capture)
    finally:
        child.stdout.close()
        status = _wait(child)
        _restore_signals(previous)
    exec_ms = int((time.monotonic() - started) * 1000)
    exit_code = status if status >= 0 else 128 - status
    if status < 0:
        capture.feed(b"")
    finish(capture, command, family, words, exit_code, exec_ms, "run", settings)
    if status < 0:
        sys.stderr.write(f"rtok: {args[0]} was killed by {_signal_name(-status)}\n")
    return exit_code


# Once the command has exited, output still arriving is drained until the pipe has been
# quiet this long. A background process it left behind may hold the pipe open for ever;
# a shell would not wait for it either.
QUIET_AFTER_EXIT_S = 0.5
READ_BYTES = 256 * 1024


def pump_child(child: subprocess.Popen[bytes], capture: Capture) -> None:
    """Read the command's output into `capture` until EOF, or until the command has exited
    and the pipe stays quiet."""
    import selectors

    assert child.stdout is not None
    fd = child.stdout.fileno()
    selector = selectors.DefaultSelector()
    selector.register(fd, selectors.EVENT_READ)
    read = os.read
    feed = capture.feed
    try:
        while True:
            exited = child.poll() is not None
            if not selector.select(QUIET_AFTER_EXIT_S if exited else 0.25):
                if exited:
                    return
                continue
            try:
                chunk = read(fd, READ_BYTES)
            except InterruptedError:
                continue
            if not chunk:
                return
            feed(chunk)
    finally:
        selector.close()


def _wait(child: subprocess.Popen[bytes]) -> int:
    while True:
        try:
            return child.wait()
        except KeyboardInterrupt:
            continue


def _forward_signals(child: subprocess.Popen[bytes]) -> dict[int, object]:
    previous: dict[int, object] = {}

    def forward(signum: int, _frame: object) -> None:
        if signum in _TERMINAL_SIGNALS and _terminal_signals_reach_child():
            return  # the terminal already sent it to the whole foreground group
        try:  # noqa: SIM105 (contextlib costs start-up time)
            os.kill(child.pid, signum)
        except OSError:
            pass

    for name in FORWARDED:
        signum = getattr(signal, name, None)
        if signum is None:
            continue
        try:  # noqa: SIM105 (contextlib costs start-up time)
            previous[signum] = signal.signal(signum, forward)
        except (OSError, ValueError):
            pass
    return previous


# Signals a terminal sends to its whole foreground group (SIGQUIT does not exist on Windows).
_TERMINAL_SIGNALS = tuple(getattr(signal, name) for name in ("SIGINT", "SIGQUIT")
                          if hasattr(signal, name))


def _terminal_signals_reach_child() -> bool:
    """True when we run in the terminal's foreground group (the child shares it), so a
    Ctrl-C or Ctrl-\\ reached the child directly and must not be delivered twice."""
    try:
        return os.tcgetpgrp(sys.stdin.fileno()) == os.getpgrp()
    except (OSError, ValueError, AttributeError):
        return False


def _restore_signals(previous: dict[int, object]) -> None:
    for signum, handler in previous.items():
        try:  # noqa: SIM105 (contextlib costs start-up time)
            signal.signal(signum, handler)  # type: ignore[arg-type]
        except (OSError, ValueError, TypeError):
            pass


def _signal_name(signum: int) -> str:
    try:
        return signal.Signals(signum).name
    except ValueError:
        return f"signal {signum}"
