"""`rtok init` and `rtok uninstall`: argument parsing only; the work is rtok.install.runner."""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from typing import TYPE_CHECKING, Annotated, Any

import typer

from rtok.cli import output
from rtok.cli.known_agent import agent_option, exit_if_any_unknown
from rtok.cli.shared_options import json_option
from rtok.install.options import EXIT_CODES_HELP, InitOptions

if TYPE_CHECKING:
    from questionary import Choice

    from rtok.install.model import InstallContext
    from rtok.install.specs import Descriptor

# The options `rtok init` and `rtok uninstall` share, declared once. The ones whose
# meaning differs between the two (--all, --auto-patch/--no-patch, --hook-only) are made
# by a factory each, which every command gives its own help.
_AgentOption = Annotated[
    list[str] | None, agent_option("Agent to act on (repeatable; see `rtok agents`).")
]
_GlobalOption = Annotated[
    bool,
    typer.Option(
        "--global", "-g", help="Your user account: the default, also without this option."
    ),
]
_ProjectOption = Annotated[
    bool,
    typer.Option(
        "--project",
        help="The current project instead of your user account (refused in your "
        "home directory, above it and in rtok's own checkout).",
    ),
]
_DryRunOption = Annotated[
    bool, typer.Option("--dry-run", help="Print the changes as unified diffs; write nothing.")
]
_CheckOption = Annotated[
    bool, typer.Option("--check", help="Write nothing; exit 1 when changes are pending.")
]
_ShowOption = Annotated[bool, typer.Option("--show", help="Print what is installed where.")]
_VerboseOption = Annotated[bool, typer.Option("--verbose", "-v", help="Say more.")]
_JsonOption = Annotated[bool, json_option("Print the plan and result as JSON.")]
_QuietOption = Annotated[
    bool,
    typer.Option(
        "--quiet", "-q", help="Print only the one-line result (errors still go to stderr)."
    ),
]


def _all_option(help_text: str) -> Any:
    return typer.Option("--all", help=help_text)


def _patch_option(help_text: str) -> Any:
    return typer.Option("--auto-patch/--no-patch", help=help_text)


def _hook_only_option(help_text: str) -> Any:
    return typer.Option("--hook-only", help=help_text)


def _is_terminal() -> bool:
    try:
        return sys.stdin.isatty() and sys.stdout.isatty()
    except (AttributeError, ValueError):
        return False


def _installed_where(opts: InitOptions, descriptors: dict[str, Descriptor]) -> dict[str, list[str]]:
    """agent -> the scopes rtok is installed in (the project one only in a real project)."""
    from rtok.install import first_run, runner

    mod = runner.integrations()
    ctx = runner.build_context(opts, "global", consent=False, awareness="default")
    root = runner.find_project_root(opts.cwd)
    if first_run.project_problem(root, ctx.home) is None:
        ctx = runner.build_context(opts, "project", consent=False, awareness="default")
    return {name: list(mod.installed_scopes(d, ctx)) for name, d in descriptors.items()}


def _choose(opts: InitOptions, descriptors: dict[str, Descriptor]) -> tuple[list[str], bool]:
    """Interactive: pick agents (detected ones pre-checked; for an uninstall, the installed
    ones), then the scope, unless -g/--project said it or only one scope is possible.
    Ctrl-C raises KeyboardInterrupt (questionary's unsafe_ask)."""
    import questionary

    from rtok.install import runner

    ctx = runner.build_context(opts, "global", consent=False, awareness="default")
    installed = _installed_where(opts, descriptors) if opts.uninstall else {}
    choices = _agent_choices(opts, descriptors, installed, ctx)
    if not choices:
        sys.stderr.write("rtok is not installed in any agent (globally or in this project).\n")
        return [], True
    verb = "Remove rtok from" if opts.uninstall else "Install rtok into"
    picked = list(questionary.checkbox(f"{verb} which agents?", choices=choices).unsafe_ask() or [])
    if not picked or opts.global_scope or opts.project_scope:
        return picked, not opts.project_scope
    return picked, _chose_global(opts, descriptors, picked, installed, ctx.home)


def _agent_choices(
    opts: InitOptions,
    descriptors: dict[str, Descriptor],
    installed: dict[str, list[str]],
    ctx: InstallContext,
) -> list[Choice]:
    """One checkbox per agent, checked when detected (for an uninstall: only the agents
    rtok is installed in, all checked)."""
    import questionary

    from rtok.install import runner

    mod = runner.integrations()
    choices = []
    for name, descriptor in sorted(descriptors.items()):
        checked = bool(installed.get(name)) if opts.uninstall else bool(mod.detect(descriptor, ctx))
        if opts.uninstall and not checked:
            continue  # nothing of rtok's to remove there
        title = f"{descriptor.display_name} ({name})"
        choices.append(questionary.Choice(title=title, value=name, checked=checked))
    return choices


