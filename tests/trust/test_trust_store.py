"""The trust store: content-bound, keyed by canonical path, fail closed."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from rtok import paths, trust


def _project(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    (root / ".rtok" / "rules.d").mkdir(parents=True)
    (root / ".rtok" / "rules.toml").write_text("[pytest]\nmax_lines = 5\n")
    (root / ".rtok" / "rules.d" / "b.toml").write_text("[make]\nhead = 3\n")
    (root / ".rtok" / "rules.d" / "a.toml").write_text("[git]\ntail = 3\n")
    (root / ".rtok" / "rules.d" / "notes.txt").write_text("not a rule file")
    return root


def test_untrusted_by_default_and_trusted_after_trust(tmp_path: Path) -> None:
    root = _project(tmp_path)
    rules = root / ".rtok" / "rules.toml"
    assert not trust.is_trusted(str(rules))
    entry = trust.trust_bytes(str(rules), rules.read_bytes())
    assert trust.is_trusted(str(rules))
    assert entry["scope"] == "project"
    stored = json.loads(Path(paths.trust_store()).read_text())
    assert stored["version"] == 1
    assert stored["trusted"][os.path.realpath(rules)]["sha256"] == trust.sha256_hex(
        rules.read_bytes()
    )


def test_any_edit_revokes_trust(tmp_path: Path) -> None:
    rules = _project(tmp_path) / ".rtok" / "rules.toml"
    trust.trust_bytes(str(rules), rules.read_bytes())
    rules.write_bytes(rules.read_bytes() + b"\n")
    assert not trust.is_trusted(str(rules))
    assert trust.trust_state(str(rules)) == "modified"


def test_stored_hash_is_of_the_bytes_shown(tmp_path: Path) -> None:
    rules = _project(tmp_path) / ".rtok" / "rules.toml"
    shown = rules.read_bytes()
    # The file changes between showing and storing: the new bytes were never shown.
    rules.write_text('[pytest]\ndrop = ["."]\n')
    trust.trust_bytes(str(rules), shown)
    assert not trust.is_trusted(str(rules))
    rules.write_bytes(shown)
    assert trust.is_trusted(str(rules))


def test_symlinked_rule_file_is_keyed_by_target(tmp_path: Path) -> None:
    root = _project(tmp_path)
    target = tmp_path / "dotfiles" / "rules.toml"
    target.parent.mkdir()
    target.write_text("[ls]\nmax_lines = 20\n")
    link = root / ".rtok" / "rules.toml"
    link.unlink()
    link.symlink_to(target)
    trust.trust_bytes(str(link), link.read_bytes())
    stored = json.loads(Path(paths.trust_store()).read_text())["trusted"]
    assert list(stored) == [os.path.realpath(target)]
    assert str(link) not in stored
    assert trust.is_trusted(str(target))
    assert trust.is_trusted(str(link))


def test_untrust_removes_entry(tmp_path: Path) -> None:
    rules = _project(tmp_path) / ".rtok" / "rules.toml"
    trust.trust_bytes(str(rules), rules.read_bytes())
    assert trust.untrust(str(rules))
    assert not trust.is_trusted(str(rules))
    assert not trust.untrust(str(rules))


def test_corrupt_store_means_untrusted_with_one_warning(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rules = _project(tmp_path) / ".rtok" / "rules.toml"
    trust.trust_bytes(str(rules), rules.read_bytes())
    Path(paths.trust_store()).write_text("{not json")
    trust._warned.clear()
    assert not trust.is_trusted(str(rules))
    assert not trust.is_trusted(str(rules))
    err = capsys.readouterr().err
    assert err.count("trust store") == 1
    # Writers refuse to overwrite a corrupt store instead of silently dropping it.
    with pytest.raises(trust.TrustStoreError):
        trust.trust_bytes(str(rules), rules.read_bytes())
    assert Path(paths.trust_store()).read_text() == "{not json"


def test_gated_rule_files_in_layer_order(tmp_path: Path) -> None:
    root = _project(tmp_path)
    user_rules = Path(paths.user_rules_file())
    user_rules.parent.mkdir(parents=True)
    user_rules.write_text("[cat]\nmax_lines = 9\n")
    (Path(paths.user_rules_dir())).mkdir()
    (Path(paths.user_rules_dir()) / "z.toml").write_text("[rg]\nhead = 2\n")
    sub = root / "src" / "deep"
    sub.mkdir(parents=True)
    found = trust.gated_rule_files(str(sub))
    assert found == [
        str(user_rules),
        str(Path(paths.user_rules_dir()) / "z.toml"),
        str(root / ".rtok" / "rules.toml"),
        str(root / ".rtok" / "rules.d" / "a.toml"),
        str(root / ".rtok" / "rules.d" / "b.toml"),
    ]
    assert trust.scope_of(str(user_rules)) == "user"
    trust.trust_bytes(str(user_rules), user_rules.read_bytes())
    assert str(user_rules) not in trust.untrusted_rule_files(str(sub))
    assert len(trust.untrusted_rule_files(str(sub))) == 4


def test_git_top_level_is_project_root(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    (repo / "pkg").mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    assert trust.project_root(str(repo / "pkg")) == str(repo)
    assert trust.project_rule_files(str(repo / "pkg")) == []


def test_nothing_inside_a_project_can_trust_it(tmp_path: Path) -> None:
    root = _project(tmp_path)
    rules = root / ".rtok" / "rules.toml"
    # A project may ship anything that looks like a trust store or config: none of it counts.
    fake_store = {
        "version": 1,
        "trusted": {
            str(os.path.realpath(rules)): {
                "sha256": trust.sha256_hex(rules.read_bytes()),
                "trusted_at": "x",
                "scope": "project",
            }
        },
    }
    for name in ("trusted.json", "trust.json"):
        (root / ".rtok" / name).write_text(json.dumps(fake_store))
    (root / ".rtok" / "config.toml").write_text("[trust]\ntrust_project_rules = true\n")
    (root / ".envrc").write_text("export RTOK_TRUST_PROJECT_RULES=1\n")
    assert not trust.is_trusted(str(rules))
    assert trust.untrusted_rule_files(str(root)) == trust.gated_rule_files(str(root))
    # The store lives outside the project.
    assert not os.path.realpath(paths.trust_store()).startswith(str(root))


def _probe(env: dict[str, str], rules: Path, tty: bool = False) -> subprocess.CompletedProcess[str]:
    code = "import sys; from rtok import trust; print(trust.is_trusted(sys.argv[1]))"
    full = {**os.environ, **env}
    if tty:
        # `script` gives the child a real terminal on stdin and stdout.
        return subprocess.run(
            ["script", "-qec", f"{sys.executable} -c '{code}' {rules}", "/dev/null"],
            capture_output=True,
            text=True,
            env=full,
            timeout=30,
            stdin=subprocess.DEVNULL,
        )
    return subprocess.run(
        [sys.executable, "-c", code, str(rules)],
        capture_output=True,
        text=True,
        env=full,
        timeout=30,
        stdin=subprocess.DEVNULL,
    )


def test_env_override_only_in_ci_without_terminal(tmp_path: Path) -> None:
    rules = _project(tmp_path) / ".rtok" / "rules.toml"
    outside_ci = _probe({"RTOK_TRUST_PROJECT_RULES": "1"}, rules)
    assert outside_ci.stdout.strip() == "False"
    assert "RTOK_TRUST_PROJECT_RULES=1 ignored" in outside_ci.stderr
    in_ci = _probe({"RTOK_TRUST_PROJECT_RULES": "1", "GITHUB_ACTIONS": "true"}, rules)
    assert in_ci.stdout.strip() == "True"
    assert in_ci.stderr == ""


def test_env_override_ignored_on_a_terminal(tmp_path: Path) -> None:
    if not os.path.exists("/usr/bin/script"):
        pytest.fail("util-linux `script` is required to give the probe a terminal")
    rules = _project(tmp_path) / ".rtok" / "rules.toml"
    result = _probe({"RTOK_TRUST_PROJECT_RULES": "1", "CI": "1"}, rules, tty=True)
    assert "False" in result.stdout
    assert "terminal" in result.stdout + result.stderr


def test_trust_module_stays_stdlib_only() -> None:
    code = (
        "import sys; import rtok.trust as t; t.is_trusted('/nonexistent'); "
        "bad = [m for m in ('filelock', 'typing', 'dataclasses', 'tomllib') "
        "if m in sys.modules]; print(bad)"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=30, check=True
    )
    assert result.stdout.strip() == "[]"


def _trust_worker(args: tuple[str, str]) -> None:
    base, path = args
    os.environ["XDG_DATA_HOME"] = base
    with open(path, "rb") as handle:
        trust.trust_bytes(path, handle.read())


def test_concurrent_trusts_lose_no_entry(tmp_path: Path) -> None:
    import multiprocessing

    files = []
    for i in range(12):
        path = tmp_path / f"r{i}.toml"
        path.write_text(f"[tool{i}]\nmax_lines = {20 + i}\n")
        files.append(str(path))
    ctx = multiprocessing.get_context("spawn")
    with ctx.Pool(4) as pool:
        pool.map(_trust_worker, [(os.environ["XDG_DATA_HOME"], f) for f in files], chunksize=1)
    assert all(trust.is_trusted(f) for f in files)
    assert len(trust.load_entries()) == 12
