"""Turns a command line into its `rtok run …` form by inserting text, never editing it.

`rewrite_command("FOO=1 git status | head")` gives `FOO=1 rtok run git status | head`.
Invariant: deleting every inserted `<rtok_bin> run ` gives back the input byte for byte;
`insertion_points` exposes the offsets so tests can check exactly that.

What is rewritten is decided by the compiled registry (rules/registry.toml), the user's
`[hooks] exclude_commands` and `transparent_prefixes`, and trusted user rule files
(the output families they give a table, rtok.filter.layers; outside pipelines only). Lines
with a construct rtok cannot attest, or with compound syntax (subshells, loops,
conditionals, functions), are left alone.

Hot path: stdlib only.
"""

from __future__ import annotations

from rtok._fast import oslite as os
from rtok.compiled.registry import REGISTRY
from rtok.shell import lexer, segments, wrappers
from rtok.shell.words import assignment_name, basename, dequote

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from rtok.rewrite.registry_types import RewriteGroup
    from rtok.shell.segments import SimpleCommand

_GROUPS = REGISTRY["groups"]
_INDEX = REGISTRY["command_index"]
_WRAPPERS = REGISTRY["wrappers"]
_NEVER = frozenset(REGISTRY["never"])
_SHELLS = REGISTRY["shells"]

SELF_NAMES = frozenset(("rtok", "rtok.exe"))
BARE_NAME = "rtok"  # the command word the trailer and the awareness texts use
# Grammar words stepped over where a command starts (`then make`, `do make`, `{ make; }`).
_STEP_OVER = frozenset(
    ("{", "}", "!", "if", "then", "elif", "else", "do", "while", "until", "fi", "done")
)
# Syntax whose words are not commands: a line holding one is left alone.
_UNWALKED = frozenset(("case", "esac", "select", "function", "coproc", "in"))
_CASE_OPS = frozenset((";;", ";&", ";;&"))
_OPENERS = frozenset(("{", "if", "while", "until", "for"))
_CLOSERS = frozenset(("}", "fi", "done"))
_PIPES = frozenset(("|", "|&"))
_LAUNCHERS = frozenset(("npx", "pnpx", "bunx", "uvx"))
# Builtins that change what a command name or an fd means for the rest of the line: after
# them `rtok run X` may find another X, no rtok at all, or no room for its own files.
_MEANING_BUILTINS = frozenset(("hash", "ulimit", "enable"))
_NAMING_BUILTINS = frozenset(("export", "unset", "declare", "typeset", "readonly", "local"))
_PATH_ASSIGNMENTS = ("PATH=", "PATH+=")
# Text without any of these cannot change a meaning as `_meaning_changes` reads it.
_MEANING_HINTS = ("PATH", "hash", "ulimit", "enable", "exec", "-")
# `bash -c '…'` scripts inside scripts rewritten in place; deeper ones are left as written
# (rtok.shell.lexer.MAX_ATTESTED_SCRIPT_DEPTH is how deep the attestation reads).
MAX_REWRITTEN_SCRIPT_DEPTH = 4

NORMAL = "normal"
PRODUCER = "producer"
FINAL = "final"
_CONTEXT_OK = {
    NORMAL: frozenset(("producer", "final", "both", "none")),
    PRODUCER: frozenset(("producer", "both")),
    FINAL: frozenset(("final", "both")),
}


class Settings:
    """User settings that shape the rewrite (from config.toml `[hooks]`)."""

    __slots__ = ("cwd", "env", "exclude_prefixes", "exclude_regexes", "transparent")

    def __init__(
        self,
        exclude_commands: Sequence[str] = (),
        transparent_prefixes: Sequence[str] = (),
        cwd: str | None = None,
        env: Mapping[str, str] | None = None,
    ) -> None:
        self.cwd = cwd
        # The environment rtok's own folders (user rule files, trust store) are found
        # through; None: the process's.
        self.env = env
        self.exclude_prefixes: list[tuple[str, ...]] = []
        self.exclude_regexes: list[str] = []
        for entry in exclude_commands:
            text = entry.strip()
            if not text or text == "^":
                continue
            if text.startswith("^"):
                self.exclude_regexes.append(text)
            else:
                self.exclude_prefixes.append(tuple(text.split()))
        prefixes = {tuple(p.split()) for p in transparent_prefixes if p.strip()}
        self.transparent: list[tuple[str, ...]] = sorted(prefixes, key=len, reverse=True)


