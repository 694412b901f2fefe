"""`rtok hook AGENT`: the agent's hook payload on stdin, the agent's reply on stdout.

Every step is driven by the agent's `[hook]` descriptor table (compiled into
`rtok.compiled.hook_protocols`): which payload shapes it sends, which tools are shell
calls, whose permission rules apply, and one reply template per decision. This module
never blocks an agent: any error, unknown shape or oversized input ends with exit 0 and
the agent's "no opinion" reply, and nothing but the reply is written to stdout. A host
that reads only the exit status and stderr (`reply_via = "exit"`: Windsurf, Kiro) gets
its reply as those: exit 2 with the suggestion on stderr blocks a call rtok would shorten.

Environment: `RTOK_BIN` replaces the rtok path put into rewritten commands (tests, unusual
installs); `RTOK_HOOK_LOG=<file>` appends one JSON line per call (agent, tool, command,
decision, rewritten command) so an end-to-end test can prove the hook ran;
`RTOK_DISABLED=1` in the agent's environment turns the hook into a no-op. Every call's
decision also goes into rtok's own decision log after the reply is written
(rtok/store/decisions.py; `RTOK_DECISION_LOG=0` turns it off).

Hot path: stdlib only (see docs/DEVELOPING.md).
"""

from __future__ import annotations

import sys

from rtok._fast import fastjson as json
from rtok._fast import oslite as os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

    from rtok.hooks.payload import ToolCall
    from rtok.hooks.types import HookProtocol, JsonObject, JsonValue

# A longer command passes through untouched, unread: segmenting and rewriting grow with its
# size, a hook must answer well inside the agent's timeout, and rewriting a generated
# script of this size would save nothing worth the wait. The host still judges it.
MAX_COMMAND_CHARS = 64 * 1024

# How decisions combine when one tool call carries several commands (Cline).
_SEVERITY = {"deny": 3, "ask_rewrite": 2, "allow_rewrite": 1, "defer": 0}


# Placeholders of the reply templates (see rtok/hooks/descriptors.py).
INPUT = "${input}"
COMMAND = "${command}"
ORIGINAL = "${original}"


def render(template: str, new_input: JsonObject, command: str, original: str) -> str:
    """The JSON template text with its placeholders filled, as compact single-line JSON."""
    filled = _fill(json.loads(template), new_input, command, original)
    return json.dumps(filled, separators=(",", ":"))


def _fill(value: JsonValue, new_input: JsonObject, command: str, original: str) -> JsonValue:
    if isinstance(value, str):
        if value == INPUT:
            return new_input
        if "${" in value:
            return _substitute(value, {COMMAND: command, ORIGINAL: original})
        return value
    if isinstance(value, dict):
        return {key: _fill(item, new_input, command, original) for key, item in value.items()}
    if isinstance(value, list):
        return [_fill(item, new_input, command, original) for item in value]
    return value


def _substitute(text: str, values: dict[str, str]) -> str:
    """One pass over `text`: a placeholder inside an inserted value stays as it is."""
    out = []
    i = 0
    while True:
        found = text.find("${", i)
        if found < 0:
            out.append(text[i:])
            return "".join(out)
        out.append(text[i:found])
        end = text.find("}", found)
        name = text[found : end + 1] if end >= 0 else ""
        if name in values:
            out.append(values[name])
            i = end + 1
        else:
            out.append("${")
            i = found + 2


class Outcome:
    """What the hook decided for one call: the reply text plus what to log."""

    __slots__ = ("command", "cwd", "kind", "reply", "rewritten", "tool", "why")

    def __init__(
        self,
        reply: str,
        kind: str = "none",
        tool: str = "",
        command: str = "",
        rewritten: str = "",
        why: str = "",
        cwd: str = "",
    ) -> None:
        self.reply = reply
        self.kind = kind
        self.tool = tool
        self.command = command
        self.rewritten = rewritten
        self.why = why  # the verdicts behind `kind`, comma-separated
        self.cwd = cwd


HELP = """usage: rtok hook AGENT  (the agent's hook JSON on stdin)

Answer AGENT's pre-tool hook: read the tool call the agent is about to make, and reply in
the agent's own format with the same command run through `rtok run` (or with no opinion).
Your permission rules are honoured; a denied command is never rewritten. On any problem it
exits 0 with the agent's "no opinion" reply, so it never blocks the agent. `rtok init`
registers it; `rtok doctor` runs it as the agent would. Agents: `rtok agents`.
"""


