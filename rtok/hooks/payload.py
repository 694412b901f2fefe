"""Reading a hook payload and finding the shell command(s) in it.

Everything here is defensive: a payload of the wrong shape yields None (the caller then
gives the agent its "no opinion" reply), never an exception.

Hot path: stdlib only.
"""

from __future__ import annotations

from rtok._fast import fastjson as json

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import BinaryIO

    from rtok.hooks.types import JsonObject, JsonValue, PayloadShape

STDIN_CAP = 1024 * 1024
_BOM = b"\xef\xbb\xbf"
# An agent that writes its payload and never closes the pipe gets its answer once the JSON
# document is complete; one that stops half-way is given up on after this long.
READ_DEADLINE_S = 5.0
# A host that opens the hook's stdin and sends nothing (a background sub-agent's spawn)
# gets the "no opinion" reply this soon after the hook starts reading.
FIRST_BYTE_DEADLINE_S = 1.5
READ_BYTES = 64 * 1024


def read_payload(stream: BinaryIO | None, cap: int = STDIN_CAP) -> JsonObject | None:
    """The JSON object on `stream`: at most `cap` bytes, leading BOMs stripped, UTF-8.
    Reading stops at EOF or as soon as what arrived is one complete JSON object."""
    if stream is None:
        return None
    try:
        fd = stream.fileno()
    except (AttributeError, OSError, ValueError):
        return parse_payload(stream.read(cap + 1), cap)
    return parse_payload(read_document(fd, cap), cap)


def read_document(
    fd: int,
    cap: int = STDIN_CAP,
    deadline_s: float = READ_DEADLINE_S,
    first_byte_s: float = FIRST_BYTE_DEADLINE_S,
) -> bytes:
    """Bytes from `fd` up to EOF, up to `cap + 1` bytes, or up to the end of a complete
    JSON object (the writer need not close the pipe); b"" when no byte came within
    `first_byte_s`, or no complete object within `deadline_s` after the first bytes.

    The deadline is a SIGALRM timer rather than select/poll: `select` is an extension
    module whose loading costs the hook more than the timer (the `_signal` core is
    already loaded)."""
    from rtok._fast import oslite as os

    signals = __import__("_signal")
    timed = hasattr(signals, "setitimer")
    previous = None
    chunks: list[bytes] = []
    size = 0

    def expire(_signum: int, _frame: object) -> None:
        raise TimeoutError

    try:
        if timed:
            try:
                previous = signals.signal(signals.SIGALRM, expire)
                signals.setitimer(signals.ITIMER_REAL, min(first_byte_s, deadline_s))
            except ValueError:  # not the main thread: no timer, read to EOF
                timed = False
        while size <= cap:
            try:
                chunk = os.read(fd, READ_BYTES)
            except OSError as error:
                if isinstance(error, TimeoutError):
                    raise
                break
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
            if chunk.rstrip()[-1:] == b"}":
                data = b"".join(chunks)
                if parse_payload(data, cap) is not None:
                    return data
            if timed and len(chunks) == 1 and deadline_s > first_byte_s:
                # Bytes came: the rest of the document gets the longer deadline.
                signals.setitimer(signals.ITIMER_REAL, deadline_s)
        return b"".join(chunks)
    except TimeoutError:
        return b""
    finally:
        if timed:
            signals.setitimer(signals.ITIMER_REAL, 0)
            signals.signal(signals.SIGALRM, previous)


def parse_payload(raw: bytes, cap: int = STDIN_CAP) -> JsonObject | None:
    """The JSON object in `raw` (None: empty, over `cap`, not UTF-8, not an object)."""
    if not raw or len(raw) > cap:
        return None
    while raw.startswith(_BOM):
        raw = raw[len(_BOM) :]
    try:
        text = raw.decode("utf-8").strip()
        if not text:
            return None
        data = json.loads(text)
    except (UnicodeDecodeError, ValueError, RecursionError):
        return None
    return data if isinstance(data, dict) else None


def lookup(data: object, path: list[str]) -> object:
    """The value at a key path in nested objects, or None."""
    for key in path:
        if not isinstance(data, dict):
            return None
        data = data.get(key)
    return data


class ToolCall:
    """The shell call found in a payload, under one of the agent's payload shapes."""

    __slots__ = ("commands", "is_list", "key", "shape", "tool", "tool_input")

    def __init__(
        self,
        shape: PayloadShape,
        tool: str,
        tool_input: JsonObject,
        key: str,
        commands: list[str],
        is_list: bool,
    ) -> None:
        self.shape = shape
        self.tool = tool
        self.tool_input = tool_input
        self.key = key
        self.commands = commands
        self.is_list = is_list

    def input_with(self, new_commands: list[str]) -> JsonObject:
        """A copy of the whole tool input with only the command (or list) replaced."""
        updated = dict(self.tool_input)
        new_value: JsonValue = [c for c in new_commands] if self.is_list else new_commands[0]
        updated[self.key] = new_value
        return updated


def find_shape(payload: JsonObject, shapes: list[PayloadShape]) -> PayloadShape | None:
    """The first payload shape whose tool-name path holds a string in this payload."""
    for shape in shapes:
        if isinstance(lookup(payload, shape["tool"]), str):
            return shape
    return None


def shell_call(payload: JsonObject, shape: PayloadShape) -> ToolCall | None:
    """The shell call in `payload` if it is one the shape acts on, else None."""
    tool = lookup(payload, shape["tool"])
    if not isinstance(tool, str) or tool not in shape["tools"] or not _acted_on(payload, shape):
        return None
    tool_input = _tool_input(payload, shape)
    if tool_input is None or _in_background(tool_input, shape):
        return None
    return _command_call(shape, tool, tool_input)


def _acted_on(payload: JsonObject, shape: PayloadShape) -> bool:
    """The payload's event is one the shape acts on (or it names none), and the host did
    not cut the input short (its command may be cut too, and must not be rewritten)."""
    if shape["event"]:
        event = lookup(payload, shape["event"])
        if event is not None and event not in shape["events"]:
            return False
    incomplete = shape.get("incomplete")
    return not (incomplete and lookup(payload, incomplete) is True)


def _tool_input(payload: JsonObject, shape: PayloadShape) -> JsonObject | None:
    """The tool input object (parsed from JSON text where the shape allows it), or None."""
    tool_input = lookup(payload, shape["input"])
    if isinstance(tool_input, str) and shape["input_format"] == "object_or_json":
        try:
            tool_input = json.loads(tool_input)
        except (ValueError, RecursionError):
            return None
    return tool_input if isinstance(tool_input, dict) else None


def _in_background(tool_input: JsonObject, shape: PayloadShape) -> bool:
    """A background run streams its output to the agent while it runs (a dev server, a
    watcher); `rtok run` would hold that output back until the command ends."""
    if any(tool_input.get(key) is True for key in shape.get("background", ())):
        return True
    return any(tool_input.get(key) is False for key in shape.get("foreground", ()))


def _command_call(shape: PayloadShape, tool: str, tool_input: JsonObject) -> ToolCall | None:
    """The call of the first command key present in the input, when its value has the
    shape's command format."""
    for key in shape["command"]:
        if key not in tool_input:
            continue
        value = tool_input[key]
        if shape["command_format"] == "list":
            if not isinstance(value, list):
                return None
            commands = [item for item in value if isinstance(item, str)]
            if value and len(commands) == len(value):
                return ToolCall(shape, tool, tool_input, key, commands, True)
            return None
        if isinstance(value, str):
            return ToolCall(shape, tool, tool_input, key, [value], False)
        return None
    return None
