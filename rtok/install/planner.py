"""Planning: the exact bytes every target file will hold, computed before anything is written.

`plan(edits, ctx)` reads each target's current bytes (through symlinks: the real file is
read and later replaced, the link is kept), runs the integrations' transforms and returns
the changes. Every problem found (a file that does not parse, an unreadable file, a
directory rtok cannot write, a project file that a link sends outside the project) is
collected and raised together as one `PlanError`, before anything is written.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

from rtok.formats.errors import FormatError
from rtok.install import fsio, origins, state
from rtok.install.model import Action, FileEdit, InstallContext

# Settings files are small; a larger one is refused at once instead of parsed for minutes
# with gigabytes of memory.
MAX_EDIT_BYTES = 16 * 1024 * 1024


class PlanError(Exception):
    """One or more targets cannot be changed; nothing was written."""

    def __init__(self, problems: Sequence[str]) -> None:
        self.problems = list(problems)
        super().__init__("\n".join(self.problems))


@dataclass(frozen=True)
class Change:
    """One file's planned transition. `new` None deletes it; `old` None creates it."""

    path: str  # as the integration named it (may be a symlink)
    real_path: str  # the file that is actually replaced
    old: bytes | None
    new: bytes | None
    mode: int  # mode the file has afterwards (unused for a deletion)
    edit: FileEdit  # the first edit of this file (agent, scope, kind for reports)
    edits: tuple[FileEdit, ...] = ()  # every edit folded into this change, in order
    old_mode: int | None = None
    new_dirs: tuple[str, ...] = ()  # missing parent directories, outermost first
    # The edits that changed the bytes (what a summary may name); empty: all of `edits`.
    effective: tuple[FileEdit, ...] = ()

    @property
    def described(self) -> tuple[FileEdit, ...]:
        return self.effective or self.edits

    @property
    def changes_nothing(self) -> bool:
        """The same bytes (or still no file), and the same mode."""
        return self.new == self.old and (self.old is None or self.mode == self.old_mode)

    @property
    def action(self) -> str:
        if self.old is None:
            return "create"
        if self.new is None:
            return "delete"
        return "modify" if self.new != self.old else "chmod"


@dataclass(frozen=True)
class Plan:
    changes: tuple[Change, ...] = ()
    declined: tuple[Change, ...] = ()  # need consent that was not given; not applied
    unchanged: tuple[FileEdit, ...] = ()  # already as wanted
    # Edits (with consent) whose files need no change: the transaction locks and re-checks
    # these too, so a run stays whole when another run changes them in between.
    in_place: tuple[FileEdit, ...] = ()
    kept: tuple[tuple[FileEdit, str], ...] = ()  # rtok files kept on purpose, with why
    # What an uninstall removes beyond rtok's exact bytes (entries the user edited), to say.
    notes: tuple[tuple[FileEdit, str], ...] = ()
    agents: tuple[str, ...] = field(default=())
    # Agents none of whose changes were made, because one of them needed consent.
    held: tuple[str, ...] = ()

    @property
    def pending(self) -> bool:
        return bool(self.changes)


def _apply(transforms: Sequence[FileEdit], current: bytes | None) -> bytes | None:
    data = current
    for edit in transforms:
        data = edit.transform(data)
    return data


def _effective(transforms: Sequence[FileEdit], current: bytes | None) -> tuple[FileEdit, ...]:
    """The edits of `transforms` that change the bytes they are handed (in order)."""
    found: list[FileEdit] = []
    data = current
    for edit in transforms:
        after = edit.transform(data)
        if after != data:
            found.append(edit)
        data = after
    return tuple(found)


def _describe_failure(path: str, exc: Exception) -> str:
    text = str(exc) or type(exc).__name__
    if isinstance(exc, FormatError) and "correct it" not in text:
        text += "; correct it, then run the same command again"
    if path in text:
        return text
    return f"{path}: {text}"


def _is_within(path: str, root: str) -> bool:
    try:
        return os.path.commonpath([path, root]) == root
    except ValueError:
        return False


def missing_dirs(directory: str) -> tuple[list[str], str]:
    """Missing ancestors of `directory` (outermost first) and the nearest existing one."""
    missing: list[str] = []
    current = directory
    while not os.path.lexists(current):
        missing.append(current)
        parent = os.path.dirname(current)
        if parent == current:
            break
        current = parent
    missing.reverse()
    return missing, current


def _writability_problem(real_path: str, existing_dir: str, missing: list[str]) -> str | None:
    if not os.path.isdir(existing_dir):
        return f"{real_path}: cannot be created, {existing_dir} is not a directory"
    if not os.access(existing_dir, os.W_OK | os.X_OK):
        what = "create directories in" if missing else "write files in"
        return f"{real_path}: cannot {what} {existing_dir} (read-only or permission denied)"
    return None


