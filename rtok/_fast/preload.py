"""The hot-path modules of a verb from one file, without the import system's work per module.

Stdlib only, and only builtin modules: this runs before any other rtok module. Each module
the import system loads costs a fresh interpreter about as much as a small module's whole
body (finders, specs, locks, a stat and a read of its cached bytecode), and `rtok hook`
loads about 25 of them. The launcher's start (`rtok._fast.launcher.BOOT`) calls `start()` first:

* the verb's bundle (`<launcher dir>/preload/<verb>-<cache tag>-<magic>.bin`) holds, for
  every rtok module that verb loaded when the bundle was made, its source path, the
  source's mtime and size, and its compiled code;
* when every source still has that mtime and size, each module is put into sys.modules at
  once, empty; its body runs at the first access to a name it does not have yet (an
  import statement naming it is such an access), so modules run in the order the code
  asks for them, as with normal imports;
* a bundle is read only from folders the user owns that no one else can write (the
  bundle's folder, the launcher's and the state dir above it) and only when the file is the
  user's, not group/world-writable, and its checksum (`_imp.source_hash`, a keyed SipHash
  of everything after the header) matches: a damaged or foreign bundle is never
  unmarshalled, it is replaced. `problems()` says what `rtok doctor` reports;
  `clear_untrusted()` (run by `rtok init`) removes what would be ignored;
* when the bundle is missing, damaged, made by another interpreter or another
  installation, or any source changed (an upgrade, an edit), nothing is preloaded and the
  modules load the usual way; `save()` then writes a new bundle from the modules this run
  loaded (their code read from the `.pyc` the import system just used, compiled only when
  there is none), but only when the folder is writable. When it is not (a read-only state
  dir, as in an agent's sandbox, or one not the user's alone), the bundle lives in the
  user's own folder in the temporary dir (`$TMPDIR/rtok-<uid>-preload`, 0700, used only
  when it is a real folder the user owns alone); when that cannot be written either,
  nothing is bundled: never a rebuild per run. A bundled run that had to import a module
  the bundle lacks writes the bundle again with it added, so a bundle grows to every module
  its verb needs. rtok.cli.entry calls `save()` once the output is flushed, for the verbs
  it ends with os._exit (`QUICK_EXIT_VERBS`); other verbs never get a bundle;
* a module whose body raises is taken out of sys.modules again (as a failed import is), so
  the next import runs it afresh instead of finding it half made.

A bundle is a cache: deleting it costs one run at normal speed.
"""

from __future__ import annotations

import marshal
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from os import stat_result
    from types import ModuleType as _Module
else:
    _Module = type(sys)  # `types` is not loaded yet at this point

_MAGIC: bytes = sys.modules["_frozen_importlib_external"].MAGIC_NUMBER
# The checksum: `_imp.source_hash` (builtin, already loaded) with rtok's own key.
_KEY = 0x72746F6B
_HEADER = len(_MAGIC) + 8
_W_OK = 2
Entry = tuple[str, bool, str, int, int, bytes]
# name -> marshalled code of a module not run yet
_PENDING: dict[str, bytes] = {}
# The bundle to write at exit: when none current was read and the folder is writable, or
# when one was read (its entries in _BUNDLED) and this run imported a module it lacks.
_TO_SAVE: list[str] = []
_BUNDLED: list[Entry] = []


class _LazyModule(_Module):
    """A module whose body runs at the first access to a name it does not have yet."""

    def __getattr__(self, name: str) -> object:
        code = _PENDING.pop(str(self.__name__), None)
        if code is None:
            raise AttributeError(f"module {self.__name__!r} has no attribute {name!r}")
        # From here on it is a plain module: a name its body has not defined yet (a
        # circular import) is missing, as in a module still being imported.
        object.__setattr__(self, "__class__", _Module)  # allowed between module types
        try:
            exec(marshal.loads(code), self.__dict__)
        except BaseException:
            _forget(self)
            raise
        return getattr(self, name)


