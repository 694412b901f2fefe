"""`rtok config set / show / path` on a real config.toml."""

from __future__ import annotations

from pathlib import Path

from rtok import paths
from rtok_testing import run_rtok


def _config() -> Path:
    return Path(paths.config_file())


def test_set_keeps_comments_and_other_keys() -> None:
    _config().parent.mkdir(parents=True)
    _config().write_text(
        '# mine\n[hooks]\nexclude_commands = ["vim"]  # editors\n\n'
        "[plugins.cmd]\n# how much a failure shows\nfail_tail_lines = 80\n"
    )
    result = run_rtok(["config", "set", "plugins.cmd.fail_tail_lines", "40"])
    assert result.returncode == 0, result.stderr
    assert run_rtok(["config", "set", "archive.max_entries", "50"]).returncode == 0
    text = _config().read_text()
    assert "# mine\n" in text and "# editors" in text and "# how much a failure shows\n" in text
    assert "fail_tail_lines = 40" in text and "[archive]\nmax_entries = 50" in text
    shown = run_rtok(["config", "show"]).stdout.decode()
    assert "plugins.cmd.fail_tail_lines = 40" in shown
    assert "archive.max_age_days = 30  (default)" in shown


def test_bad_input_writes_nothing() -> None:
    _config().parent.mkdir(parents=True)
    _config().write_text("[archive]\nmax_entries = 10\n")
    before = _config().read_bytes()
    for args in (
        ["archive.max_entries", "lots"],
        ["archive.max_entries", "0"],
        ["archive.unknown", "1"],
        ["plugins.cmd.rules", "3"],
        ["a..b", "1"],
    ):
        result = run_rtok(["config", "set", *args])
        assert result.returncode == 2, args
        assert result.stderr
    assert _config().read_bytes() == before


def test_set_refuses_a_broken_config() -> None:
    _config().parent.mkdir(parents=True)
    _config().write_text("[archive\n")
    result = run_rtok(["config", "set", "archive.max_entries", "5"])
    assert result.returncode == 2 and b"not valid TOML" in result.stderr
    assert _config().read_text() == "[archive\n"


def test_set_creates_the_file() -> None:
    assert run_rtok(["config", "set", "archive.max_age_days", "7"]).returncode == 0
    assert _config().read_text() == "[archive]\nmax_age_days = 7\n"


def test_path_lists_locations() -> None:
    out = run_rtok(["config", "path"]).stdout.decode()
    assert paths.config_file() in out and paths.archive_db() in out


def test_validate_named_config_checks_it_and_its_rule_files() -> None:
    _config().parent.mkdir(parents=True)
    _config().write_text('[plugins.cmd]\nfail_tail_lines = "many"\n')
    (_config().parent / "rules.toml").write_text("[x]\nmax_lines = 3\nhead = 1\ntail = 1\n")
    result = run_rtok(["config", "validate", str(_config())])
    assert result.returncode == 1
    out = result.stdout.decode()
    assert "plugins.cmd.fail_tail_lines: expected an integer" in out
    assert "rules.toml: valid, untrusted" in out