def settings_from_config(
    config: dict[str, object], cwd: str | None = None, env: Mapping[str, str] | None = None
) -> Settings:
    hooks = config.get("hooks")
    if not isinstance(hooks, dict):
        return Settings(cwd=cwd, env=env)
    exclude = hooks.get("exclude_commands", [])
    transparent = hooks.get("transparent_prefixes", [])
    return Settings(
        [e for e in exclude if isinstance(e, str)] if isinstance(exclude, list) else [],
        [t for t in transparent if isinstance(t, str)] if isinstance(transparent, list) else [],
        cwd,
        env,
    )


def load_settings(cwd: str | None = None, env: Mapping[str, str] | None = None) -> Settings:
    """config.toml's `[hooks]`, found through `env` (by default the process environment)."""
    from rtok import config

    return settings_from_config(config.load(env=env), cwd, env)


class _Plan:
    """Insertion offsets found so far, offsets of a bare `rtok` command word to name
    `rtok_bin` instead, and whether the line already runs through rtok."""

    __slots__ = (
        "actions",
        "already_rtok",
        "bin_value",
        "offsets",
        "renamed",
        "rtok_bin",
        "settings",
        "user_families",
    )

    def __init__(self, rtok_bin: str, settings: Settings) -> None:
        self.rtok_bin = rtok_bin
        self.bin_value = dequote(rtok_bin)  # its value, compared with every command word
        self.settings = settings
        self.offsets: list[int] = []
        self.renamed: list[tuple[int, int]] = []  # (offset, length) of each word
        self.already_rtok = False
        self.user_families: frozenset[str] | None = None
        # (words, context) -> `_command_action`'s answer, for the commands of this line.
        self.actions: dict[tuple[tuple[str, ...], str], tuple[int, int]] = {}

    def trusted_families(self) -> frozenset[str]:
        if self.user_families is None:
            self.user_families = frozenset()
            try:
                from rtok.filter.layers import trusted_families
            except ImportError:
                return self.user_families
            try:
                self.user_families = trusted_families(
                    self.settings.cwd or os.getcwd(), self.settings.env
                )
            except Exception:  # a broken rule file must never stop a command
                self.user_families = frozenset()
        return self.user_families


def edit_points(
    cmd: str, *, rtok_bin: str = "rtok", settings: Settings | None = None
) -> tuple[list[int], list[tuple[int, int]], bool] | None:
    """Offsets where `<rtok_bin> run ` goes, (offset, length) of the bare `rtok` command
    words that become `rtok_bin`, and whether the line already runs via rtok.

    A bare `rtok` (`rtok expand ID`, as the trailer and the awareness texts say) is
    renamed only when `rtok_bin` is not `rtok` itself: the agent's shell may not find rtok
    on PATH, and the hook knows where it is. None when the line must be left alone as a
    whole (unattestable, compound, empty).
    """
    if not cmd.strip():
        return None
    if lexer.is_unattestable(cmd):
        return None
    if _meaning_changes(lexer.lex(cmd)):
        return None
    plan = _Plan(rtok_bin, settings if settings is not None else load_settings())
    if not _plan_line(cmd, 0, plan, 0):
        return None
    return sorted(set(plan.offsets)), sorted(set(plan.renamed)), plan.already_rtok


