"""How the user's shell runs rtok, for the commands rtok prints ("Next: …", "fix: …").

A printed command must work when pasted: `rtok` where PATH finds one, otherwise the path
of this rtok (the launcher when there is one, else the running console script), written
with `~/` for the home directory and quoted for the shell.
"""

from __future__ import annotations

import os
import shlex
import shutil
import sys
from collections.abc import Mapping

from rtok import paths


def console_script() -> str | None:
    """The running `rtok` console script: the program this process was started as, else
    the one beside its interpreter (None when there is neither)."""
    argv0 = sys.argv[0] if sys.argv else ""
    if os.path.basename(argv0) in ("rtok", "rtok.exe") and os.path.isfile(argv0):
        return os.path.abspath(argv0)
    beside = os.path.join(os.path.dirname(sys.executable), "rtok")
    return beside if os.path.isfile(beside) else None


def _running_rtok() -> str:
    launcher = paths.launcher()
    if os.name != "nt" and os.access(launcher, os.X_OK):
        return launcher
    return console_script() or f"{sys.executable} -m rtok"


def shell_word(path: str, home: str | None = None) -> str:
    """`path` as a shell word, the home directory as an unquoted `~/`."""
    base = (home if home is not None else paths.home()).rstrip(os.sep)
    if base and path.startswith(base + os.sep):
        return "~/" + shlex.quote(path[len(base) + 1 :])
    return shlex.quote(path)


def rtok_command(env: Mapping[str, str] | None = None, home: str | None = None) -> str:
    """The words that run rtok in a shell with `env`'s PATH (default: this process's)."""
    environ = os.environ if env is None else env
    if shutil.which("rtok", path=environ.get("PATH", "")):
        return "rtok"
    running = _running_rtok()
    if running.endswith(" -m rtok"):
        return shlex.quote(sys.executable) + " -m rtok"
    return shell_word(running, home)
