"""Writing, checking and clearing preload bundles: the parts of rtok/_fast/preload.py that a
run needs only when it has something to write (rtok.cli.entry imports this module when
`preload.pending_write()` says so), and that `rtok doctor` and `rtok init` call. Stdlib
only, builtin modules only.
"""

from __future__ import annotations

import marshal
import sys

from rtok._fast.preload import (
    _BUNDLED,
    _KEY,
    _MAGIC,
    _TO_RECORD,
    _TO_SAVE,
    NOT_BUNDLED,
    Entry,
    _checked_bytes,
    _folders,
    _record_due,
    _untrusted_folders,
    bundle_path,
)

# `from __future__ import annotations` in a module's source: compiled in as this flag
# (the compiler's CO_FUTURE_ANNOTATIONS) instead of a statement, so a bundled run never
# imports the `__future__` module (half a million instructions).
_FUTURE_ANNOTATIONS = 0x1000000
_ONLY_AST = 0x400  # ast.PyCF_ONLY_AST, without importing ast
_DOC_HOLDERS = ("Module", "ClassDef", "FunctionDef", "AsyncFunctionDef")


def _write_record() -> None:
    """Write the verified record of the bundle this run checked in full, once its last
    change is old enough that no later write can share its change time."""
    if not _record_due():
        return
    path, record, _ = _TO_RECORD
    if isinstance(path, str) and isinstance(record, bytes):
        _replace_file(f"{path}.ok", record)


def save() -> None:
    """Write the bundle noted by `preload.start()`: from the rtok modules this run loaded,
    or the one read with the modules this run had to import besides."""
    if _BUNDLED:  # (a bundle this run did not use is about to be replaced)
        try:  # noqa: SIM105 (contextlib costs start-up time)
            _write_record()
        except OSError:
            pass  # a cache: the next run checks the whole bundle again
    if not _TO_SAVE:
        return
    path = _TO_SAVE.pop()
    known = list(_BUNDLED)
    try:
        names = {entry[0] for entry in known}
        added = _entries(names)
        if known and not added:
            return
        _write(path, known + added)
    except (OSError, ValueError, SyntaxError):
        pass  # a cache: the next run tries again


def _entries(skip: set[str]) -> list[Entry]:
    import posix

    entries: list[Entry] = []
    for name, module in list(sys.modules.items()):
        if not (name == "rtok" or name.startswith("rtok.")) or name in skip:
            continue
        if name in NOT_BUNDLED:
            continue
        source = module.__dict__.get("__file__")
        if not isinstance(source, str) or not source.endswith(".py"):
            continue
        stat = posix.stat(source)
        entries.append(
            (
                name,
                "__path__" in module.__dict__,
                source,
                stat.st_mtime_ns,
                stat.st_size,
                _code(source),
            )
        )
    return entries


def _code(source: str) -> bytes:
    """The module's marshalled code, compiled from its source without the docstrings
    nothing on the hot path reads: those of functions and classes, and the module's own
    unless its source names `__doc__` (as `rtok rewrite --help` does). Fewer bytes to
    check and unmarshal on every run; line numbers stay as in the source."""
    with open(source, "rb") as handle:
        text = handle.read()
    tree = compile(text, source, "exec", _ONLY_AST, dont_inherit=True)
    _drop_docstrings(tree, keep_module=b"__doc__" in text)
    flags = _FUTURE_ANNOTATIONS if _drop_future_annotations(tree) else 0
    return marshal.dumps(compile(tree, source, "exec", flags, dont_inherit=True))


def _drop_future_annotations(tree: object) -> bool:
    """Remove the module's `from __future__ import annotations` (alone on its line);
    True when it was there, to be compiled in as a flag instead."""
    body = getattr(tree, "body", [])
    for index, node in enumerate(body):
        names = [alias.name for alias in getattr(node, "names", ())]
        if type(node).__name__ == "ImportFrom" and getattr(node, "module", "") == "__future__":
            if names != ["annotations"]:
                return False  # another feature: keep the statement as it is
            del body[index]
            return True
    return False


def _drop_docstrings(tree: object, keep_module: bool) -> None:
    """Remove each docstring from the syntax tree (one that is a whole body becomes a
    constant None, a statement the compiler drops), except the module's when
    `keep_module`."""
    stack = [tree]
    while stack:
        node = stack.pop()
        kind = type(node).__name__
        body = getattr(node, "body", None)
        if kind in _DOC_HOLDERS and not (keep_module and kind == "Module") and body:
            first = body[0]
            value = getattr(first, "value", None)
            if type(first).__name__ == "Expr" and isinstance(getattr(value, "value", 0), str):
                if len(body) > 1:
                    del body[0]  # (a `from __future__` import may follow)
                else:
                    value.value = None  # type: ignore[union-attr]
        for field in getattr(node, "_fields", ()):
            child = getattr(node, field, None)
            if isinstance(child, list):
                stack.extend(child)
            elif hasattr(child, "_fields"):
                stack.append(child)


def _write(path: str, entries: list[Entry]) -> None:
    import _imp
    import posix

    folder = path.rpartition("/")[0]
    try:  # noqa: SIM105 (contextlib costs start-up time)
        posix.mkdir(folder, 0o700)
    except FileExistsError:
        pass
    payload = marshal.dumps((sys.path[0], entries))
    _replace_file(path, _MAGIC + _imp.source_hash(_KEY, payload) + payload)


def _replace_file(path: str, data: bytes) -> None:
    import posix

    temporary = f"{path}.{posix.getpid()}.tmp"
    fd = posix.open(
        temporary, posix.O_WRONLY | posix.O_CREAT | posix.O_TRUNC | posix.O_CLOEXEC, 0o600
    )
    with open(fd, "wb") as handle:
        handle.write(data)
    posix.replace(temporary, path)


def problems(launcher: str) -> list[tuple[str, bool]]:
    """What makes the bundles beside `launcher` unusable (for `rtok doctor`), each with
    whether another user could be behind it: folders another user owns or can write,
    bundles that are foreign or loose (True), damaged bundles (False)."""
    import posix

    folder = bundle_path(launcher, "x").rpartition("/")[0]
    found = [
        (
            f"{current} is not yours alone (owner or mode): the preload bundles in it are ignored",
            True,
        )
        for current in _untrusted_folders(_folders(folder))
    ]
    for path in _bundles(folder):
        if _checked_bytes(path, full=True) is None:
            try:
                stat = posix.lstat(path)
            except OSError:
                continue
            foreign = stat.st_uid != posix.geteuid() or bool(stat.st_mode & 0o022)
            why = "not yours alone (owner or mode)" if foreign else "damaged"
            found.append((f"{path} is {why}: ignored until it is made again", foreign))
    return found


def clear_untrusted(launcher: str) -> list[str]:
    """Remove the bundle folder when it is not the user's alone, or else each bundle that
    would be ignored, so the next runs make them again; returns what was removed."""
    import shutil

    folder = bundle_path(launcher, "x").rpartition("/")[0]
    if _untrusted_folders(_folders(folder))[:1] == [folder]:
        shutil.rmtree(folder, ignore_errors=True)
        return [folder]
    removed = []
    for path in _bundles(folder):
        if _checked_bytes(path, full=True) is None:
            try:
                import posix

                posix.unlink(path)
                removed.append(path)
                posix.unlink(f"{path}.ok")
            except OSError:
                pass
    return removed


def _bundles(folder: str) -> list[str]:
    import posix

    try:
        names = posix.listdir(folder)
    except OSError:
        return []
    return sorted(f"{folder}/{name}" for name in names if name.endswith(".bin"))
