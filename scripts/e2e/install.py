"""Install the pinned agent CLIs and runtimes into the e2e cache (idempotent, reused).

Run as `python scripts/e2e/install.py [AGENT ...]`; the e2e test session calls
`install_all` itself, so a clean CI machine installs what it needs.
"""

from __future__ import annotations

import contextlib
import fcntl
import glob
import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

if __package__ in (None, ""):
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from e2e.pins import (
    CACHE_DIR,
    NPM_AGENTS,
    PLUGIN_SDKS,
    PYPI_AGENTS,
    RUNTIMES,
    NpmPackage,
    PypiPackage,
    npm_cache,
)

INSTALL_TIMEOUT_S = 1800


@dataclass
class InstallReport:
    """Outcome of making one package present in the cache."""

    name: str
    version: str
    ok: bool
    reused: bool
    seconds: float
    error: str = ""


class InstallError(RuntimeError):
    pass


def _log_path(label: str) -> str:
    logs = os.path.join(CACHE_DIR, "logs")
    os.makedirs(logs, exist_ok=True)
    return os.path.join(logs, f"install-{label}.log")


@contextlib.contextmanager
def _locked(path: str) -> Iterator[None]:
    """Serialise installs of one prefix across concurrent test sessions."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path + ".lock", "w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _npm_env() -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        {
            "npm_config_cache": npm_cache(),
            "npm_config_update_notifier": "false",
            "npm_config_audit": "false",
            "npm_config_fund": "false",
            "npm_config_loglevel": "warn",
            "NO_UPDATE_NOTIFIER": "1",
        }
    )
    for name in list(env):
        if name.startswith("npm_config_offline"):
            del env[name]
    return env


def _run_logged(argv: list[str], label: str, env: dict[str, str], cwd: str | None = None) -> None:
    with open(_log_path(label), "ab") as log:
        log.write(f"\n$ {' '.join(argv)}\n".encode())
        log.flush()
        proc = subprocess.run(
            argv,
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
            env=env,
            cwd=cwd,
            timeout=INSTALL_TIMEOUT_S,
            check=False,
        )
    if proc.returncode != 0:
        raise InstallError(f"{argv[0]} exited {proc.returncode}; see {_log_path(label)}")


def installed_npm_version(pkg: NpmPackage) -> str | None:
    """The version in the installed package.json (not the bin link), or None."""
    try:
        with open(os.path.join(pkg.package_dir, "package.json"), encoding="utf-8") as handle:
            version = json.load(handle).get("version")
    except (OSError, ValueError):
        return None
    return version if isinstance(version, str) else None


def _slug(pkg: NpmPackage | PypiPackage) -> str:
    return f"{pkg.name.replace('@', '').replace('/', '-')}-{pkg.version}"


def install_npm(pkg: NpmPackage) -> InstallReport:
    start = time.monotonic()
    with _locked(pkg.prefix):
        if installed_npm_version(pkg) == pkg.version:
            return InstallReport(pkg.name, pkg.version, True, True, time.monotonic() - start)
        shutil.rmtree(pkg.prefix, ignore_errors=True)
        os.makedirs(pkg.prefix)
        try:
            _run_logged(
                [
                    "npm",
                    "install",
                    "--prefix",
                    pkg.prefix,
                    "--no-audit",
                    "--no-fund",
                    "--no-save",
                    f"{pkg.name}@{pkg.version}",
                ],
                _slug(pkg),
                _npm_env(),
            )
            got = installed_npm_version(pkg)
            if got != pkg.version:
                raise InstallError(f"installed version is {got!r}, expected {pkg.version}")
        except (InstallError, subprocess.TimeoutExpired) as exc:
            shutil.rmtree(pkg.prefix, ignore_errors=True)
            return InstallReport(
                pkg.name, pkg.version, False, False, time.monotonic() - start, str(exc)
            )
    return InstallReport(pkg.name, pkg.version, True, False, time.monotonic() - start)


def find_python312() -> str:
    """A Python 3.12 interpreter (Vibe needs >= 3.12, Hermes < 3.14)."""
    candidates = [shutil.which("python3.12") or ""]
    candidates += sorted(glob.glob(os.path.expanduser("~/.pyenv/versions/3.12*/bin/python3.12")))
    candidates += sorted(glob.glob("/root/.pyenv/versions/3.12*/bin/python3.12"))
    candidates += ["/usr/bin/python3.12", "/usr/local/bin/python3.12", sys.executable]
    for candidate in candidates:
        if not candidate or not os.path.exists(candidate):
            continue
        probe = subprocess.run(
            [candidate, "-c", "import sys, venv; print(sys.version_info[:2] == (3, 12))"],
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        if probe.returncode == 0 and probe.stdout.strip() == "True":
            return candidate
    raise InstallError("no Python 3.12 interpreter found (needed by Mistral Vibe and Hermes)")


def installed_pypi_version(pkg: PypiPackage) -> str | None:
    dist = pkg.name.replace("-", "_").lower()
    pattern = os.path.join(pkg.venv, "lib", "python3.*", "site-packages", "*.dist-info")
    for info in glob.glob(pattern):
        base = os.path.basename(info)[: -len(".dist-info")]
        name, _, version = base.rpartition("-")
        if name.replace("-", "_").lower() == dist:
            return version
    return None


def install_pypi(pkg: PypiPackage) -> InstallReport:
    start = time.monotonic()
    with _locked(pkg.venv):
        if installed_pypi_version(pkg) == pkg.version:
            return InstallReport(pkg.name, pkg.version, True, True, time.monotonic() - start)
        shutil.rmtree(pkg.venv, ignore_errors=True)
        env = dict(
            os.environ,
            PIP_DISABLE_PIP_VERSION_CHECK="1",
            PIP_CACHE_DIR=os.path.join(CACHE_DIR, "pip-cache"),
        )
        env.pop("VIRTUAL_ENV", None)
        env.pop("PYTHONPATH", None)
        try:
            _run_logged([find_python312(), "-m", "venv", pkg.venv], _slug(pkg), env)
            _run_logged(
                [
                    os.path.join(pkg.bin_dir, "pip"),
                    "install",
                    "--no-input",
                    *(["--no-deps"] if pkg.no_deps else []),
                    f"{pkg.name}=={pkg.version}",
                ],
                _slug(pkg),
                env,
            )
            got = installed_pypi_version(pkg)
            if got != pkg.version:
                raise InstallError(f"installed version is {got!r}, expected {pkg.version}")
        except (InstallError, subprocess.TimeoutExpired) as exc:
            shutil.rmtree(pkg.venv, ignore_errors=True)
            return InstallReport(
                pkg.name, pkg.version, False, False, time.monotonic() - start, str(exc)
            )
    return InstallReport(pkg.name, pkg.version, True, False, time.monotonic() - start)


def warm_npm_cache(pkg: NpmPackage) -> InstallReport:
    """Put one package into the shared npm cache so an agent can install it offline."""
    start = time.monotonic()
    marker = os.path.join(CACHE_DIR, "warm", _slug(pkg) + ".done")
    with _locked(marker):
        if os.path.exists(marker):
            return InstallReport(pkg.name, pkg.version, True, True, time.monotonic() - start)
        scratch = marker + ".scratch"
        shutil.rmtree(scratch, ignore_errors=True)
        os.makedirs(scratch)
        try:
            _run_logged(
                [
                    "npm",
                    "install",
                    "--prefix",
                    scratch,
                    "--no-audit",
                    "--no-fund",
                    f"{pkg.name}@{pkg.version}",
                ],
                _slug(pkg),
                _npm_env(),
            )
        except (InstallError, subprocess.TimeoutExpired) as exc:
            return InstallReport(
                pkg.name, pkg.version, False, False, time.monotonic() - start, str(exc)
            )
        finally:
            shutil.rmtree(scratch, ignore_errors=True)
        with open(marker, "w", encoding="utf-8") as handle:
            handle.write(pkg.version + "\n")
    return InstallReport(pkg.name, pkg.version, True, False, time.monotonic() - start)


def _jobs_for(agents: list[str]) -> list[tuple[str, NpmPackage | PypiPackage, str]]:
    jobs: list[tuple[str, NpmPackage | PypiPackage, str]] = []
    for agent in agents:
        if agent in NPM_AGENTS:
            jobs.append((agent, NPM_AGENTS[agent], "npm"))
        elif agent in PYPI_AGENTS:
            jobs.append((agent, PYPI_AGENTS[agent], "pypi"))
        else:
            raise InstallError(f"unknown agent {agent!r}")
        if agent in RUNTIMES:
            jobs.append((f"{agent}:runtime", RUNTIMES[agent], "npm"))
        if agent in PLUGIN_SDKS:
            jobs.append((f"{agent}:sdk", PLUGIN_SDKS[agent], "warm"))
    return jobs


def install_all(agents: list[str], workers: int = 3) -> dict[str, InstallReport]:
    """Install everything the given agents need; key = agent, agent:runtime or agent:sdk."""
    os.makedirs(CACHE_DIR, exist_ok=True)
    jobs = _jobs_for(agents)

    def run(job: tuple[str, NpmPackage | PypiPackage, str]) -> tuple[str, InstallReport]:
        key, pkg, kind = job
        if kind == "pypi":
            assert isinstance(pkg, PypiPackage)
            return key, install_pypi(pkg)
        assert isinstance(pkg, NpmPackage)
        return key, (warm_npm_cache(pkg) if kind == "warm" else install_npm(pkg))

    with ThreadPoolExecutor(max_workers=max(1, workers)) as pool:
        return dict(pool.map(run, jobs))


def install_problems(reports: dict[str, InstallReport], agent: str) -> list[str]:
    """What failed to install for one agent (its CLI, runtime or plugin SDK)."""
    return [
        f"{key} {r.name}@{r.version}: {r.error}"
        for key, r in reports.items()
        if key.split(":")[0] == agent and not r.ok
    ]


def main(argv: list[str]) -> int:
    from e2e.pins import AGENTS

    agents = argv or list(AGENTS)
    start = time.monotonic()
    reports = install_all(agents)
    for key, report in reports.items():
        state = "reused" if report.reused else ("installed" if report.ok else "FAILED")
        extra = f"  {report.error}" if report.error else ""
        print(f"{key:16} {report.name}@{report.version:10} {state:9} {report.seconds:7.1f}s{extra}")
    print(f"total {time.monotonic() - start:.1f}s  cache {CACHE_DIR}")
    return 0 if all(r.ok for r in reports.values()) else 1


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
