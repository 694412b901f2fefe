"""Every reading of one simple command that bash could execute, for the permission gate.

A deny rule for `git push` must match `git "push"`, `\\git push`, `/usr/bin/git push`,
`noglob git push`, `git -C . push` and `find . -exec git push ;` alike. `read_command`
takes the words of one simple command (as written, grammar words already stripped) and
returns:
- `forms`: texts to check deny and ask rules against: as written, after quote removal,
  from each command word left after peeling assignments and wrappers (also generously,
  through options the wrapper tables do not know), with a path-spelled program reduced to
  its name, and with the program's global options that do not change its subcommand
  skipped (from the rewrite groups of rules/registry.toml);
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

    from rtok.rewrite.registry_types import RewriteGroup, Runner, Wrapper

_WRAPPERS = REGISTRY["wrappers"]
_GROUPS = REGISTRY["groups"]
_INDEX = REGISTRY["command_index"]
_RUNS = REGISTRY["runs_commands"]
_VALUE_LETTERS = REGISTRY["value_letters"]
_SHELLS = REGISTRY["shells"]
_RUNNERS = REGISTRY["runners"]
_COMMAND_VARIABLES = frozenset(REGISTRY["command_variables"])
# Ways of giving a runner its command that the gate cannot read (rules/registry.toml
# [runners]): a line running such a runner is opaque.
_UNREAD_WAYS = frozenset(("stdin", "file", "code", "always"))
# Builtins that make a name refer to another variable or evaluate text later.
_DECLARERS = frozenset(("declare", "typeset", "local", "readonly", "export"))
# Builtins whose arguments name variables they set, export or unset.
_NAME_TAKERS = _DECLARERS | frozenset(
    ("unset", "read", "mapfile", "readarray", "printf", "getopts", "let")
)
# Builtins after which a word no longer means what it says (`shopt -s expand_aliases`).
_REDEFINE = frozenset(("alias",))
# Global option values that define a subcommand alias on the command line.
_INLINE_ALIASES = {"git": ("alias.",), "yadm": ("alias.",)}

# fish's connectives (`git fetch; and git push`): bash would run a command named `and`,
# fish runs what follows. Deny and ask rules see both readings.
_FISH_CONNECTIVES = frozenset(("and", "or", "not", "begin"))
# The tables whose names the readings below treat apart from others (looked up one by one:
# building their union would cost every hook start more than the lookups cost a line).
_TABLES = (_FISH_CONNECTIVES, _REDEFINE, _SHELLS, _RUNNERS, _WRAPPERS, _INDEX, _RUNS)
# Wrappers looked through, and later words tried as the command after an unknown option:
# enough for any real chain, and it keeps the work linear in the length of the line.
MAX_LAYERS = 64
MAX_GUESSES = 64


class Reading:
    """What the gate needs to know about one simple command (see module docstring)."""

    __slots__ = ("attestable", "executed", "forms", "inner", "opaque")

    def __init__(self) -> None:
        self.forms: list[str] = []
        self.executed: str | None = None
        self.inner: list[list[str]] = []
        self.attestable = True
        # It runs a command the gate cannot read (`python3 -c …`, `bash x.sh`, `ssh h cmd`,
        # `PAGER=… git -p log`): never auto-allowed while deny or ask rules exist.
        self.opaque = False

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
    return not _EXPANDING.isdisjoint(word) or (
        word.startswith("~") and not word.startswith(("~/", "~:")) and word != "~"
    )


def _literal(word: str, value: str | None) -> str:
    return word if value is None else value


def executed_form(words: Sequence[str], dialect: str = "bash") -> str | None:
    """The words as bash passes them on (quote removal, then re-quoted where needed); None
    when one of them expands to something the text does not show."""
    return _executed(words, [dequote(word, dialect) for word in words])


def _executed(words: Sequence[str], values: Sequence[str | None]) -> str | None:
    """`executed_form` from the words and their dequoted values."""
    if None in values:
        return None
    return " ".join(
        word if value == word else quote_word(value)  # type: ignore[arg-type]
        for word, value in zip(words, values, strict=True)
    )


def read_command(words: Sequence[str], dialect: str = "bash") -> Reading:
    """The readings of one simple command's words (see module docstring)."""
    reading = Reading()
    words = list(words)
    if not words:
        return reading
    values = [dequote(w, dialect) for w in words]
    if _plain(words, values):
        # `make`, `ls -la src`: words that are their own values, under a name no table
        # knows and with no assignment: one reading, as written.
        joined = " ".join(words)
        reading.add(joined)
        reading.executed = joined
        reading.attestable = not expands(words[0])
        return reading
    literals = [_literal(w, v) for w, v in zip(words, values, strict=True)]
    reading.add(" ".join(words))
    reading.add(" ".join(literals))
    reading.executed = _executed(words, values)
    if _late_text(words, values):
        reading.opaque = True
    i = 0
    while i < len(words) and assignment_name(words[i]) is not None:
        i += 1
    layers = 0
    while i < len(words) and layers <= MAX_LAYERS:
        layers += 1
        if not _read_layer(words, values, literals, i, reading):
            return reading
        i += 1
    if i < len(words):
        reading.attestable = False  # more wrappers than are read
        _add_guesses(reading, literals, i)
    return reading


