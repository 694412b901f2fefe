"""A quote-aware shell scanner that keeps every byte (the floor below rtok.shell.lexer).

`lex(cmd)` cuts a command line into tokens `(kind, start, end)` whose texts re-join to the
input byte for byte, and records the constructs rtok cannot attest (command and process
substitution, backticks, heredocs, arithmetic, ANSI-C quoting, file-target redirects,
unterminated quotes). Bash rules by default; `dialect="fish"` reads fish scripts, where
`(…)` is a command substitution and backticks are plain characters.

rtok.shell.lexer re-exports all of it and adds the line-level question "can this be
attested?", which needs the segmenters (rtok.shell.segments) that read this module's tokens.

Hot path: stdlib only, no typing/dataclasses at run time.
"""

from __future__ import annotations

from rtok.shell.syntax import rejects

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

WORD = "word"
SPACE = "space"  # blanks and `\<newline>` line continuations
NEWLINE = "newline"  # `\n`, `\r\n` or a lone `\r` (a lone CR splits, conservatively)
OP = "op"  # && || ; | |& & ( ) ;; ;& ;;&
REDIR = "redir"  # a redirect operator, with its io number (`2>`, `>&`, `<<`, `&>>`)
COMMENT = "comment"

Token = tuple[str, int, int]

# Reasons a command line cannot be attested (rewritten or allowed without asking).
COMMAND_SUBSTITUTION = "command substitution"
BACKTICK = "backtick substitution"
PROCESS_SUBSTITUTION = "process substitution"
ARITHMETIC = "arithmetic expansion"
HEREDOC = "heredoc"
ANSI_C_QUOTE = "ANSI-C quoting"
FILE_REDIRECT = "file-target redirect"
UNTERMINATED = "unterminated quote or substitution"
DANGLING_REDIRECT = "redirect without a target"
UNREADABLE_SCRIPT = "shell script that cannot be read statically"
TOO_DEEP = "nesting too deep to read"
TOO_LONG = "command too long to read"
EXPANDED_COMMAND = "command word or subcommand from an expansion"
CARRIAGE_RETURN = "carriage return (bash reads it as part of a word)"
SYNTAX_ERROR = "syntax error (bash would not run the line)"
# Parentheses, substitutions and `${…}` nested deeper than this are not read: real commands
# stay far below it, and it keeps every answer linear in the length of the line.
MAX_NESTING = 48
# Longer lines are not lexed at all: they are left to the host (the pure-Python lexer reads
# a few hundred kilobytes a second on a busy machine, and an agent waits for every answer).
MAX_LENGTH = 16384

_OPERATORS = ("&&", "||", ";;&", ";;", ";&", "|&", ";", "|", "&", "(", ")")
_REDIRECTS = ("&>>", "&>", "<<<", "<<-", "<<", "<&", "<>", "<", ">>", ">&", ">|", ">")
_WORD_BREAK = frozenset(" \t\n\r;&|()<>")
# What starts an escape, a quoted part or an expansion wherever words are read.
_QUOTING = frozenset("\\'\"`$")
_REDIRECT_START = frozenset("0123456789<>&")
_OPERATOR_START = frozenset(";&|()")
# Characters that may start a token other than a word: blanks, line breaks, comments,
# redirects (io numbers included), operators, `\<newline>`, `<(` and `>(`.
_TOKEN_START = frozenset(" \t\n\r#\\") | _REDIRECT_START | _OPERATOR_START
_HEREDOCS = frozenset(("<<", "<<-"))
_DUPLICATIONS = frozenset((">&", "<&"))
_NULL_TARGETS = frozenset(("/dev/null",))


_OPERATOR_SET = frozenset(_OPERATORS)


def _operator_length(text: str, i: int) -> int:
    """Length of the operator at `i` (`text[i]` is in _OPERATOR_START): the longest of
    _OPERATORS that starts there, which is also the first of them in their order."""
    for length in (3, 2):
        op = text[i : i + length]
        if len(op) == length and op in _OPERATOR_SET:
            return length
    return 1


class Lexed:
    """The tokens of one command line and what makes it unattestable."""

    __slots__ = ("commands", "dialect", "reasons", "scripts", "substitutions", "text", "tokens")

    def __init__(self, text: str, dialect: str) -> None:
        self.text = text
        self.dialect = dialect
        # Filled on first use by rtok.shell.segments (one reading, shared by every caller).
        self.commands: list[object] | None = None
        self.scripts: list[tuple[str | None, str]] | None = None
        self.tokens: list[Token] = []
        self.reasons: set[str] = set()
        # (start, end, kind) of the command text inside `$(…)`, backticks, `<(…)`, `>(…)`.
        self.substitutions: list[tuple[int, int, str]] = []

    def token_text(self, token: Token) -> str:
        return self.text[token[1] : token[2]]

    def texts(self) -> Iterator[str]:
        for _, start, end in self.tokens:
            yield self.text[start:end]