def insertion_points(
    cmd: str, *, rtok_bin: str = "rtok", settings: Settings | None = None
) -> tuple[list[int], bool] | None:
    """Offsets where `<rtok_bin> run ` goes, and whether the line already runs via rtok
    (see `edit_points`, which also gives the renamed `rtok` words)."""
    found = edit_points(cmd, rtok_bin=rtok_bin, settings=settings)
    return None if found is None else (found[0], found[2])


def rewrite_command(
    cmd: str,
    *,
    rtok_bin: str = "rtok",
    settings: Settings | None = None,
) -> str | None:
    """`cmd` with `<rtok_bin> run ` in front of every command worth shortening, and every
    bare `rtok` command word naming `rtok_bin`.

    None when nothing is rewritten; `cmd` itself when it already runs through rtok.
    `rtok_bin` is inserted as written (pass an absolute path already shell-quoted).
    """
    found = edit_points(cmd, rtok_bin=rtok_bin, settings=settings)
    if found is None:
        return None
    offsets, renamed, already = found
    if not offsets and not renamed:
        return cmd if already else None
    return apply_edits(cmd, offsets, f"{rtok_bin} run ", renamed, rtok_bin)


def apply_insertions(cmd: str, offsets: Sequence[int], text: str) -> str:
    return apply_edits(cmd, offsets, text, (), "")


def apply_edits(
    cmd: str, offsets: Sequence[int], text: str, renamed: Sequence[tuple[int, int]], name: str
) -> str:
    """`text` inserted at each of `offsets`, and each (offset, length) word of `renamed`
    replaced by `name` (an inserted offset is never inside a renamed word)."""
    events = sorted([(o, 0) for o in offsets] + list(renamed))
    parts = []
    last = 0
    for offset, length in events:
        parts.append(cmd[last:offset])
        parts.append(text if length == 0 else name)
        last = offset + length
    parts.append(cmd[last:])
    return "".join(parts)


def _meaning_changes(lexed: lexer.Lexed) -> bool:
    """A line in which a command rtok would wrap no longer means what it says: PATH is
    assigned, exported or unset, `hash`/`ulimit`/`enable` change lookups or limits, `exec`
    moves fds for the rest of the line, or an fd is closed (`cmd >&-`: the command's
    failure on it is its own exit status, which `rtok run` must not change)."""
    text = lexed.text
    if not any(hint in text for hint in _MEANING_HINTS):
        return False
    for command in segments.simple_commands(lexed):
        if _closes_an_fd(text, command):
            return True
        texts = segments.word_texts(lexed, command)
        words = segments.strip_grammar(texts)
        values = segments.word_values(lexed, command)[len(texts) - len(words) :]
        if _changes_lookups(words, values) or (values == ["exec"] and bool(command.redirects)):
            return True
    return False


def _closes_an_fd(text: str, command: SimpleCommand) -> bool:
    """`>&-`, `2<&-`: a redirect that closes an fd."""
    for op_start, op_end, target_start, target_end in command.redirects:
        if text[op_start:op_end].endswith("&") and text[target_start:target_end].endswith("-"):
            return True
    return False


def _changes_lookups(words: list[str], values: list[str | None]) -> bool:
    """A PATH assignment, or a builtin that changes what names or limits mean (`hash`,
    `ulimit`, `enable`, `export PATH`, `unset PATH`)."""
    if any(
        w.startswith(_PATH_ASSIGNMENTS) or (v or "").startswith(_PATH_ASSIGNMENTS)
        for w, v in zip(words, values, strict=True)
    ):
        return True
    head = next((v for v, w in zip(values, words, strict=True) if assignment_name(w) is None), None)
    return head in _MEANING_BUILTINS or (head in _NAMING_BUILTINS and "PATH" in values)


