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


def subcommand(words: list[str]) -> str:
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
