"""The launcher the registered commands run: fast path, fail-open when rtok is gone, repair.

Real shell scripts run by /bin/sh; "rtok gone" is a launcher whose interpreter (a link to
this venv's python, as a venv's own is) or package directory has been deleted.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from rtok import paths
from rtok._fast import launcher
from rtok.install.integrations import load_descriptors
from rtok.install.targets.commands import hook_command, is_rtok_hook_command
from rtok.integrity.verify import rtok_bins_in

HOOK_AGENTS = sorted(name for name, d in load_descriptors().items() if d.tier == "hook")
PAYLOAD = {
    "session_id": "s",
    "hook_event_name": "PreToolUse",
    "tool_name": "Bash",
    "tool_input": {"command": "git status"},
    "command": "git status",
}


def _write_launcher(where: Path, python: str, root: str) -> str:
    path = where / "bin" / "rtok"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(launcher.render(python, root, launcher.no_opinion_replies()))
    path.chmod(0o755)
    return str(path)


@pytest.fixture
def gone_venv(tmp_path: Path) -> str:
    """A launcher whose interpreter existed and then went away with its venv."""
    venv = tmp_path / "venv" / "bin"
    venv.mkdir(parents=True)
    python = venv / "python"
    python.symlink_to(sys.executable)
    path = _write_launcher(tmp_path / "data", str(python), launcher.package_root())
    ran = subprocess.run(
        [path, "rewrite", "git", "status"], capture_output=True, timeout=60, check=False
    )
    assert ran.returncode == 3 and ran.stdout  # it worked while the venv was there
    shutil.rmtree(tmp_path / "venv")
    return path


def _sh(command: str, payload: bytes, cwd: Path) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        ["/bin/sh", "-c", command],
        input=payload,
        capture_output=True,
        cwd=cwd,
        timeout=60,
        check=False,
    )


@pytest.mark.parametrize("agent", HOOK_AGENTS)
def test_registered_command_fails_open_when_the_venv_is_gone(
    agent: str, gone_venv: str, tmp_path: Path
) -> None:
    descriptor = load_descriptors()[agent]
    command = hook_command(
        gone_venv, agent, fail_closed=descriptor.fail_closed, no_opinion=descriptor.no_opinion
    )
    assert is_rtok_hook_command(command, agent)
    done = _sh(command, json.dumps(dict(PAYLOAD, cwd=str(tmp_path))).encode(), tmp_path)
    assert done.returncode == 0
    expected = descriptor.no_opinion + "\n" if descriptor.no_opinion else ""
    assert done.stdout.decode() == expected


def test_package_gone_fails_open_too(tmp_path: Path) -> None:
    path = _write_launcher(tmp_path / "data", sys.executable, str(tmp_path / "no-such-dir"))
    done = _sh(f"{path} hook cursor", b"{}", tmp_path)
    assert (done.returncode, done.stdout) == (0, b"{}\n")


def test_other_verbs_when_rtok_is_gone(gone_venv: str, tmp_path: Path) -> None:
    rewrite = _sh(f"{gone_venv} rewrite git status", b"", tmp_path)
    assert (rewrite.returncode, rewrite.stdout) == (1, b"")  # "no rewrite"
    run = _sh(f"{gone_venv} run sh -c 'echo out; echo err >&2; exit 4'", b"", tmp_path)
    assert (run.returncode, run.stdout, run.stderr) == (4, b"out\n", b"err\n")
    dashed = _sh(f"{gone_venv} run -- echo hi", b"", tmp_path)
    assert dashed.stdout == b"hi\n"
    filtered = _sh(f"{gone_venv} filter --stdin --cmd 'git status'", b"a\nb\n", tmp_path)
    assert (filtered.returncode, filtered.stdout) == (0, b"a\nb\n")
    other = _sh(f"{gone_venv} verify", b"", tmp_path)
    assert other.returncode == 127 and b"reinstall rtok" in other.stderr


def test_old_and_new_registered_commands_are_both_rtoks() -> None:
    for binary in ("/home/u/.venv/bin/rtok", paths.launcher()):
        command = hook_command(binary, "claude")
        assert is_rtok_hook_command(command, "claude")
        assert rtok_bins_in(json.dumps({"command": command})) == [binary]
    assert not is_rtok_hook_command(f"{paths.launcher()}-other hook claude", "claude")


def test_init_writes_the_launcher_and_the_hook_runs_it(tmp_path: Path) -> None:
    project = tmp_path / "project"
    subprocess.run(["git", "init", "-q", str(project)], check=True, timeout=60)
    done = subprocess.run(
        [sys.executable, "-m", "rtok", "init", "--agent", "claude", "--project", "--auto-patch"],
        cwd=project,
        capture_output=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    settings = json.loads((project / ".claude" / "settings.local.json").read_text())
    command = settings["hooks"]["PreToolUse"][0]["hooks"][0]["command"]
    assert command == hook_command(paths.launcher(), "claude")
    assert launcher.problems() == []
    reply = _sh(command, json.dumps(dict(PAYLOAD, cwd=str(project))).encode(), project)
    rewritten = json.loads(reply.stdout)["hookSpecificOutput"]["updatedInput"]["command"]
    # Rewritten commands run through the launcher as well (absolute: it is not on PATH).
    assert rewritten == f"{paths.launcher()} run git status"
    ran = _sh(rewritten, b"", project)
    assert ran.returncode == 0 and b"branch" in ran.stdout


def test_doctor_reports_a_stale_launcher_and_init_repairs_it(tmp_path: Path) -> None:
    project = tmp_path / "project"
    (project / ".git").mkdir(parents=True)
    init = [sys.executable, "-m", "rtok", "init", "--agent", "claude", "--project", "--auto-patch"]
    assert (
        subprocess.run(init, cwd=project, capture_output=True, timeout=120, check=False).returncode
        == 0
    )
    path = paths.launcher()
    stale = _write_launcher(tmp_path / "elsewhere", "/nonexistent/python", "/nonexistent")
    shutil.copy(stale, path)
    assert launcher.problems() != []
    doctor = subprocess.run(
        [sys.executable, "-m", "rtok", "doctor"],
        cwd=project,
        capture_output=True,
        timeout=120,
        check=False,
    )
    assert doctor.returncode == 1 and b"launcher" in doctor.stdout
    assert (
        subprocess.run(init, cwd=project, capture_output=True, timeout=120, check=False).returncode
        == 0
    )
    assert launcher.problems() == []
    assert os.access(path, os.X_OK)


def test_an_old_style_install_is_upgraded_and_uninstalled(tmp_path: Path) -> None:
    from rtok_testing import rtok_entry_point

    project = tmp_path / "project"
    (project / ".git").mkdir(parents=True)
    init = [sys.executable, "-m", "rtok", "init", "--agent", "claude", "--project", "--auto-patch"]
    settings = project / ".claude" / "settings.local.json"
    old = subprocess.run(
        init,
        cwd=project,
        capture_output=True,
        timeout=120,
        check=False,
        env=dict(os.environ, RTOK_BIN=rtok_entry_point()),
    )
    assert old.returncode == 0, old.stderr
    assert f"{rtok_entry_point()} hook claude" in settings.read_text()
    new = subprocess.run(init, cwd=project, capture_output=True, timeout=120, check=False)
    assert new.returncode == 0, new.stderr
    text = settings.read_text()
    assert f"{paths.launcher()} hook claude" in text and rtok_entry_point() not in text
    gone = subprocess.run(
        [sys.executable, "-m", "rtok", "uninstall", "--agent", "claude", "--project"],
        cwd=project,
        capture_output=True,
        timeout=120,
        check=False,
    )
    assert gone.returncode == 0, gone.stderr
    assert not settings.exists()


def _registered(roots: list[Path]) -> list[tuple[str, list[str]]]:
    """(agent, argv) of every hook command rtok registered under `roots`, as its host runs
    it: a command string through the shell (both the POSIX sh and bash, since hosts use
    either; Copilot also runs Claude's files), a hook file (Cline) executed itself."""
    from rtok.integrity.doctor import hook_commands_in
    from rtok_testing.samples import hook_agents

    found: list[tuple[str, list[str]]] = []
    for root in roots:
        for path in sorted(root.rglob("*")):
            if not path.is_file() or ".git" in path.parts:
                continue
            if path.name == "PreToolUse.py" and os.access(path, os.X_OK):
                found.append(("cline", [str(path)]))
                continue
            text = path.read_text(errors="replace")
            for agent in hook_agents():
                for command in hook_commands_in(text, agent):
                    found += [(agent, [shell, "-c", command]) for shell in ("/bin/sh", "bash")]
    return found


GONE = ("data dir", "launcher", "state dir", "interpreter")


@pytest.mark.parametrize("gone", GONE)
def test_every_registered_hook_answers_no_opinion_whatever_is_deleted(
    gone: str, tmp_path: Path
) -> None:
    """After init for every hook agent in both scopes, delete the data dir (`rm -rf
    ~/.local/share/rtok` to clear the archive), the launcher file, the whole state dir
    holding it, or the venv's interpreter the launcher names: every registered command,
    run as its host runs it, exits 0 with the agent's "no opinion" reply and nothing on
    stderr."""
    from rtok_testing.samples import foreign_payload, hook_agents, shell_payload

    project = tmp_path / "project"
    subprocess.run(["git", "init", "-q", str(project)], check=True, timeout=60)
    for scope in ("--project", "--global"):
        done = subprocess.run(
            [sys.executable, "-m", "rtok", "init", "--all", scope, "--auto-patch", "--hook-only"],
            cwd=project,
            capture_output=True,
            timeout=300,
            check=False,
        )
        assert done.returncode == 0, done.stdout + done.stderr
    registered = _registered([project, Path(os.environ["HOME"])])
    assert {agent for agent, _ in registered} == set(hook_agents())
    target = Path(paths.launcher())
    assert not str(target).startswith(paths.data_dir())
    if gone == "data dir":
        shutil.rmtree(paths.data_dir())
    elif gone == "launcher":
        target.unlink()
    elif gone == "state dir":
        shutil.rmtree(target.parent.parent)
    else:
        venv = tmp_path / "venv" / "bin"
        venv.mkdir(parents=True)
        (venv / "python").symlink_to(sys.executable)
        _write_launcher(target.parent.parent, str(venv / "python"), launcher.package_root())
        shutil.rmtree(tmp_path / "venv")
    failed = []
    for agent, argv in registered:
        descriptor = load_descriptors()[agent]
        # rtok still works without its data dir: a call of another tool is what gets "no
        # opinion" then; with rtok gone, a shell call does.
        sample = (
            foreign_payload(agent, str(project))
            if gone == "data dir"
            else shell_payload(agent, "git status", str(project))
        )
        done = subprocess.run(
            argv,
            input=json.dumps(sample).encode(),
            capture_output=True,
            cwd=project,
            timeout=60,
            check=False,
        )
        expected = descriptor.no_opinion + "\n" if descriptor.no_opinion else ""
        if (done.returncode, done.stdout.decode(), done.stderr) != (0, expected, b""):
            failed.append((agent, argv[-1][:60], done.returncode, done.stdout, done.stderr))
    assert failed == []


def test_a_stdin_that_never_sends_a_byte_gets_no_opinion_quickly(tmp_path: Path) -> None:
    import time

    path = launcher.ensure()
    # As `(sleep 10) | rtok hook claude`: a writer that holds the pipe open, silent.
    hook = subprocess.Popen(
        [path, "hook", "claude"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=tmp_path,
    )
    try:
        start = time.monotonic()
        out, err = hook.communicate(timeout=2.5)
        elapsed = time.monotonic() - start
    finally:
        if hook.poll() is None:
            hook.kill()
            hook.wait(timeout=60)
        assert hook.stdin is not None
        hook.stdin.close()
    assert (hook.returncode, out, err) == (0, b"", b"")
    assert elapsed < 2.5


def test_doctor_reports_foreign_bundles_and_init_removes_them(tmp_path: Path) -> None:
    from rtok._fast import bundles, preload

    project = tmp_path / "project"
    (project / ".git").mkdir(parents=True)
    init = [sys.executable, "-m", "rtok", "init", "--agent", "claude", "--auto-patch"]
    assert (
        subprocess.run(init, cwd=project, capture_output=True, timeout=120, check=False).returncode
        == 0
    )
    path = paths.launcher()
    payload = json.dumps(dict(PAYLOAD, cwd=str(project))).encode()
    _sh(f"{path} hook claude", payload, project)
    bundle = Path(preload.bundle_path(path, "hook"))
    assert bundle.is_file()
    bundle.parent.chmod(0o777)  # as a folder another user made would be
    bundle.chmod(0o666)
    doctor = subprocess.run(
        [sys.executable, "-m", "rtok", "doctor"],
        cwd=project,
        capture_output=True,
        timeout=120,
        check=False,
    )
    assert doctor.returncode == 1 and b"preload" in doctor.stdout, doctor.stdout
    assert b"rtok init" in doctor.stdout
    assert (
        subprocess.run(init, cwd=project, capture_output=True, timeout=120, check=False).returncode
        == 0
    )
    assert not bundle.parent.exists() and bundles.problems(path) == []
    reply = _sh(f"{path} hook claude", payload, project)
    assert b"rtok run git status" in reply.stdout or b"run git status" in reply.stdout
    assert bundle.stat().st_mode & 0o777 == 0o600 and bundle.parent.stat().st_mode & 0o777 == 0o700


def test_init_in_a_state_dir_another_user_made_leaves_no_open_bundle_folder(tmp_path: Path) -> None:
    """RTOK_STATE_DIR at a folder another user created, with a bin/preload anyone may
    write: init takes the folders back to private and removes that bundle folder."""
    if os.geteuid() != 0:
        pytest.fail("making a folder another user's needs root")
    state = tmp_path / "shared-state"
    preload_dir = state / "bin" / "preload"
    preload_dir.mkdir(parents=True)
    (preload_dir / "hook-planted.bin").write_bytes(b"not rtok's")
    for folder in (state, state / "bin", preload_dir):
        os.chown(folder, 12345, 12345)
        folder.chmod(0o777)
    project = tmp_path / "project"
    (project / ".git").mkdir(parents=True)
    (tmp_path / "tmp").mkdir()
    env = dict(os.environ, RTOK_STATE_DIR=str(state), TMPDIR=str(tmp_path / "tmp"))
    done = subprocess.run(
        [sys.executable, "-m", "rtok", "init", "--agent", "claude", "--auto-patch"],
        cwd=project,
        env=env,
        capture_output=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert not preload_dir.exists()
    for folder in (state, state / "bin"):
        assert folder.stat().st_mode & 0o077 == 0, folder
    launcher_path = state / "bin" / "rtok"
    reply = subprocess.run(
        ["/bin/sh", "-c", f"{launcher_path} hook claude"],
        input=json.dumps(dict(PAYLOAD, cwd=str(project))).encode(),
        capture_output=True,
        cwd=project,
        env=env,
        timeout=60,
        check=False,
    )
    assert reply.returncode == 0 and b"run git status" in reply.stdout
    # Still another user's folders: the bundle is neither read from nor written there,
    # but in the user's own temporary folder.
    assert not preload_dir.exists()
    assert list((tmp_path / "tmp" / f"rtok-{os.geteuid()}-preload").glob("hook-*.bin"))
