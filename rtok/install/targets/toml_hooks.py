"""TOML targets, edited through rtok.formats.tomltext (whole tables appended and removed).

* `toml_hook_table`: one `[[hooks]]` entry: Mistral Vibe's hooks.toml, Kimi Code's
  config.toml (appended after the user's own tables, which stay as they are).
* `codex_trust`: Codex runs a hook from hooks.json only when `config.toml` trusts its exact
  definition: `[hooks.state."<abs hooks.json>:pre_tool_use:<group>:<handler>"]` with
  `trusted_hash = "sha256:<hex>"`, the SHA-256 of the compact, key-sorted JSON of the
  normalised group. The indexes depend on where rtok's group lands in hooks.json, so the
  entry is computed from the hooks.json that rtok's own edit produces.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping

from rtok.formats import jsonc, tomltext
from rtok.install import fsio
from rtok.install.model import Action, FileEdit
from rtok.install.targets.base import (
    IntegrationError,
    PartTransforms,
    Target,
    delete_if_created,
    hand_edited_note,
    part_edit,
    settings_entry_edit,
)
from rtok.install.targets.commands import is_edited_rtok_hook_command, is_rtok_hook_command

CODEX_EVENT = "pre_tool_use"
# Field names hosts give the tool pattern of a hook table (Vibe, Kimi Code).
MATCHER_KEYS = ("match", "matcher")
CODEX_DEFAULT_TIMEOUT = 600


def toml_hook_table(target: Target, action: Action) -> FileEdit:
    array = str(target.option("array"))
    fields = target.option("fields", {})
    assert isinstance(fields, dict)
    desired = _hook_table(fields, target.command)

    def owned_entry(entry: Mapping[str, object]) -> bool:
        return is_rtok_hook_command(entry.get("command"), target.agent)

    def install(data: bytes | None) -> bytes | None:
        entries = tomltext.get(data, (array,), None, label=target.path) if data else None
        if isinstance(entries, list):
            ours = [e for e in entries if isinstance(e, dict) and owned_entry(e)]
            if ours == [desired]:
                return data
            if ours:
                assert data is not None
                data = tomltext.remove_tables(
                    data, (array,), owned_entry, array=True, label=target.path
                )
        return tomltext.add_table(data, (array,), desired, array=True, label=target.path)

    def edited_entry(entry: Mapping[str, object]) -> bool:
        return is_edited_rtok_hook_command(entry.get("command"), target.agent)

    def remove(data: bytes) -> bytes:
        return tomltext.remove_tables(
            data,
            (array,),
            lambda e: owned_entry(e) or edited_entry(e),
            array=True,
            label=target.path,
        )

    def removal_note(data: bytes | None) -> str | None:
        entries = tomltext.get(data, (array,), None, label=target.path) if data else None
        changed = (
            [str(e.get("command")) for e in entries if isinstance(e, dict) and edited_entry(e)]
            if isinstance(entries, list)
            else []
        )
        return hand_edited_note(changed)

    def owned(data: bytes | None) -> bytes | None:
        entries = tomltext.get(data, (array,), None, label=target.path) if data else None
        if not isinstance(entries, list):
            return None
        ours = [e for e in entries if isinstance(e, dict) and owned_entry(e)]
        return json.dumps(ours, sort_keys=True).encode("utf-8") if ours else None

    transforms = PartTransforms.removing(target, install, remove, owned, removal_note)
    return settings_entry_edit(target, action, transforms, f"rtok's [[{array}]] entry")


def _hook_table(fields: Mapping[str, object], command: str) -> dict[str, object]:
    """The descriptor's fields with rtok's command, placed right after the matcher."""
    desired: dict[str, object] = {}
    for key, value in fields.items():
        desired[key] = value
        if key in MATCHER_KEYS:
            desired["command"] = command
    desired.setdefault("command", command)
    return desired


def _handler_commands(entry: object) -> list[object]:
    if not isinstance(entry, dict) or not isinstance(entry.get("hooks"), list):
        return []
    handlers = entry["hooks"]
    if not handlers or not all(
        isinstance(h, dict) and h.get("type", "command") == "command" for h in handlers
    ):
        return []
    return [h.get("command") for h in handlers]


def toml_hook_group(target: Target, action: Action) -> FileEdit:
    """A Claude-style matcher group as a TOML array-of-tables entry (Codex's inline hooks in
    config.toml): `[[hooks.PreToolUse]]` with `matcher` and `hooks = [{ ... }]`, appended
    after the user's own entries, which are never touched."""
    raw = target.option("container", [])
    container = tuple(str(step) for step in raw) if isinstance(raw, list) else ()
    handler: dict[str, object] = {"type": "command", "command": target.command}
    timeout = target.option("timeout")
    if timeout is not None:
        handler["timeout"] = timeout
    desired: dict[str, object] = {"matcher": target.option("matcher"), "hooks": [handler]}

    def is_ours(entry: Mapping[str, object]) -> bool:
        commands = _handler_commands(entry)
        return bool(commands) and all(is_rtok_hook_command(c, target.agent) for c in commands)

    def is_edited(entry: Mapping[str, object]) -> bool:
        commands = _handler_commands(entry)
        return (
            bool(commands)
            and not is_ours(entry)
            and all(
                is_rtok_hook_command(c, target.agent)
                or is_edited_rtok_hook_command(c, target.agent)
                for c in commands
            )
        )

    def entries(data: bytes | None) -> list[object]:
        found = tomltext.get(data, container, None, label=target.path) if data else None
        return found if isinstance(found, list) else []

    def install(data: bytes | None) -> bytes | None:
        present = entries(data)
        ours = [e for e in present if isinstance(e, dict) and is_ours(e)]
        if ours == [desired]:
            return data
        if not ours and any(isinstance(e, dict) and is_edited(e) for e in present):
            return data  # rtok's entry with the user's changes: theirs to keep
        if ours:
            assert data is not None
            data = tomltext.remove_tables(data, container, is_ours, array=True, label=target.path)
        return tomltext.add_table(data, container, desired, array=True, label=target.path)

    def remove(data: bytes) -> bytes:
        return tomltext.remove_tables(
            data, container, lambda e: is_ours(e) or is_edited(e), array=True, label=target.path
        )

    def removal_note(data: bytes | None) -> str | None:
        return hand_edited_note(
            [
                str(c)
                for e in entries(data)
                if isinstance(e, dict) and is_edited(e)
                for c in _handler_commands(e)
            ]
        )

    def owned(data: bytes | None) -> bytes | None:
        ours = [e for e in entries(data) if isinstance(e, dict) and is_ours(e)]
        return json.dumps(ours, sort_keys=True).encode("utf-8") if ours else None

    transforms = PartTransforms.removing(target, install, remove, owned, removal_note)
    what = f"rtok's [[{'.'.join(container)}]] hook (matcher {target.option('matcher')})"
    return settings_entry_edit(target, action, transforms, what)


