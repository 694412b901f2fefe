"""`rtok doctor`: run each installed hook the way its agent runs it, and check the replies.

Hook-tier agents: the command registered in the agent's settings is run through `/bin/sh
-c`, in the agent's environment, with sample payloads in the agent's own shape: a
rewritable shell command, a call of another tool (passthrough), and a command a temporary
permission rule denies (for agents whose rules rtok reads). Each reply must parse as the
agent's format says (the reply templates of its descriptor). Plugin-tier agents: the plugin
file must be a stock rtok file, and `rtok rewrite` as the plugin calls it must answer by its
0/1/2/3 contract. Codex: the hook must be trusted in config.toml, or Codex skips it.
"""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import asdict, dataclass

from rtok import launcher, paths
from rtok.compiled.rewrite_hosts import DEFAULT as REWRITE_DEFAULT
from rtok.fileio import sha256_hex
from rtok.hooks.types import HookProtocol, JsonObject, JsonValue, PayloadShape
from rtok.install.descriptor import DoctorFacts, FileSpec
from rtok.install.targets.toml_hooks import codex_group_hash
from rtok.integrity import installed
from rtok.integrity.manifest import is_stock_artifact
from rtok.integrity.records import ArtifactRecord, load_records
from rtok.integrity.verify import candidate_strings, init_fix, owned_now, rtok_bins_in

PASS, FAIL, WARN, SKIP = "PASS", "FAIL", "WARN", "SKIP"
HOOK_TIMEOUT_S = 30.0
REWRITE_SAMPLE = "git status"
DENY_SAMPLE = "git log -3"
PASSTHROUGH_TOOL = "rtok_doctor_probe_tool"
_ENVIRONMENT_LOCK = threading.Lock()
PLUGIN_PASSTHROUGH = "vim notes.txt"


@dataclass(frozen=True)
class Check:
    agent: str
    scope: str
    sample: str  # rewrite | passthrough | deny | hook_entry | plugin_file | codex_trust | ...
    level: str  # PASS | FAIL | WARN | SKIP
    message: str
    fix: str | None = None
    command: str | None = None
    reply: str | None = None

    def to_json(self) -> dict[str, object]:
        return asdict(self)


# ------------------------------------------------------------------------ hook commands


def hook_commands_in(text: str, agent: str) -> list[str]:
    """Command strings in `text` that run `<...>/rtok hook <agent>` (directly, or inside
    a shell wrapper such as the fail-closed guard)."""
    found: list[str] = []
    candidates = candidate_strings(text)
    if candidates and candidates[0] == text:
        candidates = candidates[1:]  # not JSON: the literals in it, not the whole text
    for candidate in candidates:
        if _runs_rtok_hook(candidate, agent) and candidate not in found:
            found.append(candidate)
    return found


def _runs_rtok_hook(command: str, agent: str) -> bool:
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
            if value is not None and os.path.basename(value) in ("rtok", "rtok.exe") and \
                    values[i + 1:i + 3] == ["hook", agent]:
                return True
    return False


# ------------------------------------------------------------------------------ samples


def _set(payload: JsonObject, path: Sequence[str], value: JsonValue) -> None:
    node = payload
    for key in path[:-1]:
        child = node.setdefault(key, {})
        if not isinstance(child, dict):  # a shape's paths never cross a value
            child = node[key] = {}
        node = child
    node[path[-1]] = value


def sample_payload(shape: PayloadShape, command: str | None, cwd: str) -> JsonObject:
    """A payload in `shape`: a shell call of `command`, or (None) a call of another tool."""
    payload: JsonObject = {"session_id": "rtok-doctor", "cwd": cwd}
    if shape.get("event"):
        _set(payload, shape["event"], shape["events"][0])
    if command is None:
        _set(payload, shape["tool"], PASSTHROUGH_TOOL)
        _set(payload, shape["input"], {"file_path": os.path.join(cwd, "notes.txt")})
        return payload
    _set(payload, shape["tool"], shape["tools"][0])
    key = shape["command"][0]
    value: JsonValue = [command] if shape.get("command_format") == "list" else command
    _set(payload, shape["input"], {key: value, "description": "rtok doctor sample"})
    return payload


