"""The hot-path modules of a verb from one file, without the import system's work per module.

Stdlib only, and only builtin modules: this runs before any other rtok module. Each module
the import system loads costs a fresh interpreter about as much as a small module's whole
body (finders, specs, locks, a stat and a read of its cached bytecode), and `rtok hook`
loads about 25 of them. The launcher's start (`rtok._fast.launcher.BOOT`) imports this module
as the top-level `preload` (so `rtok` and `rtok._fast` come from the bundle too) and calls
`boot()`, which calls `start()` first:

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
  unmarshalled, it is replaced. Hashing a hook's bundle is about 1.1 million
  instructions, so once it matched on a bundle whose last change is two seconds old, a
  verified record (`<bundle>.ok`: inode, change time, size, checksum) spares later runs
  the hashing; any write to the bundle moves its change time, which no one can set
  back, and the record no longer matches. `bundles.problems()` (what `rtok doctor` reports)
  always hashes; `bundles.clear_untrusted()` (run by `rtok init`) removes what would be ignored;
* a bundle holds each module's code without the docstrings nothing reads (functions',
  classes', and a module's own unless its source names `__doc__`), compiled from the
  source with the same line numbers;
* when the bundle is missing, damaged, made by another interpreter or another
  installation, or any source changed (an upgrade, an edit), nothing is preloaded and the
  modules load the usual way; a new bundle is then written (`bundles.save()`)
  from the modules this run loaded, but only when the folder is writable. When it is not
  (a read-only state dir, as in an agent's sandbox, or one not the user's alone), the bundle
  lives in the user's own folder in the temporary dir (`$TMPDIR/rtok-<uid>-preload`, 0700, used only
  when it is a real folder the user owns alone); when that cannot be written either,
  nothing is bundled: never a rebuild per run. A bundled run that had to import a module
  the bundle lacks writes the bundle again with it added, so a bundle grows to every module
  its verb needs. rtok.cli.entry has it written once the output is flushed, for the verbs
  it ends with os._exit (`QUICK_EXIT_VERBS`); other verbs never get a bundle;
* a module whose body raises is taken out of sys.modules again (as a failed import is), so
  the next import runs it afresh instead of finding it half made.

A bundle is a cache: deleting it costs one run at normal speed.

This module has no `from __future__ import annotations` (that statement imports the
`__future__` module, half a million instructions, before any bundle is read): its
annotations that are not a plain name are strings.
"""

import marshal
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from types import ModuleType as _Module
else:
    _Module = type(sys)  # `types` is not loaded yet at this point

_MAGIC: bytes = sys.modules["_frozen_importlib_external"].MAGIC_NUMBER
# The checksum: `_imp.source_hash` (builtin, already loaded) with rtok's own key.
_KEY = 0x72746F6B
_HEADER = len(_MAGIC) + 8
_W_OK = 2
Entry = tuple[str, bool, str, int, int, bytes]
# This module's name in the package; the launcher's boot imports it as the top-level
# `preload` (no package import before the bundle is read) and files it under this name too.
SELF = "rtok._fast.preload"
# Modules a bundle never holds: this one (imported before any bundle is read) and the
# writer, which only a run with something to write imports.
NOT_BUNDLED = (SELF, "rtok._fast.bundles")
# A verified record (`<bundle>.ok`) is written only for a bundle whose inode changed at
# least this long ago: a later write, however quick, then gives it another change time,
# even where the filesystem keeps change times in whole seconds.
_SETTLED_NS = 2_000_000_000
# [bundle path, record] of a bundle whose checksum this run checked and that has no
# record yet: written after the output, with the bundle (see _checked_bytes).
_TO_RECORD: "list[object]" = []
# name -> marshalled code of a module not run yet
_PENDING: "dict[str, bytes]" = {}
# The bundle to write at exit: when none current was read and the folder is writable, or
# when one was read (its entries in _BUNDLED) and this run imported a module it lacks.
_TO_SAVE: "list[str]" = []
_BUNDLED: "list[Entry]" = []


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


