"""Reading the options of rtok's hot-path verbs (`filter`, `expand`), which do not load argparse.

Stdlib only (hot path).
"""

from __future__ import annotations


def option_value(args: list[str], index: int) -> tuple[str | None, int]:
    """The value of the option at `args[index]` (`--name=value` or `--name value`) and the
    index of its last word; None when the value is missing."""
    _, eq, inline = args[index].partition("=")
    if eq:
        return inline, index
    if index + 1 < len(args):
        return args[index + 1], index + 1
    return None, index