def expected_outcome(protocol: HookProtocol, payload: JsonObject, cwd: str,
                     env: Mapping[str, str]) -> tuple[str, str]:
    """(decision kind, reply text) rtok's own decision core gives this payload here."""
    from rtok.hooks.main import respond

    # The decision core reads os.environ (HOME, the agents' config dirs); workers take
    # turns swapping it in.
    with _ENVIRONMENT_LOCK, _environment(env):
        outcome = respond(protocol, payload, cwd=cwd)
    return outcome.kind, outcome.reply


@contextmanager
def _environment(env: Mapping[str, str]) -> Iterator[None]:
    saved = dict(os.environ)
    os.environ.clear()
    os.environ.update(env)
    try:
        yield
    finally:
        os.environ.clear()
        os.environ.update(saved)


def check_reply(shape: PayloadShape, protocol: HookProtocol, kind: str,
                stdout: str) -> str | None:
    """Why `stdout` is not the agent's reply for `kind` (None: it is)."""
    template_text = shape["replies"].get(kind)
    if template_text is None:
        wanted = str(protocol["no_opinion"])
        if stdout.strip() == wanted.strip():
            return None
        return f"expected the no-opinion reply {wanted!r}, got {_clip(stdout)!r}"
    try:
        reply = json.loads(stdout)
    except ValueError:
        return f"reply is not JSON: {_clip(stdout)!r}"
    return _match(json.loads(template_text), reply, shape, "reply")


def _match(template: object, value: object, shape: PayloadShape, where: str) -> str | None:
    if template == "${input}":
        if not isinstance(value, dict):
            return f"{where} should be the tool input object"
        command = value.get(shape["command"][0])
        text = " ".join(command) if isinstance(command, list) else command
        if not isinstance(text, str) or "rtok" not in text:
            return f"{where}.{shape['command'][0]} is not an rtok command: {command!r}"
        return None
    if isinstance(template, str) and "${" in template:
        return None if isinstance(value, str) else f"{where} should be a string"
    if isinstance(template, dict):
        if not isinstance(value, dict):
            return f"{where} should be an object"
        for key, item in template.items():
            if key not in value:
                return f"{where}.{key} is missing"
            problem = _match(item, value[key], shape, f"{where}.{key}")
            if problem:
                return problem
        return None
    if template != value:
        return f"{where} is {value!r}, the agent expects {template!r}"
    return None


def _clip(text: str, limit: int = 160) -> str:
    text = text.strip()
    return text if len(text) <= limit else text[:limit] + "…"


def host_contract_problem(agent: str, sample: str, stdout: str,
                          sample_input: Mapping[str, JsonValue] | None,
                          command_key: str = "command") -> str | None:
    """What the host itself would reject in this reply, or None. Every host takes one
    JSON object or nothing; a rewrite must return the complete tool input with only the
    command changed; Codex applies updatedInput only with permissionDecision "allow"."""
    text = stdout.strip()
    if not text:
        return None
    try:
        reply = json.loads(text)
    except ValueError:
        return "stdout is not exactly one JSON object (the host treats it as a failure)"
    if not isinstance(reply, dict):
        return "stdout is JSON but not an object"
    if sample != "rewrite" or sample_input is None:
        return None
    facts = _doctor_facts(agent)
    if facts is None or not facts.rewrite_input:
        return None
    path = facts.rewrite_input
    node = _at(reply, path)
    if not isinstance(node, dict):
        return f"the rewritten input is not at {'.'.join(path)}, where {agent} reads it"
    for key, value in sample_input.items():
        if key not in node:
            return f"the rewritten input drops {key!r} (the host needs the complete input)"
        if key != command_key and node[key] != value:
            return f"the rewritten input changes {key!r}"
    for dotted, wanted in facts.rewrite_requires.items():
        found = _at(reply, tuple(dotted.split(".")))
        if found != wanted:
            return (f"{agent} ignores the rewritten input without {dotted} {wanted!r} "
                    f"(got {found!r})")
    return None


def _at(node: object, path: Sequence[str]) -> object:
    for key in path:
        node = node.get(key) if isinstance(node, dict) else None
    return node


