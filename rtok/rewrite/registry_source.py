"""Reads and checks rules/registry.toml and turns it into the compiled REGISTRY literal.

Build time only (uses tomllib): `rtok.build.compile_registry` calls `compiled_registry()`,
and the hot path imports the generated rtok/compiled/registry.py instead.
"""

from __future__ import annotations

import marshal
import pprint
import tomllib
from typing import Any

from rtok import resources

PIPELINE_POSITIONS = ("producer", "final", "both", "none")

_FAMILY_KEYS = {
    "commands", "subcommands", "bare", "pipeline", "global_options", "global_flags",
    "never_with", "never_short", "needs_operand", "delegate",
}
_WRAPPER_KEYS = {
    "flags", "value_options", "positionals", "assignments", "numeric_flags", "rewrite",
    "resets_environment", "script_options",
}
_SHELL_KEYS = {"commands", "dialect", "flags", "long_flags", "value_options"}
_NEVER_KEYS = {
    "builtins", "trivial", "editors", "pagers", "followers", "interactive", "privileged",
    "self",
}


class RegistryError(ValueError):
    """registry.toml breaks its schema; the message names the table and key."""


def load_source() -> dict[str, Any]:
    return tomllib.loads(resources.read_text("rules", "registry.toml"))


def _sorted(values: list[str] | set[str]) -> tuple[str, ...]:
    # Sorted tuples, not sets: set reprs follow string hashing and would make the generated
    # module differ from run to run.
    return tuple(sorted(set(values)))


