"""The Augment backend dialect of the fake model (Auggie has no OpenAI or Anthropic mode).

Auggie talks only to its tenant URL (`AUGMENT_SESSION_AUTH` `tenantURL`), every request a
POST of JSON:
* `get-models` is answered with one model and the feature flag `enable_hooks` (Auggie runs
  no hook without it);
* `chat-stream` carries `tool_definitions` (`{name, input_schema_json}`), the current
  `nodes` (a tool result is `{type: 1, tool_result_node: {tool_use_id, content, is_error}}`)
  and `chat_history` (earlier `request_nodes` and `response_nodes`; our tool call is a
  response node `{type: 5, tool_use: {tool_use_id, tool_name, input_json}}`). The answer is
  NDJSON: one line with the tool call or the text, then one with `stop_reason` (3 after a
  tool call, 1 after the final text);
* anything else gets `{}`.

Pure functions over parsed JSON; fake_model.py serves them. Standard library only.
"""

from __future__ import annotations

import json
from typing import Any

Json = dict[str, Any]

MODEL = "fake-model"
TOOL_USE_NODE = 5
TEXT_NODE = 0
TOOL_RESULT_NODE = 1
STOP_AFTER_TOOL_USE = 3
STOP_AFTER_TEXT = 1


def endpoint(path: str) -> str:
    """The endpoint name of a request path (`/get-models?x` -> `get-models`)."""
    return path.split("?", 1)[0].strip("/").rsplit("/", 1)[-1]


def get_models() -> Json:
    return {
        "default_model": MODEL,
        "models": [
            {"name": MODEL, "suggested_prefix_char_count": 0, "suggested_suffix_char_count": 0}
        ],
        "feature_flags": {"enable_hooks": True},
    }


def _loads(text: Any) -> Json:
    if isinstance(text, dict):
        return text
    try:
        value = json.loads(text or "{}")
    except (TypeError, ValueError):
        return {}
    return value if isinstance(value, dict) else {}


def _result_text(node: Json) -> str:
    result = node.get("tool_result_node") or {}
    content = result.get("content")
    if isinstance(content, str):
        return content
    parts = result.get("content_nodes") or []
    texts = [p.get("text_content") for p in parts if isinstance(p, dict)]
    return "\n".join(t for t in texts if isinstance(t, str)) or json.dumps(content)


def read_chat_stream(
    body: Json,
) -> tuple[list[tuple[str, Json]], list[tuple[str, str]], dict[str, Json]]:
    """(offered tools with their schemas, our calls' results in order, our calls by id)."""
    tools: list[tuple[str, Json]] = []
    for tool in body.get("tool_definitions") or []:
        if isinstance(tool, dict) and tool.get("name"):
            tools.append((str(tool["name"]), _loads(tool.get("input_schema_json"))))
    exchanges = [e for e in body.get("chat_history") or [] if isinstance(e, dict)]
    return tools, _results_in(exchanges, body), _calls_in(exchanges)


def _results_in(exchanges: list[Json], body: Json) -> list[tuple[str, str]]:
    """(call id, result text) of every tool result the history and the request carry."""
    request_nodes = [n for e in exchanges for n in e.get("request_nodes") or []]
    request_nodes += list(body.get("nodes") or [])
    results: list[tuple[str, str]] = []
    for node in request_nodes:
        if isinstance(node, dict) and node.get("tool_result_node"):
            result = node["tool_result_node"]
            results.append((str(result.get("tool_use_id")), _result_text(node)))
    return results


def _calls_in(exchanges: list[Json]) -> dict[str, Json]:
    """Our calls the history echoes: id -> arguments."""
    calls: dict[str, Json] = {}
    for exchange in exchanges:
        for node in exchange.get("response_nodes") or []:
            use = node.get("tool_use") if isinstance(node, dict) else None
            if isinstance(use, dict) and use.get("tool_use_id"):
                calls[str(use["tool_use_id"])] = _loads(use.get("input_json"))
    return calls


def shell_arguments(args: Json, schema: Json) -> Json:
    """`launch-process` runs in the background unless `wait` is true: ask to wait, in the
    workspace root (`cwd` may be relative to it)."""
    props = schema.get("properties") or {}
    fixed = dict(args)
    if "cwd" in props:
        fixed["cwd"] = "."
    if "wait" in props:
        fixed["wait"] = True
    if "max_wait_seconds" in props:
        fixed["max_wait_seconds"] = 60
    return fixed


def write_chat_stream(
    *, tool: str = "", call_id: str = "", args: Json | None = None, text: str = ""
) -> bytes:
    """The NDJSON answer: a tool call (when `tool`) or a final text, then the stop line."""
    if tool:
        node = {
            "id": 1,
            "type": TOOL_USE_NODE,
            "content": "",
            "tool_use": {
                "tool_use_id": call_id,
                "tool_name": tool,
                "input_json": json.dumps(args or {}),
            },
        }
        lines = [
            {"text": "", "nodes": [node]},
            {"text": "", "nodes": [], "stop_reason": STOP_AFTER_TOOL_USE},
        ]
    else:
        node = {"id": 1, "type": TEXT_NODE, "content": text}
        lines = [
            {"text": text, "nodes": [node]},
            {"text": "", "nodes": [], "stop_reason": STOP_AFTER_TEXT},
        ]
    return "".join(json.dumps(line) + "\n" for line in lines).encode()
