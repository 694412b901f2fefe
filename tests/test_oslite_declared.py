"""What mypy is told rtok._fast.oslite has is what it has under the launcher's `python -S -I`.

oslite hands out the real `os` where `os` is loaded (tests, the installer), so an in-process
test cannot see a name the lite module lacks; it would raise AttributeError only under the
launcher, where the hook's catch-all turns it into a silent "no opinion". Two checks close
that gap: mypy rejects a planted call to a name the lite module lacks, and every declared
name is used under `python -S -I` after every module the hot verbs load has been imported.
"""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from rtok._fast import launcher, oslite

ROOT = Path(__file__).resolve().parent.parent
OSLITE = Path(oslite.__file__)


def _declared() -> tuple[set[str], set[str]]:
    """(module names, `os.path` names) the type checker sees declared for oslite."""
    return _declared_in(ast.parse(OSLITE.read_text()))


def _declared_in(tree: ast.Module) -> tuple[set[str], set[str]]:
    names: set[str] = set()
    path_names: set[str] = set()
    for top in tree.body:
        if isinstance(top, ast.ClassDef) and top.name == "_LitePath":
            path_names.update(_assigned(top.body))
        if isinstance(top, ast.If) and ast.unparse(top.test) == "TYPE_CHECKING":
            names.update(_type_checking_names(top.body))
    return names, path_names


def _assigned(body: list[ast.stmt]) -> set[str]:
    """Names a class body assigns with `=`."""
    return {
        target.id
        for item in body
        if isinstance(item, ast.Assign)
        for target in item.targets
        if isinstance(target, ast.Name)
    }


def _type_checking_names(body: list[ast.stmt]) -> set[str]:
    """Names an `if TYPE_CHECKING:` block imports from `os` or declares with a type."""
    names: set[str] = set()
    for node in body:
        if isinstance(node, ast.ImportFrom) and node.module == "os":
            names.update(alias.asname or alias.name for alias in node.names)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
    return names


def _mypy(tmp_path: Path, body: str) -> subprocess.CompletedProcess[str]:
    probe = tmp_path / "probe_module.py"
    probe.write_text(
        "from __future__ import annotations\n\nfrom rtok._fast import oslite as os\n\n\n" + body
    )
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "mypy",
            "--strict",
            "--no-error-summary",
            "--config-file",
            str(ROOT / "pyproject.toml"),
            str(probe),
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=600,
        check=False,
        env=dict(os.environ, MYPYPATH=str(ROOT)),
    )


def test_mypy_rejects_a_call_to_a_name_oslite_lacks(tmp_path: Path) -> None:
    present = _mypy(tmp_path, 'def stem(p: str) -> str:\n    return os.path.join(p, "x")\n')
    assert present.returncode == 0, present.stdout + present.stderr
    missing = _mypy(tmp_path, "def stem(p: str) -> str:\n    return os.path.splitext(p)[0]\n")
    assert missing.returncode == 1 and '"splitext"' in missing.stdout, missing.stdout
    also = _mypy(tmp_path, "def here() -> str:\n    return os.getcwdb().decode()\n")
    assert also.returncode == 1 and '"getcwdb"' in also.stdout, also.stdout


