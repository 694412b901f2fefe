"""`rtok init` and `rtok uninstall` from parsed options to exit status.

Chooses agents and scope, builds the InstallContext, asks the integrations for their edits,
plans, previews, asks for confirmation on a terminal, applies the transaction and reports.
The CLI module only parses arguments; printing goes through rtok.install.report.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import TextIO

from rtok import paths
from rtok._fast import launcher
from rtok.install import (
    command_link,
    first_run,
    leftovers,
    planner,
    report,
    show,
    state,
    transaction,
)

# Re-exported: the CLI builds its contexts through the runner.
from rtok.install.context import build_context as build_context
from rtok.install.context import check_project_root, configured_awareness
from rtok.install.context import find_project_root as find_project_root
from rtok.install.context import integrations as integrations
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
from rtok.install.specs import Descriptor
from rtok.integrity.records import RecordsError


def _scopes_of(descriptor: Descriptor) -> list[str]:
    return list(descriptor.scopes)


def select_agents(
    opts: InitOptions, descriptors: dict[str, Descriptor], scope: str, ctx: InstallContext
) -> list[str]:
    """The agents to act on: those named (`--agent a,b`, each once, in order), and with
    --all every other one with this scope (for an uninstall: installed in it)."""
    names = _named_agents(opts.agents)
    unknown = [n for n in names if n not in descriptors]
    if unknown:
        raise UsageError(
            f"unknown agent(s): {', '.join(unknown)}; known: {', '.join(sorted(descriptors))}"
        )
    if opts.all_agents:
        return names + _other_agents(opts, descriptors, scope, ctx, names)
    for name in names:
        if scope not in _scopes_of(descriptors[name]):
            other = "-g/--global" if scope == "project" else "a project directory without -g"
            raise UsageError(
                f"{name} has no {scope} install (it supports: "
                f"{', '.join(_scopes_of(descriptors[name])) or 'none'}); use {other}"
            )
    return names


def _named_agents(given: Sequence[str]) -> list[str]:
    names: list[str] = []
    for name in given:
        for part in name.split(","):
            part = part.strip().lower()
            if part and part not in names:
                names.append(part)
    return names


def _other_agents(
    opts: InitOptions,
    descriptors: dict[str, Descriptor],
    scope: str,
    ctx: InstallContext,
    named: list[str],
) -> list[str]:
    """--all: every agent not named with this scope; for an uninstall, installed in it."""
    mod = integrations()
    others: list[str] = []
    for name, descriptor in sorted(descriptors.items()):
        if name in named or scope not in _scopes_of(descriptor):
            continue
        if opts.uninstall and scope not in mod.installed_scopes(descriptor, ctx):
            continue
        others.append(name)
    return others


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
    if opts.quiet and not opts.json:
        out, err = report.QuietOut(out), report.QuietErr(err)
    try:
        if opts.purge and not (opts.agents or opts.all_agents):
            return leftovers.run_purge(opts, out, err, confirm)
        opts = _check_never_writes(opts)
        code = _run(opts, action, out, err, choose, confirm)
        if action == "uninstall":
            code = _after_uninstall(opts, code, out, err, confirm)
        return code
    except UsageError as exc:
        return _fail(opts, out, err, str(exc), [], EXIT_USAGE)
    except planner.PlanError as exc:
        return _fail(opts, out, err, "nothing was written:", exc.problems, EXIT_USAGE)
    except (state.StateError, RecordsError) as exc:
        return _fail(opts, out, err, str(exc), [], EXIT_USAGE)
    except (transaction.TransactionError, LockTimeoutError) as exc:
        return _fail(opts, out, err, str(exc), [], EXIT_FAILED)
    except OSError as exc:  # rtok's own data dir (locks, state) cannot be used
        where = f"{exc.filename}: " if exc.filename else ""
        return _fail(
            opts, out, err, f"{where}{exc.strerror or exc}; nothing was written", [], EXIT_FAILED
        )


def _check_never_writes(opts: InitOptions) -> InitOptions:
    """--check is a dry run (a copy of `opts` says so; the caller's is left as it is)."""
    if opts.check and opts.dry_run is False:
        return replace(opts, dry_run=True)
    return opts


def _after_uninstall(
    opts: InitOptions, code: int, out: TextIO, err: TextIO, confirm: Confirm | None
) -> int:
    """Once no agent has rtok any more: --purge removes rtok's own folders; otherwise the
    last lines say what stays there and the command that removes it."""
    if code not in (EXIT_OK, EXIT_KEPT) or opts.json or opts.dry_run or opts.show:
        return code
    if opts.purge:
        purged = leftovers.run_purge(opts, out, err, confirm)
        return code if purged == EXIT_OK else purged
    parts = leftovers.inventory()
    if not leftovers.worth_naming(parts) or leftovers.installed_now():
        return code
    command = "rtok uninstall --purge" + ("" if opts.interactive else " --yes")
    out.write(report.leftovers_text(parts, leftovers.config_files(), command=command))
    return code


def _fail(
    opts: InitOptions, out: TextIO, err: TextIO, message: str, problems: list[str], code: int
) -> int:
    if opts.json:
        out.write(report.error_json(message, problems, code))
    else:
        err.write(f"rtok: {report.shown_text(message)}\n")
        for problem in problems:
            err.write(f"  {report.shown_text(problem)}\n")
    return code


@dataclass(frozen=True)
class _Run:
    """One init/uninstall once its agents and scope are known."""

    opts: InitOptions
    action: Action
    scope: str
    agents: list[str]
    descriptors: dict[str, Descriptor]
    ctx: InstallContext
    confirming: bool  # the one confirmation after the full diff is asked
    out: TextIO
    err: TextIO


def _run(
    opts: InitOptions,
    action: Action,
    out: TextIO,
    err: TextIO,
    choose: Choose | None,
    confirm: Confirm | None,
) -> int:
    """From options to exit status; `opts` itself is never changed (the agents and scope
    chosen at the prompt go into a copy)."""
    awareness = _check_options(opts)
    descriptors = _load_descriptors()
    if opts.global_scope and opts.project_scope:
        raise UsageError("-g/--global and --project exclude each other")
    prompting = _prompting(opts)
    if prompting:
        chosen = _prompt_for_agents(opts, descriptors, choose, err)
        if chosen is None:
            return EXIT_OK
        opts = chosen

    # One rule for every path, terminal or not: the user's account unless --project was
    # given (or project was chosen at the question).
    scope = "project" if opts.project_scope else "global"
    confirming = prompting or _confirms_on_terminal(opts)
    consent = bool(opts.patch) or confirming
    ctx = build_context(opts, scope, consent=consent, awareness=awareness)

    if opts.show:
        names = select_agents(opts, descriptors, scope, ctx) if opts.agents else []
        out.write(show.render(descriptors, names or sorted(descriptors), opts, json=opts.json))
        return EXIT_OK
    if not opts.agents and not opts.all_agents:
        raise UsageError("no agent given: use --agent NAME (see `rtok agents`) or --all")

    agents = select_agents(opts, descriptors, scope, ctx)
    if ctx.project_root is not None:
        check_project_root(ctx.project_root, ctx.home)
    the_run = _Run(opts, action, scope, agents, descriptors, ctx, confirming, out, err)
    the_plan = _plan(the_run, consent)
    if opts.dry_run:
        return _report_dry_run(opts, the_plan, action, scope, out, ctx)
    return _apply(the_run, the_plan, confirm)


def _prompting(opts: InitOptions) -> bool:
    """No agent given on a terminal, and nothing that only reports: ask for them."""
    return (
        opts.interactive
        and not opts.agents
        and not opts.all_agents
        and not (opts.json or opts.check or opts.show)
    )


def _confirms_on_terminal(opts: InitOptions) -> bool:
    """On a terminal, without --auto-patch/--no-patch, the one confirmation after the full
    diff is the consent to edit shared settings files too."""
    return (
        opts.interactive
        and opts.patch is None
        and not (opts.json or opts.check or opts.dry_run or opts.show)
    )


def _plan(the_run: _Run, consent: bool) -> planner.Plan:
    """The plan of the run's edits, with the notes that go with it."""
    opts, action, scope, ctx = the_run.opts, the_run.action, the_run.scope, the_run.ctx
    edits = collect_edits(the_run.agents, scope, action, ctx)
    # --no-patch asks for the rest to be written and the shared settings change printed
    # as steps to do by hand; otherwise an agent is installed whole or not at all.
    the_plan = planner.plan(
        edits, ctx, consent=consent, action=action, whole=opts.patch is not False
    )
    if action == "install":
        _install_notes(the_run.agents, scope, ctx, the_run.err)
    if action == "uninstall" and not the_plan.changes and not the_plan.declined:
        _other_scope_note(opts, the_run.agents, the_run.descriptors, scope, the_run.err)
    return the_plan


def _apply(the_run: _Run, the_plan: planner.Plan, confirm: Confirm | None) -> int:
    """Confirm (on a terminal), apply, and report."""
    opts, action, ctx, out, err = (
        the_run.opts,
        the_run.action,
        the_run.ctx,
        the_run.out,
        the_run.err,
    )
    messages: list[str] = []
    trust_asked = False
    if the_run.confirming and the_plan.changes:
        if not _confirm_plan(opts, the_plan, action, confirm, out, err, messages):
            return EXIT_PENDING
        trust_asked = action == "install"
    if action == "install" and ctx.rtok_bin == paths.launcher():
        _refresh_launcher(the_run.agents, the_plan)
    result = transaction.apply(
        the_plan, strict=the_run.confirming, action=action, project_root=ctx.project_root
    )
    messages.extend(_settle_command_link(action, ctx, the_plan))
    code = _outcome(opts, the_plan, messages)
    if action == "install" and not trust_asked:
        messages.extend(_trust_filters(opts, err))
    if opts.json:
        out.write(
            report.plan_json(
                the_plan,
                action=action,
                scope=the_run.scope,
                applied=result,
                exit_code=code,
                messages=messages,
            )
        )
        return code
    _report_applied(opts, the_plan, result, action, messages, out, err)
    _report_next(
        the_run.agents, the_run.descriptors, the_run.scope, action, the_plan, result, code, ctx, out
    )
    return code


def _refresh_launcher(agents: Sequence[str], the_plan: planner.Plan) -> None:
    """Before the hooks that name it: a re-run repairs a launcher that went stale."""
    if set(agents) - set(the_plan.held):
        launcher.ensure()
        leftovers.make_private()  # what an earlier release left readable to others


def _report_next(
    agents: Sequence[str],
    descriptors: dict[str, Descriptor],
    scope: str,
    action: Action,
    the_plan: planner.Plan,
    result: transaction.ApplyResult,
    code: int,
    ctx: InstallContext,
    out: TextIO,
) -> None:
    """What to do next (only for agents that were installed), the one-line result, and
    after a successful install a command to see rtok at work."""
    done = [a for a in agents if a not in the_plan.held]
    if result.applied and done:
        out.write(first_run.next_steps(done, descriptors, action, _rtok_command(ctx)) + "\n")
    report.write_result(out, _result_line(agents, scope, action, the_plan, result))
    if action == "install" and code == EXIT_OK and done:
        out.write(report.test_with_line(_rtok_command(ctx)))


def _check_options(opts: InitOptions) -> str:
    """Reject contradictory options; the awareness level to install with."""
    if opts.awareness is not None and opts.awareness not in AWARENESS_LEVELS:
        raise UsageError(
            f"--awareness must be one of {', '.join(AWARENESS_LEVELS)}, not {opts.awareness!r}"
        )
    return opts.awareness or configured_awareness()


def _load_descriptors() -> dict[str, Descriptor]:
    try:
        return integrations().load_descriptors()
    except Exception as exc:
        raise UsageError(f"the agent descriptors are invalid: {exc}") from exc


def _prompt_for_agents(
    opts: InitOptions, descriptors: dict[str, Descriptor], choose: Choose | None, err: TextIO
) -> InitOptions | None:
    """Ask for agents and scope: a copy of `opts` with them; None when none was chosen."""
    if choose is None:
        raise UsageError("no agent given: use --agent NAME (see `rtok agents`) or --all")
    chosen, global_scope = choose(opts, descriptors)
    scope = "global" if global_scope else "project"
    chosen, skipped = first_run.split_by_scope(chosen, descriptors, scope)
    if skipped:
        err.write(f"note: {first_run.skipped_note(skipped, descriptors, scope)}\n")
    if not chosen:
        err.write("No agent chosen; nothing written.\n")
        return None
    return replace(opts, agents=chosen, global_scope=global_scope, project_scope=not global_scope)


def _install_notes(agents: Sequence[str], scope: str, ctx: InstallContext, err: TextIO) -> None:
    # Rules-only agents (and rules-only scopes) always get the full awareness text.
    for note in integrations().awareness_notes(list(agents), scope, ctx):
        err.write(f"note: {note}\n")
    for note in empty_sibling_notes(agents, scope, ctx):
        err.write(f"note: {note}\n")
    link = _command_link_plan(ctx)
    if link is not None and link.note:
        err.write(f"note: {link.note}\n")


def _other_scope_note(
    opts: InitOptions,
    agents: Sequence[str],
    descriptors: dict[str, Descriptor],
    scope: str,
    err: TextIO,
) -> None:
    """An uninstall with nothing to remove here: say where rtok is installed instead."""
    other = "global" if scope == "project" else "project"
    if other == "project" and first_run.project_problem(find_project_root(opts.cwd), paths.home()):
        return
    ctx = build_context(opts, other, consent=False, awareness="default")
    found = [a for a in agents if other in integrations().installed_scopes(descriptors[a], ctx)]
    if found:
        how = "with --project" if other == "project" else "without --project"
        err.write(
            f"note: rtok is installed for {', '.join(found)} in the {other} scope: "
            f"run the same command {how} to remove it there\n"
        )


def _rtok_command(ctx: InstallContext) -> str:
    """How the user runs rtok in their shell: `rtok` where PATH finds it, else its path."""
    from rtok.invocation import rtok_command

    return rtok_command(ctx.env, ctx.home)


def _command_link_plan(ctx: InstallContext) -> command_link.LinkPlan | None:
    """The `rtok` command for the user's shell (None where rtok makes no link)."""
    if os.name == "nt" or ctx.rtok_bin != paths.launcher():
        return None
    return command_link.plan_install(ctx.rtok_bin, ctx.env, ctx.home)


def _settle_command_link(action: Action, ctx: InstallContext, the_plan: planner.Plan) -> list[str]:
    """Make the `rtok` link after an install that leaves an agent installed; remove it
    with the last agent. What was done, as lines for the user."""
    from rtok.integrity import records

    if action == "install":
        done = [a for a in the_plan.agents if a not in the_plan.held]
        link = _command_link_plan(ctx) if done else None
    else:
        try:
            if records.load_records():
                return []  # another agent or project still runs rtok
        except Exception:  # unreadable records: `rtok verify` reports them; keep the link
            return []
        link = command_link.plan_uninstall(paths.launcher())
    if link is None or not link.action:
        return []
    try:
        command_link.apply(link)
    except OSError as exc:
        return [f"could not {command_link.describe(link, ctx.home)}: {exc.strerror or exc}"]
    return [command_link.describe(link, ctx.home)]


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
                        f"write {{}} into it or delete it"
                    )
    return notes


