"""The `[hook]` table of integrations/<agent>.toml: schema, validation, compiled form.

Not on the hot path. rtok.install.descriptor reads and validates the whole descriptor file
and calls `validate_hook_table` for this table; `scripts/compile_data.py` writes the
compiled tables to `rtok/compiled/hook_protocols.py`, which `rtok hook` imports.

Schema (every key is checked; an error names the file and the key):

    [hook]
    permissions = "claude"     # whose rules: a reader of rtok.permissions.verdict (SOURCES)
    rtok_path = "bare"         # "bare" → `rtok run …` if PATH finds this rtok, else absolute;
                               # "absolute" → always the running entry point
    no_opinion = ""            # exact stdout when rtok has nothing to say ("" or JSON text)
    cwd_from = ["cwd"]         # payload key paths of the command's working directory, tried
                               #   in order (default ["cwd"]); a path may hold a list of
                               #   folders (Cursor's `workspace_roots`), the first is taken;
                               #   with none usable the hook's own working directory is used
    reply_via = "stdout"       # "stdout" (default): the reply is JSON on stdout, exit 0;
                               # "exit": hosts that read only the exit status and stderr
                               #   (Windsurf, Kiro: exit 2 blocks, stderr reaches the
                               #   model); every template is then { exit = N, stderr = "…" }
                               #   and no_opinion must be "" (exit 0, nothing written)

    [[hook.payloads]]          # payload shapes, tried in order; the first whose `tool`
    tool = "tool_name"         #   path holds a string is used (dotted path)
    tools = ["Bash"]           # tool names acted on; any other tool passes through
    event = "hook_event_name"  # optional path; when the payload has it, it must be in `events`
    events = ["PreToolUse"]
    input = "tool_input"       # path of the tool input object
    input_format = "object"    # "object", or "object_or_json" (an object or a JSON string)
    command = ["command"]      # input keys that may hold the command; the first present wins
    command_format = "string"  # "string", or "list" (a list of commands, each decided alone)
    background = []            # input keys that, when true, mark a background run: passed
                               #   through, since `rtok run` prints only when the command ends
    foreground = []            # input keys that, when false, mark a background run (`wait`)
    incomplete = "toolInputTruncated"  # optional path; when the payload holds true there, the
                               #   host cut the tool input short: passed through

    [hook.payloads.replies]    # one JSON template per decision; a kind left out replies
    allow_rewrite = {…}        #   `no_opinion`. Kinds: allow_rewrite, ask_rewrite, deny, defer,
    ask_rewrite = {…}          #   and ask_rule_rewrite: used instead of ask_rewrite when the
                               #   user's own ask rule matched (falls back to ask_rewrite);
                               #   the decision kind stays ask_rewrite, so it should differ
                               #   from ask_rewrite only by added keys (`rtok doctor`)

    [hook.sample]              # what the agent really sends, as JSON text (rtok's tests and
    shell = '''{…}'''          #   the validator use it): the payload before a shell call, with
                               #   "${command}" and "${cwd}" for the command and the working
                               #   directory (also inside a string that holds JSON text);
    other = '''{…}'''          #   the top-level keys that make it a call of another tool
                               #   (a file read). Required; the shell sample must be a shell
                               #   call under the payload shapes above, the other one not.

In a template the string "${input}" becomes the complete tool input with only the command
changed, "${command}" the rewritten command, and inside longer strings `${command}` and
`${original}` are replaced by the rewritten and the original command.
"""

from __future__ import annotations

import json
from typing import NamedTuple, cast, get_args

from rtok import schema
from rtok.hooks.payload import ToolCall, find_shape, shell_call
from rtok.hooks.types import (
    CommandFormat,
    HookProtocol,
    InputFormat,
    JsonObject,
    JsonValue,
    PayloadShape,
    ReplyKind,
    RtokPath,
)
from rtok.permissions.verdict import SOURCES
from rtok.schema import DescriptorError

# The permission sources are the rule readers rtok.permissions has: one list, there.
PERMISSION_SOURCES = SOURCES
RTOK_PATHS = ("bare", "absolute")
INPUT_FORMATS = ("object", "object_or_json")
COMMAND_FORMATS = ("string", "list")
REPLY_KINDS: tuple[str, ...] = get_args(ReplyKind)
_HOOK_KEYS = (
    "permissions",
    "rtok_path",
    "no_opinion",
    "reply_via",
    "cwd_from",
    "payloads",
    "sample",
)
REPLY_CHANNELS = ("stdout", "exit")
SAMPLE_COMMAND = "${command}"
SAMPLE_CWD = "${cwd}"
_PAYLOAD_KEYS = (
    "tool",
    "tools",
    "event",
    "events",
    "input",
    "input_format",
    "command",
    "command_format",
    "background",
    "foreground",
    "incomplete",
    "replies",
)


