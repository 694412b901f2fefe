"""The fake model over real HTTP on 127.0.0.1: each dialect, side requests, the log.

Fast (no agent CLI), so these run even with --skip-e2e.
"""

from __future__ import annotations

import gzip
import json
import os
import re
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from e2e.fake_model import make_server

Json = dict[str, Any]

BASH = {
    "type": "object",
    "properties": {"command": {"type": "string"}, "timeout": {"type": "integer"}},
    "required": ["command"],
}


class Fake:
    def __init__(self, base: str, log: Path) -> None:
        self.base = base
        self.log = log

    def post(
        self, path: str, body: Json, headers: dict[str, str] | None = None, gzip_body: bool = False
    ) -> tuple[int, str, bytes]:
        data = json.dumps(body).encode()
        head = {"Content-Type": "application/json", **(headers or {})}
        if gzip_body:
            data = gzip.compress(data)
            head["Content-Encoding"] = "gzip"
        request = urllib.request.Request(self.base + path, data=data, headers=head)
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                return response.status, response.headers["Content-Type"], response.read()
        except urllib.error.HTTPError as err:
            return err.code, err.headers["Content-Type"], err.read()

    def get(self, path: str) -> tuple[int, bytes]:
        try:
            with urllib.request.urlopen(self.base + path, timeout=10) as response:
                return response.status, response.read()
        except urllib.error.HTTPError as err:
            return err.code, err.read()

    def records(self) -> list[Json]:
        return [json.loads(line) for line in self.log.read_text().splitlines()]


def start(tmp_path: Path, **spec: Any) -> Iterator[Fake]:
    log = tmp_path / "requests.jsonl"
    server = make_server({"command": "git log", **spec}, port=0, log_path=str(log))
    thread = threading.Thread(
        target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
    )
    thread.start()
    guard = threading.Timer(60, server.shutdown)  # stops even if a test hangs
    guard.daemon = True
    guard.start()
    try:
        yield Fake(f"http://127.0.0.1:{server.server_address[1]}", log)
    finally:
        guard.cancel()
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


@pytest.fixture
def fake(tmp_path: Path) -> Iterator[Fake]:
    yield from start(tmp_path, tool_names=[])


@pytest.fixture
def suggesting(tmp_path: Path) -> Iterator[Fake]:
    yield from start(tmp_path, tool_names=["run_shell_command"], follow_suggestions=True)


def sse_data(payload: bytes) -> list[Any]:
    events = []
    for line in payload.decode().splitlines():
        if line.startswith("data: "):
            text = line[len("data: ") :]
            events.append(text if text == "[DONE]" else json.loads(text))
    return events


def chat_tool_call(events: list[Any]) -> tuple[str, Json]:
    call_id, name, args = "", "", ""
    for event in events:
        if event == "[DONE]" or not event["choices"]:
            continue
        for call in event["choices"][0]["delta"].get("tool_calls", []):
            call_id = call.get("id", call_id)
            name = call["function"].get("name", name)
            args += call["function"].get("arguments", "")
    return call_id, {"name": name, **json.loads(args)}


def test_chat_completions_calls_the_shell_tool_then_records_the_result(fake: Fake) -> None:
    tools = [{"type": "function", "function": {"name": "bash", "parameters": BASH}}]
    body: Json = {
        "model": "fake-model",
        "stream": True,
        "tools": tools,
        "stream_options": {"include_usage": True},
        "messages": [{"role": "user", "content": "run it"}],
    }
    status, ctype, payload = fake.post("/v1/chat/completions", body)
    assert status == 200 and ctype == "text/event-stream"
    events = sse_data(payload)
    assert events[-1] == "[DONE]"
    assert any(e != "[DONE]" and e.get("usage") for e in events)
    call_id, call = chat_tool_call(events)
    assert call == {"name": "bash", "command": "git log"}

    body["messages"] += [
        {
            "role": "assistant",
            "tool_calls": [
                {
                    "id": call_id,
                    "type": "function",
                    "function": {"name": "bash", "arguments": json.dumps({"command": "git log"})},
                }
            ],
        },
        {
            "role": "tool",
            "tool_call_id": call_id,
            "content": [{"type": "text", "text": "commit abc\n"}],
        },
    ]
    _, _, payload = fake.post("/v1/chat/completions", body)
    texts = [
        e["choices"][0]["delta"].get("content")
        for e in sse_data(payload)
        if e != "[DONE]" and e["choices"]
    ]
    assert "Done." in texts
    last = fake.records()[-1]
    assert last["tool_results"] == [{"call_id": call_id, "text": "commit abc\n"}]


