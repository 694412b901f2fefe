"""`rtok config validate`: every rule file that applies, with its state and problems.

Not on the hot path. Each file is parsed afresh (no cache), so what is reported is what
the file says now.
"""

from __future__ import annotations

from dataclasses import dataclass

from rtok._fast import oslite as os
from rtok.filter.layers import is_trusted, layer_paths
from rtok.filter.ruleparse import parse_rule_bytes


@dataclass(frozen=True)
class FileReport:
    path: str
    scope: str
    state: str  # "ok" | "malformed" | "untrusted" | "unreadable"
    detail: str
    families: tuple[str, ...]


def check_rule_file(path: str, scope: str, gated: bool = True) -> FileReport:
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError as exc:
        return FileReport(path, scope, "unreadable", exc.strerror or str(exc), ())
    parsed = parse_rule_bytes(data)
    if "error" in parsed:
        return FileReport(path, scope, "malformed", str(parsed["error"]), ())
    rules = parsed.get("rules")
    families = tuple(sorted(rules)) if isinstance(rules, dict) else ()
    if gated and not is_trusted(path):
        return FileReport(
            path, scope, "untrusted", "skipped until you run `rtok trust " + path + "`", families
        )
    return FileReport(path, scope, "ok", "", families)


def check_all(cwd: str) -> list[FileReport]:
    return [check_rule_file(path, scope) for path, scope in layer_paths(cwd)]


def check_named(path: str) -> FileReport:
    """A file named on the command line: checked as a rule file, trust state included."""
    absolute = os.path.abspath(path)
    return check_rule_file(absolute, "named")