def read_document(data: bytes | None, path: str, keys: tuple[str, ...]) -> object:
    """The value at `keys` of a hooks file, JSON or TOML by its name."""
    if path.endswith(".toml"):
        return tomltext.get(data, keys, None, label=path)
    return jsonc.get(data, keys, None, label=path)


# --------------------------------------------------------------------------------------------
# Codex hook trust


def codex_group_hash(group: Mapping[str, object], event: str = CODEX_EVENT) -> str:
    """`sha256:<hex>` of a hooks.json group as Codex hashes it for its trust entry."""
    handlers = []
    raw = group.get("hooks")
    for handler in raw if isinstance(raw, list) else []:
        if not isinstance(handler, dict):
            continue
        handlers.append(
            {
                "async": bool(handler.get("async", False)),
                "command": handler.get("command"),
                "timeout": handler.get("timeout", CODEX_DEFAULT_TIMEOUT),
                "type": handler.get("type", "command"),
            }
        )
    normalised = {"event_name": event, "hooks": handlers, "matcher": group.get("matcher")}
    text = json.dumps(normalised, separators=(",", ":"), sort_keys=True, ensure_ascii=False)
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()


def codex_trust_key(hooks_path: str, group_index: int, handler_index: int = 0) -> str:
    return f"{hooks_path}:{CODEX_EVENT}:{group_index}:{handler_index}"


