"""rtok._fast.preload: a verb's modules from one bundle, with the same results as normal imports.

Each case starts the launcher's own boot (`python -S -I -c BOOT ROOT LAUNCHER VERB ...`)
on a private copy of the rtok package, so sources can be touched, and reads which rtok
modules the import system loaded from `-X importtime`.
"""

from __future__ import annotations

import marshal
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from rtok._fast import bundles, launcher, preload

PACKAGE = Path(preload.__file__).resolve().parents[1]
# The interpreter matrix (tests/test_interpreter_matrix.py) runs fewer per interpreter; read
# at import, before the per-test environment drops RTOK_* variables.
BIT_FLIPS = int(os.environ.get("RTOK_TEST_BIT_FLIPS", "300"))
# What a bundled run still imports through the import system: the preloader alone (the
# launcher's boot imports it as a top-level module; `rtok` itself comes from the bundle).
BOOTED = {"preload"}
PAYLOAD = (
    b'{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"Bash",'
    b'"tool_input":{"command":"git status"},"cwd":"/tmp"}'
)


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    copy = tmp_path_factory.mktemp("install")
    shutil.copytree(PACKAGE, copy / "rtok", ignore=shutil.ignore_patterns("__pycache__"))
    return copy


def _start(
    root: Path, launcher_path: Path, args: list[str], stdin: bytes = b"", cwd: Path | None = None
) -> tuple[subprocess.CompletedProcess[bytes], set[str]]:
    result = subprocess.run(
        _boot(root, launcher_path, args),
        input=stdin,
        capture_output=True,
        env=dict(os.environ),
        cwd=cwd or launcher_path.parent,
        timeout=60,
        check=False,
    )
    loaded = set()
    kept = []
    for line in result.stderr.decode(errors="replace").splitlines(keepends=True):
        if line.startswith("import time:") and line.count("|") == 2:
            loaded.add(line.rsplit("|", 1)[1].strip())
        else:
            kept.append(line)
    result.stderr = "".join(kept).encode()
    # `__future__` too: a bundled run never imports it (its modules' `from __future__
    # import annotations` is compiled in as a flag).
    return result, {
        name for name in loaded if name.startswith("rtok") or name in ("preload", "__future__")
    }


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
def test_a_bundled_run_answers_as_a_normal_one(
    verb: str, args: list[str], stdin: bytes, root: Path, tmp_path: Path
) -> None:
    launcher_path = tmp_path / "bin" / "rtok"
    launcher_path.parent.mkdir()
    first, first_loaded = _start(root, launcher_path, args, stdin)
    bundle = _bundle(launcher_path, verb)
    assert bundle.is_file() and bundle.stat().st_mode & 0o777 == 0o600
    assert "rtok.cli.entry" in first_loaded
    second, second_loaded = _start(root, launcher_path, args, stdin)
    # Only the package and the preloader go through the import system now.
    assert second_loaded == BOOTED
    assert (second.returncode, second.stdout, second.stderr) == (
        first.returncode,
        first.stdout,
        first.stderr,
    )


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
    assert loaded == BOOTED


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
    assert loaded == BOOTED


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
from rtok._fast import preload
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
    result = subprocess.run(
        [sys.executable, "-S", "-I", "-c", LAZY_PROBE, str(PACKAGE.parent)],
        capture_output=True,
        timeout=60,
        check=True,
    )
    lines = result.stdout.decode().splitlines()
    assert lines[0] == "2 ['a start', 'b', 'a end'] module /x/probe_a.py"
    assert lines[1].startswith("missing:") and "missing" in lines[1]


def test_a_module_whose_body_raised_is_not_left_half_made() -> None:
    probe = """
import marshal, sys
sys.path.insert(0, sys.argv[1])
from rtok._fast import preload
code = marshal.dumps(compile("X = 1\\nraise RuntimeError('boom')", "<probe>", "exec"))
preload._install([("probe_bad", False, "/x/probe_bad.py", 0, 0, code)])
import probe_bad
try:
    probe_bad.X
except RuntimeError as exc:
    print("raised:", exc)
print("in sys.modules:", "probe_bad" in sys.modules)
try:
    import probe_bad
except ImportError as exc:  # the import system looks again, as after a failed import
    print("again:", type(exc).__name__)
"""
    result = subprocess.run(
        [sys.executable, "-S", "-I", "-c", probe, str(PACKAGE.parent)],
        capture_output=True,
        timeout=60,
        check=True,
    )
    assert result.stdout.decode().splitlines() == [
        "raised: boom",
        "in sys.modules: False",
        "again: ModuleNotFoundError",
    ]


