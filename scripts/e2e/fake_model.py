"""A scripted fake model on 127.0.0.1 speaking four wire dialects, or the Augment backend.

Dialects, told apart by path: OpenAI chat completions (`…/chat/completions`), OpenAI
Responses (`…/responses`), Anthropic Messages (`…/messages`) and the Gemini API
(`…/models/<m>:generateContent|streamGenerateContent|countTokens`). A script with
`"backend": "augment"` serves Auggie's backend instead (fake_augment.py).

The script is stateless and decided per request:
* a request offering the shell tool and carrying no result for our call yet gets one call of
  that tool with the scripted command (`command`, or the first of `commands`);
* a request carrying the result of our call gets a short final text, unless the result
  suggests a different back-quoted command (deny-and-suggest) or, with `follow_expand`,
  ends in rtok's trailer (the model then runs the `rtok expand ID` it names), and the call
  budget allows one more call, or the script has `commands` left: they are sent one after
  another, one call per answer. In a command, `{last_id}` stands for the archive id of the
  latest rtok trailer (`[rtok expand ID · N lines]`) in the results so far; without one
  that command is left out (a run without rtok has nothing to expand);
* anything else (title requests, summaries, classifiers) gets a short text, or the smallest
  JSON value that fits a demanded schema.

Every request and answer is logged as one JSON line (credentials removed). The process stops
by itself after `lifetime` seconds. Standard library only: it runs as a script with any
Python 3.11+, inside the agent's network namespace.
"""

from __future__ import annotations

import argparse
import contextlib
import gzip
import json
import os
import re
import threading
import time
import zlib
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

try:
    from e2e import fake_augment
except ImportError:  # run as a script from scripts/e2e/
    import fake_augment  # type: ignore[no-redef, import-not-found]

SHELL_WORDS = ("shell", "bash", "terminal", "command", "exec")
COMMAND_KEYS = ("command", "cmd", "commands")
CALL_PREFIX = "call_rtok_"
SECRET_HEADERS = {"authorization", "x-api-key", "x-goog-api-key", "api-key"}
# Droid's `summary` pattern wants sentence case and 3–8 words; this text fits every schema seen.
FILLER_TEXT = "Run the requested shell command"
SUGGESTION = re.compile(r"`([^`\n]+)`")
# rtok's trailer, also as agents that JSON-escape a result leave it.
EXPAND_TRAILER = re.compile(r"\[rtok expand ([0-9A-Za-z_.:-]+) (?:·|\\u00b7) ")
LAST_ID = "{last_id}"
TRAILER_ID = re.compile(r"\[(?:\S*/)?rtok expand ([0-9A-Za-z_.:-]+) · \d+ lines")

Json = dict[str, Any]


class Script:
    """What the fake model asks for; shared by all handler threads."""

    def __init__(self, spec: Json, log_path: str) -> None:
        self.tool_names: list[str] = list(spec.get("tool_names") or [])
        self.commands: list[str] = [str(c) for c in spec.get("commands") or [spec["command"]]]
        self.command: str = self.commands[0]
        self.final_text: str = spec.get("final_text") or "Done."
        self.follow_suggestions: bool = bool(spec.get("follow_suggestions", True))
        # After a result ending in rtok's trailer, ask for `rtok expand ID` as it says.
        self.follow_expand: bool = bool(spec.get("follow_expand", False))
        # Calls in all: the scripted commands, plus suggestions followed while it allows.
        self.max_calls: int = int(spec.get("max_calls", 3)) + len(self.commands) - 1
        self.backend: str = str(spec.get("backend") or "")
        self.log_path = log_path
        self._lock = threading.Lock()

    def log(self, record: Json) -> None:
        line = json.dumps(record, ensure_ascii=False, default=str)
        with self._lock, open(self.log_path, "a", encoding="utf-8") as handle:
            handle.write(line + "\n")


# --- tool schemas -----------------------------------------------------------------------


