"""What stays in rtok's own folders once no agent uses rtok, and `rtok uninstall --purge`.

Uninstalling an agent gives its files back; rtok's own folders stay: the data dir (the raw
output archive, which can hold secrets a command printed, the ledger, settings backups,
the launcher and its preload bundles, lock files, the trust store, install records) and
the cache dir. `inventory()` names each part with its size; `purge()` removes them.

Purge removes only what rtok put there: the entries it knows by name, and everything else
only in a folder named `rtok` (an `RTOK_DATA_DIR` pointing at some other folder loses
nothing of its other files). The config dir (config.toml, your rule files) holds what you
wrote and is never removed; it is named so you can remove it yourself.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import sqlite3
import stat
from collections.abc import Callable, Sequence
from typing import TextIO

from rtok import paths
from rtok.install import report
from rtok.install.leftover_parts import Install, Part, human_size, total_size
from rtok.install.options import EXIT_OK, EXIT_PENDING, EXIT_USAGE, InitOptions

# Top-level names in the data dir -> the part they belong to (listed in this order).
_DATA_PARTS: tuple[tuple[str, tuple[str, ...]], ...] = (
    (
        "archive",
        (
            "archive.sqlite3",
            "archive.sqlite3-wal",
            "archive.sqlite3-shm",
            "archive.sqlite3-journal",
        ),
    ),
    (
        "ledger",
        (
            "ledger.sqlite3",
            "ledger.sqlite3-wal",
            "ledger.sqlite3-shm",
            "ledger.sqlite3-journal",
            "ledger.pending",
        ),
    ),
    ("settings backups", ("backups",)),
    ("launcher and preload bundles", ("bin",)),
    ("lock files", ("locks",)),
    ("trust store", ("trusted.json",)),
    ("install records", ("installed.json", "install-state.json")),
    ("caches", ("regex", "cache")),
)


def _walk(path: str) -> tuple[int, int]:
    """(files, bytes) at or below `path` (links are counted, never followed)."""
    if not os.path.isdir(path) or os.path.islink(path):
        try:
            return 1, os.lstat(path).st_size
        except OSError:
            return 0, 0
    files = size = 0
    for root, _dirs, names in os.walk(path):
        for name in names:
            with contextlib.suppress(OSError):
                size += os.lstat(os.path.join(root, name)).st_size
                files += 1
    return files, size


def _count(db: str, table: str) -> int | None:
    """Rows of `table` in the SQLite file `db`, read-only (None when it cannot be read)."""
    if not os.path.isfile(db):
        return None
    try:
        conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=2)
    except sqlite3.Error:
        return None
    try:
        row = conn.execute(f"SELECT count(*) FROM {table}").fetchone()
        return int(row[0])
    except sqlite3.Error:
        return None
    finally:
        conn.close()


def _detail(label: str, found: Sequence[str], files: int) -> str:
    """What a part holds, in its own units ("" where there is nothing to count)."""
    detail = _DETAILS.get(label)
    return detail(files) if detail is not None else ""


def _archive_detail(files: int) -> str:
    entries = _count(paths.archive_db(), "entries")
    return "" if entries is None else f"{entries} entr{'y' if entries == 1 else 'ies'}"


def _ledger_detail(files: int) -> str:
    runs = _count(paths.ledger_db(), "runs")
    return "" if runs is None else f"{runs} run{'' if runs == 1 else 's'}"


def _backups_detail(files: int) -> str:
    backups = os.path.join(paths.data_dir(), "backups")
    folders = [d for d in _listdir(backups) if os.path.isdir(os.path.join(backups, d))]
    copies = sum(
        1 for d in folders for f in _listdir(os.path.join(backups, d)) if f != "manifest.json"
    )
    return f"{copies} file{'' if copies == 1 else 's'} from {len(folders)} run(s)"


def _bundles_detail(files: int) -> str:
    tops = {paths.data_dir(), paths.state_dir()}
    bundles = sum(len(_listdir(os.path.join(top, "bin", "preload"))) for top in tops)
    return f"{bundles} bundle{'' if bundles == 1 else 's'}"


def _files_detail(files: int) -> str:
    return f"{files} file{'' if files == 1 else 's'}"


_DETAILS: dict[str, Callable[[int], str]] = {
    "archive": _archive_detail,
    "ledger": _ledger_detail,
    "settings backups": _backups_detail,
    "launcher and preload bundles": _bundles_detail,
    "lock files": _files_detail,
}


def _listdir(path: str) -> list[str]:
    try:
        return sorted(os.listdir(path))
    except OSError:
        return []


def _part(label: str, found: Sequence[str], detail: str = "") -> Part:
    files = size = 0
    for path in found:
        f, s = _walk(path)
        files, size = files + f, size + s
    return Part(label, tuple(found), files, size, detail or _detail(label, found, files))


def _owned_everything(folder: str) -> bool:
    """Is `folder` rtok's own (named rtok, as every default location is)?"""
    return os.path.basename(os.path.normpath(folder)) == paths.APP


