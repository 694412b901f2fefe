"""Every location rtok itself uses. No other module builds one of these paths.

Stdlib only: the hot path imports it. Agent-specific locations (which honour the agents'
own relocation variables such as CLAUDE_CONFIG_DIR) are described in integrations/ and
expanded with `expand_user_path`.
"""

from __future__ import annotations

import sys

from rtok._fast import oslite as os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterator, Mapping

APP = "rtok"


def home() -> str:
    return _home(os.environ)


def _home(env: Mapping[str, str]) -> str:
    return env.get("HOME") or os.path.expanduser("~")


def _under_home(env: Mapping[str, str], relative: str) -> str:
    """`relative` ("/"-separated folder names) below the home directory."""
    return os.path.join(_home(env), *relative.split("/"))


def _xdg(var: str, fallback: str, env: Mapping[str, str] | None = None) -> str:
    """`$var` when it is an absolute path, else `fallback` (below home)."""
    environ = os.environ if env is None else env
    value = environ.get(var, "")
    # The XDG spec says relative values are invalid and must be ignored.
    if value and os.path.isabs(value):
        return value
    return _under_home(environ, fallback)


# rtok's own folders. On Linux and the BSDs: folder -> (the variable that names the folder
# outright, the XDG base directory variable, its fallback below home), rtok's folder in it.
_XDG_FOLDERS = {
    "config": ("RTOK_CONFIG_DIR", "XDG_CONFIG_HOME", ".config"),
    "data": ("RTOK_DATA_DIR", "XDG_DATA_HOME", ".local/share"),
    "cache": ("RTOK_CACHE_DIR", "XDG_CACHE_HOME", ".cache"),
    "state": ("RTOK_STATE_DIR", "XDG_STATE_HOME", ".local/state"),
}
# folder -> (where it is below home on macOS, unless the XDG variable is set; the variable
# naming the Windows folder it goes in, home when unset; its path there).
_NATIVE_FOLDERS = {
    "config": (f"Library/Application Support/{APP}", "APPDATA", APP),
    "data": (f"Library/Application Support/{APP}", "LOCALAPPDATA", APP),
    "cache": (f"Library/Caches/{APP}", "LOCALAPPDATA", f"{APP}/cache"),
    "state": (f"Library/Application Support/{APP}-state", "LOCALAPPDATA", f"{APP}/state"),
}


def _folder(name: str, env: Mapping[str, str] | None = None) -> str:
    """Where rtok's folder `name` (a key of `_XDG_FOLDERS`) is, read from `env` (by
    default the process environment)."""
    environ = os.environ if env is None else env
    override, xdg_var, xdg_fallback = _XDG_FOLDERS[name]
    if environ.get(override):
        return environ[override]
    macos, windows_var, windows = _NATIVE_FOLDERS[name]
    if sys.platform == "darwin" and not environ.get(xdg_var):
        return _under_home(environ, macos)
    if os.name == "nt":
        base = environ.get(windows_var) or _home(environ)
        return os.path.join(base, *windows.split("/"))
    return os.path.join(_xdg(xdg_var, xdg_fallback, environ), APP)


def config_dir() -> str:
    """`$XDG_CONFIG_HOME/rtok` (Linux), `~/Library/Application Support/rtok` (macOS),
    `%APPDATA%\\rtok` (Windows). `RTOK_CONFIG_DIR` overrides all of them."""
    return _folder("config")


def data_dir() -> str:
    """Archive, ledger, trust store, integrity records, backups. `RTOK_DATA_DIR` overrides."""
    return _folder("data")


def cache_dir() -> str:
    """Disposable caches (parsed config, compiled user rules). `RTOK_CACHE_DIR` overrides."""
    return _folder("cache")


def state_dir() -> str:
    """What keeps the registered hooks running but is not the user's data: the launcher
    and its preload bundles. `$XDG_STATE_HOME/rtok` (Linux), apart from the data dir so that
    clearing the archive (`rm -rf ~/.local/share/rtok`) leaves every hook working.
    `RTOK_STATE_DIR` overrides."""
    return _folder("state")