def _value_for(name: str, schema: Json) -> Any:
    """A plausible value for one required property."""
    if schema.get("enum"):
        return schema["enum"][0]
    kind = schema.get("type")
    if isinstance(kind, list):
        kind = next((k for k in kind if k != "null"), "string")
    if kind in ("integer", "number"):
        return 60 if "timeout" in name.lower() else 1
    if kind == "boolean":
        return False
    if kind == "array":
        return []
    if kind == "object":
        return {}
    return FILLER_TEXT


def tool_arguments(schema: Json, command: str) -> Json:
    """Arguments for a shell tool: the command in its key, every other required key filled."""
    props: Json = schema.get("properties") or {}
    args: Json = {}
    for key in COMMAND_KEYS:
        if key in props:
            prop = props[key] or {}
            if prop.get("type") == "array":
                args[key] = [command] if key == "commands" else ["bash", "-lc", command]
            else:
                args[key] = command
            break
    else:
        args["command"] = command
    for key in schema.get("required") or []:
        if key not in args:
            args[key] = _value_for(key, props.get(key) or {})
    return args


def pick_shell_tool(tools: list[tuple[str, Json]], preferred: list[str]) -> tuple[str, Json] | None:
    by_name = dict(tools)
    for name in preferred:
        if name in by_name:
            return name, by_name[name]
    for name, schema in tools:
        props = schema.get("properties") or {}
        if any(w in name.lower() for w in SHELL_WORDS) and any(k in props for k in COMMAND_KEYS):
            return name, schema
    return None


# The smallest value of each scalar JSON Schema type.
_SMALLEST: dict[str, Any] = {"integer": 0, "number": 0, "boolean": False, "string": ""}


def minimal_json(schema: Json) -> Any:
    """The smallest value that fits a schema a side request demands."""
    if not isinstance(schema, dict):
        return {}
    if schema.get("enum"):
        return schema["enum"][0]
    kind = _schema_type(schema)
    if kind == "object" or (kind is None and "properties" in schema):
        props = schema.get("properties") or {}
        return {k: minimal_json(props.get(k) or {}) for k in schema.get("required") or []}
    if kind == "array":
        return []
    return _SMALLEST.get(kind, {}) if isinstance(kind, str) else {}


def _schema_type(schema: Json) -> Any:
    """A schema's `type`, lower-case; of a list of types, the first that is not null."""
    kind = schema.get("type")
    if isinstance(kind, list):
        kind = next((k for k in kind if k != "null"), "object")
    return kind.lower() if isinstance(kind, str) else kind