def _plain(words: list[str], values: list[str | None]) -> bool:
    """Every word is its own value (quote removal left it as it is, `dequote` gave the same
    string back) with no `=`, and the command word is a plain name (no `/`, no zsh `=`)
    that none of the tables read here lists: `read_command` would add nothing but the
    words as written."""
    head = words[0]
    if "/" in head or head.startswith("=") or head in _NAME_TAKERS:
        return False
    for table in _TABLES:
        if head in table:
            return False
    return all(v is w and "=" not in w for w, v in zip(words, values, strict=True))


def _read_layer(
    words: list[str], values: list[str | None], literals: list[str], i: int, reading: Reading
) -> bool:
    """Read the command whose word is at `i`; True when that word is a fish connective
    (`and git push`) and the command starts at the next word."""
    value = values[i]
    if value is None or expands(words[i]):
        # `$x push`, `{git,push}`, `/usr/bin/gi? push`: the command word is not in the
        # text as bash will run it
        reading.attestable = False
        if value is None:
            return False
    name = basename(value)
    if name.startswith("=") and len(name) > 1:
        name = name[1:]  # zsh's `=rm` is the path of `rm`
    reading.add(" ".join(words[i:]))
    reading.add(" ".join(literals[i:]))
    reading.add(" ".join([name, *literals[i + 1 :]]))
    if name in _FISH_CONNECTIVES and name not in _WRAPPERS:
        return True
    if _hides_what_runs(name, values, i):
        reading.attestable = False
    runner = _RUNNERS.get(name)
    if runner is not None and _runs_unread(name, runner, values, i):
        reading.opaque = True
    table = _WRAPPERS.get(name)
    if table is not None:
        _read_wrapped(table, words, values, literals, i, reading)
    else:
        _read_program(name, words, values, literals, i, reading)
    return False


def _read_wrapped(
    table: Wrapper,
    words: list[str],
    values: list[str | None],
    literals: list[str],
    i: int,
    reading: Reading,
) -> None:
    """Read past the options of the wrapper at `i`: the wrapped command becomes an inner
    reading; an option the table does not know makes each later word a guess."""
    wrapper = values[i]
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
        if wrapper is not None and basename(wrapper) == "xargs" and _feeds_a_runner(values, i):
            reading.opaque = True  # `xargs sh -c`, `xargs -I% sh -c %`: stdin is the script


def _add_guesses(reading: Reading, literals: list[str], start: int) -> None:
    """Add the reading that starts at each word from `start` on (up to MAX_GUESSES)."""
    for j in range(start, min(len(literals), start + MAX_GUESSES)):
        reading.add(" ".join(literals[j:]))


def _hides_what_runs(name: str, values: list[str | None], i: int) -> bool:
    """`alias g='git push'` (later words mean other things), `echo 'git push' | sh` and
    `bash <<< 'git push'` (the script is not in the line)."""
    return name in _REDEFINE or (name in _SHELLS and _reads_stdin(values, i))