def test_required_properties_are_filled_and_nothing_extra_is_sent(fake: Fake) -> None:
    summary_pattern = r"^[A-Z]\S*(?:\s+\S+){2,7}$"
    droid: Json = {
        "type": "object",
        "additionalProperties": False,
        "properties": {
            "command": {"type": "string"},
            "summary": {"type": "string", "pattern": summary_pattern},
            "timeout": {"type": "number"},
        },
        "required": ["command", "summary"],
    }
    cline = {
        "type": "object",
        "properties": {"commands": {"type": "array", "items": {"type": "string"}}},
        "required": ["commands"],
    }
    for name, schema in (("Execute", droid), ("run_commands", cline)):
        tools = [{"type": "function", "function": {"name": name, "parameters": schema}}]
        _, _, payload = fake.post(
            "/v1/chat/completions",
            {"stream": True, "tools": tools, "messages": [{"role": "user", "content": "x"}]},
        )
        _, call = chat_tool_call(sse_data(payload))
        if name == "Execute":
            assert set(call) == {"name", "command", "summary"}
            assert re.match(summary_pattern, call["summary"])
        else:
            assert call["commands"] == ["git log"]


def test_responses_dialect_streams_a_function_call(fake: Fake) -> None:
    schema = {
        "type": "object",
        "additionalProperties": False,
        "properties": {"cmd": {"type": "string"}, "workdir": {"type": "string"}},
        "required": ["cmd"],
    }
    body: Json = {
        "model": "gpt-5.5",
        "stream": True,
        "input": [],
        "tools": [{"type": "function", "name": "exec_command", "parameters": schema}],
    }
    status, _, payload = fake.post("/v1/responses", body)
    assert status == 200
    events = [e for e in sse_data(payload) if e != "[DONE]"]
    assert events[0]["type"] == "response.created"
    assert events[-1]["type"] == "response.completed"
    item = events[-1]["response"]["output"][0]
    assert item["type"] == "function_call" and json.loads(item["arguments"]) == {"cmd": "git log"}
    body["input"] = [
        item,
        {
            "type": "function_call_output",
            "call_id": item["call_id"],
            "output": "Output:\ncommit abc\n",
        },
    ]
    _, _, payload = fake.post("/v1/responses", body)
    done = [e for e in sse_data(payload) if e != "[DONE]"][-1]["response"]["output"][0]
    assert done["type"] == "message" and done["content"][0]["text"] == "Done."
    assert fake.records()[-1]["tool_results"][0]["text"] == "Output:\ncommit abc\n"


def test_anthropic_messages_streams_tool_use(fake: Fake) -> None:
    body: Json = {
        "model": "claude-sonnet-4-5",
        "stream": True,
        "max_tokens": 100,
        "tools": [
            {"name": "Read", "input_schema": {"type": "object"}},
            {"name": "Bash", "input_schema": BASH},
        ],
        "messages": [{"role": "user", "content": "run it"}],
    }
    _, _, payload = fake.post("/v1/messages?beta=true", body, {"x-api-key": "sk-secret"})
    text = payload.decode()
    assert "event: message_start" in text and "event: message_stop" in text
    start = next(e for e in sse_data(payload) if e["type"] == "content_block_start")
    delta = next(e for e in sse_data(payload) if e["type"] == "content_block_delta")
    assert start["content_block"]["name"] == "Bash"
    assert json.loads(delta["delta"]["partial_json"]) == {"command": "git log"}
    assert "sk-secret" not in fake.log.read_text()


def test_gemini_function_call_and_response(fake: Fake) -> None:
    decl = {"name": "run_shell_command", "parametersJsonSchema": BASH}
    body: Json = {
        "contents": [{"role": "user", "parts": [{"text": "run"}]}],
        "tools": [{"functionDeclarations": [decl]}],
    }
    path = "/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse"
    _, _, payload = fake.post(path, body)
    part = sse_data(payload)[0]["candidates"][0]["content"]["parts"][0]
    call = part["functionCall"]
    assert call["name"] == "run_shell_command" and call["args"] == {"command": "git log"}
    body["contents"] += [
        {"role": "model", "parts": [part]},
        {
            "role": "user",
            "parts": [
                {
                    "functionResponse": {
                        "id": call["id"],
                        "name": call["name"],
                        "response": {"output": "commit abc"},
                    }
                }
            ],
        },
    ]
    _, _, payload = fake.post(path, body)
    final = sse_data(payload)[0]["candidates"][0]["content"]["parts"][0]
    assert final == {"text": "Done."}
    assert fake.records()[-1]["tool_results"][0]["text"] == "commit abc"