def _text_of(content: Any) -> str:
    """Tool-result content as text: a string, a list of text parts, or JSON of anything else."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = []
        for part in content:
            if isinstance(part, dict) and isinstance(part.get("text"), str):
                parts.append(part["text"])
            elif isinstance(part, str):
                parts.append(part)
        return "\n".join(parts)
    if isinstance(content, dict) and isinstance(content.get("output"), str) and len(content) == 1:
        return str(content["output"])
    return json.dumps(content, ensure_ascii=False)


# --- per-dialect readers ----------------------------------------------------------------


class Turn:
    """What one request offers and carries, whatever its dialect."""

    def __init__(self) -> None:
        self.tools: list[tuple[str, Json]] = []
        self.results: dict[str, str] = {}
        self.calls: dict[str, Json] = {}  # our earlier calls echoed in history: id -> args
        self.json_schema: Json | None = None


def read_chat(body: Json) -> Turn:
    turn = Turn()
    for tool in body.get("tools") or []:
        fn = tool.get("function") or {}
        if fn.get("name"):
            turn.tools.append((fn["name"], fn.get("parameters") or {}))
    for msg in body.get("messages") or []:
        _read_chat_message(turn, msg)
    fmt = body.get("response_format") or {}
    if fmt.get("type") == "json_schema":
        turn.json_schema = (fmt.get("json_schema") or {}).get("schema") or {}
    return turn


def _read_chat_message(turn: Turn, msg: Json) -> None:
    """A tool result, and the calls an assistant message echoes."""
    if msg.get("role") == "tool":
        turn.results[str(msg.get("tool_call_id"))] = _text_of(msg.get("content"))
    for call in msg.get("tool_calls") or []:
        fn = call.get("function") or {}
        turn.calls[str(call.get("id"))] = _loads(fn.get("arguments"))


def read_responses(body: Json) -> Turn:
    turn = Turn()
    for tool in body.get("tools") or []:
        if tool.get("type") == "function" and tool.get("name"):
            turn.tools.append((tool["name"], tool.get("parameters") or {}))
    items = body.get("input")
    for item in items if isinstance(items, list) else []:
        kind = item.get("type")
        if kind in ("function_call_output", "custom_tool_call_output"):
            turn.results[str(item.get("call_id"))] = _text_of(item.get("output"))
        elif kind == "function_call":
            turn.calls[str(item.get("call_id"))] = _loads(item.get("arguments"))
    fmt = (body.get("text") or {}).get("format") or {}
    if fmt.get("type") == "json_schema":
        turn.json_schema = fmt.get("schema") or {}
    return turn


def read_anthropic(body: Json) -> Turn:
    turn = Turn()
    for tool in body.get("tools") or []:
        if tool.get("name"):
            turn.tools.append((tool["name"], tool.get("input_schema") or {}))
    for msg in body.get("messages") or []:
        content = msg.get("content")
        for block in content if isinstance(content, list) else []:
            if block.get("type") == "tool_result":
                turn.results[str(block.get("tool_use_id"))] = _text_of(block.get("content"))
            elif block.get("type") == "tool_use":
                turn.calls[str(block.get("id"))] = block.get("input") or {}
    return turn


def read_gemini(body: Json) -> Turn:
    turn = Turn()
    for tool in body.get("tools") or []:
        for decl in tool.get("functionDeclarations") or []:
            schema = decl.get("parametersJsonSchema") or decl.get("parameters") or {}
            turn.tools.append((decl.get("name", ""), schema))
    for content in body.get("contents") or []:
        for part in content.get("parts") or []:
            _read_gemini_part(turn, part)
    turn.json_schema = _gemini_json_schema(body.get("generationConfig") or {})
    return turn


def _gemini_json_schema(config: Json) -> Json | None:
    """The schema a JSON answer must fit ({} for any JSON), None when text is asked for."""
    schema = config.get("responseJsonSchema") or config.get("responseSchema")
    if schema or config.get("responseMimeType") == "application/json":
        return schema or {}
    return None


def _read_gemini_part(turn: Turn, part: Json) -> None:
    """A function's response, and a call of ours the history echoes (by id, else name)."""
    if "functionResponse" in part:
        resp = part["functionResponse"]
        key = str(resp.get("id") or resp.get("name"))
        turn.results[key] = _text_of(resp.get("response"))
    if "functionCall" in part:
        call = part["functionCall"]
        turn.calls[str(call.get("id") or call.get("name"))] = call.get("args") or {}


def _loads(text: Any) -> Json:
    if isinstance(text, dict):
        return text
    try:
        value = json.loads(text or "{}")
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


# --- the decision -----------------------------------------------------------------------


class Answer:
    """Either one tool call or a text (which may be JSON for schema-demanding requests)."""

    def __init__(
        self, *, text: str = "", tool: str = "", call_id: str = "", args: Json | None = None
    ) -> None:
        self.text = text
        self.tool = tool
        self.call_id = call_id
        self.args = args or {}

    @property
    def is_call(self) -> bool:
        return bool(self.tool)


def _command_of(args: Json) -> str:
    for key in COMMAND_KEYS:
        value = args.get(key)
        if isinstance(value, str):
            return value
        if isinstance(value, list) and value:
            return str(value[-1])
    return ""


def _latest_id(results: list[tuple[str, str]]) -> str:
    for _call_id, text in reversed(results):
        found = TRAILER_ID.findall(text.replace("\\u00b7", "·"))
        if found:
            return str(found[-1])
    return ""


# A call as an agent whose plugin rewrites the call in place records it (`rtok run CMD`).
RTOK_RUN_PREFIX = re.compile(r"""^(?:'[^']*rtok'|"[^"]*rtok"|(?:\S*/)?rtok) run """)


