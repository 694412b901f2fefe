"""The two segmenters: the permission gate's and the rewriter's.

`simple_commands(lexed)` cuts a lexed line at every operator, parenthesis and newline and
keeps byte offsets, so the rewriter can insert text without touching anything else.
`split_for_permissions(cmd)` never under-segments: besides every simple command it also
yields the commands inside `$(…)`, backticks, `<(…)`, `>(…)`, and the scripts of
`sh|bash|zsh -c '…'`, `fish -c '…'` and `eval '…'`, so a rule checker sees all of them.

Hot path: stdlib only.
"""

from __future__ import annotations

from rtok.compiled.registry import REGISTRY
from rtok.shell import scanner, wrappers
from rtok.shell.words import assignment_name, basename, dequote

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator

# Words that open or close grammar rather than name a command.
GRAMMAR_WORDS = frozenset(
    (
        "{",
        "}",
        "!",
        "if",
        "then",
        "elif",
        "else",
        "fi",
        "do",
        "done",
        "while",
        "until",
        "esac",
        "function",
        "coproc",
    )
)
# fish's own grammar words (`git fetch; and git push`).
FISH_GRAMMAR_WORDS = GRAMMAR_WORDS | frozenset(("and", "or", "not", "begin", "end", "switch"))
MAX_DEPTH = 16
_RUNNERS = REGISTRY["runners"]
_SHELLS = REGISTRY["shells"]


class SimpleCommand:
    """One simple command of a line: its word tokens and where it sits."""

    __slots__ = ("after", "before", "end", "redirects", "start", "texts", "values", "words")

    def __init__(self, before: str) -> None:
        self.before = before  # operator that precedes it ("" at the start of the line)
        self.after = ""  # operator that follows it ("" at the end of the line)
        self.words: list[tuple[int, int]] = []  # word tokens, redirect targets excluded
        self.texts: list[str] = []  # the text of each word token
        self.values: list[str | None] | None = None  # each text dequoted (`word_values`)
        self.redirects: list[tuple[int, int, int, int]] = []  # op start/end, target start/end
        self.start = -1  # first byte of its first word or redirect
        self.end = -1  # last byte (exclusive) of its last word or redirect


def simple_commands(lexed: scanner.Lexed) -> list[SimpleCommand]:
    """Every simple command of the line, with the operators around it (comments dropped).

    Computed once per lexed line; callers must not modify the result."""
    if lexed.commands is None:
        lexed.commands = _simple_commands(lexed)  # type: ignore[assignment]
    return lexed.commands  # type: ignore[return-value]


def _simple_commands(lexed: scanner.Lexed) -> list[SimpleCommand]:
    tokens = lexed.tokens
    text = lexed.text
    out: list[SimpleCommand] = []
    current = SimpleCommand("")
    skip_target = -1
    word, space, comment, redir = scanner.WORD, scanner.SPACE, scanner.COMMENT, scanner.REDIR
    for index, (kind, start, end) in enumerate(tokens):
        if kind == word:
            if index == skip_target:
                continue
            current.words.append((start, end))
            current.texts.append(text[start:end])
        elif kind in (space, comment):
            continue
        elif kind == redir:
            end = _add_redirect(tokens, index, current)
            skip_target = scanner.redirect_target_index(tokens, index)
        else:  # an operator or a line break ends the command
            op = text[start:end] if kind == scanner.OP else "\n"
            current.after = op
            out.append(current)
            current = SimpleCommand(op)
            continue
        if current.start < 0:
            current.start = start
        if end > current.end:
            current.end = end
    out.append(current)
    return [c for c in out if c.start >= 0 or c.before or c.after]


def _add_redirect(tokens: list[scanner.Token], index: int, command: SimpleCommand) -> int:
    """Add the redirect at `index` (and its target word) to `command`; the end of the last
    token it takes."""
    start, end = tokens[index][1], tokens[index][2]
    target_index = scanner.redirect_target_index(tokens, index)
    if target_index < 0:
        command.redirects.append((start, end, end, end))
        return end
    _, target_start, target_end = tokens[target_index]
    command.redirects.append((start, end, target_start, target_end))
    return target_end


