"""`rtok rewrite [--rtok-bin PATH] [--agent NAME] CMD…`: the rewrite verdict for plugins
and scripts.

The arguments are joined with spaces (`rtok rewrite ls -al` is `rtok rewrite "ls -al"`).

    exit 0  rewritten command on stdout   rewrite, allowed (or host owns approval)
    exit 1  nothing                       nothing to rewrite, excluded, unattestable,
                                          or a permission file rtok cannot read
    exit 2  nothing                       a deny rule matches
    exit 3  rewritten command on stdout   rewrite, the host should ask (ask rule / no rule)

`--agent NAME` (or `RTOK_REWRITE_HOST=NAME`) names the calling agent; its descriptor's
`[rewrite]` table says whose permission rules are read (by default, and for an agent not
named, those of the descriptor with `default_rules = true`: Claude Code's), whether the
agent owns approval itself ("no rule" then gives 0, while an explicit ask rule stays 3 and
a deny rule stays 2), and whether its own `permission.bash` rules are read as well
(OpenCode, Kilo: rtok.permissions.opencode; their deny gives 2, an unreadable config file
gives 1, and a rewrite the host would judge differently from the command as typed is not
made, 1). The command is printed without a trailing newline. `--rtok-bin PATH` (or
`RTOK_REWRITE_BIN`) inserts that absolute path, shell-quoted, instead of bare `rtok` (for
hosts whose shell PATH may not contain rtok).

Hot path: stdlib only.
"""

from __future__ import annotations

import sys

from rtok._fast import oslite as os

HOST_VARIABLE = "RTOK_REWRITE_HOST"
BIN_VARIABLE = "RTOK_REWRITE_BIN"

EXIT_ALLOW = 0
EXIT_NONE = 1
EXIT_DENY = 2
EXIT_ASK = 3

USAGE = "usage: rtok rewrite [--rtok-bin PATH] [--agent NAME] [--] COMMAND...\n"


def host_facts(host: str) -> tuple[str, bool, str]:
    """(permission source, the host owns approval, its own rule set or "") for the calling
    agent, from its descriptor's `[rewrite]` table (rtok/compiled/rewrite_hosts.py)."""
    from rtok.compiled.rewrite_hosts import DEFAULT, HOSTS

    return HOSTS.get(host, DEFAULT)


def _verdict(cmd: str, source: str) -> str:
    """deny | unreadable | ask | allow | default under the rules of `source` (a deny rule
    found only inside a `sh -c` script counts as deny here)."""
    # Imported here, not at the top: an empty command exits before any rule is read. No
    # ImportError fallback: a verdict without the user's deny rules would be worse than
    # no rewrite (a failing `rtok rewrite` leaves the command as typed).
    from rtok.permissions.verdict import rule_verdict

    try:
        verdict = rule_verdict(cmd, source, os.getcwd())
    except Exception as exc:  # rules that cannot be read: nothing is rewritten
        sys.stderr.write(f"rtok: warning: permission rules not read ({exc})\n")
        return "unreadable"
    return "deny" if verdict == "defer" else verdict


def _host_rules(rule_set: str) -> tuple[list[tuple[str, str, str]], list[tuple[str, str]]] | None:
    """The calling host's own bash rules (and unreadable files) when its descriptor names a
    rule set (OpenCode's, Kilo's); None otherwise."""
    if not rule_set:
        return None
    from rtok.permissions import opencode

    try:
        return opencode.read_rules(rule_set, os.getcwd())
    except Exception as exc:  # rules that cannot be read: nothing is rewritten
        return [], [("", str(exc))]


_OPTIONS = ("--rtok-bin", "--agent")


def parse_args(args: list[str]) -> tuple[dict[str, str], list[str]] | None:
    """({"--rtok-bin": …, "--agent": …} as given, command words); None for a usage error."""
    options: dict[str, str] = {}
    i = 0
    while i < len(args):
        arg = args[i]
        if arg == "--":
            i += 1
            break
        name, equals, value = arg.partition("=")
        if name not in _OPTIONS:
            if arg in ("-h", "--help"):
                return None
            break
        if not equals:
            value = args[i + 1] if i + 1 < len(args) else ""
            i += 1
        if not value:
            return None
        options[name] = value
        i += 1
    return options, args[i:]