def _plan_line(cmd: str, base: int, plan: _Plan, depth: int) -> bool:
    """Add the insertions of one line (offsets shifted by `base`); False = leave it alone."""
    lexed = lexer.lex(cmd)
    if lexed.reasons or not _readable_structure(lexed):
        return False
    commands = segments.simple_commands(lexed)
    leads = _grammar_leads(lexed, commands)
    if leads is None:
        return False
    grouped = _group_depths(lexed, commands)
    has_pipe = any(c.after in _PIPES for c in commands)
    pipeline: list[tuple[SimpleCommand, int]] = []
    for command, lead, group_depth in zip(commands, leads, grouped, strict=True):
        if command.start < 0 and command.before in _PIPES:
            return False  # `a | ;` or similar: not a line bash would run
        # A group feeding or fed by a pipe (`{ a; b; } | head`): leave its commands alone.
        if not (has_pipe and group_depth > 0):
            pipeline.append((command, lead))
        if command.after not in _PIPES:
            _plan_pipeline(lexed, pipeline, base, plan, depth)
            pipeline = []
    return True


def _readable_structure(lexed: lexer.Lexed) -> bool:
    """False for syntax the rewriter does not walk: case, functions, arrays, extglob."""
    tokens = lexed.tokens
    text = lexed.text
    # Without `;` or `(` the line holds none of the operators read here.
    op_kind = lexer.OP
    for index, (kind, start, end) in enumerate(tokens if ";" in text or "(" in text else ()):
        if kind != op_kind:
            continue
        op = text[start:end]
        if op in _CASE_OPS:
            return False
        # `name(`, `arr=(`, `@(`: a word glued to a parenthesis is not a subshell.
        if op == "(" and index > 0 and tokens[index - 1][0] == lexer.WORD:
            return False
        if op == "(" and index + 1 < len(tokens) and lexed.text[tokens[index + 1][1]] == "(":
            return False  # `((` arithmetic command
    # A lone CR separates commands for the gate (conservative) but is a word character to
    # bash: the line would not run the way it reads.
    return "\r" not in text or not any(
        k == lexer.NEWLINE and text[s:e] == "\r" for k, s, e in tokens
    )


def _grammar_leads(lexed: lexer.Lexed, commands: list[SimpleCommand]) -> list[int] | None:
    """How many leading grammar words (`then`, `do`, `{`, `!`, …) each command has; None
    when a command opens syntax the rewriter leaves alone (for, case, select, function)."""
    leads = []
    for command in commands:
        words = command.texts  # segments.word_texts
        lead = 0
        while lead < len(words) and words[lead] in _STEP_OVER:
            lead += 1
        if lead < len(words) and words[lead] in _UNWALKED:
            return None
        if lead < len(words) and words[lead].endswith("()"):
            return None
        leads.append(lead)
    return leads


def _group_depths(lexed: lexer.Lexed, commands: list[SimpleCommand]) -> list[int]:
    """Nesting depth of groups and compound commands (`( … )`, `{ …; }`, `if … fi`,
    `while/until/for … done`) at each command: their output may feed a pipe as a whole."""
    depths = []
    depth = 0
    for command in commands:
        if command.before == "(":
            depth += 1
        for word in command.texts:  # segments.word_texts
            if word in _OPENERS:
                depth += 1
            elif word in _CLOSERS:
                depth = max(0, depth - 1)
            elif word not in _STEP_OVER:
                break
        depths.append(depth)
        if command.after == ")":
            depth = max(0, depth - 1)
    return depths


def _plan_pipeline(
    lexed: lexer.Lexed,
    stages: list[tuple[SimpleCommand, int]],
    base: int,
    plan: _Plan,
    depth: int,
) -> None:
    stages = [s for s in stages if s[0].start >= 0]
    if not stages:
        return
    if len(stages) == 1:
        _plan_command(lexed, *stages[0], NORMAL, base, plan, depth)
        return
    # A bare `rtok` feeding a pipe still has to be found (`rtok expand ID | grep x`).
    for command, lead in stages[:-1]:
        _rename_bare_rtok(lexed, command, lead, base, plan)
    if any(s[0].after == "|&" for s in stages[:-1]):
        _rename_bare_rtok(lexed, *stages[-1], base, plan)
        return
    # Only the last stage's output reaches the agent: every earlier stage feeds a program
    # that must read the command's own bytes (`git log --oneline | head -3`).
    _plan_command(lexed, *stages[-1], FINAL, base, plan, depth)


