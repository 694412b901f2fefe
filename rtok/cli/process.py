"""What the entry point and the typer application both need of the process: the hot-path
verbs' table, writing the start-up caches once a verb has finished, flushing stdout, and
stdout pointed at /dev/null once its reader left. Stdlib only (hot path); a floor below
`rtok.cli.entry`, `rtok.cli.app` and `rtok.cli.output`, so none of them imports another to
reach these.
"""

from __future__ import annotations

import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

# verb -> (module, function). Each function takes the argument list after the verb and
# returns an exit status. Keep the modules stdlib-only (see tests/test_hot_path_imports.py).
HOT_PATH_VERBS: dict[str, tuple[str, str]] = {
    "hook": ("rtok.hooks.main", "main"),
    "rewrite": ("rtok.rewrite.main", "main"),
    "run": ("rtok.filter.run_main", "main"),
    "filter": ("rtok.filter.filter_main", "main"),
    "expand": ("rtok.store.expand_main", "main"),
}


def flush_caches() -> None:
    """Write what this run added to the caches (rtok._fast.regex, rtok._fast.cachefile): only
    once a verb has finished, so a cancelled run, or a module merely imported, writes
    none."""
    for name in ("rtok._fast.regex", "rtok._fast.cachefile"):
        module = sys.modules.get(name)
        if module is not None:
            module.flush()


def stdout_to_devnull() -> None:
    """stdout's reader closed: point fd 1 at /dev/null so no later flush fails."""
    from rtok._fast import oslite as os

    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 1)
        os.close(devnull)
    except OSError:
        pass


def flush_stdout(reader_gone: Callable[[], None] = stdout_to_devnull) -> None:
    """Flush stdout now, before the interpreter does (a late EPIPE there would print a
    warning and change the exit status); a reader that left gets `reader_gone()`."""
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        reader_gone()
    except (AttributeError, ValueError, OSError):
        pass
