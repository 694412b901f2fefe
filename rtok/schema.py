"""Checks shared by the validators of rtok's own data files (agent descriptors in
integrations/, the rewrite registry in rules/), and their one error type.

Build and install time only; the hot path reads generated modules in rtok/compiled/.

`where` names the table being checked: the file, a colon, then the dotted table path
("integrations/claude.toml: install.global[0]"), or the file and a colon alone for its top
level ("integrations/claude.toml:"). A key of that table is named by `at(where, key)`.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping


class DescriptorError(ValueError):
    """A data file that breaks its schema; the message names the file and the key."""


def at(where: str, key: str) -> str:
    """The name of `key` in the table `where` ("f.toml: hook" + "tools" -> "f.toml:
    hook.tools"; "f.toml:" + "name" -> "f.toml: name")."""
    return f"{where} {key}" if where.endswith(":") else f"{where}.{key}"


def table(value: object, where: str) -> dict[str, object]:
    """`value` as a table (TOML tables arrive as dicts with string keys)."""
    if not isinstance(value, dict):
        raise DescriptorError(f"{where.rstrip(':')} must be a table")
    return value


def only(data: Mapping[str, object], allowed: Collection[str], where: str) -> None:
    """Refuses keys the schema does not know (a misspelt key is an error, not ignored)."""
    unknown = sorted(set(data) - set(allowed))
    if unknown:
        names = ", ".join(repr(key) for key in unknown)
        plural = "s" if len(unknown) > 1 else ""
        raise DescriptorError(f"{where.rstrip(':')}: unknown key{plural} {names}")


def string(data: Mapping[str, object], key: str, where: str, *, required: bool = True) -> str:
    """A non-empty string when `required`, else a string that defaults to ""."""
    value = data.get(key, None if required else "")
    if not isinstance(value, str) or (required and not value):
        kind = "a non-empty string" if required else "a string"
        raise DescriptorError(f"{at(where, key)} must be {kind}")
    return value


def strings(
    data: Mapping[str, object], key: str, where: str, *, required: bool = False
) -> list[str]:
    """A list of non-empty strings (empty by default; `required`: at least one)."""
    value = data.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
        raise DescriptorError(f"{at(where, key)} must be a list of non-empty strings")
    if required and not value:
        raise DescriptorError(f"{at(where, key)} is required")
    return [str(v) for v in value]


def choice(
    data: Mapping[str, object],
    key: str,
    choices: Collection[str],
    where: str,
    default: str | None = None,
) -> str:
    """One of `choices` (`default` when the key is absent and a default exists)."""
    value = data.get(key, default)
    if not isinstance(value, str) or value not in choices:
        raise DescriptorError(f"{at(where, key)} must be one of {', '.join(choices)}")
    return value


def boolean(data: Mapping[str, object], key: str, where: str, default: bool = False) -> bool:
    value = data.get(key, default)
    if not isinstance(value, bool):
        raise DescriptorError(f"{at(where, key)} must be true or false")
    return value


def key_path(data: Mapping[str, object], key: str, where: str) -> list[str]:
    """A dotted key path into a JSON object ("tool_input.command"), as its keys."""
    value = data.get(key)
    if not isinstance(value, str) or not all(value.split(".")):
        raise DescriptorError(f"{at(where, key)} must be a dotted key path such as tool_input")
    return value.split(".")


def string_map(data: Mapping[str, object], key: str, where: str) -> dict[str, str]:
    """A table whose values are all strings (empty by default)."""
    raw = data.get(key, {})
    if not isinstance(raw, dict) or not all(isinstance(v, str) for v in raw.values()):
        raise DescriptorError(f"{at(where, key)} must be a table of strings")
    return {str(k): str(v) for k, v in raw.items()}
