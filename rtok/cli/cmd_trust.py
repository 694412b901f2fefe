"""`rtok trust [PATH] [--yes] [--list]` and `rtok untrust [PATH]`.

Exit status: 0 done (or nothing to do), 1 a file was not trusted (declined, unreadable,
or no terminal to ask and no --yes), 2 usage error (e.g. PATH does not exist).
"""

from __future__ import annotations

import os

import typer

from rtok import paths, trust
from rtok.integrity import rule_review


def register(app: typer.Typer) -> None:
    app.command(name="trust", help=_TRUST_HELP)(trust_command)
    app.command(name="untrust", help=_UNTRUST_HELP)(untrust_command)


_TRUST_HELP = (
    "Review rule files and trust exactly the bytes shown. Without PATH: every untrusted "
    "user and project rule file that applies here. Any later edit revokes trust. "
    "Exit 0 done, 1 something left untrusted, 2 usage error."
)
_UNTRUST_HELP = (
    "Revoke trust. Without PATH: every trusted rule file of the project here (user rule "
    "files only when named). "
    "Exit 0 done (also when nothing was trusted), 1 the trust store cannot be updated, "
    "2 usage error."
)


def _echo(text: str) -> None:
    typer.echo(text)


def _list() -> int:
    cwd = os.getcwd()
    problem = trust.store_problem()
    if problem:
        typer.echo(
            f"rtok trust: {problem}; every rule file counts as untrusted. Move it "
            "aside to start afresh.",
            err=True,
        )
    files = trust.gated_rule_files(cwd)
    entries = trust.load_entries()
    if files:
        typer.echo("Rule files that apply here:")
        for path in files:
            state = trust.trust_state(path)
            typer.echo(f"  {state:<9} {path}")
    else:
        typer.echo("No user or project rule files apply here.")
    if trust.env_override_active():
        typer.echo(f"{trust.ENV_OVERRIDE}=1 is active (CI): every rule file applies.")
    typer.echo("")
    if not entries:
        typer.echo("The trust store is empty.")
        return 1 if problem else 0
    typer.echo(f"Trust store ({len(entries)} entries, {paths.trust_store()}):")
    for key, entry in sorted(entries.items()):
        state = trust.trust_state(key)
        when = entry.get("trusted_at", "?")[:10]
        typer.echo(
            f"  {state:<9} {key} ({entry.get('scope', '?')}, trusted {when}, "
            f"sha256:{entry.get('sha256', '')[:16]})"
        )
    return 0


def trust_command(
    path: str | None = typer.Argument(None, help="A rule file (default: all untrusted here)."),
    yes: bool = typer.Option(False, "--yes", "-y", help="Trust every file shown, no prompt."),
    list_: bool = typer.Option(False, "--list", help="List rule files and trust entries."),
) -> None:
    if list_:
        if path is not None:
            typer.echo("rtok trust: --list takes no PATH", err=True)
            raise typer.Exit(2)
        raise typer.Exit(_list())
    cwd = os.getcwd()
    files = _named_file(path, cwd) if path is not None else _untrusted_here(cwd)
    confirm = None
    if not yes and rule_review.stdin_is_terminal():
        confirm = rule_review.questionary_confirm
    try:
        outcome = rule_review.offer_trust(
            files,
            decision=True if yes else None,
            echo=_echo,
            confirm=confirm,
            earlier_of=rule_review.earlier_layers(cwd),
        )
    except trust.TrustStoreError as exc:
        typer.echo(f"rtok trust: {exc}", err=True)
        raise typer.Exit(1) from exc
    if outcome.declined and confirm is None and not yes:
        typer.echo(
            "No terminal to ask on: nothing was trusted. Rerun with --yes to trust "
            "the bytes shown above.",
            err=True,
        )
    raise typer.Exit(1 if (outcome.declined or outcome.unreadable) else 0)


def _named_file(path: str, cwd: str) -> list[str]:
    """The one file `rtok trust PATH` offers (exit 2 when it is not a file), with a note
    when rtok does not read it in `cwd`."""
    if not os.path.isfile(path):
        typer.echo(f"rtok trust: no such file: {path}", err=True)
        raise typer.Exit(2)
    applying = {trust.canonical_path(p) for p in trust.gated_rule_files(cwd)}
    if trust.canonical_path(path) not in applying:
        typer.echo(
            f"note: {path} is not one of the rule files rtok reads in this "
            "directory; trusting it only matters where it is read."
        )
    return [os.path.abspath(path)]


def _untrusted_here(cwd: str) -> list[str]:
    """The untrusted rule files that apply in `cwd` (exit 0, saying so, when none)."""
    files = trust.untrusted_rule_files(cwd)
    if not files:
        if trust.gated_rule_files(cwd):
            typer.echo("Nothing to trust: every rule file that applies here is trusted.")
        else:
            typer.echo("No user or project rule files apply here.")
        raise typer.Exit(0)
    return files


def untrust_command(
    path: str | None = typer.Argument(None, help="A rule file (default: this project's)."),
) -> None:
    if path is not None:
        targets = [path]
    else:
        # Without PATH only this project's files: user rules are revoked by naming them.
        targets = [
            p
            for p in trust.project_rule_files(os.getcwd())
            if trust.canonical_path(p) in trust.load_entries()
        ]
        if not targets:
            typer.echo(
                "No trusted project rule files here (name a user rule file to revoke its trust)."
            )
            raise typer.Exit(0)
    try:
        for target in targets:
            if trust.untrust(target):
                typer.echo(f"trust revoked: {target} (rtok skips it from now on)")
            else:
                typer.echo(f"{target} was not trusted")
    except trust.TrustStoreError as exc:
        typer.echo(f"rtok untrust: {exc}", err=True)
        raise typer.Exit(1) from exc
    raise typer.Exit(0)
