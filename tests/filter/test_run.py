"""`rtok run`: exit codes, stderr, signals, the failure tail, the trailer and expand."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest

from rtok_testing import run_rtok

PY = sys.executable


def _expand(entry_id: str, *extra: str) -> bytes:
    result = run_rtok(["expand", entry_id, *extra])
    assert result.returncode == 0, result.stderr
    return result.stdout


def _trailer_id(stdout: bytes) -> str:
    last = stdout.decode().rstrip("\n").splitlines()[-1]
    assert last.startswith("[rtok expand ") and last.endswith(" lines]"), last
    return last.split()[2]


def test_exit_codes_propagate_exactly() -> None:
    for code in (0, 1, 2, 3, 42, 255):
        result = run_rtok(["run", PY, "-c", f"import sys; sys.exit({code})"])
        assert result.returncode == code


def test_short_output_is_printed_byte_for_byte() -> None:
    payload = "héllo\x00wörld\r\nline two"
    result = run_rtok(["run", PY, "-c", f"import sys; sys.stdout.write({payload!r})"])
    assert result.returncode == 0
    assert result.stdout == payload.encode()


def test_stderr_only_output_is_shown_on_stderr() -> None:
    script = "import sys; sys.stderr.write('boom\\n'); sys.exit(4)"
    result = run_rtok(["run", "--", PY, "-c", script])
    assert result.returncode == 4
    assert result.stdout == b""
    assert result.stderr == b"boom\n"


def test_command_not_found_is_127_with_a_message() -> None:
    result = run_rtok(["run", "rtok-no-such-program-xyz", "arg"])
    assert result.returncode == 127
    assert b"rtok-no-such-program-xyz: command not found" in result.stderr
    assert result.stdout == b""


def test_no_command_is_a_usage_error() -> None:
    result = run_rtok(["run"])
    assert result.returncode == 2
    assert b"usage" in result.stderr


def test_argv_is_not_reparsed_by_a_shell() -> None:
    result = run_rtok(["run", PY, "-c", "import sys; print(sys.argv[1:])", "a b", "$HOME", ";x"])
    assert result.stdout == b"['a b', '$HOME', ';x']\n"


def test_long_output_is_cut_with_a_trailer_and_expands_exactly() -> None:
    script = "for i in range(500): print(f'line {i:04d} of the output')"
    result = run_rtok(["run", PY, "-c", script])
    assert result.returncode == 0
    raw = "".join(f"line {i:04d} of the output\n" for i in range(500)).encode()
    assert len(result.stdout) < len(raw)
    assert b"line 0000 of the output" in result.stdout
    assert b"line 0499 of the output" in result.stdout
    assert b"lines omitted" in result.stdout
    entry_id = _trailer_id(result.stdout)
    assert "· 500 lines]".encode() in result.stdout
    assert _expand(entry_id) == raw
    assert _expand(entry_id, "--full") == raw
    assert _expand(entry_id[:6], "--from", "10", "--lines", "2") == (
        b"line 0009 of the output\nline 0010 of the output\n"
    )
    assert _expand(entry_id, "--grep", "04[89]9") == (
        b"490:line 0489 of the output\n500:line 0499 of the output\n"
    )
    listing = run_rtok(["expand", "--list"]).stdout.decode()
    assert entry_id in listing and "500 lines" in listing


def test_error_lines_in_the_middle_survive_the_cut() -> None:
    script = (
        "for i in range(300):\n"
        "    print('error: disk is full' if i == 150 else f'ok {i}')\n"
        "print('WARNING: low memory')\n"
        "for i in range(300): print(f'more {i}')"
    )
    result = run_rtok(["run", PY, "-c", script])
    assert b"error: disk is full" in result.stdout
    assert b"WARNING: low memory" in result.stdout


def test_failed_command_prints_its_last_lines_verbatim() -> None:
    script = "import sys\nfor i in range(300): print(f'step {i}')\nsys.exit(7)"
    result = run_rtok(["run", PY, "-c", script])
    assert result.returncode == 7
    text = result.stdout.decode()
    tail = "".join(f"step {i}\n" for i in range(220, 300))
    assert tail in text
    assert "step 219\n" not in text
    assert "220 lines omitted" in text


def test_fail_tail_lines_comes_from_config(isolated_home: object) -> None:
    config = os.path.join(os.environ["XDG_CONFIG_HOME"], "rtok", "config.toml")
    os.makedirs(os.path.dirname(config))
    with open(config, "w", encoding="utf-8") as handle:
        handle.write("[plugins.cmd]\nfail_tail_lines = 5\n")
    script = "import sys\nfor i in range(300): print(f'step {i}')\nsys.exit(1)"
    text = run_rtok(["run", PY, "-c", script]).stdout.decode()
    assert "step 294" not in text and "".join(f"step {i}\n" for i in range(295, 300)) in text


def test_killed_command_exits_128_plus_signal() -> None:
    script = "import os, signal; print('before', flush=True); os.kill(os.getpid(), signal.SIGKILL)"
    result = run_rtok(["run", PY, "-c", script])
    assert result.returncode == 128 + signal.SIGKILL
    assert result.stdout == b"before\n"
    assert b"SIGKILL" in result.stderr


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT, signal.SIGHUP])
def test_signals_sent_to_rtok_reach_the_command(signum: int) -> None:
    script = (
        "import signal, sys, time\n"
        "def bye(n, f):\n"
        "    print('got', n, flush=True); sys.exit(42)\n"
        "for s in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP): signal.signal(s, bye)\n"
        "print('ready', flush=True)\n"
        "time.sleep(30)\n"
    )
    proc = subprocess.Popen(
        [PY, "-m", "rtok", "run", PY, "-c", script], stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    try:
        deadline = time.monotonic() + 20
        # The child's output is captured by rtok; wait until the child has started.
        while time.monotonic() < deadline:
            children = subprocess.run(["pgrep", "-P", str(proc.pid)], capture_output=True)
            if children.stdout.strip():
                break
            time.sleep(0.05)
        time.sleep(0.5)
        proc.send_signal(signum)
        out, _ = proc.communicate(timeout=20)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 42
    assert f"got {int(signum)}\n".encode() in out


def test_every_run_lands_in_the_ledger() -> None:
    run_rtok(["run", PY, "-c", "print('x' * 10)"])
    run_rtok(["run", PY, "-c", "for i in range(400): print('row', i)"])
    report = run_rtok(["gain", "--json"])
    assert report.returncode == 0, report.stderr
    import json

    data = json.loads(report.stdout)
    assert data["totals"]["runs"] == 2
    assert data["totals"]["raw_tokens"] > data["totals"]["shown_tokens"]


def test_unwritable_archive_never_breaks_the_command(tmp_path: object) -> None:
    blocker = os.path.join(str(tmp_path), "not-a-dir")
    with open(blocker, "w", encoding="utf-8") as handle:
        handle.write("x")
    env = {"RTOK_DATA_DIR": os.path.join(blocker, "rtok")}
    small = "import sys\nfor i in range(300): print('row', i)\nsys.exit(3)"
    result = run_rtok(["run", PY, "-c", small], env=env)
    assert result.returncode == 3
    assert result.stdout == "".join(f"row {i}\n" for i in range(300)).encode()  # raw, lossless
    big = "import sys\nfor i in range(300000): print('row', i)\nsys.exit(4)"
    result = run_rtok(["run", PY, "-c", big], env=env)
    assert result.returncode == 4
    assert b"row 299999" in result.stdout and b"archive unavailable" in result.stderr


def test_large_output_streams_through_run_and_expands_exactly() -> None:
    script = (
        "import sys\n"
        "out = sys.stdout.buffer\n"
        "for i in range(400000): out.write(b'record %06d \\x00\\xff\\r ok\\n' % i)\n"
        "out.write(b'WARNING: tail end\\n')\n"
    )
    result = run_rtok(["run", PY, "-c", script], timeout=120)
    assert result.returncode == 0
    raw = b"".join(b"record %06d \x00\xff\r ok\n" % i for i in range(400000))
    raw += b"WARNING: tail end\n"
    assert len(raw) > 8_000_000
    assert len(result.stdout) < 20_000
    assert b"WARNING: tail end" in result.stdout
    entry_id = _trailer_id(result.stdout)
    assert _expand(entry_id) == raw


def test_a_background_process_holding_the_pipe_does_not_hang_run() -> None:
    started = time.monotonic()
    result = run_rtok(["run", "sh", "-c", "echo start; sleep 30 & echo done"], timeout=25)
    assert result.returncode == 0
    assert result.stdout == b"start\ndone\n"
    assert time.monotonic() - started < 20
