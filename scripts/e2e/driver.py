"""Drive one agent: control run, and install -> rewritten run -> uninstall -> raw run.

`python scripts/e2e/driver.py [--control | --project] AGENT ...` runs agents from the
command line (installing them first); tests/e2e/ calls the same functions through
scheduler.py and asserts on the reports.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
import time
from dataclasses import asdict

if __package__ in (None, ""):
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from e2e import gitrepo
from e2e.agents import PROFILES
from e2e.checks import evaluate_rewritten, find_trailer, ledger_rows, looks_raw, session_ran
from e2e.records import AgentReport
from e2e.session import run_session, run_session_retrying
from e2e.settings import ARTIFACTS_DIR, COMMAND, DENIED_COMMAND, RESULTS_DIR
from e2e.workspace import Workspace, make_workspace, netns_available, rtok_executable, run_rtok


def finish(report: AgentReport, start: float, ws: Workspace, keep: bool) -> AgentReport:
    report.passed = bool(report.checks) and not report.failures()
    report.seconds = round(time.monotonic() - start, 2)
    report.finished_at = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    with open(os.path.join(ws.ctx.run_dir, "report.json"), "w", encoding="utf-8") as handle:
        json.dump(asdict(report), handle, indent=1, default=str)
    save_result(report)
    if report.passed and not keep:
        # Agents grow these (session stores, npm trees: OpenCode installs its plugin SDK
        # into a project's .opencode/); a passing run keeps only its logs and report.
        for folder in (ws.ctx.home, ws.ctx.cwd, os.path.join(ws.ctx.run_dir, "tmp")):
            shutil.rmtree(folder, ignore_errors=True)
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
    return AgentReport(
        agent,
        profile.label,
        profile.package,
        profile.version,
        kind,
        run_dir=ws.ctx.run_dir,
        netns=netns_available(),
    )


def control_run(
    agent: str, work_root: str, template: str | None = None, keep: bool = False
) -> AgentReport:
    """Plain run without rtok: proves the fake model, offline config and approval work."""
    start = time.monotonic()
    ws = make_workspace(agent, work_root, template)
    report = new_report(agent, "control", ws)
    session = run_session_retrying(report, PROFILES[agent], ws.ctx, ws.env, "control")
    if session_ran(report, session):
        ok, detail = looks_raw(session.final_output, ws.raw_log)
        report.check("control: tool result is git's raw output", ok, detail)
    return finish(report, start, ws, keep)


def round_trip(
    agent: str,
    work_root: str,
    template: str | None = None,
    keep: bool = False,
    scope: str = "global",
) -> AgentReport:
    """rtok init -> rewritten run -> rtok uninstall -> raw run, with the real installer.

    scope "global" installs into the user's account (`--global`), "project" into the
    repository the agent works in (`--project`, run from the repository)."""
    start = time.monotonic()
    rtok = rtok_executable()
    ws = make_workspace(agent, work_root, template)
    report = new_report(agent, "round_trip" if scope == "global" else "project_round_trip", ws)
    profile = PROFILES[agent]
    folder = ws.ctx.run_dir
    scope_args = ["--global"] if scope == "global" else ["--project"]
    if scope == "project":
        profile.trust_project(ws.ctx)
    agent_args = [arg for name in (agent, *profile.companions) for arg in ("--agent", name)]
    init = run_rtok(
        rtok,
        ["init", *agent_args, *scope_args, "--auto-patch"],
        ws.env,
        ws.ctx.cwd,
        folder,
        "rtok-init",
    )
    report.commands.append(init)
    also = f" with {', '.join(profile.companions)}" if profile.companions else ""
    if not report.check(
        f"rtok init ({scope}){also} --auto-patch exits 0",
        init["returncode"] == 0,
        (init["stderr"] or init["stdout"])[-400:],
    ):
        return finish(report, start, ws, keep)
    rewritten = run_session_retrying(report, profile, ws.ctx, ws.env, "rewritten")
    if session_ran(report, rewritten):
        evaluate_rewritten(report, rewritten, ws, rtok)
    uninstall = run_rtok(
        rtok, ["uninstall", *agent_args, *scope_args], ws.env, ws.ctx.cwd, folder, "rtok-uninstall"
    )
    report.commands.append(uninstall)
    if report.check(
        f"rtok uninstall ({scope}) exits 0",
        uninstall["returncode"] == 0,
        (uninstall["stderr"] or uninstall["stdout"])[-400:],
    ):
        raw = run_session_retrying(report, profile, ws.ctx, ws.env, "after-uninstall")
        if session_ran(report, raw):
            ok, detail = looks_raw(raw.final_output, ws.raw_log)
            report.check("after uninstall: tool result is git's raw output", ok, detail)
            report.check(
                "after uninstall: rtok's hook no longer runs",
                not raw.hook_calls,
                f"{len(raw.hook_calls)} hook calls",
            )
    return finish(report, start, ws, keep)


# Agents whose host checks its own `permission.bash` rules (after rtok's plugin ran), and
# the variable naming the config file the run already uses (the hosts merge it after the
# user's global config, so the rule goes there).
PERMISSION_CONFIGS = {"opencode": "OPENCODE_CONFIG", "kilocode": "KILO_CONFIG"}


def deny_run(
    agent: str, work_root: str, template: str | None = None, keep: bool = False
) -> AgentReport:
    """With the host's own rule denying `git push`, a fake-model push stays denied after
    `rtok init`: nothing reaches the remote, and rtok never ran the push."""
    import subprocess

    start = time.monotonic()
    rtok = rtok_executable()
    ws = make_workspace(agent, work_root, template)
    report = new_report(agent, "deny", ws)
    config = ws.env[PERMISSION_CONFIGS[agent]]
    with open(config, encoding="utf-8") as handle:
        settings = json.load(handle)
    settings.setdefault("permission", {})["bash"] = {"*": "allow", "git push *": "deny"}
    with open(config, "w", encoding="utf-8") as handle:
        json.dump(settings, handle, indent=1)
    remote = os.path.join(ws.ctx.run_dir, "remote.git")
    git_env = gitrepo.git_env(ws.ctx.home)
    for args in (
        ["init", "-q", "--bare", remote],
        ["-C", ws.ctx.cwd, "remote", "add", "origin", remote],
    ):
        subprocess.run(["git", *args], env=git_env, check=True, capture_output=True, timeout=60)
    init = run_rtok(
        rtok,
        ["init", "--agent", agent, "--global", "--auto-patch"],
        ws.env,
        ws.ctx.cwd,
        ws.ctx.run_dir,
        "rtok-init",
    )
    report.commands.append(init)
    if not report.check(
        "rtok init (global) --auto-patch exits 0",
        init["returncode"] == 0,
        (init["stderr"] or init["stdout"])[-400:],
    ):
        return finish(report, start, ws, keep)
    session = run_session_retrying(
        report, PROFILES[agent], ws.ctx, ws.env, "denied", DENIED_COMMAND
    )
    report.sessions.append(session)
    report.check(
        "denied: the agent asked for the push",
        session.requests > 0,
        f"{session.requests} requests, {len(session.tool_results)} tool results",
    )
    refs = subprocess.run(
        ["git", "-C", remote, "for-each-ref"],
        env=git_env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    report.check(
        "denied: nothing reached the remote",
        refs.stdout.strip() == "",
        refs.stdout.strip()[:200] or "no refs",
    )
    pushes = [row for row in ledger_rows(ws) if "push" in str(row.get("command"))]
    report.check("denied: rtok never ran the push", not pushes, json.dumps(pushes[:2]))
    report.check(
        "denied: the tool result carries no rtok trailer",
        find_trailer(session.final_output) is None,
        session.final_output[:300],
    )
    report.check(
        "denied: the host's own rule refused the call",
        "git push *" in session.final_output,
        session.final_output[:300],
    )
    return finish(report, start, ws, keep)


def private_rtok(folder: str) -> tuple[str, str]:
    """A venv of its own whose `rtok` runs the rtok under test (a `.pth` file, as an
    editable install has): (venv dir, its rtok script). Deleting the venv is "rtok gone"."""
    import glob
    import subprocess
    import sysconfig

    import rtok

    venv = os.path.join(folder, "rtok-venv")
    subprocess.run(
        [sys.executable, "-m", "venv", "--without-pip", venv],
        check=True,
        capture_output=True,
        timeout=120,
    )
    (site,) = glob.glob(os.path.join(venv, "lib", "python*", "site-packages"))
    with open(os.path.join(site, "rtok_under_test.pth"), "w", encoding="utf-8") as handle:
        handle.write(
            os.path.dirname(os.path.dirname(os.path.abspath(rtok.__file__)))
            + "\n"
            + sysconfig.get_paths()["purelib"]
            + "\n"
        )
    script = os.path.join(venv, "bin", "rtok")
    with open(script, "w", encoding="utf-8") as handle:
        handle.write(
            f"#!{os.path.join(venv, 'bin', 'python')}\n"
            "from rtok.cli.entry import main\nraise SystemExit(main())\n"
        )
    os.chmod(script, 0o755)
    return venv, script


def fail_open_run(
    agent: str,
    work_root: str,
    template: str | None = None,
    keep: bool = False,
    installed_for: str = "claude",
) -> AgentReport:
    """rtok installed for another agent in the repository (project scope), whose hook files
    `agent` loads too; then rtok's venv is deleted: `agent` must still run its commands.

    GitHub Copilot CLI loads a repository's `.claude/settings*.json` hooks and denies the
    tool call when a hook fails, so a registered command that exits 127 blocks it."""
    start = time.monotonic()
    ws = make_workspace(agent, work_root, template)
    report = new_report(agent, "fail_open", ws)
    profile = PROFILES[agent]
    folder = ws.ctx.run_dir
    profile.trust_project(ws.ctx)
    venv, rtok = private_rtok(folder)
    init = run_rtok(
        rtok,
        ["init", "--agent", installed_for, "--project", "--auto-patch"],
        ws.env,
        ws.ctx.cwd,
        folder,
        "rtok-init",
    )
    report.commands.append(init)
    if not report.check(
        f"rtok init --agent {installed_for} (project) exits 0",
        init["returncode"] == 0,
        (init["stderr"] or init["stdout"])[-400:],
    ):
        return finish(report, start, ws, keep)
    with_rtok = run_session_retrying(report, profile, ws.ctx, ws.env, "with-rtok")
    if session_ran(report, with_rtok):
        report.check(
            f"with rtok: {agent} ran {installed_for}'s hook from the repository",
            bool(with_rtok.hook_calls),
            f"{len(with_rtok.hook_calls)} hook calls",
        )
    shutil.rmtree(venv)
    gone = run_session_retrying(report, profile, ws.ctx, ws.env, "rtok-gone")
    if session_ran(report, gone):
        ok, detail = looks_raw(gone.final_output, ws.raw_log)
        report.check("rtok's venv deleted: the command still ran, raw output", ok, detail)
    return finish(report, start, ws, keep)


# Hermes' terminal settings for a backend that is not this machine: an SSH host nobody
# listens on (the run's network is loopback only), so the tool call fails fast.
REMOTE_TERMINAL = (
    "terminal:\n  backend: ssh\n  ssh_host: 127.0.0.1\n  ssh_port: 9\n  ssh_user: nobody\n"
)


def backend_run(
    agent: str, work_root: str, template: str | None = None, keep: bool = False
) -> AgentReport:
    """Hermes with a terminal backend that is not this machine (config.yaml's
    terminal.backend: ssh): the plugin must leave the command alone, since rtok's path
    does not exist there; then with the local backend it rewrites. rtok is registered
    through a wrapper (RTOK_BIN) that logs every call, which is what shows whether the
    plugin asked `rtok rewrite` at all."""
    start = time.monotonic()
    rtok = rtok_executable()
    ws = make_workspace(agent, work_root, template)
    report = new_report(agent, "backend", ws)
    profile = PROFILES[agent]
    folder = ws.ctx.run_dir
    calls = os.path.join(folder, "rtok-calls.log")
    wrapper = os.path.join(folder, "logged", "rtok")
    os.makedirs(os.path.dirname(wrapper))
    with open(wrapper, "w", encoding="utf-8") as handle:
        handle.write(f"#!/bin/sh\nprintf '%s\\n' \"$*\" >> '{calls}'\nexec '{rtok}' \"$@\"\n")
    os.chmod(wrapper, 0o755)
    env = dict(ws.env, RTOK_BIN=wrapper)
    init = run_rtok(
        rtok,
        ["init", "--agent", agent, "--global", "--auto-patch"],
        env,
        ws.ctx.cwd,
        folder,
        "rtok-init",
    )
    report.commands.append(init)
    if not report.check(
        "rtok init (global) --auto-patch exits 0",
        init["returncode"] == 0,
        (init["stderr"] or init["stdout"])[-400:],
    ):
        return finish(report, start, ws, keep)
    config = os.path.join(ws.env["HERMES_HOME"], "config.yaml")
    with open(config, encoding="utf-8") as handle:
        local_config = handle.read()
    with open(config, "w", encoding="utf-8") as handle:
        handle.write(local_config + REMOTE_TERMINAL)
    # The tool call fails there (no SSH host), often with an empty result: not retried.
    remote = run_session(profile, ws.ctx, ws.env, "remote-backend", COMMAND)
    if session_ran(report, remote):
        asked = _logged_calls(calls)
        report.check(
            "remote backend: the plugin never asked rtok to rewrite",
            not any(line.startswith("rewrite") for line in asked),
            f"{len(asked)} rtok calls: {asked[:3]}",
        )
        report.check(
            "remote backend: no rtok trailer in the tool result",
            find_trailer(remote.final_output) is None,
            remote.final_output[:300],
        )
    with open(config, "w", encoding="utf-8") as handle:
        handle.write(local_config)
    local = run_session_retrying(report, profile, ws.ctx, ws.env, "local-backend")
    if session_ran(report, local):
        asked = _logged_calls(calls)
        report.check(
            "local backend: the plugin asked rtok to rewrite git log",
            any(line.startswith("rewrite") and "git log" in line for line in asked),
            f"{len(asked)} rtok calls: {asked[:3]}",
        )
        report.check(
            "local backend: rtok trailer in the tool result",
            find_trailer(local.final_output) is not None,
            local.final_output[-300:],
        )
    return finish(report, start, ws, keep)


def _logged_calls(path: str) -> list[str]:
    try:
        with open(path, encoding="utf-8") as handle:
            return handle.read().splitlines()
    except OSError:
        return []


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
    template = gitrepo.make_template(
        os.path.join(work_root, "template-repo"), os.path.join(work_root, "template-home")
    )
    failed = 0
    for agent in ns.agents:
        if ns.control:
            report = control_run(agent, work_root, template, ns.keep)
        else:
            report = round_trip(
                agent, work_root, template, ns.keep, "project" if ns.project else "global"
            )
        print(report.summary(), flush=True)
        failed += not report.passed
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
