"""Spellings of denied commands (tests/permissions/data/bypass_corpus.jsonl, and
runner_corpus.jsonl: every command runner of rules/registry.toml times every way of giving
it the command) never slip through: with deny rules for `git push`, `rm` and `curl`,
neither `rtok rewrite` nor any hook agent rewrites (exit 3 / ask with a rewrite) or allows
(exit 0 / allow) them. Real bash with logging stubs for git, rm and curl shows that the
runner lines do run the denied command.

Each agent reads the rules in its own host's format (derived from its descriptor's
`permissions` source); agents whose host owns approval and has no rule file rtok reads
must still never allow.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import redirect_stdout, suppress
from pathlib import Path

import pytest

from rtok.compiled.hook_protocols import PROTOCOLS
from rtok.hooks.main import respond
from rtok.integrity.doctor import sample_payload
from rtok.rewrite import main as rewrite_main
from rtok.rewrite.rewriter import Settings, apply_insertions, insertion_points
from rtok_testing import rtok_entry_point

CORPUS_FILE = Path(__file__).parent / "data" / "bypass_corpus.jsonl"
RUNNER_FILE = Path(__file__).parent / "data" / "runner_corpus.jsonl"
RUNNERS = [json.loads(line) for line in RUNNER_FILE.read_text(encoding="utf-8").splitlines()]
CORPUS = [json.loads(line) for line in CORPUS_FILE.read_text(encoding="utf-8").splitlines()]
CORPUS += RUNNERS
# The hand-written runner lines are run under bash; the lines generated from every entry of
# the [runners] table ("table …" ways) are held to the same answers without it (many
# name programs this machine lacks or that wait for a terminal).
HAND_WRITTEN = [e for e in RUNNERS if not e["way"].startswith("table")]
DENIED = ("git push", "rm", "curl")
SETUPS = {"allow git": "git", "allow everything": "*"}
REWRITES = ("allow_rewrite", "ask_rewrite")


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def write_rules(home: Path, allow: str) -> None:
    """The same deny rules (and one allow rule) in every host format rtok reads."""
    claude = {
        "permissions": {
            "deny": [f"Bash({d}:*)" for d in DENIED],
            "allow": [f"Bash({allow}:*)" if allow != "*" else "Bash(*)"],
        }
    }
    _write(home / ".claude" / "settings.json", json.dumps(claude))
    _write(home / ".codebuddy" / "settings.json", json.dumps(claude))  # Claude's format
    cursor = {
        "permissions": {"deny": [f"Shell({d})" for d in DENIED], "allow": [f"Shell({allow})"]}
    }
    _write(home / ".cursor" / "cli-config.json", json.dumps(cursor))
    gemini = (
        '// deny rules\n{"tools": {"exclude": '
        + json.dumps([f"run_shell_command({d})" for d in DENIED])
        + ', "allowed": '
        + json.dumps([f"run_shell_command({allow})"])
        + "}}"
    )
    _write(home / ".gemini" / "settings.json", gemini)
    _write(home / ".qwen" / "settings.json", gemini)
    _write(home / ".factory" / "settings.json", json.dumps({"commandDenylist": list(DENIED)}))
    _write(
        home / ".vibe" / "config.toml",
        "[tools.bash]\ndenylist = " + json.dumps(list(DENIED)) + "\n",
    )
    rules = "".join(
        f'prefix_rule(pattern={json.dumps(d.split())}, decision="forbidden")\n' for d in DENIED
    )
    _write(home / ".codex" / "rules" / "default.rules", rules)
    auggie = [
        {
            "toolName": "launch-process",
            "shellInputRegex": f"^{d}( |$)",
            "permission": {"type": "deny"},
        }
        for d in DENIED
    ]
    _write(home / ".augment" / "settings.json", json.dumps({"toolPermissions": auggie}))
    kimi = ", ".join(f'{{ tool = "Bash", match = "{d}*" }}' for d in DENIED)
    _write(home / ".kimi-code" / "config.toml", f"[permission]\ndeny = [{kimi}]\n")


@pytest.fixture(params=list(SETUPS), ids=list(SETUPS))
def setup(
    request: pytest.FixtureRequest,
    isolated_home: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> Iterator[Path]:
    write_rules(isolated_home, SETUPS[request.param])
    project = tmp_path / "project"
    project.mkdir()
    monkeypatch.chdir(project)
    yield project


def _rewrite_status(cmd: str) -> int:
    with redirect_stdout(io.StringIO()):
        return rewrite_main.main([cmd])


def _hook_kinds(cmd: str, cwd: Path) -> Iterator[tuple[str, str, str]]:
    """(agent, permission source, decision kind) for every payload shape of every agent."""
    for agent, protocol in sorted(PROTOCOLS.items()):
        for shape in protocol["payloads"]:
            payload = sample_payload(shape, cmd, str(cwd))
            yield (
                agent,
                protocol["permissions"],
                respond(protocol, payload, os.environ, cwd=str(cwd)).kind,
            )


def test_corpus_is_large_and_varied() -> None:
    assert len(CORPUS) >= 300
    assert len({entry["form"] for entry in CORPUS}) >= 60
    assert {entry["base"].split()[0] for entry in CORPUS} == {"git", "rm", "curl"}


def test_rtok_rewrite_never_rewrites_nor_allows_a_denied_command(setup: Path) -> None:
    slipped = [
        (e["form"], e["cmd"], status)
        for e in CORPUS
        if (status := _rewrite_status(e["cmd"])) in (0, 3)
    ]
    assert slipped == []


def test_no_hook_agent_rewrites_nor_allows_a_denied_command(setup: Path) -> None:
    slipped = []
    for entry in CORPUS:
        for agent, source, kind in _hook_kinds(entry["cmd"], setup):
            if kind == "allow_rewrite" or (source != "none" and kind in REWRITES):
                slipped.append((agent, entry["form"], entry["cmd"], kind))
    assert slipped == []


def test_controls_show_the_harness_can_fail(setup: Path, request: pytest.FixtureRequest) -> None:
    # Allowed commands are still rewritten: the corpus results above are not vacuous.
    everything = request.node.callspec.id == "allow everything"
    assert _rewrite_status("git status") == 0
    assert _rewrite_status("git status && ls -la") == (0 if everything else 3)
    assert _rewrite_status('"git" status') == 0
    assert _rewrite_status("git status; $X push") == 1  # an expanded command word
    kinds = {agent: kind for agent, _source, kind in _hook_kinds("git status", setup)}
    assert kinds["claude"] == "allow_rewrite"
    assert all(kind in REWRITES for kind in kinds.values())


def test_cli_agrees_on_a_sample(setup: Path) -> None:
    sample = CORPUS[:: max(1, len(CORPUS) // 25)]
    for entry in sample:
        result = subprocess.run(
            [rtok_entry_point(), "rewrite", entry["cmd"]],
            capture_output=True,
            timeout=60,
            check=False,
            cwd=setup,
        )
        assert result.returncode not in (0, 3), entry


def test_insertions_keep_every_corpus_line_byte_for_byte() -> None:
    rewritten = 0
    for entry in CORPUS:
        cmd = entry["cmd"]
        found = insertion_points(cmd, settings=Settings())
        if found is None or not found[0]:
            continue
        offsets = found[0]
        out = apply_insertions(cmd, offsets, "rtok run ")
        # Deleting each inserted text, at the offsets where it went, gives the input back.
        back = out
        for offset in offsets:  # once the earlier ones are gone, each sits at its offset
            assert back[offset : offset + len("rtok run ")] == "rtok run "
            back = back[:offset] + back[offset + len("rtok run ") :]
        assert back == cmd
        rewritten += 1
    assert rewritten >= 100  # the corpus exercises the rewriter, not only its refusals


def test_real_hook_process_agrees_on_a_sample(setup: Path) -> None:
    protocol = PROTOCOLS["claude"]
    for entry in CORPUS[3 :: max(1, len(CORPUS) // 12)]:
        payload = json.dumps(sample_payload(protocol["payloads"][0], entry["cmd"], str(setup)))
        result = subprocess.run(
            [rtok_entry_point(), "hook", "claude"],
            input=payload.encode(),
            capture_output=True,
            timeout=60,
            check=False,
            cwd=setup,
        )
        assert result.returncode == 0, entry
        assert b"rtok run" not in result.stdout and b'"allow"' not in result.stdout, entry


STUB = '#!/bin/sh\nprintf "%s\\n" "$(basename "$0") $*" >> "$RTOK_CORPUS_LOG"\n'


def _runs_denied(entry: dict[str, str], scratch: Path) -> bool:
    """Whether real bash, with logging stubs for git, rm and curl first on PATH, runs the
    entry's denied base command."""
    stubs = scratch / "stubs"
    work = scratch / "work"
    (work / "build").mkdir(parents=True)
    stubs.mkdir()
    for program in ("git", "rm", "curl"):
        (stubs / program).write_text(STUB)
        (stubs / program).chmod(0o755)
    log = scratch / "log"
    env = dict(
        os.environ, PATH=f"{stubs}:{os.environ['PATH']}", RTOK_CORPUS_LOG=str(log), TERM="dumb"
    )
    with suppress(subprocess.TimeoutExpired):  # still running: what it logged so far
        subprocess.run(
            ["bash", "-c", entry["cmd"]],
            cwd=work,
            env=env,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            timeout=10,
            check=False,
            start_new_session=True,
        )
    return log.exists() and entry["base"] in log.read_text().splitlines()


