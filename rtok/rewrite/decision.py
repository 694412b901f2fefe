"""The one place that decides what happens to a shell command an agent is about to run.

`decide(cmd, verdict)` with the verdict of the user's permission rules ("deny", "ask",
"allow", "default"; "defer" from rtok.permissions' detailed verdict):
  1. deny                                   -> Deny (nothing is rewritten)
     defer                                  -> Defer
  2. a construct rtok cannot attest         -> Defer (the agent runs it as it is)
  3. a rewrite exists and verdict is allow  -> AllowRewrite
     a rewrite exists, verdict ask/default  -> AskRewrite (Default never auto-allows)
  4. nothing to rewrite                     -> Defer
Hooks then call `for_hook`: a rewrite byte-equal to its input is Defer. `rtok rewrite`
does not (plugins compare the text themselves).

Hot path: stdlib only.
"""

from __future__ import annotations

from rtok.rewrite import rewriter
from rtok.shell import lexer

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

DENY = "deny"
DEFER = "defer"
ALLOW_REWRITE = "allow_rewrite"
ASK_REWRITE = "ask_rewrite"


class Decision:
    """What to do with one command: `kind` and, for rewrites, the new `command`."""

    __slots__ = ("command", "kind", "reason")

    def __init__(self, kind: str, command: str | None = None, reason: str = "") -> None:
        self.kind = kind
        self.command = command
        self.reason = reason  # short words for logs: "deny rule", "unattestable", ...

    def __repr__(self) -> str:
        return f"Decision({self.kind!r}, {self.command!r}, {self.reason!r})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Decision):
            return NotImplemented
        return (self.kind, self.command) == (other.kind, other.command)

    __hash__ = None  # type: ignore[assignment]


def decide(
    cmd: str,
    verdict: str,
    *,
    rtok_bin: str = "rtok",
    settings: rewriter.Settings | None = None,
    cwd: str | None = None,
    env: Mapping[str, str] | None = None,
) -> Decision:
    """Deny | Defer | AllowRewrite | AskRewrite for `cmd` under `verdict` (see module doc).

    `settings` defaults to config.toml's `[hooks]`; `cwd` is where trusted project rule
    files are looked up (default: the process's working directory); `env` is the
    environment rtok's own folders (config.toml, user rule files, the trust store) are
    found through (default: the process's).
    """
    if verdict == "deny":
        return Decision(DENY, None, "deny rule")
    if verdict == "defer":
        # A deny rule matched only inside a shell script: neither deny nor rewrite; the
        # host judges the original command with its own rules.
        return Decision(DEFER, None, "deny rule inside a script")
    if lexer.is_unattestable(cmd):
        return Decision(DEFER, None, "unattestable")
    if settings is None:
        settings = rewriter.load_settings(cwd, env)
    elif cwd is not None and settings.cwd is None:
        settings.cwd = cwd
    rewritten = rewriter.rewrite_command(cmd, rtok_bin=rtok_bin, settings=settings)
    if rewritten is None:
        return Decision(DEFER, None, "no rewrite")
    if verdict == "allow":
        return Decision(ALLOW_REWRITE, rewritten, "allow rule")
    # "ask", "default" and anything unexpected: the host asks its user.
    return Decision(ASK_REWRITE, rewritten, "ask rule" if verdict == "ask" else "no rule")


def for_hook(decision: Decision, cmd: str) -> Decision:
    """The decision a hook acts on: a rewrite identical to its input is Defer."""
    if decision.kind in (ALLOW_REWRITE, ASK_REWRITE) and decision.command == cmd:
        return Decision(DEFER, None, "already rewritten")
    return decision
