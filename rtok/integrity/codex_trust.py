"""Whether Codex trusts rtok's hook: Codex runs a hook only while its config.toml keeps the
hash of that hook's exact definition (the `codex_trust` strategy). Used by `rtok doctor`
and `rtok verify`.
"""

from __future__ import annotations

import json
import os
import tomllib

from rtok import fileio
from rtok.install.targets.toml_hooks import codex_group_hash
from rtok.integrity import installed
from rtok.integrity.check import FAIL, PASS, Check


def codex_hook_hash(command: str, timeout: object, matcher: str, is_async: bool = False) -> str:
    """The hash Codex keeps for a trusted PreToolUse command hook (`sha256:<hex>`)."""
    # One hash function for the installer and doctor: the one Codex computes.
    handler: dict[str, object] = {"async": is_async, "command": command, "type": "command"}
    if timeout is not None:
        handler["timeout"] = timeout
    return codex_group_hash({"matcher": matcher, "hooks": [handler]})


def runs_rtok_hook(command: str, agent: str) -> bool:
    """True when some simple command of `command` (inside `sh -c` scripts too, read by
    rtok.shell as the gate reads them) is `<...>/rtok hook <agent>`."""
    from rtok.shell.segments import TooDeep, permission_commands
    from rtok.shell.words import dequote

    try:
        found = permission_commands(command)
    except TooDeep:
        return False
    for words, _dialect, _direct in found:
        values = [dequote(word) for word in words]
        for i, value in enumerate(values):
            if (
                value is not None
                and os.path.basename(value) in ("rtok", "rtok.exe")
                and values[i + 1 : i + 3] == ["hook", agent]
            ):
                return True
    return False


def toml_problem(path: str) -> str:
    """Why the TOML file at `path` does not parse, as rtok's own TOML reader says it."""
    from rtok.formats.errors import FormatError
    from rtok.formats.tomltext import parse

    try:
        with open(path, "rb") as handle:
            parse(handle.read(), label=path)
    except FormatError as exc:
        return str(exc)
    except OSError as exc:
        return exc.strerror or str(exc)
    return "not valid TOML"


def check_codex_trust(hooks_file: str, scope: str, agent: str, fix: str) -> list[Check]:
    """Is every rtok handler in `hooks_file` trusted in Codex's config.toml? `agent` names
    the descriptor that installs it; `fix` is what a failed check tells the user to run."""
    groups = _pre_tool_use_groups(hooks_file, scope, agent, fix)
    if isinstance(groups, Check):
        return [groups]
    config_path = installed.trust_config(agent, scope)
    state = _trust_state(config_path, scope, agent, fix)
    if isinstance(state, Check):
        return [state]
    checks: list[Check] = []
    absolute = os.path.abspath(hooks_file)
    for gi, group in enumerate(groups):
        if not isinstance(group, dict):
            continue
        for hi, handler in enumerate(group.get("hooks", []) or []):
            command = handler.get("command") if isinstance(handler, dict) else None
            if not isinstance(command, str) or not runs_rtok_hook(command, agent):
                continue
            key = f"{absolute}:pre_tool_use:{gi}:{hi}"
            wanted = codex_hook_hash(
                command,
                handler.get("timeout"),
                str(group.get("matcher", "")),
                bool(handler.get("async", False)),
            )
            entry = state.get(key)
            found = entry.get("trusted_hash") if isinstance(entry, dict) else None
            where = (agent, scope, key, config_path, command, fix)
            checks.append(_hash_check(where, found, wanted))
    if not checks:
        checks.append(
            Check(agent, scope, "codex_trust", FAIL, f"no rtok hook in {hooks_file}", fix)
        )
    return checks


def _pre_tool_use_groups(hooks_file: str, scope: str, agent: str, fix: str) -> list[object] | Check:
    """The PreToolUse hook groups of `hooks_file` (TOML or JSON), or the failed check."""
    data = fileio.read_if_readable(hooks_file)
    if data is None:
        return Check(agent, scope, "codex_trust", FAIL, f"{hooks_file} is missing", fix)
    try:
        text = data.decode("utf-8")
        document = tomllib.loads(text) if hooks_file.endswith(".toml") else json.loads(text)
        groups = document.get("hooks", {}).get("PreToolUse", [])
    except (ValueError, AttributeError, UnicodeDecodeError) as exc:
        return Check(
            agent,
            scope,
            "codex_trust",
            FAIL,
            f"{hooks_file} does not parse: {exc}",
            fix,
            path=hooks_file,
        )
    return groups if isinstance(groups, list) else []


def _trust_state(config_path: str, scope: str, agent: str, fix: str) -> dict[str, object] | Check:
    """Codex's `[hooks.state]` table in `config_path` (empty when there is none), or the
    failed check."""
    try:
        with open(config_path, "rb") as handle:
            config = tomllib.load(handle)
    except FileNotFoundError:
        config = {}
    except tomllib.TOMLDecodeError:
        # Said as verify and init say it (rtok's own TOML reader); re-installing would
        # refuse the file too, so the fix is correcting it.
        return Check(
            agent,
            scope,
            "codex_trust",
            FAIL,
            f"the file does not parse: {toml_problem(config_path)}",
            f"correct {config_path}, then run rtok doctor",
            path=config_path,
        )
    except OSError as exc:
        return Check(
            agent,
            scope,
            "codex_trust",
            FAIL,
            f"{config_path} cannot be read: {exc}",
            fix,
            path=config_path,
        )
    state = config.get("hooks", {}).get("state", {}) if isinstance(config, dict) else {}
    return state if isinstance(state, dict) else {}


def _hash_check(where: tuple[str, str, str, str, str, str], found: object, wanted: str) -> Check:
    """The check of one handler: its trusted hash `found` against the one it has now."""
    agent, scope, key, config_path, command, fix = where
    if found == wanted:
        return Check(
            agent,
            scope,
            "codex_trust",
            PASS,
            f"hook {key} is trusted in {config_path}",
            command=command,
        )
    if found is None:
        return Check(
            agent,
            scope,
            "codex_trust",
            FAIL,
            f"hook {key} is not trusted in {config_path}: Codex skips it silently",
            fix,
            command,
        )
    return Check(
        agent,
        scope,
        "codex_trust",
        FAIL,
        f"hook {key} changed since it was trusted ({found} != {wanted}): Codex skips it",
        fix,
        command,
    )
