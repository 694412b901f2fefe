"""Hosts that load Claude Code's hooks by themselves (Devin CLI, ZCode, Grok Build, Copilot
CLI): `rtok doctor` names those found on this machine and checks that `rtok hook claude`
answers each one's own payload with a valid reply or no opinion, never an error."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from rtok.install import descriptor as descriptor_module
from rtok.install import integrations
from rtok.install.descriptor import DescriptorError
from rtok.integrity.borrowed import borrowed_checks, reply_problem
from rtok.integrity.doctor import doctor, run_hook_command
from rtok_testing import run_rtok


def _fake_binary(folder: Path, name: str) -> None:
    folder.mkdir(exist_ok=True)
    path = folder / name
    path.write_text("#!/bin/sh\nexit 0\n")
    path.chmod(0o755)


def test_doctor_names_the_borrowing_hosts_found_and_checks_their_payloads(
    isolated_home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    bindir = tmp_path / "bin"
    _fake_binary(bindir, "devin")  # Devin CLI by its binary
    (isolated_home / ".grok").mkdir()  # Grok Build by its folder
    monkeypatch.setenv("PATH", f"{bindir}:/usr/bin:/bin")
    done = run_rtok(["init", "-g", "--agent", "claude", "--auto-patch"])
    assert done.returncode == 0, done.stderr.decode()
    borrowed = [check for check in doctor("claude", env=os.environ) if check.sample == "borrowed"]
    hosts = {check.message.split(" (")[0]: check for check in borrowed}
    assert set(hosts) == {"Devin CLI", "Grok Build"}  # ZCode and Copilot are not here
    assert all(check.level == "PASS" for check in borrowed), borrowed
    assert "devin on PATH" in hosts["Devin CLI"].message
    assert "no opinion (exit 0)" in hosts["Grok Build"].message


def test_a_hook_that_errors_or_blocks_fails_for_a_borrowing_host(
    isolated_home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    bindir = tmp_path / "bin"
    _fake_binary(bindir, "zcode")
    monkeypatch.setenv("PATH", f"{bindir}:/usr/bin:/bin")
    claude = integrations.get_descriptor("claude")
    results = borrowed_checks(
        claude,
        ["cat >/dev/null; exit 2", "cat >/dev/null; echo nope", "cat >/dev/null"],
        run_hook_command,
    )
    assert [(level, host) for level, host, _ in results] == [
        ("FAIL", "ZCode"),
        ("FAIL", "ZCode"),
        ("PASS", "ZCode"),
    ]
    assert "exit 2 blocks the call" in results[0][2]
    assert "not JSON" in results[1][2]


def test_what_counts_as_a_valid_answer() -> None:
    claude = integrations.get_descriptor("claude")
    assert reply_problem(claude, 0, "", "") is None
    assert reply_problem(claude, 0, json.dumps({"hookSpecificOutput": {}}) + "\n", "") is None
    assert reply_problem(claude, 1, "", "boom") == "the hook exited 1"
    assert "not an object" in (reply_problem(claude, 0, "[1]", "") or "")
    assert "did not answer" in (reply_problem(claude, None, "", "timeout") or "")


def _with_borrowers(borrowers: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "name": "demo",
        "display_name": "Demo",
        "tier": "rules",
        "proof": {"kind": "contract", "docs": ["d"]},
        "doctor": {"borrowers": borrowers},
        "install": {"global": [{"strategy": "awareness_file", "path": "~/.demo/RTOK.md"}]},
    }


@pytest.mark.parametrize(
    ("borrower", "message"),
    [
        ({"name": "X", "binaries": ["x"], "source": "s"}, "exactly one of payload and sample_of"),
        (
            {"name": "X", "binaries": ["x"], "source": "s", "payload": "{}", "sample_of": "grok"},
            "exactly one of payload and sample_of",
        ),
        ({"name": "X", "binaries": ["x"], "source": "s", "payload": '{"tool": "Bash"}'}, "holding"),
        ({"name": "X", "binaries": ["x"], "source": "s", "payload": "{"}, "not JSON"),
        ({"name": "X", "source": "s", "sample_of": "grok"}, "needs binaries or paths"),
        ({"name": "X", "binaries": ["x"], "sample_of": "grok"}, "source"),
    ],
)
def test_borrowers_are_validated(borrower: dict[str, Any], message: str) -> None:
    with pytest.raises(DescriptorError, match=message):
        descriptor_module.parse(_with_borrowers([borrower]), "/x/integrations/demo.toml")


def test_every_borrowed_sample_names_an_agent_with_a_sample() -> None:
    for name, item in integrations.load_descriptors().items():
        for borrower in item.doctor.borrowers:
            if borrower.sample_of:
                lender = integrations.load_descriptors().get(borrower.sample_of)
                assert lender is not None and lender.hook_sample is not None, (name, borrower)
