"""The rule layers, merged per family: built-in, user file, user drop-ins, project files.

Stdlib only (hot path). Built-in rules come from the generated `rtok.compiled.default_rules`;
every other layer is a TOML file that must pass the trust gate (`rtok.trust.is_trusted`)
and parse cleanly. A later layer replaces a family's whole table. Parsed files are cached by
`rtok._fast.cachefile` under the hash of their bytes, so an unchanged file costs a read, a hash
and a JSON read, never a TOML parse; trust is checked against those same bytes.
"""

from __future__ import annotations

from rtok import paths
from rtok._fast import cachefile
from rtok._fast import oslite as os
from rtok.filter.rule import SPECIAL_FAMILIES, Rule, default_rule

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

    from rtok.filter.rule import RuleTable, RuleTables

PROJECT_DIR = ".rtok"
DEFAULT_TABLE = "default"
CACHE_NAMESPACE = "rules"


class Layer:
    """One rule file: where it is, whether it applies, and what it says."""

    __slots__ = ("error", "path", "scope", "tables", "trusted")

    def __init__(self, path: str, scope: str) -> None:
        self.path = path
        self.scope = scope
        self.tables: RuleTables = {}
        self.error: str | None = None
        self.trusted = False


def project_root(cwd: str) -> str | None:
    """The directory whose `.rtok/` rule files apply at `cwd` (see paths.project_rules_root)."""
    return paths.project_rules_root(cwd)


def layer_paths(cwd: str, env: Mapping[str, str] | None = None) -> list[tuple[str, str]]:
    """(path, scope) of every rule file that exists, in merge order (rtok's own folders
    found through `env`, by default the process environment)."""
    from rtok.filter.settings import load_settings

    settings = load_settings(env)
    found: list[tuple[str, str]] = []
    _add_file(found, settings.rules_file, "user")
    _add_dir(found, settings.rules_dir, "user")
    root = paths.project_rules_root(cwd, env)
    if root is not None:
        base = os.path.join(root, PROJECT_DIR)
        _add_file(found, os.path.join(base, "rules.toml"), "project")
        _add_dir(found, os.path.join(base, "rules.d"), "project")
    return found


def _add_file(found: list[tuple[str, str]], path: str, scope: str) -> None:
    if os.path.isfile(path):
        found.append((path, scope))


def _add_dir(found: list[tuple[str, str]], directory: str, scope: str) -> None:
    try:
        names = sorted(os.listdir(directory))
    except OSError:
        return
    for name in names:
        if name.endswith(".toml"):
            _add_file(found, os.path.join(directory, name), scope)


def read_layer(path: str, scope: str, env: Mapping[str, str] | None = None) -> Layer:
    """Parse (through the cache) and trust-check one rule file."""
    from rtok.filter.ruleparse import parse_rule_bytes

    layer = Layer(path, scope)
    try:
        parsed, data = cachefile.parse_with_bytes(path, CACHE_NAMESPACE, parse_rule_bytes)
    except OSError as exc:
        layer.error = f"cannot read: {exc.strerror or exc}"
        return layer
    if data is None:
        layer.error = "cannot read: the file is gone"
        return layer
    if not isinstance(parsed, dict):
        layer.error = "cannot read"
        return layer
    if "error" in parsed:
        layer.error = str(parsed["error"])
        return layer
    rules = parsed.get("rules")
    if isinstance(rules, dict):
        layer.tables = rules
    layer.trusted = is_trusted(path, data, env)
    return layer


def is_trusted(path: str, data: bytes | None = None, env: Mapping[str, str] | None = None) -> bool:
    """The trust gate, for the bytes that were parsed (`data`) when given: the rules
    applied are the rules whose bytes were trusted. Without a trust module every gated
    file counts as untrusted."""
    try:
        from rtok.trust import is_trusted as trust_check
        from rtok.trust import is_trusted_bytes
    except ImportError:
        return False
    try:
        return bool(trust_check(path, env) if data is None else is_trusted_bytes(path, data, env))
    except Exception:
        # A broken trust store must never let a file through, nor break the command.
        return False


def read_layers(cwd: str, env: Mapping[str, str] | None = None) -> list[Layer]:
    return [read_layer(path, scope, env) for path, scope in layer_paths(cwd, env)]


def builtin_tables() -> RuleTables:
    from rtok.compiled.default_rules import RULES

    return RULES


def resolve_rule(family: str, cwd: str, notices: list[str] | None = None) -> Rule:
    """The rule for `family`: the last applying layer that defines it wins.

    Malformed files are skipped and named in `notices` (when given); untrusted ones are
    skipped silently (`rtok trust --list` and `rtok config validate` report them).
    """
    table: RuleTable | None = builtin_tables().get(family)
    source = "built-in"
    fallback: RuleTable | None = None
    fallback_source = ""
    for layer in read_layers(cwd):
        if layer.error is not None:
            if notices is not None:
                notices.append(f"{layer.path}: {layer.error}")
            continue
        if not layer.trusted:
            continue
        found = layer.tables.get(family)
        if isinstance(found, dict):
            table, source = found, layer.path
        default = layer.tables.get(DEFAULT_TABLE)
        if isinstance(default, dict):
            fallback, fallback_source = default, layer.path
    if table is None and fallback is not None:
        # A `[default]` table in a trusted file replaces the built-in default rule.
        table, source = fallback, fallback_source
    if table is None:
        return default_rule(family)
    return Rule.from_table(family, table, source)


def trusted_families(cwd: str, env: Mapping[str, str] | None = None) -> frozenset[str]:
    """Command families that trusted, well-formed user or project rule files define."""
    names: set[str] = set()
    for layer in read_layers(cwd, env):
        if layer.error is None and layer.trusted:
            names.update(name for name in layer.tables if name not in SPECIAL_FAMILIES)
    return frozenset(names)
