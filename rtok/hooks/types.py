"""Types of the compiled `[hook]` table (rtok/compiled/hook_protocols.py) and of the JSON a
hook reads and writes.

Typing only: hot-path modules import this under `if TYPE_CHECKING:` (it imports `typing`).
"""

from __future__ import annotations

from typing import Literal, NotRequired, TypedDict

# A JSON value as `json.loads` returns it; an agent's payload is a `JsonObject`.
JsonValue = str | int | float | bool | None | list["JsonValue"] | dict[str, "JsonValue"]
JsonObject = dict[str, JsonValue]

# The reply kinds a payload shape may have a template for (rtok.hooks.descriptors reads its
# REPLY_KINDS from here).
ReplyKind = Literal["allow_rewrite", "ask_rewrite", "ask_rule_rewrite", "deny", "defer"]
RtokPath = Literal["bare", "absolute"]
InputFormat = Literal["object", "object_or_json"]
CommandFormat = Literal["string", "list"]


class PayloadShape(TypedDict):
    """One payload shape: key paths into the agent's payload, the reply templates as JSON
    text (rtok/hooks/descriptors.py documents each key)."""

    tool: list[str]
    tools: list[str]
    event: list[str]
    events: list[str]
    input: list[str]
    input_format: InputFormat
    command: list[str]
    command_format: CommandFormat
    background: list[str]
    replies: dict[str, str]
    foreground: NotRequired[list[str]]
    incomplete: NotRequired[list[str]]


class HookProtocol(TypedDict):
    """One agent's compiled `[hook]` table."""

    permissions: str
    rtok_path: RtokPath
    no_opinion: str
    cwd_from: list[list[str]]  # key paths of the command's working directory, in order
    payloads: list[PayloadShape]
    reply_via: NotRequired[str]  # "exit": the reply is an exit status and stderr