def test_preloaded_modules_have_a_spec(root: Path, tmp_path: Path) -> None:
    launcher_path = tmp_path / "bin" / "rtok"
    launcher_path.parent.mkdir()
    _start(root, launcher_path, ["rewrite", "git status"])
    probe = (
        "import sys; sys.path.insert(0, sys.argv.pop(1)); sys.argv[0] = sys.argv.pop(1);"
        "import rtok._fast.preload; rtok._fast.preload.start();"
        "import rtok.shell.words as w; print(type(w).__name__, w.__spec__.name,"
        " w.__spec__.origin == w.__file__)"
    )
    result = subprocess.run(
        [sys.executable, "-S", "-I", "-c", probe, str(root), str(launcher_path), "rewrite"],
        capture_output=True,
        timeout=60,
        check=True,
    )
    assert result.stdout.decode().split() == ["_LazyModule", "rtok.shell.words", "True"]


def test_a_bundle_grows_to_the_modules_a_later_run_needs(root: Path, tmp_path: Path) -> None:
    launcher_path = tmp_path / "bin" / "rtok"
    launcher_path.parent.mkdir()
    passthrough = PAYLOAD.replace(b'"tool_name":"Bash"', b'"tool_name":"Read"')
    _start(root, launcher_path, ["hook", "claude"], passthrough)
    _, loaded = _start(root, launcher_path, ["hook", "claude"], passthrough)
    assert loaded == BOOTED
    # A rewrite needs modules a passthrough never loaded: they are imported, then added.
    first, loaded = _start(root, launcher_path, ["hook", "claude"], PAYLOAD)
    assert "rtok.rewrite.rewriter" in loaded
    second, loaded = _start(root, launcher_path, ["hook", "claude"], PAYLOAD)
    assert loaded == BOOTED
    assert (second.returncode, second.stdout, second.stderr) == (
        first.returncode,
        first.stdout,
        first.stderr,
    )
    _, loaded = _start(root, launcher_path, ["hook", "claude"], passthrough)
    assert loaded == BOOTED


NOTED = (
    "import sys; sys.path.insert(0, sys.argv.pop(1)); sys.argv[0] = sys.argv.pop(1);"
    "import rtok._fast.preload as p; p.start(); print(len(p._TO_SAVE), len(p._BUNDLED),"
    " p._TO_SAVE[0] if p._TO_SAVE else '-')"
)


@pytest.fixture(autouse=True)
def private_tmpdir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Each test its own temporary dir, where a read-only state dir's bundles go."""
    folder = tmp_path / "tmpdir"
    folder.mkdir()
    monkeypatch.setenv("TMPDIR", str(folder))
    return folder


def _read_only_argv(folders: list[Path], argv: list[str]) -> list[str]:
    """`argv` run with `folders` read-only: chmod for a user, read-only bind mounts in a
    private mount namespace for root (which chmod does not stop)."""
    if os.geteuid() != 0:
        for folder in folders:
            folder.chmod(0o500)
        return argv
    if shutil.which("unshare") is None:
        pytest.fail("root without unshare: cannot make a folder read-only")
    mounts = " && ".join(
        f"mount --bind {folder} {folder} && mount -o remount,bind,ro {folder}" for folder in folders
    )
    return ["unshare", "-m", "sh", "-c", mounts + ' && exec "$@"', "sh", *argv]


