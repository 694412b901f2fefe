"""How the typer verbs print: colour on a terminal only, and quiet when the reader leaves.

Colour: a few roles (a check's status word, a diff's added and removed lines), used only
when the stream is a terminal, `NO_COLOR` is empty or unset (https://no-color.org) and
`--no-color` was not given. `--no-color` sets `NO_COLOR` in rtok's own environment, so the
prompts (prompt_toolkit reads it) and anything rtok starts drop colour as well.

A closed reader (`rtok agents | head -1`): once a write to stdout fails with EPIPE, stdout
is pointed at /dev/null, so the verb finishes what it was doing (an install is never cut
in half by a pager) without a message or a traceback, and what it would still have printed
goes nowhere. The hot-path verbs do not import this module (see rtok/cli/entry.py).
"""

from __future__ import annotations

import io
import os
import sys
from typing import TextIO

# role -> SGR parameters
_ROLES = {
    "pass": "32",  # green
    "fail": "31;1",  # bold red
    "warn": "33",  # yellow
    "skip": "2",  # dim
    "added": "32",
    "removed": "31",
    "hunk": "36",  # cyan
    "header": "1",  # bold
    "name": "1",
}
# A check's status word -> its role.
LEVEL_ROLES = {"PASS": "pass", "FAIL": "fail", "WARN": "warn", "SKIP": "skip"}

_disabled = [False]
_reader_gone = [False]


def disable_colour() -> None:
    """`--no-color`: no colour from rtok, its prompts or what it starts."""
    _disabled[0] = True
    os.environ["NO_COLOR"] = "1"


def colour_enabled(stream: TextIO | None = None) -> bool:
    if _disabled[0] or os.environ.get("NO_COLOR"):
        return False
    target = sys.stdout if stream is None else stream
    try:
        return bool(target.isatty())
    except (AttributeError, ValueError, OSError):
        return False


def style(text: str, role: str, stream: TextIO | None = None) -> str:
    """`text` in the colour of `role` when `stream` (stdout) shows colour, else as is."""
    code = _ROLES.get(role)
    if code is None or not text or not colour_enabled(stream):
        return text
    return f"\x1b[{code}m{text}\x1b[0m"


def level(word: str, width: int = 4, stream: TextIO | None = None) -> str:
    """A status word (PASS, FAIL, WARN, SKIP) padded to `width`, in its colour."""
    padded = f"{word:<{width}}"
    role = LEVEL_ROLES.get(word)
    if role is None:
        return padded
    return style(word, role, stream) + padded[len(word) :]


def diff_line(line: str, stream: TextIO | None = None) -> str:
    """One line of a unified diff in the colour of its kind (its end of line kept
    outside the colour)."""
    body = line.rstrip("\r\n")
    end = line[len(body) :]
    if body.startswith(("+++ ", "--- ")):
        role = "header"
    elif body.startswith("@@"):
        role = "hunk"
    elif body.startswith("+"):
        role = "added"
    elif body.startswith("-"):
        role = "removed"
    else:
        return line
    return style(body, role, stream) + end


class _DiffColours(io.TextIOBase):
    """A text stream that colours the unified-diff lines written through it."""

    def __init__(self, stream: TextIO) -> None:
        super().__init__()
        self._stream = stream

    def write(self, text: str) -> int:
        self._stream.write(
            "".join(diff_line(line, self._stream) for line in text.splitlines(keepends=True))
        )
        return len(text)

    def flush(self) -> None:
        self._stream.flush()

    def isatty(self) -> bool:
        return self._stream.isatty()

    def fileno(self) -> int:
        return self._stream.fileno()


def coloured_diffs(stream: TextIO) -> TextIO:
    """`stream`, with the diff lines written to it in colour when it shows colour."""
    if not colour_enabled(stream):
        return stream
    wrapped: TextIO = _DiffColours(stream)  # type: ignore[assignment]
    return wrapped


class _QuietWhenClosed(io.FileIO):
    """fd 1; once its reader is gone, every write goes to /dev/null."""

    def write(self, data: object) -> int:
        view = memoryview(data)  # type: ignore[arg-type]
        try:
            return super().write(view) or 0
        except BrokenPipeError:
            reader_gone()
            return view.nbytes


def reader_gone() -> None:
    """Point stdout at /dev/null: nothing more is said to a reader that left."""
    from rtok.cli.process import stdout_to_devnull

    _reader_gone[0] = True
    stdout_to_devnull()


def was_reader_gone() -> bool:
    return _reader_gone[0]


def guard_stdout() -> None:
    """Make EPIPE on stdout quiet (see the module doc). A terminal has no closing reader:
    stdout stays as it is there, so the prompts get the real stream."""
    current = sys.stdout
    try:
        if current is None or current.isatty() or current.fileno() != 1:
            return
        current.flush()
    except (AttributeError, ValueError, OSError):
        return
    raw = _QuietWhenClosed(1, "w", closefd=False)
    sys.stdout = io.TextIOWrapper(
        io.BufferedWriter(raw),
        encoding=current.encoding,
        errors=current.errors,
        line_buffering=bool(current.line_buffering),
    )


def finish_stdout() -> None:
    """Flush stdout before the interpreter does; a reader that left is noted."""
    from rtok.cli.process import flush_stdout

    flush_stdout(reader_gone)
