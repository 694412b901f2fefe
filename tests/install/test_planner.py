"""Planning: exact changes, consent, previews, and refusals that write nothing."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest
from install_engine_edits import failing_edit, settings_edit, snapshot, whole_file_edit

from rtok.install import diff, planner
from rtok.install.model import FileEdit, InstallContext


def _ctx(home: Path, project_root: str | None = None) -> InstallContext:
    return InstallContext(
        home=str(home), env={}, project_root=project_root, rtok_bin="/opt/rtok/bin/rtok"
    )


def test_a_plan_reads_current_bytes_and_changes_nothing_on_disk(isolated_home: Path) -> None:
    target = isolated_home / "agent"
    target.mkdir()
    (target / "settings.json").write_bytes(b'{"x": 1}')
    before = snapshot(str(isolated_home))
    plan = planner.plan(
        [
            settings_edit(str(target / "settings.json")),
            whole_file_edit(str(target / "a" / "RTOK.md")),
        ],
        _ctx(isolated_home),
    )
    assert snapshot(str(isolated_home)) == before
    actions = {c.path: c.action for c in plan.changes}
    assert actions == {
        str(target / "settings.json"): "modify",
        str(target / "a" / "RTOK.md"): "create",
    }
    created = next(c for c in plan.changes if c.action == "create")
    assert created.new_dirs == (str(target / "a"),)


def test_edits_of_one_file_are_folded_into_one_change(isolated_home: Path) -> None:
    path = str(isolated_home / "AGENTS.md")

    def add(line: bytes) -> Callable[[bytes | None], bytes | None]:
        def transform(cur: bytes | None) -> bytes | None:
            return (cur or b"") + line if line not in (cur or b"") else cur

        return transform

    edits = [
        FileEdit(
            path=path,
            agent=a,
            scope="global",
            kind="reference_line",
            transform=add(f"@{a}\n".encode()),
        )
        for a in ("codex", "kimi")
    ]
    plan = planner.plan(edits, _ctx(isolated_home))
    assert len(plan.changes) == 1 and plan.changes[0].new == b"@codex\n@kimi\n"
    assert {e.agent for e in plan.changes[0].edits} == {"codex", "kimi"}


def test_a_malformed_target_is_refused_with_file_and_line_and_nothing_planned(
    isolated_home: Path,
) -> None:
    good = str(isolated_home / "good.md")
    bad = isolated_home / "settings.json"
    bad.write_bytes(b'{"a": 1,\n  "b": \n')
    with pytest.raises(planner.PlanError) as info:
        planner.plan([whole_file_edit(good), settings_edit(str(bad))], _ctx(isolated_home))
    assert str(bad) in str(info.value) and ":3" in str(info.value)
    with pytest.raises(planner.PlanError) as info:
        planner.plan([failing_edit(str(isolated_home / "x.json"))], _ctx(isolated_home))
    assert "x.json:3: expected a value" in str(info.value)


def test_every_problem_is_reported_at_once(isolated_home: Path) -> None:
    (isolated_home / "dir.json").mkdir()
    (isolated_home / "bad.json").write_bytes(b"{")
    with pytest.raises(planner.PlanError) as info:
        planner.plan(
            [
                settings_edit(str(isolated_home / "dir.json")),
                settings_edit(str(isolated_home / "bad.json")),
            ],
            _ctx(isolated_home),
        )
    assert len(info.value.problems) == 2
    assert "is a directory" in info.value.problems[0]


def test_a_project_link_out_of_the_project_is_refused(isolated_home: Path) -> None:
    project = isolated_home / "proj"
    (project / ".claude").mkdir(parents=True)
    outside = isolated_home / "elsewhere.json"
    outside.write_bytes(b"{}")
    os.symlink(outside, project / ".claude" / "settings.json")
    edit = settings_edit(str(project / ".claude" / "settings.json"), scope="project")
    with pytest.raises(planner.PlanError, match="outside the project"):
        planner.plan([edit], _ctx(isolated_home, str(project)))
    inside = project / "real.json"
    inside.write_bytes(b"{}")
    os.symlink(inside, project / "linked.json")
    plan = planner.plan(
        [settings_edit(str(project / "linked.json"), scope="project")],
        _ctx(isolated_home, str(project)),
    )
    assert plan.changes[0].real_path == str(inside)


def test_a_dangling_link_is_refused(isolated_home: Path) -> None:
    os.symlink(isolated_home / "missing.json", isolated_home / "settings.json")
    with pytest.raises(planner.PlanError, match="missing file or a link loop"):
        planner.plan([settings_edit(str(isolated_home / "settings.json"))], _ctx(isolated_home))


def test_a_parent_that_is_a_file_is_refused(isolated_home: Path) -> None:
    (isolated_home / "blocker").write_bytes(b"")
    with pytest.raises(planner.PlanError, match=r"(?i)not a directory"):
        planner.plan(
            [whole_file_edit(str(isolated_home / "blocker" / "x" / "RTOK.md"))], _ctx(isolated_home)
        )


def test_consent_edits_are_declined_unless_consent_is_given(isolated_home: Path) -> None:
    settings = str(isolated_home / "settings.json")
    edits = [
        settings_edit(settings, needs_consent=True),
        whole_file_edit(str(isolated_home / "RTOK.md")),
    ]
    # Whole (the default): the agent's other file waits with its settings change.
    declined = planner.plan(edits, _ctx(isolated_home), consent=False)
    assert declined.changes == ()
    assert sorted(c.path for c in declined.declined) == sorted(
        [settings, str(isolated_home / "RTOK.md")]
    )
    assert declined.held == (edits[0].agent,)
    partial = planner.plan(edits, _ctx(isolated_home), consent=False, whole=False)
    assert [c.path for c in partial.changes] == [str(isolated_home / "RTOK.md")]
    assert [c.path for c in partial.declined] == [settings]
    assert partial.held == ()
    given = planner.plan(edits, _ctx(isolated_home), consent=True)
    assert len(given.changes) == 2 and not given.declined


def test_the_diff_shows_a_new_file_in_full_and_a_deletion_in_full(isolated_home: Path) -> None:
    path = isolated_home / "RTOK.md"
    created = planner.plan([whole_file_edit(str(path))], _ctx(isolated_home)).changes[0]
    text = diff.unified_diff(created)
    assert "--- /dev/null" in text and f"+++ b{path}" in text
    assert "+# rtok" in text and "+Shortened output" in text
    path.write_bytes(created.new or b"")
    deleted = planner.plan([whole_file_edit(str(path), "uninstall")], _ctx(isolated_home)).changes[
        0
    ]
    text = diff.unified_diff(deleted)
    assert "+++ /dev/null" in text and "-# rtok" in text and "deleted file mode" in text


def test_the_diff_marks_crlf_and_a_missing_final_newline(isolated_home: Path) -> None:
    path = isolated_home / "settings.json"
    path.write_bytes(b'{\r\n  "a": 1\r\n}')
    change = planner.plan([settings_edit(str(path))], _ctx(isolated_home)).changes[0]
    text = diff.unified_diff(change)
    assert '  "a": 1,\\r' in text or '"a": 1\\r' in text
    assert "\\ No newline at end of file" in text


def test_a_read_only_file_is_refused(isolated_home: Path) -> None:
    path = isolated_home / "settings.json"
    path.write_bytes(b"{}\n")
    os.chmod(path, 0o444)
    with pytest.raises(planner.PlanError, match="is read-only"):
        planner.plan([settings_edit(str(path))], _ctx(isolated_home))
    os.chmod(path, 0o644)
    assert planner.plan([settings_edit(str(path))], _ctx(isolated_home)).changes
