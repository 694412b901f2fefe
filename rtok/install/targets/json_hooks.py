"""Hook entries in JSON/JSONC settings files, edited through rtok.formats.jsonc.

* `json_hook_group`: Claude-style matcher groups (`{"matcher", "hooks": [handler]}`) in an
  array at `container` (Claude, Codex, Gemini, Qwen, Droid, Trae).
* `json_hook_flat`: a flat list of handler objects (Cursor, Copilot CLI).
* `json_named_hooks`: a top-level hook group keyed by name (Antigravity).

rtok's entry is always appended as its own group, never merged into a user's group. An
entry is rtok's when its command is `<path>/rtok hook <agent>` word for word (handler type
absent or "command"); anything else — the user's hooks, other tools' — is never touched,
even inside the same group. On uninstall the containers left empty by the removal go too,
and a file rtok created is deleted once only its skeleton is left.
"""

from __future__ import annotations

import json

from rtok.formats import jsonc
from rtok.install.model import Action, FileEdit
from rtok.install.targets.base import (
    PartTransforms,
    Target,
    hand_edited_note,
    settings_entry_edit,
)
from rtok.install.targets.commands import is_edited_rtok_hook_command, is_rtok_hook_command

JsonPath = tuple[str | int, ...]


def _is_owned_handler(
    handler: object, agent: str, command_key: str = "command", edited: bool = False
) -> bool:
    """rtok's handler; with `edited`, also one whose command the user changed after rtok's
    words (what an uninstall removes)."""
    if not isinstance(handler, dict):
        return False
    if handler.get("type", "command") != "command":
        return False
    command = handler.get(command_key)
    return is_rtok_hook_command(command, agent) or (
        edited and is_edited_rtok_hook_command(command, agent)
    )


def edited_commands(
    data: bytes | None, container: JsonPath, agent: str, command_key: str, grouped: bool, label: str
) -> list[str]:
    """Commands of rtok's entries that the user changed (e.g. appended a flag)."""
    if not data or not data.strip():
        return []
    items = jsonc.get(data, container, None, label=label)
    found: list[str] = []
    for item in items if isinstance(items, list) else []:
        handlers = item.get("hooks") if grouped and isinstance(item, dict) else [item]
        for handler in handlers if isinstance(handlers, list) else []:
            command = handler.get(command_key) if isinstance(handler, dict) else None
            if isinstance(command, str) and is_edited_rtok_hook_command(command, agent):
                found.append(command)
    return found


def desired_group(target: Target) -> dict[str, object]:
    handler: dict[str, object] = {"type": "command", "command": target.command}
    extra = target.option("handler", {})
    assert isinstance(extra, dict)
    handler.update(extra)
    timeout = target.option("timeout")
    if timeout is not None:
        handler["timeout"] = timeout
    return {"matcher": target.option("matcher"), "hooks": [handler]}


def _container(target: Target) -> JsonPath:
    raw = target.option("container", [])
    assert isinstance(raw, list)
    return tuple(str(step) for step in raw)


def _skeleton(target: Target) -> dict[str, object]:
    raw = target.option("skeleton", {})
    assert isinstance(raw, dict)
    return dict(raw)


def _start(data: bytes | None, target: Target) -> bytes | None:
    """A new file starts with the descriptor's skeleton keys (e.g. `"version": 1`)."""
    if data is not None and data.strip():
        return data
    doc = data
    for key, value in _skeleton(target).items():
        doc = jsonc.set_key(doc, (key,), value, label=target.path)
    return doc


def _finish_removal(data: bytes, target: Target) -> bytes | None:
    """Delete a file rtok created once nothing but its skeleton is left."""
    if not target.ctx.created_by_rtok(target.path):
        return data
    value = jsonc.parse(data, label=target.path)
    if value is None or value == {} or value == _skeleton(target):
        return None
    return data


def _owned_group_paths(
    data: bytes,
    container: JsonPath,
    agent: str,
    command_key: str,
    grouped: bool,
    edited: bool = False,
) -> tuple[list[int], list[JsonPath]]:
    """(indexes of whole entries that are rtok's, paths of rtok handlers inside user groups)."""
    items = jsonc.get(data, container, None)
    whole: list[int] = []
    inner: list[JsonPath] = []
    if not isinstance(items, list):
        return whole, inner
    for index, item in enumerate(items):
        if not grouped:
            if _is_owned_handler(item, agent, command_key, edited):
                whole.append(index)
            continue
        if not isinstance(item, dict) or not isinstance(item.get("hooks"), list):
            continue
        handlers = item["hooks"]
        owned = [
            i for i, h in enumerate(handlers) if _is_owned_handler(h, agent, command_key, edited)
        ]
        if owned and len(owned) == len(handlers):
            whole.append(index)
        else:
            inner.extend((*container, index, "hooks", i) for i in owned)
    return whole, inner