def inventory() -> list[Part]:
    """Every part of rtok's data and cache dirs that exists, in a fixed order."""
    data = paths.data_dir()
    present = _listdir(data)
    parts: list[Part] = []
    known: set[str] = set()
    for label, names in _DATA_PARTS:
        known.update(names)
        found = [os.path.join(data, n) for n in names if n in present]
        if label == "lock files":
            found += [os.path.join(data, n) for n in present if n.endswith(".lock")]
            known.update(n for n in present if n.endswith(".lock"))
        found += _EXTRA_PLACES.get(label, _nowhere)(data)
        if found:
            parts.append(_part(label, found))
    if _owned_everything(data):
        other = [os.path.join(data, n) for n in present if n not in known]
        if other:
            parts.append(_part("other files", other))
    return parts


def _nowhere(data: str) -> list[str]:
    return []


def _state_bin(data: str) -> list[str]:
    """The launcher lives in the state dir (so that clearing the data dir leaves the hooks
    working); earlier releases kept it in the data dir."""
    state = paths.state_dir()
    if os.path.realpath(state) != os.path.realpath(data) and os.path.lexists(
        os.path.join(state, "bin")
    ):
        return [os.path.join(state, "bin")]
    return []


def _cache_entries(data: str) -> list[str]:
    """The cache dir's entries: all of them in a folder of rtok's own, else its caches."""
    cache = paths.cache_dir()
    if os.path.realpath(cache) == os.path.realpath(data) or not _listdir(cache):
        return []
    return [
        os.path.join(cache, n)
        for n in _listdir(cache)
        if _owned_everything(cache) or n in ("parsed", "regex")
    ]


# Parts that also live outside the data dir: label -> where else they are found.
_EXTRA_PLACES: dict[str, Callable[[str], list[str]]] = {
    "launcher and preload bundles": _state_bin,
    "caches": _cache_entries,
}


def make_private() -> None:
    """Take group and other access away from everything in rtok's data and cache dirs
    (folders 0700, files 0600, executables 0700): files earlier releases wrote 0644."""
    for top in (paths.data_dir(), paths.cache_dir(), paths.state_dir()):
        if not os.path.isdir(top) or not _owned_everything(top):
            continue
        for root, dirs, files in os.walk(top):
            for name in [*dirs, *files]:
                _restrict(os.path.join(root, name))
        _restrict(top)


def _restrict(path: str) -> None:
    with contextlib.suppress(OSError):
        mode = os.lstat(path).st_mode
        if stat.S_ISLNK(mode) or not stat.S_IMODE(mode) & 0o077:
            return
        os.chmod(path, stat.S_IMODE(mode) & 0o700)


def worth_naming(parts: Sequence[Part]) -> bool:
    """Is there more than the bookkeeping any installer run leaves (locks, records)?"""
    return any(part.label not in ("lock files", "install records") for part in parts)


def config_files() -> list[str]:
    """The files in rtok's config dir (yours: kept by purge)."""
    folder = paths.config_dir()
    return [os.path.join(folder, n) for n in _listdir(folder)]