def _forget(module: "_Module") -> None:
    """Undo a module whose body raised, as the import system does for a failed import."""
    name = str(module.__name__)
    if sys.modules.get(name) is module:
        del sys.modules[name]
    parent, _, child = name.rpartition(".")
    holder = sys.modules.get(parent)
    if holder is not None and holder.__dict__.get(child) is module:
        del holder.__dict__[child]


def boot() -> None:
    """The launcher's start (rtok._fast.launcher.BOOT imported this module from its own
    folder, and runs rtok's entry point next): the cycle collector off, sys.argv and
    sys.path as the entry point expects them, the verb's bundle preloaded."""
    import gc

    # It ran several times while the modules loaded (a quarter million instructions a
    # hook); rtok.cli.entry turns it back on for every verb but `hook` and `rewrite`.
    gc.disable()
    argv = sys.argv
    root = argv.pop(1)
    argv[0] = argv.pop(1)
    sys.path[0] = root
    sys.modules[SELF] = sys.modules[__name__]
    start()


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


def _folders(folder: str) -> "list[str]":
    """The bundle folder, the launcher's folder and the state dir holding it."""
    launcher_folder = folder.rpartition("/")[0]
    return [folder, launcher_folder, launcher_folder.rpartition("/")[0] or "/"]


def _untrusted_folders(folders: "list[str]", follow: bool = True) -> "list[str]":
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


def _checked_bytes(path: str, full: bool = False) -> "memoryview | None":
    """The bundle's payload when the file is the user's own, private and intact.

    Intact means its checksum matches, or (unless `full`) that a verified record beside
    it names this very file as it was when its checksum last matched: inode, change time
    (which any write moves, and no one can set back), size and checksum. Checking the
    record costs one small read instead of hashing the whole bundle."""
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
    checksum = data[len(_MAGIC) : _HEADER]
    record = b"%d %d %d %s" % (stat.st_ino, stat.st_ctime_ns, stat.st_size, checksum.hex().encode())
    if not full and _record_of(path) == record:
        return payload
    if _imp.source_hash(_KEY, payload) != checksum:
        return None
    if not full:
        _TO_RECORD[:] = [path, record, stat.st_ctime_ns]
    return payload


def _record_of(path: str) -> bytes:
    import posix

    try:
        fd = posix.open(f"{path}.ok", posix.O_RDONLY | posix.O_CLOEXEC)
    except OSError:
        return b""
    try:
        return posix.read(fd, 256)
    finally:
        posix.close(fd)


def _read(path: str, root: str) -> "list[Entry] | None":
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


def _install(entries: "list[Entry]") -> None:
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
    package, _, child = SELF.rpartition(".")
    if SELF in sys.modules and package in sys.modules:
        sys.modules[package].__dict__.setdefault(child, sys.modules[SELF])


def pending_write() -> bool:
    """Whether this run has something for rtok/_fast/bundles.py to write: the bundle's
    verified record, or the bundle itself from the rtok modules this run loaded (none was
    read, or this run imported a module it lacks). rtok.cli.entry then calls
    `bundles.save()`, so that only a run with something to write imports the writer."""
    return bool((_BUNDLED and _record_due()) or (_TO_SAVE and _lacking()))


def _record_due() -> bool:
    """Whether this run checked the bundle in full and its last change is old enough for a
    verified record (see _SETTLED_NS)."""
    import time

    changed = _TO_RECORD[2] if len(_TO_RECORD) == 3 else None
    return isinstance(changed, int) and time.time_ns() - changed >= _SETTLED_NS


def _lacking() -> bool:
    """Whether the bundle to write lacks a module this run loaded (or none was read)."""
    if not _BUNDLED:
        return True
    names = {entry[0] for entry in _BUNDLED}
    return any(
        (name == "rtok" or name.startswith("rtok.")) and name not in names
        for name in sys.modules
        if name not in NOT_BUNDLED
    )
