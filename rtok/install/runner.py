"""`rtok init` and `rtok uninstall` from parsed options to exit status.

Chooses agents and scope, builds the InstallContext, asks the integrations for their edits,
plans, previews, asks for confirmation on a terminal, applies the transaction and reports.
The CLI module only parses arguments; printing goes through rtok.install.report.
"""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Callable, Sequence
from typing import TextIO

from rtok import launcher, paths
from rtok.install import first_run, planner, report, state, transaction
from rtok.install import integrations as shipped_integrations
from rtok.install.descriptor import Descriptor
from rtok.install.integration_api import Integrations
from rtok.install.locks import LockTimeoutError
from rtok.install.model import AWARENESS_LEVELS, Action, FileEdit, InstallContext
from rtok.install.options import (
    EXIT_FAILED,
    EXIT_KEPT,
    EXIT_OK,
    EXIT_PENDING,
    EXIT_USAGE,
    InitOptions,
    UsageError,
)

# The integrations the runner calls (mypy checks the module against the interface); the
# installer's tests put a one-agent module with the same functions here.
ACTIVE_INTEGRATIONS: Integrations = shipped_integrations


def integrations() -> Integrations:
    return ACTIVE_INTEGRATIONS


def resolve_rtok_bin() -> str:
    """The rtok path hooks and plugins are registered with: the launcher in rtok's data
    dir (rtok/launcher.py), the console script where there is no launcher (Windows).
    RTOK_BIN overrides both."""
    override = os.environ.get("RTOK_BIN")
    if override:
        return os.path.abspath(override)
    if launcher.supported():
        return paths.launcher()
    return entry_point_bin()


def entry_point_bin() -> str:
    """Absolute path of the running `rtok` console script."""
    argv0 = sys.argv[0] if sys.argv else ""
    if os.path.basename(argv0) in ("rtok", "rtok.exe") and os.path.isfile(argv0):
        return os.path.abspath(argv0)
    beside = os.path.join(os.path.dirname(sys.executable), "rtok")
    if os.path.isfile(beside):
        return beside
    found = shutil.which("rtok")
    return os.path.abspath(found) if found else beside


def find_project_root(cwd: str) -> str:
    from rtok import trust

    return trust.project_root(cwd) or os.path.abspath(cwd)


def configured_awareness() -> str:
    from rtok import config

    try:
        table = config.load().get("awareness", {})
        level = table.get("level", "default") if isinstance(table, dict) else "default"
    except Exception:  # an unreadable config.toml: `rtok config` reports it
        return "default"
    return level if level in AWARENESS_LEVELS else "default"


def _created_by_rtok(path: str) -> bool:
    return state.load().created(path)


def build_context(
    opts: InitOptions, scope: str, *, consent: bool, awareness: str
) -> InstallContext:
    home = os.environ.get("HOME") or os.path.expanduser("~")
    return InstallContext(
        home=home,
        env=dict(os.environ),
        project_root=None if scope == "global" else find_project_root(opts.cwd),
        rtok_bin=resolve_rtok_bin(),
        awareness_level=awareness,
        hook_only=opts.hook_only,
        auto_patch=consent,
        created_by_rtok=_created_by_rtok,
    )


def _scopes_of(descriptor: Descriptor) -> list[str]:
    return list(descriptor.scopes)


def select_agents(
    opts: InitOptions, descriptors: dict[str, Descriptor], scope: str, ctx: InstallContext
) -> list[str]:
    names: list[str] = []
    for name in opts.agents:
        for part in name.split(","):
            part = part.strip().lower()
            if part and part not in names:
                names.append(part)
    unknown = [n for n in names if n not in descriptors]
    if unknown:
        raise UsageError(
            f"unknown agent(s): {', '.join(unknown)}; known: {', '.join(sorted(descriptors))}"
        )
    if opts.all_agents:
        mod = integrations()
        for name, descriptor in sorted(descriptors.items()):
            if name in names or scope not in _scopes_of(descriptor):
                continue
            if opts.uninstall and scope not in mod.installed_scopes(descriptor, ctx):
                continue
            names.append(name)
        return names
    for name in names:
        if scope not in _scopes_of(descriptors[name]):
            other = "-g/--global" if scope == "project" else "a project directory without -g"
            raise UsageError(
                f"{name} has no {scope} install (it supports: "
                f"{', '.join(_scopes_of(descriptors[name])) or 'none'}); use {other}"
            )
    return names


