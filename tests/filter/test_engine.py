"""Rule engine, formatters and family detection, in process."""

from __future__ import annotations

from typing import cast

import pytest

from rtok.filter import engine
from rtok.filter.dispatch import formatter_for
from rtok.filter.family import family_of, family_of_command
from rtok.filter.formatters import cargo, git, gotest, grep, jsondoc, listing, pytest_fmt
from rtok.filter.jsonbody import compact_json
from rtok.filter.rule import Rule, default_rule

TYPE_CHECKING = False
if TYPE_CHECKING:
    from rtok.filter.rule import RuleTable


def rule(**table: object) -> Rule:
    # Tables a rule file could hold; from_table is the reader under test, so it gets them
    # as they are.
    return Rule.from_table("t", cast("RuleTable", table), "test")


@pytest.mark.parametrize(
    "formatter",
    [
        git.git_status,
        git.git_log,
        git.git_diff,
        git.git_show,
        git.unified_diff,
        pytest_fmt.pytest_output,
        cargo.cargo_build,
        cargo.cargo_test,
        gotest.go_test,
        listing.ls_long,
        listing.tree,
        listing.paths_by_folder,
        grep.grep_grouped,
        jsondoc.json_outline,
    ],
)
def test_formatters_stand_down_on_foreign_output(formatter: object) -> None:
    text = "hello world\nthis is not what you think\n" * 5
    assert formatter(text) is None  # type: ignore[operator]


def test_go_test_keeps_failures_and_package_results() -> None:
    text = (
        "=== RUN   TestA\n--- PASS: TestA (0.00s)\n=== RUN   TestB\n"
        "    b_test.go:9: want 2, got 3\n--- FAIL: TestB (0.00s)\nFAIL\n"
        "FAIL\texample.com/b\t0.01s\nok  \texample.com/a\t0.02s\n"
    )
    assert gotest.go_test(text) == [
        "--- FAIL: TestB",
        "    b_test.go:9: want 2, got 3",
        "FAIL\texample.com/b\t0.01s",
        "ok: example.com/a",
        "go test: 1 package ok; 1 failed; tests: 1 passed, 1 failed; 0.03s",
    ]


def test_drop_never_removes_protected_lines() -> None:
    lines = [
        "noise 1",
        "error: real problem",
        "noise 2",
        "warning: careful",
        "api_key=abc123",
        "noise 3",
    ]
    out = engine.shorten("\n".join(lines) + "\n", rule(drop=["."], dedupe=False), None, 0, 80)
    assert out == ["error: real problem", "warning: careful", "api_key=abc123"]


def test_keep_lines_survive_the_cut() -> None:
    lines = [f"row {i}" for i in range(100)]
    lines[50] = "IMPORTANT row"
    out = engine.shorten(
        "\n".join(lines), rule(max_lines=4, head=2, tail=2, keep=["IMPORTANT"]), None, 0, 80
    )
    assert out == [
        "row 0",
        "row 1",
        "… 48 lines omitted",
        "IMPORTANT row",
        "… 47 lines omitted",
        "row 98",
        "row 99",
    ]


def test_dedupe_counts_runs() -> None:
    assert engine.dedupe_lines(["a", "a", "a", "b", "a"]) == ["a (×3)", "b", "a"]


def test_carriage_return_progress_and_colours_are_normalised() -> None:
    assert engine.normalise("\x1b[31mred\x1b[0m\n10%\r50%\r100%\n") == ["red", "100%"]


def test_json_body_is_compacted() -> None:
    body = '{"a": [1, 2, 3, 4, 5, 6, 7], "b": null, "c": "", "d": {"e": "xxxxxxxxxx"}}'
    assert compact_json(body, 3, 5) == [
        '"a": [1, 2, 3, "… +4 more"]',
        '"d": {"e": "xxxxx… (10 chars)"}',
    ]
    assert compact_json("not json", 3, 5) is None


def test_failure_keeps_the_tail_verbatim_and_earlier_errors() -> None:
    lines = [f"step {i}" for i in range(200)]
    lines[10] = "FATAL: first problem"
    out = engine.shorten("\n".join(lines), default_rule("x"), None, 2, 20)
    assert out == [
        "… 10 lines omitted",
        "FATAL: first problem",
        "… 169 lines omitted",
        *[f"step {i}" for i in range(180, 200)],
    ]


@pytest.mark.parametrize(
    ("argv", "family"),
    [
        (["git", "status"], "git"),
        (["/usr/bin/git", "-C", "x", "log"], "git"),
        (["python3.11", "-m", "pytest", "-q"], "pytest"),
        (["env", "A=1", "timeout", "5", "cargo", "test"], "cargo"),
        (["FOO=1", "npx", "eslint", "."], "eslint"),
        (["uv", "run", "pytest"], "pytest"),
        (["sh", "-c", "cd x && cargo build && cargo test"], "cargo"),
        (["bash", "-c", "git status; ls -la"], "script"),
        (["sh", "-c", "export A=1\ngrep -rn x . | head"], "grep"),
        # what find -exec and fd -x run prints the output
        (["find", ".", "-name", "*.py", "-exec", "grep", "-n", "TODO", "{}", "+"], "grep"),
        (["find", "src", "-execdir", "wc", "-l", "{}", ";"], "wc"),
        (["fd", "-e", "py", "-x", "python3", "-m", "pytest", "-q"], "pytest"),
        (["find", ".", "-exec", "{}", ";"], "find"),
        (["find", ".", "-name", "-exec"], "find"),
        # fd's command attached to its option, or to clustered flags, as fd reads it
        (["fd", "a.txt", "--exec=cat"], "cat"),
        (["fdfind", "-HIxcat"], "cat"),
        (["fd", "-Hx", "wc", "-l"], "wc"),
        (["fd", "-tx", "cat"], "fd"),
    ],
)
def test_family_detection(argv: list[str], family: str) -> None:
    assert family_of(argv)[0] == family


def test_family_of_command_string() -> None:
    assert family_of_command("git diff --stat")[0] == "git"
    assert family_of_command("make build && pytest")[0] == "script"
    assert family_of_command("'my tool' --x")[0] == "my tool"


def test_formatter_dispatch_by_subcommand() -> None:
    assert formatter_for("git", ["git", "-C", "repo", "status"]) is git.git_status
    assert formatter_for("git", ["git", "push"]) is None
    assert formatter_for("cargo", ["cargo", "test"]) is cargo.cargo_test
    assert formatter_for("cargo", ["cargo", "fmt"]) is None


def test_very_long_lines_are_clipped_with_their_length() -> None:
    text = "x" * 50_000 + "\nshort\n" + "error " + "y" * 20_000 + "\n"
    out = engine.shorten(text, default_rule("t"), None, 0, 80)
    assert out[0] == "x" * 2000 + "… (50000 chars)"
    assert out[1] == "short"
    assert out[2].startswith("error yyy") and out[2].endswith("… (20006 chars)")
    assert len(out) == 3


def test_failure_tail_keeps_colours_and_carriage_returns() -> None:
    lines = [f"step {i}" for i in range(100)] + ["\x1b[31merror\x1b[0m: broken\r"]
    out = engine.shorten("\n".join(lines) + "\n", default_rule("t"), None, 1, 5)
    assert out[-1] == "\x1b[31merror\x1b[0m: broken\r"
    assert out[0] == "… 96 lines omitted"
