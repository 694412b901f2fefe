"""`rtok verify [--agent NAME]... [--json] [--prune]`."""

from __future__ import annotations

import json
import os
from typing import Annotated

import typer

from rtok.cli import output
from rtok.cli.known_agent import agent_option, exit_if_unknown
from rtok.cli.shared_options import json_option
from rtok.integrity import verify as checks

HELP = """Check that what rtok installed is intact and still works.

Per artifact: verified, tampered, missing, no baseline (rtok's bytes with no record),
orphaned record. Per agent: the rtok its hook or plugin names exists, runs, and has a
compatible version; Codex's config.toml trusts its hook. Per rule file that applies
here: trusted, untrusted, modified, or trusted but malformed.
One line per item: PASS / FAIL / WARN, with the command that fixes it.

--json prints one object: {"schema": 1, "rtok_version", "agent", "agents", "ok", "exit_code",
"summary": {"pass", "fail", "warn"}, "items": [{"check", "status", "level", "message",
"fix", "agent", "scope", "kind", "path", "project_root", "expected_sha256",
"actual_sha256", "command", "rtok_bin", "version"}]}; docs/verify-json.md lists every
check and status.

Exit status: 0 every item PASS; 1 any FAIL or WARN; 2 usage error (e.g. unknown agent).
"""


def register(app: typer.Typer) -> None:
    app.command(name="verify", help=HELP)(verify_command)


def verify_command(
    agents: Annotated[
        list[str] | None,
        agent_option("Only this agent's artifacts (repeat the option for several)."),
    ] = None,
    as_json: Annotated[bool, json_option("Print the findings as JSON.")] = False,
    prune: bool = typer.Option(
        False, "--prune", help="Forget orphaned records (their agent or project is gone)."
    ),
) -> None:
    named = list(dict.fromkeys(agents or ()))
    for name in named:
        exit_if_unknown("verify", name)
    findings = checks.verify(named, os.getcwd())
    if prune:
        removed = checks.prune_orphans(findings)
        findings = [f for f in findings if f.status != "orphaned"]
        if not as_json:
            typer.echo(f"forgot {removed} orphaned record(s)")
    if as_json:
        typer.echo(json.dumps(checks.to_json(findings, named), indent=2))
        raise typer.Exit(checks.exit_code(findings))
    _print_findings(findings)
    raise typer.Exit(checks.exit_code(findings))


def _print_findings(findings: list[checks.Finding]) -> None:
    """One line per finding (with its fix unless it passed), then the counts."""
    if not findings:
        typer.echo("Nothing installed by rtok here, and no rule files apply.")
        return
    for finding in findings:
        line = f"{output.level(finding.level)}  {finding.message}"
        if finding.fix and finding.level != checks.PASS:
            line += f"  (fix: {finding.fix})"
        typer.echo(line)
    counts = {
        level: sum(1 for f in findings if f.level == level)
        for level in (checks.PASS, checks.FAIL, checks.WARN)
    }
    typer.echo(f"{counts['PASS']} passed, {counts['FAIL']} failed, {counts['WARN']} warnings")
