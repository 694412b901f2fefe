"""Which family a command's output belongs to, and which formatter reads it.

Stdlib only (hot path). The family is the program's name with wrappers, env assignments and
interpreter launchers peeled off (`python -m pytest` is pytest). A `sh -c` script that chains
two or more distinct programs is the `script` family.
"""

from __future__ import annotations

from rtok._fast import oslite as os
from rtok.shell.words import assignment_name

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    Formatter = Callable[[str], "list[str] | None"]

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
    value, from the registry's family tables: `git -C dir`, `git -c k=v`)."""
    from rtok.compiled.registry import REGISTRY

    index = REGISTRY["command_index"]
    families = REGISTRY["families"]
    takes_value: set[str] = set()
    for family in index.get(program_name(words[0]) if words else "", ()):
        takes_value.update(families[family].get("global_options", ()))
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
    if family == "script":
        return _chain(words[2]) if len(words) == 3 else None
    if family == "git" and _subcommand(words) != "ls-files":
        sub = _subcommand(words)
        from rtok.filter.formatters import git

        return {
            "status": git.git_status,
            "log": git.git_log,
            "diff": git.git_diff,
            "show": git.git_show,
        }.get(sub)
    if family == "diff":
        from rtok.filter.formatters.git import unified_diff

        return unified_diff
    if family in _TEST_BUILD_FAMILIES:
        return _test_or_build_formatter(family, words)
    if family == "ls":
        from rtok.filter.formatters.listing import ls_long

        return ls_long
    if family in ("find", "fd", "fdfind") or (family == "git" and _subcommand(words) == "ls-files"):
        from rtok.filter.formatters.listing import paths_by_folder

        return paths_by_folder
    if family == "tree":
        from rtok.filter.formatters.listing import tree

        return tree
    if family in ("cat", "head", "tail", "zcat"):
        from rtok.filter.formatters.logs import log_lines

        return log_lines
    if family in ("grep", "rg", "egrep", "fgrep", "ag", "ack"):
        from rtok.filter.formatters.grep import grep_output

        return grep_output
    return None


# Test runners, builds and linters: family -> the table its formatter reads
# (`formatters/runners.py` or `formatters/diagnostics.py`); pytest, cargo and go have their own.
_RUNNER_OF = {
    "jest": "jest",
    "vitest": "vitest",
    "mocha": "mocha",
    "ava": "ava",
    "tap": "tap",
    "tape": "tap",
    "playwright": "playwright",
    "rspec": "rspec",
    "phpunit": "phpunit",
    "ctest": "ctest",
    "unittest": "unittest",
}
_DIAGNOSTICS_OF = {
    "rustc": "rustc",
    "tsc": "tsc",
    "vue-tsc": "tsc",
    "eslint": "eslint",
    "xo": "xo",
    "tsd": "tsd",
    "ruff": "ruff",
    "mypy": "mypy",
    "dmypy": "mypy",
    "pyright": "pyright",
    "basedpyright": "pyright",
    "flake8": "flake8",
    "pylint": "pylint",
    "gcc": "gcc",
    "g++": "gcc",
    "cc": "gcc",
    "c++": "gcc",
    "clang": "gcc",
    "clang++": "gcc",
    "make": "make",
    "gmake": "make",
    "ninja": "make",
    "javac": "javac",
    "mvn": "mvn",
    "mvnw": "mvn",
    "gradle": "gradle",
    "gradlew": "gradle",
    "dotnet": "dotnet",
    "msbuild": "dotnet",
}
_PACKAGE_SCRIPTS = {"npm", "pnpm", "yarn", "bun"}
_TEST_BUILD_FAMILIES = frozenset(
    {
        "pytest",
        "cargo",
        "go",
        "node",
        *_RUNNER_OF,
        *_DIAGNOSTICS_OF,
        *_PACKAGE_SCRIPTS,
        "just",
        "tox",
        "nox",
    }
)
# families whose output is other tools' output in sections
_RECIPES = frozenset({"make", "gmake", "ninja", "just", "tox", "nox"})
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


def _test_or_build_formatter(family: str, words: list[str]) -> Formatter | None:
    sub = _subcommand(words)
    if family == "pytest":
        from rtok.filter.formatters.pytest_fmt import pytest_output

        return pytest_output
    if family == "cargo":
        from rtok.filter.formatters import cargo

        if sub in ("test", "nextest", "t"):
            return cargo.cargo_test
        if sub in ("build", "check", "clippy", "run", "b", "c", "r", "rustc", "doc"):
            return cargo.cargo_build
        return None
    if family == "go":
        if sub == "test":
            from rtok.filter.formatters.gotest import go_test

            return go_test
        if sub in ("build", "vet", "run", "install"):
            from rtok.filter.formatters.diagnostics import diagnostics_for

            return diagnostics_for("go")
        return None
    if family == "node":
        if "--test" not in words:
            return None
        from rtok.filter.formatters.runners import FORMATTERS

        return FORMATTERS["tap"]
    if family in _PACKAGE_SCRIPTS or family in _RECIPES:
        return _script_formatter(family, words, sub)
    runner = _RUNNER_OF.get(family)
    if runner is not None:
        from rtok.filter.formatters.runners import FORMATTERS

        return FORMATTERS[runner]
    if _DIAGNOSTICS_OF.get(family) == "mvn":
        from rtok.filter.formatters.surefire import maven_output

        return maven_output
    if family == "ruff" and sub == "format":
        return _ruff_format(words)
    if family == "dotnet" and sub not in ("build", "msbuild", "publish", "pack", "run"):
        return None
    from rtok.filter.formatters.diagnostics import diagnostics_for

    return diagnostics_for(_DIAGNOSTICS_OF[family])


def _ruff_format(words: list[str]) -> Formatter:
    """`ruff format --diff` prints a unified diff; `--check` (and a plain run) its files."""
    if "--diff" in words:
        from rtok.filter.formatters.git import unified_diff

        return unified_diff
    from rtok.filter.formatters.ruff_format import ruff_format

    return ruff_format


def _chain(script: str) -> Formatter | None:
    """A script chaining tools (`ruff check . && pytest -q`): each tool's part read by its
    own reader (`rtok.filter.composite`), when one of them has a reader."""
    from rtok.filter.composite import chain_reader

    return chain_reader(script)


def _script_formatter(family: str, words: list[str], sub: str) -> Formatter | None:
    """A package's test script, a make or just recipe, a tox or nox session: the tools'
    sections, each read by its own reader."""
    if family in _PACKAGE_SCRIPTS:
        if (
            sub not in ("t", "tst")
            and not _is_test_script(sub)
            and not (sub in ("run", "run-script") and any(map(_is_test_script, words[2:4])))
        ):
            return None
        from rtok.filter.formatters.runners import detect_runner

        return _composite(family, detect_runner)
    from rtok.filter.formatters.diagnostics import diagnostics_for

    return _composite(
        family, diagnostics_for("make") if family in ("make", "gmake", "ninja") else None
    )
