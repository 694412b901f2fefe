"""Drive one agent: control run, and install -> rewritten run -> uninstall -> raw run.

`python scripts/e2e/driver.py [--control] AGENT ...` runs agents from the command line
(installing them first); tests/e2e/ calls the same functions and asserts on the results.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from dataclasses import asdict, dataclass, field
from typing import Any

if __package__ in (None, ""):
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from e2e import gitrepo
from e2e.agents import PROFILES, AgentProfile, RunContext, agent_executable, path_dirs
from e2e.descriptors import agent_tier
from e2e.procs import MARKER_NAME, stop_group, sweep_marked

SCRIPTS_DIR = os.path.dirname(os.path.abspath(__file__))
COMMAND = "git log"
PROMPT = f"Run this exact shell command with your shell tool and report its output: `{COMMAND}`"
FINAL_TEXT = "Done."
SYSTEM_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
# rtok's trailer: `[rtok <id> · N lines · expand: rtok expand <id>]`.
TRAILER = re.compile(r"\[rtok (?P<id>[0-9A-Za-z_.:-]+) · (?P<lines>\d+) lines · "
                     r"expand: (?:\S*/)?rtok expand (?P=id)\]")
REPO_ROOT = os.path.dirname(os.path.dirname(SCRIPTS_DIR))
# Run folders and results live in the checkout's git-ignored e2e-artifacts/ (CI uploads it).
ARTIFACTS_DIR = os.environ.get("RTOK_E2E_ARTIFACTS") or os.path.join(REPO_ROOT, "e2e-artifacts")
RESULTS_DIR = os.environ.get("RTOK_E2E_RESULTS") or os.path.join(ARTIFACTS_DIR, "results")
NETNS_SETTING = os.environ.get("RTOK_E2E_NETNS", "auto")
# rtok on the agent's PATH the way `pipx install` puts it there (~/.local/bin). Most hook
# replies name a bare `rtok` in the rewritten command, so the agent's shell must find it.
RTOK_ON_PATH = os.environ.get("RTOK_E2E_RTOK_ON_PATH", "1") != "0"


# --- environment ------------------------------------------------------------------------


RTOK_OVERRIDE = os.environ.get("RTOK_E2E_RTOK", "")  # read at import: tests scrub RTOK_*


def rtok_executable() -> str:
    """The installed `rtok` console script next to the running interpreter."""
    candidate = RTOK_OVERRIDE or os.path.join(os.path.dirname(sys.executable), "rtok")
    if not os.path.exists(candidate):
        raise FileNotFoundError(f"rtok console script not found at {candidate}")
    return os.path.abspath(candidate)


@functools.cache
def netns_available() -> bool:
    """A loopback-only network namespace works here (root, unshare and ip present)."""
    if NETNS_SETTING == "0" or os.geteuid() != 0:
        return False
    if not (shutil.which("unshare") and shutil.which("ip")):
        return False
    probe = subprocess.run(["unshare", "-n", "--", "ip", "link", "set", "lo", "up"],
                           capture_output=True, timeout=30, check=False)
    return probe.returncode == 0


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def user_bin_dirs(home: str) -> list[str]:
    return [os.path.join(home, ".local", "bin")] if RTOK_ON_PATH else []


def base_env(ctx: RunContext, marker: str) -> dict[str, str]:
    """A minimal env: throwaway HOME and XDG dirs, offline switches, no real credentials."""
    home = ctx.home
    return {
        "HOME": home, "USER": "e2e", "LOGNAME": "e2e", "SHELL": "/bin/bash",
        "PATH": os.pathsep.join([*path_dirs(ctx.agent), *user_bin_dirs(home), SYSTEM_PATH]),
        "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "TMPDIR": os.path.join(ctx.run_dir, "tmp"),
        "XDG_CONFIG_HOME": os.path.join(home, ".config"),
        "XDG_DATA_HOME": os.path.join(home, ".local", "share"),
        "XDG_CACHE_HOME": os.path.join(home, ".cache"),
        "XDG_STATE_HOME": os.path.join(home, ".local", "state"),
        "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": os.path.join(home, ".gitconfig"),
        "NO_COLOR": "1", "CI": "1", "TERM": "dumb", "DO_NOT_TRACK": "1",
        "NO_UPDATE_NOTIFIER": "1", "npm_config_update_notifier": "false",
        "NO_PROXY": "127.0.0.1,localhost", "no_proxy": "127.0.0.1,localhost",
        "PWD": ctx.cwd, MARKER_NAME: marker,
    }


# --- results ----------------------------------------------------------------------------


@dataclass
class Session:
    """One agent session against the fake model, and what came back."""

    scenario: str
    folder: str
    returncode: int | None = None
    seconds: float = 0.0
    timed_out: bool = False
    steps: list[dict[str, Any]] = field(default_factory=list)
    requests: int = 0
    offered_tools: list[str] = field(default_factory=list)
    tool_results: list[str] = field(default_factory=list)
    swept_pids: list[int] = field(default_factory=list)
    hook_calls: list[dict[str, Any]] = field(default_factory=list)  # from RTOK_HOOK_LOG

    @property
    def final_output(self) -> str:
        """The output part of the last tool result, unwrapped from JSON shapes."""
        return tool_output_text(self.tool_results[-1]) if self.tool_results else ""


@dataclass
class Check:
    name: str
    ok: bool
    detail: str = ""


@dataclass
class AgentReport:
    """Everything one agent's e2e test learnt; also the input of the README table."""

    agent: str
    label: str
    package: str
    version: str
    kind: str  # "control" | "round_trip" | "project_round_trip"
    passed: bool = False
    checks: list[Check] = field(default_factory=list)
    sessions: list[Session] = field(default_factory=list)
    commands: list[dict[str, Any]] = field(default_factory=list)
    seconds: float = 0.0
    run_dir: str = ""
    netns: bool = False
    finished_at: str = ""

    def check(self, name: str, ok: bool, detail: str = "") -> bool:
        self.checks.append(Check(name, ok, detail))
        return ok

    def failures(self) -> list[Check]:
        return [c for c in self.checks if not c.ok]

    def summary(self) -> str:
        lines = [f"{self.agent} {self.version} {self.kind}: "
                 f"{'PASS' if self.passed else 'FAIL'} in {self.seconds:.1f}s ({self.run_dir})"]
        lines += [f"  [{'ok' if c.ok else 'FAIL'}] {c.name}: {c.detail}"[:600]
                  for c in self.checks]
        return "\n".join(lines)