def _fits(scripted: str, command: str) -> bool:
    command = RTOK_RUN_PREFIX.sub("", command, count=1)
    if LAST_ID not in scripted:
        return scripted.strip() == command
    head, tail = scripted.strip().split(LAST_ID, 1)
    return command.startswith(head) and command.endswith(tail) and len(command) > len(head)


def next_scripted(script: Script, turn: Turn, results: list[tuple[str, str]]) -> str:
    """The next of the script's commands to send ("" when all were sent): the calls in the
    history are matched in order against the script; calls that fit none (suggestions
    followed) are passed over. An agent that echoes no calls counts one result per command."""
    sent = [_command_of(args).strip() for args in turn.calls.values()]
    done = 0 if sent else len(results)
    if len(script.commands) == 1 and results:
        done = 1  # one command, and a result for it: never sent again
    latest = _latest_id(results)
    for command in sent:
        while done < len(script.commands) and LAST_ID in script.commands[done] and not latest:
            done += 1  # nothing to expand: this command is left out
        if done < len(script.commands) and _fits(script.commands[done], command):
            done += 1
    while done < len(script.commands):
        command = script.commands[done].strip()
        if LAST_ID not in command:
            return command
        if latest:
            return command.replace(LAST_ID, latest)
        done += 1
    return ""


def decide(script: Script, turn: Turn, call_prefix: str) -> tuple[Answer, list[tuple[str, str]]]:
    """The answer to one request and the results of our calls it carries (id, text)."""
    # Every call in the history was made by this fake model, so every result is ours, in
    # history order (some agents keep our call ids, none is relied upon to).
    results = list(turn.results.items())
    shell = pick_shell_tool(turn.tools, script.tool_names)
    if turn.json_schema is not None and shell is None:
        return Answer(text=json.dumps(minimal_json(turn.json_schema))), results
    if shell is None:
        return Answer(text=script.final_text), results
    if not results:
        return _first_answer(script, turn, shell, call_prefix), results
    name, schema = shell
    command = _expand_to_follow(script, turn, results) or _suggestion_to_follow(
        script, turn, results
    )
    following = command or next_scripted(script, turn, results)
    if following:
        call_id = f"{call_prefix}{len(results) + 1}"
        return Answer(tool=name, call_id=call_id, args=tool_arguments(schema, following)), results
    return Answer(text=script.final_text), results


def _first_answer(script: Script, turn: Turn, shell: tuple[str, Json], call_prefix: str) -> Answer:
    """The answer to a request that carries no result of ours yet."""
    if turn.calls:
        # Our call is in the history but its result is not: stop rather than loop.
        return Answer(text=script.final_text)
    first = next_scripted(script, turn, [])
    if not first:
        return Answer(text=script.final_text)
    name, schema = shell
    return Answer(tool=name, call_id=f"{call_prefix}1", args=tool_arguments(schema, first))


def _expand_to_follow(script: Script, turn: Turn, results: list[tuple[str, str]]) -> str:
    """`rtok expand ID` for the trailer of the last result, when the script follows those
    and it was not sent yet ("" otherwise)."""
    if not script.follow_expand or len(results) >= script.max_calls:
        return ""
    trailer = EXPAND_TRAILER.search(results[-1][1])
    sent = {_command_of(args).strip() for args in turn.calls.values()}
    expand = f"rtok expand {trailer.group(1)}" if trailer else ""
    return expand if expand and expand not in sent else ""


def _suggestion_to_follow(script: Script, turn: Turn, results: list[tuple[str, str]]) -> str:
    """The first command the last result suggests that was never sent ("" when none, or
    when the script does not follow suggestions): suggesting back a command already sent
    is how a loop would start."""
    if not script.follow_suggestions or len(results) >= script.max_calls:
        return ""
    sent = {_command_of(args).strip() for args in turn.calls.values()}
    sent.update(command.strip() for command in script.commands)
    for suggestion in SUGGESTION.findall(results[-1][1]):
        if suggestion.strip() and suggestion.strip() not in sent:
            return str(suggestion.strip())
    return ""


# --- per-dialect writers ----------------------------------------------------------------

USAGE_CHAT = {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}


