"""`rtok discover` and `rtok session` over Claude Code transcripts written here in the
documented JSONL format (assistant `tool_use` blocks, user `tool_result` blocks with
`toolUseResult`, `sessionId`/`timestamp`/`cwd` on every line), with the decision log
written by real `rtok hook claude` subprocesses. The same scenario against transcripts of
the real CLI needs the e2e tier.
"""

from __future__ import annotations

import datetime as dt
import json
import time
from pathlib import Path
from typing import Any

from rtok.store import ledger
from rtok_testing import run_rtok

SESSION = "5b0e2c1a-0000-4000-8000-000000000001"
OTHER = "5b0e2c1a-0000-4000-8000-000000000002"


def _stamp(epoch: float) -> str:
    moment = dt.datetime.fromtimestamp(epoch, dt.UTC)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"


class Transcript:
    """A Claude Code session log, one documented line at a time."""

    def __init__(self, home: Path, cwd: str, session: str) -> None:
        folder = home / ".claude" / "projects" / cwd.replace("/", "-")
        folder.mkdir(parents=True, exist_ok=True)
        self.path = folder / f"{session}.jsonl"
        self.cwd, self.session = cwd, session
        self.lines: list[dict[str, Any]] = [
            {
                "type": "user",
                "uuid": "u0",
                "parentUuid": None,
                "sessionId": session,
                "timestamp": _stamp(time.time()),
                "cwd": cwd,
                "version": "2.1.12",
                "message": {"role": "user", "content": "Look at the project."},
            }
        ]

    def bash(
        self, call_id: str, command: str, output: str, at: float, is_error: bool = False
    ) -> None:
        base = {
            "sessionId": self.session,
            "cwd": self.cwd,
            "version": "2.1.12",
            "gitBranch": "main",
            "isSidechain": False,
            "userType": "external",
        }
        self.lines.append(
            {
                **base,
                "type": "assistant",
                "uuid": f"a-{call_id}",
                "timestamp": _stamp(at),
                "message": {
                    "role": "assistant",
                    "type": "message",
                    "content": [
                        {"type": "text", "text": "Running it."},
                        {
                            "type": "tool_use",
                            "id": call_id,
                            "name": "Bash",
                            "input": {"command": command, "description": "Run it"},
                        },
                    ],
                },
            }
        )
        self.lines.append(
            {
                **base,
                "type": "user",
                "uuid": f"r-{call_id}",
                "timestamp": _stamp(at + 1),
                "message": {
                    "role": "user",
                    "content": [
                        {
                            "tool_use_id": call_id,
                            "type": "tool_result",
                            "content": output,
                            "is_error": is_error,
                        }
                    ],
                },
                "toolUseResult": {
                    "stdout": output,
                    "stderr": "",
                    "interrupted": False,
                    "isImage": False,
                },
            }
        )

    def read_file(self, call_id: str, at: float) -> None:
        self.lines.append(
            {
                "type": "assistant",
                "sessionId": self.session,
                "cwd": self.cwd,
                "timestamp": _stamp(at),
                "message": {
                    "content": [
                        {
                            "type": "tool_use",
                            "id": call_id,
                            "name": "Read",
                            "input": {"file_path": "/etc/hosts"},
                        }
                    ]
                },
            }
        )

    def save(self) -> None:
        text = "".join(json.dumps(line) + "\n" for line in self.lines) + "{not json\n"
        self.path.write_text(text)


def _hook(command: str, cwd: str, session: str, call_id: str | None) -> dict[str, Any]:
    payload: dict[str, Any] = {
        "session_id": session,
        "transcript_path": "/t.jsonl",
        "cwd": cwd,
        "permission_mode": "default",
        "hook_event_name": "PreToolUse",
        "tool_name": "Bash",
        "tool_input": {"command": command, "description": "Run it"},
    }
    if call_id is not None:
        payload["tool_use_id"] = call_id
    result = run_rtok(["hook", "claude"], input=json.dumps(payload))
    assert result.returncode == 0
    return json.loads(result.stdout) if result.stdout.strip() else {}