def main(args: list[str]) -> int:
    if not args or args[0] in ("-h", "--help"):
        _stderr(HELP)
        return 0
    agent = args[0]
    try:
        from rtok.compiled.hook_protocols import PROTOCOL_JSON
        from rtok.compiled.hook_protocols import protocol as load_protocol

        protocol = load_protocol(agent)
    except Exception as error:  # a broken install must not block the agent either
        _stderr(f"rtok hook {agent}: cannot load hook protocols: {error}\n")
        return 0
    if protocol is None:
        known = ", ".join(sorted(PROTOCOL_JSON))
        _stderr(f"rtok hook: unknown agent {agent!r} (known: {known})\n")
        return 0
    if os.environ.get("RTOK_DISABLED", "") not in ("", "0"):
        # The user switched rtok off for this agent session: say nothing, change nothing.
        _write(str(protocol["no_opinion"]))
        _record(agent, None, Outcome("", "disabled"))
        return 0
    payload = None
    try:
        from rtok.hooks.payload import read_payload

        payload = read_payload(sys.stdin.buffer if sys.stdin is not None else None)
        outcome = respond(protocol, payload, os.environ)
    except Exception as error:  # never block the agent
        _stderr(f"rtok hook {agent}: {type(error).__name__}: {error}\n")
        outcome = Outcome(str(protocol["no_opinion"]), "error")
    code = 0
    if protocol.get("reply_via") == "exit":
        code = exit_reply(outcome.reply)
    else:
        _write(outcome.reply)
    _log(agent, outcome)
    _record(agent, payload, outcome)
    return code


def exit_reply(reply: str) -> int:
    """For a host that reads only the exit status and stderr (`reply_via = "exit"`): the
    reply `{"exit": N, "stderr": text}` becomes text on stderr and status N; anything
    else (no opinion, a malformed reply) is exit 0 with nothing written."""
    if not reply:
        return 0
    try:
        parsed = json.loads(reply)
        code, text = parsed["exit"], parsed["stderr"]
    except Exception:
        return 0
    if not isinstance(code, int) or not isinstance(text, str) or not 0 < code < 256:
        return 0
    _stderr(text + "\n")
    return code


def _record(agent: str, payload: JsonObject | None, outcome: Outcome) -> None:
    """The decision into rtok's decision log (after the reply: never delays it)."""
    try:
        from rtok.store import decisions

        decisions.append(
            decisions.line_for(
                agent,
                payload,
                outcome.cwd,
                outcome.tool,
                outcome.command,
                outcome.kind,
                outcome.why,
                outcome.rewritten,
            )
        )
    except Exception:
        pass


def respond(
    protocol: HookProtocol,
    payload: JsonObject | None,
    env: Mapping[str, str],
    cwd: str | None = None,
    verdict: str | None = None,
) -> Outcome:
    """The reply for one parsed payload (None: unreadable input), in the environment
    `env` the agent gave its hook (where the host's rule files are, `RTOK_BIN`, `PATH`).

    `cwd` defaults to the payload's working directory (`cwd_from`); `verdict` replaces the
    one read from the host's rules (for diagnostics that show every reply an agent can get).
    """
    from rtok.hooks.payload import find_shape, shell_call

    no_opinion: str = protocol["no_opinion"]
    if payload is None:
        return Outcome(no_opinion, "unreadable")
    shape = find_shape(payload, protocol["payloads"])
    if shape is None:
        return Outcome(no_opinion, "unknown_shape")
    call = shell_call(payload, shape)
    if call is None:
        return Outcome(no_opinion, "passthrough", _tool_name(payload, shape["tool"]))
    where = cwd if cwd is not None else _payload_cwd(payload, protocol["cwd_from"])
    outcome = _decide_call(call, protocol, where, verdict, env)
    outcome.cwd = where
    return outcome


def _decide_call(
    call: ToolCall, protocol: HookProtocol, cwd: str, forced: str | None, env: Mapping[str, str]
) -> Outcome:
    rtok_bin = rtok_path(protocol["rtok_path"], env)
    # Rules are read only when they can change the reply: a command with no rewrite can
    # only turn from Defer into Deny, and where Deny renders as "no opinion" too (and no
    # other command of the call could be rewritten) that changes nothing.
    may_skip_rules = not call.is_list and "deny" not in call.shape["replies"]
    new_commands = []
    kinds = []
    verdicts = []
    ask_rule = False
    for command in call.commands:
        kind, rewritten, verdict = _decide_command(
            command, protocol["permissions"], cwd, rtok_bin, forced, may_skip_rules, env
        )
        kinds.append(kind)
        verdicts.append(verdict)
        new_commands.append(rewritten if rewritten else command)
        ask_rule = ask_rule or (verdict == "ask" and kind == "ask_rewrite")
    kind = max(kinds, key=_SEVERITY.__getitem__) if kinds else "defer"
    if kind == "allow_rewrite" and any(verdict != "allow" for verdict in verdicts):
        # One reply approves the whole call: every command of it must be allowed.
        kind = "ask_rewrite"
    original = "\n".join(call.commands)
    shown = "\n".join(new_commands)
    replies = call.shape["replies"]
    # The user's own ask rule matched: hosts that can ask about a rewritten command get
    # an explicit ask, since their rule no longer matches the rewritten text.
    template = replies.get("ask_rule_rewrite") if kind == "ask_rewrite" and ask_rule else None
    template = template or replies.get(kind)
    why = ",".join(sorted(set(verdicts)))
    if template is None:
        return Outcome(protocol["no_opinion"], kind, call.tool, original, "", why)
    if kind in ("allow_rewrite", "ask_rewrite"):
        reply = render(template, call.input_with(new_commands), shown, original)
        return Outcome(reply, kind, call.tool, original, shown, why)
    return Outcome(
        render(template, call.tool_input, original, original), kind, call.tool, original, "", why
    )