def _rename_bare_rtok(
    lexed: lexer.Lexed, command: SimpleCommand, lead: int, base: int, plan: _Plan
) -> None:
    """Name `rtok_bin` for a bare `rtok` command word that gets no `run` inserted."""
    if dequote(plan.rtok_bin) == BARE_NAME:
        return
    words = segments.word_texts(lexed, command)[lead:]
    if not words:
        return
    peeled = wrappers.command_index(words, transparent=plan.settings.transparent)
    if peeled is None or peeled.disabled or peeled.resets_environment:
        return
    if dequote(words[peeled.index]) == BARE_NAME:
        offset = base + command.words[lead + peeled.index][0]
        plan.renamed.append((offset, len(words[peeled.index])))
        plan.already_rtok = True


# What `_command_action` finds for one simple command.
_SKIP = 0  # left as written
_INSERT = 1  # `rtok run ` goes before its command word
_SELF = 2  # it already runs rtok
_RENAME_SELF = 3  # it runs a bare `rtok`, which becomes `rtok_bin`
_SHELL = 4  # a shell whose `-c` script may be rewritten inside


def _plan_command(
    lexed: lexer.Lexed,
    command: SimpleCommand,
    lead: int,
    context: str,
    base: int,
    plan: _Plan,
    depth: int,
) -> bool:
    """Add the insertion for one simple command; True when it was rewritten. The same
    words in the same context get the same answer: it is found once per line."""
    words = segments.word_texts(lexed, command)[lead:]
    if not words:
        return False
    key = (tuple(words), context)
    found = plan.actions.get(key)
    if found is None:
        values = segments.word_values(lexed, command)[lead:]
        found = plan.actions[key] = _command_action(words, values, context, plan)
    action, index = found
    if action == _SKIP:
        return False
    if action == _SHELL:
        _plan_shell_script(lexed, command, lead, index, base, plan, depth)
        return False
    offset = base + command.words[lead + index][0]
    if action == _INSERT:
        plan.offsets.append(offset)
        return True
    plan.already_rtok = True
    if action == _RENAME_SELF:
        plan.renamed.append((offset, len(words[index])))
    return False


def _command_action(
    words: list[str], values: list[str | None], context: str, plan: _Plan
) -> tuple[int, int]:
    """(what to do, index of the command word) for one simple command's words."""
    index = _command_word(words, values, plan)
    if index is None:
        return _SKIP, 0
    head = values[index]
    assert head is not None  # (_command_word checked it)
    name = basename(head)
    if name in SELF_NAMES or head == plan.bin_value:
        renamed = head == BARE_NAME and plan.bin_value != BARE_NAME
        return (_RENAME_SELF if renamed else _SELF), index
    if name in _SHELLS:
        return (_SHELL if context == NORMAL else _SKIP), index
    if name in _NEVER or not _rewritable(name, head, words, values, index, context, plan):
        return _SKIP, 0
    return _INSERT, index


def _command_word(words: list[str], values: list[str | None], plan: _Plan) -> int | None:
    """Index of the command word after assignments, wrappers and user prefixes; None when
    the command keeps its own form (no command word with a value, `env -i`, `PATH=/x`)."""
    head = values[0]
    if (
        head is words[0]  # a plain word: no quoting, no expansion
        and "=" not in head
        and head not in _WRAPPERS
        and not plan.settings.transparent
    ):
        return 0  # its own command word, as command_index would find
    peeled = wrappers.command_index(words, transparent=plan.settings.transparent)
    if peeled is None or peeled.disabled or peeled.resets_environment:
        # `env -i git status`, `PATH=/x git status`: rtok itself may not be found (exit
        # 127) or may run without its settings; the command keeps its own form.
        return None
    return None if values[peeled.index] is None else peeled.index


