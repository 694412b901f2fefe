"""The integrations: from an agent's descriptor to the exact file edits of one scope.

`load_descriptors()` reads and validates integrations/*.toml; `detect()` says whether an
agent seems installed on this machine; `installed_scopes()` where rtok is installed into
it; `edits_for()` the `FileEdit`s that install or uninstall rtok for one agent and scope.
The engine (planner, transaction, CLI) does the rest.
"""

from __future__ import annotations

import glob
import os
import shlex
import shutil
from collections.abc import Callable
from dataclasses import replace
from functools import lru_cache

from rtok import fileio
from rtok.formats import dialects
from rtok.formats.errors import FormatError
from rtok.install.descriptor import DescriptorError, load_all
from rtok.install.model import Action, FileEdit, InstallContext
from rtok.install.specs import Descriptor, FileSpec
from rtok.install.strategies import STRATEGIES, ScopeFiles, Strategy
from rtok.install.targets import toml_hooks
from rtok.install.targets.base import IntegrationError, Target
from rtok.install.targets.commands import hook_command
from rtok.paths import expand_user_path

__all__ = [
    "DescriptorError",
    "IntegrationError",
    "agent_names",
    "awareness_notes",
    "detect",
    "edits_for",
    "expand_path",
    "get_descriptor",
    "installed_scopes",
    "load_descriptors",
    "missing_parts",
]

ACTIONS = ("install", "uninstall")


@lru_cache(maxsize=1)
def _cached() -> dict[str, Descriptor]:
    return load_all()


def load_descriptors() -> dict[str, Descriptor]:
    """Every agent rtok supports, by name (validated; DescriptorError names file and key)."""
    return dict(_cached())


def agent_names() -> list[str]:
    return sorted(_cached())


def get_descriptor(agent: str) -> Descriptor:
    descriptors = _cached()
    if agent not in descriptors:
        raise KeyError(f"unknown agent {agent!r} (known: {', '.join(sorted(descriptors))})")
    return descriptors[agent]


def _env(ctx: InstallContext) -> dict[str, str]:
    env = dict(ctx.env)
    env["HOME"] = ctx.home
    return env


def expand_path(spec_path: str, scope: str, ctx: InstallContext, *, user_file: bool = False) -> str:
    """Absolute path of a descriptor path: global ones expand `~` and `${VAR:-default}`
    against ctx; project ones are relative to ctx.project_root."""
    if scope == "project" and not user_file:
        if not ctx.project_root:
            raise ValueError("a project install needs a project root")
        return os.path.normpath(os.path.join(ctx.project_root, spec_path))
    expanded = expand_user_path(spec_path, _env(ctx))
    return os.path.normpath(os.path.abspath(expanded))


def detect(descriptor: Descriptor, ctx: InstallContext) -> bool:
    """Does the agent seem installed here: one of its binaries on PATH, or one of its
    configuration paths present (a path may hold `*`, e.g. a versioned extension folder)."""
    search_path = ctx.env.get("PATH", "")
    for binary in descriptor.detection.binaries:
        if shutil.which(binary, path=search_path):
            return True
    env = _env(ctx)
    for pattern in descriptor.detection.paths:
        expanded = expand_user_path(pattern, env)
        found = glob.glob(expanded) if glob.has_magic(expanded) else os.path.exists(expanded)
        if found:
            return True
    return False


def _target(descriptor: Descriptor, scope: str, spec: FileSpec, ctx: InstallContext) -> Target:
    command = hook_command(
        ctx.rtok_bin,
        descriptor.name,
        fail_closed=descriptor.fail_closed,
        no_opinion=descriptor.no_opinion,
    )
    return Target(
        descriptor=descriptor,
        scope=scope,
        spec=spec,
        path=expand_path(spec.path, scope, ctx, user_file=spec.user_file),
        ctx=ctx,
        command=command,
        edit_scope="global" if spec.user_file else scope,
    )


def edits_for(agent: str, scope: str, action: Action, ctx: InstallContext) -> list[FileEdit]:
    """The edits that install (or uninstall) rtok for `agent` in `scope`, each built by
    its entry's strategy (rtok/install/strategies.py).

    Install with ctx.hook_only leaves the awareness files out; uninstall always covers
    every file, so an earlier full install is removed completely.
    """
    if action not in ACTIONS:
        raise ValueError(f"action must be one of {', '.join(ACTIONS)}, not {action!r}")
    descriptor = get_descriptor(agent)
    if scope not in descriptor.scopes:
        raise ValueError(
            f"{descriptor.display_name} has no {scope} install "
            f"(scopes: {', '.join(descriptor.scopes)})"
        )
    specs = descriptor.files[scope]
    # By position: two entries may name one file (Codex's config.toml holds both an inline
    # hook and its trust entry).
    targets = [_target(descriptor, scope, spec, ctx) for spec in specs]
    skipped = _unchosen_in_groups(specs, targets) if action == "install" else set()
    files = ScopeFiles(specs, targets, frozenset(skipped))
    edits: list[FileEdit] = []
    for index, spec in enumerate(specs):
        if index in skipped or (action == "install" and _left_out(spec, scope, ctx)):
            continue
        strategy = STRATEGIES[spec.strategy]
        for edit in strategy.build(targets[index], action, files):
            edits.append(_finished(edit, strategy, spec, targets[index], action))
    return edits


