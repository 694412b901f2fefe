"""Applying a plan as one transaction.

Under a lock per real file (taken in sorted order), every target is re-read: if it changed
since planning, its transforms are re-run on the current bytes (or, in strict mode, the run
fails and nothing is written). Every pre-existing file that changes is backed up first; each
write is a fsynced temp file renamed over the real file, then a fsync of the directory. If
any step fails, the files already written are put back, directories created are removed,
and the error is raised.

Files and directories rtok creates are recorded in the install state before they are made
(write-ahead), so a process killed at any point never leaves a file of rtok's that a later
uninstall would not recognise.
"""

from __future__ import annotations

import contextlib
import glob
import os
import random
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from rtok.fileio import sha256_hex
from rtok.install import fsio, origins, state
from rtok.install.backups import BackupRun
from rtok.install.locks import locked
from rtok.install.model import Action, FileEdit
from rtok.install.planner import Change, Plan, change_of, missing_dirs, target_mode
from rtok.integrity.records import (
    ArtifactRecord,
    forget_artifacts,
    load_records,
    record_artifacts,
)

# Test-only: seconds to sleep between the transaction's steps, announcing each step on
# stderr (STEP_MARKER), so a crash test can kill the process at every one of them. Never
# set by users.
STEP_DELAY_ENV = "RTOK_TEST_TRANSACTION_STEP_DELAY"
STEP_MARKER = "rtok-test-transaction-step"


class TransactionError(Exception):
    """Applying failed; the files already written were restored."""


class StaleTargetError(TransactionError):
    """A target changed between planning (and the preview) and applying."""


@dataclass
class ApplyResult:
    applied: list[Change] = field(default_factory=list)
    backups: list[tuple[str, str]] = field(default_factory=list)  # (original, backup)
    replanned: list[str] = field(default_factory=list)  # changed since planning
    created_dirs: list[str] = field(default_factory=list)
    removed_dirs: list[str] = field(default_factory=list)
    removed_temps: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


def _step_delay() -> float:
    text = os.environ.get(STEP_DELAY_ENV, "")
    try:
        return max(0.0, float(text)) if text else 0.0
    except ValueError:
        return 0.0


def _pause(delay: float) -> None:
    if delay:
        sys.stderr.write(STEP_MARKER + "\n")
        sys.stderr.flush()
        time.sleep(delay)


def _recheck(
    change: Change, strict: bool, origin_table: state.OriginTable | None = None
) -> Change | None:
    """The change as it must be applied now (None: nothing left to do)."""
    if os.path.realpath(change.path) != change.real_path:
        raise StaleTargetError(
            f"{change.path}: now resolves to {os.path.realpath(change.path)} instead of "
            f"{change.real_path}; nothing was written, run the command again"
        )
    current = fsio.read_target(change.real_path)
    if current == change.old:
        return change
    if strict:
        raise StaleTargetError(
            f"{change.path}: changed after the preview was shown; nothing was written, "
            "run the command again to see the new changes"
        )
    return _replan(change, current, origin_table)


def _replan(
    change: Change, current: bytes | None, origin_table: state.OriginTable | None
) -> Change | None:
    """`change` planned again on the bytes its file holds now (None: nothing to do)."""
    new: bytes | None = current
    for edit in change.edits:
        new = edit.transform(new)
    if origin_table is not None:
        new = origins.restore(origin_table, change.real_path, current, new)
    old_mode = None if current is None else os.stat(change.real_path).st_mode & 0o7777
    mode = change.mode if old_mode is None else target_mode(old_mode, change.edits)
    if new == current and (current is None or mode == old_mode):
        return None
    return replace(change, old=current, new=new, old_mode=old_mode, mode=mode)


def _group_in_place(plan: Plan) -> dict[str, list[FileEdit]]:
    """Edits already in place at planning, by real path (files with a change excluded)."""
    changed = {c.real_path for c in plan.changes}
    groups: dict[str, list[FileEdit]] = {}
    for edit in plan.in_place:
        real = os.path.realpath(os.path.abspath(edit.path))
        if real not in changed:
            groups.setdefault(real, []).append(edit)
    return groups


def _recheck_in_place(
    real_path: str,
    edits: list[FileEdit],
    strict: bool,
    origin_table: state.OriginTable | None = None,
) -> Change | None:
    """A file that needed no change at planning; another run may have changed it since."""
    current = fsio.read_target(real_path)
    new: bytes | None = current
    for edit in edits:
        new = edit.transform(new)
    if origin_table is not None:
        new = origins.restore(origin_table, real_path, current, new)
    old_mode = None if current is None else os.stat(real_path).st_mode & 0o7777
    path = os.path.abspath(edits[0].path)
    new_dirs = _missing_dirs(os.path.dirname(real_path))
    change = change_of(path, real_path, current, new, old_mode, edits, new_dirs)
    if change.changes_nothing:
        return None
    if strict:
        raise StaleTargetError(
            f"{path}: changed after the preview was shown; nothing was written, run the "
            "command again to see the new changes"
        )
    return change