def remaining_installs() -> list[Install]:
    """The agents whose artifacts rtok recorded and that are still on disk."""
    from rtok.integrity import records

    found: dict[tuple[str, str, str | None], Install] = {}
    for record in records.load_records():
        if not os.path.lexists(record.path):
            continue
        # A project install's entry in a user file (Codex's hook trust) belongs to it.
        project = record.project_root or None
        scope = "project" if project else record.scope
        found.setdefault((record.agent, scope, project), Install(record.agent, scope, project))
    return sorted(found.values(), key=lambda i: (i.agent, i.scope, i.project_root or ""))


def purge(parts: Sequence[Part]) -> list[str]:
    """Remove every path of `parts`, then rtok's folders once empty; the paths removed."""
    removed: list[str] = []
    for part in parts:
        for path in part.paths:
            if os.path.isdir(path) and not os.path.islink(path):
                shutil.rmtree(path)
            else:
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(path)
            removed.append(path)
    for folder in (paths.cache_dir(), paths.data_dir(), paths.state_dir()):
        with contextlib.suppress(OSError):
            os.rmdir(folder)  # only when nothing else is left in it
    return removed


def installed_now() -> list[Install]:
    """What purge must not pull the launcher from under: the recorded installs, and any
    agent whose global files hold rtok's entries (records can be lost)."""
    from rtok.install import context

    found = {(i.agent, i.scope, i.project_root): i for i in remaining_installs()}
    mod = context.integrations()
    ctx = context.build_context(InitOptions(), "global", consent=False, awareness="default")
    for name, descriptor in sorted(mod.load_descriptors().items()):
        try:
            scopes = mod.installed_scopes(descriptor, ctx)
        except Exception:  # an unreadable agent file: verify reports it
            continue
        if "global" in scopes:
            found.setdefault((name, "global", None), Install(name, "global", None))
    return sorted(found.values(), key=lambda i: (i.agent, i.scope, i.project_root or ""))


def run_purge(
    opts: InitOptions, out: TextIO, err: TextIO, confirm: Callable[[str], bool] | None
) -> int:
    """`rtok uninstall --purge`: refuse while an agent still uses rtok, show what goes,
    ask once on a terminal (default no) or take --yes, then remove it."""
    installs = installed_now()
    kept = config_files()
    if installs:
        _refuse_purge(opts, out, err, installs, kept)
        return EXIT_USAGE
    parts = inventory()
    if opts.json and (opts.dry_run or not opts.yes or not parts):
        code = EXIT_PENDING if parts and not opts.dry_run else EXIT_OK
        out.write(report.purge_json(parts, kept, [], None, code))
        return code
    if not parts:
        report.write_result(out, report.purge_result(parts, kept, removed=False))
        return EXIT_OK
    if not (opts.quiet or opts.json):
        out.write(report.purge_text(parts, kept))
    if opts.dry_run:
        report.write_result(out, "Dry run: nothing removed.")
        return EXIT_OK
    if not _purge_confirmed(opts, out, err, confirm, parts):
        return EXIT_PENDING
    removed = purge(parts)
    if opts.json:
        out.write(report.purge_json(parts, kept, [], removed, EXIT_OK))
    else:
        report.write_result(out, report.purge_result(parts, kept, removed=True))
    return EXIT_OK


def _refuse_purge(
    opts: InitOptions, out: TextIO, err: TextIO, installs: list[Install], kept: list[str]
) -> None:
    """Say that an agent still uses rtok (its launcher, its records): nothing is removed."""
    if opts.json:
        out.write(report.purge_json([], kept, installs, None, EXIT_USAGE))
    else:
        err.write(report.purge_refused(installs))


def _purge_confirmed(
    opts: InitOptions,
    out: TextIO,
    err: TextIO,
    confirm: Callable[[str], bool] | None,
    parts: Sequence[Part],
) -> bool:
    """--yes (or --json, which asks nothing), or the one question on a terminal (default
    no); elsewhere, no."""
    if opts.yes or opts.json:
        return True
    if not (opts.interactive and confirm is not None):
        err.write("rtok: removing rtok's data needs consent: rerun with --yes (nothing removed)\n")
        return False
    out.flush()
    if not confirm(f"Remove these ({human_size(total_size(parts))})?"):
        err.write("Not confirmed; nothing removed.\n")
        return False
    return True