def test_side_requests_get_text_or_minimal_json(fake: Fake) -> None:
    _, _, payload = fake.post(
        "/v1/chat/completions",
        {"stream": False, "messages": [{"role": "user", "content": "title?"}]},
    )
    assert json.loads(payload)["choices"][0]["message"]["content"] == "Done."
    schema = {
        "type": "object",
        "required": ["reasoning", "model_choice", "tags"],
        "properties": {
            "reasoning": {"type": "string"},
            "model_choice": {"type": "string", "enum": ["flash", "pro"]},
            "tags": {"type": "array"},
        },
    }
    body = {
        "contents": [{"role": "user", "parts": [{"text": "route"}]}],
        "generationConfig": {"responseJsonSchema": schema},
    }
    _, _, payload = fake.post("/v1beta/models/m:generateContent", body)
    text = json.loads(payload)["candidates"][0]["content"]["parts"][0]["text"]
    assert json.loads(text) == {"reasoning": "", "model_choice": "flash", "tags": []}


def test_probes_gzip_and_unknown_paths(fake: Fake) -> None:
    status, payload = fake.get("/v1/models")
    assert status == 200 and json.loads(payload)["data"][0]["id"] == "fake-model"
    status, _, payload = fake.post("/api/show", {"name": "fake-model"})
    assert status == 404 and "error" in json.loads(payload)
    status, _, payload = fake.post(
        "/v1/chat/completions",
        {"stream": False, "messages": [{"role": "user", "content": "x"}]},
        gzip_body=True,
    )
    assert status == 200


def test_deny_and_suggest_is_followed_once(suggesting: Fake) -> None:
    decl = {"name": "run_shell_command", "parametersJsonSchema": BASH}
    first = {
        "functionCall": {
            "name": "run_shell_command",
            "args": {"command": "git log"},
            "id": "call_rtok_1",
        }
    }
    denial = "Blocked by hook: run `rtok run git log` instead"
    body: Json = {
        "tools": [{"functionDeclarations": [decl]}],
        "contents": [
            {"role": "user", "parts": [{"text": "run"}]},
            {"role": "model", "parts": [first]},
            {
                "role": "user",
                "parts": [
                    {
                        "functionResponse": {
                            "id": "call_rtok_1",
                            "name": "run_shell_command",
                            "response": {"output": denial},
                        }
                    }
                ],
            },
        ],
    }
    path = "/v1beta/models/m:generateContent"
    _, _, payload = suggesting.post(path, body)
    second = json.loads(payload)["candidates"][0]["content"]["parts"][0]["functionCall"]
    assert second["args"] == {"command": "rtok run git log"}
    body["contents"] += [
        {"role": "model", "parts": [{"functionCall": second}]},
        {
            "role": "user",
            "parts": [
                {
                    "functionResponse": {
                        "id": second["id"],
                        "name": "run_shell_command",
                        "response": {"output": "shortened `git log`"},
                    }
                }
            ],
        },
    ]
    _, _, payload = suggesting.post(path, body)
    # The result names `git log`, which is what was sent first, not a new suggestion.
    assert json.loads(payload)["candidates"][0]["content"]["parts"][0] == {"text": "Done."}


LAUNCH_PROCESS = {
    "type": "object",
    "required": ["command", "wait", "max_wait_seconds", "cwd"],
    "properties": {
        "command": {"type": "string"},
        "wait": {"type": "boolean"},
        "max_wait_seconds": {"type": "number"},
        "cwd": {"type": "string"},
    },
}


@pytest.fixture
def augment(tmp_path: Path) -> Iterator[Fake]:
    yield from start(tmp_path, tool_names=["launch-process"], backend="augment")


def ndjson(payload: bytes) -> list[Json]:
    return [json.loads(line) for line in payload.decode().splitlines() if line.strip()]


