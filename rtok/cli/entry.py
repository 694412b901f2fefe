"""Console entry point: routes hot-path verbs without importing the CLI framework.

`rtok hook`, `rtok rewrite`, `rtok run` and `rtok filter` run on every shell call of an
agent, so they must not pay for typer/rich/questionary. Every other verb goes to the
typer application in `rtok.cli.app`.
"""

from __future__ import annotations

import gc
import sys

from rtok.cli.process import HOT_PATH_VERBS, flush_caches, flush_stdout, stdout_to_devnull

# Verbs that end with os._exit once their output is flushed: interpreter teardown costs
# a hook process a quarter of its life while the agent waits for it to exit. It is also
# where rtok._fast.preload writes a verb's bundle.
QUICK_EXIT_VERBS = ("hook", "rewrite", "run", "filter")
# Verbs whose process lives for milliseconds and holds little: the cycle collector only
# adds work there (it runs several times while the modules load). The others turn it back
# on once their modules are loaded, since they may read outputs of any size.
NO_GC_VERBS = ("hook", "rewrite")
# Verbs that write the store: its connections stay open until os._exit, since closing the
# last one checkpoints the WAL (two fsyncs; see rtok/store/db.py).
STORE_VERBS = ("run", "filter")
HELP_OPTIONS = ("-h", "--help")


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args[:1] == ["--no-color"] and args[1:2] and args[1] in HOT_PATH_VERBS:
        args = args[1:]  # the hot-path verbs never colour
    if args and args[0] in HOT_PATH_VERBS and args[1:2] and args[1] in HELP_OPTIONS:
        return _hot_path_help(args[0])
    if args and args[0] in HOT_PATH_VERBS:
        module_name, func_name = HOT_PATH_VERBS[args[0]]
        if argv is not None:  # called in-process (tests): no process-wide settings
            module = __import__(module_name, fromlist=[func_name])
            status: int = getattr(module, func_name)(args[1:])
            return status
        return _run_process(args[0], module_name, func_name, args[1:])
    gc.enable()  # (the launcher's boot turns it off first)
    from rtok.cli.app import run_app

    return run_app(args)


def _hot_path_help(verb: str) -> int:
    """`rtok VERB --help` for a hot-path verb: the typer verbs' help style, so typer is
    loaded (only here). Under the launcher's `python -S` the venv's site-packages are added
    first; without typer the verb's own plain help is printed."""
    gc.enable()  # (the launcher's boot turns it off first)
    if sys.flags.no_site:
        import site

        site.main()
    try:
        from rtok.cli.app import run_app
    except ImportError:
        module_name, func_name = HOT_PATH_VERBS[verb]
        module = __import__(module_name, fromlist=[func_name])
        status: int = getattr(module, func_name)(["--help"])
        return status
    return run_app([verb, "--help"])


def _run_process(verb: str, module_name: str, func_name: str, rest: list[str]) -> int:
    """A hot-path verb as the whole process: collector, store and exit set for it."""
    gc.disable()
    module = __import__(module_name, fromlist=[func_name])
    if verb not in NO_GC_VERBS:
        gc.enable()
    if verb in STORE_VERBS:
        from rtok.store import KEEP_OPEN

        KEEP_OPEN[0] = True
    try:
        status: int = getattr(module, func_name)(rest)
    except BrokenPipeError:  # the reader has seen enough: no traceback, no message
        stdout_to_devnull()
        status = 0
    if verb in QUICK_EXIT_VERBS:
        _quick_exit(status)
    flush_stdout()
    flush_caches()
    return status


def _quick_exit(status: int) -> None:
    from rtok._fast import oslite as os

    for stream in (sys.stdout, sys.stderr):
        try:
            if stream is not None:
                stream.flush()
        except (OSError, ValueError):
            pass
    flush_caches()
    preload = sys.modules.get("rtok._fast.preload")
    if preload is not None and preload.pending_write():
        from rtok._fast import bundles

        bundles.save()  # a new bundle or its verified record (rtok/_fast/preload.py)
    os._exit(status & 0xFF if status >= 0 else 1)


if __name__ == "__main__":
    raise SystemExit(main())