def validate_hook_table(value: object, where: str) -> HookProtocol:
    """The `[hook]` table of the descriptor file `where` in compiled form; raises
    DescriptorError naming the file and the key."""
    table = f"{where}: hook"
    hook = schema.table(value, table)
    schema.only(hook, _HOOK_KEYS, table)
    no_opinion = schema.string(hook, "no_opinion", table, required=False)
    if no_opinion:
        try:
            json.loads(no_opinion)
        except ValueError as error:
            raise DescriptorError(f"{table}.no_opinion is not JSON: {error}") from error
    payloads = hook.get("payloads")
    if not isinstance(payloads, list) or not payloads:
        raise DescriptorError(f"{table}.payloads must be a non-empty array of tables")
    compiled: HookProtocol = {
        "permissions": schema.choice(hook, "permissions", PERMISSION_SOURCES, table),
        "rtok_path": cast(
            RtokPath, schema.choice(hook, "rtok_path", RTOK_PATHS, table, default="bare")
        ),
        "no_opinion": no_opinion,
        "cwd_from": _cwd_from(hook, table),
        "payloads": [
            _payload(item, f"{table}.payloads[{index}]") for index, item in enumerate(payloads)
        ],
    }
    if schema.choice(hook, "reply_via", REPLY_CHANNELS, table, default="stdout") == "exit":
        _check_exit_replies(compiled, table)
        compiled["reply_via"] = "exit"  # left out for "stdout": the hook reads a default
    return compiled


def _cwd_from(hook: dict[str, object], where: str) -> list[list[str]]:
    """The key paths `cwd_from` names (default: `cwd`), each split at its dots."""
    if "cwd_from" not in hook:
        return [["cwd"]]
    paths = [name.split(".") for name in schema.strings(hook, "cwd_from", where, required=True)]
    if not all(all(path) for path in paths):
        raise DescriptorError(f"{where}.cwd_from must list dotted key paths such as cwd")
    return paths


def _check_exit_replies(protocol: HookProtocol, where: str) -> None:
    """With `reply_via = "exit"` the host reads an exit status and stderr only: each
    template is `{ exit = N, stderr = "…" }` and "no opinion" writes nothing."""
    if protocol["no_opinion"]:
        raise DescriptorError(f'{where}.no_opinion must be empty with reply_via = "exit"')
    for index, shape in enumerate(protocol["payloads"]):
        for kind, text in shape["replies"].items():
            template = json.loads(text)
            code = template.get("exit")
            if (
                set(template) != {"exit", "stderr"}
                or not isinstance(code, int)
                or isinstance(code, bool)
                or not 0 < code < 256
                or not isinstance(template["stderr"], str)
                or not template["stderr"]
            ):
                raise DescriptorError(
                    f'{where}.payloads[{index}].replies.{kind}: with reply_via = "exit" a '
                    'reply is { exit = 1..255, stderr = "a message" }'
                )


def validate_hook_sample(value: object, protocol: HookProtocol, where: str) -> HookSample:
    """The `[hook.sample]` payloads of the descriptor file `where`, checked against the
    agent's own payload shapes."""
    table = f"{where}: hook.sample"
    sample = schema.table(value, table)
    schema.only(sample, ("shell", "other"), table)
    parsed = {}
    for key in ("shell", "other"):
        text = schema.string(sample, key, table)
        try:
            payload = json.loads(text)
        except ValueError as error:
            raise DescriptorError(f"{table}.{key} is not JSON: {error}") from error
        if not isinstance(payload, dict):
            raise DescriptorError(f"{table}.{key} must be a JSON object")
        parsed[key] = payload
    result = HookSample(shell=parsed["shell"], other=parsed["other"])
    probe = "git status --short"
    call = _shell_call(protocol, fill_sample(result, probe, "/"))
    if call is None or probe not in call.commands:
        raise DescriptorError(
            f"{table}.shell is not a shell call of `${{command}}` under the agent's payload shapes"
        )
    if _shell_call(protocol, fill_sample(result, probe, "/", other=True)) is not None:
        raise DescriptorError(f"{table}.other is still a shell call")
    return result


class HookSample(NamedTuple):
    """An agent's sample payloads (JSON objects with the ${command} and ${cwd} holes)."""

    shell: JsonObject
    other: JsonObject  # top-level keys replacing the shell sample's


def fill_sample(sample: HookSample, command: str, cwd: str, *, other: bool = False) -> JsonObject:
    """The agent's payload before running `command` in `cwd` (`other`: a call of another
    tool instead), as the agent would send it."""
    payload = dict(sample.shell)
    if other:
        payload.update(sample.other)
    filled = _fill(payload, {SAMPLE_COMMAND: command, SAMPLE_CWD: cwd})
    assert isinstance(filled, dict)
    return filled


def _fill(value: JsonValue, holes: dict[str, str]) -> JsonValue:
    if isinstance(value, str):
        if value in holes:
            return holes[value]
        if "${" in value and value[:1] in ("{", "["):  # JSON text inside the payload
            return json.dumps(_fill(json.loads(value), holes))
        return value
    if isinstance(value, dict):
        return {key: _fill(item, holes) for key, item in value.items()}
    if isinstance(value, list):
        return [_fill(item, holes) for item in value]
    return value


