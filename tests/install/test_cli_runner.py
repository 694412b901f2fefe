"""The init/uninstall runner in-process, with a test integration: prompts, consent, kept
files, exit statuses."""

from __future__ import annotations

import dataclasses
import io
import os
from pathlib import Path

import pytest

from rtok.install import context, runner
from rtok.install.options import InitOptions


@pytest.fixture(autouse=True)
def _test_integration(monkeypatch: pytest.MonkeyPatch) -> None:
    import install_test_integration

    monkeypatch.setattr(context, "ACTIVE_INTEGRATIONS", install_test_integration)


def _run(
    opts: InitOptions,
    *,
    choose: runner.Choose | None = None,
    confirm: runner.Confirm | None = None,
) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = runner.run(opts, out, err, choose=choose, confirm=confirm)
    return code, out.getvalue(), err.getvalue()


def _saying_yes(asked: list[str]) -> runner.Confirm:
    """A confirm prompt that records each question in `asked` and answers yes."""

    def confirm(question: str) -> bool:
        asked.append(question)
        return True

    return confirm


def test_interactive_choice_preview_and_one_confirmation(isolated_home: Path) -> None:
    asked: list[str] = []

    def confirm(question: str) -> bool:
        asked.append(question)
        return True

    opts = InitOptions(cwd=str(isolated_home), interactive=True)
    code, out, _ = _run(opts, choose=lambda o, d: (["test"], True), confirm=confirm)
    assert code == 0
    assert len(asked) == 1 and "2 change(s)" in asked[0]
    assert "+++ ~/" in out  # the full diff was shown before the question
    # The confirmation is the consent: the shared settings file was patched too.
    assert (isolated_home / ".testagent" / "settings.json").exists()


def test_the_runner_leaves_the_callers_options_as_they_were(isolated_home: Path) -> None:
    """The agents and scope chosen at the prompt, and --check's dry run, go into a copy."""
    opts = InitOptions(cwd=str(isolated_home), interactive=True)
    before = dataclasses.replace(opts)
    code, _, _ = _run(opts, choose=lambda o, d: (["test"], True), confirm=lambda q: False)
    assert code == 1 and opts == before
    check = InitOptions(agents=["test"], global_scope=True, check=True, cwd=str(isolated_home))
    before = dataclasses.replace(check)
    code, out, err = _run(check)
    assert code == 1, out + err  # changes pending, none written
    assert check == before and not (isolated_home / ".testagent").exists()


def test_interactive_refusal_writes_nothing(isolated_home: Path) -> None:
    opts = InitOptions(cwd=str(isolated_home), interactive=True)
    code, _, err = _run(opts, choose=lambda o, d: (["test"], True), confirm=lambda q: False)
    assert code == 1 and "nothing written" in err
    assert not (isolated_home / ".testagent").exists()


def test_a_modified_rtok_file_is_kept_on_uninstall_with_status_3(isolated_home: Path) -> None:
    opts = InitOptions(agents=["test"], global_scope=True, patch=True, cwd=str(isolated_home))
    assert _run(opts)[0] == 0
    rtok_md = isolated_home / ".testagent" / "RTOK.md"
    rtok_md.write_bytes(rtok_md.read_bytes() + b"my own line\n")
    opts.uninstall = True
    code, out, err = _run(opts)
    assert code == 3, out + err
    assert "kept" in out and rtok_md.exists()
    assert not (isolated_home / ".testagent" / "settings.json").exists()


def test_uninstall_all_finds_the_installed_agents(isolated_home: Path) -> None:
    opts = InitOptions(agents=["test"], global_scope=True, patch=True, cwd=str(isolated_home))
    assert _run(opts)[0] == 0
    everything = InitOptions(
        all_agents=True, global_scope=True, patch=True, uninstall=True, cwd=str(isolated_home)
    )
    code, out, err = _run(everything)
    assert code == 0, out + err
    assert not (isolated_home / ".testagent").exists()
    code, out, _ = _run(everything)
    assert code == 0


