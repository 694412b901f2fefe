"""`rtok trust` / `rtok untrust` as a user runs them, and the gate the filter applies."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from rtok import paths, trust
from rtok.integrity import rule_review
from rtok_testing import run_rtok

RISKY = b'[git]\nmax_lines = 5\nhead = 2\ntail = 2\ndrop = ["error"]\n\n[mytool]\nhead = 3\n'


def _project(tmp_path: Path, data: bytes = RISKY) -> Path:
    root = tmp_path / "proj"
    (root / ".rtok").mkdir(parents=True)
    (root / ".rtok" / "rules.toml").write_bytes(data)
    return root


def _stored() -> dict[str, dict[str, str]]:
    return dict(json.loads(Path(paths.trust_store()).read_text())["trusted"])


def test_trust_yes_shows_content_and_risks_and_stores_shown_bytes(tmp_path: Path) -> None:
    root = _project(tmp_path)
    result = run_rtok(["trust", "--yes"], cwd=str(root))
    out = result.stdout.decode()
    assert result.returncode == 0, result.stderr
    assert RISKY.decode().rstrip("\n") in out
    assert "replaces the built-in rule of [git]" in out
    assert "drop pattern 'error' matches error lines" in out
    assert "max_lines = 5 shows fewer than 10 lines" in out
    assert "adds rules for [mytool]" in out
    rules = root / ".rtok" / "rules.toml"
    entry = _stored()[os.path.realpath(rules)]
    assert entry["sha256"] == trust.sha256_hex(RISKY)
    assert entry["scope"] == "project"
    assert f"sha256:{entry['sha256'][:16]}" in out


def test_trust_without_terminal_or_yes_trusts_nothing(tmp_path: Path) -> None:
    root = _project(tmp_path)
    result = run_rtok(["trust"], cwd=str(root))
    assert result.returncode == 1
    assert "--yes" in result.stderr.decode()
    assert not os.path.exists(paths.trust_store())


def test_trust_missing_path_is_usage_error(tmp_path: Path) -> None:
    result = run_rtok(["trust", str(tmp_path / "nope.toml")])
    assert result.returncode == 2
    assert "no such file" in result.stderr.decode()
    assert not os.path.exists(paths.trust_store())


def test_list_and_untrust(tmp_path: Path) -> None:
    root = _project(tmp_path)
    assert run_rtok(["trust", "--yes"], cwd=str(root)).returncode == 0
    listed = run_rtok(["trust", "--list"], cwd=str(root)).stdout.decode()
    assert f"trusted   {root / '.rtok' / 'rules.toml'}" in listed
    (root / ".rtok" / "rules.toml").write_bytes(RISKY + b"# edit\n")
    listed = run_rtok(["trust", "--list"], cwd=str(root)).stdout.decode()
    assert f"modified  {root / '.rtok' / 'rules.toml'}" in listed
    result = run_rtok(["untrust", str(root / ".rtok" / "rules.toml")], cwd=str(root))
    assert result.returncode == 0 and "trust revoked" in result.stdout.decode()
    assert _stored() == {}


def test_offer_trust_stores_bytes_read_once(tmp_path: Path) -> None:
    root = _project(tmp_path)
    rules = root / ".rtok" / "rules.toml"
    shown: list[str] = []

    def confirm(_question: str) -> bool:
        # The file changes while the user reads it; the trusted hash stays the shown one.
        rules.write_bytes(b'[git]\ndrop = [".*"]\n')
        return True

    outcome = rule_review.offer_trust(
        [str(rules)], decision=None, echo=shown.append, confirm=confirm
    )
    assert outcome.trusted == [str(rules)]
    assert RISKY.decode().rstrip("\n") in "\n".join(shown)
    assert not trust.is_trusted(str(rules))
    rules.write_bytes(RISKY)
    assert trust.is_trusted(str(rules))


def test_init_flow_without_terminal_declines(tmp_path: Path) -> None:
    root = _project(tmp_path)
    said: list[str] = []
    outcome = rule_review.offer_trust_for_project(str(root), decision=None, echo=said.append)
    assert outcome.declined == [str(root / ".rtok" / "rules.toml")]
    assert outcome.trusted == []
    assert any("rtok trust" in line for line in said)
    outcome = rule_review.offer_trust_for_project(str(root), decision=True, echo=said.append)
    assert outcome.trusted == [str(root / ".rtok" / "rules.toml")]


def test_shadowed_family_is_reported(tmp_path: Path) -> None:
    root = _project(tmp_path, b"[mytool]\nmax_lines = 30\n")
    user = Path(paths.user_rules_file())
    user.parent.mkdir(parents=True)
    user.write_bytes(b"[mytool]\nmax_lines = 50\n")
    project_file = str(root / ".rtok" / "rules.toml")
    earlier = rule_review.earlier_layers(str(root))(project_file)
    review = rule_review.review_file(project_file, earlier)
    assert any(
        "[mytool] shadows the rule in" in risk and str(user) in risk for risk in review.risks
    )


def test_catch_all_and_malformed(tmp_path: Path) -> None:
    review = rule_review.review_bytes(str(tmp_path / "r.toml"), b'[ls]\ndrop = [".*"]\n')
    assert any("matches every line" in risk for risk in review.risks)
    broken = rule_review.review_bytes(str(tmp_path / "r.toml"), b"[ls\n")
    assert broken.parse_error is not None
    assert any("malformed" in risk for risk in broken.risks)


def _resolved_max_lines(cwd: Path) -> int:
    code = (
        "import sys; from rtok.filter.layers import resolve_rule; "
        "print(resolve_rule('mytool', sys.argv[1]).max_lines)"
    )
    result = subprocess.run(
        [sys.executable, "-c", code, str(cwd)],
        capture_output=True,
        text=True,
        timeout=30,
        check=True,
    )
    return int(result.stdout.strip())


def test_file_edited_after_trust_is_not_applied_by_the_rule_layers(tmp_path: Path) -> None:
    root = _project(tmp_path, b"[mytool]\nmax_lines = 12\nhead = 1\ntail = 1\n")
    assert _resolved_max_lines(root) == 40  # untrusted: the default rule
    assert run_rtok(["trust", "--yes"], cwd=str(root)).returncode == 0
    assert _resolved_max_lines(root) == 12
    rules = root / ".rtok" / "rules.toml"
    rules.write_bytes(rules.read_bytes().replace(b"12", b"13"))
    assert _resolved_max_lines(root) == 40


def _filter_available() -> bool:
    try:
        import rtok.filter.filter_main  # noqa: F401
    except ImportError:
        return False
    return True


@pytest.mark.skipif(not _filter_available(), reason="`rtok filter` has not landed yet")
def test_file_edited_after_trust_is_not_applied_by_rtok_filter(tmp_path: Path) -> None:
    root = _project(tmp_path, b'[mytool]\nmax_lines = 100\nhead = 2\ntail = 2\ndrop = ["^noise"]\n')
    body = "".join(f"noise {i}\nkeep {i}\n" for i in range(30)).encode()

    def shown() -> str:
        result = run_rtok(["filter", "--stdin", "--cmd", "mytool run"], input=body, cwd=str(root))
        assert result.returncode == 0, result.stderr
        return result.stdout.decode()

    assert "noise 5" in shown() or "noise 29" in shown()  # untrusted: drop not applied
    assert run_rtok(["trust", "--yes"], cwd=str(root)).returncode == 0
    trusted_out = shown()
    assert "noise" not in trusted_out.split("[rtok")[0]
    rules = root / ".rtok" / "rules.toml"
    rules.write_bytes(rules.read_bytes() + b"# edited\n")
    assert shown() != trusted_out


def test_corrupt_store_is_reported_by_list_and_verify(tmp_path: Path) -> None:
    root = _project(tmp_path)
    store = Path(paths.trust_store())
    store.parent.mkdir(parents=True)
    store.write_text("{oops")
    listed = run_rtok(["trust", "--list"], cwd=str(root))
    assert listed.returncode == 1
    assert "unreadable" in listed.stderr.decode()
    verified = run_rtok(["verify", "--json"], cwd=str(root))
    items = json.loads(verified.stdout)["items"]
    assert any(i["check"] == "records" and i["path"] == str(store) for i in items)
    assert verified.returncode == 1
    assert store.read_text() == "{oops"  # never rewritten behind the user's back


def test_oversized_file_is_not_reviewed_or_trusted(tmp_path: Path) -> None:
    root = _project(tmp_path, b"# " + b"x" * (rule_review.MAX_REVIEW_BYTES + 10) + b"\n")
    result = run_rtok(["trust", "--yes"], cwd=str(root))
    assert result.returncode == 1
    assert "too large to review" in result.stdout.decode()
    assert not os.path.exists(paths.trust_store())


def test_small_cut_and_safe_file(tmp_path: Path) -> None:
    small = rule_review.review_bytes(str(tmp_path / "r.toml"), b"[mytool]\nhead = 2\ntail = 3\n")
    assert any("head + tail = 5" in risk for risk in small.risks)
    safe = rule_review.review_bytes(
        str(tmp_path / "r.toml"), b'[mytool]\nmax_lines = 60\ndrop = ["^DEBUG "]\n'
    )
    assert safe.risks == ()
    assert "no high-risk patterns found" in rule_review.render_review(safe)


def test_trusting_a_symlink_through_the_cli_keys_the_target(tmp_path: Path) -> None:
    root = _project(tmp_path)
    target = tmp_path / "dotfiles" / "team-rules.toml"
    target.parent.mkdir()
    target.write_bytes(b"[mytool]\nmax_lines = 30\n")
    link = root / ".rtok" / "rules.toml"
    link.unlink()
    link.symlink_to(target)
    result = run_rtok(["trust", "--yes"], cwd=str(root))
    assert result.returncode == 0
    assert f"-> {os.path.realpath(target)}" in result.stdout.decode()
    assert list(_stored()) == [os.path.realpath(target)]
    # The same bytes reached through the link or directly are trusted; an edit is not.
    assert trust.is_trusted(str(link)) and trust.is_trusted(str(target))
    target.write_bytes(b"[mytool]\nmax_lines = 31\n")
    assert not trust.is_trusted(str(link))


def test_untrust_without_path_keeps_user_rules(tmp_path: Path) -> None:
    root = _project(tmp_path)
    user = Path(paths.user_rules_file())
    user.parent.mkdir(parents=True)
    user.write_bytes(b"[cat]\nmax_lines = 50\n")
    assert run_rtok(["trust", "--yes"], cwd=str(root)).returncode == 0
    assert len(_stored()) == 2
    result = run_rtok(["untrust"], cwd=str(root))
    assert result.returncode == 0
    assert list(_stored()) == [os.path.realpath(user)]
    assert run_rtok(["untrust", str(user)], cwd=str(root)).returncode == 0
    assert _stored() == {}