def _shell_call(protocol: HookProtocol, payload: JsonObject) -> ToolCall | None:
    shape = find_shape(payload, protocol["payloads"])
    return None if shape is None else shell_call(payload, shape)


def _payload(item: object, where: str) -> PayloadShape:
    table = schema.table(item, where)
    schema.only(table, _PAYLOAD_KEYS, where)
    replies = schema.table(table.get("replies"), f"{where}.replies")
    schema.only(replies, REPLY_KINDS, f"{where}.replies")
    has_event = "event" in table
    events = schema.strings(table, "events", where, required=has_event)
    if events and not has_event:
        raise DescriptorError(f"{where}: events given without event")
    compiled: PayloadShape = {
        "tool": schema.key_path(table, "tool", where),
        "tools": schema.strings(table, "tools", where, required=True),
        "event": schema.key_path(table, "event", where) if has_event else [],
        "events": events,
        "input": schema.key_path(table, "input", where),
        "input_format": cast(
            InputFormat,
            schema.choice(table, "input_format", INPUT_FORMATS, where, default="object"),
        ),
        "command": schema.strings(table, "command", where, required=True),
        "command_format": cast(
            CommandFormat,
            schema.choice(table, "command_format", COMMAND_FORMATS, where, default="string"),
        ),
        "background": schema.strings(table, "background", where),
        "replies": {
            kind: _template(value, f"{where}.replies.{kind}")
            for kind, value in sorted(replies.items())
        },
    }
    foreground = schema.strings(table, "foreground", where)
    if foreground:  # rare; left out otherwise, as the hook reads it with a default
        compiled["foreground"] = foreground
    if "incomplete" in table:  # likewise
        compiled["incomplete"] = schema.key_path(table, "incomplete", where)
    return compiled


def _template(value: object, where: str) -> str:
    """The template as compact JSON text (the hook parses it when it replies)."""
    if not isinstance(value, dict):
        raise DescriptorError(f"{where}: a reply template must be a table")
    try:
        return json.dumps(value, separators=(",", ":"))
    except TypeError as error:  # e.g. a TOML date
        raise DescriptorError(f"{where}: not representable as JSON: {error}") from error


def python_literal(value: object, indent: int = 0) -> str:
    """`value` as Python source that stays within 100 columns at any nesting depth.

    Long strings are split into adjacent literals inside parentheses, which pprint
    does not do for text without spaces (the JSON templates).
    """
    pad = " " * (indent + 4)
    if isinstance(value, dict):
        if not value:
            return "{}"
        items = [
            f"{pad}{key!r}: {python_literal(value[key], indent + 4)}," for key in sorted(value)
        ]
        return "{\n" + "\n".join(items) + "\n" + " " * indent + "}"
    if isinstance(value, list):
        if not value:
            return "[]"
        short = repr(value)
        if len(short) + indent < 60 and all(isinstance(v, str) for v in value):
            return short
        items = [f"{pad}{python_literal(item, indent + 4)}," for item in value]
        return "[\n" + "\n".join(items) + "\n" + " " * indent + "]"
    if isinstance(value, str) and len(repr(value)) + indent > 60:
        width = max(20, 90 - indent - 8)
        chunks = [value[i : i + width] for i in range(0, len(value), width)]
        body = "\n".join(f"{pad}{chunk!r}" for chunk in chunks)
        return "(\n" + body + "\n" + " " * indent + ")"
    return repr(value)


MODULE_BODY = '''from __future__ import annotations

from rtok._fast import fastjson as json

TYPE_CHECKING = False
if TYPE_CHECKING:
    from rtok.hooks.types import HookProtocol

# One JSON text per agent: `rtok hook AGENT` parses only its own (JSON is parsed anyway),
# which is cheaper at start-up than building every agent's tables as a literal.
PROTOCOL_JSON = {literal}


def protocol(agent: str) -> HookProtocol | None:
    """The compiled `[hook]` table of one agent, or None."""
    text = PROTOCOL_JSON.get(agent)
    if text is None:
        return None
    table: HookProtocol = json.loads(text)
    return table


def __getattr__(name: str) -> dict[str, HookProtocol]:
    # `PROTOCOLS` (agent -> table) for callers that want every agent (doctor, tests).
    if name == "PROTOCOLS":
        return {{agent: json.loads(text) for agent, text in PROTOCOL_JSON.items()}}
    raise AttributeError(name)
'''


def protocols_module_body(protocols: dict[str, HookProtocol]) -> str:
    """The body of rtok/compiled/hook_protocols.py for these compiled tables."""
    texts = {
        agent: json.dumps(table, sort_keys=True, separators=(",", ":"))
        for agent, table in protocols.items()
    }
    return MODULE_BODY.format(literal=python_literal(texts))
