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

import contextlib
import io
import json
import os
import shlex
import subprocess
import tempfile
import time
from collections.abc import Iterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import replace

from rtok import fileio, paths
from rtok._fast import launcher
from rtok.compiled.rewrite_hosts import DEFAULT as REWRITE_DEFAULT
from rtok.fileio import sha256_hex
from rtok.hooks.types import HookProtocol, JsonObject, JsonValue, PayloadShape
from rtok.install.specs import DoctorFacts, FileSpec
from rtok.integrity import installed, reach
from rtok.integrity.check import FAIL, PASS, SKIP, WARN, Check
from rtok.integrity.codex_trust import check_codex_trust, runs_rtok_hook
from rtok.integrity.codex_trust import codex_hook_hash as codex_hook_hash
from rtok.integrity.manifest import is_stock_artifact
from rtok.integrity.process import run_captured
from rtok.integrity.records import ArtifactRecord, load_records
from rtok.integrity.verify import (
    candidate_strings,
    check_partial,
    find_unrecorded,
    host_parse_problem,
    init_fix,
    merge_unreadable,
    owned_now,
    permission_file_problems,
    rtok_bins_in,
)

HOOK_TIMEOUT_S = 30.0
REWRITE_SAMPLE = "git status"
DENY_SAMPLE = "git log -3"
PASSTHROUGH_TOOL = "rtok_doctor_probe_tool"
PLUGIN_PASSTHROUGH = "vim notes.txt"


# ------------------------------------------------------------------------ hook commands


def hook_commands_in(text: str, agent: str) -> list[str]:
    """Command strings in `text` that run `<...>/rtok hook <agent>` (directly, or inside
    a shell wrapper such as the fail-closed guard)."""
    found: list[str] = []
    candidates = candidate_strings(text)
    if candidates and candidates[0] == text:
        candidates = candidates[1:]  # not JSON: the literals in it, not the whole text
    for candidate in candidates:
        if runs_rtok_hook(candidate, agent) and candidate not in found:
            found.append(candidate)
    return found


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


def expected_outcome(
    protocol: HookProtocol, payload: JsonObject, cwd: str, env: Mapping[str, str]
) -> tuple[str, str]:
    """(decision kind, reply text) rtok's own decision core gives this payload here."""
    from rtok.hooks.main import respond

    outcome = respond(protocol, payload, env, cwd=cwd)
    return outcome.kind, outcome.reply


def check_reply(shape: PayloadShape, protocol: HookProtocol, kind: str, stdout: str) -> str | None:
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


def host_contract_problem(
    agent: str,
    sample: str,
    stdout: str,
    sample_input: Mapping[str, JsonValue] | None,
    command_key: str = "command",
) -> str | None:
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
            return (
                f"{agent} ignores the rewritten input without {dotted} {wanted!r} (got {found!r})"
            )
    return None


def _at(node: object, path: Sequence[str]) -> object:
    for key in path:
        node = node.get(key) if isinstance(node, dict) else None
    return node


def _doctor_facts(agent: str) -> DoctorFacts | None:
    descriptor = installed.descriptors().get(agent)
    return descriptor.doctor if descriptor is not None else None


def exit_status_reply(code: int, out: str, err: str) -> tuple[int, str]:
    """A host that reads the exit status and stderr (`reply_via = "exit"`): its reply as
    the JSON the templates describe (`{"exit": N, "stderr": …}`), status 0; exit 0 with
    nothing on stdout is "no opinion" (empty reply)."""
    if code == 0:
        return 0, out
    return 0, json.dumps({"exit": code, "stderr": err.rstrip("\n")})