def _left_out(spec: FileSpec, scope: str, ctx: InstallContext) -> bool:
    """An install leaves out an awareness file with --hook-only, and an entry whose
    `when_exists` path is absent (a product variant not on this machine)."""
    if ctx.hook_only and spec.is_awareness:
        return True
    return bool(spec.when_exists) and not os.path.exists(
        expand_path(spec.when_exists, scope, ctx, user_file=spec.user_file)
    )


def _finished(
    edit: FileEdit, strategy: Strategy, spec: FileSpec, target: Target, action: Action
) -> FileEdit:
    """A strategy's edit with what every entry adds: a file agents share is kept while
    another uses it, the entry's description, and the host's facts."""
    if action == "uninstall" and strategy.shared:
        edit = _keep_if_shared(edit)
    if spec.description and action == "install":
        edit = replace(edit, description=f"{edit.description}; {spec.description}")
    return _with_host_facts(edit, spec, target, action)


def _with_host_facts(edit: FileEdit, spec: FileSpec, target: Target, action: Action) -> FileEdit:
    """Attach the host's dialect (an install refuses a file the host cannot parse) and the
    files the host writes beside rtok's own."""
    folder = os.path.dirname(target.path)
    host_files = tuple(os.path.join(folder, pattern) for pattern in spec.host_files)
    host = target.descriptor.display_name
    transform = edit.transform
    if action == "install" and spec.rejects_bom:
        transform = _bom_guarded(transform, host, target.path)
    if not spec.dialect:
        return replace(edit, transform=transform, host=host, host_files=host_files)
    if action == "install":
        transform = _guarded(transform, spec.dialect, host, target.path)
    else:
        transform = _explained(transform, spec.dialect, host, target.path)
    return replace(
        edit, transform=transform, dialect=spec.dialect, host=host, host_files=host_files
    )


def _guarded(
    transform: Callable[[bytes | None], bytes | None], dialect: str, host: str, path: str
) -> Callable[[bytes | None], bytes | None]:
    def guarded(data: bytes | None) -> bytes | None:
        if data is not None:
            check_host_dialect(data, dialect, host, path)
        return transform(data)

    return guarded


class HostCannotParse(FormatError):
    """A file its host cannot parse, said in the host's terms (dialects.host_reading)."""

    def __init__(self, path: str, line: int, reason: str, host: str, dialect: str) -> None:
        super().__init__(path, line, reason)
        self.args = (
            f"{path}: {dialects.host_reading(host, dialect, line, reason)}; "
            "correct it, then run the same command again",
        )


def _bom_guarded(
    transform: Callable[[bytes | None], bytes | None], host: str, path: str
) -> Callable[[bytes | None], bytes | None]:
    def guarded(data: bytes | None) -> bytes | None:
        if data is not None:
            check_no_bom(data, host, path)
        return transform(data)

    return guarded


def check_no_bom(data: bytes, host: str, path: str) -> None:
    """Raise FormatError when `data` starts with a UTF-8 byte-order mark that `host`'s own
    parser refuses: the file is already unreadable to the host, and rtok does not decide
    for the user what its first bytes should be."""
    if data.startswith(b"\xef\xbb\xbf"):
        raise FormatError(
            path,
            1,
            f"the file starts with a UTF-8 byte-order mark, which {host} cannot parse (it "
            f"ignores or refuses the whole file); remove the first 3 bytes, e.g. "
            f"`sed -i '1s/^\\xEF\\xBB\\xBF//' {shlex.quote(path)}`",
        )


def check_host_dialect(data: bytes, dialect: str, host: str, path: str) -> None:
    """Raise HostCannotParse (in the host's terms, with the line) when `host` cannot parse
    `data`."""
    problem = dialects.host_problem(data, dialect, label=path)
    if problem is None:
        return
    line, reason = problem
    raise HostCannotParse(path, line, reason, host, dialect)