def _missing_dirs(directory: str) -> list[str]:
    return missing_dirs(directory)[0]


class _Journal:
    """What this run has done so far, to undo it if a later step fails."""

    def __init__(self) -> None:
        self.done: list[tuple[Change, str | None]] = []  # (change, link target if removed)
        self.dirs: list[str] = []
        self.recorded_files: list[str] = []
        self.recorded_dirs: list[str] = []

    def undo(self) -> list[str]:
        failures: list[str] = []
        for change, link_target in reversed(self.done):
            try:
                if change.old is None:
                    if os.path.lexists(change.real_path):
                        fsio.durable_unlink(change.real_path)
                else:
                    fsio.atomic_write(change.real_path, change.old, change.old_mode or 0o644)
                    if link_target is not None and not os.path.lexists(change.path):
                        os.symlink(link_target, change.path)
            except OSError as exc:
                failures.append(f"{change.real_path}: could not be restored ({exc})")
        for directory in reversed(self.dirs):
            with contextlib.suppress(OSError):
                os.rmdir(directory)
        try:
            state.update(remove_files=self.recorded_files, remove_dirs=self.recorded_dirs)
        except (OSError, state.StateError) as exc:
            failures.append(f"install state could not be reverted ({exc})")
        return failures


# A file that changes under rtok's write is planned again on its new bytes, a bounded number
# of times; a file that is empty or does not parse just then (another program is half-way
# through writing it) is given a moment to settle, and never written on those bytes.
MAX_WRITE_ATTEMPTS = 50
RETRY_DELAY_S = (0.001, 0.02)  # random back-off between attempts, so two writers part
SETTLE_TRIES = 25
SETTLE_DELAY_S = 0.02


def _is_blank(data: bytes | None) -> bool:
    return data is not None and not data.strip()


def _settled_replan(
    change: Change, current: bytes | None, origin_table: state.OriginTable | None
) -> Change | None:
    """Plan `change` again on what its file holds now, waiting for a file that looks
    half-written (blank or unparseable where it was not) to settle."""
    problem: Exception | None = None
    for attempt in range(SETTLE_TRIES):
        if attempt:
            time.sleep(SETTLE_DELAY_S)
            current = fsio.read_target(change.real_path)
        if _is_blank(current) and not _is_blank(change.old) and change.old is not None:
            problem = None
            continue
        try:
            return _replan(change, current, origin_table)
        except Exception as exc:  # does not parse (yet): give the other writer a moment
            problem = exc
    why = f"it does not parse ({problem})" if problem else "it is empty"
    raise StaleTargetError(
        f"{change.path}: changed while rtok was writing it and {why} now; rtok wrote "
        "nothing to it, run the command again once the other program is done"
    )


def _write_current(
    change: Change,
    journal: _Journal,
    delay: float,
    strict: bool,
    origin_table: state.OriginTable | None,
    backups: BackupRun,
    result: ApplyResult,
) -> Change | None:
    """Write `change`, re-planning it when the file changed right before the rename."""
    for attempt in range(MAX_WRITE_ATTEMPTS):
        if attempt:
            time.sleep(random.uniform(*RETRY_DELAY_S))
        try:
            _write(change, journal, delay)
            return change
        except fsio.TargetChanged as moved:
            if strict:
                raise StaleTargetError(
                    f"{change.path}: changed after the preview was shown; nothing was "
                    "written, run the command again to see the new changes"
                ) from None
            result.replanned.append(change.path)
            now = _settled_replan(change, moved.current, origin_table)
            if now is None:
                return None
            if now.old is not None and now.new != now.old:
                result.backups.append((now.path, backups.save(now.path, now.old)))
            if now.old is None and change.old is not None:
                journal.recorded_files.append(now.real_path)
                state.update(add_files=[now.real_path])
            change = now
    raise StaleTargetError(
        f"{change.path}: kept changing while rtok tried to write it "
        f"({MAX_WRITE_ATTEMPTS} attempts); nothing was written to it, run the command again"
    )


def _write(change: Change, journal: _Journal, delay: float) -> None:
    for directory in _missing_dirs(os.path.dirname(change.real_path)):
        try:
            os.mkdir(directory)
        except FileExistsError:
            continue
        journal.dirs.append(directory)
        _pause(delay)
    if change.new is None:
        link_target = None
        if change.path != change.real_path and os.path.islink(change.path):
            link_target = os.readlink(change.path)
        fsio.durable_unlink(change.real_path, expect=change.old)
        journal.done.append((change, link_target))
        if link_target is not None:
            fsio.durable_unlink(change.path)
    else:
        try:
            fsio.atomic_write(change.real_path, change.new, change.mode, expect=change.old)
        except fsio.TargetChanged:
            raise  # nothing written: nothing to undo for this file
        except BaseException:
            journal.done.append((change, None))
            raise
        journal.done.append((change, None))


