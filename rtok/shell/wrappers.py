"""Looking through env prefixes, process wrappers and shells to the command that runs.

`timeout 30 env FOO=1 nice -n 5 cargo test` runs `cargo test`; `command_index` finds it by
reading each wrapper's options from the option tables in rules/registry.toml (compiled into
rtok/compiled/registry.py). An option a table does not list means "unknown": the caller
must then leave the command alone. `shell_script` finds the script of `bash -c '…'`.

Hot path: stdlib only.
"""

from __future__ import annotations

from rtok.compiled.registry import REGISTRY
from rtok.shell.words import assignment_name, basename, dequote

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Collection, Sequence

    from rtok.rewrite.registry_types import Shell, Wrapper

MAX_LAYERS = 10
# Words read after a wrapper's name: options and positionals never need more.
_OPTION_WINDOW = 64
DISABLE_VARIABLE = "RTOK_DISABLED"

_WRAPPERS = REGISTRY["wrappers"]
_SHELLS = REGISTRY["shells"]


# Assignments that change where a bare `rtok` is looked up.
PATH_VARIABLES = frozenset(("PATH",))


class Peeled:
    """Where the real command starts inside a simple command's words."""

    __slots__ = ("disabled", "index", "layers", "privileged", "resets_environment")

    def __init__(self, index: int, disabled: bool, layers: int, privileged: bool) -> None:
        self.index = index  # index of the command word
        self.disabled = disabled  # an RTOK_DISABLED assignment applies to this command
        self.layers = layers  # how many wrappers were looked through
        self.privileged = privileged  # a wrapper such as sudo was looked through
        # `env -i`, `env -u X`, `PATH=… cmd`: the command runs with another environment.
        self.resets_environment = False


def command_index(
    words: Sequence[str],
    *,
    through_privileged: bool = False,
    transparent: Sequence[tuple[str, ...]] = (),
) -> Peeled | None:
    """Find the command word after assignments and wrappers.

    Returns None when no command is left (`FOO=1`, `env` alone) or a wrapper carries an
    option its table does not know. `transparent` lists user prefixes (word tuples,
    longest first) to look through as well. Privileged wrappers (sudo) are looked through
    only when `through_privileged` is set; otherwise the result points at them.
    """
    n = len(words)
    layers = 0
    privileged = False
    i, disabled, resets = _assignments(words, 0, PATH_VARIABLES, False, False)
    while i < n and layers <= MAX_LAYERS:
        literal = dequote(words[i])
        if literal is None:
            return _peeled(i, disabled, layers, privileged, resets)
        prefix_len = _transparent_match(words, i, transparent)
        if prefix_len:
            i += prefix_len
            layers += 1
            continue
        table = _WRAPPERS.get(literal)  # a path-spelled wrapper is not looked through
        if table is None or (table.get("rewrite") is False and not through_privileged):
            return _peeled(i, disabled, layers, privileged, resets)
        privileged = privileged or table.get("rewrite") is False
        after = _wrapped_at(words, i, table)
        if after is None:
            return None  # an unknown option, or `env -S 'cmd'`: left alone
        i, found_disabled, found_reset, _ = after
        disabled = disabled or found_disabled
        resets = resets or found_reset
        layers += 1
    if i >= n or layers > MAX_LAYERS:
        return None
    return _peeled(i, disabled, layers, privileged, resets)


def _wrapped_at(
    words: Sequence[str], i: int, table: Wrapper
) -> tuple[int, bool, bool, str | None] | None:
    """`skip_options` for the wrapper at `i` (reading at most _OPTION_WINDOW words), None
    also when it has a script option (`env -S 'cmd'`)."""
    after = skip_options([dequote(w) for w in words[: i + 1 + _OPTION_WINDOW]], i + 1, table)
    return None if after is None or after[3] is not None else after


def _peeled(index: int, disabled: bool, layers: int, privileged: bool, resets: bool) -> Peeled:
    peeled = Peeled(index, disabled, layers, privileged)
    peeled.resets_environment = resets
    return peeled


def _transparent_match(words: Sequence[str], i: int, transparent: Sequence[tuple[str, ...]]) -> int:
    for prefix in transparent:
        k = len(prefix)
        if k and i + k < len(words) and tuple(dequote(w) for w in words[i : i + k]) == prefix:
            return k
    return 0


