"""One agent session: the fake model and the agent, run in a sandbox; what came back."""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
import time
from typing import Any

from e2e.agents import AgentProfile, RunContext, Step, agent_executable
from e2e.procs import MARKER_NAME, stop_group, sweep_marked
from e2e.records import AgentReport, Session, read_requests
from e2e.settings import COMMAND, FINAL_TEXT, SCRIPTS_DIR, SYSTEM_PATH, prompt_for
from e2e.workspace import netns_available, netns_prefix


def run_session(
    profile: AgentProfile,
    ctx: RunContext,
    env: dict[str, str],
    scenario: str,
    command: str = COMMAND,
    follow_expand: bool = False,
    commands: list[str] | None = None,
) -> Session:
    """Serve the fake model and run the agent (and its set-up steps) in a sandbox.
    With `commands`, the fake model sends them one after another (fake_model.py)."""
    folder = os.path.join(ctx.run_dir, scenario)
    os.makedirs(folder, exist_ok=True)
    hook_log = os.path.join(folder, "hook.jsonl")
    # `rtok hook` appends one line per call here: proof that the agent ran the hook at all.
    env = {**env, "RTOK_HOOK_LOG": hook_log}
    exe = agent_executable(profile.name)
    steps = [*profile.pre_steps(ctx, exe)]
    argv = profile.command(ctx, exe, prompt_for(commands[0] if commands else command))
    marker = env[MARKER_NAME]
    step_specs = _step_specs(steps, profile, ctx, env, folder, argv)
    budget = float(sum(s["timeout"] for s in step_specs)) + 30
    log_path = os.path.join(folder, "requests.jsonl")
    result_path = os.path.join(folder, "sandbox-result.json")
    netns = netns_available()
    spec: dict[str, Any] = {
        "netns": netns,
        "marker": marker,
        "result": result_path,
        "server": {
            "spec": {
                "tool_names": profile.tool_names,
                "command": command,
                "final_text": FINAL_TEXT,
                "follow_suggestions": profile.follow_suggestions,
                "max_calls": 3,
                "follow_expand": follow_expand,
                "backend": profile.backend,
                **({"commands": commands} if commands else {}),
            },
            "port": ctx.port,
            "log": log_path,
            "lifetime": budget,
            "ready": os.path.join(folder, "server.ready"),
        },
        "steps": step_specs,
    }
    spec_path = os.path.join(folder, "sandbox.json")
    with open(spec_path, "w", encoding="utf-8") as handle:
        json.dump(spec, handle, indent=1)
    with open(os.path.join(folder, "argv.json"), "w", encoding="utf-8") as handle:
        json.dump({"argv": argv, "env": env}, handle, indent=1)
    launcher = [sys.executable, os.path.join(SCRIPTS_DIR, "sandbox.py"), spec_path]
    if netns:
        launcher = [*netns_prefix(), *launcher]
    start = time.monotonic()
    with open(os.path.join(folder, "sandbox.log"), "wb") as sandbox_log:
        proc = subprocess.Popen(
            launcher,
            stdin=subprocess.DEVNULL,
            stdout=sandbox_log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            env={"PATH": SYSTEM_PATH, "LANG": "C.UTF-8"},
        )
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(timeout=budget + 15)
        stop_group(proc, grace=2.0)
    session = Session(scenario, folder, seconds=time.monotonic() - start)
    session.swept_pids = sweep_marked(marker)
    _read_outcome(session, result_path, hook_log, log_path)
    return session


def _step_specs(
    steps: list[Step],
    profile: AgentProfile,
    ctx: RunContext,
    env: dict[str, str],
    folder: str,
    argv: list[str],
) -> list[dict[str, Any]]:
    """The sandbox's steps: the agent's set-up steps (each required), then the agent."""
    step_specs: list[dict[str, Any]] = []
    for step in steps:
        step_specs.append(
            {
                "name": step.name,
                "argv": step.argv,
                "env": env,
                "cwd": ctx.cwd,
                "timeout": step.timeout,
                "required": True,
                "stdout": os.path.join(folder, f"{step.name}.stdout"),
                "stderr": os.path.join(folder, f"{step.name}.stderr"),
            }
        )
    step_specs.append(
        {
            "name": "agent",
            "argv": argv,
            "env": env,
            "cwd": ctx.cwd,
            "timeout": profile.timeout,
            "stdout": os.path.join(folder, "agent.stdout"),
            "stderr": os.path.join(folder, "agent.stderr"),
        }
    )
    return step_specs


def _read_outcome(session: Session, result_path: str, hook_log: str, log_path: str) -> None:
    """What the sandbox, the hook and the fake model recorded, into SESSION."""
    try:
        with open(result_path, encoding="utf-8") as handle:
            outcome = json.load(handle)
    except (OSError, ValueError):
        outcome = {"steps": [], "swept_pids": []}
    session.steps = outcome["steps"]
    session.swept_pids += outcome["swept_pids"]
    agent_step = next((s for s in session.steps if s["name"] == "agent"), None)
    if agent_step:
        session.returncode = agent_step["returncode"]
        session.timed_out = agent_step["timed_out"]
        session.seconds = agent_step["seconds"]
    else:
        session.timed_out = True
    session.hook_calls = read_requests(hook_log)
    records = read_requests(log_path)
    session.requests = sum(1 for r in records if r.get("method") == "POST")
    for record in records:
        if record.get("offered_tools") and not session.offered_tools:
            session.offered_tools = record["offered_tools"]
        if record.get("tool_results"):
            session.tool_results = [r["text"] for r in record["tool_results"]]


def output_is_empty(session: Session) -> bool:
    """No tool result, or one whose command output is empty (seen from Qwen Code under
    load: `Output: (empty)` for a `git log` that prints 14 kB, twice in a row once; its
    own tracker has the same report, qwen-code issue 3520)."""
    if not session.tool_results:
        return True
    text = session.final_output
    return not text.strip() or "Output: (empty)" in text


# Attempts after the first when the agent brings back no output at all: the checks on
# what it does bring back stay the same.
EMPTY_OUTPUT_RETRIES = 2


def run_session_retrying(
    report: AgentReport,
    profile: AgentProfile,
    ctx: RunContext,
    env: dict[str, str],
    scenario: str,
    command: str = COMMAND,
) -> Session:
    """Retries (at most EMPTY_OUTPUT_RETRIES) while the agent brought back no output at
    all; the report names every attempt that was set aside."""
    session = run_session(profile, ctx, env, scenario, command)
    for attempt in range(1, EMPTY_OUTPUT_RETRIES + 1):
        if not output_is_empty(session) or session.timed_out:
            break
        report.check(
            f"{scenario}: attempt {attempt} brought back output",
            True,
            f"empty or missing tool result; tried again (attempt kept in {session.folder})",
        )
        suffix = "-retry" if attempt == 1 else f"-retry{attempt}"
        session = run_session(profile, ctx, env, scenario + suffix, command)
    return session
