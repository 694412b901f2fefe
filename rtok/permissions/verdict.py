"""The user's own permission rules applied to one shell command.

`detailed_verdict(cmd, source, cwd, env)` returns one of (`verdict_for`, the contract for other
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

Precedence: deny > defer > ask > allow > default. Sources: the readers and judges of
rtok.permissions.readers (one module per rule format, every location taken from `env`),
and "none".

The pattern matcher and the segment peeler live here too: the hook imports this module on
every call, and each extra module costs more to import than these few functions.

Hot path: stdlib only (plus rtok.shell for segmenting).
"""

from __future__ import annotations

from rtok.permissions import readers, settings

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

    from rtok.shell.readings import Reading

    Readings = list[tuple[Reading, bool]]
    Rule = tuple[int, str, list[str]]

# Every permission source a descriptor may name (`[hook] permissions`, `[rewrite]
# permissions`): the rule readers and judges of rtok.permissions.readers, and "none" for a
# host that has no rules rtok reads.
SOURCES = (*readers.READERS, *readers.JUDGES, "none")


def verdict_for(cmd: str, source: str, cwd: str, env: Mapping[str, str]) -> str:
    """ "deny" | "ask" | "allow" | "default": the contract for every caller.

    A deny rule matched only inside a shell script counts as "deny" here, which is the
    safe reading for a caller that knows only these four verdicts (`rtok rewrite`).
    """
    verdict = detailed_verdict(cmd, source, cwd, env)
    return "deny" if verdict == "defer" else verdict


def detailed_verdict(cmd: str, source: str, cwd: str, env: Mapping[str, str]) -> str:
    """Like `verdict_for`, but keeps "defer" apart from "deny" (used by `rtok hook`); a
    rule file rtok cannot read, or a line that runs what the gate cannot read while deny or
    ask rules exist, gives "defer" too (no rewrite, no opinion)."""
    verdict = rule_verdict(cmd, source, cwd, env)
    return "defer" if verdict in ("unreadable", "opaque") else verdict


def rule_verdict(cmd: str, source: str, cwd: str, env: Mapping[str, str] | None = None) -> str:
    """`detailed_verdict` with "unreadable" kept apart (one of the host's rule files could
    not be read: `unreadable_rule_files` names them) and "opaque" (see
    `verdict_with_rules`). Every location comes from `env` (default: this process's
    environment)."""
    if env is None:
        from rtok._fast import oslite

        env = oslite.environ
    judge = readers.judge(source)
    if judge is not None:
        settings.problems.clear()
        judged = judge(cmd, cwd, env)
        unreadable = bool(settings.problems)
        settings.problems.clear()
        return "unreadable" if unreadable else judged
    reader = readers.reader(source)
    if reader is None:
        return "default"
    (deny, ask, allow), problems = settings.read_rules(reader, cwd, env)
    if problems:
        return "unreadable"
    return verdict_with_rules(cmd, deny, ask, allow)


def unreadable_rule_files(source: str, cwd: str, env: Mapping[str, str]) -> list[tuple[str, str]]:
    """(path, why) of each of the host's rule files that rtok cannot read (for doctor and
    verify: while one is listed, commands are not rewritten for that host)."""
    judge = readers.judge(source)
    if judge is not None:
        settings.problems.clear()
        judge("", cwd, env)
        found = list(settings.problems)
        settings.problems.clear()
        return found
    reader = readers.reader(source)
    if reader is None:
        return []
    return settings.read_rules(reader, cwd, env)[1]


