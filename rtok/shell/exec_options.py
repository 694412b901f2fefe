"""Where a program that runs commands of its own (`find -exec`, `fd -x`) starts the one it
runs, read the way that program reads its options.

Stdlib only (hot path): the permission gate (rtok.shell.readings) and the output-family
reader (rtok.filter.family) both use it, so what is judged is what is read.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

# The words that end the command an option runs (`find . -exec rm {} ;` or `... {} +`).
EXEC_ENDS = frozenset((";", "+"))


def command_end(values: Sequence[str | None], start: int) -> int:
    """Index of the word that ends the command starting at `start` (`len(values)` when
    none does)."""
    end = start
    while end < len(values) and values[end] not in EXEC_ENDS:
        end += 1
    return end


def command_start(
    exec_options: tuple[str, ...], value_letters: str, value: str | None
) -> str | None:
    """None when the word `value` is not an option that runs a command; else the start of
    the command given in the same word (`--exec=rm`, `-xrm`, `-Hx=rm`), or "" when the
    command starts at the next word. `value_letters` are the program's single-letter
    options that take a value: in a cluster, the first of them takes the rest of the word."""
    if value is None or not value.startswith("-"):
        return None
    if value in exec_options:
        return ""
    head, equals, rest = value.partition("=")
    if equals and head.startswith("--"):
        return rest if head in exec_options else None
    if value.startswith("--"):
        return None
    for j, letter in enumerate(value[1:], 1):
        if letter in value_letters:
            return value[j + 1 :].removeprefix("=") if f"-{letter}" in exec_options else None
    return None
