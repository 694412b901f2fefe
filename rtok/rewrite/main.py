"""`rtok rewrite [--rtok-bin PATH] CMD…`: the rewrite verdict for plugins and scripts.

The arguments are joined with spaces (`rtok rewrite ls -al` is `rtok rewrite "ls -al"`).

    exit 0  rewritten command on stdout   rewrite, allowed (or host owns approval)
    exit 1  nothing                       nothing to rewrite, excluded, unattestable,
                                          or a permission file rtok cannot read
    exit 2  nothing                       a deny rule matches
    exit 3  rewritten command on stdout   rewrite, the host should ask (ask rule / no rule)

The verdict comes from Claude Code's permission rules (the only rules users of the plugin
hosts commonly keep). `RTOK_REWRITE_HOST=<agent>` names the calling host: for hosts that own
approval themselves (codex, opencode, pi, …) "no rule" renders as 0, while an explicit ask
rule stays 3 and a deny rule stays 2. The command is printed without a trailing newline.
`--rtok-bin PATH` (or `RTOK_REWRITE_BIN`) inserts that absolute path, shell-quoted, instead
of bare `rtok` (for hosts whose shell PATH may not contain rtok).

With `RTOK_REWRITE_HOST=opencode` or `kilo`, the host's own `permission.bash` rules are read
as well (rtok.permissions.opencode): their deny gives 2, an unreadable config file gives 1,
and a rewrite the host would judge differently from the command as typed is not made (1).

Hot path: stdlib only.
"""

from __future__ import annotations

import sys

from rtok import oslite as os

HOST_VARIABLE = "RTOK_REWRITE_HOST"
BIN_VARIABLE = "RTOK_REWRITE_BIN"

# Hosts whose own approval flow decides about commands without a rule.
APPROVAL_OWNING_HOSTS = frozenset((
    "codex", "trae", "vibe", "antigravity", "opencode", "pi", "omp", "hermes", "kilocode",
    "kilo", "cline", "windsurf", "kimi", "openclaw", "roo",
))

EXIT_ALLOW = 0
EXIT_NONE = 1
EXIT_DENY = 2
EXIT_ASK = 3

USAGE = "usage: rtok rewrite [--rtok-bin PATH] [--] COMMAND...\n"


def _verdict(cmd: str) -> str:
    """deny | unreadable | ask | allow | default under Claude Code's rules (a deny rule
    found only inside a `sh -c` script counts as deny here)."""
    try:
        from rtok.permissions.verdict import rule_verdict
    except ImportError:
        return "default"
    try:
        verdict = rule_verdict(cmd, "claude", os.getcwd())
    except Exception as exc:  # rules that cannot be read: nothing is rewritten
        sys.stderr.write(f"rtok: warning: permission rules not read ({exc})\n")
        return "unreadable"
    return "deny" if verdict == "defer" else verdict


def _host_rules(host: str) -> tuple[list[tuple[str, str, str]], list[tuple[str, str]]] | None:
    """OpenCode's or Kilo's own bash rules (and unreadable files) when the calling host is
    one of them; None for other hosts."""
    from rtok.permissions import opencode

    if host not in opencode.HOSTS:
        return None
    try:
        return opencode.read_rules(host, os.getcwd())
    except Exception as exc:  # rules that cannot be read: nothing is rewritten
        return [], [("", str(exc))]


def parse_args(args: list[str]) -> tuple[str | None, list[str]] | None:
    """(--rtok-bin value, command words); None for a usage error."""
    rtok_bin: str | None = None
    i = 0
    while i < len(args):
        arg = args[i]
        if arg == "--":
            i += 1
            break
        if arg == "--rtok-bin":
            if i + 1 >= len(args) or not args[i + 1]:
                return None
            rtok_bin = args[i + 1]
            i += 2
        elif arg.startswith("--rtok-bin="):
            rtok_bin = arg.split("=", 1)[1]
            if not rtok_bin:
                return None
            i += 1
        elif arg in ("-h", "--help"):
            return None
        else:
            break
    return rtok_bin, args[i:]


def exit_status(kind: str, verdict: str, host: str) -> int:
    """The 0/1/2/3 status of a decision kind for the calling host."""
    if kind == "deny":
        return EXIT_DENY
    if kind == "allow_rewrite":
        return EXIT_ALLOW
    if kind == "ask_rewrite":
        if verdict != "ask" and host in APPROVAL_OWNING_HOSTS:
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
    bin_path, words = parsed
    bin_path = bin_path or os.environ.get(BIN_VARIABLE) or None
    cmd = " ".join(words)
    if not cmd.strip():
        return EXIT_NONE
    from rtok.rewrite.decision import decide
    from rtok.shell.words import quote_word

    rtok_bin = quote_word(bin_path) if bin_path else "rtok"
    verdict = _verdict(cmd)
    if verdict == "unreadable":
        return EXIT_NONE  # the user's rules cannot be read: the command stays as written
    host = os.environ.get(HOST_VARIABLE, "").strip().lower()
    host_rules = _host_rules(host)
    if host_rules is not None:
        from rtok.permissions import opencode

        rules, problems = host_rules
        if problems:
            return EXIT_NONE
        host_verdict = opencode.verdict_with_rules(cmd, rules)
        if host_verdict == "deny" or opencode.denied_in_any_reading(cmd, rules):
            return EXIT_DENY
    decision = decide(cmd, verdict, rtok_bin=rtok_bin)
    status = exit_status(decision.kind, verdict, host)
    if host_rules is not None and decision.command is not None and status != EXIT_DENY:
        # The host matches its rules against the command it finally runs: a rewrite must
        # leave its verdict as it was (no `"*": "allow"` for what a rule asked about).
        if opencode.verdict_with_rules(decision.command, host_rules[0]) != host_verdict:
            return EXIT_NONE
        if host_verdict == "ask" and status == EXIT_ALLOW:
            status = EXIT_ASK
    if status in (EXIT_ALLOW, EXIT_ASK) and decision.command is not None:
        sys.stdout.write(decision.command)
        sys.stdout.flush()
    return status