def run_hook_command(
    command: str, payload: Mapping[str, JsonValue], cwd: str, env: Mapping[str, str]
) -> tuple[int | None, str, str]:
    """Run the registered command as the agent does: `/bin/sh -c`, payload on stdin."""
    try:
        done = run_captured(
            ["/bin/sh", "-c", command],
            HOOK_TIMEOUT_S,
            cwd=cwd,
            env=env,
            stdin_text=json.dumps(payload),
        )
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
def deny_sandbox(
    source: str, base: Mapping[str, str]
) -> Iterator[tuple[str, dict[str, str]] | None]:
    """(cwd, env: `base` and the rule's home) in which a temporary permission rule of
    `source` denies DENY_SAMPLE.
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
        env = dict(base)
        root = project
        if rule.home_env:
            root = os.path.join(tmp, "home")
            env[rule.home_env] = root
        target = os.path.join(root, rule.path)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        with open(target, "w", encoding="utf-8") as handle:
            handle.write(rule.content)
        yield project, env


def exercise_hook(agent: str, scope: str, command: str, base: Mapping[str, str]) -> list[Check]:
    """Each sample call through the registered hook `command`, in the agent's hook
    environment built on `base` (the environment doctor runs in)."""
    from rtok.compiled.hook_protocols import PROTOCOLS

    protocol: HookProtocol | None = PROTOCOLS.get(agent)
    if protocol is None:
        return [
            Check(
                agent, scope, "hook", WARN, "no hook protocol known for this agent", command=command
            )
        ]
    shape = protocol["payloads"][0]
    checks: list[Check] = []
    with tempfile.TemporaryDirectory(prefix="rtok-doctor-") as tmp:
        cwd = os.path.realpath(tmp)
        for sample, cmd in (("rewrite", REWRITE_SAMPLE), ("passthrough", None)):
            env = agent_env(agent, cwd, base)
            checks.append(
                _one_sample(
                    agent,
                    scope,
                    sample,
                    command,
                    protocol,
                    shape,
                    sample_payload(shape, cmd, cwd),
                    cwd,
                    env,
                )
            )
        checks.append(_expand_check(agent, scope, command, shape, cwd, agent_env(agent, cwd, base)))
    with deny_sandbox(str(protocol["permissions"]), base) as sandbox:
        if sandbox is None:
            checks.append(
                Check(
                    agent,
                    scope,
                    "deny",
                    SKIP,
                    "the agent's own approval decides; rtok reads no rules of it",
                    command=command,
                )
            )
        else:
            cwd, sandbox_env = sandbox
            env = agent_env(agent, cwd, sandbox_env)
            checks.append(
                _one_sample(
                    agent,
                    scope,
                    "deny",
                    command,
                    protocol,
                    shape,
                    sample_payload(shape, DENY_SAMPLE, cwd),
                    cwd,
                    env,
                )
            )
    return checks


def _one_sample(
    agent: str,
    scope: str,
    sample: str,
    command: str,
    protocol: HookProtocol,
    shape: PayloadShape,
    payload: JsonObject,
    cwd: str,
    env: Mapping[str, str],
) -> Check:
    fix = init_fix(agent, scope, None)
    try:
        kind, _expected = expected_outcome(protocol, payload, cwd, env)
    except Exception as exc:
        return Check(
            agent,
            scope,
            sample,
            WARN,
            f"rtok's own decision for the sample failed: {exc}",
            command=command,
        )
    wanted = {
        "rewrite": ("allow_rewrite", "ask_rewrite"),
        "passthrough": ("passthrough",),
        "deny": ("deny",),
    }[sample]
    if kind not in wanted:
        return Check(
            agent,
            scope,
            sample,
            WARN,
            f"sample not usable here: rtok decides {kind!r} for it",
            command=command,
        )
    started = time.monotonic()
    code, out, err = run_hook_command(command, payload, cwd, env)
    elapsed_ms = (time.monotonic() - started) * 1000
    if code is None:
        return Check(agent, scope, sample, FAIL, f"hook did not run: {err}", fix, command)
    if protocol.get("reply_via") == "exit":
        code, out = exit_status_reply(code, out, err)
    if code != 0:
        detail = _clip(err.strip().splitlines()[-1]) if err.strip() else "no message"
        return Check(agent, scope, sample, FAIL, f"hook exited {code}: {detail}", fix, command, out)
    problem = check_reply(shape, protocol, kind if kind != "passthrough" else "defer", out)
    if problem is None:
        from rtok.hooks.payload import lookup

        sample_input = lookup(payload, shape["input"])
        problem = host_contract_problem(
            agent,
            sample,
            out,
            sample_input if isinstance(sample_input, dict) else None,
            shape["command"][0],
        )
    if problem is None and sample == "rewrite" and REWRITE_SAMPLE not in out:
        problem = f"reply does not carry the command: {_clip(out)!r}"
    if problem is not None:
        return Check(agent, scope, sample, FAIL, problem, fix, command, out)
    what = {
        "rewrite": f"rewrites `{REWRITE_SAMPLE}`",
        "passthrough": "leaves other tools alone",
        "deny": "leaves a denied command to the agent's rule",
    }[sample]
    return Check(
        agent,
        scope,
        sample,
        PASS,
        f"{what}; reply parses as the agent expects ({elapsed_ms:.0f} ms)",
        command=command,
        reply=_clip(out) or None,
    )


def _expand_check(
    agent: str, scope: str, command: str, shape: PayloadShape, cwd: str, env: Mapping[str, str]
) -> Check:
    """The agent's shell can run the `rtok expand` every trailer names."""
    code, out, err = run_hook_command(command, sample_payload(shape, reach.PROBE, cwd), cwd, env)
    if code == 2 and reach.command_in_reply(err):
        out, code = err, 0  # a host that reads only an exit status: the suggestion is there
    if code != 0:
        return Check(
            agent,
            scope,
            "expand",
            FAIL,
            f"the hook failed for `{reach.PROBE}`: {_clip(err) or code}",
            init_fix(agent, scope, None),
            command,
        )
    return _reach_check(agent, scope, command, reach.through_reply(out, cwd, env))