def check_project_root(root: str, home: str) -> None:
    """A project install in the home directory (or above it) would write the files of a
    global install under project ownership; refuse it."""
    real_root, real_home = os.path.realpath(root), os.path.realpath(home)
    if real_root == real_home or real_home.startswith(real_root.rstrip(os.sep) + os.sep):
        raise UsageError(
            f"{root} is your home directory or above it, not a project: use -g/--global "
            "for your user account, or run rtok in a project directory"
        )


def rtok_not_on_path_note(rtok_bin: str) -> str | None:
    """A hint when the shell would not find this rtok by name. Hooks and plugins name it by
    absolute path then, but the agent is told to run `rtok expand ID` to see cut output."""
    import shutil

    found = shutil.which("rtok")
    if found and os.path.realpath(found) == os.path.realpath(rtok_bin):
        return None
    directory = os.path.dirname(rtok_bin)
    return (
        f"{rtok_bin} is not the rtok your shell finds on PATH; the installed hooks call it "
        f"by absolute path, but for `rtok expand` to work in the agent add {directory} to "
        "PATH (or install rtok with pipx)"
    )


def collect_edits(
    agents: Sequence[str], scope: str, action: Action, ctx: InstallContext
) -> list[FileEdit]:
    mod = integrations()
    edits: list[FileEdit] = []
    for name in agents:
        edits.extend(mod.edits_for(name, scope, action, ctx))
    return edits


Confirm = Callable[[str], bool]
Choose = Callable[[InitOptions, dict[str, Descriptor]], tuple[list[str], bool]]


def run(
    opts: InitOptions,
    out: TextIO,
    err: TextIO,
    *,
    choose: Choose | None = None,
    confirm: Confirm | None = None,
) -> int:
    """Run init/uninstall. `choose` (agents, global?) and `confirm` are the interactive
    prompts; they are used only when `opts.interactive` is true."""
    action: Action = "uninstall" if opts.uninstall else "install"
    try:
        return _run(opts, action, out, err, choose, confirm)
    except UsageError as exc:
        return _fail(opts, out, err, str(exc), [], EXIT_USAGE)
    except planner.PlanError as exc:
        return _fail(opts, out, err, "nothing was written:", exc.problems, EXIT_USAGE)
    except state.StateError as exc:
        return _fail(opts, out, err, str(exc), [], EXIT_USAGE)
    except (transaction.TransactionError, LockTimeoutError) as exc:
        return _fail(opts, out, err, str(exc), [], EXIT_FAILED)
    except OSError as exc:  # rtok's own data dir (locks, state) cannot be used
        where = f"{exc.filename}: " if exc.filename else ""
        return _fail(opts, out, err, f"{where}{exc.strerror or exc}; nothing was written",
                     [], EXIT_FAILED)


def _fail(
    opts: InitOptions, out: TextIO, err: TextIO, message: str, problems: list[str], code: int
) -> int:
    if opts.json:
        out.write(report.error_json(message, problems, code))
    else:
        err.write(f"rtok: {message}\n")
        for problem in problems:
            err.write(f"  {problem}\n")
    return code