def _rewritable(
    name: str,
    head: str,
    words: list[str],
    values: list[str | None],
    index: int,
    context: str,
    plan: _Plan,
) -> bool:
    """The command at `index` is in a rewrite group worth shortening in this context, and the user
    does not exclude it."""
    group = _matching_group(name, values[index + 1 :])
    if group is None:
        # A user rule file may add commands the registry does not know; it cannot undo the
        # registry's own limits (`git rebase -i`, `tail -f`) for commands it does know.
        if context != NORMAL or name in _INDEX or not _is_user_family(name, plan):
            return False
    elif group["pipeline"] not in _CONTEXT_OK[context]:
        return False
    return not _is_excluded(head, words[index + 1 :], plan.settings)


def _is_user_family(name: str, plan: _Plan) -> bool:
    families = plan.trusted_families()
    if not families:
        return False
    program = name.rstrip("0123456789.") or name
    return name in families or program in families


def _plan_shell_script(
    lexed: lexer.Lexed,
    command: SimpleCommand,
    lead: int,
    index: int,
    base: int,
    plan: _Plan,
    depth: int,
) -> None:
    """Rewrite inside `bash -c '…'` when the insertion stays valid in the script's quoting."""
    if depth >= MAX_REWRITTEN_SCRIPT_DEPTH:
        return
    words = segments.word_texts(lexed, command)[lead:]
    found = wrappers.shell_script(words, index)
    if found is None or found[1] != "bash":
        return
    script_index = found[0]
    if _is_login_shell(words[index + 1 : script_index]) and not _is_absolute(plan.rtok_bin):
        return  # a login shell reads the user's profile, which may set another PATH
    body = _script_body(words[script_index], f"{plan.rtok_bin} run ")
    if body is None:
        return
    start = base + command.words[lead + script_index][0] + 1
    inner = _Plan(plan.rtok_bin, plan.settings)
    inner.user_families = plan.user_families
    if _plan_line(body, start, inner, depth + 1):
        plan.offsets.extend(inner.offsets)
        plan.renamed.extend(inner.renamed)
        plan.already_rtok = plan.already_rtok or inner.already_rtok
        plan.user_families = inner.user_families


def _script_body(raw: str, inserted: str) -> str | None:
    """The text of a script word quoted as a whole (`'…'` or `"…"`) in which `inserted`
    can go without changing its quoting; None otherwise."""
    if len(raw) < 2 or raw[0] != raw[-1] or raw[0] not in "'\"":
        return None
    body = raw[1:-1]
    if raw[0] == "'":
        return None if "'" in body or "'" in inserted else body
    return None if any(c in body or c in inserted for c in '"$`\\') else body


def _is_login_shell(options: list[str]) -> bool:
    for word in options:
        value = dequote(word) or ""
        if value == "--login" or (
            value.startswith("-") and not value.startswith("--") and "l" in value
        ):
            return True
    return False


def _is_absolute(rtok_bin: str) -> bool:
    return (dequote(rtok_bin) or "").startswith("/")


def _matching_group(name: str, args: list[str | None]) -> RewriteGroup | None:
    names = _INDEX.get(name)
    if not names:
        return None
    for group_name in reversed(names):
        group = _GROUPS[group_name]
        if _group_matches(group, args):
            return group
    return None


def _blocked(args: list[str | None], never: tuple[str, ...], short: str) -> bool:
    for arg in args:
        if arg is None:
            continue
        if arg in never:
            return True
        if arg.startswith("-") and "=" in arg and arg.split("=", 1)[0] in never:
            return True
        if (
            short
            and arg.startswith("-")
            and not arg.startswith("--")
            and any(c in short for c in arg[1:])
        ):
            return True
    return False


