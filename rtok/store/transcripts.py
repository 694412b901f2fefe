"""Reading the agents' own session transcripts: every shell call, with its output size.

Not on the hot path. Where an agent keeps its transcripts and in which format is its
descriptor's `[transcripts]` table (`glob`, `format`); one reader per format:

- `claude-jsonl` (Claude Code, `~/.claude/projects/<mangled cwd>/<session>.jsonl`): one
  JSON object per line. An `assistant` line's `message.content` holds `tool_use` blocks
  (`id`, `name`, `input.command` for `Bash`); a later `user` line's `message.content`
  holds the `tool_result` block with the same `tool_use_id` (`content`: a string or a list
  of `{"type": "text", "text": ...}` blocks, `is_error`), and the line's `toolUseResult`
  may carry `stdout` / `stderr`. Every line has `sessionId`, `timestamp` (ISO 8601, UTC)
  and `cwd`; only `assistant` and `user` lines are read (Claude Code 2.1 also logs each
  API request as `api-request-blob` lines repeating the history). The command recorded is
  the one the model asked for: a hook's rewrite does not change it, which is why the
  decision log is needed to tell a rewritten call apart.

- `gemini-jsonl` (Gemini CLI 0.61, `~/.gemini/tmp/<project>/chats/session-*.jsonl`): a
  first line with `sessionId` and `projectHash`, then one message per line (`$set` lines
  update the header and are skipped). A `gemini` message's `toolCalls` hold each call's
  `id`, `name` (`run_shell_command`), `args.command` and `result` (`functionResponse`
  parts whose `response` has `output` or `error`); a message is written again as its calls
  get their results, and the last copy holds. The command recorded is the one that ran: a
  hook's rewrite shows (`rtok run ...`). The project's root is in `../.project_root`.

- `codex-jsonl` (Codex, `~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl`): one
  `{"timestamp", "type", "payload"}` object per line. `session_meta` gives the session
  `id` and `cwd`; a `response_item` whose payload is a `function_call` of a shell tool
  (`exec_command` with `arguments` `{"cmd": ...}`, or `shell`/`shell_command` with
  `{"command": [..., "-lc", script]}` or a string) is a call, its `call_id` tying it to the
  `function_call_output` whose `output` is the result (a string, or older: JSON text with
  an `output` key).

A line that is not JSON, or a block of another shape, is skipped: transcripts are the
agent's files, in formats that change.
"""

from __future__ import annotations

import datetime as dt
import glob
import json
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

TRAILER = "[rtok expand "
MAX_FILE_BYTES = 256 * 1024 * 1024


@dataclass
class ShellCall:
    agent: str
    session: str
    call_id: str
    time: float  # epoch seconds of the call
    cwd: str
    command: str
    output_bytes: int = 0
    shortened: bool = False  # the result carries rtok's trailer: it went through rtok
    answered: bool = False  # a result was found
    is_error: bool = False


def _epoch(stamp: object) -> float:
    if not isinstance(stamp, str) or not stamp:
        return 0.0
    try:
        return dt.datetime.fromisoformat(stamp.replace("Z", "+00:00")).timestamp()
    except ValueError:
        return 0.0


def _result_text(block: dict[str, Any]) -> str:
    content = block.get("content")
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(
            str(part.get("text", ""))
            for part in content
            if isinstance(part, dict) and part.get("type") == "text"
        )
    return ""


def json_lines(path: str) -> list[dict[str, Any]]:
    """The JSON objects of a JSON-lines file, one a line; a line that is not one is passed
    over, and a file that cannot be read or is over MAX_FILE_BYTES gives none."""
    try:
        if os.path.getsize(path) > MAX_FILE_BYTES:
            return []
        with open(path, encoding="utf-8", errors="replace") as handle:
            lines = handle.readlines()
    except OSError:
        return []
    entries = []
    for raw in lines:
        try:
            entry = json.loads(raw)
        except ValueError:
            continue
        if isinstance(entry, dict):
            entries.append(entry)
    return entries