@pytest.fixture(scope="module")
def executed(tmp_path_factory: pytest.TempPathFactory) -> list[dict[str, str]]:
    root = tmp_path_factory.mktemp("runner-oracle")
    with ThreadPoolExecutor(4) as pool:
        ran = list(
            pool.map(
                lambda item: _runs_denied(item[1], root / str(item[0])), enumerate(HAND_WRITTEN)
            )
        )
    return [entry for entry, hit in zip(HAND_WRITTEN, ran, strict=True) if hit]


def test_runner_corpus_covers_every_way_and_bash_runs_it(executed: list[dict[str, str]]) -> None:
    assert len(CORPUS) >= 1500
    assert len(HAND_WRITTEN) >= 1000
    assert {e["way"] for e in RUNNERS} == {
        "argv",
        "option",
        "stdin",
        "late",
        "opaque",
        "table option",
        "table stdin",
        "table file",
        "table argv",
    }
    # Most lines really run the denied command (the rest need a terminal, a lock or a
    # service this machine lacks); every way of giving a command is among them.
    assert len(executed) >= 0.85 * len(HAND_WRITTEN)
    assert {e["way"] for e in executed} == {"argv", "option", "stdin", "late", "opaque"}


def test_no_line_bash_runs_a_denied_command_in_is_rewritten_or_allowed(
    setup: Path, executed: list[dict[str, str]]
) -> None:
    slipped = [
        (e["form"], e["cmd"], status)
        for e in executed
        if (status := _rewrite_status(e["cmd"])) in (0, 3)
    ]
    assert slipped == []
    for entry in executed[::7]:
        kinds = {
            kind for _agent, source, kind in _hook_kinds(entry["cmd"], setup) if source != "none"
        }
        assert not kinds & {"allow_rewrite", "ask_rewrite"}, entry


@pytest.fixture(params=["opencode", "kilo"])
def host_only(
    request: pytest.FixtureRequest,
    isolated_home: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> Iterator[str]:
    """Only the host's own `permission.bash` rules: everything allowed, the bases denied."""
    rules = {"*": "allow", **{f"{d}*": "deny" for d in DENIED}}
    config = Path(os.environ["XDG_CONFIG_HOME"]) / request.param / "opencode.json"
    _write(config, json.dumps({"permission": {"bash": rules}}))
    project = tmp_path / "project"
    project.mkdir()
    monkeypatch.chdir(project)
    yield request.param


def test_opencode_and_kilo_rules_let_no_runner_line_through(
    host_only: str, executed: list[dict[str, str]]
) -> None:
    assert _rewrite_status_for(host_only, "git status") == 0  # the harness can fail
    slipped = []
    for entry in executed:
        with redirect_stdout(io.StringIO()):
            status = rewrite_main.main(["--agent", host_only, entry["cmd"]])
        if status in (0, 3):
            slipped.append((entry["form"], entry["cmd"], status))
    assert slipped == []


def _rewrite_status_for(agent: str, cmd: str) -> int:
    with redirect_stdout(io.StringIO()):
        return rewrite_main.main(["--agent", agent, cmd])
