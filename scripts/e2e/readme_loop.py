"""The README's way, as a new user follows it: install rtok, `rtok init` on a terminal, then
the agent runs a long command and the `rtok expand ID` its trailer names.

`readme_loop(agent, work_root, via)` copies this checkout, runs the README's first command
(`via="venv"`: read from README.md's first ``sh`` block) or `pipx install . && rtok init`
(`via="pipx"`) in a real pseudo-terminal with a fresh HOME, answers the prompts as a user
would (accept the detected agents, confirm), runs the `doctor` command the "Next:" line
prints, then an agent session whose fake model follows rtok's trailer. The venv way leaves
rtok off PATH on purpose: the agent must still reach `rtok expand` through its hook.
"""

from __future__ import annotations

import contextlib
import os
import re
import select
import shutil
import signal
import subprocess
import sys
import time

from e2e.agents import PROFILES
from e2e.checks import find_trailer, looks_raw, session_ran
from e2e.driver import finish, new_report
from e2e.records import AgentReport
from e2e.session import run_session
from e2e.settings import REPO_ROOT
from e2e.workspace import make_workspace, user_bin_dirs

INSTALL_TIMEOUT_S = 600.0
# Prompts `rtok init` shows on a terminal, and what a user answers to each.
ANSWERS = ((b"which agents?", b"\r"), (b"Apply these", b"y"))


def readme_install_command(readme: str) -> str:
    """The first command of README.md: the first line of its first ``sh`` block."""
    found = re.search(r"```sh\n(.+?)\n```", readme, flags=re.DOTALL)
    if found is None:
        raise ValueError("README.md has no ```sh block")
    return found.group(1).strip()


