"""Formatters in code: one function per output shape, None when the shape is not theirs.

Which formatter reads which command's output is data: rules/formatters.toml. Stdlib only
(hot path): the types below exist for mypy alone.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Protocol

    class Formatter(Protocol):
        """A reader of one output shape: the lines to show, or None when the shape is
        not its own."""

        def __call__(self, text: str, /) -> list[str] | None: ...

    class Complete(Formatter, Protocol):
        """A formatter declared complete (`declare_complete`): what the engine reads."""

        complete: bool
        protects: Callable[[str], bool]


def declare_complete(formatter: Formatter, protects: Callable[[str], bool] | None = None) -> None:
    """Declare that `formatter`'s output already names everything and is cut within its own
    budget (the engine's head/tail cut does not follow it), and, when given, which raw lines
    the engine must find in that output (`protects`; the default is every protected line).
    The engine reads both as the attributes of `Complete`."""
    from rtok.filter.protect import is_protected

    formatter.__dict__.update(complete=True, protects=protects or is_protected)


def declare_reads_failures(formatter: Formatter) -> None:
    """Declare that `formatter` reads a failed run's output as it reads a passing one's
    (grep exits 2 when a file is missing, after printing every hit of the others): the
    engine gives it that output instead of showing the verbatim tail."""
    formatter.__dict__.update(reads_failures=True)


def reads_failures(formatter: object) -> bool:
    return getattr(formatter, "reads_failures", False) is True