def _decide_command(
    command: str,
    source: str,
    cwd: str,
    rtok_bin: str,
    forced: str | None,
    may_skip_rules: bool,
    env: Mapping[str, str],
) -> tuple[str, str | None, str]:
    """(decision kind, rewritten command, verdict) for one command, through `decide()`."""
    if len(command) > MAX_COMMAND_CHARS:
        return "defer", None, "too_long"
    from rtok.rewrite.decision import decide, for_hook

    first = None
    if forced is None and may_skip_rules:
        first = decide(command, "default", rtok_bin=rtok_bin, cwd=cwd, env=env)
        if first.kind == "defer":
            return "defer", None, "unread"
    if forced is not None:
        verdict = forced
    else:
        from rtok.permissions.verdict import detailed_verdict

        verdict = detailed_verdict(command, source, cwd, env)
    if verdict == "defer":
        return "defer", None, verdict
    # decide() treats "ask" like "default" (both ask the host), so the first answer stands.
    if first is None or verdict not in ("default", "ask"):
        first = decide(command, verdict, rtok_bin=rtok_bin, cwd=cwd, env=env)
    decision = for_hook(first, command)
    return decision.kind, decision.command, verdict


def rtok_path(mode: str, env: Mapping[str, str]) -> str:
    """The rtok program named in rewritten commands, quoted for the shell if needed
    (`RTOK_BIN` and `PATH` from `env`)."""
    override = env.get("RTOK_BIN", "")
    if override:
        return _shell_quote(override)
    argv0 = sys.argv[0] if sys.argv else ""
    running = ""
    if os.path.basename(argv0) in ("rtok", "rtok.exe") and os.path.isfile(argv0):
        running = os.path.abspath(argv0)
    if mode != "absolute":
        # A bare `rtok` only where the agent's shell finds this same rtok: installed into a
        # venv that is not on PATH, a bare name would make every rewritten command fail.
        # The launcher and its venv's console script are the same rtok; hosts that gate
        # paths outside the project (Copilot CLI) accept the bare name, not the launcher's.
        if not running:
            return "rtok"
        on_path = _first_on_path("rtok", env.get("PATH", ""))
        if on_path and on_path in (
            os.path.realpath(running),
            os.path.realpath(os.path.join(os.path.dirname(sys.executable), "rtok")),
        ):
            return "rtok"
        return _shell_quote(running)
    if running:
        return _shell_quote(running)
    beside = os.path.join(os.path.dirname(sys.executable), "rtok")
    if os.path.isfile(beside):
        return _shell_quote(beside)
    return "rtok"


def _first_on_path(name: str, search_path: str) -> str:
    """Real path of the first executable `name` on `search_path` ("" when there is none).

    shutil.which would do, but importing shutil costs the hook more than this loop."""
    for directory in search_path.split(os.pathsep):
        candidate = os.path.join(directory or ".", name)
        if os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return os.path.realpath(candidate)
    return ""


_SAFE = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789@%+=:,./-_"


def _shell_quote(path: str) -> str:
    if path and not path.strip(_SAFE):  # every character is safe
        return path
    return "'" + path.replace("'", "'\"'\"'") + "'"


def _payload_cwd(payload: JsonObject, cwd_from: list[list[str]]) -> str:
    """The directory the command will run in: the first absolute folder at the key paths
    of the agent's `cwd_from` (a list there gives its first item: Cursor's and Cline's
    workspace roots), else the hook's own working directory."""
    from rtok.hooks.payload import lookup

    for path in cwd_from:
        cwd = lookup(payload, path)
        if isinstance(cwd, list):
            cwd = cwd[0] if cwd else None
        if isinstance(cwd, str) and os.path.isabs(cwd) and os.path.isdir(cwd):
            return cwd
    try:
        return os.getcwd()
    except OSError:
        return os.path.expanduser("~")


def _tool_name(payload: JsonObject, tool_path: list[str]) -> str:
    from rtok.hooks.payload import lookup

    name = lookup(payload, tool_path)
    return name if isinstance(name, str) else ""


def _write(reply: str) -> None:
    if not reply:
        return
    try:
        out = sys.stdout.buffer
        out.write(reply.encode("utf-8") + b"\n")
        out.flush()
    except (OSError, ValueError, AttributeError):
        pass


def _stderr(text: str) -> None:
    try:
        sys.stderr.write(text)
    except (OSError, ValueError, AttributeError):
        return


def _log(agent: str, outcome: Outcome) -> None:
    path = os.environ.get("RTOK_HOOK_LOG", "")
    if not path:
        return
    import time

    record = {
        "time": time.strftime("%Y-%m-%dT%H:%M:%S"),
        "agent": agent,
        "tool": outcome.tool,
        "command": outcome.command,
        "decision": outcome.kind,
        "rewritten": outcome.rewritten,
    }
    try:
        with open(path, "a", encoding="utf-8") as handle:
            handle.write(json.dumps(record) + "\n")
    except OSError:
        pass
