"""The user's own permission rules applied to one shell command.

`detailed_verdict(cmd, source, cwd)` returns one of (`verdict_for`, the contract for other
areas, folds "defer" into "deny"):
- "deny"    a deny rule matches a segment of the command (through env prefixes, process
            wrappers and grammar words);
- "defer"   a deny rule matches only inside a shell wrapper's script (`bash -c '…'`): the
            host may not read that script as its own rule would, so rtok neither denies
            nor rewrites: `rtok hook` answers Defer and the host judges the original;
- "ask"     an ask rule matches, or the command holds a construct rtok cannot attest
            (`$(…)`, backticks, heredocs…), which is never allowed;
- "allow"   every non-empty segment, as written, matches an allow rule;
- "default" nothing applies, or the host owns approval (source "none").

Precedence: deny > defer > ask > allow > default. Sources: "claude" (Claude Code's project,
user and managed settings files), "cursor" (Cursor CLI's cli-config.json), "gemini" and
"qwen" (their allowed and excluded shell commands), "droid", "vibe" and "codex" (what they
block or confirm, as deny), "none".

Hot path: stdlib only (plus rtok.shell for segmenting).
"""

from __future__ import annotations

from rtok.permissions import sources

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

VERDICTS = ("deny", "defer", "ask", "allow", "default")

_READERS: dict[str, Callable[[str], sources.Rules]] = {
    "claude": sources.claude_rules,
    "cursor": sources.cursor_rules,
    "droid": sources.droid_rules,
    "gemini": sources.gemini_rules,
    "qwen": sources.qwen_rules,
    "vibe": sources.vibe_rules,
    "codex": sources.codex_rules,
}


def verdict_for(cmd: str, source: str, cwd: str) -> str:
    """"deny" | "ask" | "allow" | "default": the contract for every caller.

    A deny rule matched only inside a shell script counts as "deny" here, which is the
    safe reading for a caller that knows only these four verdicts (`rtok rewrite`).
    """
    verdict = detailed_verdict(cmd, source, cwd)
    return "deny" if verdict == "defer" else verdict


def detailed_verdict(cmd: str, source: str, cwd: str) -> str:
    """Like `verdict_for`, but keeps "defer" apart from "deny" (used by `rtok hook`)."""
    reader = _READERS.get(source)
    if reader is None:
        return "default"
    deny, ask, allow = reader(cwd)
    return verdict_with_rules(cmd, deny, ask, allow)


def verdict_with_rules(cmd: str, deny: list[str], ask: list[str], allow: list[str]) -> str:
    """The verdict for `cmd` under already-read rule lists (see module docstring)."""
    if not (deny or ask or allow):
        return "default"  # an unattestable construct is "at most ask": default is below
    from rtok.shell.lexer import is_unattestable
    from rtok.shell.segments import split_for_permissions

    segments = [segment.strip() for segment in split_for_permissions(cmd)]
    segments = [segment for segment in segments if segment]
    if deny and any(_any_form_matches(segment, deny) for segment in segments):
        direct = direct_segments(cmd)
        return "deny" if any(_any_form_matches(s, deny) for s in direct) else "defer"
    if is_unattestable(cmd):
        return "ask"
    if ask and any(_any_form_matches(segment, ask) for segment in segments):
        return "ask"
    if allow and segments and all(
        any(command_matches_pattern(segment, pattern) for pattern in allow)
        for segment in segments
    ):
        return "allow"
    return "default"


def _any_form_matches(segment: str, patterns: list[str]) -> bool:
    from rtok.permissions.peel import command_forms  # only users with deny/ask rules pay

    return any(
        command_matches_pattern(form, pattern)
        for form in command_forms(segment)
        for pattern in patterns
    )


def direct_segments(cmd: str, depth: int = 0) -> list[str]:
    """The commands the shell itself runs for `cmd`, substitutions included, without
    reading the scripts of `sh -c '…'` / `eval '…'` (those are the nested ones)."""
    from rtok.shell import lexer
    from rtok.shell.segments import MAX_DEPTH, simple_commands, word_texts

    if depth > MAX_DEPTH:
        return [cmd.strip()]
    lexed = lexer.lex(cmd)
    out = [" ".join(word_texts(lexed, command)) for command in simple_commands(lexed)]
    for start, end, _kind in lexed.substitutions:
        out += direct_segments(cmd[start:end], depth + 1)
    return [segment for segment in out if segment.strip()]


# --- Claude-format permission patterns ---------------------------------------------------
# The text inside `Bash(…)` matched against one command segment, with Claude Code's rule
# syntax as RTK implements it (the other hosts' prefix lists are a subset of it):
# - `*` (or a pattern made only of stars) matches every command;
# - a single trailing `*` (optionally `:*` or ` *`) is a word-bounded prefix: `git push:*`
#   matches `git push` and `git push origin`, never `git pushall`;
# - any other `*` is a glob: the text before the first star is a prefix, the text after the
#   last a suffix, the parts between must appear in order (`:*` / `*:` read as ` *` / `* `);
# - no star: the command equals the pattern or continues it after whitespace.
# Kept in this module: the hook imports it on every call, and a module costs more to
# import than these few functions.

_SPACE = " \t\n"


def command_matches_pattern(command: str, pattern: str) -> bool:
    cmd = command.strip()
    pat = pattern.strip()
    if not pat.strip("*"):
        return True
    if "*" not in pat:
        return _word_prefix(cmd, pat)
    if pat.endswith("*") and "*" not in pat[:-1]:
        prefix = pat[:-1].rstrip(": \t")
        return not prefix or _word_prefix(cmd, prefix)
    return _glob(cmd, pat.replace(":*", " *").replace("*:", "* ").split("*"))


def _word_prefix(cmd: str, prefix: str) -> bool:
    """`cmd` is `prefix`, or `prefix` followed by whitespace and more words."""
    if not cmd.startswith(prefix):
        return False
    return len(cmd) == len(prefix) or cmd[len(prefix)] in _SPACE


def _glob(cmd: str, parts: list[str]) -> bool:
    first, middles, last = parts[0], parts[1:-1], parts[-1]
    if not cmd.startswith(first):
        return False
    pos = len(first)
    for index, middle in enumerate(middles):
        if not middle:
            continue
        found = cmd.find(middle, pos)
        if found >= 0:
            pos = found + len(middle)
            continue
        # `git -C * diff *` must match `git -C /p diff`: a part ending in whitespace may
        # close the command when everything after it in the pattern is a star.
        trimmed = middle.rstrip(_SPACE)
        rest_is_stars = not last and not any(middles[index + 1 :])
        return (
            trimmed != middle
            and rest_is_stars
            and cmd.endswith(trimmed)
            and len(cmd) - len(trimmed) >= pos
        )
    return cmd.endswith(last) and len(cmd) - len(last) >= pos