def skip_options(
    values: Sequence[str | None], i: int, table: Wrapper
) -> tuple[int, bool, bool, str | None] | None:
    """Read a wrapper's options and positionals from `values` (words after quote removal,
    None for one that expands), starting at `i`, just past the wrapper's name.

    Returns (index of the wrapped command, RTOK_DISABLED set, environment reset, the value
    of a script option such as `env -S '…'` or None), or None for an option the table does
    not know. An expansion where an option could stand stops the reading there: it is
    then the command word, which nobody can attest.
    """
    read = _read_options(values, i, table)
    if read is None:
        return None
    i, disabled, resets, script, stopped = read
    if stopped:
        return i, disabled, resets, script
    positionals = table["positionals"]
    if i + positionals > len(values):
        return None  # `timeout` without its duration (or an option without its value)
    i += positionals
    if positionals:
        i = _options_after_positionals(values, i, table["flags"], table["value_options"])
    if table["assignments"]:
        resetting = table["resets_environment"]
        i, disabled, resets = _assignments(values, i, resetting, disabled, resets)
    return i, disabled, resets, script


def _read_options(
    values: Sequence[str | None], i: int, table: Wrapper
) -> tuple[int, bool, bool, str | None, bool] | None:
    """The options part of `skip_options`: (index past the options, RTOK_DISABLED set,
    environment reset, script option value, stopped at an expansion), or None."""
    assignments = table["assignments"]
    resetting = table["resets_environment"]
    disabled = False
    resets = False
    script: str | None = None
    while i < len(values):
        word = values[i]
        if word is None:
            return i, disabled, resets, script, True
        if word == "--":
            i += 1
            break
        if assignments and assignment_name(word) is not None:
            # GNU env stops at the first assignment; reading on finds a later command
            # for the gate, and the rewriter only ever inserts before a command word.
            i, disabled, resets = _assignments(values, i, resetting, disabled, resets)
            continue
        if _ends_options(word, table["flags"]):
            break
        option = word.split("=", 1)[0] if word.startswith("--") else word[:2]
        resets = resets or option in resetting or word in resetting
        step = _option_step(word, option, values, i, table)
        if step is None:
            return None
        i, value, takes_value = step
        if takes_value and option in table["script_options"]:
            script = value if value is not None else ""
    return i, disabled, resets, script, False


def _ends_options(word: str, flags: Collection[str]) -> bool:
    """`word` is not an option (`-` is one only where the table lists it)."""
    return not word.startswith("-") or (word == "-" and "-" not in flags)


def _option_step(
    word: str, option: str, values: Sequence[str | None], i: int, table: Wrapper
) -> tuple[int, str | None, bool] | None:
    """(index past the option at `i`, its value, whether it takes one), or None when the
    table does not know it."""
    optional = table["optional_values"]
    if word in table["flags"] or (optional and _optional_value(word, option, optional)):
        return i + 1, None, False
    if option not in table["value_options"]:
        if table["numeric_flags"] and word[1:].isdigit():
            return i + 1, None, False
        return None
    i, value = _option_value(word, values, i)
    return i, value, True


def _options_after_positionals(
    values: Sequence[str | None], i: int, flags: Collection[str], value_options: Collection[str]
) -> int:
    """`setarch x86_64 -R cmd`: options the table knows may follow the positionals too."""
    n = len(values)
    while (
        i < n
        and values[i] is not None
        and values[i] != "--"
        and (values[i] in flags or values[i] in value_options)
    ):
        i += 2 if values[i] in value_options else 1
    return i + 1 if i < n and values[i] == "--" else i


def _optional_value(word: str, option: str, optional: Collection[str]) -> bool:
    """`--default-signal`, `--default-signal=INT`, `-n4`: an option whose value is optional
    and, when given, attached (`=SIG` for long options, the rest of the word for short
    ones); never a separate word."""
    if word in optional:
        return True
    return option in optional and (not word.startswith("--") or "=" in word)


