"""The trust store for user and project rule files.

A rule file changes what an agent sees, so it applies only after the user trusted exactly
its bytes. Trust is keyed by the canonical path (`os.path.realpath`: a symlinked rule file
is keyed by its target) and the SHA-256 of the bytes that were shown; any edit revokes it.
The store lives only in rtok's data dir, so nothing inside a project can trust itself.

Stdlib only: `rtok run` / `rtok filter` call `is_trusted` on every run. Writers take a
filelock, imported inside the writing functions so that readers never pay for it.

Store format (`rtok.paths.trust_store()`):
    {"version": 1, "trusted": {"<canonical path>": {"sha256": "<hex>",
                                                    "trusted_at": "<iso>",
                                                    "scope": "project|user"}}}
"""

from __future__ import annotations

import sys

from rtok import paths
from rtok._fast import fastjson as json
from rtok._fast import oslite as os
from rtok.fileio import read_if_readable
from rtok.fileio import sha256_hex as sha256_hex  # re-exported: trust.sha256_hex

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator, Mapping

    from filelock import BaseFileLock

STORE_VERSION = 1
CI_VARIABLES = ("CI", "GITHUB_ACTIONS", "GITLAB_CI", "JENKINS_URL", "BUILDKITE")
ENV_OVERRIDE = "RTOK_TRUST_PROJECT_RULES"
PROJECT_DIR = ".rtok"
RULES_FILE = "rules.toml"
RULES_DIR = "rules.d"

# (stamp of the store file, parsed entries); the store is re-read only when it changes.
_cache: list[object] = [None, None]
_warned: set[str] = set()


class TrustStoreError(Exception):
    """The trust store cannot be read or written (writers only; readers fail closed)."""


def canonical_path(path: str) -> str:
    """The key a file is trusted under: its absolute real path (links resolved)."""
    return os.path.realpath(os.path.abspath(path))


def _warn_once(key: str, message: str) -> None:
    if key in _warned:
        return
    _warned.add(key)
    try:
        sys.stderr.write(f"rtok: warning: {message}\n")
        sys.stderr.flush()
    except (OSError, ValueError):
        pass


# ---------------------------------------------------------------------------- reading


def _store_stamp(store: str) -> tuple[int, int, int] | None:
    try:
        st = os.stat(store)
    except OSError:
        return None
    return (st.st_size, st.st_mtime_ns, st.st_ino)


def _parse_store(raw: bytes) -> dict[str, dict[str, str]]:
    """Entries of a store document; raises ValueError when it is not a valid store."""
    doc = json.loads(raw.decode("utf-8"))
    if not isinstance(doc, dict) or doc.get("version") != STORE_VERSION:
        raise ValueError("not a version 1 trust store")
    trusted = doc.get("trusted")
    if not isinstance(trusted, dict):
        raise ValueError("'trusted' is not an object")
    entries: dict[str, dict[str, str]] = {}
    for key, entry in trusted.items():
        if not isinstance(entry, dict) or not isinstance(entry.get("sha256"), str):
            raise ValueError(f"entry for {key!r} has no sha256")
        entries[key] = {k: v for k, v in entry.items() if isinstance(v, str)}
    return entries


def load_entries(env: Mapping[str, str] | None = None) -> dict[str, dict[str, str]]:
    """Every trust entry, keyed by canonical path, from the store `env` names (by default
    the process environment). A missing store is empty; a corrupt one is empty too
    (everything untrusted) with one warning on stderr."""
    store = paths.trust_store(env)
    stamp = _store_stamp(store)
    if stamp is None:
        return {}
    if _cache[0] == (store, stamp):
        cached: dict[str, dict[str, str]] = _cache[1]  # type: ignore[assignment]
        return cached
    try:
        with open(store, "rb") as handle:
            entries = _parse_store(handle.read())
    except (OSError, ValueError) as exc:
        _warn_once(
            "corrupt",
            f"trust store {store} is unreadable ({exc}); treating every rule file as untrusted",
        )
        entries = {}
    _cache[0] = (store, stamp)
    _cache[1] = entries
    return entries


