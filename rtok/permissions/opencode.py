"""OpenCode's and Kilo's own `permission.bash` rules, judged the way those hosts judge.

Both hosts check a shell call against their rules *after* rtok's plugin has rewritten it,
one pattern per simple command (its text, redirects included; `cd` is not checked), the
last matching rule deciding, deny over ask over allow. A rewrite changes the text the host
matches, so `rtok rewrite` asks `host_verdict` for the command as typed and as rewritten:
a deny keeps the command as typed (exit 2), and a rewrite whose verdict differs from the
original's is not made (a rule for `git *` does not cover `/path/rtok run git …`; neither
may a `"*": "allow"` let a rewritten command through that a rule had denied or asked for).

Configs are merged as the hosts merge them (objects key by key, other values replaced by
the later file's), from, in merge order: the global config
(`${XDG_CONFIG_HOME:-~/.config}/opencode/{config.json,opencode.json,opencode.jsonc}`;
for Kilo `…/kilo/{config.json,opencode.json,opencode.jsonc,kilo.json,kilo.jsonc}`), the
file named by `OPENCODE_CONFIG` / `KILO_CONFIG`, then the project's files from the
repository top down to the working directory (`opencode.json(c)`, `.opencode/opencode.json(c)`,
and for Kilo also `kilo.json(c)` and `.kilo/kilo.json(c)`). JSON with comments and
trailing commas, as the hosts' own parser reads it. Wildcards: `*` any text, `?` one
character, a trailing ` *` also matches nothing. No matching rule: allow (the hosts'
default for bash).

Hot path: stdlib only.
"""

from __future__ import annotations

from rtok._fast import oslite as os
from rtok.permissions import settings
from rtok.permissions.readers import project_root

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

# The rule sets read here; a descriptor's `[rewrite] host_rules` names one of them.
RULE_SETS = ("opencode", "kilo")
_CONFIG_NAMES = {
    "opencode": ("config.json", "opencode.json", "opencode.jsonc"),
    "kilo": ("config.json", "opencode.json", "opencode.jsonc", "kilo.json", "kilo.jsonc"),
}
_PROJECT_NAMES = {
    "opencode": (
        "opencode.json",
        "opencode.jsonc",
        ".opencode/opencode.json",
        ".opencode/opencode.jsonc",
    ),
    "kilo": (
        "opencode.json",
        "opencode.jsonc",
        ".opencode/opencode.json",
        ".opencode/opencode.jsonc",
        "kilo.json",
        "kilo.jsonc",
        ".kilo/kilo.json",
        ".kilo/kilo.jsonc",
        ".kilocode/kilo.json",
    ),
}
_ENV = {"opencode": "OPENCODE_CONFIG", "kilo": "KILO_CONFIG"}
_ACTIONS = ("allow", "ask", "deny")
# Commands the hosts do not check (they only change the directory).
_UNCHECKED = frozenset(("cd", "push-location", "set-location"))

Rule = tuple[str, str, str]  # (permission, pattern, action)


def config_files(host: str, cwd: str, env: Mapping[str, str] | None = None) -> list[str]:
    """The host's config files that may hold permission rules, in merge order (`host`: one
    of RULE_SETS; locations from `env`, default: this process's environment)."""
    name = host
    env = os.environ if env is None else env
    base = env.get("XDG_CONFIG_HOME") or os.path.join(
        env.get("HOME") or os.path.expanduser("~"), ".config"
    )
    files = [os.path.join(base, name, config) for config in _CONFIG_NAMES[name]]
    named = env.get(_ENV[name], "")
    if named:
        files.append(named)
    root = project_root(cwd, "." + name) or project_root(cwd, ".git")
    chain = []
    current = os.path.abspath(cwd)
    while True:
        chain.append(current)
        parent = os.path.dirname(current)
        if root is None or current == root or parent == current:
            break
        current = parent
    for directory in reversed(chain):
        files += [os.path.join(directory, project) for project in _PROJECT_NAMES[name]]
    return files


def read_rules(
    host: str, cwd: str, env: Mapping[str, str] | None = None
) -> tuple[list[Rule], list[tuple[str, str]]]:
    """(rules in merge order, files that could not be read)."""
    settings.problems.clear()
    merged: object = None
    for path in config_files(host, cwd, env):
        config = settings.read_settings(path, "jsonc-commas")
        if config is not None and "permission" in config:
            merged = merge_deep(merged, config["permission"])
    found = list(settings.problems)
    settings.problems.clear()
    return rules_of(merged), found


def merge_deep(base: object, update: object) -> object:
    """The hosts' config merge: objects merge key by key (a key keeps its first place, its
    value is the later one's), anything else is replaced by the later value."""
    if not (isinstance(base, dict) and isinstance(update, dict)):
        return update
    out = dict(base)
    for key, value in update.items():
        out[key] = merge_deep(out.get(key), value) if key in out else value
    return out