def _reach_check(agent: str, scope: str, command: str, found: reach.Reach) -> Check:
    if found.ok:
        return Check(
            agent,
            scope,
            "expand",
            PASS,
            f"the agent's shell runs `rtok expand` ({found.how}: `{found.command}`)",
            command=command,
        )
    return Check(
        agent,
        scope,
        "expand",
        FAIL,
        f"the agent's shell cannot run `{found.command}` ({found.detail}), so the "
        "model cannot read the full output of a shortened command; `rtok init` "
        f"again repairs the hook and links `rtok` into {paths.user_bin_dir()} when "
        "that is on PATH",
        init_fix(agent, scope, None),
        command,
    )


# ------------------------------------------------------------------------------ plugins

# The permission source `rtok rewrite` reads when the caller names no agent (as doctor
# calls it): the descriptor with `[rewrite] default_rules = true`.
REWRITE_PERMISSION_SOURCE = REWRITE_DEFAULT[0]


def check_stock_file(
    agent: str, scope: str, record: ArtifactRecord, data: bytes, what: str = "plugin"
) -> Check:
    if is_stock_artifact("whole_file", data):
        return Check(agent, scope, "plugin_file", PASS, f"{record.path} is a stock rtok {what}")
    if sha256_hex(data) == record.sha256:
        return Check(
            agent,
            scope,
            "plugin_file",
            WARN,
            f"{record.path} is as rtok wrote it, but from a build whose {what} is "
            "not in this rtok's manifest: reinstall to update it",
            init_fix(agent, scope, record.project_root),
        )
    return Check(
        agent,
        scope,
        "plugin_file",
        FAIL,
        f"{record.path} differs from every {what} rtok shipped (modified)",
        init_fix(agent, scope, record.project_root),
    )