def _doctor_facts(agent: str) -> DoctorFacts | None:
    descriptor = installed.descriptors().get(agent)
    return descriptor.doctor if descriptor is not None else None


def run_hook_command(command: str, payload: Mapping[str, JsonValue], cwd: str,
                     env: Mapping[str, str]) -> tuple[int | None, str, str]:
    """Run the registered command as the agent does: `/bin/sh -c`, payload on stdin."""
    try:
        done = subprocess.run(["/bin/sh", "-c", command], input=json.dumps(payload),
                              capture_output=True, text=True, cwd=cwd, env=dict(env),
                              timeout=HOOK_TIMEOUT_S, check=False)
    except subprocess.TimeoutExpired:
        return None, "", f"no answer within {HOOK_TIMEOUT_S:.0f}s"
    except OSError as exc:
        return None, "", str(exc)
    return done.returncode, done.stdout, done.stderr


def agent_env(agent: str, cwd: str, base: Mapping[str, str]) -> dict[str, str]:
    """The environment the agent gives its hooks (its descriptor's `[doctor]` hook_env).
    The sample calls are made up: the hook keeps them out of its decision log."""
    env = dict(base)
    env["RTOK_DECISION_LOG"] = "0"
    facts = _doctor_facts(agent)
    if facts is None:
        return env
    for key, value in facts.hook_env_default.items():
        env.setdefault(key, value.replace("${cwd}", cwd))
    for key, value in facts.hook_env.items():
        env[key] = value.replace("${cwd}", cwd)
    return env


@contextmanager
def deny_sandbox(source: str) -> Iterator[tuple[str, dict[str, str]] | None]:
    """(cwd, env) in which a temporary permission rule of `source` denies DENY_SAMPLE.
    A permission source is named after the agent whose rule files it reads; that agent's
    descriptor holds the rule (`[doctor.deny_rule]`)."""
    facts = _doctor_facts(source)
    rule = facts.deny_rule if facts is not None else None
    if rule is None:
        yield None
        return
    with tempfile.TemporaryDirectory(prefix="rtok-doctor-") as tmp:
        project = os.path.join(tmp, "project")
        os.makedirs(os.path.join(project, ".git"))
        env = dict(os.environ)
        root = project
        if rule.home_env:
            root = os.path.join(tmp, "home")
            env[rule.home_env] = root
        target = os.path.join(root, rule.path)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        with open(target, "w", encoding="utf-8") as handle:
            handle.write(rule.content)
        yield project, env


def exercise_hook(agent: str, scope: str, command: str) -> list[Check]:
    from rtok.compiled.hook_protocols import PROTOCOLS

    protocol: HookProtocol | None = PROTOCOLS.get(agent)
    if protocol is None:
        return [Check(agent, scope, "hook", WARN, "no hook protocol known for this agent",
                      command=command)]
    shape = protocol["payloads"][0]
    checks: list[Check] = []
    with tempfile.TemporaryDirectory(prefix="rtok-doctor-") as tmp:
        cwd = os.path.realpath(tmp)
        for sample, cmd in (("rewrite", REWRITE_SAMPLE), ("passthrough", None)):
            env = agent_env(agent, cwd, os.environ)
            checks.append(_one_sample(agent, scope, sample, command, protocol, shape,
                                      sample_payload(shape, cmd, cwd), cwd, env))
    with deny_sandbox(str(protocol["permissions"])) as sandbox:
        if sandbox is None:
            checks.append(Check(agent, scope, "deny", SKIP,
                                "the agent's own approval decides; rtok reads no rules of it",
                                command=command))
        else:
            cwd, base = sandbox
            env = agent_env(agent, cwd, base)
            checks.append(_one_sample(agent, scope, "deny", command, protocol, shape,
                                      sample_payload(shape, DENY_SAMPLE, cwd), cwd, env))
    return checks