def exit_status(kind: str, verdict: str, host_approves: bool) -> int:
    """The 0/1/2/3 status of a decision kind for the calling host."""
    if kind == "deny":
        return EXIT_DENY
    if kind == "allow_rewrite":
        return EXIT_ALLOW
    if kind == "ask_rewrite":
        if verdict != "ask" and host_approves:
            return EXIT_ALLOW
        return EXIT_ASK
    return EXIT_NONE


def main(args: list[str]) -> int:
    if args[:1] in (["-h"], ["--help"]):
        body = (__doc__ or "").split("\n\n", 1)[-1].split("\n\nHot path:")[0]
        sys.stdout.write(f"{USAGE}{body}\n")
        return 0
    parsed = parse_args(args)
    if parsed is None:
        sys.stderr.write(USAGE)
        return EXIT_NONE
    options, words = parsed
    cmd = " ".join(words)
    if not cmd.strip():
        return EXIT_NONE
    from rtok.rewrite.decision import decide

    host = (options.get("--agent") or os.environ.get(HOST_VARIABLE, "")).strip().lower()
    source, host_approves, rule_set = host_facts(host)
    verdict = _verdict(cmd, source)
    if verdict in ("unreadable", "opaque"):
        # The user's rules cannot be read, or the line runs what the gate cannot read while
        # they deny or ask about something: the command stays as written.
        return EXIT_NONE
    host_rules = _host_rules(rule_set)
    host_verdict = ""
    if host_rules is not None:
        early, host_verdict = _host_gate(cmd, host_rules)
        if early is not None:
            return early
    decision = decide(cmd, verdict, rtok_bin=_rtok_bin(options))
    status = exit_status(decision.kind, verdict, host_approves)
    if host_rules is not None and decision.command is not None and status != EXIT_DENY:
        status = _host_status(decision.command, host_rules[0], host_verdict, status)
    if status in (EXIT_ALLOW, EXIT_ASK) and decision.command is not None:
        sys.stdout.write(decision.command)
        sys.stdout.flush()
    return status


def _rtok_bin(options: dict[str, str]) -> str:
    """The rtok command the rewrite names: `--rtok-bin`, $RTOK_BIN, or a bare `rtok`."""
    from rtok.shell.words import quote_word

    bin_path = options.get("--rtok-bin") or os.environ.get(BIN_VARIABLE) or None
    return quote_word(bin_path) if bin_path else "rtok"


def _host_gate(
    cmd: str, host_rules: tuple[list[tuple[str, str, str]], list[tuple[str, str]]]
) -> tuple[int | None, str]:
    """(the status to end with now, or None to go on; the host's own verdict) for a host
    that matches its own bash rules (OpenCode, Kilo)."""
    from rtok.permissions import opencode

    rules, problems = host_rules
    if problems:
        return EXIT_NONE, ""
    host_verdict = opencode.verdict_with_rules(cmd, rules)
    if host_verdict == "deny" or opencode.denied_in_any_reading(cmd, rules):
        return EXIT_DENY, host_verdict
    if opencode.limits_something(rules):
        from rtok.permissions.verdict import is_opaque

        if is_opaque(cmd):
            return EXIT_NONE, host_verdict
    return None, host_verdict


def _host_status(
    command: str, rules: list[tuple[str, str, str]], host_verdict: str, status: int
) -> int:
    """The host matches its rules against the command it finally runs: a rewrite must
    leave its verdict as it was (no `"*": "allow"` for what a rule asked about)."""
    from rtok.permissions import opencode

    if opencode.verdict_with_rules(command, rules) != host_verdict:
        return EXIT_NONE
    if host_verdict == "ask" and status == EXIT_ALLOW:
        return EXIT_ASK
    return status
