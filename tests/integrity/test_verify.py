"""`rtok verify` against records and files written here (real files, real subprocesses)."""

from __future__ import annotations

import hashlib
import json
import os
import stat
import subprocess
from pathlib import Path

from rtok import __version__, paths
from rtok.integrity import ArtifactRecord, load_records, record_artifacts
from rtok_testing import rtok_entry_point, run_rtok


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _install_file(path: Path, data: bytes, agent: str, kind: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    record_artifacts(
        [
            ArtifactRecord(
                path=str(path),
                agent=agent,
                scope="global",
                project_root=None,
                kind=kind,
                sha256=_sha(data),
                rtok_version=__version__,
            )
        ]
    )


def _verify(*args: str, cwd: Path | None = None) -> tuple[int, dict[str, object]]:
    result = run_rtok(["verify", "--json", *args], cwd=str(cwd) if cwd else None)
    return result.returncode, json.loads(result.stdout)


def _items(doc: dict[str, object]) -> list[dict[str, object]]:
    items = doc["items"]
    assert isinstance(items, list)
    return items


def test_intact_artifact_passes(isolated_home: Path) -> None:
    awareness = isolated_home / ".roo" / "rules" / "rtok.md"
    _install_file(awareness, b"# rtok\nread shortened output\n", "roo", "awareness_file")
    code, doc = _verify(cwd=isolated_home)
    assert code == 0 and doc["ok"] is True
    [item] = _items(doc)
    assert item["status"] == "verified" and item["level"] == "PASS"
    human = run_rtok(["verify"], cwd=str(isolated_home))
    assert human.returncode == 0
    assert human.stdout.decode().startswith("PASS  roo (global) awareness_file")


def test_flipped_byte_is_tampered(isolated_home: Path) -> None:
    awareness = isolated_home / ".roo" / "rules" / "rtok.md"
    original = b"# rtok\nread shortened output\n"
    _install_file(awareness, original, "roo", "awareness_file")
    flipped = bytearray(original)
    flipped[3] ^= 0x20
    awareness.write_bytes(bytes(flipped))
    code, doc = _verify(cwd=isolated_home)
    assert code == 1
    [item] = _items(doc)
    assert item["status"] == "tampered" and item["level"] == "FAIL"
    assert item["expected_sha256"] == _sha(original)
    assert item["actual_sha256"] == _sha(bytes(flipped))
    fix = str(item["fix"])
    assert fix.startswith(f"mv {awareness} {awareness}.changed && ")
    assert fix.endswith(" init --agent roo --auto-patch")
    human = run_rtok(["verify"], cwd=str(isolated_home)).stdout.decode()
    assert human.startswith("FAIL  ") and "tampered" in human
    assert f"(fix: {fix})" in human
    # The fix works as printed, in a shell (no rtok on PATH here: it names rtok's path).
    done = subprocess.run(
        ["/bin/sh", "-c", fix], cwd=isolated_home, capture_output=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    assert _verify(cwd=isolated_home)[0] == 0


def test_deleted_file_is_missing_and_gone_folder_orphaned(isolated_home: Path) -> None:
    plugin = isolated_home / ".config" / "opencode" / "plugins" / "rtok.ts"
    _install_file(plugin, b"export default {}\n", "opencode", "whole_file")
    plugin.unlink()
    code, doc = _verify(cwd=isolated_home)
    assert code == 1
    assert [i["status"] for i in _items(doc)] == ["missing"]
    plugin.parent.rmdir()
    code, doc = _verify(cwd=isolated_home)
    assert [i["status"] for i in _items(doc)] == ["orphaned"]
    pruned = run_rtok(["verify", "--prune"], cwd=str(isolated_home))
    assert "forgot 1 orphaned record(s)" in pruned.stdout.decode()
    assert load_records() == []


def test_unknown_agent_record_is_orphaned(isolated_home: Path) -> None:
    _install_file(isolated_home / "x.md", b"x", "retired-agent", "awareness_file")
    code, doc = _verify(cwd=isolated_home)
    assert code == 1 and _items(doc)[0]["status"] == "orphaned"


def _fake_rtok(path: Path, version: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"#!/bin/sh\necho 'rtok {version}'\n")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return path


def _plugin_naming(isolated_home: Path, binary: Path) -> Path:
    plugin = isolated_home / ".config" / "opencode" / "plugins" / "rtok.ts"
    body = f"const RTOK_BIN = {json.dumps(str(binary))};\nexport default {{}};\n"
    _install_file(plugin, body.encode(), "opencode", "whole_file")
    return plugin


def test_plugin_naming_a_working_rtok_passes(isolated_home: Path) -> None:
    _plugin_naming(isolated_home, Path(rtok_entry_point()))
    code, doc = _verify(cwd=isolated_home)
    hooks = [i for i in _items(doc) if i["check"] == "hook_command"]
    assert [h["status"] for h in hooks] == ["ok"], hooks
    assert hooks[0]["version"] == __version__
    assert code == 0


def test_removed_binary_and_incompatible_version(isolated_home: Path, tmp_path: Path) -> None:
    binary = _fake_rtok(tmp_path / "venv dir" / "bin" / "rtok", "9.0.0")
    _plugin_naming(isolated_home, binary)
    code, doc = _verify(cwd=isolated_home)
    [hook] = [i for i in _items(doc) if i["check"] == "hook_command"]
    assert hook["status"] == "incompatible_version" and code == 1
    os.unlink(binary)
    code, doc = _verify(cwd=isolated_home)
    [hook] = [i for i in _items(doc) if i["check"] == "hook_command"]
    assert hook["status"] == "missing_binary" and hook["rtok_bin"] == str(binary)
    assert code == 1


def test_untrusted_rule_file_warns(isolated_home: Path, tmp_path: Path) -> None:
    project = tmp_path / "proj"
    (project / ".rtok").mkdir(parents=True)
    rules = project / ".rtok" / "rules.toml"
    rules.write_text("[mytool]\nmax_lines = 20\n")
    code, doc = _verify(cwd=project)
    [item] = _items(doc)
    assert item["status"] == "untrusted" and item["level"] == "WARN" and code == 1
    fix = str(item["fix"])
    assert fix.endswith(f" trust {rules}")
    # On a terminal the fix shows the file and asks; --yes is the same answer here.
    done = subprocess.run(
        ["/bin/sh", "-c", fix + " --yes"],
        cwd=project,
        capture_output=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    code, doc = _verify(cwd=project)
    assert [i["status"] for i in _items(doc)] == ["trusted"] and code == 0
    rules.write_text("[mytool]\nmax_lines = 21\n")
    code, doc = _verify(cwd=project)
    assert [i["status"] for i in _items(doc)] == ["modified"] and code == 1


def test_json_schema_is_as_documented(isolated_home: Path) -> None:
    _install_file(isolated_home / ".roo" / "rules" / "rtok.md", b"x\n", "roo", "awareness_file")
    code, doc = _verify(cwd=isolated_home)
    documented = Path(__file__).resolve().parents[2] / "docs" / "verify-json.md"
    text = documented.read_text()
    assert set(doc) == {
        "schema",
        "rtok_version",
        "agent",
        "agents",
        "ok",
        "exit_code",
        "summary",
        "items",
    }
    for key in doc:
        assert f'"{key}"' in text, key
    assert doc["schema"] == 1 and doc["exit_code"] == code
    assert doc["summary"] == {"pass": 1, "fail": 0, "warn": 0}
    for item in _items(doc):
        assert len(item) == 15
        for key in item:
            assert f'"{key}"' in text, key
    for status in (
        "verified",
        "tampered",
        "missing",
        "no_baseline",
        "orphaned",
        "missing_binary",
        "incompatible_version",
        "untrusted",
        "modified",
        "partial",
        "host_cannot_parse",
    ):
        assert f"`{status}`" in text


def test_usage_errors_exit_2(isolated_home: Path) -> None:
    assert run_rtok(["verify", "--agent", "nope"]).returncode == 2
    assert run_rtok(["verify", "--bogus"]).returncode == 2
    assert not os.path.exists(paths.integrity_records())


def test_agent_filter(isolated_home: Path) -> None:
    _install_file(isolated_home / ".roo" / "rules" / "rtok.md", b"x\n", "roo", "awareness_file")
    _install_file(isolated_home / ".gemini" / "RTOK.md", b"y\n", "gemini", "awareness_file")
    (isolated_home / ".gemini" / "RTOK.md").write_bytes(b"z\n")
    code, doc = _verify("--agent", "roo", cwd=isolated_home)
    assert code == 0 and doc["agent"] == "roo" and doc["agents"] == ["roo"]
    assert [i["agent"] for i in _items(doc)] == ["roo"]
    code, _doc = _verify(cwd=isolated_home)
    assert code == 1


def test_agent_filter_takes_several_agents(isolated_home: Path) -> None:
    _install_file(isolated_home / ".roo" / "rules" / "rtok.md", b"x\n", "roo", "awareness_file")
    _install_file(isolated_home / ".gemini" / "RTOK.md", b"y\n", "gemini", "awareness_file")
    _install_file(isolated_home / ".cline" / "rtok.md", b"w\n", "cline", "awareness_file")
    (isolated_home / ".gemini" / "RTOK.md").write_bytes(b"z\n")
    code, doc = _verify("--agent", "roo", "--agent", "gemini", "--agent", "roo", cwd=isolated_home)
    assert code == 1 and doc["agent"] is None and doc["agents"] == ["roo", "gemini"]
    assert {i["agent"] for i in _items(doc)} == {"gemini", "roo"}
    _code, doc = _verify("--agent", "roo", "--agent", "cline", cwd=isolated_home)
    assert {i["agent"] for i in _items(doc)} == {"cline", "roo"}
    assert not [i for i in _items(doc) if i["status"] == "tampered"]
    assert run_rtok(["verify", "--agent", "roo", "--agent", "nope"]).returncode == 2


def test_corrupt_records_fail_verify(isolated_home: Path) -> None:
    Path(paths.integrity_records()).parent.mkdir(parents=True)
    Path(paths.integrity_records()).write_text("{broken")
    code, doc = _verify(cwd=isolated_home)
    assert code == 1
    [item] = _items(doc)
    assert item["check"] == "records" and item["status"] == "unreadable"


def test_record_of_a_removed_project_is_orphaned(isolated_home: Path, tmp_path: Path) -> None:
    project = tmp_path / "gone"
    (project / ".roo" / "rules").mkdir(parents=True)
    target = project / ".roo" / "rules" / "rtok.md"
    target.write_bytes(b"x\n")
    record_artifacts(
        [
            ArtifactRecord(
                path=str(target),
                agent="roo",
                scope="project",
                project_root=str(project),
                kind="awareness_file",
                sha256=_sha(b"x\n"),
            )
        ]
    )
    code, doc = _verify(cwd=isolated_home)
    assert code == 0
    import shutil

    shutil.rmtree(project)
    code, doc = _verify(cwd=isolated_home)
    assert [i["status"] for i in _items(doc)] == ["orphaned"] and code == 1
    fix = str(_items(doc)[0]["fix"])
    assert fix.endswith(" verify --prune")
    done = subprocess.run(
        ["/bin/sh", "-c", fix], cwd=isolated_home, capture_output=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    assert _verify(cwd=isolated_home)[0] == 0


def test_trusted_but_malformed_rule_file_warns(isolated_home: Path, tmp_path: Path) -> None:
    project = tmp_path / "proj"
    (project / ".rtok").mkdir(parents=True)
    (project / ".rtok" / "rules.toml").write_text("[mytool]\nmax_lines = 'many'\n")
    assert run_rtok(["trust", "--yes"], cwd=str(project)).returncode == 0
    code, doc = _verify(cwd=project)
    [item] = _items(doc)
    assert item["status"] == "malformed" and item["level"] == "WARN" and code == 1