def _one_sample(agent: str, scope: str, sample: str, command: str,
                protocol: HookProtocol, shape: PayloadShape,
                payload: JsonObject, cwd: str, env: Mapping[str, str]) -> Check:
    fix = init_fix(agent, scope, None)
    try:
        kind, _expected = expected_outcome(protocol, payload, cwd, env)
    except Exception as exc:
        return Check(agent, scope, sample, WARN,
                     f"rtok's own decision for the sample failed: {exc}", command=command)
    wanted = {"rewrite": ("allow_rewrite", "ask_rewrite"), "passthrough": ("passthrough",),
              "deny": ("deny",)}[sample]
    if kind not in wanted:
        return Check(agent, scope, sample, WARN,
                     f"sample not usable here: rtok decides {kind!r} for it", command=command)
    started = time.monotonic()
    code, out, err = run_hook_command(command, payload, cwd, env)
    elapsed_ms = (time.monotonic() - started) * 1000
    if code is None:
        return Check(agent, scope, sample, FAIL, f"hook did not run: {err}", fix, command)
    if code != 0:
        detail = _clip(err.strip().splitlines()[-1]) if err.strip() else "no message"
        return Check(agent, scope, sample, FAIL, f"hook exited {code}: {detail}", fix,
                     command, out)
    problem = check_reply(shape, protocol, kind if kind != "passthrough" else "defer", out)
    if problem is None:
        from rtok.hooks.payload import lookup

        sample_input = lookup(payload, shape["input"])
        problem = host_contract_problem(
            agent, sample, out, sample_input if isinstance(sample_input, dict) else None,
            shape["command"][0])
    if problem is None and sample == "rewrite" and REWRITE_SAMPLE not in out:
        problem = f"reply does not carry the command: {_clip(out)!r}"
    if problem is not None:
        return Check(agent, scope, sample, FAIL, problem, fix, command, out)
    what = {"rewrite": f"rewrites `{REWRITE_SAMPLE}`", "passthrough": "leaves other tools alone",
            "deny": "leaves a denied command to the agent's rule"}[sample]
    return Check(agent, scope, sample, PASS,
                 f"{what}; reply parses as the agent expects ({elapsed_ms:.0f} ms)",
                 command=command, reply=_clip(out) or None)


# ------------------------------------------------------------------------------ plugins

# The permission source `rtok rewrite` reads when the caller names no agent (as doctor
# calls it): the descriptor with `[rewrite] default_rules = true`.
REWRITE_PERMISSION_SOURCE = REWRITE_DEFAULT[0]


def check_stock_file(agent: str, scope: str, record: ArtifactRecord, data: bytes,
                     what: str = "plugin") -> Check:
    if is_stock_artifact("whole_file", data):
        return Check(agent, scope, "plugin_file", PASS, f"{record.path} is a stock rtok {what}")
    if sha256_hex(data) == record.sha256:
        return Check(agent, scope, "plugin_file", WARN,
                     f"{record.path} is as rtok wrote it, but from a build whose {what} is "
                     "not in this rtok's manifest: reinstall to update it",
                     init_fix(agent, scope, record.project_root))
    return Check(agent, scope, "plugin_file", FAIL,
                 f"{record.path} differs from every {what} rtok shipped (modified)",
                 init_fix(agent, scope, record.project_root))


def exercise_plugin(agent: str, scope: str, files: Sequence[tuple[ArtifactRecord, bytes]]
                    ) -> list[Check]:
    """Stock check of every plugin file, then `rtok rewrite` through each rtok path the
    plugin's files name (a plugin may be several files; one of them holds the path)."""
    checks = [check_stock_file(agent, scope, record, data) for record, data in files]
    bins: list[str] = []
    for _record, data in files:
        bins.extend(b for b in rtok_bins_in(data.decode("utf-8", "replace")) if b not in bins)
    root = files[0][0].project_root if files else None
    fix = init_fix(agent, scope, root)
    if not bins:
        checks.append(Check(agent, scope, "rewrite", FAIL,
                            "the plugin names no absolute rtok path", fix))
        return checks
    for binary in bins:
        checks.extend(_plugin_rewrites(agent, scope, binary, fix))
    return checks


def _run_rewrite(binary: str, command: str, cwd: str,
                 env: Mapping[str, str]) -> tuple[int | None, str, str]:
    try:
        done = subprocess.run([binary, "rewrite", command], capture_output=True, text=True,
                              cwd=cwd, env=dict(env), timeout=HOOK_TIMEOUT_S,
                              stdin=subprocess.DEVNULL, check=False)
    except subprocess.TimeoutExpired:
        return None, "", f"no answer within {HOOK_TIMEOUT_S:.0f}s"
    except OSError as exc:
        return None, "", exc.strerror or str(exc)
    return done.returncode, done.stdout, done.stderr