def _option_value(word: str, values: Sequence[str | None], i: int) -> tuple[int, str | None]:
    """The index past the value-taking option `word` at `i` and its value: attached
    (`-k5`, `--signal=KILL`) or the next word (None when there is none, or it expands)."""
    if word.startswith("--"):
        if "=" in word:
            return i + 1, word.split("=", 1)[1]
    elif len(word) > 2:
        return i + 1, word[2:]
    return i + 2, values[i + 1] if i + 1 < len(values) else None


def _assignments(
    values: Sequence[str | None],
    i: int,
    resetting: Collection[str],
    disabled: bool,
    resets: bool,
) -> tuple[int, bool, bool]:
    """Read the assignments from `i` on (`env … FOO=1 cmd`): the index past them, and
    whether one sets RTOK_DISABLED or resets the environment (or `disabled`/`resets`
    already said so)."""
    n = len(values)
    while i < n:
        word = values[i]
        name = assignment_name(word) if word is not None else None
        if name is None:
            break
        disabled = disabled or name == DISABLE_VARIABLE
        resets = resets or name in resetting
        i += 1
    return i, disabled, resets


def shell_script(words: Sequence[str], index: int) -> tuple[int, str] | None:
    """For `bash [options] -c SCRIPT …` with the shell at `index`: (script index, dialect).

    None when the command is not a shell reading a `-c` script.
    """
    literal = dequote(words[index])
    if literal is None:
        return None
    table = _SHELLS.get(basename(literal))
    if table is None:
        return None
    dialect = table["dialect"]
    script = _script_index(words, index + 1, table, dialect == "fish")
    return None if script is None else (script, dialect)


def _script_index(words: Sequence[str], i: int, table: Shell, fish: bool) -> int | None:
    """Read a shell's options from `i` on: the index of the `-c` script, or None when there
    is none (no `-c`, an option the table does not know, or no word left for it)."""
    seen_c = False
    n = len(words)
    while i < n:
        word = dequote(words[i])
        if word is None:
            break  # an expanding word cannot be an option: it is the script (or an operand)
        if fish and word.startswith("--command") and (word == "--command" or word[9] == "="):
            # `--command=…` shares a word with its script: not rewritable in place
            return i + 1 if word == "--command" and i + 1 < n else None
        step = _shell_option(word, table)
        if step is None:
            return None
        if not step:
            break
        seen_c = seen_c or step == _WITH_C
        i += 2 if step == _WITH_VALUE else 1
    return i if seen_c and i < n else None


# What `_shell_option` finds in one word.
_NOT_AN_OPTION = 0
_OPTION = 1
_WITH_VALUE = 2
_WITH_C = 3


def _shell_option(word: str, table: Shell) -> int | None:
    """Whether `word` is one of the shell's options: a long flag, one that takes the next
    word, single letters holding `c` or not; None for letters the table does not list."""
    if word in table["long_flags"]:
        return _OPTION
    if word in table["value_options"]:
        return _WITH_VALUE
    if not word.startswith(("-", "+")) or len(word) <= 1:
        return _NOT_AN_OPTION
    with_c = _short_flags(word, table["flags"])
    if with_c is None:
        return None
    return _WITH_C if with_c else _OPTION


def _short_flags(word: str, letters: str) -> bool | None:
    """A word of single-letter flags (`-lc`, `+o`…): whether it holds `-c`, or None when it
    holds a letter the shell's table does not list."""
    body = word[1:]
    if word.startswith("+") and all(c in letters for c in body):
        return False
    if not all(c in letters or c == "c" for c in body):
        return None
    return "c" in body


def peel_argv(argv: Sequence[str]) -> int:
    """Index of the program in an argv (words already without quotes, as `rtok run` gets
    them) after assignments and every wrapper of the table, sudo included. An option a
    table does not know is stepped over with the words that look like options."""
    i = 0
    n = len(argv)
    for _ in range(MAX_LAYERS):
        while i < n and assignment_name(argv[i]) is not None:
            i += 1
        if i >= n:
            return i
        table = _WRAPPERS.get(basename(argv[i]))
        if table is None:
            return i
        after = skip_options(argv, i + 1, table)
        if after is None:
            i += 1
            while i < n and (argv[i].startswith("-") or argv[i][:1].isdigit()):
                i += 1
        else:
            i = after[0]
    return i