def _explained(
    transform: Callable[[bytes | None], bytes | None], dialect: str, host: str, path: str
) -> Callable[[bytes | None], bytes | None]:
    """An uninstall takes rtok's entry out of whatever rtok's own reader accepts; a file it
    cannot read is then reported in the same words as an install's refusal."""

    def explained(data: bytes | None) -> bytes | None:
        try:
            return transform(data)
        except FormatError:
            if data is not None:
                check_host_dialect(data, dialect, host, path)
            raise

    return explained


def _unchosen_in_groups(specs: tuple[FileSpec, ...], targets: list[Target]) -> set[int]:
    """Positions of grouped entries an install leaves out. Per group the host reads one
    file: the first entry (in the host's order of precedence) whose file is in use (exists,
    or holds its `prefer_when` key), else the first entry without `prefer_when`."""
    groups: dict[str, list[int]] = {}
    for index, spec in enumerate(specs):
        if spec.group:
            groups.setdefault(spec.group, []).append(index)
    skipped: set[int] = set()
    for members in groups.values():
        chosen = next((i for i in members if _in_use(targets[i].path, specs[i].prefer_when)), None)
        if chosen is None:
            chosen = next((i for i in members if not specs[i].prefer_when), members[0])
        skipped.update(i for i in members if i != chosen)
    return skipped


def _in_use(path: str, keys: tuple[str, ...]) -> bool:
    if not keys:
        return os.path.lexists(path)
    data = _read(path)
    if data is None or not data.strip():
        return False
    try:
        value = toml_hooks.read_document(data, path, keys)
    except FormatError:
        return False
    return value is not None


def _other_owners(path: str, kind: str, agent: str) -> list[str]:
    """Other agents rtok's integrity records say use this very file (Pi and Oh My Pi share
    one extension when PI_CODING_AGENT_DIR points both at the same directory)."""
    from rtok.integrity.records import load_records  # integrity imports the installer

    try:
        records = load_records()
    except Exception:  # unreadable records: nothing is known about sharing
        return []
    target = os.path.abspath(path)
    return sorted(
        {
            r.agent
            for r in records
            if r.agent != agent and r.kind == kind and os.path.abspath(r.path) == target
        }
    )


def _keep_if_shared(edit: FileEdit) -> FileEdit:
    others = _other_owners(edit.path, edit.kind, edit.agent)
    if not others:
        return edit
    return replace(
        edit,
        transform=lambda data: data,
        kept_note=None,
        description=f"leave the file in place: {', '.join(others)} still use it",
    )


def installed_scopes(descriptor: Descriptor, ctx: InstallContext) -> list[str]:
    """Scopes where rtok's bytes are present for this agent now (any rtok path)."""
    found: list[str] = []
    for scope in descriptor.scopes:
        if scope == "project" and not ctx.project_root:
            continue
        try:
            edits = edits_for(descriptor.name, scope, "uninstall", ctx)
        except ValueError:
            continue
        for edit in edits:
            try:
                current = _read(edit.path)
                if current is None:
                    continue
                kept = edit.kept_note(current) if edit.kept_note else None
                if kept or edit.transform(current) != current:
                    found.append(scope)
                    break
            except Exception:  # an unreadable or malformed file says nothing either way
                continue
    return found


HOOK_KINDS = frozenset({"settings_entry", "trust_entry", "whole_file"})


def missing_parts(descriptor: Descriptor, scope: str, ctx: InstallContext) -> list[FileEdit]:
    """The hook, plugin and trust edits of an install that are not in place (a part that
    needed consent and was declined), for an agent installed in `scope`. Awareness files
    are not counted: `--hook-only` leaves them out on purpose."""
    missing: list[FileEdit] = []
    for edit in edits_for(descriptor.name, scope, "install", ctx):
        if edit.kind not in HOOK_KINDS:
            continue
        try:
            current = _read(edit.path)
            if edit.transform(current) != current:
                missing.append(edit)
        except Exception:  # a file rtok cannot edit now: verify reports why
            continue
    return missing


def _read(path: str) -> bytes | None:
    return fileio.read_if_readable(path)


def awareness_notes(agents: list[str], scope: str, ctx: InstallContext) -> list[str]:
    """One line per agent whose awareness text in `scope` is always the full one (it has
    no hook or plugin there, so the agent itself is told to run commands through rtok),
    for the installer to print when the configured level is lower."""
    notes: list[str] = []
    for agent in agents:
        descriptor = get_descriptor(agent)
        forced = [
            spec
            for spec in descriptor.files.get(scope, ())
            if spec.is_awareness and (descriptor.tier == "rules" or spec.options.get("level"))
        ]
        if forced and ctx.awareness_level != "full" and not ctx.hook_only:
            notes.append(
                f"{descriptor.display_name}: awareness is 'full' here (no hook or plugin in "
                f"this scope, so the agent is asked to run commands as `rtok run …`); the "
                f"configured level {ctx.awareness_level!r} does not apply"
            )
    return notes
