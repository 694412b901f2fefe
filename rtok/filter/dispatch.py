"""Which formatter reads an output of a family (rules/formatters.toml, compiled into
`rtok.compiled.default_rules.DISPATCH`).

Stdlib only (hot path). A floor above `rtok.filter.family` (which names a command's
family) and `rtok.filter.composite` (which reads an output of several tools): this module
hands the composite readers `formatter_for` to look up each tool's reader, so neither of
them imports it.
"""

from __future__ import annotations

from rtok.filter.family import subcommand

TYPE_CHECKING = False
if TYPE_CHECKING:
    from rtok.filter.formatters import Formatter


def formatter_for(family: str, words: list[str]) -> Formatter | None:
    """The formatter that reads an output of `family` (rules/formatters.toml: the first of
    the family's rows whose conditions hold), or None: the family's line rule alone."""
    if family == "script":
        return _chain(words[2]) if len(words) == 3 else None
    rows = _dispatch_rows(family)
    reads_subcommand = any(row[0] != "*" or row[2] for row in rows)
    sub = subcommand(words) if reads_subcommand else ""
    for row in rows:
        if _holds(row, sub, words):
            return _reader(family, row)
    return None


def _dispatch_rows(family: str) -> list[list[str]]:
    """The family's rows of rules/formatters.toml, in order, each
    `[subcommands, options, t, module, name, key, c]` (the compiled line's fields)."""
    # (beside the built-in rules, which every shortened output has loaded already)
    from rtok.compiled.default_rules import DISPATCH

    if "\t" in family or "\n" in family:
        return []
    start = DISPATCH.find(f"\n{family}\t")
    if start < 0:
        return []
    line = DISPATCH[start + len(family) + 2 : DISPATCH.index("\n", start + 1)]
    return [row.split("|") for row in line.split(";")]


def _holds(row: list[str], sub: str, words: list[str]) -> bool:
    """Whether the command (`sub`: its subcommand, when a row of its family reads it)
    meets the row's conditions (`*`: none)."""
    subcommands, options, test_script = row[0], row[1], row[2]
    if subcommands != "*" and sub not in subcommands.split(" "):
        return False
    if options != "*" and not any(option in words for option in options.split(" ")):
        return False
    return not test_script or _runs_test_script(sub, words)


def _reader(family: str, row: list[str]) -> Formatter | None:
    """The formatter a row names, imported at its first use (a run pays only for the
    formatter it reads); a composite row's reader of several tools' sections."""
    module, name, key, composite = row[3], row[4], row[5], row[6]
    reader: Formatter | None = None
    if module:
        loaded = __import__(f"rtok.filter.formatters.{module}", None, None, [name])
        reader = getattr(loaded, name).get(key) if key else getattr(loaded, name)
    return _composite(family, reader) if composite else reader


_COMPOSITE_READERS: dict[str, Formatter] = {}


def _composite(family: str, fallback: Formatter | None) -> Formatter:
    """The reader of an output of several tools' sections (`rtok.filter.composite`), made
    once per family."""
    reader = _COMPOSITE_READERS.get(family)
    if reader is None:
        from rtok.filter.composite import composite_reader

        reader = _COMPOSITE_READERS[family] = composite_reader(family, fallback, formatter_for)
    return reader


def _is_test_script(name: str) -> bool:
    """`test`, and the names projects give a script that runs one kind of tests
    (`test:e2e`, `test-unit`, `e2e`, `playwright:e2e`)."""
    return (
        name in ("test", "e2e")
        or name.startswith(("test:", "test-", "e2e:"))
        or name.endswith((":test", ":e2e"))
    )


def _runs_test_script(sub: str, words: list[str]) -> bool:
    """`npm test`, `pnpm t`, `yarn test:unit`, `npm run e2e`: a package script that runs
    tests (the second or third word after the program, for `run` and `run-script`)."""
    if sub in ("t", "tst") or _is_test_script(sub):
        return True
    return sub in ("run", "run-script") and any(map(_is_test_script, words[2:4]))


def _chain(script: str) -> Formatter | None:
    """A script chaining tools (`ruff check . && pytest -q`): each tool's part read by its
    own reader (`rtok.filter.composite`), when one of them has a reader."""
    from rtok.filter.composite import chain_reader

    return chain_reader(script, formatter_for)
