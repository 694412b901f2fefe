"""`rtok agents`: the supported agents, whether each is detected and where rtok is in it."""

from __future__ import annotations

import json as jsonlib
import os
import sys
from typing import Annotated

import typer

from rtok.cli import output
from rtok.cli.shared_options import json_option


def register(app: typer.Typer) -> None:
    @app.command(
        "agents",
        help="List supported agents: tier, how the integration is proven (e2e: the real "
        "CLI in rtok's end-to-end tier, with its version; contract: built from the host's "
        "docs, tested against recorded payloads), scopes, detected on this machine, "
        "installed scopes, files. Exit status 2 when the agent descriptors cannot be loaded.",
    )
    def agents(
        json: Annotated[bool, json_option("One JSON object per agent.")] = False,
    ) -> None:
        from rtok.install import runner, show
        from rtok.install.options import EXIT_USAGE, InitOptions
        from rtok.install.proof import proof_label

        opts = InitOptions(cwd=os.getcwd())
        try:
            descriptors = runner.integrations().load_descriptors()
        except Exception as exc:
            sys.stderr.write(f"rtok: the agent descriptors cannot be loaded: {exc}\n")
            raise typer.Exit(EXIT_USAGE) from exc
        rows = show.agent_rows(descriptors, sorted(descriptors), opts, with_status=False)
        if json:
            sys.stdout.write(jsonlib.dumps(rows, indent=2) + "\n")
            return
        for row in rows:
            scopes = row["scopes"]
            installed = row["installed"]
            proof = row["proof"]
            assert isinstance(scopes, list) and isinstance(installed, list)
            assert isinstance(proof, dict)
            line = (
                f"{row['name']:<12} {row['display_name']!s:<34} {row['tier']!s:<7} "
                f"{proof_label(proof):<42} scopes: {','.join(scopes)}"
            )
            if row["detected"]:
                line += "  " + output.style("detected", "name")
            partial = row.get("partial", [])
            assert isinstance(partial, list)
            if installed:
                line += "  installed: " + ",".join(
                    output.style(f"{scope} (partial)", "warn")
                    if scope in partial
                    else output.style(scope, "pass")
                    for scope in installed
                )
            sys.stdout.write(line + "\n")
