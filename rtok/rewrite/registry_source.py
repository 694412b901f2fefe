"""Reads and checks rules/registry.toml and turns it into the compiled REGISTRY literal.

Build time only (uses tomllib): `rtok.build.compile_registry` calls `compiled_registry()`,
and the hot path imports the generated rtok/compiled/registry.py instead. Its schema is its
own (another file than the agent descriptors), checked with the same helpers and error type
(rtok.schema).
"""

from __future__ import annotations

import marshal
import pprint
import tomllib
from typing import Any

from rtok import resources, schema
from rtok.schema import DescriptorError

SOURCE = "rules/registry.toml"

PIPELINE_POSITIONS = ("producer", "final", "both", "none")

_GROUP_KEYS = {
    "commands",
    "subcommands",
    "bare",
    "pipeline",
    "global_options",
    "global_flags",
    "never_with",
    "never_short",
    "needs_operand",
    "delegate",
    "pager_flags",
}
_WRAPPER_KEYS = {
    "flags",
    "value_options",
    "positionals",
    "assignments",
    "numeric_flags",
    "rewrite",
    "resets_environment",
    "script_options",
    "optional_values",
}
_RUNNER_KEYS = {"how", "command_options", "code_options", "safe_options", "reader", "code_settings"}
RUNNER_WAYS = ("argv", "option", "stdin", "file", "code", "always")
RUNNER_READERS = ("", "awk", "sed")
_SHELL_KEYS = {"commands", "dialect", "flags", "long_flags", "value_options"}
_NEVER_KEYS = {
    "builtins",
    "trivial",
    "editors",
    "pagers",
    "followers",
    "interactive",
    "privileged",
    "self",
}


def _where(table: str) -> str:
    return f"{SOURCE}: {table}"


def load_source() -> dict[str, Any]:
    return tomllib.loads(resources.read_text("rules", "registry.toml"))


def _sorted(values: list[str] | set[str]) -> tuple[str, ...]:
    # Sorted tuples, not sets: set reprs follow string hashing and would make the generated
    # module differ from run to run.
    return tuple(sorted(set(values)))


def _check_keys(table: object, allowed: set[str], where: str) -> dict[str, object]:
    raw = schema.table(table, where)
    schema.only(raw, allowed, where)
    return raw


def _group(name: str, table: object) -> dict[str, Any]:
    where = _where(f"groups.{name}")
    raw = _check_keys(table, _GROUP_KEYS, where)
    commands = schema.strings(raw, "commands", where, required=True)
    subcommands = schema.strings(raw, "subcommands", where, required=True)
    pipeline = schema.choice(raw, "pipeline", PIPELINE_POSITIONS, where, default="none")
    any_args = subcommands == ["*"]
    if "*" in subcommands and not any_args:
        raise DescriptorError(f"{where}.subcommands: '*' must stand alone")
    never_global: list[str] = []
    never_by_sub: dict[str, list[str]] = {}
    for entry in schema.strings(raw, "never_with", where):
        sub, _, flag = entry.rpartition(" ")
        if sub:
            if sub not in subcommands:
                raise DescriptorError(f"{where}.never_with: {sub!r} is not a listed subcommand")
            never_by_sub.setdefault(sub, []).append(flag)
        else:
            never_global.append(flag)
    delegate = schema.strings(raw, "delegate", where)
    for sub in delegate:
        if sub not in subcommands:
            raise DescriptorError(f"{where}.delegate: {sub!r} is not a listed subcommand")
    never_short = schema.string(raw, "never_short", where, required=False)
    compiled: dict[str, Any] = {
        "commands": tuple(commands),
        "subcommands": None if any_args else tuple(tuple(s.split()) for s in subcommands),
        "bare": schema.boolean(raw, "bare", where, default=any_args),
        "pipeline": pipeline,
        "global_options": _sorted(schema.strings(raw, "global_options", where)),
        "global_flags": _sorted(schema.strings(raw, "global_flags", where)),
        "never_with": _sorted(never_global),
        "never_with_sub": {k: _sorted(v) for k, v in never_by_sub.items()},
        "never_short": never_short,
        "needs_operand": schema.boolean(raw, "needs_operand", where),
        "delegate": _sorted(delegate),
        "pager_flags": _sorted(schema.strings(raw, "pager_flags", where)),
    }
    # Leave out empty values: a smaller module loads faster on every shell call.
    return {k: v for k, v in compiled.items() if v or k in _ALWAYS_KEPT}


_ALWAYS_KEPT = ("subcommands", "pipeline", "bare")
# The registry's large name -> entry tables, each entry unmarshalled at its first lookup.
LAZY_SECTIONS = ("groups", "runners", "wrappers")


def compiled_registry(source: dict[str, Any] | None = None) -> dict[str, Any]:
    """The REGISTRY constant of rtok/compiled/registry.py (from registry.toml by default)."""
    if source is None:
        source = load_source()
    unknown = set(source) - {
        "never",
        "groups",
        "wrappers",
        "shells",
        "runs_commands",
        "value_letters",
        "runners",
        "command_variables",
    }
    if unknown:
        raise DescriptorError(f"{SOURCE}: unknown top-level tables {sorted(unknown)}")
    never_table = _check_keys(source.get("never", {}), _NEVER_KEYS, _where("never"))
    never: set[str] = set()
    for key in never_table:
        never.update(schema.strings(never_table, key, _where("never")))
    groups: dict[str, dict[str, Any]] = {}
    index: dict[str, list[str]] = {}
    for name, table in source.get("groups", {}).items():
        group = _group(name, table)
        groups[name] = group
        for command in group["commands"]:
            if command in never:
                raise DescriptorError(
                    f"{_where('groups.' + name)}: {command!r} is in a [never] list"
                )
            index.setdefault(command, []).append(name)
    runs = _check_keys(
        source.get("runs_commands", {}),
        set(source.get("runs_commands", {})),
        _where("runs_commands"),
    )
    return {
        "groups": groups,
        "command_index": {k: tuple(v) for k, v in index.items()},
        "never": _sorted(never),
        "wrappers": {
            name: _wrapper(name, table) for name, table in source.get("wrappers", {}).items()
        },
        "shells": _shells(source.get("shells", {})),
        "runs_commands": {
            name: tuple(schema.strings(runs, name, _where("runs_commands"))) for name in runs
        },
        "value_letters": _value_letters(source.get("value_letters", {})),
        "runners": {
            name: _runner(name, table) for name, table in source.get("runners", {}).items()
        },
        "command_variables": _command_variables(source.get("command_variables", {})),
    }


