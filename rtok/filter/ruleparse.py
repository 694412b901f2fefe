"""Parse one rule file into rule tables, or into the reason it is malformed.

`tomllib` is imported inside `parse_rule_bytes`, which the hot path only reaches through
`rtok._fast.cachefile` when a file changed. The result is JSON-serialisable so it can be cached:
`{"rules": {family: table}}` or `{"error": "line N: reason"}`.
"""

from __future__ import annotations

import re

from rtok.filter.rule import check_table, is_rule_table

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import TypedDict

    from rtok.filter.rule import RuleTables

    class ParsedRules(TypedDict, total=False):
        """A rule file's tables, or the line-numbered reason it is malformed (JSON-safe:
        the cache keeps it)."""

        rules: RuleTables
        error: str


_TOML_POSITION = re.compile(r"\(at line (\d+), column \d+\)")


def parse_rule_bytes(data: bytes) -> ParsedRules:
    import tomllib

    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        return {"error": f"byte {exc.start}: not valid UTF-8"}
    try:
        document = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        message = str(exc)
        found = _TOML_POSITION.search(message)
        reason = _TOML_POSITION.sub("", message).strip()
        line = found.group(1) if found else "?"
        return {"error": f"line {line}: broken TOML: {reason}"}
    tables: RuleTables = {}
    for family, table in document.items():
        if not is_rule_table(table, family):
            problem = check_table(family, table)
            return {"error": f"line {_line_of(text, family, table)}: {problem}"}
        tables[family] = table
    return {"rules": tables}


def _line_of(text: str, family: str, table: object) -> int:
    """Best line number for a problem in `family`: the bad key's line, else the header."""
    lines = text.splitlines()
    header = re.compile(r"^\s*\[\s*" + re.escape(family) + r"\s*\]")
    start = next((i for i, line in enumerate(lines) if header.match(line)), None)
    if start is None:
        bare = re.compile(r"^\s*" + re.escape(family) + r"\s*=")
        start = next((i for i, line in enumerate(lines) if bare.match(line)), 0)
        return start + 1
    if isinstance(table, dict):
        from rtok.filter.rule import FIELDS, check_value

        for i in range(start + 1, len(lines)):
            if lines[i].lstrip().startswith("["):
                break
            key = lines[i].split("=", 1)[0].strip().strip("\"'")
            if key in table and (key not in FIELDS or check_value(FIELDS[key][0], table[key])):
                return i + 1
    return start + 1
