"""Whether bash would reject a command line as a syntax error (`bash -n`), read from the
lexer's tokens: an operator with no command before it, a line ending in `&&`/`|`, an
unmatched `)` or `}`, and `if/then/fi`, `while/do/done`, `{ }` and `( )` that do not pair.

Cautious in the other direction: syntax it does not follow (`case`, functions, `coproc`,
heredoc bodies, fish) is never called an error. Hot path: stdlib only.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from rtok.shell.scanner import Lexed

_SEPARATORS = frozenset((";", "&", "&&", "||", "|", "|&"))
_CONTINUED = frozenset(("&&", "||", "|", "|&"))
# reserved word -> (the frames it may close or continue, the frame it leaves open)
_RESERVED = {
    "then": (("if", "elif"), "then"),
    "elif": (("then",), "elif"),
    "else": (("then",), "else"),
    "fi": (("then", "else"), ""),
    "do": (("while", "for"), "do"),
    "done": (("do",), ""),
    "}": (("{",), ""),
}
_OPENERS = {"if": "if", "while": "while", "until": "while", "for": "for", "select": "for", "{": "{"}
_UNFOLLOWED = frozenset(("case", "esac", "function", "coproc", "in", ";;", ";&", ";;&"))
_ALL_RESERVED = frozenset((*_RESERVED, *_OPENERS, *_UNFOLLOWED, "!", "time"))
# Words after which the next word is a command again.
_LEADING = frozenset(("then", "do", "else", "elif", "if", "while", "until", "{", "!", "time"))


# Every token that is not a word or blanks holds one of these (an operator, a redirect, a
# line break or a comment).
_NON_WORD = frozenset(";&|()<>\n\r#")


def _simple(text: str, tokens: list[tuple[str, int, int]]) -> bool:
    """Every token is a word or blanks (decided from the text alone when it holds none of
    the characters other tokens need)."""
    return _NON_WORD.isdisjoint(text) or all(kind in ("word", "space") for kind, _s, _e in tokens)


class _State:
    __slots__ = ("command_word", "empty", "pending", "skip_words", "stack")

    def __init__(self) -> None:
        self.stack: list[str] = []
        self.empty = True  # no command since the last separator
        self.pending = False  # an operator that needs a command after it (`a &&`)
        self.command_word = True
        self.skip_words = False  # the words of `for NAME in …`


def rejects(lexed: Lexed) -> bool:
    """True when bash would refuse to run the line at all (see module docstring)."""
    if lexed.dialect != "bash":
        return False
    text = lexed.text
    tokens = lexed.tokens
    if _simple(text, tokens) and (
        not tokens or text[tokens[0][1] : tokens[0][2]] not in _ALL_RESERVED
    ):
        return False  # one simple command (the common case)
    state = _State()
    for kind, start, end in tokens:
        if kind in ("space", "comment"):
            continue
        token = text[start:end]
        if kind == "newline":
            state.empty = state.empty or not state.pending
            state.command_word = True
            state.skip_words = False
            continue
        found = _operator(token, state) if kind == "op" else _word(token, state, kind)
        if found is not None:
            return found
    return state.pending or bool(state.stack)


def _operator(token: str, state: _State) -> bool | None:
    """True: an error; False: syntax not followed (no error); None: read on."""
    if token in _UNFOLLOWED:
        return False
    if token in _SEPARATORS:
        if state.empty and not (token == ";" and state.skip_words):
            return True
        state.empty, state.pending = True, token in _CONTINUED
        state.command_word, state.skip_words = True, False
    elif token == "(":
        if not state.empty:
            return False  # `f() { …; }`, `a=(…)`: not followed here
        state.stack.append("(")
        state.command_word = True
    elif token == ")":
        if not state.stack or state.stack[-1] != "(":
            return True
        state.stack.pop()
        state.empty, state.pending, state.command_word = False, False, False
    return None


def _word(token: str, state: _State, kind: str) -> bool | None:
    if kind == "word" and state.command_word and not state.skip_words:
        if token in _UNFOLLOWED or token.endswith("()"):
            return False
        verdict = _reserved(token, state.stack)
        if verdict:
            return True
        if verdict is not None:
            state.empty = token in _LEADING
            state.pending = state.pending and state.empty
            state.command_word = token in _LEADING
            state.skip_words = token in ("for", "select")
            return None
    state.empty, state.pending, state.command_word = False, False, False
    return None


def _reserved(token: str, stack: list[str]) -> bool | None:
    """None when `token` is not a reserved word; else whether it is out of place (the stack
    of open frames is updated)."""
    opened = _OPENERS.get(token)
    if opened is not None:
        stack.append(opened)
        return False
    rule = _RESERVED.get(token)
    if rule is None:
        return None if token != "!" and token != "time" else False
    closes, leaves = rule
    if not stack or stack[-1] not in closes:
        return True
    if leaves:
        stack[-1] = leaves
    else:
        stack.pop()
    return False
