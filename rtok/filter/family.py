"""Which output family a command's output belongs to, and which formatter reads it.

Stdlib only (hot path). The output family is the program's name with wrappers, env
assignments and interpreter launchers peeled off (`python -m pytest` is pytest). A `sh -c`
script that chains two or more distinct programs is the `script` family. The family names
the output rule (rules/default.toml, user rule files), the ledger's and `rtok gain`'s
groups, and the rows of rules/formatters.toml that pick its formatter.
"""

from __future__ import annotations

from rtok._fast import oslite as os
from rtok.shell.words import assignment_name

TYPE_CHECKING = False
if TYPE_CHECKING:
    from rtok.filter.formatters import Formatter as Formatter


_RUNNERS = {"npx", "bunx", "pnpx"}
_RUN_SUB = {
    "uv": "run",
    "poetry": "run",
    "pipenv": "run",
    "pnpm": "exec",
    "yarn": "exec",
    "hatch": "run",
    "pdm": "run",
    "rye": "run",
    "bundle": "exec",
}
_SHELLS = {"sh", "bash", "zsh", "dash", "ksh"}
_SETUP = {"cd", "export", "set", "source", ".", "pushd", "popd", "true", "unset", "shopt"}
_VERSIONED = ("python", "pip", "pytest", "node", "ruby", "perl", "php")


def is_assignment(word: str) -> bool:
    """`NAME=value` or `NAME+=value` (a shell variable assignment in front of a command)."""
    return assignment_name(word) is not None


def program_name(word: str) -> str:
    name = os.path.basename(word)
    for base in _VERSIONED:
        if name.startswith(base) and name != base:
            rest = name[len(base) :]
            if all(c in "0123456789." for c in rest):
                return base
    if name == "py.test":
        return "pytest"
    return name


def peel(argv: list[str]) -> list[str]:
    """argv without env assignments, process wrappers and launchers in front of the program."""
    from rtok.shell.wrappers import peel_argv

    words = list(argv)
    for _ in range(16):
        words = words[peel_argv(words) :]
        if not words:
            return words
        name = program_name(words[0])
        if name == "python" and len(words) >= 3 and words[1] == "-m":
            words = words[2:]
            continue
        if name in _RUNNERS and len(words) >= 2:
            words = [w for w in words[1:] if not w.startswith("-")] or words[1:]
            continue
        if _RUN_SUB.get(name) is not None and len(words) >= 3 and words[1] == _RUN_SUB[name]:
            words = words[2:]
            continue
        return words
    return words


def family_of(argv: list[str]) -> tuple[str, list[str]]:
    """(family, argv of the program whose output it is)."""
    words = peel(argv)
    if not words:
        return "default", []
    name = program_name(words[0])
    if name in _SHELLS and len(words) >= 3 and words[1] in ("-c", "-lc", "-ec", "-euc"):
        return script_family(words[2])
    executed = _executed(name, words)
    if executed:
        return family_of(executed)
    return name, words


def _executed(name: str, words: list[str]) -> list[str]:
    """The command `find -exec` (fd -x, ...) runs, without its `{}`: what prints the
    output. Empty when the program runs none."""
    from rtok.compiled.runs_commands import RUNS_COMMANDS, VALUE_LETTERS

    options = RUNS_COMMANDS.get(name)
    if not options:
        return []
    # only find-like commands pay for it
    from rtok.shell.exec_options import command_end, command_start

    letters = VALUE_LETTERS.get(name, "")
    for i, word in enumerate(words):
        attached = command_start(options, letters, word)
        if attached is not None:
            run = words[i + 1 : command_end(words, i + 1)]
            return ([attached] if attached else []) + [arg for arg in run if arg != "{}"]
    return []


def family_of_command(command: str) -> tuple[str, list[str]]:
    """The family of a command line given as one string (`rtok filter --cmd`)."""
    units = _units(command)
    if len(units) == 1 and len(units[0]) == 1:
        return family_of(units[0][0])
    return script_family(command)


def script_family(script: str) -> tuple[str, list[str]]:
    programs: list[list[str]] = []
    for unit in _units(script):
        words = peel(unit[0])
        if words and program_name(words[0]) not in _SETUP:
            programs.append(words)
    distinct = {program_name(words[0]) for words in programs}
    if len(distinct) == 1:
        words = programs[-1]
        return program_name(words[0]), words
    # the script itself, read by `formatter_for` as a chain of tools
    return "script", ["sh", "-c", script]


def chain(script: str) -> list[list[str]]:
    """The argv of each command a script chains (`a && b; c`), the first stage of a
    pipeline standing for it."""
    return [unit[0] for unit in _units(script)]


def _units(script: str) -> list[list[list[str]]]:
    """Chain units (split on && || ; & newline), each a list of pipeline stages' words
    (quotes removed; a word that expands keeps its text), read by rtok.shell."""
    from rtok.shell import lexer, segments
    from rtok.shell.words import dequote

    lexed = lexer.lex(script)
    units: list[list[list[str]]] = [[]]
    for command in segments.simple_commands(lexed):
        raw = segments.strip_grammar(segments.word_texts(lexed, command))
        words = [
            value if value is not None else word for word, value in ((w, dequote(w)) for w in raw)
        ]
        if words:
            units[-1].append(words)
        if command.after not in ("|", "|&") and units[-1]:
            units.append([])
    return [unit for unit in units if unit]


def _subcommand(words: list[str]) -> str:
    """First non-option word after the program (skipping the global options that take a
    value, from the registry's rewrite groups: `git -C dir`, `git -c k=v`)."""
    from rtok.compiled.registry import REGISTRY

    index = REGISTRY["command_index"]
    groups = REGISTRY["groups"]
    takes_value: set[str] = set()
    for group in index.get(program_name(words[0]) if words else "", ()):
        takes_value.update(groups[group].get("global_options", ()))
    i = 1
    while i < len(words):
        word = words[i]
        if word in takes_value:
            i += 2
            continue
        if word.startswith("-"):
            i += 1
            continue
        return word
    return ""


def formatter_for(family: str, words: list[str]) -> Formatter | None:
    """The formatter that reads an output of `family` (rules/formatters.toml: the first of
    the family's rows whose conditions hold), or None: the family's line rule alone."""
    if family == "script":
        return _chain(words[2]) if len(words) == 3 else None
    rows = _dispatch_rows(family)
    reads_subcommand = any(row[0] != "*" or row[2] for row in rows)
    sub = _subcommand(words) if reads_subcommand else ""
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

        reader = _COMPOSITE_READERS[family] = composite_reader(family, fallback)
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

    return chain_reader(script)