def _reads_stdin(values: list[str | None], i: int) -> bool:
    """A shell at `i` with neither `-c` nor a script operand: it runs what stdin holds
    (`bash -o posix <<< …`, `bash -s`, `bash /dev/stdin`)."""
    name = basename(values[i] or "")
    value_options = _SHELLS[name]["value_options"] if name in _SHELLS else ()
    k = i + 1
    while k < len(values):
        value = values[k]
        if value is None:
            return True
        if value in value_options:
            k += 2  # `-o posix`, `-O extglob`, `--rcfile f`
            continue
        if value.startswith(("-", "+")) and value not in ("-", "--", "-s"):
            if "c" in value.lstrip("-+") and not value.startswith("--"):
                return False  # `-c SCRIPT`: read by nested_scripts
            k += 1
            continue
        return (
            value in ("-", "--", "-s")
            or value.startswith("/dev/")
            or value.startswith("/proc/self/fd/")
        )
    return True


def _runs_unread(name: str, runner: Runner, values: list[str | None], i: int) -> bool:
    """Whether the runner `name` at `i` runs something the gate cannot read here: inline
    code, a script file, stdin, or always (see [runners] in rules/registry.toml)."""
    how = runner["how"]
    if "always" in how:
        return True
    args = values[i + 1 : i + 1 + MAX_GUESSES]
    words = [a for a in args if a is not None]
    if len(words) < len(args) and how != ("code",):
        return True  # `awk "$prog"`, `python3 "$script"`: what runs is not in the text
    reader = runner["reader"]
    if reader:
        return _has_option(words, runner["code_options"]) or _program_runs(reader, words)
    if "code" in how and _runs_code(runner, words):
        return True
    if not _UNREAD_WAYS.intersection(how) or set(how) == {"code"}:
        return False
    return _runs_unseen(name, runner, words, values, i)


def _runs_code(runner: Runner, words: Sequence[str]) -> bool:
    """Inline code (`python3 -c …`) or a setting that names a program (`git -c
    core.pager=…`)."""
    return _has_option(words, runner["code_options"]) or _runs_setting(
        words, runner["code_settings"]
    )


def _runs_unseen(
    name: str, runner: Runner, words: Sequence[str], values: list[str | None], i: int
) -> bool:
    """A runner that may read its command from stdin or a file: False when an option says
    it does not here (a safe option, a command option, a command in argv)."""
    how = runner["how"]
    if _has_option(words, runner["safe_options"]):
        return False
    if name in _SHELLS:
        return _shell_reads_unseen(name, values, i)
    if "option" in how and _has_option(words, runner["command_options"]):
        return False
    if "argv" in how:
        return _no_command(name, values, i)
    return True


def _has_option(words: Sequence[str], options: Sequence[str]) -> bool:
    """One of `options` is among `words`: as a word, `--opt=value`, or a short option with
    its value attached or ending a cluster (`-qc`, `-ecmd`)."""
    if not options:
        return False
    letters = "".join(o[1] for o in options if len(o) == 2 and o[0] == "-")
    for word in words:
        if word[:1] != "-":
            continue
        if word == "--":
            return False
        if word in options or (word.startswith("--") and word.split("=", 1)[0] in options):
            return True
        if letters and not word.startswith("--") and any(c in letters for c in word[1:]):
            return True
    return False


def _runs_setting(words: Sequence[str], parts: Sequence[str]) -> bool:
    """`git -c core.pager='rm x' log`: a `-c NAME=VALUE` whose NAME holds one of `parts`."""
    if not parts:
        return False
    for k, word in enumerate(words):
        if word == "-c" and k + 1 < len(words):
            setting = words[k + 1]
        elif word.startswith("-c") and len(word) > 2:
            setting = word[2:]
        else:
            continue
        name = setting.split("=", 1)[0].lower()
        if any(part in name for part in parts):
            return True
    return False


def _shell_reads_unseen(name: str, values: list[str | None], i: int) -> bool:
    """A shell with a script file, or stdin, instead of a `-c` script."""
    from rtok.shell.wrappers import shell_script

    literal = [v if v is not None else "$x" for v in values]
    return shell_script(literal, i) is None


