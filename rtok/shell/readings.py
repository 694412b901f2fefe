"""Every reading of one simple command that bash could execute, for the permission gate.

A deny rule for `git push` must match `git "push"`, `\\git push`, `/usr/bin/git push`,
`noglob git push`, `git -C . push` and `find . -exec git push ;` alike. `read_command`
takes the words of one simple command (as written, grammar words already stripped) and
returns:
- `forms`: texts to check deny and ask rules against: as written, after quote removal,
  from each command word left after peeling assignments and wrappers (also generously,
  through options the wrapper tables do not know), with a path-spelled program reduced to
  its name, and with the program's global options that do not change its subcommand
  skipped (from the family tables of rules/registry.toml);
- `executed`: the command as bash runs it (quotes removed, each word re-quoted when it
  needs it), which allow rules are checked against; None when it cannot be vouched for;
- `inner`: the commands it runs in turn (the command behind its wrappers, `find -exec`,
  `xargs CMD`), as word lists, which the gate reads the same way;
- `attestable`: False when the command word or a subcommand comes from an expansion
  (`$x push`, `git $y`): such a line is never rewritten nor allowed.

Hot path: stdlib only.
"""

from __future__ import annotations

from rtok.compiled.registry import REGISTRY
from rtok.shell.exec_options import command_end, command_start
from rtok.shell.words import assignment_name, basename, dequote, quote_word
from rtok.shell.wrappers import skip_options

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

    from rtok.rewrite.registry_types import Family, Wrapper

_WRAPPERS = REGISTRY["wrappers"]
_FAMILIES = REGISTRY["families"]
_INDEX = REGISTRY["command_index"]
_RUNS = REGISTRY["runs_commands"]
_VALUE_LETTERS = REGISTRY["value_letters"]
_SHELLS = REGISTRY["shells"]
# Builtins after which a word no longer means what it says (`shopt -s expand_aliases`).
_REDEFINE = frozenset(("alias",))
# Global option values that define a subcommand alias on the command line.
_INLINE_ALIASES = {"git": ("alias.",), "yadm": ("alias.",)}

# fish's connectives (`git fetch; and git push`): bash would run a command named `and`,
# fish runs what follows. Deny and ask rules see both readings.
_FISH_CONNECTIVES = frozenset(("and", "or", "not", "begin"))
# Wrappers looked through, and later words tried as the command after an unknown option:
# enough for any real chain, and it keeps the work linear in the length of the line.
MAX_LAYERS = 64
MAX_GUESSES = 64


class Reading:
    """What the gate needs to know about one simple command (see module docstring)."""

    __slots__ = ("attestable", "executed", "forms", "inner")

    def __init__(self) -> None:
        self.forms: list[str] = []
        self.executed: str | None = None
        self.inner: list[list[str]] = []
        self.attestable = True

    def add(self, form: str) -> None:
        form = form.strip()
        if form and form not in self.forms:
            self.forms.append(form)


# Characters that make bash expand a word into other words: brace expansion
# (`{git,push}`, `git {push,}`) and globs (`/usr/bin/gi? push`, `git pu[s]h`). In a command
# word or a subcommand the text no longer says what runs. Quoted, they are literal, but a
# quoted `*` in a command name is rare enough to be read the cautious way too.
_EXPANDING = frozenset("{*?[")


def expands(word: str) -> bool:
    """True when bash may turn `word` into other text (brace expansion, glob, `~user`)."""
    return any(c in _EXPANDING for c in word) or (word.startswith("~") and
                                                   not word.startswith(("~/", "~:")) and
                                                   word != "~")


def _literal(word: str, value: str | None) -> str:
    return word if value is None else value


def executed_form(words: Sequence[str], dialect: str = "bash") -> str | None:
    """The words as bash passes them on (quote removal, then re-quoted where needed); None
    when one of them expands to something the text does not show."""
    out = []
    for word in words:
        value = dequote(word, dialect)
        if value is None:
            return None
        out.append(word if value == word else quote_word(value))
    return " ".join(out)


def read_command(words: Sequence[str], dialect: str = "bash") -> Reading:
    """The readings of one simple command's words (see module docstring)."""
    reading = Reading()
    words = list(words)
    if not words:
        return reading
    values = [dequote(w, dialect) for w in words]
    literals = [_literal(w, v) for w, v in zip(words, values, strict=True)]
    reading.add(" ".join(words))
    reading.add(" ".join(literals))
    reading.executed = executed_form(words, dialect)
    i = 0
    while i < len(words) and assignment_name(words[i]) is not None:
        i += 1
    layers = 0
    while i < len(words) and layers <= MAX_LAYERS:
        layers += 1
        value = values[i]
        if value is None or expands(words[i]):
            # `$x push`, `{git,push}`, `/usr/bin/gi? push`: the command word is not in the
            # text as bash will run it
            reading.attestable = False
            if value is None:
                return reading
        name = basename(value)
        reading.add(" ".join(words[i:]))
        reading.add(" ".join(literals[i:]))
        reading.add(" ".join([name, *literals[i + 1 :]]))
        if name in _FISH_CONNECTIVES and name not in _WRAPPERS:
            i += 1
            continue
        if _hides_what_runs(name, values, i):
            reading.attestable = False
        table = _WRAPPERS.get(name)
        if table is not None:
            _read_wrapped(table, words, values, literals, i, reading)
            return reading
        _read_program(name, words, values, literals, i, reading)
        return reading
    if i < len(words):
        reading.attestable = False  # more wrappers than are read
        _add_guesses(reading, literals, i)
    return reading