def _scenario(home: Path, project: Path) -> None:
    (home / ".claude").mkdir(exist_ok=True)
    (home / ".claude" / "settings.json").write_text(
        json.dumps({"permissions": {"deny": ["Bash(git branch -D:*)"]}})
    )
    cwd = str(project)
    now = time.time()
    log = "".join(f"commit {i:040x}\nAuthor: A <a@b>\n\n    change {i}\n\n" for i in range(60))
    cut = "commit 0000\n... 58 more commits\n[rtok expand 0123456789ab · 300 lines]\n"
    big = "".join(f"test t{i} ... ok\n" for i in range(400))
    tool = "x" * 9000
    # Rewritten by the hook, matched by tool-call id: one result carries rtok's trailer,
    # the other (a short output left as it was) does not.
    reply = _hook("git log -n 60", cwd, SESSION, "toolu_A")
    assert "rtok run git log -n 60" in json.dumps(reply)
    _hook("git status", cwd, SESSION, "toolu_B")
    # Denied by the user's rule (Claude applies its own deny: the hook says nothing).
    assert _hook("git branch -D old", cwd, SESSION, "toolu_C") == {}
    # A decision without a call id: matched by session + command + time.
    _hook("git diff", cwd, SESSION, None)
    t = Transcript(home, cwd, SESSION)
    t.bash("toolu_A", "git log -n 60", cut, now - 50)
    t.bash("toolu_B", "git status", "On branch main\nnothing to commit\n", now - 45)
    t.bash("toolu_C", "git branch -D old", "denied by hook", now - 40, is_error=True)
    t.bash("toolu_D", "git diff", "diff --git a/x b/x\n" + "+line\n" * 600, now - 35)
    t.read_file("toolu_R", now - 33)
    # Ran raw (before the hook was installed, say): rtok would have shortened them.
    t.bash("toolu_E", "cargo test", big, now - 30)
    t.bash("toolu_F", "mytool --verbose", tool, now - 25)  # no rewrite for it
    t.bash("toolu_G", "ls", "a\nb\n", now - 20)  # too short to matter
    t.bash("toolu_H", "git   log -n 60", log, now - 10)  # a raw re-run of toolu_A
    t.save()
    # A second session the hook saw but no transcript holds (another agent, say).
    other = Transcript(home, cwd, OTHER)
    other.save()


def test_discover_never_reports_a_rewritten_call_as_missed(
    tmp_path: Path, isolated_home: Path
) -> None:
    project = tmp_path / "proj"
    project.mkdir()
    _scenario(isolated_home, project)
    ledger.write(ledger.Row("cargo build", "cargo", "run", 40_000, 4_000, 1, 0, str(project)))
    result = run_rtok(["discover", "--json"])
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["schema"] == "rtok.discover/1"
    assert (data["calls"], data["via_rtok"], data["denied"]) == (8, 3, 1)
    assert data["matched_by"] == {"call_id": 2, "command_time": 1}
    _check_missed(data)
    assert [m["family"] for m in data["not_covered"]] == ["mytool"]
    assert [r["call_id"] for r in data["reruns"]] == ["toolu_H"]
    text = run_rtok(["discover"]).stdout.decode()
    for word in ("cargo", "mytool", "re-run raw"):
        assert word in text


def _check_missed(data: dict[str, Any]) -> None:
    """The scenario's missed calls: one git, one cargo; no call that went through rtok."""
    missed = {m["family"]: m for m in data["missed"]}
    assert set(missed) == {"cargo", "git"}
    assert missed["git"]["calls"] == 1
    assert missed["git"]["examples"] == ["git   log -n 60"]
    assert missed["cargo"]["output_bytes"] == len(
        "".join(f"test t{i} ... ok\n" for i in range(400))
    )
    # Estimated at the cargo family's share in the ledger (90% removed), uncapped here.
    assert missed["cargo"]["estimated_saved_tokens"] == round(
        (missed["cargo"]["output_bytes"] + 3) // 4 * 0.9
    )
    for entry in data["missed"]:
        for example in entry["examples"]:
            assert example not in ("git log -n 60", "git status", "git diff")


def test_discover_scopes_by_project_and_since(tmp_path: Path, isolated_home: Path) -> None:
    project = tmp_path / "proj"
    project.mkdir()
    _scenario(isolated_home, project)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    scoped = json.loads(run_rtok(["discover", "--json", "--project"], cwd=str(elsewhere)).stdout)
    assert scoped["calls"] == 0 and scoped["missed"] == []
    inside = json.loads(run_rtok(["discover", "--json", "--project"], cwd=str(project)).stdout)
    assert inside["calls"] == 8
    later = dt.datetime.fromtimestamp(time.time() + 3600).strftime("%Y-%m-%dT%H:%M")
    assert json.loads(run_rtok(["discover", "--json", "--since", later]).stdout)["calls"] == 0