def read_claude_jsonl(path: str) -> list[ShellCall]:
    """The Bash calls of one Claude Code transcript, in the order they were made."""
    calls: dict[str, ShellCall] = {}
    entries = json_lines(path)
    for entry in entries:
        _claude_entry(entry, calls)
    return list(calls.values())


def _claude_entry(entry: dict[str, Any], calls: dict[str, ShellCall]) -> None:
    # Only the conversation's own turns: newer releases also log each API request
    # (`api-request-blob`: the history again, without time or cwd).
    if entry.get("type") not in ("assistant", "user"):
        return
    message = entry.get("message")
    content = message.get("content") if isinstance(message, dict) else None
    if not isinstance(content, list):
        return
    for block in content:
        if not isinstance(block, dict):
            continue
        if block.get("type") == "tool_use" and block.get("name") == "Bash":
            _claude_call(entry, block, calls)
        elif block.get("type") == "tool_result" and block.get("tool_use_id") in calls:
            _claude_result(entry, block, calls[str(block["tool_use_id"])])


def _claude_call(entry: dict[str, Any], block: dict[str, Any], calls: dict[str, ShellCall]) -> None:
    """Record a Bash `tool_use` block (the first one with its id)."""
    command = (block.get("input") or {}).get("command")
    call_id = block.get("id")
    if isinstance(command, str) and isinstance(call_id, str) and call_id not in calls:
        calls[call_id] = ShellCall(
            "claude",
            str(entry.get("sessionId", "")),
            call_id,
            _epoch(entry.get("timestamp")),
            str(entry.get("cwd", "")),
            command,
        )


def _claude_result(entry: dict[str, Any], block: dict[str, Any], call: ShellCall) -> None:
    """Fill in `call` from its `tool_result` block (the entry's `toolUseResult` stdout and
    stderr, when it has them, are the output as the command wrote it)."""
    text = _result_text(block)
    extra = entry.get("toolUseResult")
    if isinstance(extra, dict) and isinstance(extra.get("stdout"), str):
        text = str(extra.get("stdout", "")) + str(extra.get("stderr", "") or "")
    call.output_bytes = len(text.encode("utf-8", "replace"))
    call.shortened = TRAILER in text
    call.answered = True
    call.is_error = bool(block.get("is_error"))


CODEX_SHELL_TOOLS = ("exec_command", "shell", "shell_command", "local_shell")


def _codex_command(arguments: object) -> str | None:
    if isinstance(arguments, str):
        try:
            arguments = json.loads(arguments)
        except ValueError:
            return None
    if not isinstance(arguments, dict):
        return None
    command = arguments.get("cmd", arguments.get("command"))
    if isinstance(command, list) and command and all(isinstance(w, str) for w in command):
        if len(command) >= 3 and command[-2] in ("-lc", "-c"):
            return str(command[-1])
        return " ".join(command)
    return command if isinstance(command, str) else None


def _codex_output(output: object) -> str:
    if isinstance(output, str):
        if output.startswith("{"):
            try:
                inner = json.loads(output)
            except ValueError:
                return output
            if isinstance(inner, dict) and isinstance(inner.get("output"), str):
                return str(inner["output"])
        return output
    if isinstance(output, dict) and isinstance(output.get("output"), str):
        return str(output["output"])
    return ""


def read_codex_jsonl(path: str) -> list[ShellCall]:
    """The shell calls of one Codex rollout file, in the order they were made."""
    calls: dict[str, ShellCall] = {}
    session = cwd = ""
    entries = json_lines(path)
    for entry in entries:
        payload = entry.get("payload")
        if not isinstance(payload, dict):
            continue
        if entry.get("type") == "session_meta":
            session, cwd = str(payload.get("id", "")), str(payload.get("cwd", ""))
            continue
        if entry.get("type") != "response_item":
            continue
        call_id = payload.get("call_id")
        if not isinstance(call_id, str):
            continue
        if payload.get("type") == "function_call" and payload.get("name") in CODEX_SHELL_TOOLS:
            command = _codex_command(payload.get("arguments"))
            if command is not None:
                calls[call_id] = ShellCall(
                    "codex", session, call_id, _epoch(entry.get("timestamp")), cwd, command
                )
        elif payload.get("type") == "function_call_output" and call_id in calls:
            text = _codex_output(payload.get("output"))
            call = calls[call_id]
            call.output_bytes = len(text.encode("utf-8", "replace"))
            call.shortened = TRAILER in text
            call.answered = True
    return list(calls.values())