def _read_wrapped(table: Wrapper, words: list[str], values: list[str | None],
                  literals: list[str], i: int, reading: Reading) -> None:
    """Read past the options of the wrapper at `i`: the wrapped command becomes an inner
    reading; an option the table does not know makes each later word a guess."""
    after = skip_options(values, i + 1, table)
    if after is None:
        # An option rtok does not know: the command may start at any later word, so deny
        # rules see each of those readings.
        _add_guesses(reading, literals, i + 1)
        reading.executed = None
        return
    i, _disabled, _resets, script = after
    if script is not None:
        # `env -S 'git push'`: the value is split into words and run.
        reading.inner.append([*script.split(), *words[i:]])
        reading.executed = None
    elif i < len(words):
        reading.inner.append(words[i:])  # read on its own, as the next reading


def _add_guesses(reading: Reading, literals: list[str], start: int) -> None:
    """Add the reading that starts at each word from `start` on (up to MAX_GUESSES)."""
    for j in range(start, min(len(literals), start + MAX_GUESSES)):
        reading.add(" ".join(literals[j:]))


def _hides_what_runs(name: str, values: list[str | None], i: int) -> bool:
    """`alias g='git push'` (later words mean other things), `echo 'git push' | sh` and
    `bash <<< 'git push'` (the script is not in the line)."""
    return name in _REDEFINE or (name in _SHELLS and _reads_stdin(values, i))


def _reads_stdin(values: list[str | None], i: int) -> bool:
    """A shell at `i` with neither `-c` nor a script operand: it runs what stdin holds."""
    for value in values[i + 1 :]:
        if value is None:
            return True
        if value.startswith(("-", "+")) and value not in ("-", "--", "-s"):
            if "c" in value.lstrip("-+") and not value.startswith("--"):
                return False  # `-c SCRIPT`: read by nested_scripts
            continue
        return value in ("-", "--", "-s")
    return True


def _inline_alias(name: str, values: list[str | None], start: int, end: int) -> bool:
    """`git -c alias.p=push p`: an alias given on the command line renames a subcommand."""
    prefixes = _INLINE_ALIASES.get(name)
    if not prefixes:
        return False
    k = start
    end = min(end, len(values))  # `git -C` with its value missing
    while k < end:
        value = values[k]
        if value in ("-c", "--config-env"):
            setting = values[k + 1] if k + 1 < end else None
            k += 2
        elif value is not None and value.startswith(("-c", "--config-env=")):
            setting = value.split("=", 1)[1] if value.startswith("--") else value[2:]
            k += 1
        else:
            k += 1
            continue
        if setting is None or any(p in setting for p in prefixes):
            return True
    return False


def _read_program(
    name: str,
    words: list[str],
    values: list[str | None],
    literals: list[str],
    i: int,
    reading: Reading,
) -> None:
    """Add the global-option-free form and the commands run by `-exec`-style options."""
    for family_name in _INDEX.get(name, ()):
        family = _FAMILIES[family_name]
        if family.get("subcommands") is None:
            continue
        p = _past_global_options(family, values, i + 1)
        if p < len(words) and (values[p] is None or expands(words[p])):
            reading.attestable = False  # `git $y`, `git {push,}`: not in the text
        if _inline_alias(name, values, i + 1, p):
            reading.attestable = False
        if p > i + 1:
            reading.add(" ".join([name, *literals[p:]]))
    exec_options = _RUNS.get(name)
    if exec_options:
        _read_exec_options(exec_options, _VALUE_LETTERS.get(name, ""), words, values, i + 1,
                           reading)


def _past_global_options(family: Family, values: list[str | None], p: int) -> int:
    """The index of the first word from `p` on that is not one of the family's global
    options (with its value) or flags: where the subcommand stands."""
    options = family.get("global_options", ())
    flags = family.get("global_flags", ())
    while p < len(values):
        value = values[p]
        if value is None:
            break
        if value in flags:
            p += 1
        elif value in options:
            p += 2
        elif (value.startswith("--") and value.split("=", 1)[0] in options) or (
            len(value) > 2 and not value.startswith("--") and value[:2] in options
        ):
            p += 1
        else:
            break
    return p


def _read_exec_options(
    exec_options: tuple[str, ...],
    value_letters: str,
    words: list[str],
    values: list[str | None],
    k: int,
    reading: Reading,
) -> None:
    """`find . -exec CMD ;`, `fd -xCMD`, `xargs CMD`: each command an option runs becomes an
    inner reading (up to `;` or `+`). Every word that may be such an option starts one, even
    inside another's command or as an operand (`find -name -exec -exec rm {} ;`): a reading
    too many only asks, one too few lets a denied command run."""
    starts = 0
    while k < len(words):
        attached = command_start(exec_options, value_letters, values[k])
        if attached is not None:
            starts += 1
            if starts > MAX_LAYERS:
                reading.attestable = False  # more commands than are read
                return
            end = command_end(values, k + 1)
            command = ([_single_quoted(attached)] if attached else []) + words[k + 1 : end]
            if command:
                reading.inner.append(command)
        k += 1


def _single_quoted(text: str) -> str:
    return "'" + text.replace("'", "'\\''") + "'"


def all_readings(words: Sequence[str], dialect: str = "bash") -> list[Reading]:
    """The reading of `words` followed by those of every command it runs in turn."""
    out: list[Reading] = []
    pending = [list(words)]
    while pending and len(out) < MAX_LAYERS:
        reading = read_command(pending.pop(0), dialect)
        out.append(reading)
        pending += reading.inner
    if pending:
        blocked = Reading()
        blocked.attestable = False  # more nested commands than are read
        out.append(blocked)
    return out


def all_attestable(words: Sequence[str], dialect: str = "bash") -> bool:
    """False when this command, or one it runs, takes its name from an expansion."""
    return all(reading.attestable for reading in all_readings(words, dialect))