def word_texts(lexed: scanner.Lexed, command: SimpleCommand) -> list[str]:
    """The text of each word of `command` (computed once; callers must not modify it)."""
    return command.texts


def word_values(lexed: scanner.Lexed, command: SimpleCommand) -> list[str | None]:
    """Each word of `command` after quote removal in the line's dialect (None where it
    expands), computed once per line and shared by every reader."""
    if command.values is None:
        dialect = lexed.dialect
        command.values = [dequote(word, dialect) for word in command.texts]
    return command.values


def strip_grammar(words: list[str], dialect: str = "bash") -> list[str]:
    grammar = FISH_GRAMMAR_WORDS if dialect == "fish" else GRAMMAR_WORDS
    i = 0
    while i < len(words) and words[i] in grammar:
        i += 1
    return words[i:]


def _unescape_backtick(body: str) -> str:
    out = []
    i = 0
    while i < len(body):
        if body[i] == "\\" and i + 1 < len(body) and body[i + 1] in "`$\\":
            out.append(body[i + 1])
            i += 2
        else:
            out.append(body[i])
            i += 1
    return "".join(out)


def nested_scripts(lexed: scanner.Lexed) -> list[tuple[str | None, str]]:
    """(script, dialect) of every `sh -c`, `fish -c` and `eval` in the line (once per
    lexed line; see `_nested_scripts`)."""
    if lexed.scripts is None:
        lexed.scripts = [] if _names_no_script(lexed) else list(_nested_scripts(lexed))
    return lexed.scripts


# A line at least this long, of at least this many commands, is first searched for the
# names `_nested_scripts` reads further: then that one search costs less than the walk.
_SEARCHED_LENGTH = 2048
_SEARCHED_COMMANDS = 64
_SCRIPT_NAMES = (*_SHELLS, *_RUNNERS, "eval", "trap")
_DEQUOTING = frozenset("\\'\"$`(")  # what `dequote` may change or expand a word by


def _names_no_script(lexed: scanner.Lexed) -> bool:
    """True when `_nested_scripts` would find nothing in a long bash line: every word is
    its own value (no quoting or expansion character) and no script-running name or
    late-evaluation hint occurs anywhere in the text."""
    text = lexed.text
    if len(text) < _SEARCHED_LENGTH or lexed.dialect != "bash":
        return False
    if len(simple_commands(lexed)) < _SEARCHED_COMMANDS or not _DEQUOTING.isdisjoint(text):
        return False
    return not any(hint in text for hint in _LATE_HINTS) and not any(
        name in text for name in _SCRIPT_NAMES
    )


def _nested_scripts(lexed: scanner.Lexed) -> Iterator[tuple[str | None, str]]:
    """(script, dialect) of every `sh -c`, `fish -c`, `eval` and `trap` in the line; the
    script is None when its text cannot be known statically (`bash -c "$CMD"`).

    Word positions are tried from the left, not only the command word after wrappers: a
    wrapper option rtok does not know (`timeout --odd 5 bash -c '…'`) must not hide a
    script from the gate. Finding a script in an argument list too (`echo bash -c x`) only
    adds segments, which is the safe direction. The first script of a simple command is
    the last one: everything after it is its text or its arguments. Each word's dequoted
    value is read once (`word_values`); only a word naming a shell, `trap`, `eval` or a
    runner with command options is read further.
    """
    late = any(hint in lexed.text for hint in _LATE_HINTS)
    # A shell is named by the bash reading of a word: in another dialect every word is tried.
    every_word = lexed.dialect != "bash"
    for command in simple_commands(lexed):
        if late:
            yield from _late_scripts(lexed, command)
        words = command.texts
        values = word_values(lexed, command)
        for index, head in enumerate(values):
            if head is None:
                continue
            if head == "trap" or head == "eval":
                # the script holds every later word (and any later `eval`)
                yield from _builtin_script(head, words, values, index)
                break
            name = head if "/" not in head else basename(head)
            if not every_word and name not in _SHELLS and name not in _RUNNERS:
                continue  # neither a shell (`-c`) nor a runner with command options
            scripts = _command_scripts(words, values, index, name)
            if scripts:
                yield from scripts
                break  # later words are the script's arguments, not commands


