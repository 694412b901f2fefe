"""Reading a command line for what rtok may attest: tokens and reasons.

`lex(cmd)` (from rtok.shell.scanner, re-exported here with the token kinds, the reasons and
the limits) cuts a command line into tokens `(kind, start, end)` whose texts re-join to
the input byte for byte, and records the constructs rtok cannot attest (command and
process substitution, backticks, heredocs, arithmetic, ANSI-C quoting, file-target
redirects, unterminated quotes). `unattestable_reasons(cmd)` / `is_unattestable(cmd)` add
what only a reading of the commands shows (a command word from an expansion, a script that
cannot be read) and look into `sh -c` / `eval` scripts as well.

Hot path: stdlib only, no typing/dataclasses at run time.
"""

from __future__ import annotations

from rtok.shell import segments
from rtok.shell.scanner import (
    _MEMO,
    ANSI_C_QUOTE,
    ARITHMETIC,
    BACKTICK,
    CARRIAGE_RETURN,
    COMMAND_SUBSTITUTION,
    COMMENT,
    DANGLING_REDIRECT,
    EXPANDED_COMMAND,
    FILE_REDIRECT,
    HEREDOC,
    MAX_LENGTH,
    MAX_NESTING,
    NEWLINE,
    OP,
    PROCESS_SUBSTITUTION,
    REDIR,
    SPACE,
    SYNTAX_ERROR,
    TOO_DEEP,
    TOO_LONG,
    UNREADABLE_SCRIPT,
    UNTERMINATED,
    WORD,
    Lexed,
    Memo,
    Token,
    join_continuations,
    lex,
    redirect_target,
    redirect_target_index,
)

__all__ = [
    "ANSI_C_QUOTE",
    "ARITHMETIC",
    "BACKTICK",
    "CARRIAGE_RETURN",
    "COMMAND_SUBSTITUTION",
    "COMMENT",
    "DANGLING_REDIRECT",
    "EXPANDED_COMMAND",
    "FILE_REDIRECT",
    "HEREDOC",
    "MAX_ATTESTED_SCRIPT_DEPTH",
    "MAX_LENGTH",
    "MAX_NESTING",
    "NEWLINE",
    "OP",
    "PROCESS_SUBSTITUTION",
    "REDIR",
    "SPACE",
    "SYNTAX_ERROR",
    "TOO_DEEP",
    "TOO_LONG",
    "UNREADABLE_SCRIPT",
    "UNTERMINATED",
    "WORD",
    "Lexed",
    "Token",
    "clear_memos",
    "is_unattestable",
    "join_continuations",
    "lex",
    "redirect_target",
    "redirect_target_index",
    "unattestable_reasons",
]

# `sh -c` / `eval` scripts inside scripts looked into when deciding whether a line can be
# attested; deeper is "nesting too deep to read".
MAX_ATTESTED_SCRIPT_DEPTH = 8

_REASONS_MEMO = Memo()


def unattestable_reasons(cmd: str, dialect: str = "bash", _depth: int = 0) -> set[str]:
    """Why `cmd` cannot be attested, looking into `sh -c` / `eval` scripts as well."""
    if _depth > MAX_ATTESTED_SCRIPT_DEPTH:
        return {TOO_DEEP}
    key = (cmd, dialect)
    found = _REASONS_MEMO.get(key)
    if not isinstance(found, frozenset):
        found = frozenset(_reasons(cmd, dialect, _depth))
        _REASONS_MEMO.put(key, found)
    return set(found)


def _reasons(cmd: str, dialect: str, depth: int) -> set[str]:
    lexed = lex(cmd, dialect)
    reasons = set(lexed.reasons)
    joined = join_continuations(cmd)
    if joined != cmd:
        # bash removes `\<newline>` before reading anything else: `$\<newline>(id)` is a
        # command substitution once joined.
        reasons |= unattestable_reasons(joined, dialect, depth + 1)
    if not reasons:
        # Imported here, not at the top (readings does not import this module): `rtok
        # filter` lexes lines and reads their commands without ever asking this question,
        # and must not load the gate's readers (and the exec-option reader) for it.
        from rtok.shell import readings

        strip_grammar, all_attestable = segments.strip_grammar, readings.all_attestable
        for command in segments.simple_commands(lexed):
            words = strip_grammar(command.texts, dialect)
            if words and not all_attestable(words, dialect):
                reasons.add(EXPANDED_COMMAND)
                return reasons
        for script, script_dialect in segments.nested_scripts(lexed):
            if script is None:
                reasons.add(UNREADABLE_SCRIPT)
            else:
                reasons |= unattestable_reasons(script, script_dialect, depth + 1)
    return reasons


def clear_memos() -> None:
    """Forget every memoised reading (lexed lines, reasons, command readings): for
    benchmarks that time the whole work of each call."""
    _MEMO.clear()
    _REASONS_MEMO.clear()
    from rtok.shell import readings  # see _reasons

    readings.clear_memo()


def is_unattestable(cmd: str) -> bool:
    """True when `cmd` holds a construct whose effect rtok cannot see from its text."""
    return bool(unattestable_reasons(cmd))