def _forget(module: _Module) -> None:
    """Undo a module whose body raised, as the import system does for a failed import."""
    name = str(module.__name__)
    if sys.modules.get(name) is module:
        del sys.modules[name]
    parent, _, child = name.rpartition(".")
    holder = sys.modules.get(parent)
    if holder is not None and holder.__dict__.get(child) is module:
        del holder.__dict__[child]


def bundle_path(launcher: str, verb: str) -> str:
    folder = launcher.rpartition("/")[0]
    return f"{folder}/preload/{verb}-{sys.implementation.cache_tag}-{_MAGIC.hex()}.bin"


def start() -> None:
    """Preload the verb named in sys.argv from its bundle, or note that one is to be made."""
    argv = sys.argv
    if len(argv) < 2 or "/" not in argv[0] or not sys.path:
        return
    path = bundle_path(argv[0], argv[1])
    folder = path.rpartition("/")[0]
    # A folder another user owns or may write is never read nor written (someone else
    # could have put code there).
    untrusted = _untrusted_folders(_folders(folder))
    if not untrusted and _use(path, folder):
        return
    if any(_missing(current) for current in untrusted):
        return  # no launcher folder or state dir at all: not an installed launcher
    # No current bundle and a state dir that cannot take one (read-only, as in an agent's
    # sandbox, or not the user's alone): the user's own folder in the temporary dir, one
    # bundle per launcher there.
    import _imp

    spare = _spare_folder()
    if not _untrusted_folders([spare], follow=False):
        tag = _imp.source_hash(_KEY, argv[0].encode("utf-8", "surrogateescape")).hex()[:12]
        _use(f"{spare}{path[len(folder) : -4]}-{tag}.bin", spare)


def _missing(path: str) -> bool:
    import posix

    try:
        posix.stat(path)
    except OSError:
        return True
    return False


def _use(path: str, folder: str) -> bool:
    """Preload from the bundle at `path`, or note that it is to be written; False when
    there is none current and `folder` cannot take one."""
    entries = _read(path, sys.path[0])
    if entries is not None:
        _TO_SAVE.append(path)
        _BUNDLED.extend(entries)
        _install(entries)
        return True
    if _writable(folder):
        _TO_SAVE.append(path)
        return True
    return False


def _spare_folder() -> str:
    import posix

    tmp = posix.environ.get(b"TMPDIR", b"").decode("utf-8", "surrogateescape").rstrip("/")
    if not tmp.startswith("/"):
        tmp = "/tmp"
    return f"{tmp}/rtok-{posix.geteuid()}-preload"


def _folders(folder: str) -> list[str]:
    """The bundle folder, the launcher's folder and the state dir holding it."""
    launcher_folder = folder.rpartition("/")[0]
    return [folder, launcher_folder, launcher_folder.rpartition("/")[0] or "/"]


def _untrusted_folders(folders: list[str], follow: bool = True) -> list[str]:
    """Those of `folders` that another user owns or can write, or (`follow` False) that
    are not a directory itself; the first may be missing (it is then made private)."""
    import posix

    uid = posix.geteuid()
    found = []
    for index, current in enumerate(folders):
        try:
            stat = posix.stat(current) if follow else posix.lstat(current)
        except OSError:
            if index == 0:
                continue
            found.append(current)
            continue
        if stat.st_uid != uid or stat.st_mode & 0o022 or stat.st_mode & 0o170000 != 0o040000:
            found.append(current)
    return found


def _writable(folder: str) -> bool:
    import posix

    if posix.access(folder, _W_OK):
        return True
    try:
        posix.stat(folder)
    except OSError:  # not made yet: the launcher's folder must take it
        return posix.access(folder.rpartition("/")[0], _W_OK)
    return False


