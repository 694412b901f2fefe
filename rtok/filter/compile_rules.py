"""Generator of rtok/compiled/default_rules.py from rules/default.toml (build time only)."""

from __future__ import annotations

from rtok import resources
from rtok.filter.ruleparse import parse_rule_bytes


def compile_rules() -> str:
    from rtok.build import render_module

    parsed = parse_rule_bytes(resources.read_bytes("rules", "default.toml"))
    if "error" in parsed:
        raise ValueError(f"rules/default.toml: {parsed['error']}")
    return render_module("rules/default.toml", "RULES", parsed["rules"])