def _runner(name: str, table: object) -> dict[str, Any]:
    where = _where(f"runners.{name}")
    raw = _check_keys(table, _RUNNER_KEYS, where)
    how = schema.strings(raw, "how", where, required=True)
    for way in how:
        if way not in RUNNER_WAYS:
            raise DescriptorError(f"{where}.how: {way!r} is not one of {list(RUNNER_WAYS)}")
    reader = raw.get("reader", "")
    if reader not in RUNNER_READERS:
        raise DescriptorError(f"{where}.reader must be one of {list(RUNNER_READERS)}")
    return {
        "how": tuple(how),
        "command_options": tuple(schema.strings(raw, "command_options", where)),
        "code_options": tuple(schema.strings(raw, "code_options", where)),
        "safe_options": tuple(schema.strings(raw, "safe_options", where)),
        "code_settings": tuple(schema.strings(raw, "code_settings", where)),
        "reader": reader,
    }


def _command_variables(table: object) -> tuple[str, ...]:
    where = _where("command_variables")
    raw = _check_keys(table, {"names"}, where)
    return _sorted(schema.strings(raw, "names", where))


def _value_letters(table: object) -> dict[str, str]:
    where = _where("value_letters")
    raw = schema.table(table, where)
    letters: dict[str, str] = {}
    for name, value in raw.items():
        if not isinstance(value, str) or not value.isalnum():
            raise DescriptorError(f"{where}.{name}: must be a string of option letters")
        letters[name] = value
    return letters


def _wrapper(name: str, table: object) -> dict[str, Any]:
    where = _where(f"wrappers.{name}")
    raw = _check_keys(table, _WRAPPER_KEYS, where)
    positionals = raw.get("positionals", 0)
    if not isinstance(positionals, int) or isinstance(positionals, bool) or positionals < 0:
        raise DescriptorError(f"{where}.positionals must be a whole number")
    return {
        "flags": tuple(schema.strings(raw, "flags", where)),
        "value_options": tuple(schema.strings(raw, "value_options", where)),
        "positionals": positionals,
        "assignments": schema.boolean(raw, "assignments", where),
        "numeric_flags": schema.boolean(raw, "numeric_flags", where),
        "rewrite": schema.boolean(raw, "rewrite", where, default=True),
        "resets_environment": tuple(schema.strings(raw, "resets_environment", where)),
        "script_options": tuple(schema.strings(raw, "script_options", where)),
        "optional_values": tuple(schema.strings(raw, "optional_values", where)),
    }


def _shells(tables: dict[str, object]) -> dict[str, dict[str, Any]]:
    """Shell command name -> how that shell reads its arguments."""
    shells: dict[str, dict[str, Any]] = {}
    for name, table in tables.items():
        where = _where(f"shells.{name}")
        raw = _check_keys(table, _SHELL_KEYS, where)
        entry = {
            "dialect": schema.choice(raw, "dialect", ("bash", "fish"), where),
            "flags": schema.string(raw, "flags", where, required=False),
            "long_flags": tuple(schema.strings(raw, "long_flags", where)),
            "value_options": tuple(schema.strings(raw, "value_options", where)),
        }
        for command in schema.strings(raw, "commands", where, required=True):
            shells[command] = entry
    return shells


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
    agent shell call starts a fresh interpreter. The large tables (`LAZY_SECTIONS`) keep
    each entry as its own marshal bytes, unmarshalled at its first lookup
    (rtok/_fast/lazytable.py): a call looks up a handful of ~300 entries. The same data
    follows as a comment for people reading diffs.
    """
    data = _ordered(compiled_registry())
    stored = {
        key: {name: marshal.dumps(entry, 0) for name, entry in value.items()}
        if key in LAZY_SECTIONS
        else value
        for key, value in data.items()
    }
    blob = marshal.dumps(stored, 0)
    # 24 bytes a line keep every line short whatever the escapes.
    pieces = "\n".join(f"    {blob[i : i + 24]!r}" for i in range(0, len(blob), 24))
    readable = pprint.pformat(data, width=96, sort_dicts=True)
    comment = "\n".join("# " + line for line in readable.splitlines())
    return (
        '"""Generated by scripts/compile_data.py from rules/registry.toml. Do not edit."""\n\n'
        "from __future__ import annotations\n\n"
        "import marshal\n\n"
        "from rtok._fast.lazytable import with_lazy_sections\n\n"
        "TYPE_CHECKING = False\n"
        "if TYPE_CHECKING:\n"
        "    from rtok.rewrite.registry_types import Registry\n\n"
        "REGISTRY: Registry = with_lazy_sections(  # type: ignore[assignment]\n"
        f"    marshal.loads(\n{pieces}\n    ),\n"
        f"    {LAZY_SECTIONS!r},\n)\n\n"
        "# The data above, for reading:\n"
        f"{comment}\n"
    )
