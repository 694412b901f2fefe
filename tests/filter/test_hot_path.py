"""`rtok run` and `rtok filter` import only the stdlib and rtok's own hot-path modules."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

FORBIDDEN = (
    "typer",
    "rich",
    "questionary",
    "tomlkit",
    "ruamel",
    "json5",
    "filelock",
    "tomllib",
    "typing",
    "dataclasses",
    "inspect",
    "click",
    "mcp",
)

PROBE = """
import json, sys
from rtok.cli.entry import main
from rtok.cli.process import flush_caches
status = main(json.loads(sys.argv[1]))
sys.stdout.flush()
flush_caches()  # what a process run of the verb does once it has finished
sys.stderr.write("\\nMODULES " + json.dumps(sorted(sys.modules)) + "\\n")
"""


@pytest.mark.parametrize(
    ("argv", "stdin"),
    [
        (["run", "true"], ""),
        (["run", sys.executable, "-c", "for i in range(300): print('line', i)"], ""),
        (["run", "git", "--version"], ""),
        (["filter", "--stdin", "--cmd", "git status"], "On branch main\nnothing to commit\n"),
        (["filter", "--stdin", "--cmd", "pytest"], "".join(f"row {i}\n" for i in range(200))),
    ],
)
def test_hot_path_imports_no_heavy_modules(argv: list[str], stdin: str) -> None:
    # Twice: the second run finds the parsed-config and rule caches warm.
    for _ in range(2):
        result = subprocess.run(
            [sys.executable, "-c", PROBE, json.dumps(argv)],
            input=stdin,
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        marker = result.stderr.rsplit("MODULES ", 1)
        assert len(marker) == 2, result.stderr
        modules = json.loads(marker[1])
        heavy = [m for m in modules if m.split(".")[0] in FORBIDDEN]
        assert not heavy, heavy


def test_trusted_families_does_not_parse_toml_when_nothing_changed(tmp_path: object) -> None:
    import os

    from rtok import paths

    rules = os.path.join(paths.config_dir(), "rules.toml")
    os.makedirs(os.path.dirname(rules), exist_ok=True)
    with open(rules, "w", encoding="utf-8") as handle:
        handle.write("[mytool]\nmax_lines = 5\nhead = 2\ntail = 1\n")
    probe = (
        "import sys; from rtok.filter.layers import trusted_families;"
        " trusted_families('.'); print('tomllib' in sys.modules);"
        " from rtok.cli.process import flush_caches; flush_caches()"
    )
    first = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=60, check=True
    )
    second = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=60, check=True
    )
    assert first.stdout.strip() == "True"  # parsed once, then cached
    assert second.stdout.strip() == "False"
