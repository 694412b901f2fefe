"""decide(): the one place that turns a verdict and a command into what happens."""

from __future__ import annotations

from pathlib import Path

import pytest

from rtok.rewrite.decision import (
    ALLOW_REWRITE,
    ASK_REWRITE,
    DEFER,
    DENY,
    Decision,
    decide,
    for_hook,
)
from rtok.rewrite.rewriter import Settings

NO_SETTINGS = Settings()


@pytest.mark.parametrize(
    ("cmd", "verdict", "kind", "command"),
    [
        ("git status", "deny", DENY, None),
        ("git status", "defer", DEFER, None),  # deny rule matched inside a sh -c script
        ("git log $(x)", "deny", DENY, None),  # deny is checked before anything else
        ("git log $(x)", "allow", DEFER, None),
        ("git log > out", "default", DEFER, None),
        ("echo hi", "allow", DEFER, None),
        ("git status", "allow", ALLOW_REWRITE, "rtok run git status"),
        ("git status", "ask", ASK_REWRITE, "rtok run git status"),
        ("git status", "default", ASK_REWRITE, "rtok run git status"),
        ("git status", "something-new", ASK_REWRITE, "rtok run git status"),
        ("rtok run git status", "allow", ALLOW_REWRITE, "rtok run git status"),
    ],
)
def test_decide(cmd: str, verdict: str, kind: str, command: str | None) -> None:
    decision = decide(cmd, verdict, settings=NO_SETTINGS)
    assert decision.kind == kind
    assert decision.command == command


def test_default_never_auto_allows() -> None:
    for cmd in ("git status", "cargo test && ls", "FOO=1 make"):
        assert decide(cmd, "default", settings=NO_SETTINGS).kind == ASK_REWRITE


def test_rtok_bin_reaches_the_rewrite() -> None:
    decision = decide("make", "allow", rtok_bin="/usr/local/bin/rtok", settings=NO_SETTINGS)
    assert decision == Decision(ALLOW_REWRITE, "/usr/local/bin/rtok run make")


def test_hooks_treat_an_identity_rewrite_as_defer() -> None:
    cmd = "rtok run git status"
    assert for_hook(decide(cmd, "allow", settings=NO_SETTINGS), cmd).kind == DEFER
    rewritten = decide("git status", "allow", settings=NO_SETTINGS)
    assert for_hook(rewritten, "git status") is rewritten


def test_config_file_exclusions_apply(isolated_home: Path) -> None:
    config = isolated_home / ".config" / "rtok" / "config.toml"
    config.parent.mkdir(parents=True)
    config.write_text('[hooks]\nexclude_commands = ["git push"]\n', encoding="utf-8")
    assert decide("git push", "allow").kind == DEFER
    assert decide("git status", "allow").kind == ALLOW_REWRITE


def test_trusted_families_from_rule_files_are_rewritten_outside_pipelines(
    isolated_home: Path, tmp_path: Path
) -> None:
    from rtok import trust
    from rtok.filter import layers, settings

    settings.reset_cache()  # rule file locations are kept per process; HOME changed
    # A user rule file adds a family for a tool the registry does not know.
    rules = isolated_home / ".config" / "rtok" / "rules.toml"
    rules.parent.mkdir(parents=True, exist_ok=True)
    rules.write_text("[frobtool]\nmax_lines = 50\nhead = 20\ntail = 20\n", encoding="utf-8")
    cwd = str(tmp_path)
    # Untrusted: not rewritten.
    assert decide("frobtool --all", "allow", cwd=cwd).kind == DEFER
    trust.trust_bytes(str(rules), rules.read_bytes())
    found = layers.trusted_families(cwd)
    assert "frobtool" in found, [
        (layer.path, layer.error, layer.trusted, sorted(layer.tables))
        for layer in layers.read_layers(cwd)
    ]
    assert decide("frobtool --all", "allow", cwd=cwd).command == "rtok run frobtool --all"
    assert decide("FOO=1 frobtool", "ask", cwd=cwd).command == "FOO=1 rtok run frobtool"
    # User families are never rewritten inside pipelines, nor through sudo.
    assert decide("frobtool --all | head", "allow", cwd=cwd).kind == DEFER
    assert decide("sudo frobtool", "allow", cwd=cwd).kind == DEFER