def _run(
    opts: InitOptions,
    action: Action,
    out: TextIO,
    err: TextIO,
    choose: Choose | None,
    confirm: Confirm | None,
) -> int:
    awareness = _check_options(opts)
    descriptors = _load_descriptors()
    if opts.global_scope and opts.project_scope:
        raise UsageError("-g/--global and --project exclude each other")
    prompting = (
        opts.interactive and not opts.agents and not opts.all_agents
        and not (opts.json or opts.check or opts.show)
    )
    if prompting and not _prompt_for_agents(opts, descriptors, choose, err):
        return EXIT_OK

    scope = "global" if opts.global_scope else "project"
    # On a terminal, without --auto-patch/--no-patch, the one confirmation after the full
    # diff is the consent to edit shared settings files too.
    confirming = prompting or (
        opts.interactive and opts.patch is None
        and not (opts.json or opts.check or opts.dry_run or opts.show)
    )
    consent = bool(opts.patch) or confirming
    ctx = build_context(opts, scope, consent=consent, awareness=awareness)

    if opts.show:
        from rtok.install import show

        names = select_agents(opts, descriptors, scope, ctx) if opts.agents else []
        out.write(show.render(descriptors, names or sorted(descriptors), opts, json=opts.json))
        return EXIT_OK
    if not opts.agents and not opts.all_agents:
        raise UsageError("no agent given: use --agent NAME (see `rtok agents`) or --all")

    agents = select_agents(opts, descriptors, scope, ctx)
    if ctx.project_root is not None:
        check_project_root(ctx.project_root, ctx.home)
    edits = collect_edits(agents, scope, action, ctx)
    the_plan = planner.plan(edits, ctx, consent=consent, action=action)
    if action == "install":
        _install_notes(agents, scope, ctx, err)
    if opts.dry_run:
        return _report_dry_run(opts, the_plan, action, scope, out)

    messages: list[str] = []
    trust_asked = False
    if confirming and the_plan.changes:
        if not _confirm_plan(opts, the_plan, action, confirm, out, err, messages):
            return EXIT_PENDING
        trust_asked = action == "install"
    if action == "install" and ctx.rtok_bin == paths.launcher():
        # Before the hooks that name it: a re-run repairs a launcher that went stale.
        launcher.ensure()
    result = transaction.apply(
        the_plan, strict=confirming, action=action, project_root=ctx.project_root
    )
    code = _outcome(opts, the_plan, messages)
    if action == "install" and not trust_asked:
        messages.extend(_trust_filters(opts, err))
    if opts.json:
        out.write(report.plan_json(the_plan, action=action, scope=scope, applied=result,
                                   exit_code=code, messages=messages))
        return code
    _report_applied(opts, the_plan, result, action, messages, out, err)
    if result.applied:
        out.write(first_run.next_steps(agents, descriptors, action) + "\n")
    return code


def _check_options(opts: InitOptions) -> str:
    """Reject contradictory options; the awareness level to install with."""
    if opts.awareness is not None and opts.awareness not in AWARENESS_LEVELS:
        raise UsageError(
            f"--awareness must be one of {', '.join(AWARENESS_LEVELS)}, not {opts.awareness!r}"
        )
    if opts.check and opts.dry_run is False:
        opts.dry_run = True  # --check never writes
    return opts.awareness or configured_awareness()


def _load_descriptors() -> dict[str, Descriptor]:
    try:
        return integrations().load_descriptors()
    except Exception as exc:
        raise UsageError(f"the agent descriptors are invalid: {exc}") from exc


def _prompt_for_agents(opts: InitOptions, descriptors: dict[str, Descriptor],
                       choose: Choose | None, err: TextIO) -> bool:
    """Ask for agents and scope (into `opts`); False when none was chosen."""
    if choose is None:
        raise UsageError("no agent given: use --agent NAME (see `rtok agents`) or --all")
    chosen, global_scope = choose(opts, descriptors)
    scope = "global" if global_scope else "project"
    chosen, skipped = first_run.split_by_scope(chosen, descriptors, scope)
    if skipped:
        err.write(f"note: {first_run.skipped_note(skipped, descriptors, scope)}\n")
    if not chosen:
        err.write("No agent chosen; nothing written.\n")
        return False
    opts.agents, opts.global_scope = chosen, global_scope
    return True


def _install_notes(agents: Sequence[str], scope: str, ctx: InstallContext, err: TextIO) -> None:
    # Rules-only agents (and rules-only scopes) always get the full awareness text.
    for note in integrations().awareness_notes(list(agents), scope, ctx):
        err.write(f"note: {note}\n")
    for note in empty_sibling_notes(agents, scope, ctx):
        err.write(f"note: {note}\n")
    shown_bin = entry_point_bin() if ctx.rtok_bin == paths.launcher() else ctx.rtok_bin
    path_note = rtok_not_on_path_note(shown_bin)
    if path_note:
        err.write(f"note: {path_note}\n")


def empty_sibling_notes(agents: Sequence[str], scope: str, ctx: InstallContext) -> list[str]:
    """An empty file the host reads beside the one rtok's hook went into (a descriptor's
    `siblings`): the host cannot parse it and then runs none of the scope's hooks."""
    from rtok.install.integrations import expand_path, load_descriptors

    descriptors = load_descriptors()
    notes: list[str] = []
    for agent in agents:
        descriptor = descriptors.get(agent)
        if descriptor is None:
            continue
        for spec in descriptor.files.get(scope, ()):
            for sibling in spec.siblings:
                try:
                    path = expand_path(sibling, scope, ctx, user_file=spec.user_file)
                    with open(path, "rb") as handle:
                        blank = not handle.read(4096).strip()
                except (OSError, ValueError):
                    continue
                if blank:
                    notes.append(
                        f"{path} is empty: {descriptor.display_name} cannot parse an empty "
                        f"settings file and then runs none of its hooks, rtok's included; "
                        f"write {{}} into it or delete it")
    return notes