def _builtin_script(
    head: str, words: list[str], values: list[str | None], index: int
) -> list[tuple[str | None, str]]:
    """`eval 'git push'`, `eval -- …` (every later word, joined), `trap 'git push' EXIT`,
    `trap -- 'git push' EXIT` (the first argument runs later, as a script)."""
    if head == "eval":
        parts = values[index + 1 :]
        if parts[:1] == ["--"]:
            parts = parts[1:]
        if any(p is None for p in parts):
            return [(None, "bash")]
        return [(" ".join(parts), "bash")] if parts else []  # type: ignore[arg-type]
    if index + 1 >= len(words):
        return []
    k = index + 2 if words[index + 1] == "--" and index + 2 < len(words) else index + 1
    return [] if words[k] in ("-p", "-l", "--", "-") else [(values[k], "bash")]


def _command_scripts(
    words: list[str], values: list[str | None], index: int, name: str
) -> list[tuple[str | None, str]]:
    """The script of a shell's `-c` at `index`, or the command lines given to a runner's
    command options (`su -c 'git push'`)."""
    found = wrappers.shell_script(words, index)
    if found is not None:
        return [(values[found[0]], found[1])]
    runner = _RUNNERS.get(name)
    if runner is not None and runner["command_options"] and "option" in runner["how"]:
        return list(_option_scripts(values, index + 1, runner["command_options"]))
    return []


# Builtins whose arguments bash evaluates later as arithmetic, subscripts or commands
# (`let 'a[$(cmd)]'`, `printf -v 'a[$(cmd)]'`, `read 'a[$(cmd)]'`, `test -v 'a[$(cmd)]'`,
# `[[ -v … ]]`, `declare -n`, `unset 'a[$(cmd)]'`): an argument holding a substitution is
# read as a script that runs.
_LATE_BUILTINS = frozenset(
    (
        "let",
        "printf",
        "read",
        "test",
        "[",
        "[[",
        "declare",
        "typeset",
        "local",
        "readonly",
        "export",
        "unset",
        "mapfile",
        "readarray",
        "shift",
        "return",
        "exit",
        "wait",
        "kill",
        "getopts",
        "ulimit",
    )
)
_CALLBACK_BUILTINS = frozenset(("mapfile", "readarray"))
# A line without any of these holds no text `_late_scripts` would read.
_LATE_HINTS = ("$(", "`", "<(", ">(", "-C")


def _substitutes(text: str | None) -> bool:
    return text is not None and ("$(" in text or "`" in text or "<(" in text or ">(" in text)


def _late_scripts(lexed: scanner.Lexed, command: SimpleCommand) -> Iterator[tuple[str | None, str]]:
    """Text of this command that bash runs later although it is quoted: assignment values
    (`PS4='$(cmd)'`, `x='$(cmd)'` for `${x@P}`), here-strings, the arguments of the
    builtins above, and `mapfile -C CALLBACK`."""
    words = command.texts
    values = word_values(lexed, command)
    yield from _assigned_scripts(words, values)
    text = lexed.text
    for op_start, op_end, target_start, target_end in command.redirects:
        if text[op_start:op_end].endswith("<<<"):
            body = dequote(text[target_start:target_end], lexed.dialect)
            if _substitutes(body):
                yield body, "bash"
    lead = len(words) - len(strip_grammar(words, lexed.dialect))
    head = values[lead] if lead < len(words) else None
    if head in _LATE_BUILTINS:
        for value in values[1:]:
            if _substitutes(value) and "=" not in (value or ""):
                yield value, "bash"
    if head in _CALLBACK_BUILTINS:
        yield from _callbacks(values)