def test_user_rule_file_cannot_make_a_never_or_limited_command_rewritable(
    isolated_home: Path, tmp_path: Path
) -> None:
    from rtok import trust
    from rtok.filter import settings

    settings.reset_cache()
    rules = isolated_home / ".config" / "rtok" / "rules.toml"
    rules.parent.mkdir(parents=True, exist_ok=True)
    rules.write_text(
        "[vim]\nmax_lines = 5\n\n[cd]\nmax_lines = 5\n\n[tail]\nmax_lines = 5\n\n"
        "[git]\nmax_lines = 5\n",
        encoding="utf-8",
    )
    trust.trust_bytes(str(rules), rules.read_bytes())
    cwd = str(tmp_path)
    assert decide("vim x", "allow", cwd=cwd).kind == DEFER
    assert decide("cd x", "allow", cwd=cwd).kind == DEFER
    # Nor lift the registry's own limits for a command it knows.
    assert decide("tail -f log", "allow", cwd=cwd).kind == DEFER
    assert decide("git rebase -i HEAD~2", "allow", cwd=cwd).kind == DEFER
    assert decide("git status", "allow", cwd=cwd).kind == ALLOW_REWRITE


def _other_home(root: Path) -> dict[str, str]:
    """An environment naming another home than the process's, as a hook payload's host
    or doctor may read for: rtok's folders follow it."""
    home = root / "other-home"
    (home / ".config" / "rtok").mkdir(parents=True)
    return {
        "HOME": str(home),
        "XDG_CONFIG_HOME": str(home / ".config"),
        "XDG_DATA_HOME": str(home / ".local" / "share"),
        "PATH": "/usr/bin:/bin",
    }


def test_the_given_environment_names_the_config_file(isolated_home: Path, tmp_path: Path) -> None:
    env = _other_home(tmp_path)
    config = Path(env["XDG_CONFIG_HOME"]) / "rtok" / "config.toml"
    config.write_text('[hooks]\nexclude_commands = ["git status"]\n', encoding="utf-8")
    # The process's own home has no config: only the given environment excludes it.
    assert decide("git status", "allow").kind == ALLOW_REWRITE
    assert decide("git status", "allow", env=env).kind == DEFER
    assert decide("git log", "allow", env=env).kind == ALLOW_REWRITE


def test_the_given_environment_names_the_rule_files_and_the_trust_store(
    isolated_home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from rtok import trust
    from rtok.filter import settings

    settings.reset_cache()
    env = _other_home(tmp_path)
    rules = Path(env["XDG_CONFIG_HOME"]) / "rtok" / "rules.toml"
    rules.write_text("[frobtool]\nmax_lines = 50\n", encoding="utf-8")
    cwd = str(tmp_path)
    assert decide("frobtool --all", "allow", cwd=cwd, env=env).kind == DEFER  # untrusted
    # Trusted in the other home's store (written with the process pointed there) ...
    with monkeypatch.context() as patched:
        for key, value in env.items():
            patched.setenv(key, value)
        trust.trust_bytes(str(rules), rules.read_bytes())
    settings.reset_cache()
    rewritten = decide("frobtool --all", "allow", cwd=cwd, env=env)
    assert rewritten.command == "rtok run frobtool --all"
    # ... and nowhere else: the process's own home has neither the file nor the trust.
    assert decide("frobtool --all", "allow", cwd=cwd).kind == DEFER
    assert not (isolated_home / ".local" / "share" / "rtok" / "trusted.json").exists()
