"""The rule record and the schema every rule table is checked against.

Stdlib only (hot path). A rule table is a plain dict from TOML; `check_table` names the
first problem in it, `Rule.from_table` builds the record the engine uses.
"""

from __future__ import annotations

from rtok._fast import regex

TYPE_CHECKING = False
if TYPE_CHECKING:
    from re import Pattern
    from typing import TypedDict, TypeGuard

    class RuleTable(TypedDict, total=False):
        """One rule table as a rule file holds it, once `check_table` accepted it."""

        max_lines: int
        head: int
        tail: int
        drop: list[str]
        keep: list[str]
        dedupe: bool
        group: bool
        json_items: int
        json_string: int

    # family -> its table: what a rule file holds (rules/default.toml, user and project files)
    RuleTables = dict[str, RuleTable]

# field -> (type name, default). The defaults are the rule an unknown family gets (the same
# figures as `Rule.from_table`'s, which tests/filter/test_rules.py holds together).
FIELDS: dict[str, tuple[str, object]] = {
    "max_lines": ("int", 40),
    "head": ("int", 10),
    "tail": ("int", 10),
    "drop": ("regex_list", []),
    "keep": ("regex_list", []),
    "dedupe": ("bool", True),
    "group": ("bool", False),
    "json_items": ("int", 5),
    "json_string": ("int", 200),
}

# Table names that are not a command's first word: chains, MCP results, and the rule for
# every family without a table of its own.
SPECIAL_FAMILIES = frozenset({"script", "mcp", "default"})

_FAMILY_NAME = regex.compile(r"^[A-Za-z0-9_.+-]+$")


def check_family_name(name: str) -> str | None:
    if not _FAMILY_NAME.match(name):
        return f"table [{name}] is not a command name (letters, digits, _ . + - only)"
    return None


def check_table(family: str, table: object) -> str | None:
    """The first reason `table` is not a valid rule for `family`, or None when it is."""
    problem = check_family_name(family)
    if problem:
        return problem
    if not isinstance(table, dict):
        return f"[{family}] must be a table, not a {type(table).__name__}"
    for key, value in table.items():
        spec = FIELDS.get(key)
        if spec is None:
            known = ", ".join(FIELDS)
            return f"[{family}] unknown field {key!r} (known: {known})"
        problem = check_value(spec[0], value)
        if problem:
            return f"[{family}] {key}: {problem}"
    merged = {name: table.get(name, spec[1]) for name, spec in FIELDS.items()}
    head, tail, max_lines = merged["head"], merged["tail"], merged["max_lines"]
    assert isinstance(head, int) and isinstance(tail, int) and isinstance(max_lines, int)
    if head + tail > max_lines:
        return f"[{family}] head + tail ({head} + {tail}) is larger than max_lines ({max_lines})"
    return None


def is_rule_table(table: object, family: str) -> TypeGuard[RuleTable]:
    """Whether `table` is a valid rule for `family` (`check_table` says why not)."""
    return check_table(family, table) is None


def check_value(kind: str, value: object) -> str | None:
    if kind == "int":
        if isinstance(value, bool) or not isinstance(value, int):
            return f"expected an integer, got {_type_name(value)}"
        if value < 0:
            return "must not be negative"
        return None
    if kind == "bool":
        if not isinstance(value, bool):
            return f"expected true or false, got {_type_name(value)}"
        return None
    if not isinstance(value, list):
        return f"expected a list of regular expressions, got {_type_name(value)}"
    for item in value:
        if not isinstance(item, str):
            return f"expected a list of regular expressions, found {_type_name(item)}"
        import re  # validating a changed rule file, not a run's work

        try:
            re.compile(item)
        except re.error as exc:
            return f"bad regular expression {item!r}: {exc}"
    return None


def _type_name(value: object) -> str:
    names = {
        bool: "a boolean",
        int: "an integer",
        float: "a float",
        str: "a string",
        list: "an array",
        dict: "a table",
    }
    return names.get(type(value), type(value).__name__)


class Rule:
    """One family's rule, with its patterns compiled."""

    __slots__ = (
        "dedupe",
        "drop",
        "family",
        "group",
        "head",
        "json_items",
        "json_string",
        "keep",
        "max_lines",
        "source",
        "tail",
    )

    family: str
    source: str
    max_lines: int
    head: int
    tail: int
    drop: Pattern[str] | None
    keep: Pattern[str] | None
    dedupe: bool
    group: bool
    json_items: int
    json_string: int

    @classmethod
    def from_table(cls, family: str, table: RuleTable, source: str) -> Rule:
        """The rule of a checked table (`check_table`), its unset fields from FIELDS."""
        rule = cls()
        rule.family = family
        rule.source = source
        rule.max_lines = table.get("max_lines", 40)
        rule.head = table.get("head", 10)
        rule.tail = table.get("tail", 10)
        rule.drop = _combine(table.get("drop", []))
        rule.keep = _combine(table.get("keep", []))
        rule.dedupe = table.get("dedupe", True)
        rule.group = table.get("group", False)
        rule.json_items = table.get("json_items", 5)
        rule.json_string = table.get("json_string", 200)
        return rule


def default_rule(family: str) -> Rule:
    return Rule.from_table(family, {}, "default")


def _combine(patterns: list[str]) -> Pattern[str] | None:
    if not patterns:
        return None
    return regex.compile("|".join(f"(?:{p})" for p in patterns))
