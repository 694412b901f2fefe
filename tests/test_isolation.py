"""The test session's isolation: every variable that relocates an agent's files is scrubbed,
so a developer's shell that sets one cannot make the suite write into real directories."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from rtok.install.integrations import load_descriptors
from rtok_testing import isolation

TESTS = Path(__file__).resolve().parent
_VARIABLE = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)")


def _descriptor_variables() -> dict[str, set[str]]:
    """agent -> the variables its descriptor names, read through rtok's own loader."""
    found: dict[str, set[str]] = {}
    for name, descriptor in load_descriptors().items():
        names = set(descriptor.relocation_env)
        names.update(_VARIABLE.findall(" ".join(descriptor.detection.paths)))
        for specs in descriptor.files.values():
            for spec in specs:
                names.update(_VARIABLE.findall(spec.path))
                names.update(
                    _VARIABLE.findall(
                        " ".join(
                            str(value) for value in spec.options.values() if isinstance(value, str)
                        )
                    )
                )
        found[name] = names
    return found


def test_every_descriptor_variable_is_scrubbed() -> None:
    missed = {
        agent: sorted(names - isolation.SCRUBBED)
        for agent, names in _descriptor_variables().items()
        if names - isolation.SCRUBBED
    }
    assert not missed, f"variables the test session does not scrub: {missed}"


def test_the_scrub_reads_new_descriptors(tmp_path: Path) -> None:
    (tmp_path / "newagent.toml").write_text(
        'name = "newagent"\n[install]\nrelocation_env = ["NEWAGENT_HOME"]\n'
        '[[install.global]]\npath = "${NEWAGENT_DATA:-~/.newagent}/hooks.json"\n',
        encoding="utf-8",
    )
    assert isolation.descriptor_env_overrides(tmp_path) == {"NEWAGENT_HOME", "NEWAGENT_DATA"}


def test_a_session_started_with_every_variable_set_sees_none_of_them(tmp_path: Path) -> None:
    names = sorted(set().union(*_descriptor_variables().values()))
    assert names
    probe = tmp_path / "test_probe.py"
    probe.write_text(
        "import os\n\n"
        f"NAMES = {names!r}\n\n"
        "def test_probe():\n"
        f"    real = {str(tmp_path / 'real')!r}\n"
        "    kept = [name for name in NAMES if os.environ.get(name, '').startswith(real)]\n"
        "    assert not kept, kept\n"
        f"    assert os.environ['HOME'] != {str(tmp_path / 'real-home')!r}\n",
        encoding="utf-8",
    )
    env = dict(
        os.environ,
        HOME=str(tmp_path / "real-home"),
        PYTHONPATH=os.pathsep.join([str(TESTS), os.environ.get("PYTHONPATH", "")]),
    )
    env.update({name: str(tmp_path / "real" / name) for name in names})
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "conftest",
            "--rootdir",
            str(tmp_path),
            "-o",
            "addopts=",
            str(probe),
        ],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    assert "1 passed" in proc.stdout
    assert not (tmp_path / "real").exists()
