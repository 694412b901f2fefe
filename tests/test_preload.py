"""rtok.preload: a verb's modules from one bundle, with the same results as normal imports.

Each case starts the launcher's own boot (`python -S -I -c BOOT ROOT LAUNCHER VERB ...`)
on a private copy of the rtok package, so sources can be touched, and reads which rtok
modules the import system loaded from `-X importtime`.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from rtok import launcher, preload

PACKAGE = Path(preload.__file__).resolve().parent
PAYLOAD = (b'{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"Bash",'
           b'"tool_input":{"command":"git status"},"cwd":"/tmp"}')


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    copy = tmp_path_factory.mktemp("install")
    shutil.copytree(PACKAGE, copy / "rtok", ignore=shutil.ignore_patterns("__pycache__"))
    return copy


def _start(root: Path, launcher_path: Path, args: list[str], stdin: bytes = b"",
           cwd: Path | None = None) -> tuple[subprocess.CompletedProcess[bytes], set[str]]:
    result = subprocess.run(
        [sys.executable, "-S", "-I", "-X", "importtime", "-c", launcher.BOOT, str(root),
         str(launcher_path), *args],
        input=stdin, capture_output=True, env=dict(os.environ), cwd=cwd or launcher_path.parent,
        timeout=60, check=False)
    loaded = set()
    kept = []
    for line in result.stderr.decode(errors="replace").splitlines(keepends=True):
        if line.startswith("import time:") and line.count("|") == 2:
            loaded.add(line.rsplit("|", 1)[1].strip())
        else:
            kept.append(line)
    result.stderr = "".join(kept).encode()
    return result, {name for name in loaded if name.startswith("rtok")}


def _bundle(launcher_path: Path, verb: str) -> Path:
    return Path(preload.bundle_path(str(launcher_path), verb))


CASES = [
    ("hook", ["hook", "claude"], PAYLOAD),
    ("hook", ["hook", "claude"], PAYLOAD.replace(b"git status", b"echo hi")),
    ("rewrite", ["rewrite", "git status"], b""),
    ("rewrite", ["rewrite", "echo hi"], b""),
    ("run", ["run", "sh", "-c", "echo out; echo err >&2; exit 3"], b""),
    ("filter", ["filter", "--stdin", "--cmd", "git status"], b"On branch main\n"),
]


@pytest.mark.parametrize(("verb", "args", "stdin"), CASES)
def test_a_bundled_run_answers_as_a_normal_one(verb: str, args: list[str], stdin: bytes,
                                               root: Path, tmp_path: Path) -> None:
    launcher_path = tmp_path / "bin" / "rtok"
    launcher_path.parent.mkdir()
    first, first_loaded = _start(root, launcher_path, args, stdin)
    bundle = _bundle(launcher_path, verb)
    assert bundle.is_file() and bundle.stat().st_mode & 0o777 == 0o600
    assert "rtok.cli.entry" in first_loaded
    second, second_loaded = _start(root, launcher_path, args, stdin)
    # Only the package and the preloader go through the import system now.
    assert second_loaded == {"rtok", "rtok.preload"}
    assert (second.returncode, second.stdout, second.stderr) == (
        first.returncode, first.stdout, first.stderr)


def test_a_changed_source_is_never_run_from_a_stale_bundle(root: Path, tmp_path: Path) -> None:
    launcher_path = tmp_path / "bin" / "rtok"
    launcher_path.parent.mkdir()
    _start(root, launcher_path, ["rewrite", "git status"])
    bundle = _bundle(launcher_path, "rewrite")
    before = bundle.read_bytes()
    words = root / "rtok" / "shell" / "words.py"
    stat = words.stat()
    os.utime(words, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000))
    result, loaded = _start(root, launcher_path, ["rewrite", "git status"])
    assert result.returncode == 3 and "rtok.shell.words" in loaded
    assert bundle.read_bytes() != before  # made again from the current sources
    _, loaded = _start(root, launcher_path, ["rewrite", "git status"])
    assert loaded == {"rtok", "rtok.preload"}


@pytest.mark.parametrize("content", [b"", b"not marshal data", b"\x00" * 64])
def test_a_damaged_bundle_is_replaced(content: bytes, root: Path, tmp_path: Path) -> None:
    launcher_path = tmp_path / "bin" / "rtok"
    bundle = _bundle(launcher_path, "rewrite")
    bundle.parent.mkdir(parents=True)
    bundle.write_bytes(content)
    result, loaded = _start(root, launcher_path, ["rewrite", "git status"])
    assert result.returncode == 3 and result.stdout.endswith(b"run git status")
    assert "rtok.rewrite.rewriter" in loaded
    _, loaded = _start(root, launcher_path, ["rewrite", "git status"])
    assert loaded == {"rtok", "rtok.preload"}


def test_a_bundle_of_another_installation_is_not_used(root: Path, tmp_path: Path) -> None:
    launcher_path = tmp_path / "bin" / "rtok"
    launcher_path.parent.mkdir()
    _start(root, launcher_path, ["rewrite", "git status"])
    other = tmp_path / "other"
    shutil.copytree(root / "rtok", other / "rtok")
    result, loaded = _start(other, launcher_path, ["rewrite", "git status"])
    assert result.returncode == 3 and "rtok.rewrite.rewriter" in loaded


def test_an_unwritable_bundle_folder_costs_nothing_but_speed(root: Path, tmp_path: Path) -> None:
    launcher_path = tmp_path / "bin" / "rtok"
    (tmp_path / "bin" / "preload").mkdir(parents=True)
    (tmp_path / "bin" / "preload").chmod(0o500)
    try:
        for _ in range(2):
            result, loaded = _start(root, launcher_path, ["rewrite", "git status"])
            assert result.returncode == 3 and result.stderr == b""
            if os.geteuid() != 0:  # root writes anyway
                assert "rtok.rewrite.rewriter" in loaded
    finally:
        (tmp_path / "bin" / "preload").chmod(0o700)


LAZY_PROBE = """
import marshal, sys
sys.path.insert(0, sys.argv[1])
from rtok import preload
order = []
sys.modules["__main__"].order = order
def code(text):
    return marshal.dumps(compile(text, "<probe>", "exec", dont_inherit=True))
preload._install([
    ("probe_a", False, "/x/probe_a.py", 0, 0,
     code("import __main__; __main__.order.append('a start')\\n"
          "from probe_b import B\\nA = B + 1\\n__main__.order.append('a end')")),
    ("probe_b", False, "/x/probe_b.py", 0, 0,
     code("import __main__; __main__.order.append('b')\\nB = 1")),
    ("probe_c", False, "/x/probe_c.py", 0, 0, code("raise RuntimeError('never run')")),
])
assert order == []
import probe_a
assert order == []
print(probe_a.A, order, type(probe_a).__name__, probe_a.__file__)
try:
    probe_a.missing
except AttributeError as exc:
    print("missing:", exc)
"""


def test_module_bodies_run_when_first_used_in_import_order() -> None:
    result = subprocess.run([sys.executable, "-S", "-I", "-c", LAZY_PROBE,
                             str(PACKAGE.parent)], capture_output=True, timeout=60,
                            check=True)
    lines = result.stdout.decode().splitlines()
    assert lines[0] == "2 ['a start', 'b', 'a end'] module /x/probe_a.py"
    assert lines[1].startswith("missing:") and "missing" in lines[1]
