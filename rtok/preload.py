"""The hot-path modules of a verb from one file, without the import system's work per module.

Stdlib only, and only builtin modules: this runs before any other rtok module. Each module
the import system loads costs a fresh interpreter about as much as a small module's whole
body (finders, specs, locks, a stat and a read of its cached bytecode), and `rtok hook`
loads about 25 of them. The launcher's start (`rtok.launcher.BOOT`) calls `start()` first:

* the verb's bundle (`<launcher dir>/preload/<verb>-<cache tag>-<magic>.bin`) holds, for
  every rtok module that verb loaded when the bundle was made, its source path, the
  source's mtime and size, and its compiled code;
* when every source still has that mtime and size, each module is put into sys.modules at
  once, empty; its body runs at the first access to a name it does not have yet (an
  import statement naming it is such an access), so modules run in the order the code
  asks for them, as with normal imports;
* when the bundle is missing, unreadable, made by another interpreter or another
  installation, or any source changed (an upgrade, an edit), nothing is preloaded and the
  modules load the usual way; `save()` then writes a new bundle from the modules this run
  loaded. rtok.cli.entry calls it once the output is flushed, for the verbs it ends with
  os._exit (`QUICK_EXIT_VERBS`); other verbs never get a bundle and pay one failed open.

A bundle is a cache: deleting it costs one run at normal speed.
"""

from __future__ import annotations

import marshal
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from types import ModuleType as _Module
else:
    _Module = type(sys)  # `types` is not loaded yet at this point

_MAGIC: bytes = sys.modules["_frozen_importlib_external"].MAGIC_NUMBER
# name -> marshalled code of a module not run yet
_PENDING: dict[str, bytes] = {}
# The bundle to write at exit (empty when the one read was current).
_TO_SAVE: list[str] = []
Entry = tuple[str, bool, str, int, int, bytes]


class _LazyModule(_Module):
    """A module whose body runs at the first access to a name it does not have yet."""

    def __getattr__(self, name: str) -> object:
        code = _PENDING.pop(str(self.__name__), None)
        if code is None:
            raise AttributeError(f"module {self.__name__!r} has no attribute {name!r}")
        # From here on it is a plain module: a name its body has not defined yet (a
        # circular import) is missing, as in a module still being imported.
        object.__setattr__(self, "__class__", _Module)  # allowed between module types
        exec(marshal.loads(code), self.__dict__)
        return getattr(self, name)


def bundle_path(launcher: str, verb: str) -> str:
    folder = launcher.rpartition("/")[0]
    return f"{folder}/preload/{verb}-{sys.implementation.cache_tag}-{_MAGIC.hex()}.bin"


def start() -> None:
    """Preload the verb named in sys.argv from its bundle, or note that one is to be made."""
    argv = sys.argv
    if len(argv) < 2 or "/" not in argv[0] or not sys.path:
        return
    verb = argv[1]
    path = bundle_path(argv[0], verb)
    entries = _read(path, sys.path[0])
    if entries is None:
        _TO_SAVE.append(path)
        return
    _install(entries)


def _read(path: str, root: str) -> list[Entry] | None:
    """The bundle's entries, or None when it is missing, foreign or stale."""
    import posix

    try:
        with open(path, "rb") as handle:
            magic, bundle_root, entries = marshal.loads(handle.read())
        if magic != _MAGIC or bundle_root != root:
            return None
        for _, _, source, mtime_ns, size, _ in entries:
            stat = posix.stat(source)
            if stat.st_mtime_ns != mtime_ns or stat.st_size != size:
                return None
    except (OSError, ValueError, EOFError, TypeError):
        return None
    return list(entries)


def _install(entries: list[Entry]) -> None:
    created: list[tuple[str, _LazyModule]] = []
    for name, is_package, source, _, _, code in entries:
        if name in sys.modules:
            continue
        module = _LazyModule(name)
        module.__file__ = source
        module.__package__ = name if is_package else name.rpartition(".")[0]
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
    """Write the bundle noted by `start()` from the rtok modules this run loaded."""
    if not _TO_SAVE:
        return
    path = _TO_SAVE.pop()
    try:  # noqa: SIM105 (contextlib costs start-up time)
        _write(path, _entries())
    except (OSError, ValueError, SyntaxError):
        pass  # a cache: the next run tries again


def _entries() -> list[Entry]:
    import posix

    entries: list[Entry] = []
    for name, module in list(sys.modules.items()):
        if not name.startswith("rtok.") or name == __name__:
            continue
        source = module.__dict__.get("__file__")
        if not isinstance(source, str) or not source.endswith(".py"):
            continue
        stat = posix.stat(source)
        with open(source, "rb") as handle:
            code = compile(handle.read(), source, "exec", dont_inherit=True)
        entries.append((name, "__path__" in module.__dict__, source, stat.st_mtime_ns,
                        stat.st_size, marshal.dumps(code)))
    return entries


def _write(path: str, entries: list[Entry]) -> None:
    import posix

    folder = path.rpartition("/")[0]
    try:  # noqa: SIM105 (contextlib costs start-up time)
        posix.mkdir(folder, 0o700)
    except FileExistsError:
        pass
    temporary = f"{path}.{posix.getpid()}.tmp"
    fd = posix.open(temporary, posix.O_WRONLY | posix.O_CREAT | posix.O_TRUNC | posix.O_CLOEXEC,
                    0o600)
    with open(fd, "wb") as handle:
        handle.write(marshal.dumps((_MAGIC, sys.path[0], entries)))
    posix.replace(temporary, path)
