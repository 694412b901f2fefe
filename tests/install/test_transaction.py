"""The installer engine on real files: plan, apply, idempotence, backups, rollback, links."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from install_engine_edits import RTOK_ENTRY, settings_edit, snapshot, whole_file_edit

from rtok import paths
from rtok.install import fsio, planner, state, transaction
from rtok.install.model import InstallContext

USER_JSONC = (
    b'// my settings\n{\n\t"theme": "dark", // keep\n\t"hooks": [\n\t\t{"type": "command", '
    b'"command": "mine"},\n\t],\n}'
)


def _ctx(home: Path, project_root: str | None = None) -> InstallContext:
    return InstallContext(
        home=str(home),
        env=dict(os.environ),
        project_root=project_root,
        rtok_bin="/opt/rtok/bin/rtok",
        created_by_rtok=lambda p: state.load().created(p),
    )


def _install(home: Path, target_dir: Path) -> transaction.ApplyResult:
    edits = [
        settings_edit(str(target_dir / "settings.json")),
        whole_file_edit(str(target_dir / "sub" / "deeper" / "RTOK.md")),
    ]
    return transaction.apply(planner.plan(edits, _ctx(home)))


def _uninstall(home: Path, target_dir: Path) -> transaction.ApplyResult:
    ctx = _ctx(home)
    edits = [
        settings_edit(
            str(target_dir / "settings.json"), "uninstall", created_by_rtok=ctx.created_by_rtok
        ),
        whole_file_edit(str(target_dir / "sub" / "deeper" / "RTOK.md"), "uninstall"),
    ]
    return transaction.apply(planner.plan(edits, ctx), action="uninstall")


def test_install_twice_writes_nothing_the_second_time(isolated_home: Path) -> None:
    target = isolated_home / "agent"
    target.mkdir()
    (target / "settings.json").write_bytes(USER_JSONC)
    first = _install(isolated_home, target)
    assert {c.action for c in first.applied} == {"modify", "create"}
    settings = (target / "settings.json").read_bytes()
    assert b"// keep" in settings and b'"command": "mine"' in settings
    assert json.dumps(RTOK_ENTRY)[1:-1].split(",")[0] in settings.decode()
    before = snapshot(str(target))
    second = _install(isolated_home, target)
    assert second.applied == [] and second.backups == []
    assert snapshot(str(target)) == before


def test_uninstall_gives_back_bytes_and_removes_what_rtok_created(isolated_home: Path) -> None:
    target = isolated_home / "agent"
    target.mkdir()
    (target / "settings.json").write_bytes(USER_JSONC)
    os.chmod(target / "settings.json", 0o600)
    _install(isolated_home, target)
    assert (target / "sub" / "deeper" / "RTOK.md").exists()
    assert os.stat(target / "settings.json").st_mode & 0o777 == 0o600
    assert state.load().created(str(target / "sub"))
    result = _uninstall(isolated_home, target)
    assert (target / "settings.json").read_bytes() == USER_JSONC
    assert os.stat(target / "settings.json").st_mode & 0o777 == 0o600
    assert not (target / "sub").exists()  # both directories rtok made are gone
    assert sorted(result.removed_dirs) == sorted(
        [str(target / "sub" / "deeper"), str(target / "sub")]
    )
    assert not state.load().created(str(target / "sub"))


def test_a_file_rtok_created_is_deleted_on_uninstall(isolated_home: Path) -> None:
    target = isolated_home / "fresh"
    _install(isolated_home, target)
    assert state.load().created(str(target / "settings.json"))
    _uninstall(isolated_home, target)
    assert not target.exists()


def test_a_user_directory_is_kept_when_rtok_did_not_create_it(isolated_home: Path) -> None:
    target = isolated_home / "agent"
    (target / "sub").mkdir(parents=True)
    _install(isolated_home, target)
    _uninstall(isolated_home, target)
    assert (target / "sub").is_dir() and not (target / "sub" / "deeper").exists()


def test_every_run_keeps_its_own_backups(isolated_home: Path) -> None:
    target = isolated_home / "agent"
    target.mkdir()
    (target / "settings.json").write_bytes(USER_JSONC)
    first = _install(isolated_home, target)
    _uninstall(isolated_home, target)
    third = _install(isolated_home, target)
    assert len(first.backups) == 1 and len(third.backups) == 1
    first_backup, third_backup = first.backups[0][1], third.backups[0][1]
    assert first_backup != third_backup
    assert Path(first_backup).read_bytes() == USER_JSONC
    assert Path(third_backup).read_bytes() == USER_JSONC
    assert first_backup.startswith(paths.backups_dir())
    manifest = json.loads((Path(first_backup).parent / "manifest.json").read_text())
    assert list(manifest["files"].values()) == [str(target / "settings.json")]


def test_a_failed_step_restores_the_files_already_written(
    isolated_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = isolated_home / "agent"
    target.mkdir()
    (target / "settings.json").write_bytes(USER_JSONC)
    (target / "other.json").write_bytes(b"{}\n")
    edits = [
        settings_edit(str(target / "settings.json")),
        settings_edit(str(target / "other.json")),
        whole_file_edit(str(target / "new" / "RTOK.md")),
    ]
    plan = planner.plan(edits, _ctx(isolated_home))
    before = snapshot(str(target))
    real_replace = os.replace

    def failing_replace(src: str, dst: str) -> None:
        if dst.endswith("other.json"):
            raise OSError(28, "No space left on device", dst)
        real_replace(src, dst)

    monkeypatch.setattr(fsio.os, "replace", failing_replace)
    with pytest.raises(transaction.TransactionError) as info:
        transaction.apply(plan)
    monkeypatch.setattr(fsio.os, "replace", real_replace)
    assert "No space left on device" in str(info.value)
    assert "restored" in str(info.value)
    after = snapshot(str(target))
    assert {p: v[0] for p, v in after.items()} == {p: v[0] for p, v in before.items()}
    assert not (target / "new").exists()
    assert not state.load().created(str(target / "new"))
    assert [n for n in os.listdir(target) if fsio.TEMP_MARKER in n] == []


def test_strict_apply_refuses_a_file_changed_after_the_preview(isolated_home: Path) -> None:
    target = isolated_home / "agent"
    target.mkdir()
    (target / "settings.json").write_bytes(b'{"a": 1}\n')
    plan = planner.plan(
        [settings_edit(str(target / "settings.json")), whole_file_edit(str(target / "RTOK.md"))],
        _ctx(isolated_home),
    )
    (target / "settings.json").write_bytes(b'{"a": 1, "b": 2}\n')
    with pytest.raises(transaction.StaleTargetError):
        transaction.apply(plan, strict=True)
    assert (target / "settings.json").read_bytes() == b'{"a": 1, "b": 2}\n'
    assert not (target / "RTOK.md").exists()


def test_non_strict_apply_replans_on_the_new_bytes_and_keeps_the_users_key(
    isolated_home: Path,
) -> None:
    target = isolated_home / "agent"
    target.mkdir()
    (target / "settings.json").write_bytes(b'{"a": 1}\n')
    plan = planner.plan([settings_edit(str(target / "settings.json"))], _ctx(isolated_home))
    (target / "settings.json").write_bytes(b'{"a": 1, "b": 2}\n')
    result = transaction.apply(plan)
    assert result.replanned == [str(target / "settings.json")]
    value = json.loads((target / "settings.json").read_bytes())
    assert value["b"] == 2 and value["hooks"] == [RTOK_ENTRY]


def test_a_symlink_is_kept_and_its_target_is_written(isolated_home: Path) -> None:
    dotfiles = isolated_home / "dotfiles"
    dotfiles.mkdir()
    (dotfiles / "settings.json").write_bytes(b"{}\n")
    agent = isolated_home / "agent"
    agent.mkdir()
    os.symlink(dotfiles / "settings.json", agent / "settings.json")
    transaction.apply(
        planner.plan([settings_edit(str(agent / "settings.json"))], _ctx(isolated_home))
    )
    assert os.path.islink(agent / "settings.json")
    assert json.loads((dotfiles / "settings.json").read_bytes())["hooks"] == [RTOK_ENTRY]
    assert [n for n in os.listdir(dotfiles) if fsio.TEMP_MARKER in n] == []


def test_a_new_hook_script_gets_its_mode_and_an_existing_file_keeps_its_own(
    isolated_home: Path,
) -> None:
    target = isolated_home / "agent"
    target.mkdir()
    (target / "kept.md").write_bytes(b"old\n")
    os.chmod(target / "kept.md", 0o640)
    transaction.apply(
        planner.plan(
            [
                whole_file_edit(str(target / "hook.sh"), mode=0o755),
                whole_file_edit(str(target / "kept.md")),
            ],
            _ctx(isolated_home),
        )
    )
    assert os.stat(target / "hook.sh").st_mode & 0o777 == 0o755
    assert os.stat(target / "kept.md").st_mode & 0o777 == 0o640


def test_temp_files_of_a_killed_run_are_swept(isolated_home: Path) -> None:
    target = isolated_home / "agent"
    target.mkdir()
    dead = target / f".settings.json{fsio.TEMP_MARKER}999999999.abcd1234"
    dead.write_bytes(b"half")
    result = transaction.apply(
        planner.plan([settings_edit(str(target / "settings.json"))], _ctx(isolated_home))
    )
    assert not dead.exists() and result.removed_temps == [str(dead)]


def test_state_records_survive_reload_and_a_corrupt_state_is_reported(
    isolated_home: Path,
) -> None:
    state.update(add_files=[str(isolated_home / "a")], add_dirs=[str(isolated_home / "d")])
    assert state.load().created(str(isolated_home / "a"))
    state.update(remove_files=[str(isolated_home / "a")])
    assert not state.load().created(str(isolated_home / "a"))
    assert state.load().created(str(isolated_home / "d"))
    Path(state.state_file()).write_text("{not json")
    with pytest.raises(state.StateError, match=r"install-state\.json"):
        state.load()


@pytest.mark.skipif(os.geteuid() != 0, reason="changing a file's owner needs root")
def test_a_file_of_another_user_keeps_its_owner(isolated_home: Path) -> None:
    target = isolated_home / "agent"
    target.mkdir()
    (target / "settings.json").write_bytes(b"{}\n")
    os.chown(target / "settings.json", 65534, 65534)
    transaction.apply(
        planner.plan([settings_edit(str(target / "settings.json"))], _ctx(isolated_home))
    )
    st = os.stat(target / "settings.json")
    assert (st.st_uid, st.st_gid) == (65534, 65534)
    assert b"hook test" in (target / "settings.json").read_bytes()


def test_integrity_records_follow_install_and_uninstall(isolated_home: Path) -> None:
    from rtok import integrity

    target = isolated_home / "agent"
    target.mkdir()
    (target / "settings.json").write_bytes(USER_JSONC)
    _install(isolated_home, target)
    recorded = {(r.path, r.kind) for r in integrity.load_records()}
    assert recorded == {
        (str(target / "settings.json"), "settings_entry"),
        (str(target / "sub" / "deeper" / "RTOK.md"), "awareness_file"),
    }
    records_file = Path(paths.integrity_records())
    records_file.unlink()
    _install(isolated_home, target)  # nothing to write, but the lost records come back
    assert {(r.path, r.kind) for r in integrity.load_records()} == recorded
    stamp = records_file.stat().st_mtime_ns
    _install(isolated_home, target)
    assert records_file.stat().st_mtime_ns == stamp  # unchanged records are not rewritten
    _uninstall(isolated_home, target)
    assert integrity.load_records() == []


def test_a_hook_script_that_lost_its_exec_bit_gets_it_back(isolated_home: Path) -> None:
    script = isolated_home / "hook.sh"
    edit = whole_file_edit(str(script), mode=0o755)
    from dataclasses import replace

    edit = replace(edit, kind="whole_file")
    transaction.apply(planner.plan([edit], _ctx(isolated_home)))
    os.chmod(script, 0o640)
    plan = planner.plan([edit], _ctx(isolated_home))
    assert [c.action for c in plan.changes] == ["chmod"]
    transaction.apply(plan)
    assert os.stat(script).st_mode & 0o777 == 0o750
    assert planner.plan([edit], _ctx(isolated_home)).changes == ()


def test_a_file_in_place_at_planning_is_rechecked_so_the_run_stays_whole(
    isolated_home: Path,
) -> None:
    """Run B plans while run A is half-way (A's settings written, A's RTOK.md not yet);
    when B applies after A, it must undo RTOK.md too, not only what it saw."""
    target = isolated_home / "agent"
    target.mkdir()
    settings, awareness = str(target / "settings.json"), str(target / "RTOK.md")
    transaction.apply(planner.plan([settings_edit(settings)], _ctx(isolated_home)))
    ctx = _ctx(isolated_home)
    uninstall = planner.plan(
        [
            settings_edit(settings, "uninstall", created_by_rtok=ctx.created_by_rtok),
            whole_file_edit(awareness, "uninstall"),
        ],
        ctx,
    )
    assert [c.path for c in uninstall.changes] == [settings]
    transaction.apply(planner.plan([whole_file_edit(awareness)], _ctx(isolated_home)))
    result = transaction.apply(uninstall, action="uninstall")
    assert awareness in result.replanned
    assert not os.path.exists(awareness) and not os.path.exists(settings)
