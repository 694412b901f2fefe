"""The README agent table is generated from recorded results (no agent needed)."""

from __future__ import annotations

import json
from pathlib import Path

from e2e.agents_table import END, START, main, render_table, replace_block
from e2e.pins import agent_version
from e2e.settings import REPO_ROOT


def write_result(
    folder: Path,
    agent: str,
    kind: str,
    passed: bool,
    version: str,
    failed_check: str = "rewritten: rtok trailer in tool result",
) -> None:
    checks = [{"name": "control: agent called the shell tool", "ok": True, "detail": ""}]
    if not passed:
        checks.append({"name": failed_check, "ok": False, "detail": "raw output"})
    (folder / f"{agent}.{kind}.json").write_text(
        json.dumps(
            {"agent": agent, "kind": kind, "passed": passed, "version": version, "checks": checks}
        )
    )


def row_of(table: str, agent: str) -> str:
    return next(line for line in table.splitlines() if f"| `{agent}` |" in line)


def test_verified_only_for_a_passing_round_trip_of_the_pinned_version(tmp_path: Path) -> None:
    write_result(tmp_path, "claude", "round_trip", True, agent_version("claude"))
    write_result(tmp_path, "codex", "round_trip", True, "0.0.1")  # an older pin
    write_result(tmp_path, "gemini", "round_trip", False, agent_version("gemini"))
    write_result(tmp_path, "gemini", "control", True, agent_version("gemini"))
    table = render_table(REPO_ROOT, str(tmp_path))
    assert f"verified end to end with Claude Code {agent_version('claude')}" in row_of(
        table, "claude"
    )
    assert "verified end to end" not in row_of(table, "codex")
    assert "no result recorded" in row_of(table, "codex")
    gemini = row_of(table, "gemini")
    assert "not verified" in gemini and "rtok trailer" in gemini and "plain run passes" in gemini
    assert "verified end to end" not in row_of(table, "pi")


def test_block_is_added_once_then_replaced_in_place(tmp_path: Path) -> None:
    readme = tmp_path / "README.md"
    readme.write_text("# rtok\n\nIntro.\n")
    results = tmp_path / "results"
    results.mkdir()
    assert main(["--results", str(results), "--readme", str(readme)]) == 0
    first = readme.read_text()
    assert first.startswith("# rtok\n\nIntro.\n") and "## Agents" in first
    assert first.count(START) == 1 and first.count(END) == 1
    assert main(["--results", str(results), "--readme", str(readme), "--check"]) == 0
    write_result(results, "pi", "round_trip", True, agent_version("pi"))
    assert main(["--results", str(results), "--readme", str(readme), "--check"]) == 1
    assert main(["--results", str(results), "--readme", str(readme)]) == 0
    second = readme.read_text()
    assert second.count(START) == 1 and "verified end to end with Pi" in second
    assert replace_block(second, f"{START}\nX\n{END}").count(START) == 1


def test_only_updates_the_named_rows_and_keeps_the_others(tmp_path: Path) -> None:
    readme = tmp_path / "README.md"
    readme.write_text("# rtok\n")
    results = tmp_path / "results"
    results.mkdir()
    write_result(results, "claude", "round_trip", True, agent_version("claude"))
    assert main(["--results", str(results), "--readme", str(readme)]) == 0
    (results / "claude.round_trip.json").unlink()  # another checkout's run, not here
    write_result(results, "kimi", "round_trip", True, agent_version("kimi"))
    assert main(["--results", str(results), "--readme", str(readme), "--only", "kimi"]) == 0
    text = readme.read_text()
    assert "verified end to end with Claude Code" in row_of(text, "claude")
    assert "verified end to end with Kimi Code" in row_of(text, "kimi")
    assert text.count(START) == 1


def test_a_host_condition_from_the_descriptor_is_in_the_row(tmp_path: Path) -> None:
    write_result(tmp_path, "auggie", "round_trip", True, agent_version("auggie"))
    row = row_of(render_table(REPO_ROOT, str(tmp_path)), "auggie")
    assert "verified end to end with Auggie" in row and "enable_hooks" in row


def test_every_descriptor_states_its_proof_and_e2e_only_with_an_e2e_test() -> None:
    """`e2e` is claimed exactly by the agents this tier runs (its own profiles, which
    tests/e2e/test_agents.py is parametrized over), and every other one says `contract`."""
    from e2e.agents import PROFILES
    from e2e.descriptors import load_integrations

    items = load_integrations(REPO_ROOT)
    assert items
    for item in items:
        proof = item.get("proof")
        assert isinstance(proof, dict) and proof.get("kind") in ("e2e", "contract"), item["name"]
        if proof["kind"] == "e2e":
            assert item["name"] in PROFILES, f"{item['name']} claims e2e without an e2e test"
        else:
            assert item["name"] not in PROFILES, f"{item['name']} runs in the tier: say e2e"
            assert proof.get("docs"), f"{item['name']}: a contract names its docs"


def test_the_table_shows_each_proof(tmp_path: Path) -> None:
    table = render_table(REPO_ROOT, str(tmp_path))
    assert "| proof |" in table.splitlines()[3]
    assert f"| e2e (@anthropic-ai/claude-code {agent_version('claude')}) |" in row_of(
        table, "claude"
    )
    assert "| contract (host docs, recorded payloads) |" in row_of(table, "windsurf")


def test_a_kept_row_gets_the_proof_column_and_keeps_its_status(tmp_path: Path) -> None:
    readme = tmp_path / "README.md"
    old = (
        "# rtok\n\n## Agents\n\n" + START + "\n\n| agent | `--agent` | tier | end-to-end "
        "status |\n|---|---|---|---|\n| Claude Code | `claude` | hook | verified end to end "
        "with Claude Code 0.0.1 (user scope; rewritten in place) |\n" + END + "\n"
    )
    readme.write_text(old)
    results = tmp_path / "results"
    results.mkdir()
    assert main(["--results", str(results), "--readme", str(readme), "--only", "kimi"]) == 0
    claude = row_of(readme.read_text(), "claude")
    assert claude.endswith(
        "| verified end to end with Claude Code 0.0.1 (user scope; rewritten in place) |"
    )
    assert "| e2e (" in claude