def _report_dry_run(
    opts: InitOptions,
    the_plan: planner.Plan,
    action: Action,
    scope: str,
    out: TextIO,
    ctx: InstallContext,
) -> int:
    # A change that waits for consent is still pending for --check.
    pending = the_plan.pending or bool(the_plan.declined)
    code = EXIT_PENDING if (opts.check and pending) else EXIT_OK
    if opts.json:
        out.write(
            report.plan_json(the_plan, action=action, scope=scope, applied=None, exit_code=code)
        )
        return code
    out.write(report.plan_text(the_plan, action=action, show_diff=True, verbose=opts.verbose))
    link = _command_link_plan(ctx) if action == "install" else None
    if link is not None and link.action:
        out.write(f"would {command_link.describe(link, ctx.home)}\n")
    if opts.check:
        report.write_result(
            out,
            "Check: changes pending; nothing written." if pending else "Check: nothing to change.",
        )
    else:
        report.write_result(out, _result_line(the_plan.agents, scope, action, the_plan, None))
    return code


def _result_line(
    agents: Sequence[str],
    scope: str,
    action: Action,
    the_plan: planner.Plan,
    result: transaction.ApplyResult | None,
) -> str:
    changes = the_plan.changes if result is None else result.applied
    changed = sorted({e.agent for change in changes for e in change.edits})
    return report.result_line(
        action,
        scope,
        list(agents),
        changed=changed,
        declined=len(the_plan.declined),
        kept=len(the_plan.kept),
        dry_run=result is None,
        held=the_plan.held,
    )