def verdict_with_rules(cmd: str, deny: list[str], ask: list[str], allow: list[str]) -> str:
    """The verdict for `cmd` under already-read rule lists (see module docstring).

    Deny and ask rules are checked against every reading of every command bash could run
    (rtok.shell.readings: quotes removed, paths reduced to names, wrappers and global
    options peeled, `find -exec` / `xargs` commands); allow needs every command, and every
    command it runs, to match an allow rule as executed.
    """
    if not (deny or ask or allow):
        return "default"  # an unattestable construct is "at most ask": default is below
    readings = _readings(cmd)
    if readings is None:
        return "ask"  # not read: never allowed, and the hook leaves it to the host
    if deny:
        denied = _deny_verdict(readings, deny)
        if denied:
            return denied
    if (deny or ask) and (_opaque_line(cmd) or _any_opaque(readings)):
        # What runs is not in the text (`python3 -c …`, `bash x.sh`, `ssh h cmd`): while a
        # deny or ask rule exists, neither allowed nor rewritten.
        return "opaque"
    return _ask_or_allow(cmd, readings, ask, allow)


def _readings(cmd: str) -> Readings | None:
    """(reading, direct) of every command bash could run for `cmd`; None when the line
    nests too deep to be read."""
    from rtok.shell.readings import all_readings
    from rtok.shell.segments import TooDeep, permission_commands

    try:
        commands = permission_commands(cmd)
    except TooDeep:
        return None
    return [
        (reading, direct)
        for words, dialect, direct in commands
        for reading in all_readings(words, dialect)
    ]


def _deny_verdict(readings: Readings, deny: list[str]) -> str:
    """ "deny" when a deny rule matches a direct reading, "defer" when it matches only
    readings inside a shell script, "" when none matches."""
    rules = _compiled(deny)
    hits = [direct for reading, direct in readings if _any_form_matches(reading.forms, rules)]
    if not hits:
        return ""
    return "deny" if any(hits) else "defer"


def _any_opaque(readings: Readings) -> bool:
    return any(reading.opaque for reading, _ in readings)


def _ask_or_allow(cmd: str, readings: Readings, ask: list[str], allow: list[str]) -> str:
    """Past deny and opaque: "ask" (unattestable, or an ask rule matches), "allow" (every
    command as executed matches an allow rule) or "default"."""
    from rtok.shell.lexer import is_unattestable

    if is_unattestable(cmd) or not all(reading.attestable for reading, _ in readings):
        return "ask"
    if ask:
        rules = _compiled(ask)
        if any(_any_form_matches(reading.forms, rules) for reading, _ in readings):
            return "ask"
    if allow and _all_allowed(readings, allow):
        return "allow"
    return "default"


def _all_allowed(readings: Readings, allow: list[str]) -> bool:
    """Some command is read, and every command as executed matches an allow rule."""
    executed = [reading.executed for reading, _ in readings if reading.forms]
    rules = _compiled(allow)
    return bool(executed) and all(form is not None and _matches(form, rules) for form in executed)


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


def _any_form_matches(forms: list[str], rules: list[Rule]) -> bool:
    return any(_matches(form, rules) for form in forms)


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
    return _matches(command, [_rule(pattern)])


# A pattern read once per verdict, not once per command: (kind, prefix, glob parts).
_EVERY = 0  # matches every command
_PREFIX = 1  # a word-bounded prefix
_GLOB = 2  # the parts between stars


def _rule(pattern: str) -> Rule:
    pat = pattern.strip()
    if not pat.strip("*"):
        return (_EVERY, "", [])
    if "*" not in pat:
        return (_PREFIX, pat, [])
    if pat.endswith("*") and "*" not in pat[:-1]:
        prefix = pat[:-1].rstrip(": \t")
        return (_PREFIX, prefix, []) if prefix else (_EVERY, "", [])
    return (_GLOB, "", pat.replace(":*", " *").replace("*:", "* ").split("*"))


def _compiled(patterns: list[str]) -> list[Rule]:
    return [_rule(pattern) for pattern in patterns]


def _matches(command: str, rules: list[Rule]) -> bool:
    """`command` matches one of `rules` (see the pattern syntax above)."""
    cmd = command.strip()
    for kind, prefix, parts in rules:
        if kind == _EVERY:
            return True
        if kind == _PREFIX:
            if _word_prefix(cmd, prefix):
                return True
        elif _glob(cmd, parts):
            return True
    return False


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