def store_problem() -> str | None:
    """Why the trust store cannot be used (None when it is fine or absent)."""
    store = paths.trust_store()
    try:
        with open(store, "rb") as handle:
            _parse_store(handle.read())
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as exc:
        return f"trust store {store} is unreadable ({exc})"
    return None


def _stdio_is_terminal() -> bool:
    for stream in (sys.stdin, sys.stdout):
        try:
            if stream is not None and stream.isatty():
                return True
        except (OSError, ValueError):
            continue
    return False


def env_override_active(env: Mapping[str, str] | None = None) -> bool:
    """`RTOK_TRUST_PROJECT_RULES=1` in `env` (by default the process environment) counts
    only in CI: a CI variable set and no terminal on stdin or stdout. Anywhere else it is
    ignored with one warning."""
    environ = os.environ if env is None else env
    if environ.get(ENV_OVERRIDE, "") != "1":
        return False
    if not any(environ.get(name) for name in CI_VARIABLES):
        _warn_once(
            "env",
            f"{ENV_OVERRIDE}=1 ignored: no CI environment detected "
            f"({', '.join(CI_VARIABLES)} unset)",
        )
        return False
    if _stdio_is_terminal():
        _warn_once("env", f"{ENV_OVERRIDE}=1 ignored: a terminal is attached")
        return False
    return True


# The bytes of a rule file, None when it is missing or unreadable (trust's callers use it).
read_file_bytes = read_if_readable


def is_trusted(path: str, env: Mapping[str, str] | None = None) -> bool:
    """True when the current bytes of `path` are the bytes the user trusted at its
    canonical path (or the CI override is active). Unreadable files are untrusted."""
    if env_override_active(env):
        return True
    entry = load_entries(env).get(canonical_path(path))
    if entry is None:
        return False
    data = read_file_bytes(path)
    if data is None:
        return False
    return sha256_hex(data) == entry.get("sha256")


def is_trusted_bytes(path: str, data: bytes, env: Mapping[str, str] | None = None) -> bool:
    """True when `data` (bytes the caller read from `path` and is about to apply) are the
    bytes the user trusted at its canonical path (or the CI override is active)."""
    if env_override_active(env):
        return True
    entry = load_entries(env).get(canonical_path(path))
    return entry is not None and sha256_hex(data) == entry.get("sha256")


def trust_state(path: str) -> str:
    """`trusted`, `modified` (trusted once, edited since), `untrusted`, or `missing`
    (the file cannot be read). The CI override is not applied here: this reports the store."""
    data = read_file_bytes(path)
    if data is None:
        return "missing"
    entry = load_entries().get(canonical_path(path))
    if entry is None:
        return "untrusted"
    return "trusted" if sha256_hex(data) == entry.get("sha256") else "modified"


# ---------------------------------------------------------------------- gated files


def project_root(cwd: str) -> str | None:
    """The nearest ancestor of `cwd` (itself included) holding a `.rtok/` directory or
    the top level of a git work tree (`.git` directory or file), whichever comes first."""
    for current in paths.ancestors(cwd):
        if os.path.isdir(os.path.join(current, PROJECT_DIR)) or os.path.exists(
            os.path.join(current, ".git")
        ):
            return current
    return None


def _rules_in(base_file: str, drop_in_dir: str) -> Iterator[str]:
    if os.path.isfile(base_file):
        yield base_file
    try:
        names = sorted(os.listdir(drop_in_dir))
    except OSError:
        return
    for name in names:
        full = os.path.join(drop_in_dir, name)
        if name.endswith(".toml") and os.path.isfile(full):
            yield full


def _user_rule_locations() -> tuple[str, str]:
    """The user rules file and drop-in dir: config.toml's `[plugins.cmd] rules` /
    `rules_dir` when the output-rules layer is present, else rtok's config dir."""
    try:
        from rtok.filter.settings import load_settings
    except ImportError:
        return paths.user_rules_file(), paths.user_rules_dir()
    try:
        settings = load_settings()
        return settings.rules_file, settings.rules_dir
    except Exception:
        return paths.user_rules_file(), paths.user_rules_dir()


def user_rule_files() -> list[str]:
    rules_file, rules_dir = _user_rule_locations()
    found = list(_rules_in(rules_file, rules_dir))
    for path in _rules_in(paths.user_rules_file(), paths.user_rules_dir()):
        if path not in found:
            found.append(path)
    return found


