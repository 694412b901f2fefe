"""Agent names on the command line: the check of `--agent NAME` (a name no descriptor has
is a usage error, exit status 2, that names the nearest known names) and their shell
completion."""

from __future__ import annotations

import difflib
from typing import Any

import typer

from rtok.integrity import installed


def known_agents() -> list[str] | None:
    """Every agent name a descriptor has; None when the descriptors cannot be read."""
    try:
        return sorted(installed.descriptors())
    except Exception:
        return None


def unknown_message(verb: str, agent: str, known: list[str]) -> str:
    """One line: the unknown name, the nearest known one(s), where the list is."""
    near = difflib.get_close_matches(agent, known, n=3, cutoff=0.6)
    if not near:  # a prefix is close as well (`clau` for claude)
        near = [name for name in known if agent and name.startswith(agent)][:3]
    hint = f"did you mean {' or '.join(near)}? " if near else ""
    return f"rtok {verb}: unknown agent {agent!r}; {hint}(all agents: `rtok agents`)"


def exit_if_unknown(verb: str, agent: str | None) -> None:
    """Exit with status 2 when `agent` names no agent. When the descriptors cannot be read
    the name is let through: the command itself then reports what is wrong."""
    if agent is None:
        return
    known = known_agents()
    if known is None or agent in known:
        return
    typer.echo(unknown_message(verb, agent, known), err=True)
    raise typer.Exit(2)


def exit_if_any_unknown(verb: str, agents: list[str] | None) -> None:
    for name in agents or ():
        exit_if_unknown(verb, name)


def complete_agent(incomplete: str) -> list[str]:
    """Shell completion of `--agent`: the known names that start with `incomplete`."""
    return [name for name in known_agents() or () if name.startswith(incomplete)]


def agent_option(help_text: str) -> Any:
    """The `--agent NAME` / `-a NAME` option (repeatable, completed from the known names)."""
    return typer.Option(
        "--agent", "-a", metavar="NAME", autocompletion=complete_agent, help=help_text
    )