def _checked_bytes(path: str) -> memoryview | None:
    """The bundle's payload when the file is the user's own, private and intact."""
    import _imp
    import posix

    try:
        fd = posix.open(path, posix.O_RDONLY | posix.O_CLOEXEC)
    except OSError:
        return None
    with open(fd, "rb") as handle:
        stat = posix.fstat(fd)
        if stat.st_uid != posix.geteuid() or stat.st_mode & 0o022:
            return None
        data = handle.read()
    if len(data) <= _HEADER or data[: len(_MAGIC)] != _MAGIC:
        return None
    payload = memoryview(data)[_HEADER:]
    if _imp.source_hash(_KEY, payload) != data[len(_MAGIC) : _HEADER]:
        return None
    return payload


def _read(path: str, root: str) -> list[Entry] | None:
    """The bundle's entries, or None when it is missing, damaged, foreign or stale."""
    import posix

    try:
        payload = _checked_bytes(path)
        if payload is None:
            return None
        bundle_root, entries = marshal.loads(payload)
        if bundle_root != root:
            return None
        for _, _, source, mtime_ns, size, _ in entries:
            stat = posix.stat(source)
            if stat.st_mtime_ns != mtime_ns or stat.st_size != size:
                return None
    except (OSError, ValueError, EOFError, TypeError):
        return None
    return list(entries)


def _install(entries: list[Entry]) -> None:
    spec_class = sys.modules["_frozen_importlib"].ModuleSpec
    created: list[tuple[str, _LazyModule]] = []
    for name, is_package, source, _, _, code in entries:
        if name in sys.modules:
            continue
        module = _LazyModule(name)
        module.__file__ = source
        module.__package__ = name if is_package else name.rpartition(".")[0]
        module.__spec__ = spec_class(name, None, origin=source, is_package=is_package)
        if is_package:
            module.__path__ = [source.rpartition("/")[0]]
        _PENDING[name] = code
        sys.modules[name] = module
        created.append((name, module))
    for name, created_module in created:
        parent, _, child = name.rpartition(".")
        if parent in sys.modules:
            setattr(sys.modules[parent], child, created_module)


def save() -> None:
    """Write the bundle noted by `start()`: from the rtok modules this run loaded, or the
    one read with the modules this run had to import besides."""
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
        if not name.startswith("rtok.") or name == __name__ or name in skip:
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
                _code(module, source, stat),
            )
        )
    return entries


def _code(module: _Module, source: str, stat: stat_result) -> bytes:
    """The module's marshalled code: from the `.pyc` the import system used when it
    matches the source (timestamp-based, same magic), else compiled again."""
    spec = module.__dict__.get("__spec__")
    cached = getattr(spec, "cached", None)
    if isinstance(cached, str):
        try:
            with open(cached, "rb") as handle:
                data = handle.read()
            if (
                data[:4] == _MAGIC
                and data[4:8] == b"\0\0\0\0"
                and int.from_bytes(data[8:12], "little") == int(stat.st_mtime) & 0xFFFFFFFF
                and int.from_bytes(data[12:16], "little") == stat.st_size & 0xFFFFFFFF
            ):
                return data[16:]
        except OSError:
            pass
    with open(source, "rb") as handle:
        code = compile(handle.read(), source, "exec", dont_inherit=True)
    return marshal.dumps(code)


def _write(path: str, entries: list[Entry]) -> None:
    import _imp
    import posix

    folder = path.rpartition("/")[0]
    try:  # noqa: SIM105 (contextlib costs start-up time)
        posix.mkdir(folder, 0o700)
    except FileExistsError:
        pass
    payload = marshal.dumps((sys.path[0], entries))
    temporary = f"{path}.{posix.getpid()}.tmp"
    fd = posix.open(
        temporary, posix.O_WRONLY | posix.O_CREAT | posix.O_TRUNC | posix.O_CLOEXEC, 0o600
    )
    with open(fd, "wb") as handle:
        handle.write(_MAGIC + _imp.source_hash(_KEY, payload) + payload)
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
        if _checked_bytes(path) is None:
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
        if _checked_bytes(path) is None:
            try:
                import posix

                posix.unlink(path)
                removed.append(path)
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