def copy_checkout(target: str) -> str:
    """This checkout's files (tracked and new, not ignored) as a fresh clone would have."""
    listed = subprocess.run(
        ["git", "-C", REPO_ROOT, "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        capture_output=True,
        check=True,
        timeout=60,
    )
    for name in sorted(set(listed.stdout.decode().split("\0")) - {""}):
        source = os.path.join(REPO_ROOT, name)
        if not os.path.isfile(source):
            continue  # deleted in the work tree
        destination = os.path.join(target, name)
        os.makedirs(os.path.dirname(destination), exist_ok=True)
        shutil.copy2(source, destination)
    return target


def tools_dir(folder: str) -> str:
    """`python3` and `pipx` as a fresh machine with them installed would have on PATH."""
    os.makedirs(folder, exist_ok=True)
    base = getattr(sys, "_base_executable", sys.executable)
    links = {"python3": base, "pipx": os.path.join(os.path.dirname(sys.executable), "pipx")}
    for name, target in links.items():
        if os.path.exists(target):
            os.symlink(target, os.path.join(folder, name))
    return folder


def run_on_terminal(
    command: str, cwd: str, env: dict[str, str], log_path: str, timeout: float = INSTALL_TIMEOUT_S
) -> tuple[int | None, str]:
    """`bash -c command` in a pseudo-terminal, answering ANSWERS in order; (exit, screen)."""
    import pty

    pid, fd = pty.fork()
    if pid == 0:  # the child: the user's shell
        os.chdir(cwd)
        os.execve(
            "/bin/bash",
            ["bash", "-c", command],
            {**env, "TERM": "xterm", "COLUMNS": "120", "LINES": "40"},
        )
    seen = bytearray()
    pending = list(ANSWERS)
    deadline = time.monotonic() + timeout
    code: int | None = None
    try:
        while time.monotonic() < deadline:
            finished, status = os.waitpid(pid, os.WNOHANG)
            if finished:
                code = os.waitstatus_to_exitcode(status)
                break
            ready, _, _ = select.select([fd], [], [], 0.2)
            if ready:
                with contextlib.suppress(OSError):
                    seen.extend(os.read(fd, 65536))
            if pending and pending[0][0] in seen:
                time.sleep(0.5)  # let the prompt take the terminal before typing
                os.write(fd, pending.pop(0)[1])
        else:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
        with contextlib.suppress(OSError):
            while select.select([fd], [], [], 0.2)[0]:
                chunk = os.read(fd, 65536)
                if not chunk:
                    break
                seen.extend(chunk)
    finally:
        os.close(fd)
    screen = seen.decode("utf-8", "replace")
    with open(log_path, "w", encoding="utf-8") as handle:
        handle.write(screen)
    return code, screen


def _plain(screen: str) -> str:
    return re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", screen).replace("\r", "")


def next_doctor_command(screen: str) -> str | None:
    """The doctor command the "Next:" line tells the user to run."""
    found = re.search(r"Next: .*?`([^`]*\bdoctor)`", _plain(screen), flags=re.DOTALL)
    return found.group(1) if found else None


def readme_loop(agent: str, work_root: str, via: str = "venv", keep: bool = False) -> AgentReport:
    start = time.monotonic()
    ws = make_workspace(agent, work_root)
    report = new_report(agent, f"readme_{via}", ws)
    home, folder = ws.ctx.home, ws.ctx.run_dir
    # A new user's machine: no rtok on PATH, the agent's own folder from using it.
    for directory in user_bin_dirs(home):
        with contextlib.suppress(FileNotFoundError):
            os.unlink(os.path.join(directory, "rtok"))
    os.makedirs(os.path.join(home, ".claude"), exist_ok=True)
    dirs = [d for d in ws.env["PATH"].split(os.pathsep) if d not in user_bin_dirs(home)]
    if via == "pipx":  # `pipx ensurepath` puts pipx's bin dir on PATH
        dirs = [os.path.join(home, ".local", "bin"), *dirs]
    env = {**ws.env, "PATH": os.pathsep.join([tools_dir(os.path.join(folder, "tools")), *dirs])}
    env.pop("NO_COLOR", None)
    env.pop("CI", None)
    source = copy_checkout(os.path.join(folder, "rtok-src"))
    with open(os.path.join(source, "README.md"), encoding="utf-8") as handle:
        command = (
            readme_install_command(handle.read())
            if via == "venv"
            else "pipx install . && rtok init"
        )
    code, screen = run_on_terminal(command, source, env, os.path.join(folder, "install.log"))
    if not report.check(
        f"README ({via}): `{command}` on a terminal exits 0", code == 0, _plain(screen)[-600:]
    ):
        return finish(report, start, ws, keep)
    doctor = next_doctor_command(screen)
    if (
        report.check(
            "the Next: line names a doctor command", doctor is not None, _plain(screen)[-400:]
        )
        and doctor is not None
    ):
        ran = subprocess.run(
            ["/bin/bash", "-c", doctor],
            cwd=ws.ctx.cwd,
            env=env,
            capture_output=True,
            timeout=300,
            check=False,
        )
        report.check(
            f"`{doctor}` as printed runs and passes",
            ran.returncode == 0,
            (ran.stdout + ran.stderr).decode(errors="replace")[-600:],
        )
    rtok_on_path = shutil.which("rtok", path=env["PATH"])
    report.check(
        "rtok on PATH as the way promises",
        (rtok_on_path is None) == (via == "venv"),
        f"which rtok: {rtok_on_path}",
    )
    session = run_session(PROFILES[agent], ws.ctx, env, "readme", follow_expand=True)
    if session_ran(report, session):
        _check_expand(report, session.tool_results, ws.raw_log)
    return finish(report, start, ws, keep)


def _check_expand(report: AgentReport, results: list[str], raw_log: bytes) -> None:
    first = results[0] if results else ""
    trailer = find_trailer(first)
    if not report.check(
        "the long command's result ends in rtok's trailer", trailer is not None, first[-300:]
    ):
        return
    assert trailer is not None
    if not report.check(
        "the model ran the `rtok expand ID` the trailer names",
        len(results) >= 2,
        f"{len(results)} tool results",
    ):
        return
    ok, detail = looks_raw(results[1], raw_log)
    report.check(f"`rtok expand {trailer.group('id')}` gave git's raw output back", ok, detail)
    raw = raw_log.decode()
    report.check(
        "every line of git's output came back",
        raw.strip() in results[1].replace("\r\n", "\n"),
        f"{len(results[1])} of {len(raw)} chars",
    )