class _TooDeep(Exception):
    pass


class _Scanner:
    __slots__ = ("depth", "fish", "lexed", "n", "text")

    def __init__(self, lexed: Lexed) -> None:
        self.lexed = lexed
        self.text = lexed.text
        self.n = len(lexed.text)
        self.fish = lexed.dialect == "fish"
        self.depth = 0

    def nested(self, read: Callable[[int], int], i: int) -> int:
        """`read(i)` one level deeper (quotes inside `$(…)` inside quotes…); past
        MAX_NESTING the whole line is given up (the scanner is not used again)."""
        self.depth += 1
        if self.depth > MAX_NESTING:
            raise _TooDeep
        try:
            return read(i)
        finally:
            self.depth -= 1

    def flag(self, reason: str) -> None:
        self.lexed.reasons.add(reason)

    # -- quoting and expansions (each takes the index just past the opening character) --

    def quoted(self, c: str, i: int) -> int:
        """`c` is `text[i]`, one of _QUOTING: the index past the escape, quoted part or
        expansion it starts (a backtick is a plain character in fish)."""
        if c == "\\":
            return i + 2
        if c == "'":
            return self.single(i + 1)
        if c == '"':
            return self.double(i + 1)
        if c == "$":
            return self.dollar(i)
        return i + 1 if self.fish else self.backtick(i + 1)

    def single(self, i: int) -> int:
        text, n = self.text, self.n
        if self.fish:
            while i < n:
                c = text[i]
                if c == "\\" and i + 1 < n and text[i + 1] in "'\\":
                    i += 2
                elif c == "'":
                    return i + 1
                else:
                    i += 1
            self.flag(UNTERMINATED)
            return n
        end = text.find("'", i)
        if end < 0:
            self.flag(UNTERMINATED)
            return n
        return end + 1

    def double(self, i: int) -> int:
        return self.nested(self._double, i)

    def _double(self, i: int) -> int:
        text, n = self.text, self.n
        while i < n:
            c = text[i]
            if c == "\\":
                i += 2
            elif c == '"':
                return i + 1
            elif c == "$":
                if i + 1 < n and text[i + 1] in "'\"":
                    i += 1  # `$'` and `$"` are literal inside double quotes
                else:
                    i = self.dollar(i)
            elif c == "`" and not self.fish:
                i = self.backtick(i + 1)
            else:
                i += 1
        self.flag(UNTERMINATED)
        return n

    def backtick(self, i: int) -> int:
        self.flag(BACKTICK)
        text, n = self.text, self.n
        start = i
        while i < n:
            c = text[i]
            if c == "\\":
                i += 2
            elif c == "`":
                self.lexed.substitutions.append((start, i, "backtick"))
                return i + 1
            else:
                i += 1
        self.flag(UNTERMINATED)
        return n

    def dollar(self, i: int) -> int:
        """`text[i]` is `$`; return the index after the expansion it starts."""
        text, n = self.text, self.n
        nxt = text[i + 1] if i + 1 < n else ""
        if nxt == "(":
            if i + 2 < n and text[i + 2] == "(" and not self.fish:
                self.flag(ARITHMETIC)
                return self.paren_body(i + 2)
            self.flag(COMMAND_SUBSTITUTION)
            return self.substitution(i + 2, "command")
        if nxt == "{" and not self.fish:
            return self.brace(i + 2)
        if nxt == "'" and not self.fish:
            self.flag(ANSI_C_QUOTE)
            j = i + 2
            while j < n:
                if text[j] == "\\":
                    j += 2
                elif text[j] == "'":
                    return j + 1
                else:
                    j += 1
            self.flag(UNTERMINATED)
            return n
        if nxt == '"' and not self.fish:
            return self.double(i + 2)
        return i + 1

    def substitution(self, start: int, kind: str) -> int:
        end = self.paren_body(start)
        if end <= self.n and self.text[end - 1 : end] == ")":
            self.lexed.substitutions.append((start, end - 1, kind))
        return end

    def brace(self, i: int) -> int:
        return self.nested(self._brace, i)

    def _brace(self, i: int) -> int:
        text, n = self.text, self.n
        while i < n:
            c = text[i]
            if c == "}":
                return i + 1
            i = self.quoted(c, i) if c in _QUOTING else i + 1
        self.flag(UNTERMINATED)
        return n

    def paren_body(self, i: int) -> int:
        """Skip to just past the `)` matching an already consumed `(`."""
        return self.nested(self._paren_body, i)

    def _paren_body(self, i: int) -> int:
        text, n = self.text, self.n
        word_start = True
        while i < n:
            c = text[i]
            if c == ")":
                return i + 1
            if c == "(":
                i = self.paren_body(i + 1)
            elif c in _QUOTING:
                i = self.quoted(c, i)
            elif c == "#" and word_start:
                end = text.find("\n", i)
                i = n if end < 0 else end
            elif c in "<>" and i + 1 < n and text[i + 1] == "(":
                self.flag(PROCESS_SUBSTITUTION)
                i = self.substitution(i + 2, "process")
            elif c == "<" and text.startswith("<<", i) and not text.startswith("<<<", i):
                self.flag(HEREDOC)
                i += 2
            else:
                i += 1
            word_start = c in " \t\n;&|("
        self.flag(UNTERMINATED)
        return n

    # -- top level --

    def word(self, i: int) -> int:
        text, n = self.text, self.n
        while i < n:
            c = text[i]
            if c in _WORD_BREAK:
                if c in "<>" and i + 1 < n and text[i + 1] == "(":
                    self.flag(PROCESS_SUBSTITUTION)
                    i = self.substitution(i + 2, "process")
                    continue
                if c == "(" and self.fish:
                    self.flag(COMMAND_SUBSTITUTION)
                    i = self.substitution(i + 1, "command")
                    continue
                break
            i = self.quoted(c, i) if c in _QUOTING else i + 1
        return min(i, n)

    def run(self) -> None:
        text, n = self.text, self.n
        append = self.lexed.tokens.append
        word = self.word
        i = 0
        while i < n:
            c = text[i]
            if c not in _TOKEN_START:
                end = max(word(i), i + 1)  # a word (the common case)
                append((WORD, i, end))
            elif c in " \t" or (c == "\\" and text.startswith("\n", i + 1)):
                end = self.blanks(i)
                append((SPACE, i, end))
            elif c == ";" and not text.startswith((";", "&"), i + 1):
                end = i + 1  # `;` alone (not `;;`, `;&`, `;;&`): the common operator
                append((OP, i, end))
            else:
                end = self.special(c, i)
            i = end

    def blanks(self, i: int) -> int:
        """The index past the blanks and `\\<newline>` continuations starting at `i`."""
        text, n = self.text, self.n
        while i < n:
            if text[i] in " \t":
                i += 1
            elif text.startswith("\\\n", i):
                i += 2
            else:
                break
        return i

    def special(self, c: str, i: int) -> int:
        """Add the token that starts at `i` with `c`, one of _TOKEN_START that does not
        start blanks (a line break, comment, redirect, operator or word); the index past
        it."""
        text, n = self.text, self.n
        tokens = self.lexed.tokens
        start = i
        if c == "\n":
            tokens.append((NEWLINE, i, i + 1))
            return i + 1
        if c == "\r":
            i += 2 if text.startswith("\n", i + 1) else 1
            tokens.append((NEWLINE, start, i))
            return i
        if c == "#":
            end = i
            while end < n and text[end] not in "\r\n":
                end += 1
            tokens.append((COMMENT, i, end))
            return end
        if (c in "<>" and text.startswith("(", i + 1)) or (c == "(" and self.fish):
            i = self.word(i)
            tokens.append((WORD, start, i))
            return i
        redirect = self.redirect_at(i) if c in _REDIRECT_START else 0
        if redirect:
            tokens.append((REDIR, start, i + redirect))
            return i + redirect
        if c in _OPERATOR_START:
            i += _operator_length(text, i)
            tokens.append((OP, start, i))
            return i
        i = max(self.word(i), i + 1)
        tokens.append((WORD, start, i))
        return i

    def redirect_at(self, i: int) -> int:
        """Length of the redirect operator (with its io number) starting at i, or 0."""
        text, n = self.text, self.n
        j = i
        while j < n and text[j].isdigit():
            j += 1
        for op in _REDIRECTS:
            if text.startswith(op, j):
                if op[0] == "&" and j != i:
                    return 0  # `2&>x` is a word `2` followed by `&>`: let the caller split
                return j - i + len(op)
        return 0


