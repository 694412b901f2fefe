"""Reading single shell words: quote removal, assignments, quoting for output.

Hot path: stdlib only.
"""

from __future__ import annotations

_NAME_START = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_")
_NAME_CHARS = _NAME_START | frozenset("0123456789")
_SAFE_UNQUOTED = _NAME_CHARS | frozenset("@%+=:,./-")
_DQ_ESCAPABLE = frozenset('$`"\\\n')


def dequote(word: str, dialect: str = "bash") -> str | None:
    """The literal value of `word` after quote removal, or None when it expands something
    (`$x`, `$(…)`, backticks, `$'…'`, `<(…)`) and so has no value rtok can know from the
    text."""
    if (
        "'" not in word
        and '"' not in word
        and "\\" not in word
        and "$" not in word
        and "`" not in word
        and "(" not in word
    ):
        return word  # nothing to remove or expand (the common case)
    return _dequoted(word, dialect == "fish")


def _dequoted(word: str, fish: bool) -> str | None:
    """`dequote` for a word that holds a quote, a backslash or an expansion character."""
    out: list[str] = []
    i, n = 0, len(word)
    while i < n:
        c = word[i]
        if c == "\\":
            if i + 1 < n and word[i + 1] != "\n":
                out.append(word[i + 1])
            i += 2
        elif c == "'" or c == '"':
            i = (_single_quoted if c == "'" else _double_quoted)(word, i + 1, fish, out)
            if i < 0:
                return None
        elif _expands_at(word, i, fish):
            return None  # an expansion, a substitution, `<(…)` or `>(…)`
        else:
            out.append(c)
            i += 1
    return "".join(out)


def _expands_at(word: str, i: int, fish: bool) -> bool:
    """An expansion or substitution starts at `word[i]` (a lone trailing `$` is literal;
    fish substitutes `(…)`, bash backticks, `<(…)` and `>(…)`)."""
    c = word[i]
    if c == "$":
        return i + 1 < len(word)
    if fish:
        return c == "("
    return c == "`" or (c in "<>" and word.startswith("(", i + 1))


def _single_quoted(word: str, i: int, fish: bool, out: list[str]) -> int:
    """Append the text of the single-quoted part starting at `i` (just past its opening
    quote) to `out`; the index past its closing quote, or -1 when it is not closed."""
    if not fish:
        end = word.find("'", i)  # bash takes everything up to the next `'` as it is
        if end < 0:
            return -1
        out.append(word[i:end])
        return end + 1
    n = len(word)
    while i < n and word[i] != "'":
        if word[i] == "\\" and i + 1 < n and word[i + 1] in "'\\":
            i += 1  # fish reads `\'` and `\\` inside single quotes
        out.append(word[i])
        i += 1
    return i + 1 if i < n else -1


def _double_quoted(word: str, i: int, fish: bool, out: list[str]) -> int:
    """Like `_single_quoted` for a double-quoted part; -1 also when it expands something
    (`$x`, and backticks outside fish)."""
    n = len(word)
    while i < n and word[i] != '"':
        ch = word[i]
        if ch == "\\" and i + 1 < n and word[i + 1] in _DQ_ESCAPABLE:
            if word[i + 1] != "\n":
                out.append(word[i + 1])
            i += 2
            continue
        if ch == "$" or (ch == "`" and not fish):
            return -1
        out.append(ch)
        i += 1
    return i + 1 if i < n else -1


def assignment_name(word: str) -> str | None:
    """`NAME` for an assignment word `NAME=…` or `NAME+=…`, else None."""
    if "=" not in word or word[0] not in _NAME_START:
        return None
    i = 1
    while i < len(word) and word[i] in _NAME_CHARS:
        i += 1
    if word.startswith("=", i) or word.startswith("+=", i):
        return word[:i]
    return None


def is_plain(word: str) -> bool:
    """True when the word needs no quote removal (its text is its value)."""
    return bool(word) and all(c in _SAFE_UNQUOTED or c.isalnum() for c in word)


def quote_word(value: str) -> str:
    """`value` as one shell word for bash, sh and zsh (single quotes when needed)."""
    if value and all(c in _SAFE_UNQUOTED for c in value):
        return value
    return "'" + value.replace("'", "'\\''") + "'"


def basename(word: str) -> str:
    """The command name a path spells (`/usr/bin/grep` -> `grep`, `./gradlew` -> `gradlew`)."""
    return word.rsplit("/", 1)[-1]
