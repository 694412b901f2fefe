"""A run's throwaway HOME, repository and environment, and the real rtok CLI run in it."""

from __future__ import annotations

import functools
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass
from typing import Any

from e2e import gitrepo
from e2e.agents import PROFILES, RunContext, path_dirs
from e2e.procs import MARKER_NAME
from e2e.settings import NETNS_SETTING, RTOK_ON_PATH, RTOK_OVERRIDE, SYSTEM_PATH


def rtok_executable() -> str:
    """The installed `rtok` console script next to the running interpreter."""
    candidate = RTOK_OVERRIDE or os.path.join(os.path.dirname(sys.executable), "rtok")
    if not os.path.exists(candidate):
        raise FileNotFoundError(f"rtok console script not found at {candidate}")
    return os.path.abspath(candidate)


@functools.cache
def netns_prefix() -> tuple[str, ...]:
    """The command prefix that gives a loopback-only network namespace here, or ().

    As root: `unshare -n`. Otherwise `unshare -rn` (a user namespace mapping the caller to
    root) where unprivileged user namespaces are enabled. Probed once by bringing `lo` up."""
    if NETNS_SETTING == "0" or not (shutil.which("unshare") and shutil.which("ip")):
        return ()
    candidates = [("unshare", "-n", "--")] if os.geteuid() == 0 else []
    candidates.append(("unshare", "-rn", "--"))
    for prefix in candidates:
        probe = subprocess.run(
            [*prefix, "ip", "link", "set", "lo", "up"], capture_output=True, timeout=30, check=False
        )
        if probe.returncode == 0:
            return prefix
    return ()


def netns_available() -> bool:
    return bool(netns_prefix())


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
        "HOME": home,
        "USER": "e2e",
        "LOGNAME": "e2e",
        "SHELL": "/bin/bash",
        "PATH": os.pathsep.join([*path_dirs(ctx.agent), *user_bin_dirs(home), SYSTEM_PATH]),
        "LANG": "C.UTF-8",
        "LC_ALL": "C.UTF-8",
        "TMPDIR": os.path.join(ctx.run_dir, "tmp"),
        "XDG_CONFIG_HOME": os.path.join(home, ".config"),
        "XDG_DATA_HOME": os.path.join(home, ".local", "share"),
        "XDG_CACHE_HOME": os.path.join(home, ".cache"),
        "XDG_STATE_HOME": os.path.join(home, ".local", "state"),
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_CONFIG_GLOBAL": os.path.join(home, ".gitconfig"),
        "NO_COLOR": "1",
        "CI": "1",
        "TERM": "dumb",
        "DO_NOT_TRACK": "1",
        "NO_UPDATE_NOTIFIER": "1",
        "npm_config_update_notifier": "false",
        "NO_PROXY": "127.0.0.1,localhost",
        "no_proxy": "127.0.0.1,localhost",
        "PWD": ctx.cwd,
        MARKER_NAME: marker,
    }


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
        handle.write(
            "[user]\n\tname = Ada Example\n\temail = ada@example.invalid\n[safe]\n\tdirectory = *\n"
        )
    repo = os.path.join(run_dir, "repo")
    if template:
        gitrepo.copy_repo(template, repo)
    else:
        gitrepo.make_template(repo, home)
    ctx = RunContext(
        agent=agent, home=home, cwd=repo, run_dir=run_dir, port=free_port(), hub_port=free_port()
    )
    profile = PROFILES[agent]
    env = base_env(ctx, f"{agent}-{uuid.uuid4().hex}")
    env.update(profile.configure(ctx))
    return Workspace(ctx, env, gitrepo.raw_git_log(repo, home))


def run_rtok(
    rtok: str, args: list[str], env: dict[str, str], cwd: str, folder: str, name: str
) -> dict[str, Any]:
    """Run the real rtok CLI with the run's env; keep its output in the run folder."""
    start = time.monotonic()
    proc = subprocess.run(
        [rtok, *args],
        env=env,
        cwd=cwd,
        capture_output=True,
        stdin=subprocess.DEVNULL,
        timeout=120,
        check=False,
    )
    for suffix, data in (("stdout", proc.stdout), ("stderr", proc.stderr)):
        with open(os.path.join(folder, f"{name}.{suffix}"), "wb") as handle:
            handle.write(data)
    return {
        "name": name,
        "argv": [rtok, *args],
        "returncode": proc.returncode,
        "seconds": round(time.monotonic() - start, 3),
        "stdout": proc.stdout.decode(errors="replace"),
        "stderr": proc.stderr.decode(errors="replace"),
    }
