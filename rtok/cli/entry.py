"""Console entry point: routes hot-path verbs without importing the CLI framework.

`rtok hook`, `rtok rewrite`, `rtok run` and `rtok filter` run on every shell call of an
agent, so they must not pay for typer/rich/questionary. Every other verb goes to the
typer application in `rtok.cli.app`.
"""

from __future__ import annotations

import sys

# verb -> (module, function). Each function takes the argument list after the verb and
# returns an exit status. Keep the modules stdlib-only (see tests/test_hot_path_imports.py).
# Verbs that end with os._exit once their output is flushed: interpreter teardown is
# work nobody waits for, and it would close the store's connections (two fsyncs each;
# see rtok/store/db.py).
QUICK_EXIT_VERBS = ("run", "filter")

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
        module_name, func_name = HOT_PATH_VERBS[args[0]]
        module = __import__(module_name, fromlist=[func_name])
        if args[0] in QUICK_EXIT_VERBS and argv is None:
            from rtok.store import KEEP_OPEN

            KEEP_OPEN[0] = True
            status: int = getattr(module, func_name)(args[1:])
            _quick_exit(status)
        status = getattr(module, func_name)(args[1:])
        return status
    from rtok.cli.app import run_app

    return run_app(args)


def _quick_exit(status: int) -> None:
    import os

    for stream in (sys.stdout, sys.stderr):
        try:
            if stream is not None:
                stream.flush()
        except (OSError, ValueError):
            pass
    os._exit(status & 0xFF if status >= 0 else 1)


if __name__ == "__main__":
    raise SystemExit(main())
