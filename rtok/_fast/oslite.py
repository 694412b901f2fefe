"""The part of `os` the hot path uses, without the cost of importing `os`.

Stdlib only (hot path). Under `python -S` nothing has imported `os` yet, and importing it
costs a hook process about a fifth of rtok's own start-up: `os.environ` is built as a
`MutableMapping` (which loads `_collections_abc`, every abstract collection class) and
`posixpath`, `stat` and `genericpath` come with it. Everything `os` offers here is the
builtin `posix` module's anyway, except `environ` and `os.path`, which this module gives
as a plain dict and a few pure functions with posixpath's exact results for `str` paths.

Hot-path modules import it as `from rtok._fast import oslite as os`, so call sites read as
usual. Where `os` is already loaded (the installer, tests, Windows, which has no `posix`),
every name here is the real `os` one, so both views of the environment stay the same
object. The names the type checker sees are the ones declared under TYPE_CHECKING below,
each of which exists in both modes (tests/test_oslite_declared.py uses every one under
`python -S -I`), and `os.path` is typed as the lite class: a posixpath function it lacks
fails mypy instead of raising AttributeError only under the launcher.
"""

from __future__ import annotations

import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from os import O_APPEND as O_APPEND
    from os import O_CLOEXEC as O_CLOEXEC
    from os import O_CREAT as O_CREAT
    from os import O_NONBLOCK as O_NONBLOCK
    from os import O_RDONLY as O_RDONLY
    from os import O_TRUNC as O_TRUNC
    from os import O_WRONLY as O_WRONLY
    from os import POSIX_SPAWN_DUP2 as POSIX_SPAWN_DUP2
    from os import WNOHANG as WNOHANG
    from os import X_OK as X_OK
    from os import _exit as _exit
    from os import access as access
    from os import chmod as chmod
    from os import close as close
    from os import devnull as devnull
    from os import dup as dup
    from os import dup2 as dup2
    from os import environ as environ
    from os import fdopen as fdopen
    from os import fstat as fstat
    from os import fsync as fsync
    from os import getcwd as getcwd
    from os import getpgrp as getpgrp
    from os import getpid as getpid
    from os import kill as kill
    from os import listdir as listdir
    from os import lstat as lstat
    from os import makedirs as makedirs
    from os import mkdir as mkdir
    from os import name as name
    from os import open as open
    from os import pathsep as pathsep
    from os import pipe as pipe
    from os import posix_spawnp as posix_spawnp
    from os import read as read
    from os import readlink as readlink
    from os import rename as rename
    from os import replace as replace
    from os import sep as sep
    from os import stat as stat
    from os import tcgetpgrp as tcgetpgrp
    from os import unlink as unlink
    from os import waitpid as waitpid
    from os import waitstatus_to_exitcode as waitstatus_to_exitcode
    from os import write as write

_S_IFMT, _S_IFDIR, _S_IFREG, _S_IFLNK = 0o170000, 0o040000, 0o100000, 0o120000


def _split(p: str) -> tuple[str, str]:
    i = p.rfind("/") + 1
    head, tail = p[:i], p[i:]
    if head and head != "/" * len(head):
        head = head.rstrip("/")
    return head, tail


def lite_join(a: str, *parts: str) -> str:
    joined = a
    for part in parts:
        if part.startswith("/"):
            joined = part
        elif not joined or joined.endswith("/"):
            joined += part
        else:
            joined += "/" + part
    return joined


def lite_dirname(p: str) -> str:
    return _split(p)[0]


def lite_basename(p: str) -> str:
    return p[p.rfind("/") + 1 :]


def lite_isabs(p: str) -> bool:
    return p.startswith("/")


def lite_normpath(p: str) -> str:
    if not p:
        return "."
    # POSIX keeps exactly two leading slashes; one, or three and more, become one.
    initial = 2 if p.startswith("//") and not p.startswith("///") else (1 if p[:1] == "/" else 0)
    kept: list[str] = []
    for part in p.split("/"):
        if part in ("", "."):
            continue
        if part != ".." or (not initial and not kept) or (kept and kept[-1] == ".."):
            kept.append(part)
        elif kept:
            kept.pop()
    result = "/" * initial + "/".join(kept)
    return result or "."


def lite_abspath(p: str) -> str:
    if not p.startswith("/"):
        p = lite_join(_posix.getcwd(), p)
    return lite_normpath(p)


def lite_expanduser(p: str) -> str:
    if not p.startswith("~"):
        return p
    i = p.find("/", 1)
    if i < 0:
        i = len(p)
    import pwd  # builtin, and only for `~user` or an unset HOME

    if i == 1:
        home = environ.get("HOME")
        if home is None:
            try:
                home = pwd.getpwuid(_posix.getuid()).pw_dir
            except KeyError:
                return p
    else:
        try:
            home = pwd.getpwnam(p[1:i]).pw_dir
        except KeyError:
            return p
    return (home.rstrip("/") + p[i:]) or "/"


def _mode(p: str) -> int:
    try:
        return int(_posix.stat(p).st_mode)
    except (OSError, ValueError):
        return -1