# One use of each declared name; run under `python -S -I` with `os` never loaded.
EXERCISE = r"""
import json, sys
sys.path.insert(0, sys.argv[1])
for name in json.loads(sys.argv[2]):
    __import__(name)
from rtok._fast import oslite as os
assert "os" not in sys.modules and type(os.path).__name__ == "_LitePath", sorted(sys.modules)
work = sys.argv[3]
used = {}
def use(name, value):
    used[name] = repr(value)[:40]
for name in ("O_APPEND", "O_CLOEXEC", "O_CREAT", "O_NONBLOCK", "O_RDONLY", "O_TRUNC",
             "O_WRONLY", "POSIX_SPAWN_DUP2", "WNOHANG", "X_OK"):
    assert isinstance(getattr(os, name), int)
    use(name, getattr(os, name))
use("name", os.name); use("sep", os.sep); use("pathsep", os.pathsep)
use("devnull", os.devnull); use("environ", os.environ.get("HOME"))
use("getcwd", os.getcwd()); use("getpid", os.getpid()); use("getpgrp", os.getpgrp())
os.makedirs(os.path.join(work, "a", "b"), exist_ok=True); use("makedirs", 1)
os.mkdir(os.path.join(work, "c")); use("mkdir", 1)
target = os.path.join(work, "a", "f")
fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC, 0o600)
use("write", os.write(fd, b"data")); use("fsync", os.fsync(fd))
use("fstat", os.fstat(fd).st_size); use("close", os.close(fd))
fd = os.open(target, os.O_RDONLY); use("open", fd); use("read", os.read(fd, 10))
copy = os.dup(fd); use("dup", copy); use("dup2", os.dup2(fd, copy))
with os.fdopen(copy, "rb") as handle:
    use("fdopen", handle.read())
os.close(fd)
use("chmod", os.chmod(target, 0o644)); use("stat", os.stat(target).st_mode)
use("access", os.access(target, os.X_OK)); use("lstat", os.lstat(target).st_size)
use("listdir", sorted(os.listdir(os.path.join(work, "a"))))
link = os.path.join(work, "link")
os.symlink(target, link); use("readlink", os.readlink(link))
use("rename", os.rename(target, target + "2")); use("replace", os.replace(target + "2", target))
use("unlink", os.unlink(link))
read_end, write_end = os.pipe(); use("pipe", (read_end, write_end))
pid = os.posix_spawnp("true", ["true"], dict(os.environ)); use("posix_spawnp", pid)
_, status = os.waitpid(pid, 0); use("waitpid", status)
use("waitstatus_to_exitcode", os.waitstatus_to_exitcode(status))
use("kill", os.kill(os.getpid(), 0))
try:
    use("tcgetpgrp", os.tcgetpgrp(read_end))
except OSError as exc:  # not a terminal: the call itself exists and ran
    use("tcgetpgrp", exc.errno)
paths = {
    "join": os.path.join(work, "a"), "dirname": os.path.dirname(target),
    "basename": os.path.basename(target), "isabs": os.path.isabs(target),
    "normpath": os.path.normpath(work + "/a/../a"), "abspath": os.path.abspath("x"),
    "expanduser": os.path.expanduser("~/x"), "exists": os.path.exists(target),
    "isfile": os.path.isfile(target), "isdir": os.path.isdir(work),
    "samefile": os.path.samefile(target, target), "realpath": os.path.realpath(work),
    "split": os.path.split(target), "sep": os.path.sep,
}
used["_exit"] = "below"
used["path"] = type(os.path).__name__
print(json.dumps({"used": sorted(used), "path": sorted(paths)}), flush=True)
os._exit(7)
"""


def _hot_modules(tmp_path: Path) -> list[str]:
    """The rtok modules the hot verbs load when started as the launcher starts them."""
    cases = [
        (
            ["hook", "claude"],
            json.dumps(
                {
                    "session_id": "s",
                    "hook_event_name": "PreToolUse",
                    "tool_name": "Bash",
                    "tool_input": {"command": "git status"},
                    "cwd": str(tmp_path),
                }
            ).encode(),
        ),
        (["rewrite", "git status"], b""),
        (["run", "true"], b""),
        (["filter", "--stdin", "--cmd", "git status"], b"On branch main\n" * 200),
        (["expand", "missing"], b""),
    ]
    names: set[str] = set()
    for args, stdin in cases:
        result = subprocess.run(
            [
                sys.executable,
                "-S",
                "-I",
                "-X",
                "importtime",
                "-c",
                launcher.BOOT,
                str(ROOT),
                str(tmp_path / "bin" / "rtok"),
                *args,
            ],
            input=stdin,
            capture_output=True,
            cwd=tmp_path,
            env=dict(os.environ),
            timeout=60,
            check=False,
        )
        names.update(
            line.rsplit("|", 1)[1].strip()
            for line in result.stderr.decode(errors="replace").splitlines()
            if line.startswith("import time:") and line.count("|") == 2
        )
    return sorted(name for name in names if name.startswith("rtok."))


def test_every_declared_name_runs_under_the_launcher_flags(tmp_path: Path) -> None:
    modules = _hot_modules(tmp_path)
    assert {
        "rtok.hooks.main",
        "rtok.rewrite.rewriter",
        "rtok.filter.run_main",
        "rtok.store.expand_main",
        "rtok._fast.oslite",
        "rtok.paths",
    } <= set(modules)
    work = tmp_path / "work"
    work.mkdir()
    result = subprocess.run(
        [sys.executable, "-S", "-I", "-c", EXERCISE, str(ROOT), json.dumps(modules), str(work)],
        capture_output=True,
        cwd=tmp_path,
        env=dict(os.environ),
        timeout=60,
        check=False,
    )
    assert result.returncode == 7, result.stderr.decode()[-2000:]
    seen = json.loads(result.stdout)
    names, path_names = _declared()
    assert set(seen["used"]) == names  # every declared name is exercised, and no other
    assert set(seen["path"]) == path_names


@pytest.mark.parametrize("name", sorted(_declared()[0]))
def test_each_declared_name_exists_in_the_lite_module(name: str) -> None:
    probe = (
        "import sys; sys.path.insert(0, sys.argv[1]); from rtok._fast import oslite;"
        "assert 'os' not in sys.modules; getattr(oslite, sys.argv[2])"
    )
    subprocess.run(
        [sys.executable, "-S", "-I", "-c", probe, str(ROOT), name],
        capture_output=True,
        timeout=60,
        check=True,
    )