def _plugin_rewrites(agent: str, scope: str, binary: str, fix: str) -> list[Check]:
    checks: list[Check] = []
    with tempfile.TemporaryDirectory(prefix="rtok-doctor-") as tmp:
        cwd = os.path.realpath(tmp)
        code, out, err = _run_rewrite(binary, REWRITE_SAMPLE, cwd, os.environ)
        if code in (0, 3) and REWRITE_SAMPLE in out and "rtok" in out:
            checks.append(Check(agent, scope, "rewrite", PASS,
                                f"`{binary} rewrite` rewrites `{REWRITE_SAMPLE}` (exit {code})",
                                command=binary, reply=_clip(out)))
        else:
            checks.append(Check(agent, scope, "rewrite", FAIL,
                                f"`{binary} rewrite {REWRITE_SAMPLE}` gave exit {code}: "
                                f"{_clip(err or out) or 'no output'}", fix, binary, out))
        code, out, err = _run_rewrite(binary, PLUGIN_PASSTHROUGH, cwd, os.environ)
        if code == 1 and not out.strip():
            checks.append(Check(agent, scope, "passthrough", PASS,
                                f"`{PLUGIN_PASSTHROUGH}` is left alone (exit 1)", command=binary))
        else:
            checks.append(Check(agent, scope, "passthrough", FAIL,
                                f"`{PLUGIN_PASSTHROUGH}` gave exit {code}, {_clip(out)!r}",
                                fix, binary, out))
    with deny_sandbox(REWRITE_PERMISSION_SOURCE) as sandbox:
        assert sandbox is not None
        cwd, env = sandbox
        code, out, err = _run_rewrite(binary, DENY_SAMPLE, cwd, env)
        if code == 2 and not out.strip():
            owner = next((d.display_name for d in installed.descriptors().values()
                          if d.rewrite.default_rules), REWRITE_PERMISSION_SOURCE)
            checks.append(Check(agent, scope, "deny", PASS,
                                f"a command your {owner} rules deny is left alone (exit 2)",
                                command=binary))
        else:
            checks.append(Check(agent, scope, "deny", FAIL,
                                f"a denied command gave exit {code}, {_clip(out)!r}", fix,
                                binary, out))
    return checks


# -------------------------------------------------------------------------------- codex


def codex_hook_hash(command: str, timeout: object, matcher: str,
                    is_async: bool = False) -> str:
    """The hash Codex keeps for a trusted PreToolUse command hook (`sha256:<hex>`)."""
    # One hash function for the installer and doctor: the one Codex computes.
    handler: dict[str, object] = {"async": is_async, "command": command, "type": "command"}
    if timeout is not None:
        handler["timeout"] = timeout
    return codex_group_hash({"matcher": matcher, "hooks": [handler]})


