"""`rtok filter --stdin --cmd CMD [--exit-code N]`: the rules of `rtok run` on piped input.

Stdlib only (hot path). Exits with N (default 0), so a pipeline keeps the command's status.
"""

from __future__ import annotations

import sys
import time

from rtok._fast.argv import option_value
from rtok.filter.pipeline import finish, new_capture, pump

USAGE = "usage: rtok filter --stdin --cmd COMMAND [--exit-code N]\n"
HELP = (
    USAGE
    + """
Shorten output piped in on stdin with the rules of `rtok run`, as if COMMAND had printed it
and exited with N (default 0: a failed command keeps its tail verbatim). The raw input is
archived first, so `rtok expand ID` gives it back byte for byte.

  some-tool | rtok filter --stdin --cmd "some-tool --all"
"""
)


def parse_args(args: list[str]) -> tuple[str, int] | str:
    """(command, exit code), or the error message for bad arguments."""
    stdin = False
    command: str | None = None
    exit_code = 0
    i = 0
    while i < len(args):
        arg = args[i]
        name = arg.partition("=")[0]
        if arg == "--stdin":
            stdin = True
        elif name in ("--cmd", "--exit-code"):
            value, i = option_value(args, i)
            if value is None:
                return f"{name} needs a value"
            if name == "--cmd":
                command = value
            else:
                try:
                    exit_code = int(value)
                except ValueError:
                    return f"--exit-code takes an integer, not {value!r}"
                if not 0 <= exit_code <= 255:
                    return f"--exit-code must be between 0 and 255, not {exit_code}"
        else:
            return f"unknown argument {arg!r}"
        i += 1
    if not stdin:
        return "rtok filter reads the output from stdin: pass --stdin"
    if not command:
        return "--cmd COMMAND is required (it picks the rule)"
    return command, exit_code


def main(args: list[str]) -> int:
    if args and args[0] in ("-h", "--help"):
        sys.stdout.write(HELP)
        return 0
    parsed = parse_args(args)
    if isinstance(parsed, str):
        sys.stderr.write(f"rtok filter: {parsed}\n{USAGE}")
        return 2
    command, exit_code = parsed
    from rtok.filter.family import family_of_command
    from rtok.filter.settings import load_settings

    settings = load_settings()
    family, words = family_of_command(command)
    started = time.monotonic()
    capture = new_capture(command, family, settings)
    pump(sys.stdin.fileno(), capture)
    exec_ms = int((time.monotonic() - started) * 1000)
    finish(capture, command, family, words, exit_code, exec_ms, "filter", settings)
    return exit_code
