"""The shape of the compiled registry (rtok/compiled/registry.py), for the type checker.

Typing only: the hot path names these under `TYPE_CHECKING` and never imports this module
(it needs `typing`). rtok/rewrite/registry_source.py validates rules/registry.toml into
exactly this shape before it is compiled.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import NotRequired, TypedDict


class RewriteGroup(TypedDict):
    """A rewrite group (rules/registry.toml `[groups.NAME]`): when `rtok run` may wrap one
    of its commands."""

    commands: tuple[str, ...]
    bare: bool
    pipeline: str
    subcommands: tuple[tuple[str, ...], ...] | None
    needs_operand: NotRequired[bool]
    never_with: NotRequired[tuple[str, ...]]
    never_short: NotRequired[str]
    never_with_sub: NotRequired[dict[str, tuple[str, ...]]]
    global_options: NotRequired[tuple[str, ...]]
    global_flags: NotRequired[tuple[str, ...]]
    delegate: NotRequired[tuple[str, ...]]
    pager_flags: NotRequired[tuple[str, ...]]


class Wrapper(TypedDict):
    """A program that runs the command after its own options (`env`, `timeout`, ...)."""

    flags: tuple[str, ...]
    value_options: tuple[str, ...]
    positionals: int
    assignments: bool
    numeric_flags: bool
    resets_environment: tuple[str, ...]
    script_options: tuple[str, ...]
    optional_values: tuple[str, ...]
    rewrite: bool


class Runner(TypedDict):
    """A program that executes a command from its arguments, stdin or a file."""

    how: tuple[str, ...]
    command_options: tuple[str, ...]
    code_options: tuple[str, ...]
    safe_options: tuple[str, ...]
    code_settings: tuple[str, ...]
    reader: str


class Shell(TypedDict):
    """A shell whose `-c` script rtok reads."""

    dialect: str
    flags: str
    long_flags: tuple[str, ...]
    value_options: tuple[str, ...]


class Registry(TypedDict):
    command_index: dict[str, tuple[str, ...]]
    # unmarshalled entry by entry at first lookup (rtok/_fast/lazytable.py)
    groups: Mapping[str, RewriteGroup]
    never: tuple[str, ...]
    runs_commands: dict[str, tuple[str, ...]]
    shells: dict[str, Shell]
    wrappers: Mapping[str, Wrapper]
    value_letters: dict[str, str]
    runners: Mapping[str, Runner]
    command_variables: tuple[str, ...]