def _assigned_scripts(words: list[str], values: list[str | None]) -> Iterator[tuple[str, str]]:
    """The value of each assignment word that holds a substitution."""
    for word, value in zip(words, values, strict=True):
        if "=" in word and value is not None and assignment_name(word) is not None:
            assigned = value.split("=", 1)[1]
            if _substitutes(assigned):
                yield assigned, "bash"


def _callbacks(values: list[str | None]) -> Iterator[tuple[str | None, str]]:
    """`mapfile -C CALLBACK`, `mapfile -CCALLBACK`: the callback runs as a command."""
    for k, value in enumerate(values[:-1]):
        if value == "-C" or (value or "").startswith("-C"):
            callback = values[k + 1] if value == "-C" else (value or "")[2:]
            yield callback, "bash"


def _option_scripts(
    values: list[str | None], start: int, options: tuple[str, ...]
) -> Iterator[tuple[str | None, str]]:
    """The shell command lines given to a runner's command options (`su -c 'git push'`,
    `script -qc …`, `flock F --command=…`), read as bash scripts; every word that may be
    such an option is read (`values` are the words dequoted)."""
    for k in range(start, len(values)):
        value = values[k]
        if value is None or not value.startswith("-") or value == "--":
            continue
        following = values[k + 1] if k + 1 < len(values) else ""
        for option in options:
            matched, script = _option_text(value, option, following)
            if matched:
                yield script, "bash"
                break


def _option_text(value: str, option: str, following: str | None) -> tuple[bool, str | None]:
    """Whether the word `value` gives `option`, and the command line it gives: the next
    word (`-c CMD`, `-qc CMD`), after `=` (`--command=CMD`) or attached (`-cCMD`)."""
    short = len(option) == 2 and not value.startswith("--")
    if value == option or (short and value.endswith(option[1]) and option[1] in value[1:]):
        return True, following
    if option.startswith("--") and value.startswith(option + "="):
        return True, value.split("=", 1)[1]
    if short and value.startswith(option) and len(value) > 2:
        return True, value[2:]
    return False, None


def split_for_permissions(cmd: str) -> list[str]:
    """Every command a permission rule must see, as text (words joined by one space).

    Never under-segments: splits at `&& || ; | |& &`, parentheses and newlines, strips
    grammar words (`{ } ! if then do …`) and redirects, and adds the commands inside
    substitutions and inside shell `-c` / `eval` scripts. Order follows the text; no
    duplicates.
    """
    seen: set[str] = set()
    unique = []
    try:
        found = permission_commands(cmd)
    except TooDeep:
        return [cmd.strip()] if cmd.strip() else []
    for words, _dialect, _direct in found:
        segment = " ".join(words)
        if segment not in seen:
            seen.add(segment)
            unique.append(segment)
    return unique


def _bodies(cmd: str, found: list[tuple[int, int, str]]) -> Iterator[tuple[str, str]]:
    """(kind, text) of each substitution body of `cmd`, the bodies nested
    directly in it replaced by `:`."""
    ordered = sorted(found, key=lambda s: (s[0], -s[1]))
    children: list[list[tuple[int, int]]] = [[] for _ in ordered]
    open_: list[int] = []
    for index, (start, end, _kind) in enumerate(ordered):
        while open_ and ordered[open_[-1]][1] <= start:
            open_.pop()
        if open_ and end <= ordered[open_[-1]][1]:
            children[open_[-1]].append((start, end))
        open_.append(index)
    for (start, end, kind), inner in zip(ordered, children, strict=True):
        if not inner:
            yield kind, cmd[start:end]
            continue
        parts = []
        last = start
        for child_start, child_end in inner:
            parts.append(cmd[last:child_start])
            parts.append(":")
            last = child_end
        parts.append(cmd[last:end])
        yield kind, "".join(parts)