def test_a_read_only_state_dir_never_rebuilds_the_bundle(
    root: Path, tmp_path: Path, private_tmpdir: Path
) -> None:
    state = tmp_path / "state"
    launcher_path = state / "bin" / "rtok"
    launcher_path.parent.mkdir(parents=True)
    argv = [sys.executable, "-S", "-I", "-c", NOTED, str(root), str(launcher_path), "hook"]
    writable = subprocess.run(argv, capture_output=True, timeout=60, check=True)
    assert writable.stdout.split()[:2] == [b"1", b"0"]  # a bundle is to be made at exit
    assert writable.stdout.split()[2].startswith(str(state).encode())
    try:
        # The state dir read-only: the bundle goes to the user's folder in TMPDIR.
        spare = private_tmpdir / f"rtok-{os.geteuid()}-preload"
        noted = subprocess.run(
            _read_only_argv([state], argv), capture_output=True, timeout=60, check=True
        )
        assert noted.stdout.split()[:2] == [b"1", b"0"]
        assert noted.stdout.split()[2].startswith(str(spare).encode())
        rewrite = _boot(root, launcher_path, ["rewrite", "git status"])
        first, loaded = _start_argv(_read_only_argv([state], rewrite))
        assert first.returncode == 3 and "rtok.rewrite.rewriter" in loaded
        assert spare.stat().st_mode & 0o777 == 0o700
        second, loaded = _start_argv(_read_only_argv([state], rewrite))
        assert loaded == BOOTED
        assert (second.returncode, second.stdout, second.stderr) == (
            first.returncode,
            first.stdout,
            first.stderr,
        )
        # TMPDIR read-only too: nothing is bundled, and nothing is attempted at exit.
        shutil.rmtree(spare)
        locked = subprocess.run(
            _read_only_argv([state, private_tmpdir], argv),
            capture_output=True,
            timeout=60,
            check=True,
        )
        assert locked.stdout.split() == [b"0", b"0", b"-"]
        for _ in range(2):
            result, loaded = _start_argv(_read_only_argv([state, private_tmpdir], rewrite))
            assert result.returncode == 3 and result.stderr == b""
            assert "rtok.rewrite.rewriter" in loaded
        assert not (state / "bin" / "preload").exists() and not spare.exists()
    finally:
        state.chmod(0o700)
        private_tmpdir.chmod(0o700)


def test_a_spare_folder_another_user_made_is_never_used(
    root: Path, tmp_path: Path, private_tmpdir: Path
) -> None:
    state = tmp_path / "state"
    launcher_path = state / "bin" / "rtok"
    launcher_path.parent.mkdir(parents=True)
    spare = private_tmpdir / f"rtok-{os.geteuid()}-preload"
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir(mode=0o700)
    spare.symlink_to(elsewhere)  # a link planted where the folder would be
    argv = [sys.executable, "-S", "-I", "-c", NOTED, str(root), str(launcher_path), "hook"]
    try:
        noted = subprocess.run(
            _read_only_argv([state], argv), capture_output=True, timeout=60, check=True
        )
    finally:
        state.chmod(0o700)
    assert noted.stdout.split() == [b"0", b"0", b"-"]


def _boot(root: Path, launcher_path: Path, args: list[str]) -> list[str]:
    return [
        sys.executable,
        "-S",
        "-I",
        "-X",
        "importtime",
        "-c",
        launcher.BOOT,
        str(root),
        str(launcher_path),
        *args,
    ]


def _start_argv(argv: list[str]) -> tuple[subprocess.CompletedProcess[bytes], set[str]]:
    result = subprocess.run(argv, capture_output=True, timeout=60, check=False)
    lines = result.stderr.decode(errors="replace").splitlines(keepends=True)
    loaded = {
        line.rsplit("|", 1)[1].strip()
        for line in lines
        if line.startswith("import time:") and line.count("|") == 2
    }
    result.stderr = "".join(line for line in lines if not line.startswith("import time:")).encode()
    # `__future__` too: a bundled run never imports it (its modules' `from __future__
    # import annotations` is compiled in as a flag).
    return result, {
        name for name in loaded if name.startswith("rtok") or name in ("preload", "__future__")
    }


@pytest.mark.parametrize("foreign_owner", [False, True])
def test_a_loose_or_foreign_bundle_is_never_run_and_is_replaced(
    foreign_owner: bool, root: Path, tmp_path: Path
) -> None:
    launcher_path = tmp_path / "bin" / "rtok"
    launcher_path.parent.mkdir()
    _start(root, launcher_path, ["rewrite", "git status"])
    bundle = _bundle(launcher_path, "rewrite")
    if foreign_owner:
        if os.geteuid() != 0:
            pytest.fail("giving a file to another user needs root")
        os.chown(bundle, 12345, 12345)
    else:
        bundle.chmod(0o666)
    result, loaded = _start(root, launcher_path, ["rewrite", "git status"])
    assert result.returncode == 3 and "rtok.rewrite.rewriter" in loaded
    assert bundle.stat().st_uid == os.geteuid() and bundle.stat().st_mode & 0o777 == 0o600
    _, loaded = _start(root, launcher_path, ["rewrite", "git status"])
    assert loaded == BOOTED


