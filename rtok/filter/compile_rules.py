"""Generators of rtok/compiled/default_rules.py (from rules/default.toml) and
rtok/compiled/protect_hints.py (from the protected-line catalogue); build time only."""

from __future__ import annotations

from rtok import resources
from rtok.filter.ruleparse import parse_rule_bytes
from rtok.generated import HEADER, render_module


def compile_rules() -> str:
    parsed = parse_rule_bytes(resources.read_bytes("rules", "default.toml"))
    if "error" in parsed:
        raise ValueError(f"rules/default.toml: {parsed['error']}")
    return render_module("rules/default.toml", "RULES", parsed["rules"])


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
