"""Reads and checks rules/formatters.toml (formatter dispatch) and turns it into the
DISPATCH table of rtok/compiled/default_rules.py.

Build time only (uses tomllib): `rtok.filter.compile_rules.compile_rules` adds
`dispatch_text()` to the module it writes, and `rtok.filter.dispatch.formatter_for` reads it.
The table shares the module of the built-in rules because every shortened output reads
both: one import on the hot path, not two.
Checked with the helpers and the error type of the other data files (rtok.schema); every
formatter a row names is imported and looked up, so a misspelt one fails the build.
"""

from __future__ import annotations

import importlib
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

    def compiled(self) -> str:
        """The row as a DISPATCH line holds it (see `dispatch_text`)."""
        ref = self.formatter
        fields = (
            "*" if self.subcommands is None else " ".join(self.subcommands),
            "*" if self.options is None else " ".join(self.options),
            "t" if self.test_script else "",
            ref.module if ref else "",
            ref.name if ref else "",
            (ref.key or "") if ref else "",
            "c" if self.composite else "",
        )
        return "|".join(fields)


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
        programs=_words(raw, "programs", where),
        formatter=parse_reference(formatter, schema.at(where, "formatter")) if formatter else None,
        composite=composite,
        subcommands=_optional_words(raw, "subcommands", where),
        options=_optional_words(raw, "options", where),
        test_script=schema.boolean(raw, "test_script", where),
    )


def _optional_words(raw: dict[str, object], key: str, where: str) -> tuple[str, ...] | None:
    if key not in raw:
        return None
    return _words(raw, key, where)


def _words(raw: dict[str, object], key: str, where: str) -> tuple[str, ...]:
    """Words as a command line has them: no blanks, and none of the compiled line's
    separators (`|`, `;`), nor `*` alone."""
    words = tuple(schema.strings(raw, key, where, required=True))
    for word in words:
        if word == "*" or any(c.isspace() or c in "|;" for c in word):
            raise DescriptorError(f"{schema.at(where, key)}: {word!r} is not a command word")
    return words


def parse_dispatch(text: str) -> list[DispatchRow]:
    """The rows of a formatters.toml text, in order; DescriptorError names the bad row."""
    document = tomllib.loads(text)
    schema.only(document, ("formatters",), f"{SOURCE}:")
    rows = document.get("formatters")
    if not isinstance(rows, list):
        raise DescriptorError(f"{SOURCE}: formatters must be a list of rows")
    return [parse_row(row, f"{SOURCE}: formatters[{index}]") for index, row in enumerate(rows)]


def dispatch_lines(rows: list[DispatchRow]) -> list[str]:
    """One line per program, `program<TAB>row;row…`, its rows in the table's order."""
    return ["".join(pieces) for pieces in _line_pieces(rows)]


def _line_pieces(rows: list[DispatchRow]) -> list[list[str]]:
    """Each program's line in pieces, one row a piece (written one per source line)."""
    table: dict[str, list[str]] = {}
    for row in rows:
        for program in row.programs:
            table.setdefault(program, []).append(row.compiled())
    return [
        [f"{program}\t" + its[0], *(";" + row for row in its[1:])]
        for program, its in sorted(table.items())
    ]


def dispatch_text() -> str:
    """The DISPATCH assignment, with its comment, for rtok/compiled/default_rules.py."""
    rows = parse_dispatch(resources.read_text("rules", "formatters.toml"))
    lines = "".join(
        "".join(f"    {piece!r}\n" for piece in [*pieces[:-1], pieces[-1] + "\n"])
        for pieces in _line_pieces(rows)
    )
    return (
        f"# {SOURCE}: one line per output family, `\\n<family>\\t<row>;<row>…` (rows in\n"
        + "# order), a row `subcommands|options|t|module|name|key|c` (words space-separated,\n"
        + "# * for no condition; t: a test script; c: composite): the formatter is\n"
        + "# rtok.filter.formatters.<module>.<name>, or that table's entry <key>. One text,\n"
        + "# not a dict of tuples: it loads in no time, and a run splits only its own line.\n"
        + "DISPATCH = (\n    '\\n'\n"
        + lines
        + ")\n"
    )