def test_session_counts_per_session(tmp_path: Path, isolated_home: Path) -> None:
    project = tmp_path / "proj"
    project.mkdir()
    _scenario(isolated_home, project)
    _hook("git status", str(project), "codex-thread-1", "call_9")  # only in the log
    _hook("echo hi", str(project), "codex-thread-1", "call_10")
    data = json.loads(run_rtok(["session", "--json"]).stdout)
    assert data["schema"] == "rtok.session/1"
    rows = {row["session"]: row for row in data["sessions"]}
    main = rows[SESSION]
    assert main["source"] == "transcript" and main["agent"] == "claude"
    assert (
        main["shell_calls"],
        main["via_rtok"],
        main["denied"],
        main["missed"],
        main["raw"],
        main["reruns"],
    ) == (8, 3, 1, 2, 2, 1)
    logged = rows["codex-thread-1"]
    assert logged["source"] == "decision_log"
    assert (logged["shell_calls"], logged["via_rtok"], logged["raw"]) == (2, 1, 1)
    text = run_rtok(["session"]).stdout.decode()
    assert SESSION[:36] in text and "codex-thread-1" in text


def test_gain_books_a_raw_rerun_against_the_run_it_repeated(
    tmp_path: Path, isolated_home: Path
) -> None:
    project = tmp_path / "proj"
    project.mkdir()
    # The run of toolu_A (through rtok, 50 s ago), as `rtok run` booked it.
    row = ledger.Row(
        "git log -n 60",
        "git",
        "run",
        4_600,
        300,
        5,
        0,
        str(project),
        now=time.time() - 49,
        agent="claude",
        session=SESSION,
        cap_chars=30000,
    )
    ledger.write(row, None)
    _scenario(isolated_home, project)
    rerun = len(
        "".join(f"commit {i:040x}\nAuthor: A <a@b>\n\n    change {i}\n\n" for i in range(60))
    )
    env = {"RTOK_TOKENIZER": "estimate"}
    first = json.loads(run_rtok(["gain", "--json"], env=env).stdout)["totals"]
    assert first["rereads"] == 1
    assert first["reread_tokens"] == (rerun + 3) // 4
    assert first["net_saved_tokens"] == (4_600 + 3) // 4 - 300 // 4 - (rerun + 3) // 4
    again = json.loads(run_rtok(["gain", "--json"], env=env).stdout)["totals"]
    assert again == first  # booked once
    # The transcript grows by one more raw re-run: that one is booked too.
    path = next((isolated_home / ".claude" / "projects").glob(f"*/{SESSION}.jsonl"))
    more = Transcript(isolated_home, str(project), SESSION)
    more.lines = []
    more.bash("toolu_I", "git log -n 60", "x" * 100, time.time() - 5)
    with open(path, "a") as handle:
        handle.write("".join(json.dumps(line) + "\n" for line in more.lines))
    third = json.loads(run_rtok(["gain", "--json"], env=env).stdout)["totals"]
    assert third["rereads"] == 2 and third["reread_raw_bytes"] == rerun + 100


def test_discover_names_agents_without_rtok_and_hooks_that_never_ran(
    tmp_path: Path, isolated_home: Path
) -> None:
    from rtok.integrity.records import ArtifactRecord, record_artifacts

    (isolated_home / ".claude").mkdir()  # Claude Code is here; rtok is not installed for it
    hour_ago = dt.datetime.fromtimestamp(time.time() - 3600, dt.UTC).isoformat()
    record_artifacts(
        [
            ArtifactRecord(
                str(isolated_home / ".gemini" / "settings.json"),
                "gemini",
                "global",
                None,
                "settings_entry",
                "0" * 64,
                time=hour_ago,
            ),
            ArtifactRecord(
                str(isolated_home / ".kimi" / "config.toml"),
                "kimi",
                "global",
                None,
                "settings_entry",
                "1" * 64,
                time=hour_ago,
            ),
        ]
    )
    run_rtok(
        ["hook", "kimi"],
        input=json.dumps(
            {
                "session_id": "k",
                "cwd": str(tmp_path),
                "hook_event_name": "PreToolUse",
                "tool_name": "Shell",
                "tool_input": {"command": "git status"},
                "tool_call_id": "call_1",
            }
        ),
    )
    data = json.loads(run_rtok(["discover", "--json"]).stdout)
    without = [item["agent"] for item in data["without_rtok"]]
    silent = [item["agent"] for item in data["silent_hooks"]]
    assert "claude" in without and "gemini" not in without and "kimi" not in without
    assert silent == ["gemini"]  # kimi's hook ran after its install
    text = run_rtok(["discover"]).stdout.decode()
    assert "agents here without rtok:" in text and "never ran since: gemini" in text