def exercise_plugin(
    agent: str, scope: str, files: Sequence[tuple[ArtifactRecord, bytes]], env: Mapping[str, str]
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
        checks.append(
            Check(agent, scope, "rewrite", FAIL, "the plugin names no absolute rtok path", fix)
        )
        return checks
    for binary in bins:
        checks.extend(_plugin_rewrites(agent, scope, binary, fix, env))
    return checks


def _run_rewrite(
    binary: str, command: str, cwd: str, env: Mapping[str, str], options: Sequence[str] = ()
) -> tuple[int | None, str, str]:
    try:
        done = run_captured(
            [binary, "rewrite", *options, "--", command], HOOK_TIMEOUT_S, cwd=cwd, env=env
        )
    except subprocess.TimeoutExpired:
        return None, "", f"no answer within {HOOK_TIMEOUT_S:.0f}s"
    except OSError as exc:
        return None, "", exc.strerror or str(exc)
    return done.returncode, done.stdout, done.stderr


def _plugin_rewrites(
    agent: str, scope: str, binary: str, fix: str, env: Mapping[str, str]
) -> list[Check]:
    checks: list[Check] = []
    with tempfile.TemporaryDirectory(prefix="rtok-doctor-") as tmp:
        cwd = os.path.realpath(tmp)
        code, out, err = _run_rewrite(binary, REWRITE_SAMPLE, cwd, env)
        ok = code in (0, 3) and REWRITE_SAMPLE in out and "rtok" in out
        message = (
            f"`{binary} rewrite` rewrites `{REWRITE_SAMPLE}` (exit {code})"
            if ok
            else f"`{binary} rewrite {REWRITE_SAMPLE}` gave exit {code}: "
            f"{_clip(err or out) or 'no output'}"
        )
        checks.append(
            _answer_check(agent, scope, "rewrite", ok, message, fix, binary, out, _clip(out))
        )
        # As the plugins call it: they name the rtok to put into the command.
        code, out, err = _run_rewrite(binary, reach.PROBE, cwd, env, ("--rtok-bin", binary))
        checks.append(
            _reach_check(
                agent,
                scope,
                binary,
                reach.through_reply(out if code in (0, 3) else "", cwd, env),
            )
        )
        code, out, _err = _run_rewrite(binary, PLUGIN_PASSTHROUGH, cwd, env)
        what = f"`{PLUGIN_PASSTHROUGH}`"
        left_alone = _left_alone(code, out, 1, what, what)
        checks.append(_answer_check(agent, scope, "passthrough", *left_alone, fix, binary, out))
    with deny_sandbox(REWRITE_PERMISSION_SOURCE, env) as sandbox:
        assert sandbox is not None
        cwd, sandbox_env = sandbox
        code, out, _err = _run_rewrite(binary, DENY_SAMPLE, cwd, sandbox_env)
        denied = f"a command your {_permission_rules_owner()} rules deny"
        left_alone = _left_alone(code, out, 2, denied, "a denied command")
        checks.append(_answer_check(agent, scope, "deny", *left_alone, fix, binary, out))
    return checks


def _left_alone(
    code: int | None, out: str, expected: int, sample: str, short: str
) -> tuple[bool, str]:
    """Whether `rtok rewrite` left a sample alone (exit `expected`, nothing on stdout), and
    the message that says so or what it did instead."""
    if code == expected and not out.strip():
        return True, f"{sample} is left alone (exit {expected})"
    return False, f"{short} gave exit {code}, {_clip(out)!r}"


def _permission_rules_owner() -> str:
    """The agent whose permission rules `rtok rewrite` reads by default."""
    return next(
        (d.display_name for d in installed.descriptors().values() if d.rewrite.default_rules),
        REWRITE_PERMISSION_SOURCE,
    )


def _answer_check(
    agent: str,
    scope: str,
    sample: str,
    ok: bool,
    message: str,
    fix: str,
    binary: str,
    out: str,
    passed_reply: str | None = None,
) -> Check:
    """PASS (with `passed_reply`, when the check shows one), or FAIL with the fix and the
    reply, for one sample `rtok rewrite` answered."""
    if ok:
        return Check(agent, scope, sample, PASS, message, command=binary, reply=passed_reply)
    return Check(agent, scope, sample, FAIL, message, fix, binary, out)


# -------------------------------------------------------------------------------- codex


# ------------------------------------------------------------------------------- driver


def _groups(
    records: Sequence[ArtifactRecord],
) -> dict[tuple[str, str, str | None], list[ArtifactRecord]]:
    groups: dict[tuple[str, str, str | None], list[ArtifactRecord]] = {}
    for record in records:
        groups.setdefault((record.agent, record.scope, record.project_root), []).append(record)
    return groups


def unrecorded_installs(
    records: Sequence[ArtifactRecord], agent: str | None, cwd: str
) -> list[ArtifactRecord]:
    """Records standing in for rtok artifacts found on disk without one (records lost or
    written by another rtok), so their hooks are exercised too."""

    found: list[ArtifactRecord] = []
    for finding in find_unrecorded(records, agent, cwd):
        if finding.agent and finding.path and finding.kind and finding.scope:
            found.append(
                ArtifactRecord(
                    path=finding.path,
                    agent=finding.agent,
                    scope=finding.scope,
                    project_root=finding.project_root,
                    kind=finding.kind,
                    sha256=finding.actual_sha256 or "0" * 64,
                )
            )
    return found


def _hook_group_spec(agent: str, scope: str, root: str | None, path: str) -> FileSpec | None:
    """The descriptor's `json_hook_group` file spec that wrote `path`, if any."""
    descriptor = installed.descriptors().get(agent)
    if descriptor is None:
        return None
    for spec in descriptor.files.get(scope, ()):
        if spec.strategy != "json_hook_group":
            continue
        candidate = (
            paths.expand_user_path(spec.path)
            if scope == "global" or spec.user_file
            else os.path.join(root or "", spec.path)
        )
        if installed.same_path(candidate, path):
            return spec
    return None


def competing_hooks(agent: str, scope: str, root: str | None, path: str, data: bytes) -> list[str]:
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
            if isinstance(command, str) and not runs_rtok_hook(command, agent):
                found.append(command)
    return found


DOCTOR_WORKERS = 4  # agents are checked side by side: the time goes into subprocesses


def doctor(
    agent: str | None = None, cwd: str | None = None, *, env: Mapping[str, str]
) -> list[Check]:
    """Every check of the installs recorded (or found) for `agent` (None: all), run in the
    environment `env` (the caller's): the hook samples read only `env`, and the process's
    environment is never changed."""
    records = [r for r in load_records() if agent is None or r.agent == agent]
    records += unrecorded_installs(records, agent, cwd or os.getcwd())
    groups = sorted(_groups(records).items(), key=lambda kv: str(kv[0]))
    if not groups:
        return []
    installed.descriptors()  # load once, before the workers share it
    # rtok's own decisions for the samples read the host's permission files; the hot
    # path's one-line warning about an unreadable one would report it a second time.
    with (
        contextlib.redirect_stderr(io.StringIO()),
        ThreadPoolExecutor(max_workers=min(DOCTOR_WORKERS, len(groups))) as pool,
    ):
        results = list(
            pool.map(
                lambda item: _doctor_group(item[0][0], item[0][1], item[0][2], item[1], env),
                groups,
            )
        )

    agents = sorted({name for (name, _scope, _root), _group in groups})
    checks = one_report_per_broken_file(
        [check for result in results for check in result],
        permission_file_problems(agents, cwd or os.getcwd(), env),
    )
    return check_launcher(checks) + checks


def one_report_per_broken_file(
    checks: list[Check], unreadable: list[tuple[str, str, str]]
) -> list[Check]:
    """A file its host cannot parse is reported once (host_parse, in the host's terms):
    the hook entry and hook trust checks that fail only because of it, a second record in
    the same file, and the permission reader's report of it are folded into that one."""

    broken = {c.path: c.message for c in checks if c.sample == "host_parse" and c.path}
    merged, rest = merge_unreadable(broken, unreadable)
    blind = {agent for agent, _path, _why in unreadable}  # rtok defers every command
    out: list[Check] = []
    reported: set[str] = set()
    for check in checks:
        if (
            check.agent in blind
            and check.level == WARN
            and "rtok decides 'defer'" in (check.message)
        ):
            continue  # the sample is deferred because of the unreadable file said once
        if check.path in broken:
            if check.sample != "host_parse":
                # A consequence of the broken file, said once above (or a PASS about an
                # entry the host never reads).
                continue
            if check.sample == "host_parse":
                if check.path in reported:
                    continue
                reported.add(check.path)
                check = replace(check, message=merged[check.path])
        out.append(check)
    out.extend(
        Check(
            agent,
            "-",
            "permission_file",
            FAIL,
            f"cannot read the permission rules in {path} ({why}); rtok rewrites nothing "
            f"for {agent} until this is fixed",
            fix=f"correct or remove {shlex.quote(path)}",
            path=path,
        )
        for agent, path, why in rest
    )
    return out


def check_launcher(checks: Sequence[Check]) -> list[Check]:
    """The launcher the hooks run (rtok/_fast/launcher.py): present, and running this rtok."""
    path = paths.launcher()
    named = any(path in (check.command or "") for check in checks)
    if not named and not os.path.exists(path):
        return []
    problems = launcher.problems(path)
    if problems:
        from rtok.invocation import rtok_command

        agent = next((c.agent for c in checks if c.agent != "rtok"), "claude")
        scope = next((c.scope for c in checks if c.agent == agent), "global")
        again = (
            init_fix(agent, scope, None)
            if scope == "global"
            else (f"{rtok_command()} init --agent {agent} --auto-patch")
        )
        return [
            Check(
                "rtok",
                "global",
                "launcher",
                FAIL,
                "; ".join(problems) + " (any `rtok init` writes it again)",
                again,
            )
        ]
    with open(path, encoding="utf-8") as handle:
        python, root = launcher.configured(handle.read())
    return [
        Check("rtok", "global", "launcher", PASS, f"{path} starts {python} with rtok from {root}"),
        *check_preload(path),
    ]


def check_preload(launcher_path: str) -> list[Check]:
    """The preload bundles beside the launcher (rtok/_fast/preload.py, bundles.py): one
    that is ignored (foreign, loose or damaged) costs every hook its speed until it is made
    again."""
    from rtok._fast import bundles

    problems = bundles.problems(launcher_path)
    if not problems:
        return []
    level = FAIL if any(foreign for _, foreign in problems) else WARN
    return [
        Check(
            "rtok",
            "global",
            "preload",
            level,
            "; ".join(text for text, _ in problems),
            "rtok init (any agent, any scope) removes them; the next runs make private ones",
        )
    ]


def _doctor_group(
    name: str, scope: str, root: str | None, group: Sequence[ArtifactRecord], env: Mapping[str, str]
) -> list[Check]:
    checks = _partial_checks(name, group) + _host_parse_checks(name, scope, group)
    tier = installed.tier_of(name)
    if tier == "hook":
        return checks + _doctor_hook_agent(name, scope, root, group, env)
    if tier != "plugin":
        return checks
    files: list[tuple[ArtifactRecord, bytes]] = []
    for record in group:
        if record.kind != "whole_file":
            continue
        data = fileio.read_if_readable(record.path)
        if data is None:
            checks.append(
                Check(
                    name,
                    scope,
                    "plugin_file",
                    FAIL,
                    f"{record.path} is missing",
                    init_fix(name, scope, root),
                )
            )
            continue
        files.append((record, data))
    if files:
        checks.extend(exercise_plugin(name, scope, files, env))
    return checks


def _partial_checks(name: str, group: Sequence[ArtifactRecord]) -> list[Check]:
    """A declined part of the install: say what is missing and how to finish it."""

    return [
        Check(
            name,
            finding.scope or "",
            "partial",
            FAIL,
            f"{finding.message}. Finish it with `{finding.fix}` (or add it by hand: "
            f"`{finding.fix.replace('--auto-patch', '--no-patch')}` prints how)"
            if finding.fix
            else finding.message,
            finding.fix,
        )
        for finding in check_partial(list(group))
    ]


def _host_parse_checks(name: str, scope: str, group: Sequence[ArtifactRecord]) -> list[Check]:

    checks: list[Check] = []
    for record in group:
        data = fileio.read_if_readable(record.path)
        problem = host_parse_problem(record, data) if data is not None else None
        if problem:
            checks.append(
                Check(
                    name,
                    scope,
                    "host_parse",
                    FAIL,
                    f"{record.path}: {problem}",
                    f"correct {record.path}, then run rtok doctor",
                    path=record.path,
                )
            )
    return checks


def _doctor_hook_agent(
    name: str,
    scope: str,
    root: str | None,
    group: Sequence[ArtifactRecord],
    env: Mapping[str, str],
) -> list[Check]:
    fix = init_fix(name, scope, root)
    checks: list[Check] = []
    commands: list[str] = []
    hooks_files: list[str] = []
    for record in group:
        found_checks, found = _hook_record_checks(name, scope, root, record, fix)
        checks.extend(found_checks)
        if record.kind == "whole_file":
            commands.extend(found)  # a hook file the agent executes
            continue
        commands.extend(c for c in found if c not in commands)
        if found and installed.trusts_hooks(name, scope):
            hooks_files.append(record.path)
    for command in commands:
        checks.extend(exercise_hook(name, scope, command, env))
    checks.extend(host_condition_checks(name, scope, bool(commands)))
    checks.extend(borrowed_hook_checks(name, scope, commands))
    for hooks_file in hooks_files:
        checks.extend(check_codex_trust(hooks_file, scope, name, fix))
        checks.extend(codex_inline_hooks(hooks_file, scope, name))
    return checks


def _hook_record_checks(
    name: str, scope: str, root: str | None, record: ArtifactRecord, fix: str
) -> tuple[list[Check], list[str]]:
    """The checks of one recorded hook artifact, and the hook commands it registers."""
    data = fileio.read_if_readable(record.path)
    if record.kind not in ("whole_file", "settings_entry"):
        return [], []
    if data is None:
        return [Check(name, scope, "hook_entry", FAIL, f"{record.path} is missing", fix)], []
    if record.kind == "settings_entry":
        return _settings_entry_checks(name, scope, root, record, data, fix)
    if os.access(record.path, os.X_OK):
        return [check_stock_file(name, scope, record, data, "hook file")], [
            shlex.quote(record.path)
        ]
    return [], []


def _settings_entry_checks(
    name: str, scope: str, root: str | None, record: ArtifactRecord, data: bytes, fix: str
) -> tuple[list[Check], list[str]]:
    """Whether rtok's hook entry in a settings file is still there (and the commands it
    registers), and whether other hooks answer the same calls."""
    owned, reason = owned_now(record, data)
    found = hook_commands_in(owned.decode("utf-8", "replace"), name) if owned else []
    if not found:
        why = reason or "rtok's hook entry is gone or now runs another command"
        return [
            Check(name, scope, "hook_entry", FAIL, f"{record.path}: {why}", fix, path=record.path)
        ], []
    checks = [
        Check(
            name,
            scope,
            "hook_entry",
            PASS,
            f"{record.path} registers {found[0]}",
            command=found[0],
            path=record.path,
        )
    ]
    others = competing_hooks(name, scope, root, record.path, data)
    if others:
        checks.append(
            Check(
                name,
                scope,
                "hook_order",
                WARN,
                f"{len(others)} other hook(s) in {record.path} run for the same calls "
                f"({_clip(others[0], 60)}); when several hooks answer, the agent may drop "
                "rtok's rewrite",
                command=found[0],
            )
        )
    return checks, found


def borrowed_hook_checks(agent: str, scope: str, commands: Sequence[str]) -> list[Check]:
    """Hosts on this machine that load this agent's hooks themselves (rtok.integrity.borrowed)."""
    from rtok.integrity.borrowed import borrowed_checks

    descriptor = installed.descriptors().get(agent)
    if descriptor is None or not commands:
        return []
    return [
        Check(agent, scope, "borrowed", level, message, command=commands[0])
        for level, _host, message in borrowed_checks(descriptor, commands, run_hook_command)
    ]


def codex_inline_hooks(hooks_file: str, scope: str, agent: str) -> list[Check]:
    """Codex reads hooks.json and the `[hooks]` tables of the config.toml beside it as one
    layer: both run (nothing is shadowed), but Codex warns about the two representations."""
    import tomllib

    config = os.path.join(os.path.dirname(os.path.abspath(hooks_file)), "config.toml")
    if installed.same_path(config, hooks_file):
        return []  # rtok's hook is inline itself: one representation
    data = fileio.read_if_readable(config)
    if data is None:
        return []
    try:
        hooks = tomllib.loads(data.decode("utf-8")).get("hooks", {})
    except (tomllib.TOMLDecodeError, UnicodeDecodeError, AttributeError):
        return []
    events = (
        sorted(k for k, v in hooks.items() if k != "state" and v) if isinstance(hooks, dict) else []
    )
    if not events:
        return []
    return [
        Check(
            agent,
            scope,
            "hook_layer",
            WARN,
            f"{config} also defines hooks ({', '.join(events)}): Codex runs them and "
            f"rtok's from {hooks_file} alike, and warns that one layer has both forms",
        )
    ]


def host_condition_checks(agent: str, scope: str, registered: bool) -> list[Check]:
    """The descriptor's `hook_condition`: a host setting rtok cannot see from here (e.g. a
    server-side flag) without which the agent never runs the hook it registered."""
    descriptor = installed.descriptors().get(agent)
    condition = descriptor.hook_condition if descriptor is not None else ""
    if not condition or not registered:
        return []
    return [
        Check(
            agent,
            scope,
            "host_condition",
            WARN,
            f"{condition}; rtok cannot check this, so a hook that never runs can look healthy here",
        )
    ]


def exit_code(checks: Sequence[Check]) -> int:
    return 1 if any(c.level == FAIL for c in checks) else 0
