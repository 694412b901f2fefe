"""Rule layers: trust gate, later-wins merge, malformed files skipped and reported."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import pytest

from rtok import paths
from rtok.filter import layers
from rtok.filter.rule import FIELDS, Rule, check_table, default_rule, is_rule_table
from rtok.filter.ruleparse import parse_rule_bytes
from rtok_testing import run_rtok

LONG_INPUT = "".join(f"row {i}\n" for i in range(100))


def trust_file(path: Path) -> None:
    """Write the real trust store entry for `path` (the format rtok.trust reads)."""
    store = Path(paths.trust_store())
    store.parent.mkdir(parents=True, exist_ok=True)
    trusted: dict[str, object] = {}
    data: dict[str, object] = {"version": 1, "trusted": trusted}
    if store.exists():
        data = json.loads(store.read_text())
        loaded = data["trusted"]
        assert isinstance(loaded, dict)
        trusted = loaded
    trusted[os.path.realpath(path)] = {
        "sha256": hashlib.sha256(path.read_bytes()).hexdigest(),
        "trusted_at": "2026-01-01T00:00:00Z",
        "scope": "user",
    }
    store.write_text(json.dumps(data))


def user_rules(text: str, name: str = "") -> Path:
    base = Path(paths.config_dir())
    path = base / "rules.d" / name if name else base / "rules.toml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def shown_lines(cmd: str, text: str = LONG_INPUT, cwd: str | None = None) -> list[str]:
    result = run_rtok(["filter", "--stdin", "--cmd", cmd], input=text, cwd=cwd)
    assert result.returncode == 0, result.stderr
    return result.stdout.decode().splitlines()


def test_unknown_family_gets_the_default_rule() -> None:
    lines = shown_lines("mytool --flag")
    assert lines[:10] == [f"row {i}" for i in range(10)]
    assert lines[10] == "… 80 lines omitted"
    assert lines[11:21] == [f"row {i}" for i in range(90, 100)]
    assert lines[21].startswith("[rtok ")


def test_untrusted_user_rule_is_skipped_and_trusted_one_applies() -> None:
    path = user_rules("[mytool]\nmax_lines = 5\nhead = 2\ntail = 1\n")
    assert len(shown_lines("mytool")) == 22  # default rule: file not trusted
    assert layers.trusted_families(os.getcwd()) == frozenset()
    trust_file(path)
    lines = shown_lines("mytool")
    assert lines[:2] == ["row 0", "row 1"] and lines[2] == "… 97 lines omitted"
    assert lines[3] == "row 99" and len(lines) == 5
    assert layers.trusted_families(os.getcwd()) == frozenset({"mytool"})


def test_editing_a_trusted_file_revokes_it() -> None:
    path = user_rules("[mytool]\nmax_lines = 5\nhead = 2\ntail = 1\n")
    trust_file(path)
    path.write_text("[mytool]\nmax_lines = 6\nhead = 3\ntail = 1\n")
    assert len(shown_lines("mytool")) == 22
    assert layers.trusted_families(os.getcwd()) == frozenset()


def test_later_layers_win_per_family(tmp_path: Path) -> None:
    first = user_rules("[mytool]\nmax_lines = 5\nhead = 2\ntail = 1\n")
    second = user_rules("[mytool]\nmax_lines = 8\nhead = 4\ntail = 1\n", "20-more.toml")
    project = tmp_path / "proj"
    (project / ".rtok").mkdir(parents=True)
    third = project / ".rtok" / "rules.toml"
    third.write_text(
        "[mytool]\nmax_lines = 12\nhead = 6\ntail = 2\n[other]\nmax_lines = 3\nhead = 1\ntail = 1\n"
    )
    for path in (first, second, third):
        trust_file(path)
    assert shown_lines("mytool")[4] == "… 95 lines omitted"  # rules.d beats rules.toml
    sub = project / "src"
    sub.mkdir()
    assert shown_lines("mytool", cwd=str(sub))[6] == "… 92 lines omitted"  # project wins
    assert layers.trusted_families(str(sub)) == frozenset({"mytool", "other"})


def test_malformed_file_is_skipped_with_one_notice_and_others_still_apply() -> None:
    good = user_rules("[mytool]\nmax_lines = 5\nhead = 2\ntail = 1\n")
    bad = user_rules("[mytool]\nmax_lines = 5\nhead = 2\ntail = 1\ncolour = 'red'\n", "50.toml")
    trust_file(good)
    trust_file(bad)
    result = run_rtok(["filter", "--stdin", "--cmd", "mytool"], input=LONG_INPUT)
    assert result.returncode == 0
    assert result.stdout.decode().splitlines()[2] == "… 97 lines omitted"
    notice = result.stderr.decode().splitlines()
    assert len(notice) == 1 and "50.toml" in notice[0] and "colour" in notice[0]


def test_validate_names_line_and_reason() -> None:
    user_rules("[a]\nmax_lines = 5\nhead = 2\ntail = 1\n", "10-ok.toml")
    user_rules("[b]\nmax_lines = 5\n\nhead = 'two'\n", "20-type.toml")
    user_rules("[c\nmax_lines = 1\n", "30-broken.toml")
    user_rules("[d]\nmax_lines = 5\nhead = 1\ntail = 1\nextra = true\n", "40-unknown.toml")
    result = run_rtok(["config", "validate"])
    assert result.returncode == 1
    out = result.stdout.decode()
    assert "10-ok.toml: valid, untrusted" in out
    assert "20-type.toml: malformed: line 4: [b] head: expected an integer" in out
    assert "30-broken.toml: malformed: line 1: broken TOML" in out
    assert "40-unknown.toml: malformed: line 5: [d] unknown field 'extra'" in out
    one = run_rtok(["config", "validate", str(Path(paths.config_dir()) / "rules.d" / "10-ok.toml")])
    assert one.returncode == 0


@pytest.mark.parametrize(
    ("table", "problem"),
    [
        ({"max_lines": -1}, "must not be negative"),
        ({"max_lines": True}, "expected an integer"),
        ({"dedupe": "yes"}, "expected true or false"),
        ({"drop": "x"}, "expected a list"),
        ({"drop": ["("]}, "bad regular expression"),
        ({"head": 30, "tail": 30, "max_lines": 40}, "larger than max_lines"),
        ({"json_items": 1.5}, "expected an integer"),
    ],
)
def test_schema_rejects(table: dict[str, object], problem: str) -> None:
    found = check_table("fam", table)
    assert found is not None and problem in found


def test_an_unset_field_takes_the_schema_default() -> None:
    rule = default_rule("anytool")
    for name, (kind, default) in FIELDS.items():
        expected = None if kind == "regex_list" else default
        assert getattr(rule, name) == expected, name
    assert default_rule("x").max_lines == Rule.from_table("x", {"head": 1}, "t").max_lines


def test_a_valid_table_is_typed_once_checked() -> None:
    assert is_rule_table({"max_lines": 25, "drop": ["^x"]}, "fam")
    assert not is_rule_table({"max_lines": "5"}, "fam")
    assert not is_rule_table({"max_lines": 5}, "bad name")
    parsed = parse_rule_bytes(b"[fam]\nmax_lines = 25\n[other]\ndedupe = false\n")
    assert parsed == {"rules": {"fam": {"max_lines": 25}, "other": {"dedupe": False}}}


def test_top_level_value_is_malformed() -> None:
    parsed = parse_rule_bytes(b"max_lines = 3\n")
    assert "error" in parsed and "line 1" in str(parsed["error"])


def test_builtin_rules_are_valid_and_compiled() -> None:
    from rtok import resources

    parsed = parse_rule_bytes(resources.read_bytes("rules", "default.toml"))
    assert "rules" in parsed
    assert parsed["rules"] == layers.builtin_tables()


def test_a_trusted_default_table_replaces_the_default_rule() -> None:
    path = user_rules("[default]\nmax_lines = 4\nhead = 1\ntail = 1\ndedupe = false\n")
    assert len(shown_lines("anytool")) == 22  # untrusted: built-in default rule
    trust_file(path)
    assert shown_lines("anytool") == [
        "row 0",
        "… 98 lines omitted",
        "row 99",
        shown_lines("anytool")[-1],
    ]
    assert shown_lines("git log", "".join(f"row {i}\n" for i in range(100)))[1] != (
        "… 98 lines omitted"
    )  # a family with its own rule keeps it
    assert layers.trusted_families(os.getcwd()) == frozenset()


def test_home_rtok_folder_is_not_a_project(isolated_home: Path) -> None:
    """A `.rtok/` in HOME is not a project, and no `.rtok/` above the git top applies."""
    from rtok.filter.layers import project_root

    (isolated_home / ".rtok").mkdir()
    repo = isolated_home / "src" / "repo"
    (repo / ".git").mkdir(parents=True)
    (repo / "pkg").mkdir()
    assert project_root(str(repo / "pkg")) is None
    (repo / ".rtok").mkdir()
    assert project_root(str(repo / "pkg")) == str(repo)
    outside = isolated_home / "notes"
    outside.mkdir()
    assert project_root(str(outside)) is None
