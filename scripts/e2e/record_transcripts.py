"""Record a real agent's own session transcript with rtok installed, for the tests of
`rtok discover` and `rtok session` (tests/store/test_real_transcripts.py).

    .venv/bin/python scripts/e2e/record_transcripts.py claude [codex ...]

For each agent: a fresh e2e workspace, a permission rule of the agent's own denying
`git push`, `rtok init --agent A --global --auto-patch`, then one session with the agent's
transcript storage on (the e2e tier turns it off elsewhere) in which the fake model sends
MIX: a command rtok rewrites, a push the rule denies, a long command rtok has no rewrite
for, the first command again run raw (`RTOK_DISABLED=1`: a raw re-run after a shortened
result) and a short rewritten one. The transcript files the agent wrote and rtok's decision
log are copied to tests/store/fixtures/transcripts/<agent>/ (`home/...` keeps their place
under HOME); nothing is removed from them but the run's own paths, which become the
placeholders `@HOME@` and `@REPO@`.
"""

from __future__ import annotations

import dataclasses
import glob
import json
import os
import shutil
import sys
import tempfile

if __package__ in (None, ""):
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from e2e.agents import PROFILES, AgentProfile, RunContext
from e2e.session import run_session
from e2e.settings import REPO_ROOT
from e2e.workspace import make_workspace, rtok_executable, run_rtok

MIX = [
    "git log",
    "git push origin HEAD:refs/heads/pushed",
    "seq 1 20000",
    "RTOK_DISABLED=1 git log",
    "git status",
]
FIXTURES = os.path.join(REPO_ROOT, "tests", "store", "fixtures", "transcripts")
# Where each agent keeps its transcripts under the run's HOME, and the flag that turns
# their storage off in the e2e tier.
TRANSCRIPTS = {
    "claude": (".claude/projects/*/*.jsonl", "--no-session-persistence"),
    "codex": (".codex/sessions/*/*/*/*.jsonl", "--ephemeral"),
    "gemini": (".gemini/tmp/*/chats/*.jsonl", ""),
}


def deny_push(agent: str, ctx: RunContext) -> None:
    """The agent's own rule denying `git push`, where a user would write it."""
    if agent == "claude":
        path = os.path.join(ctx.home, ".claude", "settings.json")
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as handle:
            json.dump({"permissions": {"deny": ["Bash(git push:*)"]}}, handle)
    elif agent == "gemini":
        path = os.path.join(ctx.home, ".gemini", "settings.json")
        with open(path, encoding="utf-8") as handle:
            settings = json.load(handle)
        settings.setdefault("tools", {})["exclude"] = ["run_shell_command(git push)"]
        with open(path, "w", encoding="utf-8") as handle:
            json.dump(settings, handle, indent=1)
    elif agent == "codex":
        path = os.path.join(ctx.home, ".codex", "rules", "default.rules")
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as handle:
            handle.write('prefix_rule(pattern=["git", "push"], decision="forbidden")\n')


def persistent(profile: AgentProfile) -> AgentProfile:
    flag = TRANSCRIPTS[profile.name][1]
    base = profile.command

    def command(ctx: RunContext, exe: list[str], prompt: str) -> list[str]:
        return [arg for arg in base(ctx, exe, prompt) if arg != flag]

    return dataclasses.replace(profile, command=command, timeout=300.0)


def placeholders(text: str, home: str, repo: str) -> str:
    for path, name in ((repo, "@REPO@"), (home, "@HOME@")):
        text = text.replace(json.dumps(path)[1:-1], name).replace(path, name)
        # Claude Code names a project's folder after its path, `/` and `.` as `-`.
        text = text.replace(path.replace("/", "-").replace(".", "-"), name)
    return text


def record(agent: str, work_root: str) -> str:
    ws = make_workspace(agent, work_root)
    deny_push(agent, ws.ctx)
    init = run_rtok(
        rtok_executable(),
        ["init", "--agent", agent, "--global", "--auto-patch"],
        ws.env,
        ws.ctx.cwd,
        ws.ctx.run_dir,
        "rtok-init",
    )
    if init["returncode"] != 0:
        raise SystemExit(f"rtok init failed: {init['stderr'] or init['stdout']}")
    session = run_session(persistent(PROFILES[agent]), ws.ctx, ws.env, "transcript", commands=MIX)
    if session.timed_out or session.returncode != 0:
        raise SystemExit(f"{agent}: session failed; see {session.folder}")
    target = os.path.join(FIXTURES, agent)
    shutil.rmtree(target, ignore_errors=True)
    pattern, _flag = TRANSCRIPTS[agent]
    data = os.path.join(ws.env["XDG_DATA_HOME"], "rtok", "hook-decisions.jsonl")
    files = [*glob.glob(os.path.join(ws.ctx.home, pattern)), data]
    if agent == "gemini":  # the project's root, which its chats do not name
        files += glob.glob(os.path.join(ws.ctx.home, ".gemini", "tmp", "*", ".project_root"))
    if len(files) < 2:
        raise SystemExit(f"{agent}: no transcript under {ws.ctx.home}/{pattern}")
    for path in files:
        relative = os.path.relpath(path, ws.ctx.home)
        out = os.path.join(target, "home", placeholders(relative, ws.ctx.home, ws.ctx.cwd))
        os.makedirs(os.path.dirname(out), exist_ok=True)
        with open(path, encoding="utf-8") as handle:
            text = placeholders(handle.read(), ws.ctx.home, ws.ctx.cwd)
        with open(out, "w", encoding="utf-8") as handle:
            handle.write(text)
        print(f"{out}: {len(text):,} bytes")
    return target


def main(argv: list[str]) -> int:
    root = tempfile.mkdtemp(prefix="rtok-transcripts-")
    for agent in argv or ["claude"]:
        record(agent, root)
    print(f"run folders: {root}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