def owned_group_entries(
    hooks_bytes: bytes | None,
    hooks_path: str,
    container: tuple[str, ...],
    agent: str,
    edited: bool = False,
) -> dict[str, str]:
    """trust key -> trusted_hash for every rtok group in a hooks.json document (with
    `edited`, also groups whose rtok command the user changed)."""
    if not hooks_bytes or not hooks_bytes.strip():
        return {}
    groups = read_document(hooks_bytes, hooks_path, container)
    found: dict[str, str] = {}
    if not isinstance(groups, list):
        return found
    for index, group in enumerate(groups):
        if not isinstance(group, dict) or not isinstance(group.get("hooks"), list):
            continue
        handlers = group["hooks"]
        if handlers and all(
            isinstance(h, dict)
            and h.get("type", "command") == "command"
            and (
                is_rtok_hook_command(h.get("command"), agent)
                or (edited and is_edited_rtok_hook_command(h.get("command"), agent))
            )
            for h in handlers
        ):
            found[codex_trust_key(hooks_path, index)] = codex_group_hash(group)
    return found


def codex_trust(
    target: Target,
    action: Action,
    hooks_path: str,
    container: tuple[str, ...],
    hooks_install: Callable[[bytes | None], bytes | None],
    desired_group: Mapping[str, object],
) -> FileEdit:
    state: tuple[str, ...] = ("hooks", "state")

    def read_hooks() -> bytes | None:
        return fsio.read_target(hooks_path)

    def wanted() -> dict[str, str]:
        return owned_group_entries(hooks_install(read_hooks()), hooks_path, container, target.agent)

    def install(data: bytes | None) -> bytes | None:
        existing = tomltext.get(data, ("hooks",), None, label=target.path) if data else None
        if existing is not None and not isinstance(existing, dict):
            raise IntegrationError(
                f"{target.path}: `hooks` is not a table here, so Codex could not read a "
                "trust entry for rtok's hook; fix the file, or trust the hook in Codex's /hooks"
            )
        for key, digest in wanted().items():
            data = tomltext.add_table(
                data, (*state, key), {"trusted_hash": digest}, label=target.path
            )
        return data

    def uninstall(data: bytes | None) -> bytes | None:
        if data is None:
            return None
        entries = tomltext.get(data, state, None, label=target.path)
        if not isinstance(entries, dict):
            return data
        ours = owned_group_entries(read_hooks(), hooks_path, container, target.agent)
        # The trust of a group whose rtok command the user edited goes with the group.
        edited_keys = set(
            owned_group_entries(read_hooks(), hooks_path, container, target.agent, edited=True)
        ) - set(ours)
        fresh_hash = codex_group_hash(desired_group)
        original = data
        for key, value in entries.items():
            if not isinstance(value, dict) or not key.startswith(f"{hooks_path}:{CODEX_EVENT}:"):
                continue
            digest = value.get("trusted_hash")
            if ours.get(key) == digest or digest == fresh_hash or key in edited_keys:
                data = tomltext.remove_tables(data, (*state, key), label=target.path)
        if data == original:
            return data
        return delete_if_created(data, target)

    def owned(data: bytes | None) -> bytes | None:
        entries = tomltext.get(data, state, None, label=target.path) if data else None
        if not isinstance(entries, dict):
            return None
        keys = wanted()
        ours = {k: v for k, v in entries.items() if k in keys}
        return json.dumps(ours, sort_keys=True).encode("utf-8") if ours else None

    verb = "trust" if action == "install" else "drop the trust entry of"
    return part_edit(
        target,
        action,
        PartTransforms(install, uninstall, owned),
        kind="trust_entry",
        consent=action == "install",
        description=f"{verb} rtok's hook in {hooks_path}",
    )
