"""The wheel carries the data folders, and a non-editable install finds them."""

from __future__ import annotations

import os
import subprocess
import sys
import venv
import zipfile
from pathlib import Path

from rtok.resources import DATA_FOLDERS
from rtok_testing import REPO_ROOT


def _build_wheel(out: Path) -> Path:
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
         "-q", "-w", str(out), REPO_ROOT],
        check=True, capture_output=True, timeout=300,
    )
    wheels = list(out.glob("rtok-*.whl"))
    assert len(wheels) == 1, wheels
    return wheels[0]


def test_wheel_installs_data_folders(tmp_path: Path) -> None:
    wheel = _build_wheel(tmp_path / "dist")
    names = zipfile.ZipFile(wheel).namelist()
    for folder in DATA_FOLDERS:
        assert any(n.startswith(f"rtok/_data/{folder}/") for n in names), folder

    env_dir = tmp_path / "venv"
    venv.EnvBuilder(with_pip=True).create(env_dir)
    python = env_dir / "bin" / "python"
    subprocess.run(
        [str(python), "-m", "pip", "install", "-q", "--no-deps", "--no-index", str(wheel)],
        check=True, capture_output=True, timeout=300,
    )
    probe = (
        "import os, rtok.resources as r\n"
        "for n in r.DATA_FOLDERS:\n"
        "    d = r.data_dir(n)\n"
        "    assert os.sep + '_data' + os.sep in d, d\n"
        "    assert os.listdir(d), d\n"
        "    print(n, len(r.list_files(n)))\n"
    )
    # Run from a directory outside the checkout so the source tree cannot be imported.
    result = subprocess.run(
        [str(python), "-c", probe], capture_output=True, text=True, cwd=tmp_path,
        env={k: v for k, v in os.environ.items() if k != "PYTHONPATH"}, timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert {line.split()[0] for line in result.stdout.splitlines()} == set(DATA_FOLDERS)