def _strings(value: object, where: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
        raise RegistryError(f"{where}: expected a list of non-empty strings")
    return list(value)


def _check_keys(table: object, allowed: set[str], where: str) -> dict[str, Any]:
    if not isinstance(table, dict):
        raise RegistryError(f"{where}: expected a table")
    unknown = set(table) - allowed
    if unknown:
        raise RegistryError(f"{where}: unknown keys {sorted(unknown)}")
    return table


def _family(name: str, table: object) -> dict[str, Any]:
    where = f"families.{name}"
    raw = _check_keys(table, _FAMILY_KEYS, where)
    commands = _strings(raw.get("commands"), f"{where}.commands")
    subcommands = _strings(raw.get("subcommands"), f"{where}.subcommands")
    pipeline = raw.get("pipeline", "none")
    if pipeline not in PIPELINE_POSITIONS:
        raise RegistryError(f"{where}.pipeline: one of {', '.join(PIPELINE_POSITIONS)}")
    any_args = subcommands == ["*"]
    if "*" in subcommands and not any_args:
        raise RegistryError(f"{where}.subcommands: '*' must stand alone")
    never_global: list[str] = []
    never_by_sub: dict[str, list[str]] = {}
    for entry in _strings(raw.get("never_with", []), f"{where}.never_with"):
        sub, _, flag = entry.rpartition(" ")
        if sub:
            if sub not in subcommands:
                raise RegistryError(f"{where}.never_with: {sub!r} is not a listed subcommand")
            never_by_sub.setdefault(sub, []).append(flag)
        else:
            never_global.append(flag)
    delegate = _strings(raw.get("delegate", []), f"{where}.delegate")
    for sub in delegate:
        if sub not in subcommands:
            raise RegistryError(f"{where}.delegate: {sub!r} is not a listed subcommand")
    never_short = raw.get("never_short", "")
    if not isinstance(never_short, str):
        raise RegistryError(f"{where}.never_short: expected a string of letters")
    compiled: dict[str, Any] = {
        "commands": tuple(commands),
        "subcommands": None if any_args else tuple(tuple(s.split()) for s in subcommands),
        "bare": bool(raw.get("bare", any_args)),
        "pipeline": pipeline,
        "global_options": _sorted(_strings(raw.get("global_options", []), where)),
        "global_flags": _sorted(_strings(raw.get("global_flags", []), where)),
        "never_with": _sorted(never_global),
        "never_with_sub": {k: _sorted(v) for k, v in never_by_sub.items()},
        "never_short": never_short,
        "needs_operand": bool(raw.get("needs_operand", False)),
        "delegate": _sorted(delegate),
    }
    # Leave out empty values: a smaller module loads faster on every shell call.
    return {k: v for k, v in compiled.items() if v or k in _ALWAYS_KEPT}


_ALWAYS_KEPT = ("subcommands", "pipeline", "bare")


def compiled_registry(source: dict[str, Any] | None = None) -> dict[str, Any]:
    """The REGISTRY constant of rtok/compiled/registry.py (from registry.toml by default)."""
    if source is None:
        source = load_source()
    unknown = set(source) - {
        "never", "families", "wrappers", "shells", "runs_commands"
    }
    if unknown:
        raise RegistryError(f"unknown top-level tables {sorted(unknown)}")
    never_table = _check_keys(source.get("never", {}), _NEVER_KEYS, "never")
    never: set[str] = set()
    for key, value in never_table.items():
        never.update(_strings(value, f"never.{key}"))
    families: dict[str, dict[str, Any]] = {}
    index: dict[str, list[str]] = {}
    for name, table in source.get("families", {}).items():
        family = _family(name, table)
        families[name] = family
        for command in family["commands"]:
            if command in never:
                raise RegistryError(f"families.{name}: {command!r} is in a [never] list")
            index.setdefault(command, []).append(name)
    wrappers: dict[str, dict[str, Any]] = {}
    for name, table in source.get("wrappers", {}).items():
        raw = _check_keys(table, _WRAPPER_KEYS, f"wrappers.{name}")
        wrappers[name] = {
            "flags": tuple(_strings(raw.get("flags", []), f"wrappers.{name}.flags")),
            "value_options": tuple(_strings(raw.get("value_options", []), f"wrappers.{name}")),
            "positionals": int(raw.get("positionals", 0)),
            "assignments": bool(raw.get("assignments", False)),
            "numeric_flags": bool(raw.get("numeric_flags", False)),
            "rewrite": bool(raw.get("rewrite", True)),
            "resets_environment": tuple(
                _strings(raw.get("resets_environment", []), f"wrappers.{name}")
            ),
            "script_options": tuple(
                _strings(raw.get("script_options", []), f"wrappers.{name}")
            ),
        }
    shells: dict[str, dict[str, Any]] = {}
    for name, table in source.get("shells", {}).items():
        raw = _check_keys(table, _SHELL_KEYS, f"shells.{name}")
        if raw.get("dialect") not in ("bash", "fish"):
            raise RegistryError(f"shells.{name}.dialect: bash or fish")
        entry = {
            "dialect": raw["dialect"],
            "flags": str(raw.get("flags", "")),
            "long_flags": tuple(_strings(raw.get("long_flags", []), f"shells.{name}")),
            "value_options": tuple(_strings(raw.get("value_options", []), f"shells.{name}")),
        }
        for command in _strings(raw.get("commands"), f"shells.{name}.commands"):
            shells[command] = entry
    return {
        "families": families,
        "command_index": {k: tuple(v) for k, v in index.items()},
        "never": _sorted(never),
        "wrappers": wrappers,
        "shells": shells,
        "runs_commands": {
            name: tuple(_strings(options, f"runs_commands.{name}"))
            for name, options in source.get("runs_commands", {}).items()
        },
    }


def _ordered(value: Any) -> Any:
    """The same data with every dict in key order, so its serialised form is stable."""
    if isinstance(value, dict):
        return {k: _ordered(value[k]) for k in sorted(value)}
    if isinstance(value, tuple):
        return tuple(_ordered(v) for v in value)
    return value


def render_registry_module() -> str:
    """Text of rtok/compiled/registry.py.

    The data is stored as one `marshal` blob (format version 0: no interning or
    back-references, so the bytes depend only on the data): loading it is several times
    cheaper in a fresh interpreter than executing the equivalent dict literal, and every
    agent shell call starts a fresh interpreter. The same data follows as a comment for
    people reading diffs.
    """
    data = _ordered(compiled_registry())
    blob = marshal.dumps(data, 0)
    # 24 bytes a line keep every line short whatever the escapes.
    pieces = "\n".join(f"    {blob[i : i + 24]!r}" for i in range(0, len(blob), 24))
    readable = pprint.pformat(data, width=96, sort_dicts=True)
    comment = "\n".join("# " + line for line in readable.splitlines())
    return (
        '"""Generated by scripts/compile_data.py from rules/registry.toml. Do not edit."""\n\n'
        "from __future__ import annotations\n\n"
        "import marshal\n\n"
        f"REGISTRY: dict[str, object] = marshal.loads(\n{pieces}\n)\n\n"
        "# The data above, for reading:\n"
        f"{comment}\n"
    )