def _remove_owned(
    data: bytes, target: Target, command_key: str, grouped: bool, edited: bool = False
) -> bytes:
    container = _container(target)
    whole, inner = _owned_group_paths(data, container, target.agent, command_key, grouped, edited)
    # Handlers inside user groups first (deepest paths, last first), then whole entries.
    for path in sorted(inner, reverse=True):
        data = jsonc.remove_array_item_at(data, path, label=target.path)
    for index in sorted(whole, reverse=True):
        data = jsonc.remove_array_item_at(
            data, (*container, index), prune=len(container), label=target.path
        )
    return data


def _entries_edit(
    target: Target, action: Action, desired: dict[str, object], command_key: str, grouped: bool
) -> FileEdit:
    container = _container(target)
    matcher = f" (matcher {target.option('matcher')})" if grouped else ""
    what = f"rtok's {'.'.join(str(step) for step in container)} hook{matcher}"

    def is_current(data: bytes | None) -> bool:
        items = jsonc.get(data, container, None, label=target.path) if data else None
        if not isinstance(items, list):
            return False
        whole, inner = _owned_group_paths(
            data or b"", container, target.agent, command_key, grouped
        )
        return not inner and len(whole) == 1 and items[whole[0]] == desired

    def install(data: bytes | None) -> bytes | None:
        if data is not None and is_current(data):
            return data
        if data is not None and data.strip():
            jsonc.parse(data, label=target.path)  # refuse an unparseable file up front
            if (
                edited_commands(data, container, target.agent, command_key, grouped, target.path)
                and not _owned_group_paths(data, container, target.agent, command_key, grouped)[0]
            ):
                # rtok's entry with the user's own changes (a flag, another timeout): it
                # is theirs to keep; a second entry would run rtok twice.
                return data
            data = _remove_owned(data, target, command_key, grouped)
        started = _start(data, target)
        return jsonc.append_to_array(started, container, desired, label=target.path)

    def uninstall(data: bytes | None) -> bytes | None:
        return _remove_entries(data, target, command_key, grouped)

    def removal_note(data: bytes | None) -> str | None:
        return hand_edited_note(
            edited_commands(data, container, target.agent, command_key, grouped, target.path)
        )

    def owned(data: bytes | None) -> bytes | None:
        if not data:
            return None
        items = jsonc.get(data, container, None, label=target.path)
        whole, _inner = _owned_group_paths(data, container, target.agent, command_key, grouped)
        if not isinstance(items, list) or not whole:
            return None
        return json.dumps([items[i] for i in whole], sort_keys=True).encode("utf-8")

    transforms = PartTransforms(install, uninstall, owned, removal_note)
    return settings_entry_edit(target, action, transforms, what)


def _remove_entries(
    data: bytes | None, target: Target, command_key: str, grouped: bool
) -> bytes | None:
    if data is None:
        return None
    if not data.strip():
        return data
    removed = _remove_owned(data, target, command_key, grouped, edited=True)
    if removed == data and not target.ctx.created_by_rtok(target.path):
        return data
    return _finish_removal(removed, target)


def json_hook_group(target: Target, action: Action) -> FileEdit:
    return _entries_edit(target, action, desired_group(target), "command", grouped=True)


def json_hook_flat(target: Target, action: Action) -> FileEdit:
    command_key = str(target.option("command_key"))
    entry = target.option("entry", {})
    assert isinstance(entry, dict)
    # type first, then the command, then the rest: the order a person would write
    desired: dict[str, object] = {k: v for k, v in entry.items() if k == "type"}
    desired[command_key] = target.command
    desired.update((k, v) for k, v in entry.items() if k != "type")
    return _entries_edit(target, action, desired, command_key, grouped=False)


def named_group_value(target: Target) -> dict[str, object]:
    handler: dict[str, object] = {"type": "command", "command": target.command}
    timeout = target.option("timeout")
    if timeout is not None:
        handler["timeout"] = timeout
    group = {"matcher": target.option("matcher"), "hooks": [handler]}
    return {"enabled": True, str(target.option("event")): [group]}


def json_named_hooks(target: Target, action: Action) -> FileEdit:
    key = str(target.option("key"))
    desired = named_group_value(target)

    def install(data: bytes | None) -> bytes | None:
        if data and data.strip() and jsonc.get(data, (key,), None, label=target.path) == desired:
            return data
        return jsonc.set_key(data, (key,), desired, label=target.path)

    def uninstall(data: bytes | None) -> bytes | None:
        if data is None or not data.strip():
            return data
        if jsonc.get(data, (key,), None, label=target.path) is None:
            return (
                data
                if not target.ctx.created_by_rtok(target.path)
                else _finish_removal(data, target)
            )
        removed = jsonc.remove_key(data, (key,), label=target.path)
        return _finish_removal(removed, target)

    def owned(data: bytes | None) -> bytes | None:
        value = jsonc.get(data, (key,), None, label=target.path) if data else None
        return None if value is None else json.dumps(value, sort_keys=True).encode("utf-8")

    transforms = PartTransforms(install, uninstall, owned)
    return settings_entry_edit(target, action, transforms, f"the {key!r} hook group")