def _remove_host_files(edits: Sequence[FileEdit], current_state: state.InstallState) -> list[str]:
    """Files the host wrote beside a file of rtok's that is gone now (a plugin's bytecode),
    inside a directory rtok created; then the host's directories they leave empty."""
    removed: list[str] = []
    for edit in edits:
        folder = os.path.dirname(os.path.realpath(edit.path))
        if not edit.host_files or os.path.lexists(edit.path) or not current_state.created(folder):
            continue
        for pattern in edit.host_files:
            for found in sorted(glob.glob(pattern)):
                if os.path.isfile(found) and not os.path.islink(found):
                    with contextlib.suppress(OSError):
                        os.unlink(found)
                        removed.append(found)
            directory = os.path.dirname(pattern)
            while directory != folder and directory.startswith(folder + os.sep):
                with contextlib.suppress(OSError):
                    os.rmdir(directory)  # only when empty
                directory = os.path.dirname(directory)
    return removed


def _prune_created_dirs(deleted: Sequence[Change], absent: Sequence[FileEdit] = ()) -> list[str]:
    """Remove directories rtok created that the deletions left empty (innermost first).
    `absent`: edits of files already gone (an uninstall killed after deleting them)."""
    current_state = state.load()
    _remove_host_files([e for c in deleted for e in c.edits] + list(absent), current_state)
    removed: list[str] = []
    candidates = {os.path.dirname(c.real_path) for c in deleted}
    candidates |= {os.path.dirname(c.path) for c in deleted}
    candidates |= {
        os.path.dirname(os.path.abspath(e.path)) for e in absent if not os.path.lexists(e.path)
    }
    for start in sorted(candidates, key=len, reverse=True):
        directory = start
        while current_state.created(directory) and os.path.isdir(directory):
            try:
                os.rmdir(directory)
            except OSError:
                break  # not empty: something else lives there now
            removed.append(directory)
            parent = os.path.dirname(directory)
            if parent == directory:
                break
            directory = parent
    return removed


def apply(
    plan: Plan,
    *,
    strict: bool = False,
    action: Action = "install",
    project_root: str | None = None,
) -> ApplyResult:
    """Apply `plan.changes` all or nothing. Raises TransactionError (files restored)."""
    result = ApplyResult()
    # Temp files of a killed earlier run may sit beside files that need no change now.
    for directory in {os.path.dirname(os.path.realpath(e.path)) for e in plan.unchanged}:
        result.removed_temps.extend(fsio.sweep_stale_temps(directory))
    if not plan.changes and not plan.in_place:
        if action == "uninstall":
            _finish_removal(plan, [], result)
        _sync_integrity(plan, [], action, project_root, result)
        return result
    delay = _step_delay()
    settled = _group_in_place(plan)
    with locked([c.real_path for c in plan.changes] + list(settled)):
        journal = _Journal()
        try:
            final = _apply_locked(plan, settled, strict, action, journal, delay, result)
        except BaseException as exc:
            failures = journal.undo()
            if isinstance(exc, TransactionError) and not failures:
                raise
            if not isinstance(exc, Exception):
                raise
            raise _failure(exc, journal, failures, result) from exc
        result.applied = final
        result.created_dirs = list(journal.dirs)
        # Without a kept origin an uninstall still removes exactly rtok's bytes; it only
        # cannot give back empty containers the user had.
        with contextlib.suppress(OSError, state.StateError):
            origins.after_apply(action, [(c.real_path, c.old, c.new) for c in final])
    _sync_integrity(plan, final, action, project_root, result)
    return result


def _apply_locked(
    plan: Plan,
    settled: dict[str, list[FileEdit]],
    strict: bool,
    action: Action,
    journal: _Journal,
    delay: float,
    result: ApplyResult,
) -> list[Change]:
    """Under the locks: re-check, back up, record ahead, write each file; the changes
    written. Whatever was done is in `journal`, for the caller to undo on failure."""
    # An uninstall re-planned under the locks gives back origins as the plan did.
    origin_table = state.load_origins() if action == "uninstall" else None
    final = _recheck_all(plan, settled, strict, origin_table, result)
    for directory in {os.path.dirname(c.real_path) for c in final}:
        result.removed_temps.extend(fsio.sweep_stale_temps(directory))
    backups = _back_up(final, result, delay)
    journal.recorded_files = [c.real_path for c in final if c.old is None]
    journal.recorded_dirs = sorted(
        {d for c in final for d in _missing_dirs(os.path.dirname(c.real_path))}
    )
    state.update(add_files=journal.recorded_files, add_dirs=journal.recorded_dirs)
    _pause(delay)
    written: list[Change] = []
    for change in final:
        done = _write_current(change, journal, delay, strict, origin_table, backups, result)
        if done is not None:
            written.append(done)
        _pause(delay)
    deleted = [c for c in written if c.new is None]
    _finish_removal(plan if action == "uninstall" else Plan(), deleted, result)
    return written


