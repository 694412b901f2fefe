"""`rtok discover` and `rtok session` over transcripts the real agent CLIs wrote (Claude
Code, Codex and Gemini CLI).

tests/store/fixtures/transcripts/<agent>/home/ is what scripts/e2e/record_transcripts.py
copied out of a real session of that agent (pinned version of the e2e tier, fake model,
rtok installed, transcript storage on): the agent's own transcript files and rtok's
decision log, the run's paths replaced by `@HOME@` and `@REPO@`. The session's calls, in
order: `git log` (rewritten), `git push origin HEAD:refs/heads/pushed` (denied by the
agent's own rule), `seq 1 20000` (no rewrite for it), `RTOK_DISABLED=1 git log` (run raw on
purpose: a raw re-run after the shortened `git log`) and `git status` (rewritten).
Each test moves the recorded times to the last minutes, so the 30-day windows hold.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import re
import time
from pathlib import Path
from typing import Any

import pytest

from rtok_testing import run_rtok

FIXTURES = Path(__file__).parent / "fixtures" / "transcripts"
STAMP = re.compile(r'"timestamp":"(\d{4}-\d\d-\d\dT[\d:.]+Z)"')


def _shift_stamp(match: re.Match[str], offset: float) -> str:
    moment = dt.datetime.fromisoformat(match.group(1).replace("Z", "+00:00"))
    moved = moment + dt.timedelta(seconds=offset)
    return f'"timestamp":"{moved.strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3]}Z"'


def _install(agent: str, home: Path, repo: Path) -> None:
    """Copy the recorded files under `home`, placeholders filled, times moved to now."""
    source = FIXTURES / agent / "home"
    log = source / ".local" / "share" / "rtok" / "hook-decisions.jsonl"
    newest = max(json.loads(line)["t"] for line in log.read_text().splitlines())
    offset = time.time() - 60 - newest
    data = Path(os.environ["XDG_DATA_HOME"])
    for path in source.rglob("*"):
        if not path.is_file():
            continue
        relative = str(path.relative_to(source))
        if relative.startswith(".local/share/"):
            target = data / relative[len(".local/share/") :]
        else:
            target = home / relative.replace("@REPO@", str(repo).replace("/", "-"))
        target.parent.mkdir(parents=True, exist_ok=True)
        text = path.read_text().replace("@REPO@", str(repo)).replace("@HOME@", str(home))
        if path == log:
            lines = [json.loads(line) for line in text.splitlines()]
            text = "".join(json.dumps({**line, "t": line["t"] + offset}) + "\n" for line in lines)
        else:
            text = STAMP.sub(lambda m: _shift_stamp(m, offset), text)
        target.write_text(text)
    if data.exists():
        os.chmod(data / "rtok", 0o700)


def _json(args: list[str], cwd: Path) -> dict[str, Any]:
    result = run_rtok([*args, "--json"], cwd=str(cwd))
    assert result.returncode == 0, result.stderr.decode()
    doc: dict[str, Any] = json.loads(result.stdout)
    return doc


# agent -> (prefix of its call ids, its transcript under HOME, a mark of the real CLI's
# own writing, how rtok's decisions are matched to its calls)
AGENTS = {
    "claude": ("toolu_rtok_", ".claude/projects/*/*.jsonl", '"version":"2.1.332"', {"call_id": 2}),
    "codex": (
        "call_rtok_",
        ".codex/sessions/*/*/*/*.jsonl",
        '"cli_version":"0.171.0"',
        {"call_id": 2},
    ),
    # Gemini CLI's hook payload has no call id, and its chat file keeps the rewritten
    # command (`rtok run git log`): matched by session, command and time.
    "gemini": (
        "run_shell_command__call_rtok_",
        ".gemini/tmp/*/chats/*.jsonl",
        '"projectHash":"',
        {"command_time": 2},
    ),
}


@pytest.fixture(params=sorted(AGENTS))
def recorded(
    request: pytest.FixtureRequest, isolated_home: Path, tmp_path: Path
) -> tuple[str, Path]:
    repo = tmp_path / "repo"
    repo.mkdir()
    _install(request.param, isolated_home, repo)
    return request.param, repo


@pytest.mark.parametrize("agent", sorted(AGENTS))
def test_fixture_is_a_real_transcript_of_the_pinned_cli(agent: str) -> None:
    [path] = (FIXTURES / agent / "home").glob(AGENTS[agent][1])
    text = path.read_text()
    assert path.stat().st_size < 600_000
    assert AGENTS[agent][2] in text  # written by the CLI itself
    assert "sk-ant-dummy" not in text and "sk-dummy" not in text  # no keys


def test_discover_reports_each_call_of_a_real_session(recorded: tuple[str, Path]) -> None:
    agent, repo = recorded
    found = _json(["discover"], repo)
    assert found["calls"] == 5
    assert found["via_rtok"] == 2 and found["matched_by"] == AGENTS[agent][3]
    assert found["denied"] == 1
    assert found["missed"] == []  # no rewritten call is ever reported as missed
    assert [(m["family"], m["calls"]) for m in found["not_covered"]] == [("seq", 1)]
    assert found["not_covered"][0]["examples"] == ["seq 1 20000"]
    [rerun] = found["reruns"]
    assert rerun["command"] == "RTOK_DISABLED=1 git log"
    assert rerun["call_id"] == AGENTS[agent][0] + "4"
    assert rerun["output_bytes"] > 10_000  # git's own log, raw
    assert abs(rerun["time"] - time.time()) < 600


def test_session_counts_a_real_session(recorded: tuple[str, Path]) -> None:
    agent, repo = recorded
    [row] = _json(["session"], repo)["sessions"]
    assert row["agent"] == agent and row["source"] == "transcript"
    assert row["cwd"] == str(repo)
    assert (
        row["shell_calls"],
        row["via_rtok"],
        row["denied"],
        row["missed"],
        row["raw"],
        row["reruns"],
    ) == (5, 2, 1, 0, 2, 1)
    assert 0 <= row["last"] - row["first"] < 120
    assert abs(row["last"] - time.time()) < 600
    text = run_rtok(["session"], cwd=str(repo)).stdout.decode()
    assert dt.date.today().isoformat() in text