class TooDeep(Exception):
    """Substitutions or scripts nested deeper than MAX_DEPTH: the line is not read."""


def permission_commands(cmd: str) -> list[tuple[list[str], str, bool]]:
    """(words, dialect, direct) of every simple command `split_for_permissions` yields;
    `direct` is False inside `sh -c` / `eval` scripts (the shell runs those only through
    another command). Raises TooDeep past MAX_DEPTH levels of nesting. A command found
    again (same words, dialect and directness) is listed once: every reader of the list
    asks whether any or all of them match, so `a; a; a` costs one reading."""
    out: list[tuple[list[str], str, bool]] = []
    _collect(cmd, "bash", out, 0, True)
    seen: set[tuple[tuple[str, ...], str, bool]] = set()
    unique = []
    for words, dialect, direct in out:
        key = (tuple(words), dialect, direct)
        if key not in seen:
            seen.add(key)
            unique.append((words, dialect, direct))
    return unique


# Characters of a text that is only plain words: no quoting, expansion, operator, redirect,
# comment, line break or glob can start there, so it is one simple command of its words.
_PLAIN_TEXT = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./,:+@% ")


def _plain_words(cmd: str, dialect: str) -> list[str] | None:
    """The words of `cmd` when it is one simple command of plain words (see _PLAIN_TEXT)
    naming no shell, runner, `eval` or `trap` and holding no late-evaluation hint: what
    `_collect` would find by lexing it (the many short `$(x1) $(x2)…` bodies). None when
    the text needs the full reading."""
    if dialect != "bash" or len(cmd) > scanner.MAX_LENGTH or not _PLAIN_TEXT.issuperset(cmd):
        return None
    if "-C" in cmd:
        return None  # a late-evaluation hint (`mapfile -C`)
    words = cmd.split()
    for word in words:
        name = basename(word)
        if name in _SCRIPT_BUILTINS or name in _SHELLS or name in _RUNNERS:
            return None
    return words


_SCRIPT_BUILTINS = frozenset(("eval", "trap"))


def _collect(
    cmd: str,
    dialect: str,
    out: list[tuple[list[str], str, bool]],
    depth: int,
    direct: bool,
    substitutions: bool = True,
) -> None:
    if depth > MAX_DEPTH:
        raise TooDeep(cmd[:40])
    plain = _plain_words(cmd, dialect)
    if plain is not None:
        words = strip_grammar(plain, dialect)
        if words:
            out.append((words, dialect, direct))
        return
    joined = scanner.join_continuations(cmd)
    if joined != cmd:
        # `git pu\<newline>sh` is `git push`
        _collect(joined, dialect, out, depth + 1, direct, substitutions)
    lexed = scanner.lex(cmd, dialect)
    if scanner.TOO_DEEP in lexed.reasons or scanner.TOO_LONG in lexed.reasons:
        raise TooDeep(cmd[:40])
    for command in simple_commands(lexed):
        words = strip_grammar(command.texts, dialect)
        if words:
            out.append((words, dialect, direct))
    if substitutions:
        # The lexer lists substitutions at every depth, so each body is read once, on its
        # own, without descending again (that would read the innermost one 2^depth times),
        # and with the bodies nested in it cut to `:` (they are read on their own): every
        # byte of the line is lexed once however deep the nesting. A body met again in
        # the same text adds the same commands: it is read once.
        for kind, body in dict.fromkeys(_bodies(cmd, lexed.substitutions)):
            if kind == "backtick":
                _collect(_unescape_backtick(body), dialect, out, depth + 1, direct)
            else:
                _collect(body, dialect, out, depth + 1, direct, False)
    for script, script_dialect in dict.fromkeys(nested_scripts(lexed)):
        if script is not None:
            _collect(script, script_dialect, out, depth + 1, False)