def _file_writable(real_path: str, mode: int) -> bool:
    # root passes os.access for every file; the write bits still say what the user meant.
    return os.access(real_path, os.W_OK) and bool(mode & 0o222)


def _resolve(path: str, edits: Sequence[FileEdit], ctx: InstallContext) -> tuple[str, str | None]:
    """(real path, problem) for a target; follows links, refuses a dangling one or an escape."""
    absolute = os.path.abspath(path)
    if os.path.islink(absolute) and not os.path.exists(absolute):
        return absolute, (
            f"{absolute}: is a symbolic link to a missing file or a link loop; fix or remove "
            "the link first"
        )
    real = os.path.realpath(absolute)
    if ctx.project_root and any(edit.scope == "project" for edit in edits):
        root = os.path.realpath(ctx.project_root)
        if not _is_within(real, root):
            return real, (
                f"{absolute}: resolves through a link to {real}, outside the project {root}; "
                "rtok does not write outside the project for a project install"
            )
    return real, None


def target_mode(old_mode: int | None, edits: Sequence[FileEdit]) -> int:
    """The mode a file gets: its own when it exists (plus exec bits a hook script needs)."""
    wanted = next((e.mode for e in edits if e.mode is not None), None)
    if old_mode is None:
        if wanted is not None:
            return wanted
        return 0o666 & ~fsio.current_umask()
    if wanted is not None and wanted & 0o111 and any(e.kind == "whole_file" for e in edits):
        # Keep the user's mode, but a hook script rtok owns must stay executable: whoever
        # may read it may run it.
        return old_mode | ((old_mode & 0o444) >> 2)
    return old_mode


def plan(
    edits: Sequence[FileEdit],
    ctx: InstallContext,
    *,
    consent: bool | None = None,
    action: Action = "install",
    whole: bool = True,
) -> Plan:
    """Plan `edits`. Edits that need consent are applied only when `consent` (default:
    ctx.auto_patch) is true; otherwise they are computed and returned as `declined`.
    With `whole` (the default), an agent one of whose changes is declined gets none of
    its changes: its hook without its awareness file, or the other way round, would tell
    the model about output nothing shortens. An uninstall gives back a file's bytes from
    before rtok changed it when it can (`rtok.install.origins`)."""
    allowed = ctx.auto_patch if consent is None else consent
    groups: dict[str, list[FileEdit]] = {}
    for edit in edits:
        key = os.path.realpath(os.path.abspath(edit.path))
        groups.setdefault(key, []).append(edit)
    origin_table = state.load_origins() if action == "uninstall" else {}
    parts = _plan_groups(groups, ctx, allowed, action, origin_table, frozenset())
    held = frozenset(e.agent for c in parts.declined for e in c.edits)
    if whole and held:
        parts = _plan_groups(groups, ctx, allowed, action, origin_table, held)
    if parts.problems:
        raise PlanError(parts.problems)
    return Plan(
        changes=tuple(parts.changes),
        declined=tuple(parts.declined),
        unchanged=tuple(parts.unchanged),
        in_place=tuple(parts.in_place),
        kept=tuple(parts.kept),
        notes=tuple(parts.notes),
        agents=tuple(dict.fromkeys(e.agent for e in edits)),
        held=tuple(sorted(held)) if whole else (),
    )


@dataclass
class _Parts:
    """What planning every file found so far (lists filled by _plan_group)."""

    changes: list[Change] = field(default_factory=list)
    declined: list[Change] = field(default_factory=list)
    unchanged: list[FileEdit] = field(default_factory=list)
    in_place: list[FileEdit] = field(default_factory=list)
    kept: list[tuple[FileEdit, str]] = field(default_factory=list)
    notes: list[tuple[FileEdit, str]] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


def _plan_groups(
    groups: dict[str, list[FileEdit]],
    ctx: InstallContext,
    allowed: bool,
    action: Action,
    origin_table: state.OriginTable,
    held: frozenset[str],
) -> _Parts:
    parts = _Parts()
    for group in groups.values():
        _plan_group(group, ctx, allowed, action, origin_table, held, parts)
    return parts


