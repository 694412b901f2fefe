"""Console entry point: routes hot-path verbs without importing the CLI framework.

`rtok hook`, `rtok rewrite`, `rtok run` and `rtok filter` run on every shell call of an
agent, so they must not pay for typer/rich/questionary. Every other verb goes to the
typer application in `rtok.cli.app`.
"""

from __future__ import annotations

import gc
import sys

# verb -> (module, function). Each function takes the argument list after the verb and
# returns an exit status. Keep the modules stdlib-only (see tests/test_hot_path_imports.py).
# Verbs that end with os._exit once their output is flushed: interpreter teardown costs
# a hook process a quarter of its life while the agent waits for it to exit, and it would
# close the store's connections (two fsyncs each; see rtok/store/db.py).
QUICK_EXIT_VERBS = ("hook", "rewrite", "run", "filter")
# Verbs whose process lives for milliseconds and holds little: the cycle collector only
# adds work there (it runs several times while the modules load). The others turn it back
# on once their modules are loaded, since they may read outputs of any size.
NO_GC_VERBS = ("hook", "rewrite")

HOT_PATH_VERBS: dict[str, tuple[str, str]] = {
    "hook": ("rtok.hooks.main", "main"),
    "rewrite": ("rtok.rewrite.main", "main"),
    "run": ("rtok.filter.run_main", "main"),
    "filter": ("rtok.filter.filter_main", "main"),
    "expand": ("rtok.store.expand_main", "main"),
}


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args and args[0] in HOT_PATH_VERBS:
        if argv is None:
            gc.disable()
        module_name, func_name = HOT_PATH_VERBS[args[0]]
        module = __import__(module_name, fromlist=[func_name])
        if argv is None and args[0] not in NO_GC_VERBS:
            gc.enable()
        if args[0] in QUICK_EXIT_VERBS and argv is None:
            if args[0] in ("run", "filter"):
                from rtok.store import KEEP_OPEN

                KEEP_OPEN[0] = True
            status: int = getattr(module, func_name)(args[1:])
            _quick_exit(status)
        status = getattr(module, func_name)(args[1:])
        return status
    from rtok.cli.app import run_app

    return run_app(args)


def _quick_exit(status: int) -> None:
    from rtok import oslite as os

    for stream in (sys.stdout, sys.stderr):
        try:
            if stream is not None:
                stream.flush()
        except (OSError, ValueError):
            pass
    preload = sys.modules.get("rtok.preload")
    if preload is not None:
        preload.save()  # only when this run found no current bundle
    os._exit(status & 0xFF if status >= 0 else 1)


if __name__ == "__main__":
    raise SystemExit(main())