def rules_of(permission: object) -> list[Rule]:
    """The rules of one config's `permission` value (string or object form)."""
    if isinstance(permission, str):
        return [("*", "*", permission)] if permission in _ACTIONS else []
    if not isinstance(permission, dict):
        return []
    out: list[Rule] = []
    for key, value in permission.items():
        if not isinstance(key, str):
            continue
        if isinstance(value, str) and value in _ACTIONS:
            out.append((key, "*", value))
        elif isinstance(value, dict):
            out += [
                (key, pattern, action)
                for pattern, action in value.items()
                if isinstance(pattern, str) and action in _ACTIONS
            ]
    return out


def wildcard_match(text: str, pattern: str) -> bool:
    """The hosts' wildcard: the whole text matches; `*` any run, `?` one character; a
    pattern ending in ` *` also matches without that last part (`git *` matches `git`)."""
    if pattern.endswith(" *") and wildcard_match(text, pattern[:-2]):
        return True
    return _match_from(text, 0, pattern, 0)


def _match_from(text: str, t: int, pattern: str, p: int) -> bool:
    # Iterative glob matching with one backtrack point: linear in practice, never
    # exponential (the classic two-pointer algorithm).
    star_p, star_t = -1, 0
    while t < len(text):
        if p < len(pattern) and (pattern[p] == "?" or pattern[p] == text[t]) and pattern[p] != "*":
            t += 1
            p += 1
        elif p < len(pattern) and pattern[p] == "*":
            star_p, star_t = p, t
            p += 1
        elif star_p >= 0:
            star_t += 1
            t = star_t
            p = star_p + 1
        else:
            return False
    while p < len(pattern) and pattern[p] == "*":
        p += 1
    return p == len(pattern)


def check_patterns(cmd: str) -> list[str] | None:
    """The texts the host checks for `cmd`: each simple command from its command word to
    its last word or redirect. None when rtok cannot read the line that way."""
    from rtok.shell import lexer, segments

    lexed = lexer.lex(cmd)
    if lexer.TOO_LONG in lexed.reasons or lexer.TOO_DEEP in lexed.reasons:
        return None
    out = []
    for command in segments.simple_commands(lexed):
        words = segments.word_texts(lexed, command)
        lead = len(words) - len(segments.strip_grammar(words))
        if lead >= len(words) and not command.redirects:
            continue
        start = command.words[lead][0] if lead < len(command.words) else command.start
        text = cmd[start : command.end].strip()
        if text and (lead >= len(words) or words[lead] not in _UNCHECKED):
            out.append(text)
    return out


def verdict_with_rules(cmd: str, rules: list[Rule]) -> str:
    """ "deny" | "ask" | "allow" for `cmd` under the host's rules."""
    patterns = check_patterns(cmd)
    if patterns is None:
        return "ask"
    bash_rules = [rule for rule in rules if wildcard_match("bash", rule[0])]
    verdicts = set()
    for pattern in patterns:
        action = "allow"
        for _permission, rule_pattern, rule_action in bash_rules:
            if wildcard_match(pattern, rule_pattern):
                action = rule_action  # the last matching rule wins
        verdicts.add(action)
    for verdict in ("deny", "ask"):
        if verdict in verdicts:
            return verdict
    return "allow"


def limits_something(rules: list[Rule]) -> bool:
    """True when one of the host's bash rules denies or asks."""
    return any(rule[2] in ("deny", "ask") and wildcard_match("bash", rule[0]) for rule in rules)


def denied_in_any_reading(cmd: str, rules: list[Rule]) -> bool:
    """True when a deny rule of the host is the last match for some reading of a command
    bash would run (`git "push"`, `/usr/bin/git push`, `env git push`, …; see
    rtok.shell.readings): the host's own matcher reads the text only, rtok reads it the
    way bash will, and never rewrites what the user denied."""
    from rtok.shell.readings import all_readings
    from rtok.shell.segments import TooDeep, permission_commands

    bash_rules = [rule for rule in rules if wildcard_match("bash", rule[0])]
    if not any(rule[2] == "deny" for rule in bash_rules):
        return False
    try:
        commands = permission_commands(cmd)
    except TooDeep:
        return True
    for words, dialect, _direct in commands:
        for reading in all_readings(words, dialect):
            for form in reading.forms:
                action = "allow"
                for _permission, pattern, rule_action in bash_rules:
                    if wildcard_match(form, pattern):
                        action = rule_action
                if action == "deny":
                    return True
    return False


def host_verdict(cmd: str, host: str, cwd: str) -> str:
    """ "deny" | "ask" | "allow" | "unreadable" for `cmd` under the host's own rules."""
    rules, problems = read_rules(host, cwd)
    if problems:
        return "unreadable"
    return verdict_with_rules(cmd, rules)