def _inside(folder: Callable[[], str], relative: str) -> Callable[[], str]:
    """The getter of `relative` ("/"-separated) inside the folder `folder()` returns."""

    def path() -> str:
        return os.path.join(folder(), *relative.split("/"))

    return path


# The files and folders inside rtok's own folders, each a function of no arguments.
config_file = _inside(config_dir, "config.toml")
user_rules_file = _inside(config_dir, "rules.toml")
user_rules_dir = _inside(config_dir, "rules.d")
archive_db = _inside(data_dir, "archive.sqlite3")
ledger_db = _inside(data_dir, "ledger.sqlite3")
# Ledger rows not yet in the database (one JSON line each; see rtok/store/ledger.py).
ledger_pending = _inside(data_dir, "ledger.pending")
trust_store = _inside(data_dir, "trusted.json")
integrity_records = _inside(data_dir, "installed.json")
backups_dir = _inside(data_dir, "backups")
# The launcher the registered hook commands and rewritten commands run (see
# rtok/_fast/launcher.py). It lives outside any virtualenv so that it outlives one, and
# outside the data dir so that it outlives that too.
launcher = _inside(state_dir, "bin/rtok")


def private_dir(path: str) -> None:
    """Create `path` (and parents) 0700 whatever the umask; an existing one that grants
    group or other access loses it. rtok's data dir holds output and settings backups."""
    os.makedirs(path, mode=0o700, exist_ok=True)
    try:
        mode = os.stat(path).st_mode & 0o777
        if mode & 0o077:
            os.chmod(path, mode & 0o700)
    except OSError:
        pass


def user_bin_dir() -> str:
    """Where a user's own commands go: `$XDG_BIN_HOME`, else `~/.local/bin` (the XDG base
    directory spec's user executables; pipx puts its links there too)."""
    return _xdg("XDG_BIN_HOME", ".local/bin")


def command_link() -> str:
    """The `rtok` link `rtok init` puts on PATH when the shell finds no rtok."""
    return os.path.join(user_bin_dir(), "rtok.exe" if os.name == "nt" else "rtok")


def project_rules_root(cwd: str) -> str | None:
    """The project whose `.rtok/` rule files apply at `cwd`: the nearest directory at or
    above `cwd` holding `.rtok/`, looking no higher than the git top level (a directory with
    `.git`) and never taking the home directory itself, whose `.rtok/` is not a project."""
    user_home = os.path.abspath(home())
    for current in ancestors(cwd):
        if current != user_home and os.path.isdir(os.path.join(current, ".rtok")):
            return current
        if os.path.exists(os.path.join(current, ".git")):
            return None
    return None


def ancestors(cwd: str) -> Iterator[str]:
    """`cwd` made absolute, then each directory above it up to the root."""
    current = os.path.abspath(cwd)
    while True:
        yield current
        parent = os.path.dirname(current)
        if parent == current:
            return
        current = parent


def expand_user_path(template: str, env: dict[str, str] | None = None) -> str:
    """Expand `~` and `${VAR}` / `${VAR:-default}` in a descriptor path template.

    `${VAR:-default}` takes `default` (itself expanded) when VAR is unset or empty, which is
    how descriptors say "CODEX_HOME, else ~/.codex".
    """
    environ = os.environ if env is None else env
    out = []
    i = 0
    while i < len(template):
        if template.startswith("${", i):
            end = _matching_brace(template, i + 2)
            body = template[i + 2 : end]
            name, sep, default = body.partition(":-")
            value = environ.get(name, "")
            if not value and sep:
                value = expand_user_path(default, env)
            out.append(value)
            i = end + 1
        else:
            out.append(template[i])
            i += 1
    text = "".join(out)
    if text == "~" or text.startswith("~/"):
        base = environ.get("HOME") or os.path.expanduser("~")
        text = base + text[1:]
    return text


def _matching_brace(text: str, start: int) -> int:
    depth = 1
    for j in range(start, len(text)):
        if text.startswith("${", j):
            depth += 1
        elif text[j] == "}":
            depth -= 1
            if depth == 0:
                return j
    raise ValueError(f"unbalanced ${{ in path template: {text!r}")
