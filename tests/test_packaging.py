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
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "-q",
            "-w",
            str(out),
            REPO_ROOT,
        ],
        check=True,
        capture_output=True,
        timeout=300,
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
        check=True,
        capture_output=True,
        timeout=300,
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
        [str(python), "-c", probe],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={k: v for k, v in os.environ.items() if k != "PYTHONPATH"},
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert {line.split()[0] for line in result.stdout.splitlines()} == set(DATA_FOLDERS)


def _license_text() -> str:
    return Path(REPO_ROOT, "LICENSE").read_text()


def test_the_license_file_is_the_apache_2_text() -> None:
    text = _license_text()
    assert "Apache License" in text and "Version 2.0, January 2004" in text
    assert "TERMS AND CONDITIONS FOR USE, REPRODUCTION, AND DISTRIBUTION" in text
    assert "END OF TERMS AND CONDITIONS" in text


def test_wheel_metadata_names_license_urls_classifiers_and_runtime_deps(
    tmp_path: Path,
) -> None:
    wheel = _build_wheel(tmp_path / "dist")
    archive = zipfile.ZipFile(wheel)
    names = archive.namelist()
    licenses = [n for n in names if n.endswith(".dist-info/licenses/LICENSE")]
    assert len(licenses) == 1, names
    assert archive.read(licenses[0]).decode() == _license_text()
    metadata = next(n for n in names if n.endswith(".dist-info/METADATA"))
    _check_metadata_headers(archive.read(metadata).decode().split("\n\n", 1)[0].splitlines())


def _check_metadata_headers(headers: list[str]) -> None:
    assert "License-Expression: Apache-2.0" in headers
    assert "License-File: LICENSE" in headers
    assert any(h.startswith("Project-URL: Homepage, https://") for h in headers), headers
    assert any(h.startswith("Classifier: Programming Language :: Python :: 3") for h in headers)
    runtime = {
        h.split(":", 1)[1].split(">")[0].split("<")[0].strip().lower()
        for h in headers
        if h.startswith("Requires-Dist:") and "extra ==" not in h
    }
    assert runtime == {"typer", "questionary", "tomlkit", "ruamel-yaml", "filelock", "packaging"}
    test_extra = [h for h in headers if h.startswith("Requires-Dist: json5")]
    assert test_extra and all("extra == 'test'" in h or 'extra == "test"' in h for h in test_extra)


def test_sdist_carries_the_license_and_the_data_folders(tmp_path: Path) -> None:
    import tarfile

    out = tmp_path / "sdist"
    subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys, hatchling.build as b; print(b.build_sdist(sys.argv[1]))",
            str(out),
        ],
        check=True,
        capture_output=True,
        timeout=300,
        cwd=REPO_ROOT,
    )
    sdists = list(out.glob("rtok-*.tar.gz"))
    assert len(sdists) == 1, sdists
    with tarfile.open(sdists[0]) as tar:
        members = {m.name.split("/", 1)[1]: m for m in tar.getmembers() if "/" in m.name}
        assert "LICENSE" in members
        for folder in DATA_FOLDERS:
            assert any(name.startswith(f"{folder}/") for name in members), folder
        assert "shipped/manifest.json" in members
        handle = tar.extractfile(members["LICENSE"])
        assert handle is not None and handle.read().decode() == _license_text()


def _runtime_modules() -> list[str]:
    package = Path(REPO_ROOT, "rtok")
    modules = []
    for path in sorted(package.rglob("*.py")):
        rel = path.relative_to(REPO_ROOT).with_suffix("")
        parts = list(rel.parts)
        if parts[-1] == "__main__" or "_data" in parts:
            continue
        if parts[-1] == "__init__":
            parts = parts[:-1]
        modules.append(".".join(parts))
    return modules


def test_every_rtok_module_imports_without_test_only_dependencies(tmp_path: Path) -> None:
    """The runtime needs none of the test extra: every module of the installed wheel
    imports in a venv that has only the runtime dependencies (json5 absent)."""
    wheel = _build_wheel(tmp_path / "dist")
    env_dir = tmp_path / "venv"
    # The runtime dependencies come from the test interpreter's site-packages (no network);
    # json5 is hidden from it.
    venv.EnvBuilder(with_pip=True, system_site_packages=False).create(env_dir)
    python = env_dir / "bin" / "python"
    subprocess.run(
        [str(python), "-m", "pip", "install", "-q", "--no-deps", "--no-index", str(wheel)],
        check=True,
        capture_output=True,
        timeout=300,
    )
    site = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    import importlib.util

    runtime = [
        "typer",
        "click",
        "rich",
        "questionary",
        "prompt_toolkit",
        "wcwidth",
        "tomlkit",
        "ruamel",
        "filelock",
        "packaging",
        "pygments",
        "markdown_it",
        "mdurl",
        "shellingham",
        "typing_extensions",
        "annotated_doc",
    ]
    # Only these packages are linked into a folder the probe venv reads (a .pth line).
    linked = tmp_path / "runtime-deps"
    linked.mkdir()
    for name in runtime:
        spec = importlib.util.find_spec(name)
        if spec is None:
            continue
        if spec.submodule_search_locations:  # a package, or a namespace (ruamel)
            source = Path(next(iter(spec.submodule_search_locations)))
        elif spec.origin:
            source = Path(spec.origin)
        else:
            continue
        (linked / source.name).symlink_to(source)
    Path(site, "runtime-deps.pth").write_text(f"{linked}\n")
    probe = (
        "import importlib, sys\n"
        "try:\n    import json5\nexcept ImportError:\n    pass\n"
        "else:\n    sys.exit('json5 is importable in the probe venv')\n"
        "failed = []\n"
        "for name in sys.argv[1:]:\n"
        "    try:\n        importlib.import_module(name)\n"
        "    except Exception as exc:\n        failed.append(f'{name}: {exc!r}')\n"
        "print('\\n'.join(failed))\n"
        "sys.exit(1 if failed else 0)\n"
    )
    result = subprocess.run(
        [str(python), "-c", probe, *_runtime_modules()],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={k: v for k, v in os.environ.items() if k != "PYTHONPATH"},
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