def _recheck_all(
    plan: Plan,
    settled: dict[str, list[FileEdit]],
    strict: bool,
    origin_table: state.OriginTable | None,
    result: ApplyResult,
) -> list[Change]:
    """Every change as it must be applied now that the files are locked."""
    final: list[Change] = []
    for change in plan.changes:
        now = _recheck(change, strict, origin_table)
        if now is not change:
            result.replanned.append(change.path)
        if now is not None:
            final.append(now)
    for real_path, edits in settled.items():
        late = _recheck_in_place(real_path, edits, strict, origin_table)
        if late is not None:
            result.replanned.append(late.path)
            final.append(late)
    return final


def _back_up(final: Sequence[Change], result: ApplyResult, delay: float) -> BackupRun:
    backups = BackupRun()
    for change in final:
        if change.old is not None and change.new != change.old:
            result.backups.append((change.path, backups.save(change.path, change.old)))
            _pause(delay)
    return backups


def _failure(
    exc: Exception, journal: _Journal, failures: Sequence[str], result: ApplyResult
) -> TransactionError:
    message = f"could not apply the changes: {_describe(exc)}"
    if journal.done:
        message += "; the files already written were restored"
    if failures:
        message += "\n" + "\n".join(failures)
        message += "\nbackups of the original files: " + ", ".join(
            backup for _, backup in result.backups
        )
    return TransactionError(message)


def _finish_removal(plan: Plan, deleted: Sequence[Change], result: ApplyResult) -> None:
    """Forget deleted files and remove the directories rtok created that are left empty,
    also those of files an earlier, killed uninstall already deleted."""
    absent = [e for e in plan.unchanged if not os.path.lexists(e.path)]
    state.update(
        remove_files=[c.real_path for c in deleted] + [os.path.realpath(e.path) for e in absent]
    )
    result.removed_dirs = _prune_created_dirs(deleted, absent)
    state.update(remove_dirs=result.removed_dirs)


def _describe(exc: BaseException) -> str:
    if isinstance(exc, OSError) and exc.filename:
        return f"{exc.filename}: {exc.strerror or exc}"
    return str(exc) or type(exc).__name__


def _sync_integrity(
    plan: Plan,
    applied: Sequence[Change],
    action: Action,
    project_root: str | None,
    result: ApplyResult,
) -> None:
    """Tell rtok.integrity what rtok now owns (install) or no longer owns (uninstall)."""
    try:
        if action == "uninstall":
            edits: list[FileEdit] = [e for c in applied for e in c.edits]
            edits.extend(plan.unchanged)
            if edits:
                forget_artifacts([(e.path, e.kind, e.agent) for e in edits])
            return
        records = _new_records(plan, applied, project_root)
        if records:
            record_artifacts(records)
    except Exception as exc:  # the files are in place; a missing record is reported
        result.warnings.append(f"integrity records not updated: {_describe(exc)}")


def _new_records(
    plan: Plan, applied: Sequence[Change], project_root: str | None
) -> list[ArtifactRecord]:
    """A record of each install edit's owned bytes, except those already recorded."""

    stamp = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    # What each edit's file holds now: the new bytes of a change, the current bytes of
    # an edit already in place (so a lost record is restored by running init again).
    outcomes: list[tuple[FileEdit, bytes | None]] = [
        (edit, change.new) for change in applied for edit in change.edits
    ]
    outcomes.extend(
        (edit, fsio.read_target(os.path.realpath(edit.path))) for edit in plan.unchanged
    )
    known = (
        {(os.path.abspath(r.path), r.kind, r.agent, r.sha256) for r in load_records()}
        if plan.unchanged
        else set()
    )
    records: list[ArtifactRecord] = []
    for edit, data in outcomes:
        owned = edit.owned_bytes(data) if edit.owned_bytes else data
        if owned is None:
            continue
        digest = sha256_hex(owned)
        if (os.path.abspath(edit.path), edit.kind, edit.agent, digest) in known:
            continue
        records.append(_record_of(edit, project_root, digest, stamp))
    return records


def _record_of(edit: FileEdit, project_root: str | None, digest: str, stamp: str) -> ArtifactRecord:
    """The integrity record of rtok's bytes that `edit` wrote (`digest`: their SHA-256), by
    this version of rtok."""
    edited = {"path": edit.path, "agent": edit.agent, "scope": edit.scope, "kind": edit.kind}
    return ArtifactRecord(project_root=project_root, sha256=digest, time=stamp, **edited)
