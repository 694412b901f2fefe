"""rules/registry.toml: enough rewrite groups, a valid schema, and the never-lists enforced."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from rtok.compiled.registry import REGISTRY
from rtok.rewrite.registry_source import compiled_registry, load_source
from rtok.rewrite.rewriter import Settings, rewrite_command
from rtok.schema import DescriptorError

REQUIRED_COMMANDS = [
    "git",
    "gh",
    "cargo",
    "npm",
    "pnpm",
    "yarn",
    "bun",
    "npx",
    "pytest",
    "go",
    "ruff",
    "mypy",
    "tsc",
    "eslint",
    "jest",
    "vitest",
    "docker",
    "kubectl",
    "terraform",
    "make",
    "grep",
    "rg",
    "ls",
    "find",
    "tree",
    "cat",
    "head",
    "tail",
    "pip",
    "uv",
]


def test_at_least_sixty_groups() -> None:
    assert len(REGISTRY["groups"]) >= 60


@pytest.mark.parametrize("command", REQUIRED_COMMANDS)
def test_required_command_is_in_a_group(command: str) -> None:
    assert command in REGISTRY["command_index"]


def test_every_group_has_a_pipeline_position() -> None:
    for name, group in REGISTRY["groups"].items():
        assert group["pipeline"] in ("producer", "final", "both", "none"), name


def test_never_lists_cover_the_issue() -> None:
    never = REGISTRY["never"]
    for word in ("cd", "echo", "export", "vim", "less", "watch", "sudo", "rtok", "ssh", "top"):
        assert word in never


@pytest.mark.parametrize("command", sorted(REGISTRY["never"]))
def test_never_commands_are_not_rewritten(command: str) -> None:
    out = rewrite_command(f"{command} status x", settings=Settings())
    # rtok itself is reported unchanged; everything else gets no rewrite at all.
    assert out is None or (command in ("rtok", "rtok.exe") and out == f"{command} status x")


def _source() -> dict[str, Any]:
    return copy.deepcopy(load_source())


def test_compiled_module_matches_source() -> None:
    assert compiled_registry() == REGISTRY


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda s: s["groups"]["git"].update(pipeline="sometimes"), "groups.git.pipeline"),
        (lambda s: s["groups"]["git"].update(colour=1), "unknown key 'colour'"),
        (lambda s: s["groups"]["git"].update(commands="git"), "groups.git.commands"),
        (
            lambda s: s["groups"].update(bad={"commands": ["vim"], "subcommands": ["*"]}),
            "in a [never] list",
        ),
        (lambda s: s["groups"]["ls"].update(subcommands=["*", "x"]), "must stand alone"),
        (lambda s: s["groups"]["git"].update(never_with=["nosuch -x"]), "not a listed"),
        (lambda s: s["groups"]["uv"].update(delegate=["nosuch"]), "groups.uv.delegate"),
        (
            lambda s: s["shells"]["bash"].update(dialect="tcsh"),
            "shells.bash.dialect must be one of bash, fish",
        ),
        (lambda s: s.update(extra={}), "unknown top-level"),
        # "family" names an output family (rtok/filter/family.py) only
        (lambda s: s.update(families=s.pop("groups")), "unknown top-level tables ['families']"),
    ],
)
def test_schema_errors_name_the_table(edit: Any, message: str) -> None:
    source = _source()
    edit(source)
    with pytest.raises(
        DescriptorError, match=message.replace("[", r"\[").replace("]", r"\]")
    ) as raised:
        compiled_registry(source)
    assert str(raised.value).startswith("rules/registry.toml: ")
