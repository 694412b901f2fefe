"""Reads and checks rules/formatters.toml (formatter dispatch) and turns it into
rtok/compiled/formatter_dispatch.py.

Build time only (uses tomllib): `rtok.build.compile_formatter_dispatch` calls
`dispatch_module()`, and `rtok.filter.family.formatter_for` reads the generated module.
Checked with the helpers and the error type of the other data files (rtok.schema); every
formatter a row names is imported and looked up, so a misspelt one fails the build.
"""

from __future__ import annotations

import importlib
import pprint
import tomllib
from dataclasses import dataclass

from rtok import resources, schema
from rtok.schema import DescriptorError

SOURCE = "rules/formatters.toml"
_ROW_KEYS = ("for", "programs", "formatter", "composite", "subcommands", "options", "test_script")
_PACKAGE = "rtok.filter.formatters"


@dataclass(frozen=True)
class Reference:
    """A formatter a row names: `module.name`, or entry `key` of `module.FORMATTERS`."""

    module: str
    name: str
    key: str | None


@dataclass(frozen=True)
class DispatchRow:
    """One row of rules/formatters.toml, checked."""

    purpose: str
    programs: tuple[str, ...]
    formatter: Reference | None
    composite: bool
    subcommands: tuple[str, ...] | None
    options: tuple[str, ...] | None
    test_script: bool

    @property
    def needs_subcommand(self) -> bool:
        return self.subcommands is not None or self.test_script

    def compiled(self) -> tuple[object, ...]:
        """The row as formatter_dispatch.py holds it."""
        ref = self.formatter
        return (
            self.subcommands,
            self.options,
            self.test_script,
            ref.module if ref else None,
            ref.name if ref else "",
            ref.key if ref else None,
            self.composite,
        )


def parse_reference(text: str, where: str) -> Reference:
    """ "git.git_status" or "diagnostics[go]", checked against the formatter modules."""
    if text.endswith("]") and "[" in text:
        module, _, key = text[:-1].partition("[")
        reference = Reference(module, "FORMATTERS", key)
    else:
        module, _, name = text.partition(".")
        reference = Reference(module, name, None)
    if not (reference.module.isidentifier() and reference.name.isidentifier()):
        raise DescriptorError(f"{where}: {text!r} is not MODULE.FUNCTION or MODULE[NAME]")
    _resolve(reference, f"{where}: {text!r}")
    return reference


def _resolve(reference: Reference, where: str) -> None:
    try:
        loaded = importlib.import_module(f"{_PACKAGE}.{reference.module}")
    except ImportError as error:
        message = f"{where}: no module rtok/filter/formatters/{reference.module}.py"
        raise DescriptorError(message) from error
    found = getattr(loaded, reference.name, None)
    if reference.key is not None:
        found = found.get(reference.key) if isinstance(found, dict) else None
    if not callable(found):
        raise DescriptorError(f"{where}: no such formatter")


def parse_row(value: object, where: str) -> DispatchRow:
    raw = schema.table(value, where)
    schema.only(raw, _ROW_KEYS, where)
    formatter = schema.string(raw, "formatter", where, required=False)
    composite = schema.boolean(raw, "composite", where)
    if not formatter and not composite:
        raise DescriptorError(f"{schema.at(where, 'formatter')} is required (or composite)")
    return DispatchRow(
        purpose=schema.string(raw, "for", where),
        programs=tuple(schema.strings(raw, "programs", where, required=True)),
        formatter=parse_reference(formatter, schema.at(where, "formatter")) if formatter else None,
        composite=composite,
        subcommands=_optional_words(raw, "subcommands", where),
        options=_optional_words(raw, "options", where),
        test_script=schema.boolean(raw, "test_script", where),
    )


def _optional_words(raw: dict[str, object], key: str, where: str) -> tuple[str, ...] | None:
    if key not in raw:
        return None
    return tuple(schema.strings(raw, key, where, required=True))


def parse_dispatch(text: str) -> list[DispatchRow]:
    """The rows of a formatters.toml text, in order; DescriptorError names the bad row."""
    document = tomllib.loads(text)
    schema.only(document, ("formatters",), f"{SOURCE}:")
    rows = document.get("formatters")
    if not isinstance(rows, list):
        raise DescriptorError(f"{SOURCE}: formatters must be a list of rows")
    return [parse_row(row, f"{SOURCE}: formatters[{index}]") for index, row in enumerate(rows)]


def dispatch_table(
    rows: list[DispatchRow],
) -> dict[str, tuple[bool, tuple[tuple[object, ...], ...]]]:
    """program -> (whether a row reads its subcommand, its rows in order)."""
    table: dict[str, list[DispatchRow]] = {}
    for row in rows:
        for program in row.programs:
            table.setdefault(program, []).append(row)
    return {
        program: (any(r.needs_subcommand for r in its), tuple(r.compiled() for r in its))
        for program, its in table.items()
    }


def dispatch_module() -> str:
    from rtok.build import HEADER

    rows = parse_dispatch(resources.read_text("rules", "formatters.toml"))
    body = pprint.pformat(dispatch_table(rows), width=100, sort_dicts=True)
    return (
        HEADER.format(source=SOURCE)
        + "# output family -> (a row reads the subcommand, rows tried in order); a row is\n"
        + "# (subcommands or None, options or None, test_script, module or None, name, key\n"
        + "#  or None, composite): the formatter is rtok.filter.formatters.<module>.<name>,\n"
        + "#  or that table's entry <key>\n"
        + f"DISPATCH = {body}\n"
    )