def _sse(events: list[tuple[str | None, Any]]) -> bytes:
    out = []
    for event, data in events:
        if event:
            out.append(f"event: {event}\n")
        payload = data if isinstance(data, str) else json.dumps(data, ensure_ascii=False)
        out.append(f"data: {payload}\n\n")
    return "".join(out).encode()


def write_chat(answer: Answer, body: Json) -> tuple[str, bytes]:
    model = body.get("model") or "fake-model"
    base = {"id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 0, "model": model}
    args_text = json.dumps(answer.args)
    if not body.get("stream"):
        if answer.is_call:
            message: Json = {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {
                        "id": answer.call_id,
                        "type": "function",
                        "function": {"name": answer.tool, "arguments": args_text},
                    }
                ],
            }
            finish = "tool_calls"
        else:
            message = {"role": "assistant", "content": answer.text}
            finish = "stop"
        full = {
            "id": "chatcmpl-1",
            "object": "chat.completion",
            "created": 0,
            "model": model,
            "choices": [{"index": 0, "message": message, "finish_reason": finish}],
            "usage": USAGE_CHAT,
        }
        return "application/json", json.dumps(full).encode()

    def chunk(delta: Json, finish: str | None) -> Json:
        return {**base, "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}

    events: list[tuple[str | None, Any]] = [
        (None, chunk({"role": "assistant", "content": None}, None))
    ]
    if answer.is_call:
        events.append(
            (
                None,
                chunk(
                    {
                        "tool_calls": [
                            {
                                "index": 0,
                                "id": answer.call_id,
                                "type": "function",
                                "function": {"name": answer.tool, "arguments": ""},
                            }
                        ]
                    },
                    None,
                ),
            )
        )
        events.append(
            (
                None,
                chunk({"tool_calls": [{"index": 0, "function": {"arguments": args_text}}]}, None),
            )
        )
        events.append((None, chunk({}, "tool_calls")))
    else:
        events.append((None, chunk({"content": answer.text}, None)))
        events.append((None, chunk({}, "stop")))
    events.append((None, {**base, "choices": [], "usage": USAGE_CHAT}))
    events.append((None, "[DONE]"))
    return "text/event-stream", _sse(events)


def write_responses(answer: Answer, body: Json) -> tuple[str, bytes]:
    model = body.get("model") or "gpt-5.5"
    if answer.is_call:
        item: Json = {
            "type": "function_call",
            "id": "fc_1",
            "status": "completed",
            "call_id": answer.call_id,
            "name": answer.tool,
            "arguments": json.dumps(answer.args),
        }
    else:
        item = {
            "type": "message",
            "role": "assistant",
            "id": "msg_1",
            "status": "completed",
            "content": [{"type": "output_text", "text": answer.text, "annotations": []}],
        }
    usage = {
        "input_tokens": 10,
        "input_tokens_details": {"cached_tokens": 0},
        "output_tokens": 5,
        "output_tokens_details": {"reasoning_tokens": 0},
        "total_tokens": 15,
    }
    done = {
        "id": "resp_1",
        "object": "response",
        "status": "completed",
        "model": model,
        "output": [item],
        "usage": usage,
    }
    if not body.get("stream"):
        return "application/json", json.dumps(done).encode()
    seq = iter(range(1000))
    started: Json = {
        "id": "resp_1",
        "object": "response",
        "status": "in_progress",
        "model": model,
        "output": [],
    }
    events: list[tuple[str | None, Any]] = [
        (
            "response.created",
            {"type": "response.created", "sequence_number": next(seq), "response": started},
        ),
        (
            "response.in_progress",
            {"type": "response.in_progress", "sequence_number": next(seq), "response": started},
        ),
    ]
    if answer.is_call:
        events.append(
            (
                "response.output_item.added",
                {
                    "type": "response.output_item.added",
                    "sequence_number": next(seq),
                    "output_index": 0,
                    "item": item,
                },
            )
        )
    else:
        empty = {**item, "status": "in_progress", "content": []}
        part = {"type": "output_text", "text": "", "annotations": []}
        events += [
            (
                "response.output_item.added",
                {
                    "type": "response.output_item.added",
                    "sequence_number": next(seq),
                    "output_index": 0,
                    "item": empty,
                },
            ),
            (
                "response.content_part.added",
                {
                    "type": "response.content_part.added",
                    "sequence_number": next(seq),
                    "item_id": "msg_1",
                    "output_index": 0,
                    "content_index": 0,
                    "part": part,
                },
            ),
            (
                "response.output_text.delta",
                {
                    "type": "response.output_text.delta",
                    "sequence_number": next(seq),
                    "item_id": "msg_1",
                    "output_index": 0,
                    "content_index": 0,
                    "delta": answer.text,
                },
            ),
            (
                "response.output_text.done",
                {
                    "type": "response.output_text.done",
                    "sequence_number": next(seq),
                    "item_id": "msg_1",
                    "output_index": 0,
                    "content_index": 0,
                    "text": answer.text,
                },
            ),
            (
                "response.content_part.done",
                {
                    "type": "response.content_part.done",
                    "sequence_number": next(seq),
                    "item_id": "msg_1",
                    "output_index": 0,
                    "content_index": 0,
                    "part": {**part, "text": answer.text},
                },
            ),
        ]
    events.append(
        (
            "response.output_item.done",
            {
                "type": "response.output_item.done",
                "sequence_number": next(seq),
                "output_index": 0,
                "item": item,
            },
        )
    )
    events.append(
        (
            "response.completed",
            {"type": "response.completed", "sequence_number": next(seq), "response": done},
        )
    )
    return "text/event-stream", _sse(events)


def write_anthropic(answer: Answer, body: Json) -> tuple[str, bytes]:
    model = body.get("model") or "claude-sonnet-4-5"
    if answer.is_call:
        block: Json = {
            "type": "tool_use",
            "id": answer.call_id,
            "name": answer.tool,
            "input": answer.args,
        }
        stop = "tool_use"
    else:
        block = {"type": "text", "text": answer.text}
        stop = "end_turn"
    if not body.get("stream"):
        full = {
            "id": "msg_1",
            "type": "message",
            "role": "assistant",
            "model": model,
            "content": [block],
            "stop_reason": stop,
            "stop_sequence": None,
            "usage": {"input_tokens": 10, "output_tokens": 5},
        }
        return "application/json", json.dumps(full).encode()
    start_block = {**block, "input": {}} if answer.is_call else {"type": "text", "text": ""}
    delta = (
        {"type": "input_json_delta", "partial_json": json.dumps(answer.args)}
        if answer.is_call
        else {"type": "text_delta", "text": answer.text}
    )
    events: list[tuple[str | None, Any]] = [
        (
            "message_start",
            {
                "type": "message_start",
                "message": {
                    "id": "msg_1",
                    "type": "message",
                    "role": "assistant",
                    "model": model,
                    "content": [],
                    "stop_reason": None,
                    "stop_sequence": None,
                    "usage": {"input_tokens": 10, "output_tokens": 1},
                },
            },
        ),
        (
            "content_block_start",
            {"type": "content_block_start", "index": 0, "content_block": start_block},
        ),
        ("content_block_delta", {"type": "content_block_delta", "index": 0, "delta": delta}),
        ("content_block_stop", {"type": "content_block_stop", "index": 0}),
        (
            "message_delta",
            {
                "type": "message_delta",
                "delta": {"stop_reason": stop, "stop_sequence": None},
                "usage": {"output_tokens": 5},
            },
        ),
        ("message_stop", {"type": "message_stop"}),
    ]
    return "text/event-stream", _sse(events)


def write_gemini(answer: Answer, body: Json, stream: bool) -> tuple[str, bytes]:
    if answer.is_call:
        part: Json = {
            "functionCall": {"name": answer.tool, "args": answer.args, "id": answer.call_id}
        }
    else:
        part = {"text": answer.text}
    response = {
        "candidates": [
            {"content": {"role": "model", "parts": [part]}, "finishReason": "STOP", "index": 0}
        ],
        "usageMetadata": {"promptTokenCount": 10, "candidatesTokenCount": 5, "totalTokenCount": 15},
        "modelVersion": "gemini-2.5-pro",
    }
    if stream:
        return "text/event-stream", _sse([(None, response)])
    return "application/json", json.dumps(response).encode()


# --- HTTP -------------------------------------------------------------------------------

MODEL_ENTRY = {
    "id": "fake-model",
    "object": "model",
    "created": 0,
    "owned_by": "fake",
    "context_length": 128000,
}


class Handler(BaseHTTPRequestHandler):
    """Answers one connection's requests from `script` (set by make_handler)."""

    script: Script
    protocol_version = "HTTP/1.1"
    server_version = "rtok-fake-model/1"

    def log_message(self, format: str, *args: Any) -> None:
        return  # the JSON-lines log is the record

    def _body(self) -> bytes:
        if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
            raw = self._chunked_body()
        else:
            raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        encoding = self.headers.get("Content-Encoding", "").lower()
        if encoding == "gzip":
            raw = gzip.decompress(raw)
        elif encoding == "deflate":
            raw = zlib.decompress(raw)
        return raw

    def _chunked_body(self) -> bytes:
        data = bytearray()
        for _ in range(100000):
            size = int(self.rfile.readline().split(b";")[0].strip() or b"0", 16)
            if size == 0:
                self.rfile.readline()
                break
            data += self.rfile.read(size)
            self.rfile.readline()
        return bytes(data)

    def _send(self, status: int, ctype: str, payload: bytes) -> None:
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(payload)))
        if ctype == "text/event-stream":
            self.send_header("Cache-Control", "no-cache")
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(payload)
        self.wfile.flush()

    def _json(self, status: int, value: Any) -> None:
        self._send(status, "application/json", json.dumps(value).encode())

    def _guarded(self, work: Callable[[], None]) -> None:
        try:
            work()
        except Exception as exc:  # never hang the agent: turn any bug into a 500
            self.script.log({"t": time.time(), "path": self.path, "error": repr(exc)})
            with contextlib.suppress(OSError):
                self._json(
                    500,
                    {"error": {"message": f"fake model error: {exc!r}", "type": "server_error"}},
                )

    def do_HEAD(self) -> None:
        self._guarded(lambda: self._send(200, "application/json", b"{}"))

    def do_GET(self) -> None:
        self._guarded(self._get)

    def do_POST(self) -> None:
        self._guarded(self._post)

    def _get(self) -> None:
        path = self.path.split("?")[0].rstrip("/")
        self.script.log({"t": time.time(), "method": "GET", "path": self.path})
        if self.script.backend == "augment":
            self._json(200, {})
        elif path.endswith("/models"):
            self._json(200, {"object": "list", "data": [MODEL_ENTRY]})
        elif "/models/" in path:
            self._json(200, {**MODEL_ENTRY, "id": path.rsplit("/", 1)[-1]})
        else:
            self._json(404, {"error": {"message": "not found", "type": "not_found"}})

    def _post(self) -> None:
        raw = self._body()
        try:
            body = json.loads(raw or b"{}")
        except ValueError:
            body = {}
        path = self.path.split("?")[0]
        headers = {k.lower(): v for k, v in self.headers.items() if k.lower() not in SECRET_HEADERS}
        record: Json = {
            "t": time.time(),
            "method": "POST",
            "path": self.path,
            "headers": headers,
            "request": body,
        }
        status, ctype, payload = 200, "application/json", b""
        if self.script.backend == "augment":
            record["dialect"] = "augment"
            ctype, payload = self._augment(record, body)
        elif path.endswith("/count_tokens"):
            record["dialect"] = "anthropic"
            payload = json.dumps({"input_tokens": 10}).encode()
        elif path.endswith(":countTokens"):
            record["dialect"] = "gemini"
            payload = json.dumps({"totalTokens": 10}).encode()
        elif path.endswith("/chat/completions"):
            record["dialect"] = "chat"
            ctype, payload = self._answer(
                record, read_chat(body), "call_rtok_", lambda a: write_chat(a, body)
            )
        elif path.endswith("/responses"):
            record["dialect"] = "responses"
            ctype, payload = self._answer(
                record, read_responses(body), "call_rtok_", lambda a: write_responses(a, body)
            )
        elif path.endswith("/messages"):
            record["dialect"] = "anthropic"
            ctype, payload = self._answer(
                record, read_anthropic(body), "toolu_rtok_", lambda a: write_anthropic(a, body)
            )
        elif ":generateContent" in path or ":streamGenerateContent" in path:
            record["dialect"] = "gemini"
            stream = ":streamGenerateContent" in path
            ctype, payload = self._answer(
                record, read_gemini(body), "call_rtok_", lambda a: write_gemini(a, body, stream)
            )
        else:
            record["dialect"] = "unknown"
            status = 404
            payload = json.dumps({"error": {"message": "not found", "type": "not_found"}}).encode()
        # Logged before answering: once the agent has the answer, the record exists.
        self.script.log(record)
        self._send(status, ctype, payload)

    def _augment(self, record: Json, body: Json) -> tuple[str, bytes]:
        name = fake_augment.endpoint(self.path)
        if name == "get-models":
            return "application/json", json.dumps(fake_augment.get_models()).encode()
        if name != "chat-stream":
            return "application/json", b"{}"
        turn = Turn()
        turn.tools, results, turn.calls = fake_augment.read_chat_stream(body)
        turn.results = dict(results)
        schemas = dict(turn.tools)

        def write(answer: Answer) -> tuple[str, bytes]:
            if not answer.is_call:
                return "application/json", fake_augment.write_chat_stream(text=answer.text)
            args = fake_augment.shell_arguments(answer.args, schemas.get(answer.tool, {}))
            record["answer"]["args"] = args
            return "application/json", fake_augment.write_chat_stream(
                tool=answer.tool, call_id=answer.call_id, args=args
            )

        return self._answer(record, turn, "toolu_rtok_", write)

    def _answer(
        self, record: Json, turn: Turn, prefix: str, write: Callable[[Answer], tuple[str, bytes]]
    ) -> tuple[str, bytes]:
        answer, results = decide(self.script, turn, prefix)
        record["offered_tools"] = [name for name, _ in turn.tools]
        record["tool_results"] = [{"call_id": cid, "text": text} for cid, text in results]
        record["answer"] = (
            {"tool": answer.tool, "call_id": answer.call_id, "args": answer.args}
            if answer.is_call
            else {"text": answer.text}
        )
        return write(answer)