def _codex_rollout(
    home: Path, cwd: str, session: str, calls: list[tuple[str, str, str, float, bool]]
) -> None:
    """A Codex rollout file: session_meta, then per call a `function_call` of
    `exec_command` (new form) or `shell` (older form, argv with `-lc`) and its output."""
    folder = home / ".codex" / "sessions" / "2026" / "12" / "02"
    folder.mkdir(parents=True, exist_ok=True)
    lines: list[dict[str, Any]] = [
        {
            "timestamp": _stamp(time.time() - 100),
            "type": "session_meta",
            "payload": {"id": session, "cwd": cwd, "cli_version": "0.65.0", "source": "exec"},
        },
        {
            "timestamp": _stamp(time.time() - 99),
            "type": "response_item",
            "payload": {
                "type": "message",
                "role": "user",
                "content": [{"type": "input_text", "text": "check the repo"}],
            },
        },
    ]
    for call_id, command, output, at, old_form in calls:
        arguments = (
            {"command": ["bash", "-lc", command], "workdir": cwd}
            if old_form
            else {"cmd": command, "workdir": cwd}
        )
        lines.append(
            {
                "timestamp": _stamp(at),
                "type": "response_item",
                "payload": {
                    "type": "function_call",
                    "name": "shell" if old_form else "exec_command",
                    "arguments": json.dumps(arguments),
                    "call_id": call_id,
                },
            }
        )
        result: Any = (
            json.dumps({"output": output, "metadata": {"exit_code": 0}}) if old_form else output
        )
        lines.append(
            {
                "timestamp": _stamp(at + 1),
                "type": "response_item",
                "payload": {"type": "function_call_output", "call_id": call_id, "output": result},
            }
        )
    (folder / f"rollout-2026-12-02T03-00-00-{session}.jsonl").write_text(
        "".join(json.dumps(line) + "\n" for line in lines)
    )


def test_codex_rollouts_are_read_and_matched_by_call_id(
    tmp_path: Path, isolated_home: Path
) -> None:
    from rtok_testing.samples import shell_payload

    cwd = str(tmp_path)
    session = "019a2d7a-41c4-78b1-b7cc-a45d62a89cd5"
    payload = shell_payload("codex", "git log -n 60", cwd)
    payload.update(session_id=session, tool_use_id="call_A")
    assert run_rtok(["hook", "codex"], input=json.dumps(payload)).returncode == 0
    now = time.time()
    big = "".join(f"test t{i} ... ok\n" for i in range(400))
    _codex_rollout(
        isolated_home,
        cwd,
        session,
        [
            ("call_A", "git log -n 60", "commit abc\n" * 400, now - 60, False),  # rewritten
            ("call_B", "cargo test", big, now - 50, True),  # raw, older argv form
            ("call_C", "ls", "a\n", now - 40, False),
        ],
    )
    data = json.loads(run_rtok(["discover", "--json"]).stdout)
    assert "codex" in data["sources"]
    assert data["calls"] == 3 and data["via_rtok"] == 1 and data["raw"] == 1
    assert data["matched_by"] == {"call_id": 1}
    assert [(m["family"], m["calls"], m["output_bytes"]) for m in data["missed"]] == [
        ("cargo", 1, len(big))
    ]
    rows = json.loads(run_rtok(["session", "--json"]).stdout)["sessions"]
    assert [
        (r["session"], r["agent"], r["shell_calls"], r["via_rtok"], r["missed"]) for r in rows
    ] == [(session, "codex", 3, 1, 1)]