def _report_dry_run(opts: InitOptions, the_plan: planner.Plan, action: Action, scope: str,
                    out: TextIO) -> int:
    # A change that waits for consent is still pending for --check.
    pending = the_plan.pending or bool(the_plan.declined)
    code = EXIT_PENDING if (opts.check and pending) else EXIT_OK
    if opts.json:
        out.write(report.plan_json(the_plan, action=action, scope=scope, applied=None,
                                   exit_code=code))
        return code
    out.write(report.plan_text(the_plan, action=action, show_diff=True, verbose=opts.verbose))
    if opts.check:
        out.write("Check: changes pending; nothing written.\n" if pending
                  else "Check: nothing to change.\n")
    else:
        out.write("Dry run: nothing written.\n")
    return code


def _confirm_plan(opts: InitOptions, the_plan: planner.Plan, action: Action,
                  confirm: Confirm | None, out: TextIO, err: TextIO,
                  messages: list[str]) -> bool:
    """Show the full diff and ask once; an install asks about rule files first."""
    if confirm is None:
        raise UsageError("cannot ask for confirmation here: use --auto-patch or --no-patch")
    out.write(report.plan_text(the_plan, action=action, show_diff=True, verbose=False))
    out.flush()
    if action == "install":
        # Every question before the one confirmation, so the summary sits right above it.
        messages.extend(_trust_filters(opts, err))
    out.write(report.summary_text(the_plan))
    out.flush()
    if not confirm(f"Apply these {len(the_plan.changes)} change(s)?"):
        err.write("Not confirmed; nothing written.\n")
        return False
    return True


def _outcome(opts: InitOptions, the_plan: planner.Plan, messages: list[str]) -> int:
    """The exit status after applying, with what the user has left to do."""
    code = EXIT_OK
    if the_plan.declined:
        if opts.patch is False:
            messages.append("left to do by hand (--no-patch): see the instructions above")
        else:
            code = EXIT_PENDING
            messages.append(
                f"{len(the_plan.declined)} change(s) to shared settings need consent and were "
                "not made: rerun with --auto-patch, or with --no-patch for manual steps"
            )
    if the_plan.kept:
        code = EXIT_KEPT
        messages.append(
            f"{len(the_plan.kept)} file(s) rtok wrote were modified by you and were kept"
        )
    return code


def _report_applied(opts: InitOptions, the_plan: planner.Plan,
                    result: transaction.ApplyResult, action: Action, messages: list[str],
                    out: TextIO, err: TextIO) -> None:
    out.write(report.result_text(result, action=action, verbose=opts.verbose,
                                 declined=bool(the_plan.declined)))
    for edit, note in the_plan.kept:
        out.write(f"kept {edit.path} [{edit.agent}]: {note}\n")
    for edit, note in the_plan.notes:
        out.write(f"note: {edit.path} [{edit.agent}]: {note}\n")
    for change in the_plan.declined:
        out.write(report.change_line(change, prefix="not done (needs consent): ") + "\n")
    if the_plan.declined and opts.patch is False:
        out.write(report.manual_instructions(the_plan.declined))
    for message in messages:
        err.write(f"{message}\n")


def _trust_filters(opts: InitOptions, err: TextIO) -> list[str]:
    """Offer the untrusted rule files that apply here for trust (rtok.integrity's review:
    shown with a risk summary; without a terminal nothing is trusted unless
    --trust-filters)."""
    from rtok.integrity import rule_review

    def echo(text: str) -> None:
        err.write(text + "\n")

    confirm: Callable[[str], bool] | None = None
    if opts.trust_filters is None and opts.json:
        confirm = _never  # a prompt would break the JSON output; nothing is trusted
    try:
        rule_review.offer_trust_for_project(
            opts.cwd, decision=opts.trust_filters, echo=echo, confirm=confirm
        )
    except Exception as exc:  # rtok is installed; trusting rule files is a separate step
        return [f"rule files were not offered for trust ({exc}); run `rtok trust`"]
    return []


def _never(question: str) -> bool:
    return False