def _nearest_rtok_dir(start: str) -> str | None:
    # The same directory the output-rules layer reads, so every file that could apply is
    # gated and listed.
    return paths.project_rules_root(start)


def project_rule_files(cwd: str) -> list[str]:
    """Rule files of the nearest `.rtok/` at or above `cwd`. That directory is at or
    above `project_root(cwd)`; the output-rules layer reads the same one, so every file
    that could apply is gated and listed."""
    root = _nearest_rtok_dir(cwd)
    if root is None:
        return []
    base = os.path.join(root, PROJECT_DIR)
    return list(_rules_in(os.path.join(base, RULES_FILE), os.path.join(base, RULES_DIR)))


def gated_rule_files(cwd: str) -> list[str]:
    """Every existing rule file that needs trust, in layer order: user `rules.toml`, user
    `rules.d/*.toml`, project `.rtok/rules.toml`, project `.rtok/rules.d/*.toml` (drop-ins
    in file-name order). Paths are absolute, not resolved (what the user would type)."""
    found: list[str] = []
    for path in [*user_rule_files(), *project_rule_files(cwd)]:
        if path not in found:
            found.append(path)
    return found


def untrusted_rule_files(cwd: str) -> list[str]:
    return [path for path in gated_rule_files(cwd) if not is_trusted(path)]


def scope_of(path: str) -> str:
    """`user` for the user rule files (rtok's config dir, or where config.toml points),
    `project` for everything else."""
    target = canonical_path(path)
    if any(canonical_path(p) == target for p in user_rule_files()):
        return "user"
    config = canonical_path(paths.config_dir())
    for candidate in (os.path.abspath(path), target):
        if candidate == config or candidate.startswith(config + os.sep):
            return "user"
    return "project"


# ---------------------------------------------------------------------------- writing


def _write_store(entries: dict[str, dict[str, str]]) -> None:
    from rtok.install import fsio  # only writers pay for it; the hot path only reads

    store = paths.trust_store()
    paths.private_dir(os.path.dirname(store))
    text = json.dumps({"version": STORE_VERSION, "trusted": entries}, indent=2, sort_keys=True)
    fsio.atomic_write(store, (text + "\n").encode("utf-8"), 0o600)
    _cache[0] = None


def _read_store_for_update() -> dict[str, dict[str, str]]:
    """Current entries for a writer. A corrupt store is refused rather than overwritten,
    so that a user can inspect it (`rtok trust` names the file)."""
    store = paths.trust_store()
    try:
        with open(store, "rb") as handle:
            raw = handle.read()
    except FileNotFoundError:
        return {}
    except OSError as exc:
        raise TrustStoreError(f"cannot read trust store {store}: {exc}") from exc
    try:
        return _parse_store(raw)
    except ValueError as exc:
        raise TrustStoreError(
            f"trust store {store} is corrupt ({exc}); move it aside to start afresh"
        ) from exc


def _locked() -> BaseFileLock:
    from filelock import FileLock

    store = paths.trust_store()
    paths.private_dir(os.path.dirname(store))
    return FileLock(store + ".lock", timeout=30, mode=0o600)


def trust_bytes(path: str, shown: bytes, *, now: str | None = None) -> dict[str, str]:
    """Trust `path` for exactly the bytes `shown` (the bytes the user saw), keyed by its
    canonical path. Returns the stored entry."""
    from datetime import UTC, datetime

    key = canonical_path(path)
    entry = {
        "sha256": sha256_hex(shown),
        "trusted_at": now or datetime.now(UTC).isoformat(timespec="seconds"),
        "scope": scope_of(path),
    }
    with _locked():
        entries = _read_store_for_update()
        entries[key] = entry
        _write_store(entries)
    return entry


def untrust(path: str) -> bool:
    """Drop the trust entry of `path` (by canonical path, or the literal key for a file
    that no longer exists). Returns whether an entry was removed."""
    with _locked():
        entries = _read_store_for_update()
        removed = False
        for key in {canonical_path(path), os.path.abspath(path)}:
            if entries.pop(key, None) is not None:
                removed = True
        if removed:
            _write_store(entries)
    return removed