def make_handler(script: Script) -> type[BaseHTTPRequestHandler]:
    """A handler class bound to `script` (the server makes one handler per request)."""
    return type("ScriptedHandler", (Handler,), {"script": script})


def make_server(spec: Json, *, port: int, log_path: str) -> ThreadingHTTPServer:
    """A server bound to 127.0.0.1:port (0 = any free port); the caller runs and stops it."""
    server = ThreadingHTTPServer(("127.0.0.1", port), make_handler(Script(spec, log_path)))
    server.daemon_threads = True
    return server


def serve(
    spec: Json, *, port: int, log_path: str, lifetime: float, ready_path: str | None = None
) -> None:
    """Serve until the lifetime ends, then end the whole process (it self-destructs)."""
    server = make_server(spec, port=port, log_path=log_path)
    timer = threading.Timer(lifetime, lambda: os._exit(0))
    timer.daemon = True
    timer.start()
    if ready_path:
        tmp = ready_path + ".tmp"
        with open(tmp, "w", encoding="utf-8") as handle:
            handle.write(str(server.server_address[1]))
        os.replace(tmp, ready_path)
    server.serve_forever(poll_interval=0.2)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--spec", required=True, help="JSON file with the script")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--log", required=True, help="JSON-lines request log")
    parser.add_argument("--lifetime", type=float, default=300.0, help="seconds until exit")
    parser.add_argument("--ready", help="file that receives the port once listening")
    ns = parser.parse_args()
    with open(ns.spec, encoding="utf-8") as handle:
        spec = json.load(handle)
    serve(spec, port=ns.port, log_path=ns.log, lifetime=ns.lifetime, ready_path=ns.ready)


if __name__ == "__main__":
    main()
