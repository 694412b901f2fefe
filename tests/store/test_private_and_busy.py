"""The store is private whatever the umask, and a busy store never holds output back.

Real processes under a umask of 022; a real second process holds the SQLite write lock.
"""

from __future__ import annotations

import os
import sqlite3
import stat
import subprocess
import sys
from pathlib import Path

from rtok import paths

PY = sys.executable
LONG = "import sys\nfor i in range(600): print('row', i)"


def _rtok(
    args: list[str], umask: int = 0o022, timeout: float = 60
) -> subprocess.CompletedProcess[bytes]:
    def set_umask() -> None:
        os.umask(umask)

    return subprocess.run(
        [PY, "-m", "rtok", *args],
        capture_output=True,
        timeout=timeout,
        env=dict(os.environ),
        preexec_fn=set_umask,
        check=False,
    )


def _mode(path: str) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


def test_store_files_are_private_under_umask_022() -> None:
    result = _rtok(["run", PY, "-c", LONG])
    assert result.returncode == 0 and b"[rtok " in result.stdout
    data = paths.data_dir()
    assert _mode(data) == 0o700
    for name in os.listdir(data):
        path = os.path.join(data, name)
        if os.path.isfile(path):
            assert _mode(path) & 0o077 == 0, (name, oct(_mode(path)))
    assert os.path.exists(paths.archive_db()) and os.path.exists(paths.ledger_db())


def test_existing_wide_files_are_fixed_on_the_next_write() -> None:
    assert _rtok(["run", PY, "-c", LONG]).returncode == 0
    data = paths.data_dir()
    os.chmod(data, 0o755)
    for path in (paths.archive_db(), paths.ledger_db()):
        os.chmod(path, 0o644)
    assert _rtok(["run", PY, "-c", LONG + "\nprint('again')"]).returncode == 0
    assert _mode(data) == 0o700
    assert _mode(paths.archive_db()) == 0o600 and _mode(paths.ledger_db()) == 0o600


def test_state_and_backups_are_private(tmp_path: Path) -> None:
    project = tmp_path / "project"
    (project / ".git").mkdir(parents=True)
    (project / ".claude").mkdir()
    (project / ".claude" / "settings.local.json").write_text('{"env": {}}\n')

    def set_umask() -> None:
        os.umask(0o022)

    done = subprocess.run(
        [PY, "-m", "rtok", "init", "--agent", "claude", "--auto-patch"],
        cwd=project,
        capture_output=True,
        timeout=120,
        env=dict(os.environ),
        preexec_fn=set_umask,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    data = paths.data_dir()
    assert _mode(data) == 0o700
    found = 0
    for root, dirs, files in os.walk(data):
        for name in dirs:
            if root == data and name in ("backups",):
                assert _mode(os.path.join(root, name)) == 0o700
        for name in files:
            path = os.path.join(root, name)
            if name.endswith(".lock") or os.path.dirname(path) == os.path.dirname(paths.launcher()):
                continue
            found += 1
            assert _mode(path) & 0o077 == 0, (path, oct(_mode(path)))
    assert found >= 2  # the install state and a backup at least


HOLDER = """
import sqlite3, sys
conn = sqlite3.connect(sys.argv[1], isolation_level=None)
conn.execute("PRAGMA journal_mode = WAL")
conn.execute("BEGIN IMMEDIATE")
print("locked", flush=True)
sys.stdin.read()
conn.execute("ROLLBACK")
"""


def test_a_busy_archive_prints_the_raw_output_and_says_so() -> None:
    # Create the archive first, then hold its write lock from another process.
    assert _rtok(["run", PY, "-c", LONG + "\nprint('first')"]).returncode == 0
    holder = subprocess.Popen(
        [PY, "-c", HOLDER, paths.archive_db()], stdin=subprocess.PIPE, stdout=subprocess.PIPE
    )
    try:
        assert holder.stdout is not None
        assert holder.stdout.readline() == b"locked\n"
        raw = subprocess.run([PY, "-c", LONG], capture_output=True, timeout=60, check=True)
        result = _rtok(["run", PY, "-c", LONG], timeout=60)
    finally:
        holder.communicate(b"", timeout=60)
    assert result.returncode == 0
    assert result.stdout == raw.stdout  # nothing cut that was not archived
    assert b"not archived" in result.stderr
    # The lock is gone: the next run archives again.
    again = _rtok(["run", PY, "-c", LONG])
    assert b"[rtok " in again.stdout


def test_the_run_and_its_ledger_row_are_one_transaction() -> None:
    result = _rtok(["run", PY, "-c", LONG])
    entry = result.stdout.rsplit(b"[rtok expand ", 1)[1].split(b" ", 1)[0].decode()
    conn = sqlite3.connect(paths.ledger_db())
    try:
        rows = conn.execute("SELECT archive_id, raw_bytes, shown_bytes FROM runs").fetchall()
    finally:
        conn.close()
    assert rows == [
        (
            entry,
            len(subprocess.run([PY, "-c", LONG], capture_output=True, check=True).stdout),
            len(result.stdout),
        )
    ]


def test_uncut_runs_queue_their_rows_and_gain_counts_each_once() -> None:
    for word in ("a", "b", "c"):
        assert _rtok(["run", "echo", word]).returncode == 0
    assert os.path.exists(paths.ledger_pending())
    assert _mode(paths.ledger_pending()) == 0o600
    cut = _rtok(["run", PY, "-c", LONG])  # folds the queue into its transaction
    assert b"[rtok " in cut.stdout and not os.path.exists(paths.ledger_pending())
    assert _rtok(["run", "echo", "d"]).returncode == 0
    import json

    for _ in range(2):  # reading folds the rest; a second read counts nothing twice
        report = json.loads(_rtok(["gain", "--json"]).stdout)
        assert report["totals"]["runs"] == 5
    conn = sqlite3.connect(paths.ledger_db())
    try:
        commands = sorted(r[0] for r in conn.execute("SELECT command FROM runs"))
    finally:
        conn.close()
    assert [c for c in commands if c.startswith("echo")] == ["echo a", "echo b", "echo c", "echo d"]