def _confirm_plan(
    opts: InitOptions,
    the_plan: planner.Plan,
    action: Action,
    confirm: Confirm | None,
    out: TextIO,
    err: TextIO,
    messages: list[str],
) -> bool:
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
            messages.append(_held_message(opts, the_plan))
    if the_plan.kept:
        code = EXIT_KEPT
        messages.append(
            f"{len(the_plan.kept)} file(s) rtok wrote were modified by you and were kept"
        )
    return code


def _held_message(opts: InitOptions, the_plan: planner.Plan) -> str:
    """Which agents were left as they were for want of consent, and how to give it."""
    names = ", ".join(the_plan.held) or ", ".join(
        dict.fromkeys(e.agent for c in the_plan.declined for e in c.edits)
    )
    verb = "removed from" if opts.uninstall else "installed into"
    return (
        f"rtok was not {verb} {names}: that changes a settings file the agent shares with "
        "you, which needs your consent, so none of its files were touched. Give consent "
        "with --auto-patch (or run the same command on a terminal and answer yes), or use "
        "--no-patch to write the rest and print that change as steps to do by hand"
    )


def _report_applied(
    opts: InitOptions,
    the_plan: planner.Plan,
    result: transaction.ApplyResult,
    action: Action,
    messages: list[str],
    out: TextIO,
    err: TextIO,
) -> None:
    out.write(
        report.result_text(
            result, action=action, verbose=opts.verbose, declined=bool(the_plan.declined)
        )
    )
    for edit, note in the_plan.kept:
        out.write(report.shown_text(f"kept {edit.path} [{edit.agent}]: {note}") + "\n")
    for edit, note in the_plan.notes:
        out.write(report.shown_text(f"note: {edit.path} [{edit.agent}]: {note}") + "\n")
    for change in the_plan.declined:
        out.write(report.change_line(change, prefix=report.declined_prefix(change)) + "\n")
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