@pytest.mark.parametrize("loose", ["bin", "data", "preload"])
def test_bundles_in_a_folder_others_can_write_are_neither_read_nor_written(
    loose: str, root: Path, tmp_path: Path
) -> None:
    data = tmp_path / "data"
    launcher_path = data / "bin" / "rtok"
    launcher_path.parent.mkdir(parents=True)
    _start(root, launcher_path, ["rewrite", "git status"])
    bundle = _bundle(launcher_path, "rewrite")
    before = bundle.read_bytes()
    folder = {"bin": data / "bin", "data": data, "preload": bundle.parent}[loose]
    folder.chmod(0o777)
    try:
        result, loaded = _start(root, launcher_path, ["rewrite", "git status"])
        assert result.returncode == 3 and "rtok.rewrite.rewriter" in loaded
        assert [text for text, _ in bundles.problems(str(launcher_path))] == [
            f"{folder} is not yours alone (owner or mode): the preload bundles in it are ignored"
        ]
        bundle.unlink()
        _start(root, launcher_path, ["rewrite", "git status"])
        assert not bundle.exists()  # not written there either
    finally:
        folder.chmod(0o700)
    assert before


def test_300_bit_flips_change_no_reply(root: Path, tmp_path: Path) -> None:
    import random

    launcher_path = tmp_path / "bin" / "rtok"
    launcher_path.parent.mkdir()
    args = ["hook", "claude"]
    expected, _ = _start(root, launcher_path, args, PAYLOAD, cwd=tmp_path)
    bundle = _bundle(launcher_path, "hook")
    good = bundle.read_bytes()
    assert expected.returncode == 0 and b"rtok run git status" in expected.stdout
    rng = random.Random(19)
    changed = []
    for _ in range(BIT_FLIPS):
        flipped = bytearray(good)
        bit = rng.randrange(len(flipped) * 8)
        flipped[bit // 8] ^= 1 << (bit % 8)
        bundle.write_bytes(bytes(flipped))
        bundle.chmod(0o600)
        result, _ = _start(root, launcher_path, args, PAYLOAD, cwd=tmp_path)
        if (result.returncode, result.stdout, result.stderr) != (
            0,
            expected.stdout,
            expected.stderr,
        ):
            changed.append((bit, result.returncode, result.stdout[:80], result.stderr[:200]))
    assert changed == [] and expected.stderr == b""


def test_problems_name_a_damaged_bundle_and_clear_untrusted_removes_it(
    root: Path, tmp_path: Path
) -> None:
    launcher_path = tmp_path / "bin" / "rtok"
    launcher_path.parent.mkdir()
    _start(root, launcher_path, ["rewrite", "git status"])
    bundle = _bundle(launcher_path, "rewrite")
    assert bundles.problems(str(launcher_path)) == []
    data = bytearray(bundle.read_bytes())
    data[len(data) // 2] ^= 0x10
    bundle.write_bytes(bytes(data))
    assert bundles.problems(str(launcher_path)) == [
        (f"{bundle} is damaged: ignored until it is made again", False)
    ]
    assert bundles.clear_untrusted(str(launcher_path)) == [str(bundle)]
    assert not bundle.exists() and bundles.problems(str(launcher_path)) == []


def test_a_verified_record_does_not_outlive_a_write(root: Path, tmp_path: Path) -> None:
    """Once a bundle's checksum matched and its last change is settled, a record beside it
    spares the next runs the hashing; a write into the bundle (even one that puts the
    mtime back) moves its change time, so the damage is caught as without a record."""
    import time

    launcher_path = tmp_path / "bin" / "rtok"
    launcher_path.parent.mkdir()
    args = ["hook", "claude"]
    expected, _ = _start(root, launcher_path, args, PAYLOAD, cwd=tmp_path)
    bundle = _bundle(launcher_path, "hook")
    record = Path(f"{bundle}.ok")
    _start(root, launcher_path, args, PAYLOAD, cwd=tmp_path)
    assert not record.exists()  # changed too recently to be recorded
    time.sleep(2.2)
    _start(root, launcher_path, args, PAYLOAD, cwd=tmp_path)
    assert record.exists() and record.stat().st_mode & 0o777 == 0o600
    result, loaded = _start(root, launcher_path, args, PAYLOAD, cwd=tmp_path)
    assert (result.stdout, loaded) == (expected.stdout, BOOTED)
    good = bundle.read_bytes()
    before = bundle.stat()
    damaged = bytearray(good)
    damaged[len(good) // 2] ^= 0x10
    with open(bundle, "r+b") as handle:
        handle.write(damaged)
    os.utime(bundle, ns=(before.st_atime_ns, before.st_mtime_ns))
    result, loaded = _start(root, launcher_path, args, PAYLOAD, cwd=tmp_path)
    assert (result.returncode, result.stdout, result.stderr) == (0, expected.stdout, b"")
    assert "rtok.hooks.main" in loaded  # imported: the damaged bundle was not used
    assert bundles.problems(str(launcher_path)) == []  # and it was made again


def _constants(code: object) -> list[object]:
    found: list[object] = []
    for value in getattr(code, "co_consts", ()):
        found.append(value)
        found.extend(_constants(value))
    return found


def test_bundles_leave_out_the_docstrings_nothing_reads(root: Path, tmp_path: Path) -> None:
    """Function and class docstrings are not bundled, nor a module's own unless its source
    reads `__doc__` (`rtok rewrite --help` prints its module's), and the replies are the
    same."""
    import ast
    import marshal

    launcher_path = tmp_path / "bin" / "rtok"
    launcher_path.parent.mkdir()
    first, _ = _start(root, launcher_path, ["rewrite", "git status"])
    second, loaded = _start(root, launcher_path, ["rewrite", "git status"])
    assert (
        (first.returncode, first.stdout)
        == (second.returncode, second.stdout)
        == (
            3,
            b"rtok run git status",
        )
    )
    assert loaded == BOOTED
    data = _bundle(launcher_path, "rewrite").read_bytes()
    _, entries = marshal.loads(data[len(preload._MAGIC) + 8 :])
    dropped = kept = 0
    for name, _, source, _, _, code in entries:
        text = Path(source).read_text(encoding="utf-8")
        constants = [value for value in _constants(marshal.loads(code)) if isinstance(value, str)]
        for node in ast.walk(ast.parse(text)):
            if not isinstance(
                node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)
            ):
                continue
            doc = ast.get_docstring(node, clean=False)
            if doc is None:
                continue
            if isinstance(node, ast.Module) and "__doc__" in text:
                assert doc in constants, name
                kept += 1
            else:
                assert doc not in constants, (name, doc[:60])
                dropped += 1
    assert kept >= 1 and dropped > 50


def test_bundled_code_keeps_string_annotations_without_importing_future(tmp_path: Path) -> None:
    source = tmp_path / "sample.py"
    source.write_text(
        '"""Doc."""\n\nfrom __future__ import annotations\n\n'
        "def f(x: Undefined) -> list[Missing]:\n    return x\n",
        encoding="utf-8",
    )
    code = marshal.loads(bundles._code(str(source)))
    namespace: dict[str, object] = {}
    exec(code, namespace)
    function = namespace["f"]
    assert callable(function)
    # The names are never evaluated (they do not exist): the annotations stay strings.
    assert function.__annotations__ == {"x": "Undefined", "return": "list[Missing]"}
    assert "annotations" not in namespace  # the statement itself is gone


def test_a_future_import_of_another_feature_is_kept(tmp_path: Path) -> None:
    source = tmp_path / "sample.py"
    source.write_text(
        "from __future__ import annotations, generator_stop\n\ndef f(x: Undefined): ...\n",
        encoding="utf-8",
    )
    namespace: dict[str, object] = {}
    exec(marshal.loads(bundles._code(str(source))), namespace)
    assert "annotations" in namespace and "generator_stop" in namespace
