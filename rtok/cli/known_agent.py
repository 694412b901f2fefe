"""The `--agent NAME` check of `rtok verify` and `rtok doctor`: a name no descriptor has is
a usage error (exit status 2) that lists the known names."""

from __future__ import annotations

import typer

from rtok.integrity import installed


def exit_if_unknown(verb: str, agent: str | None) -> None:
    """Exit with status 2 when `agent` names no agent. When the descriptors cannot be read
    the name is let through: the command itself then reports what is wrong."""
    if agent is None:
        return
    try:
        known = set(installed.descriptors())
    except Exception:
        return
    if agent not in known:
        typer.echo(f"rtok {verb}: unknown agent {agent!r}; known: {', '.join(sorted(known))}",
                   err=True)
        raise typer.Exit(2)
