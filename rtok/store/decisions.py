"""The hook decision log: one JSON line per `rtok hook` call, in `hook-decisions.jsonl`.

Stdlib only (hot path: the hook writes it). A line is appended with one `os.write` on an
O_APPEND descriptor (no SQLite, no lock: concurrent hooks never wait for each other, and a
line is never torn by another writer's). Fields:

    {"t": epoch seconds, "agent": "claude", "session": "...", "call": "toolu_...",
     "cwd": "/project", "tool": "Bash", "command": "git status",
     "verdict": "rewritten" | "asked" | "denied" | "no_opinion",
     "why": "allow" | "default" | "ask" | "deny" | "unknown_shape" | ..., "rewritten": "..."}

`session` and `call` are the payload's session and tool-call ids when it has them ("" when
not); `command` and `rewritten` keep their first `COMMAND_CHARS` characters.

Bounded: past `MAX_BYTES` the file is renamed to `hook-decisions.jsonl.1` (replacing the
previous one), so the log never holds more than twice that; lines older than `MAX_AGE_DAYS`
are skipped by readers, and `prune` drops them from the files (both in
rtok/store/decision_history.py, which the hook never loads). Private: the
file is created 0600 in rtok's 0700 data dir. Never blocking: the file is opened with
O_NONBLOCK (a FIFO put in its place cannot stall the hook), and any error is swallowed.
`RTOK_DECISION_LOG=0` turns the log off (diagnostics that run the hook with made-up calls).
"""

from __future__ import annotations

import time

from rtok._fast import oslite as os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from rtok.hooks.types import JsonObject

NAME = "hook-decisions.jsonl"
MAX_BYTES = 1024 * 1024
MAX_AGE_DAYS = 30
COMMAND_CHARS = 2000
FILE_MODE = 0o600
SESSION_KEYS = ("session_id", "sessionId", "conversation_id", "conversationId", "thread_id")
CALL_KEYS = ("tool_use_id", "tool_call_id", "toolCallId", "toolUseId", "call_id", "callId")


def log_path() -> str:
    from rtok import paths

    return os.path.join(paths.data_dir(), NAME)


def verdict_of(kind: str, rewritten: str, why: str) -> str:
    """The decision as the log names it, from the hook's outcome."""
    if kind == "deny":
        return "denied"
    if rewritten and kind == "ask_rewrite":
        return "asked" if "ask" in why.split(",") else "rewritten"
    if rewritten and kind == "allow_rewrite":
        return "rewritten"
    return "no_opinion"


def _first_string(payload: JsonObject | None, keys: tuple[str, ...]) -> str:
    if not isinstance(payload, dict):
        return ""
    for key in keys:
        value = payload.get(key)
        if isinstance(value, str) and value:
            return value[:200]
    return ""


def line_for(
    agent: str,
    payload: JsonObject | None,
    cwd: str,
    tool: str,
    command: str,
    kind: str,
    why: str,
    rewritten: str,
    now: float | None = None,
) -> bytes:
    from rtok._fast import fastjson

    record = {
        "t": round(time.time() if now is None else now, 3),
        "agent": agent,
        "session": _first_string(payload, SESSION_KEYS),
        "call": _first_string(payload, CALL_KEYS),
        "cwd": cwd,
        "tool": tool,
        "command": command[:COMMAND_CHARS],
        "verdict": verdict_of(kind, rewritten, why),
        "why": why or kind,
        "rewritten": rewritten[:COMMAND_CHARS],
    }
    text = fastjson.dumps(record, separators=(",", ":")) + "\n"
    return text.encode("utf-8", "surrogateescape")


def append(line: bytes, path: str | None = None) -> None:
    """Append one line (one write), rotating the file past `MAX_BYTES`. Never raises."""
    try:
        if os.environ.get("RTOK_DECISION_LOG", "") in ("0", "off"):
            return
        target = path or log_path()
        flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_CLOEXEC | os.O_NONBLOCK
        try:
            fd = os.open(target, flags, FILE_MODE)
        except FileNotFoundError:
            from rtok import paths

            paths.private_dir(os.path.dirname(target))
            fd = os.open(target, flags, FILE_MODE)
        try:
            os.write(fd, line)
            size = os.fstat(fd).st_size
        finally:
            os.close(fd)
        if size > MAX_BYTES:
            os.rename(target, target + ".1")
    except Exception:
        pass  # the log is bookkeeping: the hook's answer matters, not this line
