"""The rule's head/tail cut and a failed command's tail (stdlib only, hot path).

Below the engine and the composite reader, which both cut with them: the composite reader
shows a failed run's unclaimed lines through `fail_tail` without importing the engine.
"""

from __future__ import annotations

from rtok.filter.protect import is_protected
from rtok.filter.textlines import cut_middle

TYPE_CHECKING = False
if TYPE_CHECKING:
    from rtok.filter.rule import Rule


def keeps(rule: Rule, line: str) -> bool:
    """True for a line no cut may remove: protected, or matching the rule's `keep`."""
    return is_protected(line) or (rule.keep is not None and rule.keep.search(line) is not None)


def cut_lines(lines: list[str], rule: Rule, head: int, tail: int, max_lines: int) -> list[str]:
    """Head and tail kept, protected/kept lines of the middle kept, the rest counted."""
    if len(lines) <= max_lines:
        return lines
    return cut_middle(lines, head, tail, lambda line: keeps(rule, line))


def fail_tail(lines: list[str], rule: Rule, tail_lines: int) -> list[str]:
    """A failed command: its last `tail_lines` lines verbatim, protected lines before them."""
    if len(lines) <= tail_lines:
        return lines
    return cut_lines(lines, rule, 0, tail_lines, tail_lines)
