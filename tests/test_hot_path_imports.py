"""The hot-path verbs import only the stdlib and the rtok modules they need.

Each case runs `python -X importtime -m rtok VERB …` in a subprocess (with the test's
temporary HOME) and reads the names of every module imported from stderr. Add a verb by
adding a case to HOT_PATH_CASES.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

# Libraries too slow to import on every shell call of an agent.
FORBIDDEN = (
    "typer",
    "rich",
    "click",
    "questionary",
    "prompt_toolkit",
    "tomlkit",
    "ruamel",
    "json5",
    "filelock",
    "tomllib",
    "typing",
    "dataclasses",
    "inspect",
    "packaging",
)

CLAUDE_REWRITE_PAYLOAD = json.dumps(
    {
        "session_id": "s",
        "hook_event_name": "PreToolUse",
        "tool_name": "Bash",
        "tool_input": {"command": "git status"},
        "cwd": "/tmp",
    }
)

# (id, argv after `rtok`, stdin)
HOT_PATH_CASES = [
    ("rewrite", ["rewrite", "git", "status"], b""),
    ("rewrite-compound", ["rewrite", "FOO=1 timeout 5 bash -c 'cargo test | tail' && ls"], b""),
    ("rewrite-nothing", ["rewrite", "echo", "hi"], b""),
    ("hook-claude", ["hook", "claude"], CLAUDE_REWRITE_PAYLOAD.encode()),
    ("run", ["run", "true"], b""),
    ("filter", ["filter", "--stdin", "--cmd", "git status"], b"On branch main\n"),
    ("expand-list", ["expand", "--list"], b""),
    # `--help` after the command is the command's: no help from rtok, so no typer
    ("run-cmd-help", ["run", "true", "--help"], b""),
    ("rewrite-help-word", ["rewrite", "git", "--help"], b""),
]


def imported_modules(args: list[str], stdin: bytes, cwd: str) -> tuple[set[str], int]:
    result = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "rtok", *args],
        input=stdin,
        capture_output=True,
        cwd=cwd,
        env=dict(os.environ),
        timeout=60,
        check=False,
    )
    names = set()
    for line in result.stderr.decode(errors="replace").splitlines():
        if line.startswith("import time:") and line.count("|") == 2:
            name = line.rsplit("|", 1)[1].strip()
            if name != "package":  # the header line
                names.add(name)
    return names, result.returncode


@pytest.mark.parametrize(
    ("args", "stdin"), [c[1:] for c in HOT_PATH_CASES], ids=[c[0] for c in HOT_PATH_CASES]
)
def test_hot_path_imports_no_heavy_modules(args: list[str], stdin: bytes, tmp_path: Path) -> None:
    names, status = imported_modules(args, stdin, str(tmp_path))
    assert "rtok.cli.entry" in names, "the verb did not run through rtok's entry point"
    heavy = sorted(n for n in names if n.split(".")[0] in FORBIDDEN)
    assert heavy == [], f"rtok {' '.join(args)} imported {heavy} (exit {status})"


def test_the_check_sees_a_forbidden_import(tmp_path: Path) -> None:
    # The same probe on a verb that is allowed to use typer proves the check can fail;
    # `rtok run --help` is one (help in the typer verbs' form).
    for args in (["--help"], ["run", "--help"]):
        names, _ = imported_modules(args, b"", str(tmp_path))
        assert any(n.split(".")[0] in FORBIDDEN for n in names), args


# What the launcher's hot-path start (python -S -I) may not load at all: `re` (and `json`,
# which imports it) cost more than rtok's own work; `subprocess`, `signal`, `hashlib` and
# `sqlite3` have cheaper builtin cores that rtok uses instead; `os` (with
# `_collections_abc`) is rtok._fast.oslite's `posix` (see rtok/_fast/oslite.py).
LEAN_CASES = [
    (
        "hook-claude",
        ["hook", "claude"],
        CLAUDE_REWRITE_PAYLOAD.encode(),
        ("re", "json", "subprocess", "sqlite3", "hashlib", "typing", "os", "_collections_abc"),
    ),
    (
        "rewrite",
        ["rewrite", "git status"],
        b"",
        ("re", "json", "subprocess", "typing", "os", "_collections_abc"),
    ),
    (
        "run-true",
        ["run", "true"],
        b"",
        (
            "re",
            "json",
            "subprocess",
            "signal",
            "hashlib",
            "sqlite3",
            "selectors",
            "typing",
            "os",
            "_collections_abc",
        ),
    ),
    # a text output is read for being data without a codec of its own, and a command that
    # runs none without the exec-option reader
    (
        "filter-text",
        ["filter", "--stdin", "--cmd", "git log"],
        "".join(
            f"commit {n:040x}\nAuthor: A <a@example.org>\n\n    change {n}\n\n" for n in range(300)
        ).encode(),
        (
            "encodings.utf_16_le",
            "encodings.utf_16_be",
            "encodings.utf_32_le",
            "encodings.latin_1",
            "rtok.shell.exec_options",
            "subprocess",
            "typing",
        ),
    ),
]


@pytest.mark.parametrize(
    ("args", "stdin", "banned"), [c[1:] for c in LEAN_CASES], ids=[c[0] for c in LEAN_CASES]
)
def test_launcher_start_loads_none_of_the_costly_modules(
    args: list[str], stdin: bytes, banned: tuple[str, ...], tmp_path: Path
) -> None:
    from rtok._fast import launcher

    argv = [
        sys.executable,
        "-S",
        "-I",
        "-X",
        "importtime",
        "-c",
        launcher.BOOT,
        launcher.package_root(),
        "/nonexistent/rtok",
        *args,
    ]
    result = subprocess.run(
        argv,
        input=stdin,
        capture_output=True,
        cwd=tmp_path,
        env=dict(os.environ),
        timeout=60,
        check=False,
    )
    names = set()
    for line in result.stderr.decode(errors="replace").splitlines():
        if line.startswith("import time:") and line.count("|") == 2:
            names.add(line.rsplit("|", 1)[1].strip())
    assert "rtok.cli.entry" in names, result.stderr[-500:]
    assert sorted(n for n in names if n in banned) == []