def _no_command(name: str, values: list[str | None], i: int) -> bool:
    """An argv runner that reads stdin when no command follows (`chroot /`, `unshare`)."""
    table = _WRAPPERS.get(name)
    if table is None:
        return True
    after = skip_options(values, i + 1, table)
    return after is None or after[0] >= len(values)


def _program_runs(reader: str, words: Sequence[str]) -> bool:
    """An awk or sed program (the first operand, or each `-e` value for sed) that runs
    commands: awk's system(), getline and pipes; sed's `e` command and `/e` flag."""
    programs = _programs(words, sed=reader == "sed")
    if reader == "awk":
        return any(("system" in p or "getline" in p or "|" in p or "@load" in p) for p in programs)
    return any(_sed_executes(p) for p in programs)


def _programs(words: Sequence[str], sed: bool) -> list[str]:
    """The program texts of an awk or sed command line: the first operand, and for sed
    every `-e`/`--expression` value."""
    out: list[str] = []
    k = 0
    while k < len(words):
        word = words[k]
        if sed and word in ("-e", "--expression"):
            out.append(words[k + 1] if k + 1 < len(words) else "")
            k += 2
            continue
        if sed and _attached_expression(word) is not None:
            out.append(_attached_expression(word))  # type: ignore[arg-type]
        elif word in ("-v", "-F") and not sed:
            k += 2
            continue
        elif word == "--" or (not word.startswith("-") and not out):
            if word != "--":
                out.append(word)
            elif not out and k + 1 < len(words):
                out.append(words[k + 1])
            break
        k += 1
    return out


def _attached_expression(word: str) -> str | None:
    """The sed program given in the same word as its option (`--expression=P`, `-eP`)."""
    if word.startswith("--expression="):
        return word.split("=", 1)[1]
    if word.startswith("-e") and not word.startswith("--"):
        return word[2:]
    return None


def _sed_executes(program: str) -> bool:
    """A sed program with an `e` command or an `s///e` flag (read cautiously: any `e`
    where a command or a flag may stand)."""
    i = 0
    n = len(program)
    while i < n:
        c = program[i]
        if c in " \t\n;{}!0123456789,$~+":
            i += 1
        elif c in "/\\":
            i = _skip_delimited(
                program, i, program[i + 1] if c == "\\" and i + 1 < n else c, 1 if c == "/" else 2
            )
        elif c == "s" or c == "y":
            if i + 1 >= n:
                return False
            i = _past_replacement(program, i, c == "s")
            if i < 0:
                return True
        elif c == "e" or c in "wW":
            return True  # `w`/`W` write a file: not the gate's to judge, read cautiously
        elif c in "aicrRbtTqQlL:#":
            end = program.find("\n", i)
            i = n if end < 0 else end
        else:
            i += 1
    return False


def _past_replacement(program: str, i: int, substitute: bool) -> int:
    """Past `s/A/B/FLAGS` or `y/A/B/` at `i`: the index of the next command, or -1 when
    its flags run or write something (`e`, `w`)."""
    n = len(program)
    delim = program[i + 1]
    i = _skip_delimited(program, i + 1, delim, 1)
    i = _skip_delimited(program, i - 1, delim, 1)
    while i < n and program[i] not in ";\n}":
        if program[i] == "e" and substitute:
            return -1
        if program[i] == "w":
            return -1  # `w /dev/stdout` is fine, but `w file` writes: cautious
        i += 1
    return i


def _skip_delimited(text: str, i: int, delim: str, skip: int) -> int:
    """Index just past the part of `text` that starts at `i + skip` and ends at `delim`."""
    j = i + skip
    while j < len(text):
        if text[j] == "\\":
            j += 2
        elif text[j] == delim:
            return j + 1
        else:
            j += 1
    return j


