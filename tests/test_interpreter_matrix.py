"""The start-up layer on every CPython >= 3.11 on the machine, not only the one CI runs.

The hot path rests on private CPython details (`_json`'s scanner, `_sre`, `posix`, marshal
bundles, `_imp.source_hash`, frozen importlib's MAGIC_NUMBER and ModuleSpec), any of which
may change between minor versions. For each other interpreter found (PATH, pyenv), this
test makes a venv with rtok installed (cached outside the checkout, keyed on the
interpreter, the checkout and pyproject.toml) and runs the hot-path, preload, oslite and
launcher tests there. An interpreter that is not installed is not run, and the line
printed says which ran and which were absent; one that is found must pass.

Cache: `$RTOK_TEST_CACHE`, else `~/.cache/rtok-tests` of the user running the tests (the
real home from the password database: the tests' own HOME is a temporary one).
"""

from __future__ import annotations

import glob
import hashlib
import os
import pwd
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
MINORS = range(11, 16)
# The start-up layer's tests (docs/DEVELOPING.md "Hot path rules" and "The launcher").
FILES = [
    "tests/test_hot_path_imports.py",
    "tests/test_preload.py",
    "tests/test_oslite.py",
    "tests/test_oslite_declared.py",
    "tests/test_fastjson.py",
    "tests/install/test_launcher.py",
    "tests/hooks/test_stdin_left_open.py",
]


def _real_home() -> str:
    return pwd.getpwuid(os.getuid()).pw_dir


# Read at import: the per-test environment drops RTOK_* variables.
CACHE_OVERRIDE = os.environ.get("RTOK_TEST_CACHE", "")


def _cache_dir() -> Path:
    return Path(CACHE_OVERRIDE or os.path.join(_real_home(), ".cache", "rtok-tests"))


def _candidates(minor: int) -> list[str]:
    """Where an interpreter 3.<minor> may be: PATH, pyenv (PYENV_ROOT or the user's
    ~/.pyenv), the system prefixes."""
    name = f"python3.{minor}"
    found = [shutil.which(name) or ""]
    roots = [os.environ.get("PYENV_ROOT", ""), os.path.join(_real_home(), ".pyenv")]
    for root in filter(None, roots):
        found += sorted(glob.glob(os.path.join(root, "versions", f"3.{minor}*", "bin", name)))
    found += [f"/usr/bin/{name}", f"/usr/local/bin/{name}"]
    return [path for path in found if path and os.access(path, os.X_OK)]


def _version(python: str) -> str | None:
    """'3.12.1' for a CPython, None for anything else (or one that does not start)."""
    try:
        done = subprocess.run(
            [
                python,
                "-c",
                "import sys; print(sys.implementation.name, "
                "'.'.join(map(str, sys.version_info[:3])))",
            ],
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
    except OSError:
        return None
    words = done.stdout.split()
    if done.returncode != 0 or len(words) != 2 or words[0] != "cpython":
        return None
    return words[1]


def interpreters() -> dict[str, str]:
    """version -> interpreter, one per CPython version >= 3.11 found."""
    found: dict[str, str] = {}
    for minor in MINORS:
        for python in _candidates(minor):
            version = _version(python)
            if version and version not in found:
                found[version] = python
    return found


def _venv(python: str, version: str) -> Path:
    """A venv of `python` with this checkout installed (editable, with the test extras),
    made once per interpreter, checkout and pyproject.toml."""
    key = hashlib.sha256(str(ROOT).encode() + (ROOT / "pyproject.toml").read_bytes())
    venv = _cache_dir() / f"venv-{version}-{key.hexdigest()[:12]}"
    ready = venv / ".rtok-ready"
    if ready.exists():
        return venv
    shutil.rmtree(venv, ignore_errors=True)
    venv.parent.mkdir(parents=True, exist_ok=True)
    subprocess.run([python, "-m", "venv", str(venv)], check=True, capture_output=True, timeout=300)
    done = subprocess.run(
        [str(venv / "bin" / "python"), "-m", "pip", "install", "-q", "-e", f"{ROOT}[test]"],
        capture_output=True,
        text=True,
        timeout=1200,
        check=False,
    )
    assert done.returncode == 0, f"installing rtok for {version}: {done.stderr[-2000:]}"
    ready.write_text(version + "\n")
    return venv


def test_start_up_layer_on_every_installed_cpython(capsys: pytest.CaptureFixture[str]) -> None:
    current = ".".join(map(str, sys.version_info[:3]))
    found = {version: python for version, python in interpreters().items() if version != current}
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("PYTEST_", "PYTHON", "VIRTUAL_ENV"))
    }
    env["RTOK_TEST_BIT_FLIPS"] = "40"  # the full 300 run on this interpreter
    runs = {}
    for version, python in sorted(found.items()):
        venv = _venv(python, version)
        # Side by side: each run is mostly subprocesses waiting on one core each.
        runs[version] = subprocess.Popen(
            [
                str(venv / "bin" / "python"),
                "-m",
                "pytest",
                "-q",
                "-x",
                "-p",
                "no:cacheprovider",
                "--skip-e2e",
                *FILES,
            ],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
    ran: list[str] = [f"{current} (this run)"]
    failures: list[str] = []
    for version, proc in runs.items():
        output, _ = proc.communicate(timeout=900)
        tail = output.strip().splitlines()[-1:] or ["(no output)"]
        ran.append(f"{version} ({found[version]}): {tail[0]}")
        if proc.returncode != 0:
            failures.append(f"{version}:\n{output[-4000:]}")
    absent = [
        f"3.{minor}"
        for minor in MINORS
        if not any(v.startswith(f"3.{minor}.") for v in [current, *found])
    ]
    with capsys.disabled():
        print(
            f"\ninterpreter matrix: ran on {'; '.join(ran)}; "
            f"not installed: {', '.join(absent) or 'none'}"
        )
    assert failures == [], "\n".join(failures)