GEMINI_SHELL_TOOLS = ("run_shell_command",)


def _gemini_output(call: dict[str, Any]) -> tuple[str, bool]:
    """The text of a Gemini tool call's result, and whether it is an error."""
    texts, error = [], call.get("status") == "error"
    results = call.get("result")
    for part in results if isinstance(results, list) else []:
        response = (
            (part.get("functionResponse") or {}).get("response") if isinstance(part, dict) else None
        )
        if isinstance(response, dict):
            for key in ("output", "error"):
                if isinstance(response.get(key), str):
                    texts.append(str(response[key]))
                    error = error or key == "error"
    return "".join(texts), error


def read_gemini_jsonl(path: str) -> list[ShellCall]:
    """The shell calls of one Gemini CLI chat file, in the order they were made."""
    calls: dict[str, ShellCall] = {}
    entries = json_lines(path)
    try:  # the project's folder names its root in `.project_root`
        with open(
            os.path.join(os.path.dirname(os.path.dirname(path)), ".project_root"),
            encoding="utf-8",
            errors="replace",
        ) as handle:
            cwd = handle.read().strip()
    except OSError:
        cwd = ""
    session = ""
    for entry in entries:
        if "sessionId" in entry and "projectHash" in entry:
            session = str(entry["sessionId"])
        tool_calls = entry.get("toolCalls") if entry.get("type") == "gemini" else None
        for item in tool_calls if isinstance(tool_calls, list) else []:
            if not isinstance(item, dict) or item.get("name") not in GEMINI_SHELL_TOOLS:
                continue
            command = (item.get("args") or {}).get("command")
            call_id = item.get("id")
            if not isinstance(command, str) or not isinstance(call_id, str):
                continue
            # A message is written again as it gains its calls' results: the last one holds.
            call = ShellCall(
                "gemini", session, call_id, _epoch(entry.get("timestamp")), cwd, command
            )
            text, call.is_error = _gemini_output(item)
            call.output_bytes = len(text.encode("utf-8", "replace"))
            call.shortened = TRAILER in text
            call.answered = bool(item.get("result"))
            calls[call_id] = call
    return list(calls.values())


READERS = {
    "claude-jsonl": read_claude_jsonl,
    "codex-jsonl": read_codex_jsonl,
    "gemini-jsonl": read_gemini_jsonl,
}


def transcript_sources() -> dict[str, tuple[str, str]]:
    """agent -> (glob with ~ and ${VAR:-default} expanded, format), from the descriptors."""
    from rtok import paths
    from rtok.install.descriptor import load_all

    found = {}
    for name, item in load_all().items():
        if item.transcripts is not None:
            pattern, fmt = item.transcripts
            found[name] = (paths.expand_user_path(pattern), fmt)
    return found


def shell_calls(
    since: float | None = None,
    sources: dict[str, tuple[str, str]] | None = None,
    wanted: Callable[[str, os.stat_result], bool] | None = None,
) -> Iterator[ShellCall]:
    """Every shell call of every transcript found (files not modified since `since`, or
    that `wanted(path, stat)` turns down, are not read)."""
    for _agent, (pattern, fmt) in sorted((sources or transcript_sources()).items()):
        reader = READERS.get(fmt)
        if reader is None:
            continue
        for path in sorted(glob.glob(pattern)):
            try:
                info = os.stat(path)
            except OSError:
                continue
            if since is not None and info.st_mtime < since:
                continue
            if wanted is not None and not wanted(path, info):
                continue
            for call in reader(path):
                if since is None or call.time >= since:
                    yield call
