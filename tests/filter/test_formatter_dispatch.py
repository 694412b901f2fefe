"""Formatter dispatch as data: rules/formatters.toml, its schema, and what each row picks."""

from __future__ import annotations

import importlib

import pytest

from rtok import resources
from rtok.filter.compile_formatters import DispatchRow, dispatch_lines, parse_dispatch
from rtok.filter.dispatch import formatter_for
from rtok.filter.family import family_of_command
from rtok.filter.formatters import cargo, git, gotest, listing, ruff_format, runners
from rtok.filter.formatters.diagnostics import diagnostics_for
from rtok.filter.formatters.summary import is_summariser
from rtok.schema import DescriptorError


def _rows() -> list[DispatchRow]:
    return parse_dispatch(resources.read_text("rules", "formatters.toml"))


def _named(row: DispatchRow) -> object:
    assert row.formatter is not None
    module = importlib.import_module(f"rtok.filter.formatters.{row.formatter.module}")
    found = getattr(module, row.formatter.name)
    return found if row.formatter.key is None else found[row.formatter.key]


def _command_for(row: DispatchRow) -> str:
    words = [row.programs[0]]
    if row.subcommands:
        words.append(row.subcommands[0])
    elif row.test_script:
        words.append("test")
    if row.options:
        words.append(row.options[0])
    return " ".join(words)


def test_every_row_says_what_it_is_for_and_is_reached() -> None:
    rows = _rows()
    assert len(rows) >= 40
    for row in rows:
        assert len(row.purpose) > 10, row
        family, words = family_of_command(_command_for(row))
        picked = formatter_for(family, words)
        assert picked is not None, row
        if row.composite:
            # several tools' sections, each read by its own reader
            assert is_summariser(picked), row
        else:
            assert picked is _named(row), row


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("git -C repo status", git.git_status),
        ("git --git-dir x log -n 3", git.git_log),
        ("git ls-files", listing.paths_by_folder),
        ("go test ./...", gotest.go_test),
        ("go test -json ./...", gotest.go_test),
        ("go vet ./...", diagnostics_for("go")),
        ("cargo t", cargo.cargo_test),
        ("cargo clippy", cargo.cargo_build),
        ("node --test", runners.FORMATTERS["tap"]),
        ("ruff format --check src", ruff_format.ruff_format),
        ("ruff format --diff src", git.unified_diff),
        ("ruff check .", diagnostics_for("ruff")),
        ("dotnet build", diagnostics_for("dotnet")),
        (
            "uv run pytest -q",
            importlib.import_module("rtok.filter.formatters.pytest_fmt").pytest_output,
        ),
    ],
)
def test_the_options_that_pick_a_formatter(command: str, expected: object) -> None:
    family, words = family_of_command(command)
    assert formatter_for(family, words) is expected


@pytest.mark.parametrize(
    "command",
    [
        "git push",
        "cargo fmt",
        "go mod tidy",
        "node app.js",
        "dotnet test",
        "npm install",
        "npm run build",
        "yarn lint",
        "unknown-tool --x",
        "ls",
    ],
)
def test_commands_no_row_picks(command: str) -> None:
    family, words = family_of_command(command)
    picked = formatter_for(family, words)
    assert picked is None or (command == "ls" and picked is listing.ls_long)


@pytest.mark.parametrize(
    "command",
    [
        "npm test",
        "pnpm t",
        "yarn test:unit",
        "bun e2e",
        "npm run test-e2e",
        "npm run-script x:test",
        "make",
        "just build",
        "tox -e py311",
    ],
)
def test_scripts_and_recipes_are_read_in_sections(command: str) -> None:
    family, words = family_of_command(command)
    picked = formatter_for(family, words)
    assert picked is not None and is_summariser(picked)
    assert picked is formatter_for(family, words)  # made once per family


def test_a_new_formatter_is_one_row() -> None:
    text = (
        'formatters = [{ programs = ["kubectl", "oc"], subcommands = ["get"], options = ["-o", '
        '"--output"], formatter = "listing.tree", for = "kubectl get: a table" },'
        ' { programs = ["kubectl"], formatter = "diagnostics[go]", for = "kubectl: its errors" },'
        ' { programs = ["kubectl"], composite = true, test_script = true, for = "kubectl x" }]\n'
    )
    assert dispatch_lines(parse_dispatch(text)) == [
        "kubectl\tget|-o --output||listing|tree||;*|*||diagnostics|FORMATTERS|go|;*|*|t||||c",
        "oc\tget|-o --output||listing|tree||",
    ]


def test_the_compiled_table_reads_only_its_own_family() -> None:
    # a family name that would reach across the compiled text's lines finds nothing
    assert formatter_for("git\tstatus|*||git|git_status||\nls", ["ls"]) is None
    assert formatter_for("ack\t*|*||grep|grep_output||\nag", ["ag"]) is None
    assert formatter_for("", []) is None
    assert formatter_for("gi", ["gi", "status"]) is None


@pytest.mark.parametrize(
    ("row", "message"),
    [
        ('{ programs = ["x"], formatter = "git.git_status" }', "formatters[0].for must be"),
        ('{ programs = ["x"], formatter = "git.nope", for = "x out" }', "no such formatter"),
        ('{ programs = ["x"], formatter = "nope.f", for = "x out" }', "no module"),
        ('{ programs = ["x"], formatter = "runners[nope]", for = "x" }', "no such formatter"),
        ('{ programs = ["x"], formatter = "git", for = "x out" }', "MODULE.FUNCTION"),
        ('{ programs = ["x"], for = "x out" }', "formatter is required"),
        ('{ programs = [], formatter = "git.git_log", for = "x" }', "programs is required"),
        ('{ programs = ["x"], formatter = "git.git_log", for = "x", sub = ["a"] }', "'sub'"),
        ('{ programs = ["x"], formatter = "git.git_log", for = "x", options = [] }', "options"),
        ('{ programs = ["x y"], formatter = "git.git_log", for = "x" }', "not a command word"),
        ('{ programs = ["x"], formatter = "git.git_log", for = "x", options = ["a|b"] }', "a|b"),
    ],
)
def test_a_bad_row_is_named(row: str, message: str) -> None:
    with pytest.raises(DescriptorError, match=r"rules/formatters\.toml: formatters\[0\]") as caught:
        parse_dispatch(f"formatters = [{row}]\n")
    assert message in str(caught.value)


def test_complete_formatters_carry_what_the_engine_reads() -> None:
    from rtok.filter.formatters import grep, logs
    from rtok.filter.protect import is_protected

    for formatter in (git.git_diff, git.unified_diff, listing.ls_long, grep.grep_output):
        assert getattr(formatter, "complete", False) is True
        assert getattr(formatter, "protects", is_protected) is not is_protected
    assert getattr(logs.log_lines, "complete", False) is True
    assert getattr(logs.log_lines, "protects", None) is is_protected
    assert not hasattr(git.git_status, "complete")
    # a listed file name is not a message; the tool's own line is
    protects = getattr(listing.paths_by_folder, "protects", None)
    assert protects is not None and not protects("src/password_reset/")