def test_augment_backend_enables_hooks_and_calls_launch_process(augment: Fake) -> None:
    status, _, body = augment.post("/get-models", {})
    models = json.loads(body)
    assert status == 200 and models["feature_flags"]["enable_hooks"] is True
    assert models["default_model"] == models["models"][0]["name"]
    assert augment.post("/report-error", {"x": 1})[2] == b"{}"  # every other endpoint
    tools = [
        {"name": "view", "input_schema_json": json.dumps(BASH)},
        {"name": "launch-process", "input_schema_json": json.dumps(LAUNCH_PROCESS)},
    ]
    prompt = {"id": 1, "type": 0, "text_node": {"content": "run git log"}}
    _, _, body = augment.post(
        "/chat-stream", {"tool_definitions": tools, "chat_history": [], "nodes": [prompt]}
    )
    first, stop = ndjson(body)
    [node] = first["nodes"]
    assert node["type"] == 5 and stop["stop_reason"] == 3
    use = node["tool_use"]
    assert use["tool_name"] == "launch-process"
    # wait=true, or Auggie would start the command in the background
    assert json.loads(use["input_json"]) == {
        "command": "git log",
        "wait": True,
        "max_wait_seconds": 60,
        "cwd": ".",
    }
    result = {
        "id": 2,
        "type": 1,
        "tool_result_node": {
            "tool_use_id": use["tool_use_id"],
            "content": "commit abc",
            "is_error": False,
        },
    }
    history = [{"request_nodes": [prompt], "response_nodes": [node]}]
    _, _, body = augment.post(
        "/chat-stream", {"tool_definitions": tools, "chat_history": history, "nodes": [result]}
    )
    final, stop = ndjson(body)
    assert final["nodes"][0] == {"id": 1, "type": 0, "content": "Done."}
    assert stop["stop_reason"] == 1
    streamed = [r for r in augment.records() if r.get("path") == "/chat-stream"]
    assert streamed[-1]["tool_results"] == [{"call_id": use["tool_use_id"], "text": "commit abc"}]
    assert streamed[0]["answer"]["args"]["wait"] is True


def _anthropic_turns(fake: Fake, results: list[str]) -> list[str]:
    """Drive the fake as an agent would: run each call it makes, answer with the next of
    `results`; the commands it sent, in order."""
    messages: list[Json] = [{"role": "user", "content": "run them"}]
    sent: list[str] = []
    for turn in range(len(results) + 1):
        body: Json = {
            "model": "m",
            "stream": True,
            "max_tokens": 100,
            "tools": [{"name": "Bash", "input_schema": BASH}],
            "messages": messages,
        }
        _, _, payload = fake.post("/v1/messages", body)
        events = sse_data(payload)
        start = next(e for e in events if e["type"] == "content_block_start")
        if start["content_block"]["type"] != "tool_use":
            return sent
        delta = next(e for e in events if e["type"] == "content_block_delta")
        command = json.loads(delta["delta"]["partial_json"])["command"]
        sent.append(command)
        call_id = start["content_block"]["id"]
        result = results[min(turn, len(results) - 1)]
        messages = [
            *messages,
            {
                "role": "assistant",
                "content": [
                    {
                        "type": "tool_use",
                        "id": call_id,
                        "name": "Bash",
                        "input": {"command": command},
                    }
                ],
            },
            {
                "role": "user",
                "content": [{"type": "tool_result", "tool_use_id": call_id, "content": result}],
            },
        ]
    return sent


@pytest.fixture
def listed(tmp_path: Path) -> Iterator[Fake]:
    yield from start(
        tmp_path,
        tool_names=["Bash"],
        follow_suggestions=False,
        commands=["git log", "seq 1 5000", "rtok expand {last_id}", "git log"],
    )


def test_a_list_of_commands_is_sent_one_after_another(listed: Fake) -> None:
    trailer = "short\n[rtok expand a1b2c3 · 64 lines · cut]"
    sent = _anthropic_turns(listed, [trailer, "1\n2\n3", "raw", "again"])
    assert sent == ["git log", "seq 1 5000", "rtok expand a1b2c3", "git log"]
    calls = [r["answer"].get("call_id") for r in listed.records() if "call_id" in r["answer"]]
    assert len(set(calls)) == 4


def test_the_expand_is_left_out_when_no_result_has_a_trailer(listed: Fake) -> None:
    sent = _anthropic_turns(listed, ["raw git log", "1\n2\n3", "raw again"])
    assert sent == ["git log", "seq 1 5000", "git log"]
    assert listed.records()[-1]["answer"] == {"text": "Done."}


@pytest.mark.parametrize(
    "recorded",
    [
        "git log",
        "/home/u/.local/state/rtok/bin/rtok run git log",
        "'/home/my dir/rtok' run git log",
    ],
)
def test_a_call_a_plugin_rewrote_in_place_is_not_sent_again(recorded: str) -> None:
    # OpenCode, Oh My Pi and Copilot keep the rewritten command in their history: the
    # scripted `git log` was sent, and its result ends the session.
    from e2e.fake_model import Script, Turn, decide

    script = Script({"command": "git log", "tool_names": ["bash"]}, os.devnull)
    turn = Turn()
    turn.tools = [
        (
            "bash",
            {
                "type": "object",
                "properties": {"command": {"type": "string"}},
                "required": ["command"],
            },
        )
    ]
    turn.calls = {"call_rtok_1": {"command": recorded}}
    turn.results = {"call_rtok_1": "commit 1\n[rtok expand 0123abcd · 9 lines]"}
    answer, _ = decide(script, turn, "call_rtok_")
    assert not answer.is_call and answer.text == "Done."