def tool_output_text(text: str) -> str:
    """The command's output inside an agent's tool-result wrapper (JSON shapes unwrapped)."""
    try:
        value = json.loads(text)
    except ValueError:
        return text
    if isinstance(value, dict):
        parts = [value[k] for k in ("stdout", "output", "result") if isinstance(value.get(k), str)]
        return "\n".join(parts) if parts else text
    if isinstance(value, list):
        parts = [item["result"] for item in value
                 if isinstance(item, dict) and isinstance(item.get("result"), str)]
        return "\n".join(parts) if parts else text
    return text


def read_requests(log_path: str) -> list[dict[str, Any]]:
    if not os.path.exists(log_path):
        return []
    with open(log_path, encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


# --- running ----------------------------------------------------------------------------


def run_session(profile: AgentProfile, ctx: RunContext, env: dict[str, str],
                scenario: str) -> Session:
    """Serve the fake model and run the agent (and its set-up steps) in a sandbox."""
    folder = os.path.join(ctx.run_dir, scenario)
    os.makedirs(folder, exist_ok=True)
    hook_log = os.path.join(folder, "hook.jsonl")
    # `rtok hook` appends one line per call here: proof that the agent ran the hook at all.
    env = {**env, "RTOK_HOOK_LOG": hook_log}
    exe = agent_executable(profile.name)
    steps = [*profile.pre_steps(ctx, exe)]
    argv = profile.command(ctx, exe, PROMPT)
    marker = env[MARKER_NAME]
    step_specs: list[dict[str, Any]] = []
    for step in steps:
        step_specs.append({"name": step.name, "argv": step.argv, "env": env, "cwd": ctx.cwd,
                           "timeout": step.timeout, "required": True,
                           "stdout": os.path.join(folder, f"{step.name}.stdout"),
                           "stderr": os.path.join(folder, f"{step.name}.stderr")})
    step_specs.append({"name": "agent", "argv": argv, "env": env, "cwd": ctx.cwd,
                       "timeout": profile.timeout,
                       "stdout": os.path.join(folder, "agent.stdout"),
                       "stderr": os.path.join(folder, "agent.stderr")})
    budget = float(sum(s["timeout"] for s in step_specs)) + 30
    log_path = os.path.join(folder, "requests.jsonl")
    result_path = os.path.join(folder, "sandbox-result.json")
    netns = netns_available()
    spec: dict[str, Any] = {
        "netns": netns, "marker": marker, "result": result_path,
        "server": {"spec": {"tool_names": profile.tool_names, "command": COMMAND,
                            "final_text": FINAL_TEXT,
                            "follow_suggestions": profile.follow_suggestions, "max_calls": 3},
                   "port": ctx.port, "log": log_path, "lifetime": budget,
                   "ready": os.path.join(folder, "server.ready")},
        "steps": step_specs,
    }
    spec_path = os.path.join(folder, "sandbox.json")
    with open(spec_path, "w", encoding="utf-8") as handle:
        json.dump(spec, handle, indent=1)
    with open(os.path.join(folder, "argv.json"), "w", encoding="utf-8") as handle:
        json.dump({"argv": argv, "env": env}, handle, indent=1)
    launcher = [sys.executable, os.path.join(SCRIPTS_DIR, "sandbox.py"), spec_path]
    if netns:
        launcher = ["unshare", "-n", "--", *launcher]
    start = time.monotonic()
    with open(os.path.join(folder, "sandbox.log"), "wb") as sandbox_log:
        proc = subprocess.Popen(launcher, stdin=subprocess.DEVNULL, stdout=sandbox_log,
                                stderr=subprocess.STDOUT, start_new_session=True,
                                env={"PATH": SYSTEM_PATH, "LANG": "C.UTF-8"})
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(timeout=budget + 15)
        stop_group(proc, grace=2.0)
    session = Session(scenario, folder, seconds=time.monotonic() - start)
    session.swept_pids = sweep_marked(marker)
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
    return session


def output_is_empty(session: Session) -> bool:
    """No tool result, or one whose command output is empty (seen once from Qwen Code under
    load: `Output: (empty)` for a `git log` that prints 14 kB)."""
    if not session.tool_results:
        return True
    text = session.final_output
    return not text.strip() or "Output: (empty)" in text


def run_session_retrying(report: AgentReport, profile: AgentProfile, ctx: RunContext,
                         env: dict[str, str], scenario: str) -> Session:
    """One retry when the agent brought back no output at all; the report says so."""
    session = run_session(profile, ctx, env, scenario)
    if output_is_empty(session) and not session.timed_out:
        report.check(f"{scenario}: first attempt brought back output", True,
                     "empty or missing tool result; retried once "
                     f"(first attempt kept in {session.folder})")
        session = run_session(profile, ctx, env, scenario + "-retry")
    return session


def run_rtok(rtok: str, args: list[str], env: dict[str, str], cwd: str,
             folder: str, name: str) -> dict[str, Any]:
    """Run the real rtok CLI with the run's env; keep its output in the run folder."""
    start = time.monotonic()
    proc = subprocess.run([rtok, *args], env=env, cwd=cwd, capture_output=True,
                          stdin=subprocess.DEVNULL, timeout=120, check=False)
    for suffix, data in (("stdout", proc.stdout), ("stderr", proc.stderr)):
        with open(os.path.join(folder, f"{name}.{suffix}"), "wb") as handle:
            handle.write(data)
    return {"name": name, "argv": [rtok, *args], "returncode": proc.returncode,
            "seconds": round(time.monotonic() - start, 3),
            "stdout": proc.stdout.decode(errors="replace"),
            "stderr": proc.stderr.decode(errors="replace")}


@dataclass
class Workspace:
    """A run's throwaway HOME, repository and folders."""

    ctx: RunContext
    env: dict[str, str]
    raw_log: bytes


def make_workspace(agent: str, work_root: str, template: str | None = None) -> Workspace:
    run_dir = tempfile.mkdtemp(prefix=f"{agent}-", dir=work_root)
    home = os.path.join(run_dir, "home")
    for sub in ("", ".config", ".local/share", ".cache", ".local/state"):
        os.makedirs(os.path.join(home, sub), exist_ok=True)
    os.makedirs(os.path.join(run_dir, "tmp"))
    if RTOK_ON_PATH:
        os.makedirs(os.path.join(home, ".local", "bin"))
        os.symlink(rtok_executable(), os.path.join(home, ".local", "bin", "rtok"))
    with open(os.path.join(home, ".gitconfig"), "w", encoding="utf-8") as handle:
        handle.write("[user]\n\tname = Ada Example\n\temail = ada@example.invalid\n"
                     "[safe]\n\tdirectory = *\n")
    repo = os.path.join(run_dir, "repo")
    if template:
        gitrepo.copy_repo(template, repo)
    else:
        gitrepo.make_template(repo, home)
    ctx = RunContext(agent=agent, home=home, cwd=repo, run_dir=run_dir, port=free_port(),
                     hub_port=free_port())
    profile = PROFILES[agent]
    env = base_env(ctx, f"{agent}-{uuid.uuid4().hex}")
    env.update(profile.configure(ctx))
    return Workspace(ctx, env, gitrepo.raw_git_log(repo, home))


# --- verdicts ---------------------------------------------------------------------------


def unescaped(text: str) -> str:
    """Undo the JSON string escaping some agents leave around a command's output."""
    if "\\n" not in text:
        return text.replace("\r\n", "\n")
    try:
        return str(json.loads(f'"{text}"'))
    except ValueError:
        return text.replace("\\n", "\n").replace("\\u00b7", "·").replace('\\"', '"')


def find_trailer(output: str) -> re.Match[str] | None:
    return TRAILER.search(output) or TRAILER.search(unescaped(output))


def looks_raw(output: str, raw_log: bytes) -> tuple[bool, str]:
    """The tool result is git's own output: its first commits verbatim, and no rtok trailer."""
    raw = raw_log.decode()
    head = "\n".join(raw.splitlines()[:30])
    if find_trailer(output):
        return False, "rtok trailer present"
    if head not in output.replace("\r\n", "\n") and head not in unescaped(output):
        return False, f"first 30 lines of git log not found in {len(output)} chars of output"
    oldest = raw.split("commit ")[-1].split("\n", 1)[0]
    return True, f"{len(output)} chars, newest {len(head)} chars verbatim, oldest {oldest[:12]}" \
        + (" present" if oldest in output else " cut by the agent")


def evaluate_rewritten(report: AgentReport, session: Session, ws: Workspace,
                       rtok: str) -> None:
    if agent_tier(report.agent) == "hook":
        calls = [c for c in session.hook_calls if COMMAND in str(c.get("command"))]
        report.check("rewritten: the agent ran rtok's hook for the git log call", bool(calls),
                     json.dumps(calls[:2]) if calls else f"{len(session.hook_calls)} hook calls")
    if PROFILES[report.agent].follow_suggestions:
        evaluate_suggestion(report, session)
    else:
        report.check("rewritten: the hook rewrote the call in place (one shell call)",
                     len(session.tool_results) == 1, f"{len(session.tool_results)} tool results")
    output = session.final_output
    match = find_trailer(output)
    report.check("rewritten: rtok trailer in tool result", bool(match),
                 match.group(0) if match else output[-300:])
    if not match:
        return
    raw = ws.raw_log.decode()
    report.check("rewritten: output shorter than raw git log", len(output) < len(raw),
                 f"{len(output)} < {len(raw)} chars")
    report.check("rewritten: output is not git's raw output",
                 "\n".join(raw.splitlines()[:30]) not in output, "")
    expanded = run_rtok(rtok, ["expand", match.group("id")], ws.env, ws.ctx.cwd,
                        session.folder, "rtok-expand")
    report.commands.append({k: v for k, v in expanded.items() if k not in ("stdout",)})
    report.check("rewritten: rtok expand gives back git's raw bytes",
                 expanded["returncode"] == 0 and expanded["stdout"].encode() == ws.raw_log,
                 f"exit {expanded['returncode']}, {len(expanded['stdout'])} bytes "
                 f"vs {len(ws.raw_log)}")
    rows = ledger_rows(ws)
    wanted = [r for r in rows if r["archive_id"] == match.group("id")]
    report.check("rewritten: ledger row for this run",
                 any(r["command"] == COMMAND and r["raw_bytes"] == len(ws.raw_log)
                     for r in wanted),
                 json.dumps(wanted[-1]) if wanted else f"{len(rows)} rows, none with this id")


def evaluate_suggestion(report: AgentReport, session: Session) -> None:
    """Deny-and-suggest: the first call is refused with the rtok command to run instead,
    the model runs that, and the original command never runs."""
    first = session.tool_results[0] if session.tool_results else ""
    suggested = re.search(r"`([^`]*rtok run git log)`", first)
    report.check("deny-and-suggest: first call denied with the rtok command to run",
                 bool(suggested) and not find_trailer(first) and "commit " not in first,
                 first[:300])
    report.check("deny-and-suggest: the suggested command ran as a second call",
                 len(session.tool_results) == 2, f"{len(session.tool_results)} tool results")


def ledger_rows(ws: Workspace) -> list[dict[str, Any]]:
    """rtok's savings ledger in the run's XDG data dir (`$XDG_DATA_HOME/rtok/ledger.sqlite3`)."""
    import sqlite3

    path = os.path.join(ws.env["XDG_DATA_HOME"], "rtok", "ledger.sqlite3")
    if not os.path.exists(path):
        return []
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    conn.row_factory = sqlite3.Row
    try:
        return [dict(row) for row in conn.execute(
            "SELECT command, family, source, raw_bytes, shown_bytes, exit_code, archive_id "
            "FROM runs ORDER BY id")]
    except sqlite3.Error as exc:
        return [{"error": str(exc), "archive_id": None, "command": "", "raw_bytes": -1}]
    finally:
        conn.close()


def finish(report: AgentReport, start: float, ws: Workspace, keep: bool) -> AgentReport:
    report.passed = bool(report.checks) and not report.failures()
    report.seconds = round(time.monotonic() - start, 2)
    report.finished_at = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    with open(os.path.join(ws.ctx.run_dir, "report.json"), "w", encoding="utf-8") as handle:
        json.dump(asdict(report), handle, indent=1, default=str)
    save_result(report)
    if report.passed and not keep:
        shutil.rmtree(ws.ctx.home, ignore_errors=True)
    return report


def save_result(report: AgentReport) -> None:
    os.makedirs(RESULTS_DIR, exist_ok=True)
    slim = {k: v for k, v in asdict(report).items() if k not in ("sessions", "commands")}
    path = os.path.join(RESULTS_DIR, f"{report.agent}.{report.kind}.json")
    with open(path + ".tmp", "w", encoding="utf-8") as handle:
        json.dump(slim, handle, indent=1)
    os.replace(path + ".tmp", path)


def new_report(agent: str, kind: str, ws: Workspace) -> AgentReport:
    profile = PROFILES[agent]
    return AgentReport(agent, profile.label, profile.package, profile.version, kind,
                       run_dir=ws.ctx.run_dir, netns=netns_available())


def session_ran(report: AgentReport, session: Session) -> bool:
    report.sessions.append(session)
    return report.check(
        f"{session.scenario}: agent called the shell tool and sent back its result",
        bool(session.tool_results) and not session.timed_out,
        f"exit {session.returncode}, {session.seconds:.1f}s, {session.requests} requests, "
        f"{len(session.tool_results)} tool results, timed out: {session.timed_out}, "
        f"tools offered: {session.offered_tools[:12]}")


def control_run(agent: str, work_root: str, template: str | None = None,
                keep: bool = False) -> AgentReport:
    """Plain run without rtok: proves the fake model, offline config and approval work."""
    start = time.monotonic()
    ws = make_workspace(agent, work_root, template)
    report = new_report(agent, "control", ws)
    session = run_session_retrying(report, PROFILES[agent], ws.ctx, ws.env, "control")
    if session_ran(report, session):
        ok, detail = looks_raw(session.final_output, ws.raw_log)
        report.check("control: tool result is git's raw output", ok, detail)
    return finish(report, start, ws, keep)


def round_trip(agent: str, work_root: str, template: str | None = None,
               keep: bool = False, scope: str = "global") -> AgentReport:
    """rtok init -> rewritten run -> rtok uninstall -> raw run, with the real installer.

    scope "global" installs into the user's account (`--global`), "project" into the
    repository the agent works in (no `--global`, run from the repository)."""
    start = time.monotonic()
    rtok = rtok_executable()
    ws = make_workspace(agent, work_root, template)
    report = new_report(agent, "round_trip" if scope == "global" else "project_round_trip", ws)
    profile = PROFILES[agent]
    folder = ws.ctx.run_dir
    scope_args = ["--global"] if scope == "global" else []
    if scope == "project":
        profile.trust_project(ws.ctx)
    init = run_rtok(rtok, ["init", "--agent", agent, *scope_args, "--auto-patch"], ws.env,
                    ws.ctx.cwd, folder, "rtok-init")
    report.commands.append(init)
    if not report.check(f"rtok init ({scope}) --auto-patch exits 0", init["returncode"] == 0,
                        (init["stderr"] or init["stdout"])[-400:]):
        return finish(report, start, ws, keep)
    rewritten = run_session_retrying(report, profile, ws.ctx, ws.env, "rewritten")
    if session_ran(report, rewritten):
        evaluate_rewritten(report, rewritten, ws, rtok)
    uninstall = run_rtok(rtok, ["uninstall", "--agent", agent, *scope_args], ws.env,
                         ws.ctx.cwd, folder, "rtok-uninstall")
    report.commands.append(uninstall)
    if report.check(f"rtok uninstall ({scope}) exits 0", uninstall["returncode"] == 0,
                    (uninstall["stderr"] or uninstall["stdout"])[-400:]):
        raw = run_session_retrying(report, profile, ws.ctx, ws.env, "after-uninstall")
        if session_ran(report, raw):
            ok, detail = looks_raw(raw.final_output, ws.raw_log)
            report.check("after uninstall: tool result is git's raw output", ok, detail)
            report.check("after uninstall: rtok's hook no longer runs", not raw.hook_calls,
                         f"{len(raw.hook_calls)} hook calls")
    return finish(report, start, ws, keep)


def new_work_root(keep_sessions: int = 5) -> str:
    """A fresh folder for this session's runs under e2e-artifacts/runs/; older sessions
    beyond the last few are deleted."""
    runs = os.path.join(ARTIFACTS_DIR, "runs")
    os.makedirs(runs, exist_ok=True)
    sessions = sorted(os.listdir(runs))
    for old in sessions[: max(0, len(sessions) - (keep_sessions - 1))]:
        shutil.rmtree(os.path.join(runs, old), ignore_errors=True)
    return tempfile.mkdtemp(prefix=time.strftime("%Y%m%dT%H%M%SZ-", time.gmtime()), dir=runs)


def main(argv: list[str]) -> int:
    from e2e.install import install_all

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("agents", nargs="*", default=list(PROFILES))
    parser.add_argument("--control", action="store_true", help="plain runs only")
    parser.add_argument("--project", action="store_true", help="project scope, not --global")
    parser.add_argument("--keep", action="store_true", help="keep HOMEs of passing runs")
    parser.add_argument("--work-root", default=None)
    ns = parser.parse_args(argv)
    reports = install_all(ns.agents)
    broken = [k for k, r in reports.items() if not r.ok]
    if broken:
        print("install failed:", ", ".join(broken))
    work_root = ns.work_root or new_work_root()
    os.makedirs(os.path.join(work_root, "template-home"), exist_ok=True)
    template = gitrepo.make_template(os.path.join(work_root, "template-repo"),
                                     os.path.join(work_root, "template-home"))
    failed = 0
    for agent in ns.agents:
        if ns.control:
            report = control_run(agent, work_root, template, ns.keep)
        else:
            report = round_trip(agent, work_root, template, ns.keep,
                                "project" if ns.project else "global")
        print(report.summary(), flush=True)
        failed += not report.passed
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