def _plan_group(
    group: list[FileEdit],
    ctx: InstallContext,
    allowed: bool,
    action: Action,
    origin_table: state.OriginTable,
    held: frozenset[str],
    parts: _Parts,
) -> None:
    """Plan one file's edits into `parts`. An edit is refused when it needs consent that
    was not given, or when its agent is held (another of its files was refused)."""
    path = os.path.abspath(group[0].path)
    found = _read_target(path, group, ctx)
    if isinstance(found, str):
        parts.problems.append(found)
        return
    real, current, old_mode = found
    accepted, refused = _split(group, allowed, held)
    try:
        new = _apply(accepted, current)
        if action == "uninstall" and accepted:
            new = origins.restore(origin_table, real, current, new)
        with_refused = _apply(refused, new) if refused else new
    except Exception as exc:  # a transform refuses the file (parse error, bad shape)
        parts.problems.append(_describe_failure(path, exc))
        return
    _collect_notes(group, current, bool(accepted), parts.kept, parts.notes)
    missing, existing = missing_dirs(os.path.dirname(real))
    # The file's change, to be made of the accepted or the refused edits (_made_of).
    base = change_of(path, real, current, new, old_mode, accepted or group, missing)
    if not accepted or base.changes_nothing:
        parts.unchanged.extend(accepted)
        parts.in_place.extend(accepted)
    else:
        writable = _write_problem(real, old_mode, existing, missing, ctx)
        if writable:
            parts.problems.append(writable)
            return
        parts.changes.append(_made_of(base, accepted, current))
    if refused and with_refused != new:
        parts.declined.append(_made_of(replace(base, new=with_refused), refused, new))
    elif refused:
        parts.unchanged.extend(refused)


def change_of(
    path: str,
    real_path: str,
    old: bytes | None,
    new: bytes | None,
    old_mode: int | None,
    edits: Sequence[FileEdit],
    new_dirs: Sequence[str],
) -> Change:
    """The change `edits` make to one file (`path`, the file `real_path` it names), from
    `old` to `new`: its mode afterwards is `target_mode(old_mode, edits)`."""
    return Change(
        path=path,
        real_path=real_path,
        old=old,
        new=new,
        mode=target_mode(old_mode, edits),
        edit=edits[0],
        edits=tuple(edits),
        old_mode=old_mode,
        new_dirs=tuple(new_dirs),
    )


def _split(
    group: list[FileEdit], allowed: bool, held: frozenset[str]
) -> tuple[list[FileEdit], list[FileEdit]]:
    """(the edits planned, the edits refused for want of consent or with a held agent)."""
    accepted = [e for e in group if e.agent not in held and (allowed or not e.needs_consent)]
    return accepted, [e for e in group if e not in accepted]


def _made_of(base: Change, edits: list[FileEdit], before: bytes | None) -> Change:
    """`base` as the change these edits make (`before`: the bytes they start from)."""
    return replace(base, edit=edits[0], edits=tuple(edits), effective=_effective(edits, before))


def _read_target(
    path: str, group: Sequence[FileEdit], ctx: InstallContext
) -> tuple[str, bytes | None, int | None] | str:
    """(real path, current bytes, mode) of the file `group` edits, or why it cannot be."""
    real, problem = _resolve(path, group, ctx)
    if problem:
        return problem
    too_big = _size_problem(real)
    if too_big:
        return too_big
    try:
        current, old_mode = fsio.read_with_mode(real)
    except fsio.FileAccessError as exc:
        return str(exc)
    return real, current, old_mode


def _collect_notes(
    group: Sequence[FileEdit],
    current: bytes | None,
    accepted: bool,
    kept: list[tuple[FileEdit, str]],
    notes: list[tuple[FileEdit, str]],
) -> None:
    for edit in group:
        note = _kept_note(edit, current)
        if note:
            kept.append((edit, note))
        said = edit.removal_note(current) if edit.removal_note and accepted else None
        if said:
            notes.append((edit, said))


def _write_problem(
    real: str, old_mode: int | None, existing: str, missing: list[str], ctx: InstallContext
) -> str | None:
    writable = _writability_problem(real, existing, missing)
    if (
        writable is None
        and old_mode is not None
        and not _file_writable(real, old_mode)
        and not ctx.created_by_rtok(real)
    ):
        writable = (
            f"{real}: is read-only; rtok does not replace a file you protected "
            "(make it writable to let rtok change it)"
        )
    return writable


def _size_problem(real_path: str) -> str | None:
    try:
        size = os.stat(real_path).st_size
    except OSError:
        return None  # absent (or unreadable: reading it reports that)
    if size <= MAX_EDIT_BYTES or not os.path.isfile(real_path):
        return None
    return (
        f"{real_path}: is {size / (1024 * 1024):.0f} MiB; rtok edits settings files of up to "
        f"{MAX_EDIT_BYTES // (1024 * 1024)} MiB and left it alone (a settings file this "
        "large is usually not one: check what wrote it)"
    )


def _kept_note(edit: FileEdit, current: bytes | None) -> str | None:
    note_for: Callable[[bytes | None], str | None] | None = edit.kept_note
    if note_for is None:
        return None
    return note_for(current)
