"""Generators of rtok/compiled/default_rules.py (from rules/default.toml and
rules/formatters.toml) and rtok/compiled/protect_hints.py (from the protected-line
catalogue); build time only."""

from __future__ import annotations

from rtok import resources
from rtok.filter.ruleparse import parse_rule_bytes
from rtok.generated import HEADER


def compile_rules() -> str:
    import pprint

    from rtok.filter.compile_formatters import dispatch_text

    parsed = parse_rule_bytes(resources.read_bytes("rules", "default.toml"))
    if "error" in parsed:
        raise ValueError(f"rules/default.toml: {parsed['error']}")
    # Annotated, so that mypy checks the literal against the rule schema (a string: the
    # module never imports typing).
    body = pprint.pformat(parsed["rules"], width=100, sort_dicts=True)
    return (
        HEADER.format(source="rules/default.toml (RULES)\nand rules/formatters.toml (DISPATCH)")
        + _TYPES
        + f"RULES = {body}\n"
        + dispatch_text()
    )


_TYPES = """TYPE_CHECKING = False
if TYPE_CHECKING:
    from rtok.filter.rule import RuleTables

RULES: "RuleTables"
"""


def compile_protect_hints() -> str:
    """rtok/compiled/protect_hints.py: the hint tables derived from protect.CATALOGUE."""
    import pprint

    from rtok.filter.protect import hint_tables

    hints, checks = hint_tables()
    return (
        HEADER.format(source="rtok/filter/protect.py (CATALOGUE)")
        + f"HINTS = {pprint.pformat(hints, width=100)}\n"
        + f"HINT_CHECKS = {pprint.pformat(checks, width=100)}\n"
    )