def check_codex_trust(hooks_file: str, scope: str, agent: str) -> list[Check]:
    """Is every rtok handler in `hooks_file` trusted in Codex's config.toml (the
    `codex_trust` strategy)? `agent` names the descriptor that installs it."""
    import tomllib

    fix = init_fix(agent, scope, None)
    data = installed.read_or_none(hooks_file)
    if data is None:
        return [Check(agent, scope, "codex_trust", FAIL, f"{hooks_file} is missing", fix)]
    try:
        text = data.decode("utf-8")
        document = tomllib.loads(text) if hooks_file.endswith(".toml") else json.loads(text)
        groups = document.get("hooks", {}).get("PreToolUse", [])
    except (ValueError, AttributeError, UnicodeDecodeError) as exc:
        return [Check(agent, scope, "codex_trust", FAIL, f"{hooks_file} does not parse: {exc}",
                      fix)]
    config_path = installed.trust_config(agent, scope)
    try:
        with open(config_path, "rb") as handle:
            config = tomllib.load(handle)
    except FileNotFoundError:
        config = {}
    except (OSError, tomllib.TOMLDecodeError) as exc:
        return [Check(agent, scope, "codex_trust", FAIL,
                      f"{config_path} cannot be read: {exc}", fix)]
    state = config.get("hooks", {}).get("state", {}) if isinstance(config, dict) else {}
    checks: list[Check] = []
    absolute = os.path.abspath(hooks_file)
    for gi, group in enumerate(groups if isinstance(groups, list) else []):
        if not isinstance(group, dict):
            continue
        for hi, handler in enumerate(group.get("hooks", []) or []):
            command = handler.get("command") if isinstance(handler, dict) else None
            if not isinstance(command, str) or not _runs_rtok_hook(command, agent):
                continue
            key = f"{absolute}:pre_tool_use:{gi}:{hi}"
            wanted = codex_hook_hash(command, handler.get("timeout"),
                                     str(group.get("matcher", "")),
                                     bool(handler.get("async", False)))
            entry = state.get(key) if isinstance(state, dict) else None
            found = entry.get("trusted_hash") if isinstance(entry, dict) else None
            if found == wanted:
                checks.append(Check(agent, scope, "codex_trust", PASS,
                                    f"hook {key} is trusted in {config_path}", command=command))
            elif found is None:
                checks.append(Check(agent, scope, "codex_trust", FAIL,
                                    f"hook {key} is not trusted in {config_path}: Codex skips "
                                    "it silently", fix, command))
            else:
                checks.append(Check(agent, scope, "codex_trust", FAIL,
                                    f"hook {key} changed since it was trusted ({found} != "
                                    f"{wanted}): Codex skips it", fix, command))
    if not checks:
        checks.append(Check(agent, scope, "codex_trust", FAIL,
                            f"no rtok hook in {hooks_file}", fix))
    return checks


# ------------------------------------------------------------------------------- driver


def _groups(records: Sequence[ArtifactRecord]
            ) -> dict[tuple[str, str, str | None], list[ArtifactRecord]]:
    groups: dict[tuple[str, str, str | None], list[ArtifactRecord]] = {}
    for record in records:
        groups.setdefault((record.agent, record.scope, record.project_root), []).append(record)
    return groups


def unrecorded_installs(records: Sequence[ArtifactRecord], agent: str | None,
                        cwd: str) -> list[ArtifactRecord]:
    """Records standing in for rtok artifacts found on disk without one (records lost or
    written by another rtok), so their hooks are exercised too."""
    from rtok.integrity.verify import find_unrecorded

    found: list[ArtifactRecord] = []
    for finding in find_unrecorded(records, agent, cwd):
        if finding.agent and finding.path and finding.kind and finding.scope:
            found.append(ArtifactRecord(
                path=finding.path, agent=finding.agent, scope=finding.scope,
                project_root=finding.project_root, kind=finding.kind,
                sha256=finding.actual_sha256 or "0" * 64))
    return found


def _hook_group_spec(agent: str, scope: str, root: str | None, path: str) -> FileSpec | None:
    """The descriptor's `json_hook_group` file spec that wrote `path`, if any."""
    descriptor = installed.descriptors().get(agent)
    if descriptor is None:
        return None
    for spec in descriptor.files.get(scope, ()):
        if spec.strategy != "json_hook_group":
            continue
        candidate = (paths.expand_user_path(spec.path) if scope == "global" or spec.user_file
                     else os.path.join(root or "", spec.path))
        if installed.same_path(candidate, path):
            return spec
    return None


def competing_hooks(agent: str, scope: str, root: str | None, path: str,
                    data: bytes) -> list[str]:
    """Commands of other hooks that run for the same tool call as rtok's. When several
    hooks answer one call the host picks a rewrite in no fixed order, so rtok's may be
    dropped (reported against Claude Code and Codex)."""
    import re

    from rtok.formats import jsonc

    spec = _hook_group_spec(agent, scope, root, path)
    if spec is None:
        return []
    tool = str(spec.options.get("matcher", ""))
    try:
        groups = jsonc.get(data, spec.option_strings("container"), [])
    except Exception:
        return []
    found: list[str] = []
    for group in groups if isinstance(groups, list) else []:
        if not isinstance(group, dict):
            continue
        matcher = group.get("matcher", "")
        if not isinstance(matcher, str):
            continue
        try:
            applies = matcher in ("", "*") or re.fullmatch(matcher, tool) is not None
        except re.error:
            applies = matcher == tool
        if not applies:
            continue
        for handler in group.get("hooks", []) or []:
            command = handler.get("command") if isinstance(handler, dict) else None
            if isinstance(command, str) and not _runs_rtok_hook(command, agent):
                found.append(command)
    return found