def test_check_json_reports_pending_changes(isolated_home: Path) -> None:
    import json

    opts = InitOptions(
        agents=["test"], global_scope=True, check=True, json=True, cwd=str(isolated_home)
    )
    code, out, _ = _run(opts)
    document = json.loads(out)
    assert code == 1 and document["exit_code"] == 1
    # Without consent for its settings file the agent gets nothing: both wait.
    assert document["changes"] == []
    assert sorted(c["needs_consent"] for c in document["declined"]) == [False, True]


def test_trust_filters_trusts_the_projects_rule_file_only_when_asked(
    isolated_home: Path, tmp_path: Path
) -> None:
    from rtok import trust

    project = tmp_path / "proj"
    (project / ".git").mkdir(parents=True)
    (project / ".rtok").mkdir()
    rules = project / ".rtok" / "rules.toml"
    rules.write_text("# project rules\n")
    opts = InitOptions(agents=["test"], patch=True, cwd=str(project))
    code, _, err = _run(opts)
    assert code == 0 and "rtok trust" in err and str(rules) in err
    assert not trust.is_trusted(str(rules))
    opts = InitOptions(agents=["test"], patch=True, cwd=str(project), trust_filters=True)
    code, _, err = _run(opts)
    assert code == 0 and f"trusted {rules}" in err
    assert trust.is_trusted(str(rules))


def test_on_a_terminal_a_named_agent_is_confirmed_once_and_that_is_consent(
    isolated_home: Path,
) -> None:
    asked: list[str] = []
    opts = InitOptions(agents=["test"], global_scope=True, cwd=str(isolated_home), interactive=True)
    code, out, _ = _run(opts, confirm=_saying_yes(asked))
    assert code == 0 and len(asked) == 1 and "+++ ~/" in out
    assert (isolated_home / ".testagent" / "settings.json").exists()
    # --no-patch on a terminal: no question, shared settings left to the user.
    opts = InitOptions(
        agents=["test"],
        global_scope=True,
        cwd=str(isolated_home),
        interactive=True,
        patch=False,
        uninstall=True,
    )
    code, out, _ = _run(opts, confirm=_saying_yes(asked))
    assert code == 0 and len(asked) == 1
    assert (isolated_home / ".testagent" / "settings.json").exists()
    assert "by hand" in out


def test_a_project_install_in_the_home_directory_is_refused(isolated_home: Path) -> None:
    opts = InitOptions(agents=["test"], patch=True, project_scope=True, cwd=str(isolated_home))
    code, _, err = _run(opts)
    assert code == 2 and "home directory" in err
    assert not (isolated_home / ".testagent").exists()


def test_a_failed_apply_restores_files_and_exits_4(
    isolated_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from rtok.install import fsio

    agent_dir = isolated_home / ".testagent"
    agent_dir.mkdir()
    (agent_dir / "settings.json").write_bytes(b'{"mine": true}\n')
    real_replace = os.replace

    def replace_failing_on_rtok_md(src: str, dst: str) -> None:
        if dst.endswith("RTOK.md"):
            raise OSError(28, "No space left on device", dst)
        real_replace(src, dst)

    monkeypatch.setattr(fsio.os, "replace", replace_failing_on_rtok_md)
    opts = InitOptions(agents=["test"], global_scope=True, patch=True, cwd=str(isolated_home))
    code, _, err = _run(opts)
    assert code == 4, err
    assert "No space left on device" in err and "restored" in err
    assert (agent_dir / "settings.json").read_bytes() == b'{"mine": true}\n'
    assert sorted(os.listdir(agent_dir)) == ["settings.json"]


def test_an_unusable_data_dir_is_a_clear_error(
    isolated_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocker = isolated_home / "not-a-dir"
    blocker.write_bytes(b"")
    monkeypatch.setenv("RTOK_DATA_DIR", str(blocker))
    opts = InitOptions(agents=["test"], global_scope=True, patch=True, cwd=str(isolated_home))
    code, _, err = _run(opts)
    assert code == 4 and "nothing was written" in err and "~/not-a-dir" in err
    assert not (isolated_home / ".testagent").exists()
