"""Opening rtok's SQLite files: WAL, a short busy timeout, private modes, schema upgrades.

Stdlib only (hot path). It imports the `_sqlite3` extension directly: the `sqlite3` package
adds `datetime` and its adapters to every `rtok run` and rtok never stores dates as objects.

Durability: WAL with `synchronous = NORMAL`, so a commit writes the WAL and does not wait
for the disk. A committed entry survives a crash of rtok or of the agent (the bytes are in
the operating system's cache); a power loss or kernel crash may lose the latest entries,
never the database. Files are created 0600 in a 0700 data dir whatever the umask, and
existing ones are fixed when they are next opened.

A writer waits for another one at most `BUSY_TIMEOUT_MS`; then the statement raises
`OperationalError` and the caller goes on without the store (`rtok run` prints the output
uncut and says it was not archived).
"""

from __future__ import annotations

import time

from rtok import paths
from rtok._fast import oslite as os
from rtok.store import KEEP_OPEN

TYPE_CHECKING = False
if TYPE_CHECKING:
    import sqlite3
    from typing import Any

BUSY_TIMEOUT_MS = 1000
FILE_MODE = 0o600


# Connections `release`d while `keep_open()` is in force: never closed by rtok. Closing the
# last connection of a WAL database checkpoints it and deletes the WAL, two fsyncs each;
# a hot-path process ends with os._exit instead (rtok.cli.entry), leaving the WAL for the
# next writer's automatic checkpoint (every ~1000 pages).
_KEPT: list[object] = []


def release(conn: sqlite3.Connection) -> None:
    """Close `conn`, or keep it until exit (see rtok.store.KEEP_OPEN)."""
    if KEEP_OPEN[0]:
        _KEPT.append(conn)
    else:
        conn.close()


def private_file(path: str) -> None:
    """Create `path` empty with mode 0600 if missing; fix its mode if it is wider."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND | os.O_CLOEXEC, FILE_MODE)
    except OSError:
        return  # connect() reports the real problem
    os.close(fd)
    _restrict(path, FILE_MODE)


def _restrict(path: str, mode: int) -> None:
    try:
        current = os.stat(path).st_mode & 0o777
        if current & ~mode:
            os.chmod(path, current & mode)
    except OSError:
        pass


def connect(
    path: str, schema: str, version: int, upgrades: dict[int, str] | None = None
) -> sqlite3.Connection:
    """A connection to `path` with `schema` applied (a new file) or `upgrades[n]` applied
    for every version n above the file's user_version."""
    paths.private_dir(os.path.dirname(path))
    private_file(path)
    for suffix in ("-wal", "-shm"):
        if os.path.exists(path + suffix):
            _restrict(path + suffix, FILE_MODE)
    conn: sqlite3.Connection = sqlite_module().connect(
        path, timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None
    )
    prepare(conn, "main", schema, version, upgrades)
    conn.execute("PRAGMA foreign_keys = ON")
    return conn


def sqlite_module() -> Any:
    """`_sqlite3` (loaded on first use: queuing a ledger row needs no SQLite)."""
    try:
        return __import__("_sqlite3")
    except ImportError:  # an interpreter that only ships the package
        import sqlite3

        return sqlite3


def attach(
    conn: sqlite3.Connection,
    path: str,
    name: str,
    schema: str,
    version: int,
    upgrades: dict[int, str] | None = None,
) -> None:
    """Attach `path` as schema `name`, so one transaction can write both files."""
    private_file(path)
    conn.execute(f"ATTACH DATABASE ? AS {name}", (path,))
    prepare(conn, name, schema, version, upgrades)


def prepare(
    conn: sqlite3.Connection, name: str, schema: str, version: int, upgrades: dict[int, str] | None
) -> None:
    conn.execute(f"PRAGMA {name}.synchronous = NORMAL")
    current = conn.execute(f"PRAGMA {name}.user_version").fetchone()[0]
    if current >= version:
        return
    _enter_wal(conn, name)
    conn.execute("BEGIN IMMEDIATE")
    try:
        current = conn.execute(f"PRAGMA {name}.user_version").fetchone()[0]
        if current == 0:
            _run(conn, name, schema)
        else:
            for step in range(current + 1, version + 1):
                _run(conn, name, (upgrades or {}).get(step, ""))
        if current < version:
            conn.execute(f"PRAGMA {name}.user_version = {version}")
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise


def _enter_wal(conn: sqlite3.Connection, name: str) -> None:
    """Switch `name` to WAL, retrying for `BUSY_TIMEOUT_MS`: SQLite answers "locked" at
    once, without its busy handler, while another process switches or creates the file."""
    locked = sqlite_module().OperationalError
    deadline = time.monotonic() + BUSY_TIMEOUT_MS / 1000
    delay = 0.002
    while True:
        try:
            if conn.execute(f"PRAGMA {name}.journal_mode = WAL").fetchone()[0] == "wal":
                return
        except locked as exc:
            if "locked" not in str(exc) and "busy" not in str(exc):
                raise
        if time.monotonic() >= deadline:
            raise locked("database is locked")
        time.sleep(delay)
        delay = min(delay * 2, 0.05)


def _run(conn: sqlite3.Connection, name: str, script: str) -> None:
    for statement in script.split(";"):
        statement = statement.strip()
        if not statement:
            continue
        if name != "main":  # qualify the tables and indexes created in an attached file
            statement = statement.replace("IF NOT EXISTS ", f"IF NOT EXISTS {name}.", 1)
            for verb in ("ALTER TABLE ", "UPDATE "):
                if statement.startswith(verb):
                    statement = verb + name + "." + statement[len(verb) :]
        conn.execute(statement)