DOCTOR_WORKERS = 4  # agents are checked side by side: the time goes into subprocesses


def doctor(agent: str | None = None, cwd: str | None = None) -> list[Check]:
    records = [r for r in load_records() if agent is None or r.agent == agent]
    records += unrecorded_installs(records, agent, cwd or os.getcwd())
    groups = sorted(_groups(records).items(), key=lambda kv: str(kv[0]))
    if not groups:
        return []
    installed.descriptors()  # load once, before the workers share it
    with ThreadPoolExecutor(max_workers=min(DOCTOR_WORKERS, len(groups))) as pool:
        results = list(pool.map(
            lambda item: _doctor_group(item[0][0], item[0][1], item[0][2], item[1]), groups))
    from rtok.integrity.verify import permission_file_problems

    agents = sorted({name for (name, _scope, _root), _group in groups})
    unreadable = [
        Check(agent, "-", "permission_file", FAIL,
              f"cannot read the permission rules in {path} ({why}); rtok rewrites nothing "
              f"for {agent} until this is fixed", fix=f"fix or remove {shlex.quote(path)}")
        for agent, path, why in permission_file_problems(agents, cwd or os.getcwd())
    ]
    checks = [check for result in results for check in result] + unreadable
    return check_launcher(checks) + checks


def check_launcher(checks: Sequence[Check]) -> list[Check]:
    """The launcher the hooks run (rtok/launcher.py): present, and running this rtok."""
    path = paths.launcher()
    named = any(path in (check.command or "") for check in checks)
    if not named and not os.path.exists(path):
        return []
    problems = launcher.problems(path)
    if problems:
        return [Check("rtok", "global", "launcher", FAIL, "; ".join(problems),
                      "rtok init (any agent, any scope) rewrites it")]
    with open(path, encoding="utf-8") as handle:
        python, root = launcher.configured(handle.read())
    return [Check("rtok", "global", "launcher", PASS,
                  f"{path} starts {python} with rtok from {root}")]


def _doctor_group(name: str, scope: str, root: str | None,
                  group: Sequence[ArtifactRecord]) -> list[Check]:
    checks = _partial_checks(name, group) + _host_parse_checks(name, scope, group)
    tier = installed.tier_of(name)
    if tier == "hook":
        return checks + _doctor_hook_agent(name, scope, root, group)
    if tier != "plugin":
        return checks
    files: list[tuple[ArtifactRecord, bytes]] = []
    for record in group:
        if record.kind != "whole_file":
            continue
        data = installed.read_or_none(record.path)
        if data is None:
            checks.append(Check(name, scope, "plugin_file", FAIL, f"{record.path} is missing",
                                init_fix(name, scope, root)))
            continue
        files.append((record, data))
    if files:
        checks.extend(exercise_plugin(name, scope, files))
    return checks


def _partial_checks(name: str, group: Sequence[ArtifactRecord]) -> list[Check]:
    """A declined part of the install: say what is missing and how to finish it."""
    from rtok.integrity.verify import check_partial

    return [
        Check(name, finding.scope or "", "partial", FAIL,
              f"{finding.message}. Finish it with `{finding.fix}` (or add it by hand: "
              f"`{finding.fix.replace('--auto-patch', '--no-patch')}` prints how)"
              if finding.fix else finding.message, finding.fix)
        for finding in check_partial(list(group))
    ]


def _host_parse_checks(name: str, scope: str, group: Sequence[ArtifactRecord]) -> list[Check]:
    from rtok.integrity.verify import host_parse_problem

    checks: list[Check] = []
    for record in group:
        data = installed.read_or_none(record.path)
        problem = host_parse_problem(record, data) if data is not None else None
        if problem:
            checks.append(Check(name, scope, "host_parse", FAIL, f"{record.path}: {problem}",
                                f"fix {record.path}, then rtok doctor"))
    return checks


