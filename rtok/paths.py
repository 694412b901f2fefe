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
    from collections.abc import Iterator

APP = "rtok"


def home() -> str:
    return os.environ.get("HOME") or os.path.expanduser("~")


def _xdg(var: str, fallback: str) -> str:
    value = os.environ.get(var, "")
    # The XDG spec says relative values are invalid and must be ignored.
    if value and os.path.isabs(value):
        return value
    return os.path.join(home(), fallback)


def config_dir() -> str:
    """`$XDG_CONFIG_HOME/rtok` (Linux), `~/Library/Application Support/rtok` (macOS),
    `%APPDATA%\\rtok` (Windows). `RTOK_CONFIG_DIR` overrides all of them."""
    override = os.environ.get("RTOK_CONFIG_DIR")
    if override:
        return override
    if sys.platform == "darwin" and not os.environ.get("XDG_CONFIG_HOME"):
        return os.path.join(home(), "Library", "Application Support", APP)
    if os.name == "nt":
        return os.path.join(os.environ.get("APPDATA") or home(), APP)
    return os.path.join(_xdg("XDG_CONFIG_HOME", ".config"), APP)


def data_dir() -> str:
    """Archive, ledger, trust store, integrity records, backups. `RTOK_DATA_DIR` overrides."""
    override = os.environ.get("RTOK_DATA_DIR")
    if override:
        return override
    if sys.platform == "darwin" and not os.environ.get("XDG_DATA_HOME"):
        return os.path.join(home(), "Library", "Application Support", APP)
    if os.name == "nt":
        return os.path.join(os.environ.get("LOCALAPPDATA") or home(), APP)
    return os.path.join(_xdg("XDG_DATA_HOME", os.path.join(".local", "share")), APP)


def cache_dir() -> str:
    """Disposable caches (parsed config, compiled user rules). `RTOK_CACHE_DIR` overrides."""
    override = os.environ.get("RTOK_CACHE_DIR")
    if override:
        return override
    if sys.platform == "darwin" and not os.environ.get("XDG_CACHE_HOME"):
        return os.path.join(home(), "Library", "Caches", APP)
    if os.name == "nt":
        return os.path.join(os.environ.get("LOCALAPPDATA") or home(), APP, "cache")
    return os.path.join(_xdg("XDG_CACHE_HOME", ".cache"), APP)


def state_dir() -> str:
    """What keeps the registered hooks running but is not the user's data: the launcher
    and its preload bundles. `$XDG_STATE_HOME/rtok` (Linux), apart from the data dir so that
    clearing the archive (`rm -rf ~/.local/share/rtok`) leaves every hook working.
    `RTOK_STATE_DIR` overrides."""
    override = os.environ.get("RTOK_STATE_DIR")
    if override:
        return override
    if sys.platform == "darwin" and not os.environ.get("XDG_STATE_HOME"):
        return os.path.join(home(), "Library", "Application Support", APP + "-state")
    if os.name == "nt":
        return os.path.join(os.environ.get("LOCALAPPDATA") or home(), APP, "state")
    return os.path.join(_xdg("XDG_STATE_HOME", os.path.join(".local", "state")), APP)


def config_file() -> str:
    return os.path.join(config_dir(), "config.toml")


def user_rules_file() -> str:
    return os.path.join(config_dir(), "rules.toml")


def user_rules_dir() -> str:
    return os.path.join(config_dir(), "rules.d")


def archive_db() -> str:
    return os.path.join(data_dir(), "archive.sqlite3")


def ledger_db() -> str:
    return os.path.join(data_dir(), "ledger.sqlite3")


def ledger_pending() -> str:
    """Ledger rows not yet in the database (one JSON line each; see rtok/store/ledger.py)."""
    return os.path.join(data_dir(), "ledger.pending")


def trust_store() -> str:
    return os.path.join(data_dir(), "trusted.json")


def integrity_records() -> str:
    return os.path.join(data_dir(), "installed.json")


def backups_dir() -> str:
    return os.path.join(data_dir(), "backups")


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


def launcher() -> str:
    """The launcher the registered hook commands and rewritten commands run (see
    rtok/_fast/launcher.py). It lives outside any virtualenv so that it outlives one, and outside
    the data dir so that it outlives that too."""
    return os.path.join(state_dir(), "bin", "rtok")


def user_bin_dir() -> str:
    """Where a user's own commands go: `$XDG_BIN_HOME`, else `~/.local/bin` (the XDG base
    directory spec's user executables; pipx puts its links there too)."""
    return _xdg("XDG_BIN_HOME", os.path.join(".local", "bin"))


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