def _group_matches(group: RewriteGroup, args: list[str | None]) -> bool:
    never = group.get("never_with", ())
    short = group.get("never_short", "")
    if _blocked(args, never, short):
        return False
    if group.get("needs_operand") and not any(a is None or not a.startswith("-") for a in args):
        return False
    subcommands = group["subcommands"]
    if subcommands is None:
        return bool(args) or bool(group["bare"])
    if not args:
        return bool(group["bare"])
    p = 0
    while p < len(args):
        for sub in subcommands:
            if tuple(args[p : p + len(sub)]) == sub:
                return _subcommand_allowed(group, sub, args[p + len(sub) :])
        step = _global_option_length(group, args[p])
        if not step:
            return False
        p += step
    return False


def _subcommand_allowed(group: RewriteGroup, sub: tuple[str, ...], rest: list[str | None]) -> bool:
    """The subcommand `sub` with the words after it is not blocked, and a delegating one
    (`uv run X`) runs a known command."""
    name = " ".join(sub)
    blocked = group.get("never_with_sub", {}).get(name)
    if blocked and _blocked(rest, blocked, ""):
        return False
    return name not in group.get("delegate", ()) or _delegated_command_known(rest)


def _global_option_length(group: RewriteGroup, arg: str | None) -> int:
    """How many words the global option `arg` takes before the subcommand (itself and its
    value), or 0 when it is not one, expands, or asks for a pager (`git -p log`)."""
    if arg is None or arg in group.get("pager_flags", ()):
        return 0
    options = group.get("global_options", ())
    if arg in group.get("global_flags", ()):
        return 1
    if arg in options:
        return 2
    if ("=" in arg and arg.split("=", 1)[0] in options) or (
        len(arg) > 2 and not arg.startswith("--") and arg[:2] in options
    ):
        return 1  # `--opt=value` or `-Cvalue`
    return 0


def _delegated_command_known(rest: list[str | None]) -> bool:
    """`uv run X …`, `bundle exec X …`: rewritten only when X is itself in a rewrite group
    (so `uv run python` – a REPL – or `bundle exec rails server` stays as written)."""
    for index, arg in enumerate(rest):
        if arg is None:
            return False
        if arg.startswith("-"):
            continue
        name = basename(arg)
        if name in _NEVER or name not in _INDEX:
            return False
        return _matching_group(name, rest[index + 1 :]) is not None
    return False


def _is_excluded(head: str, rest: list[str], settings: Settings) -> bool:
    if not settings.exclude_prefixes and not settings.exclude_regexes:
        return False
    forms = _excluded_forms(head, [dequote(w) or w for w in rest])
    for form in forms:
        for prefix in settings.exclude_prefixes:
            if form[: len(prefix)] == prefix:
                return True
    return bool(settings.exclude_regexes) and _regex_excluded(
        [" ".join(f) for f in forms], settings.exclude_regexes
    )


def _excluded_forms(head: str, literal_rest: list[str]) -> list[tuple[str, ...]]:
    """The spellings a user exclusion may name: as written, the program's name, and the
    launched command (`python3 -m pytest` is excluded by "pytest", `npx playwright` by
    "playwright", also `uv run pytest`, `bundle exec rspec`)."""
    forms = [tuple([head, *literal_rest])]
    if basename(head) != head:
        forms.append(tuple([basename(head), *literal_rest]))
    if literal_rest[:1] in (["-m"], ["run"], ["exec"], ["x"], ["dlx"]) and len(literal_rest) > 1:
        forms.append(tuple(literal_rest[1:]))
    elif basename(head) in _LAUNCHERS and literal_rest:
        forms.append(tuple(literal_rest))
    return forms


def _regex_excluded(texts: list[str], patterns: list[str]) -> bool:
    """One of the `^…` exclusions matches one of `texts` (a pattern that does not compile
    is read as a literal prefix)."""
    import re

    for pattern in patterns:
        try:
            compiled = re.compile(pattern)
        except re.error:
            compiled = None
        for text in texts:
            if compiled is not None and compiled.search(text):
                return True
            if compiled is None and text.startswith(pattern[1:]):
                return True
    return False