def _doctor_hook_agent(name: str, scope: str, root: str | None,
                       group: Sequence[ArtifactRecord]) -> list[Check]:
    fix = init_fix(name, scope, root)
    checks: list[Check] = []
    commands: list[str] = []
    hooks_files: list[str] = []
    for record in group:
        data = installed.read_or_none(record.path)
        if record.kind == "whole_file" and data is not None and os.access(record.path, os.X_OK):
            checks.append(check_stock_file(name, scope, record, data, "hook file"))
            commands.append(shlex.quote(record.path))  # a hook file the agent executes
            continue
        if record.kind == "whole_file" and data is None:
            checks.append(Check(name, scope, "hook_entry", FAIL, f"{record.path} is missing",
                                fix))
            continue
        if record.kind != "settings_entry":
            continue
        if data is None:
            checks.append(Check(name, scope, "hook_entry", FAIL,
                                f"{record.path} is missing", fix))
            continue
        owned, reason = owned_now(record, data)
        found = hook_commands_in(owned.decode("utf-8", "replace"), name) if owned else []
        if not found:
            why = reason or "rtok's hook entry is gone or now runs another command"
            checks.append(Check(name, scope, "hook_entry", FAIL, f"{record.path}: {why}", fix))
            continue
        checks.append(Check(name, scope, "hook_entry", PASS,
                            f"{record.path} registers {found[0]}", command=found[0]))
        others = competing_hooks(name, scope, root, record.path, data)
        if others:
            checks.append(Check(
                name, scope, "hook_order", WARN,
                f"{len(others)} other hook(s) in {record.path} run for the same calls "
                f"({_clip(others[0], 60)}); when several hooks answer, the agent may drop "
                "rtok's rewrite", command=found[0]))
        commands.extend(c for c in found if c not in commands)
        if installed.trusts_hooks(name, scope):
            hooks_files.append(record.path)
    for command in commands:
        checks.extend(exercise_hook(name, scope, command))
    checks.extend(host_condition_checks(name, scope, bool(commands)))
    for hooks_file in hooks_files:
        checks.extend(check_codex_trust(hooks_file, scope, name))
        checks.extend(codex_inline_hooks(hooks_file, scope, name))
    return checks


def codex_inline_hooks(hooks_file: str, scope: str, agent: str) -> list[Check]:
    """Codex reads hooks.json and the `[hooks]` tables of the config.toml beside it as one
    layer: both run (nothing is shadowed), but Codex warns about the two representations."""
    import tomllib

    config = os.path.join(os.path.dirname(os.path.abspath(hooks_file)), "config.toml")
    if installed.same_path(config, hooks_file):
        return []  # rtok's hook is inline itself: one representation
    data = installed.read_or_none(config)
    if data is None:
        return []
    try:
        hooks = tomllib.loads(data.decode("utf-8")).get("hooks", {})
    except (tomllib.TOMLDecodeError, UnicodeDecodeError, AttributeError):
        return []
    events = sorted(k for k, v in hooks.items() if k != "state" and v) if isinstance(
        hooks, dict) else []
    if not events:
        return []
    return [Check(agent, scope, "hook_layer", WARN,
                  f"{config} also defines hooks ({', '.join(events)}): Codex runs them and "
                  f"rtok's from {hooks_file} alike, and warns that one layer has both forms")]


def host_condition_checks(agent: str, scope: str, registered: bool) -> list[Check]:
    """The descriptor's `hook_condition`: a host setting rtok cannot see from here (e.g. a
    server-side flag) without which the agent never runs the hook it registered."""
    descriptor = installed.descriptors().get(agent)
    condition = descriptor.hook_condition if descriptor is not None else ""
    if not condition or not registered:
        return []
    return [Check(agent, scope, "host_condition", WARN,
                  f"{condition}; rtok cannot check this, so a hook that never runs can "
                  "look healthy here")]


def exit_code(checks: Sequence[Check]) -> int:
    return 1 if any(c.level == FAIL for c in checks) else 0