def _feeds_a_runner(values: list[str | None], i: int) -> bool:
    """`xargs … CMD` where CMD runs its arguments as code (`xargs sh -c`, `xargs eval`) or
    is itself a replaced argument (`xargs -I% % …`)."""
    head = values[i]
    if head is None:
        return True
    name = basename(head)
    runner = _RUNNERS.get(name)
    how = runner["how"] if runner is not None else ()
    if (
        name in _SHELLS
        or name == "eval"
        or any(way in how for way in ("option", "stdin", "file", "always"))
    ):
        return True
    return "%" in head or "{}" in head or not name


def _late_text(words: Sequence[str], values: list[str | None]) -> bool:
    """A command that assigns a variable whose value some program runs later
    (`PAGER=… git -p log`, `export BASH_ENV=f`), or makes a name refer to other text bash
    evaluates later (`declare -n r=…`, `${x@P}`, `${!x}`)."""
    takes_names = bool(values) and values[0] in _NAME_TAKERS
    for word, value in zip(words, values, strict=True):
        if takes_names and value in _COMMAND_VARIABLES:
            return True  # `export PAGER`, `read PS4`, `unset PATH`
        if "=" in word and _assigns_command_variable(word):
            return True
        if "$" in word and ("@P" in word or "${!" in word):
            return True
    return bool(words) and words[0] in _DECLARERS and _has_n_flag(values[1:])


def _assigns_command_variable(word: str) -> bool:
    """`PAGER=…`, `BASH_ENV+=…`: an assignment to one of [command_variables]."""
    name = assignment_name(word)
    return name is not None and name.rstrip("+") in _COMMAND_VARIABLES


def _has_n_flag(values: Sequence[str | None]) -> bool:
    """An option word holding `n` (`declare -n`, `local -rn`)."""
    return any(v is not None and v.startswith("-") and "n" in v for v in values)


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
    for group_name in _INDEX.get(name, ()):
        group = _GROUPS[group_name]
        if group.get("subcommands") is None:
            continue
        p = _past_global_options(group, values, i + 1)
        if p < len(words) and (values[p] is None or expands(words[p])):
            reading.attestable = False  # `git $y`, `git {push,}`: not in the text
        if _inline_alias(name, values, i + 1, p):
            reading.attestable = False
        if p > i + 1:
            reading.add(" ".join([name, *literals[p:]]))
    exec_options = _RUNS.get(name)
    if exec_options:
        _read_exec_options(
            exec_options, _VALUE_LETTERS.get(name, ""), words, values, i + 1, reading
        )


def _past_global_options(group: RewriteGroup, values: list[str | None], p: int) -> int:
    """The index of the first word from `p` on that is not one of the group's global
    options (with its value) or flags: where the subcommand stands."""
    options = group.get("global_options", ())
    flags = (*group.get("global_flags", ()), *group.get("pager_flags", ()))
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
                if "{}" in command[0]:
                    reading.opaque = True  # `-exec {} ;`: the file names are the commands
        k += 1


def _single_quoted(text: str) -> str:
    return "'" + text.replace("'", "'\\''") + "'"


# One decision reads the same commands several times (the gate's rules, whether the line
# can be attested, every repeated `a; a`): the readings of recent word lists are kept, up
# to about _MEMO_CHARS characters of words. Readings are never modified once made.
_MEMO: dict[tuple[tuple[str, ...], str], list[Reading]] = {}
_MEMO_CHARS = 1 << 18
_memo_size = [0]


def clear_memo() -> None:
    """Forget the memoised readings (see rtok.shell.lexer.clear_memos)."""
    _MEMO.clear()
    _memo_size[0] = 0


def all_readings(words: Sequence[str], dialect: str = "bash") -> list[Reading]:
    """The reading of `words` followed by those of every command it runs in turn (the
    list is shared: callers must not modify it)."""
    key = (tuple(words), dialect)
    found = _MEMO.get(key)
    if found is None:
        found = _all_readings(words, dialect)
        size = len(words) + sum(map(len, words))
        if _memo_size[0] + size > _MEMO_CHARS:
            _MEMO.clear()
            _memo_size[0] = 0
        _MEMO[key] = found
        _memo_size[0] += size
    return found


def _all_readings(words: Sequence[str], dialect: str) -> list[Reading]:
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