# Characters of text (each entry counting 64 more) a memo holds before it starts again: a
# 16 KiB line stays while the thousands of short bodies and scripts read with it come and go.
_MEMO_CHARS = 1 << 18
_MEMO_ENTRY = 64
_MEMO_MAX_TEXT = MAX_LENGTH


class Memo:
    """Recent results keyed by (text, dialect), up to _MEMO_CHARS characters of text."""

    __slots__ = ("chars", "entries")

    def __init__(self) -> None:
        self.entries: dict[tuple[str, str], object] = {}
        self.chars = 0

    def get(self, key: tuple[str, str]) -> object | None:
        return self.entries.get(key)

    def put(self, key: tuple[str, str], value: object) -> None:
        """Keep `value` (texts longer than _MEMO_MAX_TEXT are not kept)."""
        size = len(key[0]) + _MEMO_ENTRY
        if len(key[0]) > _MEMO_MAX_TEXT:
            return
        if self.chars + size > _MEMO_CHARS:
            self.clear()
        self.entries[key] = value
        self.chars += size

    def clear(self) -> None:
        self.entries.clear()
        self.chars = 0


# One decision reads the same line several times (gate, rewriter, scripts): keep recent
# results. Lexed objects are never modified after `lex` returns them.
_MEMO = Memo()


