"""`rtok discover`: shell calls the agents ran raw that rtok would have shortened, read
from their own transcripts and rtok's hook decision log (rtok/store/discover.py)."""

from __future__ import annotations

import json
from typing import Annotated

import typer

from rtok.cli.cmd_gain import _project_path, _when
from rtok.cli.gain_render import compact
from rtok.cli.shared_options import SinceOption, json_option, project_option
from rtok.store.discover import Discovery, discover

HELP = (
    "Shell calls your agents ran without rtok that it would have shortened (from their "
    "transcripts and the hook's log)."
)


def register(app: typer.Typer) -> None:
    app.command(name="discover", help=HELP)(run)


def run(
    since: SinceOption = "",
    project: Annotated[bool, project_option("calls")] = False,
    as_json: Annotated[bool, json_option("The report as JSON.")] = False,
) -> None:
    found = discover(_when(since, "--since", end=False), _project_path() if project else None)
    if as_json:
        typer.echo(json.dumps(found.as_dict(), indent=2))
        return
    typer.echo(render(found))


def render(found: Discovery) -> str:
    lines = ["rtok discover"]
    if not found.sources:
        lines.append("No agent transcripts are known to rtok.")
    for agent, pattern in sorted(found.sources.items()):
        lines.append(f"  read {agent}: {pattern}")
    lines.append(
        f"{found.calls} shell calls: {found.via_rtok} through rtok, {found.denied}"
        f" denied, {found.raw} raw with short output"
    )
    if found.missed:
        lines += [
            "",
            "ran raw, rtok would have shortened them:",
            f"  {'family':<14} {'calls':>5} {'output':>9} {'est. saved':>10}",
        ]
        for item in found.missed:
            saved = (
                "?" if item.estimated_saved_tokens is None else compact(item.estimated_saved_tokens)
            )
            lines.append(
                f"  {item.family:<14} {item.calls:>5} {compact(item.output_bytes):>9}"
                f" {saved:>10}  e.g. {item.examples[0]}"
            )
    else:
        lines.append("No raw call that rtok would have shortened.")
    if found.not_covered:
        lines += ["", "long raw output rtok does not cover yet:"]
        for item in found.not_covered:
            lines.append(
                f"  {item.family:<14} {item.calls:>5} {compact(item.output_bytes):>9}"
                f" bytes  e.g. {item.examples[0]}"
            )
    if found.reruns:
        lines += ["", "re-run raw after a shortened result:"]
        lines += [f"  {r['command']}" for r in found.reruns]
    if found.without_rtok:
        names = ", ".join(str(item["agent"]) for item in found.without_rtok)
        lines += ["", f"agents here without rtok: {names} (`rtok init --agent NAME`)"]
    if found.silent_hooks:
        names = ", ".join(str(item["agent"]) for item in found.silent_hooks)
        lines += ["", f"hooks installed that never ran since: {names} (`rtok doctor`)"]
    return "\n".join(lines)
