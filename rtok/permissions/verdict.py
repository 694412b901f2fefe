"""The user's own permission rules applied to one shell command.

`detailed_verdict(cmd, source, cwd)` returns one of (`verdict_for`, the contract for other
areas, folds "defer" into "deny"):
- "deny"    a deny rule matches a segment of the command (through env prefixes, process
            wrappers and grammar words);
- "defer"   a deny rule matches only inside a shell wrapper's script (`bash -c '…'`): the
            host may not read that script as its own rule would, so rtok neither denies
            nor rewrites: `rtok hook` answers Defer and the host judges the original;
- "opaque"  (`rule_verdict` only; "defer" in `detailed_verdict`) deny or ask rules exist
            and the command runs something the gate cannot read: inline interpreter code,
            a script file, a shell reading stdin, `ssh`, a command-running variable;
- "ask"     an ask rule matches, or the command holds a construct rtok cannot attest
            (`$(…)`, backticks, heredocs…), which is never allowed;
- "allow"   every non-empty segment, as written, matches an allow rule;
- "default" nothing applies, or the host owns approval (source "none").

Precedence: deny > defer > ask > allow > default. Sources: "claude" (Claude Code's project,
user and managed settings files), "cursor" (Cursor CLI's cli-config.json), "gemini" and
"qwen" (their allowed and excluded shell commands), "droid", "vibe" and "codex" (what they
block or confirm, as deny), "kimi" (its deny and ask rules, as deny), "auggie" (deny when
any of Auggie's own shell rules matches the command: its regexes are judged here, not as
patterns), "none".

The pattern matcher and the segment peeler live here too: the hook imports this module on
every call, and each extra module costs more to import than these few functions.

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
    "codebuddy": sources.codebuddy_rules,
    "cursor": sources.cursor_rules,
    "droid": sources.droid_rules,
    "gemini": sources.gemini_rules,
    "grok": sources.grok_rules,
    "qwen": sources.qwen_rules,
    "vibe": sources.vibe_rules,
    "codex": sources.codex_rules,
    "kimi": sources.kimi_rules,
}


def verdict_for(cmd: str, source: str, cwd: str) -> str:
    """ "deny" | "ask" | "allow" | "default": the contract for every caller.

    A deny rule matched only inside a shell script counts as "deny" here, which is the
    safe reading for a caller that knows only these four verdicts (`rtok rewrite`).
    """
    verdict = detailed_verdict(cmd, source, cwd)
    return "deny" if verdict == "defer" else verdict


# Hosts whose rules are not prefix patterns judge the whole command themselves.
_COMMAND_JUDGES: dict[str, Callable[[str, str], str]] = {
    "auggie": sources.auggie_verdict,
}

# Every permission source a descriptor may name (`[hook] permissions`, `[rewrite]
# permissions`): the rule readers above, and "none" for a host that has no rules rtok reads.
SOURCES = (*_READERS, *_COMMAND_JUDGES, "none")


def detailed_verdict(cmd: str, source: str, cwd: str) -> str:
    """Like `verdict_for`, but keeps "defer" apart from "deny" (used by `rtok hook`); a
    rule file rtok cannot read, or a line that runs what the gate cannot read while deny or
    ask rules exist, gives "defer" too (no rewrite, no opinion)."""
    verdict = rule_verdict(cmd, source, cwd)
    return "defer" if verdict in ("unreadable", "opaque") else verdict


def rule_verdict(cmd: str, source: str, cwd: str) -> str:
    """`detailed_verdict` with "unreadable" kept apart (one of the host's rule files could
    not be read: `unreadable_rule_files` names them) and "opaque" (see
    `verdict_with_rules`)."""
    judge = _COMMAND_JUDGES.get(source)
    if judge is not None:
        sources.problems.clear()
        judged = judge(cmd, cwd)
        unreadable = bool(sources.problems)
        sources.problems.clear()
        return "unreadable" if unreadable else judged
    reader = _READERS.get(source)
    if reader is None:
        return "default"
    (deny, ask, allow), problems = sources.read_rules(reader, cwd)
    if problems:
        return "unreadable"
    return verdict_with_rules(cmd, deny, ask, allow)


def unreadable_rule_files(source: str, cwd: str) -> list[tuple[str, str]]:
    """(path, why) of each of the host's rule files that rtok cannot read (for doctor and
    verify: while one is listed, commands are not rewritten for that host)."""
    judge = _COMMAND_JUDGES.get(source)
    if judge is not None:
        sources.problems.clear()
        judge("", cwd)
        found = list(sources.problems)
        sources.problems.clear()
        return found
    reader = _READERS.get(source)
    if reader is None:
        return []
    return sources.read_rules(reader, cwd)[1]


def verdict_with_rules(cmd: str, deny: list[str], ask: list[str], allow: list[str]) -> str:
    """The verdict for `cmd` under already-read rule lists (see module docstring).

    Deny and ask rules are checked against every reading of every command bash could run
    (rtok.shell.readings: quotes removed, paths reduced to names, wrappers and global
    options peeled, `find -exec` / `xargs` commands); allow needs every command, and every
    command it runs, to match an allow rule as executed.
    """
    if not (deny or ask or allow):
        return "default"  # an unattestable construct is "at most ask": default is below
    from rtok.shell.lexer import is_unattestable
    from rtok.shell.readings import all_readings
    from rtok.shell.segments import TooDeep, permission_commands

    try:
        commands = permission_commands(cmd)
    except TooDeep:
        return "ask"  # not read: never allowed, and the hook leaves it to the host
    readings = [
        (reading, direct)
        for words, dialect, direct in commands
        for reading in all_readings(words, dialect)
    ]
    if deny:
        hits = [direct for reading, direct in readings if _any_form_matches(reading.forms, deny)]
        if hits:
            return "deny" if any(hits) else "defer"
    if (deny or ask) and (_opaque_line(cmd) or any(reading.opaque for reading, _ in readings)):
        # What runs is not in the text (`python3 -c …`, `bash x.sh`, `ssh h cmd`): while a
        # deny or ask rule exists, neither allowed nor rewritten.
        return "opaque"
    if is_unattestable(cmd) or not all(reading.attestable for reading, _ in readings):
        return "ask"
    if ask and any(_any_form_matches(reading.forms, ask) for reading, _ in readings):
        return "ask"
    executed = [reading.executed for reading, _ in readings if reading.forms]
    if (
        allow
        and executed
        and all(
            form is not None and any(command_matches_pattern(form, p) for p in allow)
            for form in executed
        )
    ):
        return "allow"
    return "default"


def _opaque_line(cmd: str) -> bool:
    """A carriage return (bash reads it as part of a word, the gate as a line break) or a
    line bash would reject: what runs is not what the text says."""
    from rtok.shell import lexer

    return "\r" in cmd or lexer.SYNTAX_ERROR in lexer.lex(cmd).reasons


def is_opaque(cmd: str) -> bool:
    """True when `cmd` runs something the gate cannot read (see `verdict_with_rules`)."""
    from rtok.shell.readings import all_readings
    from rtok.shell.segments import TooDeep, permission_commands

    if _opaque_line(cmd):
        return True
    try:
        commands = permission_commands(cmd)
    except TooDeep:
        return True
    return any(
        reading.opaque
        for words, dialect, _direct in commands
        for reading in all_readings(words, dialect)
    )


def _any_form_matches(forms: list[str], patterns: list[str]) -> bool:
    return any(command_matches_pattern(form, pattern) for form in forms for pattern in patterns)


# --- Claude-format permission patterns ---------------------------------------------------
# The text inside `Bash(…)` matched against one command segment, with Claude Code's rule
# syntax as RTK implements it (the other hosts' prefix lists are a subset of it):
# - `*` (or a pattern made only of stars) matches every command;
# - a single trailing `*` (optionally `:*` or ` *`) is a word-bounded prefix: `git push:*`
#   matches `git push` and `git push origin`, never `git pushall`;
# - any other `*` is a glob: the text before the first star is a prefix, the text after the
#   last a suffix, the parts between must appear in order (`:*` / `*:` read as ` *` / `* `);
# - no star: the command equals the pattern or continues it after whitespace.

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