def lex(cmd: str, dialect: str = "bash") -> Lexed:
    """Tokens of `cmd` plus its unattestable constructs (see module docstring)."""
    key = (cmd, dialect)
    found = _MEMO.get(key)
    if found is not None:
        return found  # type: ignore[return-value]
    lexed = Lexed(cmd, dialect)
    if len(cmd) > MAX_LENGTH:
        lexed.tokens.append((WORD, 0, len(cmd)))
        lexed.reasons.add(TOO_LONG)
        return lexed
    try:
        _Scanner(lexed).run()
        _check_redirects(lexed)
        if "\r" in cmd:
            lexed.reasons.add(CARRIAGE_RETURN)
        if HEREDOC not in lexed.reasons and UNTERMINATED not in lexed.reasons and rejects(lexed):
            lexed.reasons.add(SYNTAX_ERROR)
    except (_TooDeep, RecursionError):
        # Thousands of nested `$(`: read the whole line as one word nobody may attest.
        lexed = Lexed(cmd, dialect)
        lexed.tokens.append((WORD, 0, len(cmd)))
        lexed.reasons.add(TOO_DEEP)
    _MEMO.put(key, lexed)
    return lexed


def join_continuations(cmd: str) -> str:
    """`cmd` with every backslash-newline removed, as bash reads it (conservatively also
    inside single quotes, where it would stay: used only to find more constructs)."""
    return cmd.replace("\\\n", "") if "\\\n" in cmd else cmd


def _check_redirects(lexed: Lexed) -> None:
    """Add the reasons the line's redirects (and zsh's `=(cmd)`) give."""
    tokens = lexed.tokens
    text = lexed.text
    if "(" not in text and "<" not in text and ">" not in text:
        return  # every redirect operator holds `<` or `>`
    for index, (kind, start, end) in enumerate(tokens):
        if kind == OP and index and text[start:end] == "(":
            _, prev_start, prev_end = tokens[index - 1]
            if text[prev_start:prev_end] == "=":
                # zsh's `=(cmd)` process substitution (a syntax error to bash).
                lexed.reasons.add(PROCESS_SUBSTITUTION)
        elif kind == REDIR:
            reason = _redirect_reason(lexed, index)
            if reason:
                lexed.reasons.add(reason)


def _redirect_reason(lexed: Lexed, index: int) -> str:
    """Why the redirect at `index` cannot be attested, or "" (a here-string, fd
    duplication or closing, `/dev/null`)."""
    text = lexed.text
    _, start, end = lexed.tokens[index]
    op = text[start:end].lstrip("0123456789")
    if op in _HEREDOCS:
        return HEREDOC
    target = redirect_target(lexed.tokens, index)
    if target is None:
        return DANGLING_REDIRECT
    word = text[target[1] : target[2]]
    if op == "<<<" or (op in _DUPLICATIONS and _is_fd_word(word)) or word in _NULL_TARGETS:
        return ""
    return FILE_REDIRECT


def redirect_target_index(tokens: list[Token], index: int) -> int:
    """Index of the word token a redirect at `index` applies to (blanks may sit between),
    or -1 when there is none."""
    j = index + 1
    if j < len(tokens) and tokens[j][0] == SPACE:
        j += 1
    if j < len(tokens) and tokens[j][0] == WORD:
        return j
    return -1


def redirect_target(tokens: list[Token], index: int) -> Token | None:
    """The word token a redirect at `index` applies to, if any."""
    j = redirect_target_index(tokens, index)
    return tokens[j] if j >= 0 else None


def _is_fd_word(word: str) -> bool:
    """`1`, `2-`, `-`: fd duplication, moving or closing (not a file name)."""
    digits = word[:-1] if word.endswith("-") else word
    return digits == "" or digits.isdigit()
