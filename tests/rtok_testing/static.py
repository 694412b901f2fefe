"""The static checks of tests/test_static.py as functions of a tree, so a test can plant a
fault in a temporary tree and show the same check catches it.

Each returns the problems it found (empty: clean) as text a failing assertion can print.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterable, Iterator, Sequence

from rtok_testing import REPO_ROOT

# Complexity the code keeps to, by both measures (ruff's McCabe and radon's, which also
# counts each boolean operator).
MAX_COMPLEXITY = 15
# mypy over tests/ (see pyproject.toml): --strict but for implicit re-exports, in two runs
# since tests/conftest.py and tests/e2e/conftest.py are both the module `conftest`.
E2E_CONFTEST = os.path.join("tests", "e2e", "conftest.py")
TESTS_MYPY_RUNS = (
    ("--implicit-reexport", "--exclude", E2E_CONFTEST, "tests"),
    ("--implicit-reexport", E2E_CONFTEST),
)
# Generated modules: their shape is the generator's (scripts/compile_data.py).
GENERATED = os.path.join("rtok", "compiled")


def run_module(*args: str, cwd: str = REPO_ROOT) -> subprocess.CompletedProcess[str]:
    """`python -m ARGS` with the interpreter running the tests."""
    return subprocess.run(
        [sys.executable, "-m", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )


def _report(result: subprocess.CompletedProcess[str]) -> list[str]:
    return [] if result.returncode == 0 else [result.stdout + result.stderr]


# ------------------------------------------------------------------ ruff and mypy


def ruff_complexity_problems(paths: Sequence[str], cwd: str = REPO_ROOT) -> list[str]:
    """ruff's C901 at MAX_COMPLEXITY, with every `# noqa` comment and per-file exemption a
    configuration might gain ignored: a new complex function is always reported."""
    return _report(
        run_module(
            "ruff",
            "check",
            "--select",
            "C901",
            "--ignore-noqa",
            "--config",
            f"lint.mccabe.max-complexity = {MAX_COMPLEXITY}",
            "--config",
            "lint.per-file-ignores = {}",
            *paths,
            cwd=cwd,
        )
    )


def format_problems(paths: Sequence[str]) -> list[str]:
    """Files not in `ruff format`'s layout, under the repository's own settings."""
    config = os.path.join(REPO_ROOT, "pyproject.toml")
    return _report(run_module("ruff", "format", "--check", "--config", config, *paths))


def mypy_problems(*args: str) -> list[str]:
    """mypy with the repository's configuration (pyproject.toml) and ARGS."""
    config = os.path.join(REPO_ROOT, "pyproject.toml")
    return _report(run_module("mypy", "--config-file", config, *args))


# ------------------------------------------------------------------ radon


def python_files(paths: Iterable[str], skip: Sequence[str] = (GENERATED,)) -> Iterator[str]:
    """Every .py file under PATHS (files or folders), generated modules left out."""
    for path in paths:
        if path.endswith(".py"):
            yield path
            continue
        for folder, dirs, files in os.walk(path):
            dirs[:] = sorted(d for d in dirs if d not in {"__pycache__", ".venv", "_data"})
            relative = os.path.relpath(folder, REPO_ROOT)
            if any(relative == s or relative.startswith(s + os.sep) for s in skip):
                continue
            yield from (
                os.path.join(folder, name) for name in sorted(files) if name.endswith(".py")
            )


def radon_problems(paths: Iterable[str]) -> list[str]:
    """Functions, methods and closures over MAX_COMPLEXITY by radon's measure."""
    from radon.complexity import cc_visit
    from radon.visitors import Function

    def walk(blocks: Iterable[object]) -> Iterator[Function]:
        for block in blocks:
            if isinstance(block, Function):
                yield block
                yield from walk(block.closures)
            else:  # a class: its methods and inner classes
                yield from walk(
                    [*getattr(block, "methods", []), *getattr(block, "inner_classes", [])]
                )

    problems = []
    for path in python_files(paths):
        with open(path, encoding="utf-8") as handle:
            blocks = cc_visit(handle.read())
        # radon lists a method both as a block and under its class: once each.
        functions = {(f.lineno, f.fullname): f for f in walk(blocks)}
        for function in functions.values():
            if function.complexity > MAX_COMPLEXITY:
                shown = os.path.relpath(path, REPO_ROOT)
                problems.append(
                    f"{shown}:{function.lineno} {function.fullname} {function.complexity}"
                )
    return problems


# ------------------------------------------------------------------ import cycles


def _namespace_parts(root: str, package: str) -> list[str]:
    """Sub-packages of PACKAGE (in folder ROOT) without an __init__.py: grimp builds its
    graph from regular packages only, so these are named to it one by one."""
    found = []
    base = os.path.join(root, *package.split("."))
    for folder, dirs, files in os.walk(base):
        dirs[:] = [d for d in dirs if d not in {"__pycache__", "_data"}]
        has_code = any(name.endswith(".py") for name in files)
        if folder != base and has_code and "__init__.py" not in files:
            found.append(".".join([package, *os.path.relpath(folder, base).split(os.sep)]))
    return found


def _components(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for start in sorted(edges):
        if start in index:
            continue
        work = [(start, iter(sorted(edges[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is None:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    found.append(_pop_component(stack, on_stack, node))
            elif child not in index:
                index[child] = low[child] = len(index)
                stack.append(child)
                on_stack.add(child)
                work.append((child, iter(sorted(edges[child]))))
            elif child in on_stack:
                low[node] = min(low[node], index[child])
    return sorted(sorted(c) for c in found if len(c) > 1)


def _pop_component(stack: list[str], on_stack: set[str], node: str) -> list[str]:
    component = []
    while True:
        member = stack.pop()
        on_stack.discard(member)
        component.append(member)
        if member == node:
            return component


def import_cycles(package: str, root: str = REPO_ROOT) -> list[str]:
    """Every import cycle among PACKAGE's modules (PACKAGE importable from folder ROOT),
    imports inside functions counted (a deferred import is still a dependency; only
    `if TYPE_CHECKING:` imports, which never run, are left out). One entry per cycle: its
    modules, then each import between them with its line."""
    import grimp

    if root not in sys.path:
        sys.path.insert(0, root)
    graph = grimp.build_graph(
        package,
        *_namespace_parts(root, package),
        exclude_type_checking_imports=True,
        cache_dir=None,
    )
    edges = {m: set(graph.find_modules_directly_imported_by(m)) for m in graph.modules}
    cycles = []
    for component in _components(edges):
        members = set(component)
        lines = [" <-> ".join(component)]
        for importer in component:
            for imported in sorted(edges[importer] & members):
                for detail in graph.get_import_details(importer=importer, imported=imported):
                    lines.append(
                        f"    {importer}:{detail['line_number']}: {detail['line_contents']}"
                    )
        cycles.append("\n".join(lines))
    return cycles


def unseen_modules(package: str, root: str = REPO_ROOT) -> list[str]:
    """Modules of PACKAGE on disk that the import graph does not hold (it would miss their
    cycles): empty when import_cycles saw the whole package."""
    import grimp

    graph = grimp.build_graph(package, *_namespace_parts(root, package), cache_dir=None)
    on_disk = []
    for path in python_files([os.path.join(root, *package.split("."))], skip=()):
        parts = os.path.relpath(path, root)[: -len(".py")].split(os.sep)
        on_disk.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return sorted(set(on_disk) - set(graph.modules))
