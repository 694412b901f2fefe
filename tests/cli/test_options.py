"""The same option has the same short form in every verb, and a short form means one
thing everywhere."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import typer

from rtok.cli.app import build_app
from rtok_testing import run_rtok

# long option -> the short form it has wherever it exists
SHORT_FORMS = {"--agent": "-a", "--global": "-g", "--verbose": "-v", "--help": "-h", "--yes": "-y"}


def _commands() -> Iterator[tuple[str, Any]]:
    root = typer.main.get_command(build_app())
    ctx = root.make_context("rtok", [], resilient_parsing=True)
    stack: list[tuple[str, Any, Any]] = [("rtok", root, ctx)]
    while stack:
        name, command, context = stack.pop()
        yield name, command
        if hasattr(command, "list_commands"):
            for sub_name in command.list_commands(context):
                sub = command.get_command(context, sub_name)
                sub_ctx = sub.make_context(sub_name, [], parent=context, resilient_parsing=True)
                stack.append((f"{name} {sub_name}", sub, sub_ctx))


def _options(command: Any, ctx_help: list[str]) -> list[list[str]]:
    found = [
        list(param.opts) + list(param.secondary_opts)
        for param in command.params
        if param.param_type_name == "option"
    ]
    if command.add_help_option is not False:
        found.append(ctx_help)
    return found


def test_each_long_option_has_its_short_form_everywhere() -> None:
    meanings: dict[str, set[str]] = {}
    seen_agent = []
    for name, command in _commands():
        for names in _options(command, ["-h", "--help"]):
            longs = [n for n in names if n.startswith("--")]
            shorts = [n for n in names if not n.startswith("--")]
            for long in longs:
                if long in SHORT_FORMS:
                    assert SHORT_FORMS[long] in shorts, (name, names)
                if long == "--agent":
                    seen_agent.append(name)
            for short in shorts:
                meanings.setdefault(short, set()).update(longs[:1])
    assert {one for one, longs in meanings.items() if len(longs) > 1} == set(), meanings
    assert {"rtok init", "rtok uninstall", "rtok verify", "rtok doctor"} <= set(seen_agent)


def test_short_agent_option_works_in_every_verb_that_takes_one() -> None:
    for verb in (
        ["verify"],
        ["doctor"],
        ["init", "-g", "--dry-run"],
        ["uninstall", "-g", "--dry-run"],
    ):
        long = run_rtok([*verb, "--agent", "claude", "--json"])
        short = run_rtok([*verb, "-a", "claude", "--json"])
        assert long.returncode == short.returncode, (verb, long.stderr, short.stderr)
        assert short.returncode in (0, 1), short.stderr
        assert long.stdout == short.stdout