def _chose_global(
    opts: InitOptions,
    descriptors: dict[str, Descriptor],
    picked: list[str],
    installed: dict[str, list[str]],
    home: str,
) -> bool:
    """Whether the scope is the user's account: asked only when more than one scope is
    possible for the picked agents."""
    import questionary

    from rtok.install import first_run, runner

    root = runner.find_project_root(opts.cwd)
    offer = (
        first_run.offer_for_uninstall({a: installed.get(a, []) for a in picked})
        if opts.uninstall
        else first_run.offer_for_install(picked, descriptors, root, home)
    )
    for note in offer.notes:
        sys.stderr.write(f"note: {note}\n")
    if len(offer.scopes) <= 1:
        return (offer.scopes or ("global",))[0] == "global"
    scope = questionary.select(
        "Scope?",
        choices=[
            questionary.Choice(first_run.SCOPE_TITLES[s].format(root=root), value=s)
            for s in offer.scopes
        ],
        default=offer.scopes[0],
    ).unsafe_ask()
    return bool(scope == "global")


def _confirm(question: str) -> bool:
    import questionary

    return bool(questionary.confirm(question, default=False).unsafe_ask())


def _run(opts: InitOptions) -> None:
    from rtok.install import runner
    from rtok.install.options import EXIT_CANCELLED

    try:
        code = runner.run(
            opts, output.coloured_diffs(sys.stdout), sys.stderr, choose=_choose, confirm=_confirm
        )
    except KeyboardInterrupt:
        sys.stderr.write("\nCancelled; nothing written.\n")
        code = EXIT_CANCELLED
    raise typer.Exit(code)


def _options(params: Mapping[str, Any]) -> InitOptions:
    """The options of one `rtok init` or `rtok uninstall` call from the values typer parsed
    (`ctx.params`: one per parameter, named as the parameter; `agent` is the list of names)."""
    fields = dict(params)
    agents = fields.pop("agent") or []
    exit_if_any_unknown("uninstall" if fields.get("uninstall") else "init", agents)
    return InitOptions(agents=list(agents), cwd=os.getcwd(), interactive=_is_terminal(), **fields)


def register(app: typer.Typer) -> None:
    @app.command(
        "init",
        help=(
            "Install rtok into coding agents: for your user account, or with --project for "
            "the current project. Shows a diff first on a terminal; --dry-run only prints it. "
            + EXIT_CODES_HELP
        ),
    )
    def init(
        ctx: typer.Context,
        agent: _AgentOption = None,
        all_agents: Annotated[
            bool,
            _all_option(
                "Every agent that supports the scope (uninstall: every agent rtok is installed in)."
            ),
        ] = False,
        global_scope: _GlobalOption = False,
        project_scope: _ProjectOption = False,
        dry_run: _DryRunOption = False,
        check: _CheckOption = False,
        uninstall: bool = typer.Option(False, "--uninstall", help="Remove rtok instead."),
        patch: Annotated[
            bool | None,
            _patch_option(
                "Consent to edit shared settings files without asking (--auto-patch), or "
                "print what to add by hand and leave them alone (--no-patch). Default: on a "
                "terminal the one confirmation after the diff is the consent; otherwise such "
                "changes are declined (exit status 1)."
            ),
        ] = None,
        hook_only: Annotated[
            bool, _hook_only_option("Only the hook or plugin: no awareness files.")
        ] = False,
        show: _ShowOption = False,
        awareness: str | None = typer.Option(
            None, "--awareness", metavar="LEVEL", help="Awareness level: default, high or full."
        ),
        trust_filters: bool | None = typer.Option(
            None,
            "--trust-filters/--no-trust-filters",
            help="Trust the project's and your rule files after installing (default: ask "
            "on a terminal, otherwise do not).",
        ),
        verbose: _VerboseOption = False,
        quiet: _QuietOption = False,
        json: _JsonOption = False,
    ) -> None:
        _run(_options(ctx.params))

    @app.command(
        "uninstall",
        help="Remove rtok from coding agents (same options as `rtok init --uninstall`). "
        "Gives every file back as it was, or deletes it when rtok created it. " + EXIT_CODES_HELP,
    )
    def uninstall_cmd(
        ctx: typer.Context,
        agent: _AgentOption = None,
        all_agents: Annotated[
            bool, _all_option("Every agent rtok is installed in (for the scope).")
        ] = False,
        global_scope: _GlobalOption = False,
        project_scope: _ProjectOption = False,
        dry_run: _DryRunOption = False,
        check: _CheckOption = False,
        patch: Annotated[
            bool | None,
            _patch_option("Consent to edit shared settings files, or print manual steps instead."),
        ] = None,
        hook_only: Annotated[
            bool, _hook_only_option("Only the hook or plugin: keep awareness files.")
        ] = False,
        show: _ShowOption = False,
        purge: bool = typer.Option(
            False,
            "--purge",
            help="Remove rtok's own data (archive, ledger, settings "
            "backups, launcher, locks, trust store, records) and caches once no agent has "
            "rtok; your config dir is kept. With --agent/--all, after uninstalling those. "
            "Asks once on a terminal; otherwise needs --yes.",
        ),
        yes: bool = typer.Option(False, "--yes", "-y", help="Consent to --purge without asking."),
        verbose: _VerboseOption = False,
        quiet: _QuietOption = False,
        json: _JsonOption = False,
    ) -> None:
        _run(_options({**ctx.params, "uninstall": True}))