def lite_exists(p: str) -> bool:
    return _mode(p) != -1


def lite_isfile(p: str) -> bool:
    mode = _mode(p)
    return mode != -1 and mode & _S_IFMT == _S_IFREG


def lite_isdir(p: str) -> bool:
    mode = _mode(p)
    return mode != -1 and mode & _S_IFMT == _S_IFDIR


def lite_samefile(a: str, b: str) -> bool:
    first, second = _posix.stat(a), _posix.stat(b)
    return bool(first.st_ino == second.st_ino and first.st_dev == second.st_dev)


def lite_realpath(p: str) -> str:
    resolved, _ = _join_real("", p, {})
    return lite_abspath(resolved)


def _join_real(resolved: str, rest: str, seen: dict[str, str | None]) -> tuple[str, bool]:
    """posixpath's non-strict walk: each symlink met is read and followed; a loop stops
    the walk with the rest appended as written."""
    if rest.startswith("/"):
        rest = rest[1:]
        resolved = "/"
    while rest:
        part, _, rest = rest.partition("/")
        if not part or part == ".":
            continue
        if part == "..":
            if resolved:
                resolved, last = _split(resolved)
                if last == "..":
                    resolved = lite_join(resolved, "..", "..")
            else:
                resolved = ".."
            continue
        candidate = lite_join(resolved, part)
        try:
            is_link = _posix.lstat(candidate).st_mode & _S_IFMT == _S_IFLNK
        except OSError:
            is_link = False
        if not is_link:
            resolved = candidate
            continue
        if candidate in seen:
            known = seen[candidate]
            if known is not None:
                resolved = known
                continue
            return lite_join(candidate, rest), False
        seen[candidate] = None
        resolved, complete = _join_real(resolved, _posix.readlink(candidate), seen)
        if not complete:
            return lite_join(resolved, rest), False
        seen[candidate] = resolved
    return resolved, True


class _LitePath:
    """`os.path` for `str` paths (the functions above, by their usual names)."""

    join = staticmethod(lite_join)
    dirname = staticmethod(lite_dirname)
    basename = staticmethod(lite_basename)
    isabs = staticmethod(lite_isabs)
    normpath = staticmethod(lite_normpath)
    abspath = staticmethod(lite_abspath)
    expanduser = staticmethod(lite_expanduser)
    exists = staticmethod(lite_exists)
    isfile = staticmethod(lite_isfile)
    isdir = staticmethod(lite_isdir)
    samefile = staticmethod(lite_samefile)
    realpath = staticmethod(lite_realpath)
    split = staticmethod(_split)
    sep = "/"


if TYPE_CHECKING:
    # What mypy sees as `os.path` is exactly what the lite one has: a call to any other
    # posixpath function passes in-process tests (real `os` loaded) but fails under the
    # launcher's `-S`, so it must fail the type check instead.
    path: _LitePath


def lite_makedirs(p: str, mode: int = 0o777, exist_ok: bool = False) -> None:
    head, tail = _split(p)
    if not tail:
        head, tail = _split(head)
    if head and tail and not lite_exists(head):
        try:  # noqa: SIM105 (contextlib costs start-up time)
            lite_makedirs(head, exist_ok=exist_ok)
        except FileExistsError:
            pass  # made by another process meanwhile
    try:
        _posix.mkdir(p, mode)
    except OSError:
        if not exist_ok or not lite_isdir(p):
            raise


def _lite_fdopen(
    fd: int, mode: str = "r", buffering: int = -1, encoding: str | None = None
) -> object:
    import builtins  # `open` in this module is posix's

    return builtins.open(fd, mode, buffering, encoding)


def _decoded_environ() -> dict[str, str]:
    encoding, errors = sys.getfilesystemencoding(), sys.getfilesystemencodeerrors()
    return {
        key.decode(encoding, errors): value.decode(encoding, errors)
        for key, value in _posix.environ.items()
    }


def _public(module: object) -> dict[str, object]:
    return {
        key: value
        for key, value in vars(module).items()
        if not key.startswith("_") or key == "_exit"
    }


_OWN_ATTRIBUTES = {
    key: globals().get(key)
    for key in ("__name__", "__doc__", "__package__", "__loader__", "__spec__")
}
_real = sys.modules.get("os")
if _real is None and "posix" not in sys.builtin_module_names:
    import os as _real  # Windows: no posix module to stand in for os
_posix = _real if _real is not None else __import__("posix")
if _real is not None:
    globals().update(_public(_real))
else:
    # Every name of posix but its module attributes: copied whole, since filtering its
    # ~350 names one by one cost a hook a fifth of a million instructions (its few other
    # private names, `_have_functions` and the like, come along unused).
    globals().update({**vars(_posix), **_OWN_ATTRIBUTES})
    globals().update(
        environ=_decoded_environ(),
        path=_LitePath(),
        name="posix",
        pathsep=":",
        sep="/",
        devnull="/dev/null",
        makedirs=lite_makedirs,
        fdopen=_lite_fdopen,
    )
