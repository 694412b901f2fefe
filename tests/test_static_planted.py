"""Each static gate of tests/test_static.py catches a fault planted in a temporary tree,
and passes the same tree without it."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from rtok_testing import static


def _write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text).lstrip(), encoding="utf-8")
    return path


def _package(root: Path, name: str, modules: dict[str, str]) -> None:
    """A package NAME under ROOT: regular where a folder has an __init__.py in MODULES,
    a namespace folder otherwise."""
    _write(root / name / "__init__.py", "")
    for relative, text in modules.items():
        _write(root / name / relative, text)


@pytest.fixture
def on_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.syspath_prepend(str(tmp_path))
    return tmp_path


# ------------------------------------------------------------------ import cycles

DEFERRED_CYCLE = {
    "low.py": "def helper() -> int:\n    from planted_a.ns import high\n\n    return high.VALUE\n",
    "ns/high.py": "from planted_a import low\n\nVALUE = 1\nuse = low.helper\n",
}


def test_a_cycle_through_a_deferred_import_in_a_namespace_folder_is_caught(
    on_path: Path,
) -> None:
    _package(on_path, "planted_a", DEFERRED_CYCLE)
    assert static.unseen_modules("planted_a", root=str(on_path)) == []
    cycles = static.import_cycles("planted_a", root=str(on_path))
    assert len(cycles) == 1
    assert cycles[0].splitlines()[0] == "planted_a.low <-> planted_a.ns.high"
    assert "planted_a.low:2: from planted_a.ns import high" in cycles[0]


def test_a_three_module_circle_is_one_cycle(on_path: Path) -> None:
    _package(
        on_path,
        "planted_b",
        {
            "one.py": "from planted_b import two\n",
            "two.py": "from planted_b import three\n",
            "three.py": "import planted_b.one\n",
            "apart.py": "from planted_b import one\n",
        },
    )
    cycles = static.import_cycles("planted_b", root=str(on_path))
    assert [c.splitlines()[0] for c in cycles] == [
        "planted_b.one <-> planted_b.three <-> planted_b.two"
    ]


def test_the_shared_piece_moved_down_a_floor_leaves_no_cycle(on_path: Path) -> None:
    _package(
        on_path,
        "planted_c",
        {
            "floor.py": "VALUE = 1\n",
            "low.py": "from planted_c.floor import VALUE\n",
            "ns/high.py": "from planted_c import low\nfrom planted_c.floor import VALUE\n",
            # Never runs: a type checker's import is not a dependency at run time.
            "typed.py": "from typing import TYPE_CHECKING\n\nif TYPE_CHECKING:\n"
            "    from planted_c.ns import high\n",
            "ns/user.py": "from planted_c import typed\n",
        },
    )
    assert static.import_cycles("planted_c", root=str(on_path)) == []


def test_a_namespace_folder_is_in_the_graph(on_path: Path) -> None:
    """grimp builds its graph from regular packages; the check names namespace folders to it,
    so their modules (and their cycles) are seen."""
    import grimp

    _package(on_path, "planted_d", DEFERRED_CYCLE)
    alone = grimp.build_graph("planted_d", cache_dir=None)
    assert "planted_d.ns.high" not in alone.modules
    assert static.unseen_modules("planted_d", root=str(on_path)) == []


# ------------------------------------------------------------------ complexity


def _function(name: str, branches: int, *, with_and: bool) -> str:
    condition = "x == {i} and y" if with_and else "x == {i}"
    body = "".join(
        f"    if {condition.format(i=i)}:\n        return {i}\n" for i in range(branches)
    )
    return f"def {name}(x: int, y: bool) -> int:\n{body}    return -1\n\n\n"


def test_a_function_over_15_is_caught_by_both_measures(tmp_path: Path) -> None:
    planted = _write(tmp_path / "planted.py", _function("branchy", 15, with_and=False))
    assert static.radon_problems([str(planted)])[0].endswith(" branchy 16")
    assert "C901 `branchy` is too complex (16 > 15)" in "".join(
        static.ruff_complexity_problems([str(planted)], cwd=str(tmp_path))
    )


def test_boolean_operators_count_for_radon_only(tmp_path: Path) -> None:
    """Eight `if a and b:` are 17 for radon and 9 for McCabe: radon is the gate that sees it."""
    planted = _write(tmp_path / "planted.py", _function("anded", 8, with_and=True))
    assert [p.rsplit(" ", 2)[1:] for p in static.radon_problems([str(planted)])] == [
        ["anded", "17"]
    ]
    assert static.ruff_complexity_problems([str(planted)], cwd=str(tmp_path)) == []


def test_methods_and_closures_are_measured_and_15_passes(tmp_path: Path) -> None:
    method = textwrap.indent(_function("method", 15, with_and=False), "    ")
    closure = textwrap.indent(_function("inner", 15, with_and=False), "    ")
    planted = _write(
        tmp_path / "planted.py",
        "class Holder:\n"
        + method.replace("(x", "(self, x")
        + "def outer() -> None:\n"
        + closure
        + "    inner(1, True)\n\n\n"
        + _function("at_the_limit", 14, with_and=False),
    )
    found = [p.rsplit(" ", 2)[1:] for p in static.radon_problems([str(planted)])]
    assert sorted(found) == [["Holder.method", "16"], ["inner", "16"]]


# ------------------------------------------------------------------ format and mypy


def test_an_unformatted_file_is_caught(tmp_path: Path) -> None:
    planted = _write(tmp_path / "planted.py", "values = {  'a':1 }\n")
    assert "1 file would be reformatted" in "".join(static.format_problems([str(planted)]))
    planted.write_text('values = {"a": 1}\n', encoding="utf-8")
    assert static.format_problems([str(planted)]) == []


def test_a_mypy_error_in_a_script_is_caught(tmp_path: Path) -> None:
    script = _write(
        tmp_path / "scripts" / "planted_script.py",
        """
        def twice(count: int) -> int:
            return count * "2"
        """,
    )
    problems = "".join(static.mypy_problems(str(script)))
    assert 'Incompatible return value type (got "str", expected "int")' in problems
    _write(script, "def twice(count: int) -> int:\n    return count * 2\n")
    assert static.mypy_problems(str(script)) == []


def test_scripts_are_checked_under_strict(tmp_path: Path) -> None:
    script = _write(
        tmp_path / "scripts" / "planted_untyped.py", "def twice(count):\n    return 2\n"
    )
    assert "Function is missing a type annotation" in "".join(static.mypy_problems(str(script)))
