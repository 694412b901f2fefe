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
block or confirm, as deny), "kimi" (its deny and ask rules, as deny), "auggie" (deny when
any of Auggie's own shell rules matches the command: its regexes are judged here, not as
patterns), "none".

The pattern matcher and the segment peeler live here too: the hook imports this module on
every call, and each extra module costs more to import than these few functions.

Hot path: stdlib only (plus rtok.shell for segmenting).
"""

from __future__ import annotations

from rtok.permissions import sources
from rtok.shell.words import assignment_name

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
    """"deny" | "ask" | "allow" | "default": the contract for every caller.

    A deny rule matched only inside a shell script counts as "deny" here, which is the
    safe reading for a caller that knows only these four verdicts (`rtok rewrite`).
    """
    verdict = detailed_verdict(cmd, source, cwd)
    return "deny" if verdict == "defer" else verdict


# Hosts whose rules are not prefix patterns judge the whole command themselves.
_COMMAND_JUDGES: dict[str, Callable[[str, str], str]] = {
    "auggie": sources.auggie_verdict,
}


def detailed_verdict(cmd: str, source: str, cwd: str) -> str:
    """Like `verdict_for`, but keeps "defer" apart from "deny" (used by `rtok hook`)."""
    judge = _COMMAND_JUDGES.get(source)
    if judge is not None:
        return judge(cmd, cwd)
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


# --- Peeling a segment: the forms deny and ask rules are checked against ----------------
# A deny rule for `git push` must also catch `FOO=1 git push`, `timeout 5 git push`,
# `env -i git push`, `nice -n 5 git push`, `{ git push; }` and `find . -exec git push {} +`.
# `command_forms` returns the segment itself plus every form left after peeling leading
# grammar words, environment assignments and process wrappers one word at a time, and the
# commands of a `find -exec`. Peeling is generous on purpose: it only ever adds matches for
# deny and ask rules, never for allow rules (an env prefix can change what an allowed
# command does, so allow rules see the segment as written).

# Reserved words and grammar that may open a segment without being the command.
_GRAMMAR = frozenset({"{", "}", "(", ")", "!", "if", "then", "elif", "else", "do", "while",
                      "until", "time", "exec", "coproc"})

# wrapper -> options that take a separate argument. Other words starting with `-` are
# skipped as flags. `timeout` also takes one positional duration before the command.
_WRAPPERS: dict[str, frozenset[str]] = {
    "env": frozenset({"-u", "--unset", "-C", "--chdir", "-S", "--split-string"}),
    "timeout": frozenset({"-s", "--signal", "-k", "--kill-after"}),
    "nice": frozenset({"-n", "--adjustment"}),
    "nohup": frozenset(),
    "time": frozenset({"-f", "--format", "-o", "--output"}),
    "command": frozenset(),
    "builtin": frozenset(),
    "exec": frozenset({"-a"}),
    "stdbuf": frozenset({"-i", "-o", "-e", "--input", "--output", "--error"}),
    "ionice": frozenset({"-c", "-n", "-p", "-P", "-u", "--class", "--classdata"}),
    "chrt": frozenset(),
    "taskset": frozenset(),
    "setsid": frozenset(),
    "unbuffer": frozenset(),
    "caffeinate": frozenset(),
    "sudo": frozenset({"-u", "-g", "-h", "-p", "-C", "-D", "-R", "-T", "-U", "--user",
                       "--group", "--host", "--prompt"}),
    "doas": frozenset({"-u", "-C"}),
    "xargs": frozenset({"-a", "-d", "-E", "-I", "-L", "-n", "-P", "-s", "--arg-file",
                        "--delimiter", "--max-args", "--max-procs", "--max-chars"}),
}
_POSITIONAL = {"timeout": 1, "chrt": 1, "taskset": 1}

_QUOTES = "'\""


# Prefix words peeled at most: enough for any real wrapper chain, and it keeps the scan of
# a huge command (a long heredoc, a generated script) short.
MAX_PREFIX_WORDS = 64


def word_spans(segment: str, limit: int = -1) -> list[tuple[int, int]]:
    """(start, end) of each shell word (the first `limit` ones when limit >= 0),
    quote- and backslash-aware; never fails."""
    spans: list[tuple[int, int]] = []
    i, n = 0, len(segment)
    while i < n and len(spans) != limit:
        while i < n and segment[i] in " \t\n":
            i += 1
        if i >= n:
            break
        start = i
        quote = ""
        while i < n:
            char = segment[i]
            if quote:
                if char == quote:
                    quote = ""
                elif char == "\\" and quote == '"':
                    i += 1
            elif char in _QUOTES:
                quote = char
            elif char == "\\":
                i += 1
            elif char in " \t\n":
                break
            i += 1
        spans.append((start, min(i, n)))
    return spans


def unquote(word: str) -> str:
    """The word with simple quoting removed (enough to recognise a wrapper's name)."""
    out = []
    quote = ""
    i = 0
    while i < len(word):
        char = word[i]
        if quote:
            if char == quote:
                quote = ""
            elif char == "\\" and quote == '"' and i + 1 < len(word):
                i += 1
                out.append(word[i])
            else:
                out.append(char)
        elif char in _QUOTES:
            quote = char
        elif char == "\\" and i + 1 < len(word):
            i += 1
            out.append(word[i])
        else:
            out.append(char)
        i += 1
    return "".join(out)


def _is_assignment(word: str) -> bool:
    # The rewriter's own test (NAME=… and NAME+=…): a prefix it steps over must not hide
    # the command behind it from the deny rules.
    return assignment_name(word) is not None


def command_forms(segment: str) -> list[str]:
    """The trimmed segment, then each form left after peeling one more prefix word."""
    text = segment.strip()
    spans = word_spans(text, MAX_PREFIX_WORDS)
    forms, ran_out = _forms(text, spans)
    if ran_out and len(spans) == MAX_PREFIX_WORDS:
        # Still peeling when the scanned words ran out (padding with many assignments):
        # scan everything rather than let the padding hide the command from deny rules.
        forms, _ = _forms(text, word_spans(text))
    if forms:
        forms += _find_exec_forms(forms[-1])
    return forms


_FIND_EXEC = frozenset({"-exec", "-execdir", "-ok", "-okdir"})


def _find_exec_forms(command: str) -> list[str]:
    """The commands `find … -exec CMD … ;` runs, each from its first word on."""
    spans = word_spans(command)
    if not spans or unquote(command[spans[0][0] : spans[0][1]]).rsplit("/", 1)[-1] != "find":
        return []
    return [command[spans[i + 1][0] :].strip() for i in range(len(spans) - 1)
            if command[spans[i][0] : spans[i][1]] in _FIND_EXEC]


def _forms(text: str, spans: list[tuple[int, int]]) -> tuple[list[str], bool]:
    """(forms, whether peeling ran past the last scanned word)."""
    forms = [text] if text else []
    words = [unquote(text[a:b]) for a, b in spans]
    index = _next_command(words, 0)
    seen = {text}
    while index < len(words):
        form = text[spans[index][0] :].strip()
        if form not in seen:
            seen.add(form)
            forms.append(form)
        following = _next_command(words, index)
        if following == index:
            return forms, False
        index = following
    return forms, True


def _next_command(words: list[str], index: int) -> int:
    """Index of the word that runs a command once the word at `index` is peeled.

    At the start (`index` pointing at grammar or an assignment) this skips those; at a
    wrapper it skips the wrapper with its options and positional arguments.
    """
    i = index
    moved = False
    while i < len(words) and (words[i] in _GRAMMAR or _is_assignment(words[i])):
        if words[i] in _WRAPPERS:  # `time`/`exec` are grammar words and wrappers
            break
        i += 1
        moved = True
    if moved or i >= len(words):
        return i
    name = words[i].rsplit("/", 1)[-1]
    takes_value = _WRAPPERS.get(name)
    if takes_value is None:
        return i
    i += 1
    positional = _POSITIONAL.get(name, 0)
    while i < len(words):
        word = words[i]
        if word == "--":
            i += 1
            break
        if name == "env" and _is_assignment(word):
            i += 1
        elif word.startswith("-") and len(word) > 1:
            option = word.split("=", 1)[0]
            i += 2 if option in takes_value and "=" not in word and option == word else 1
        elif positional:
            positional -= 1
            i += 1
        else:
            break
    while i < len(words) and _is_assignment(words[i]):
        i += 1
    return i
