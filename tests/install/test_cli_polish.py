"""The CLI's rough edges: `-h`, full help for the hot-path verbs, `config show` on a broken
file, `config set` with an unknown key, the words of `--check`."""

from __future__ import annotations

from pathlib import Path

import pytest

from rtok import paths
from rtok_testing import run_rtok


def test_short_help_option_everywhere(isolated_home: Path) -> None:
    for args in (["-h"], ["init", "-h"], ["config", "-h"], ["verify", "-h"]):
        done = run_rtok(args)
        assert done.returncode == 0, (args, done.stderr)
        assert b"Usage: rtok" in done.stdout


@pytest.mark.parametrize("verb", ["run", "hook", "filter", "expand", "rewrite"])
def test_hot_path_verbs_explain_themselves(verb: str, isolated_home: Path) -> None:
    done = run_rtok([verb, "--help"])
    assert done.returncode == 0
    assert done.stderr == b""
    text = done.stdout.decode()
    assert text.startswith(f"Usage: rtok {verb} ")  # the form of every other verb's help
    assert len(text.splitlines()) >= 4, text  # more than the one usage line


def test_config_show_on_broken_toml_is_a_clean_error(isolated_home: Path) -> None:
    config = Path(paths.config_file())
    config.parent.mkdir(parents=True)
    config.write_text("[plugins\n")
    done = run_rtok(["config", "show"])
    assert done.returncode == 2
    err = done.stderr.decode()
    assert "Traceback" not in err and str(config) in err and "line 1" in err


def test_config_set_refuses_unknown_keys_and_bad_values(isolated_home: Path) -> None:
    config = Path(paths.config_file())
    for args in (
        ["nope.key", "1"],
        ["awareness.level", "loud"],
        ["hooks.exclude_commands", "git"],
        ["archive.max_entries", "0"],
    ):
        done = run_rtok(["config", "set", *args])
        assert done.returncode == 2, args
        assert b"nothing written" in done.stderr
        assert not config.exists()
    assert run_rtok(["config", "set", "awareness.level", "high"]).returncode == 0
    assert run_rtok(["config", "set", "hooks.exclude_commands", '["git log"]']).returncode == 0
    text = config.read_text()
    assert 'level = "high"' in text and 'exclude_commands = ["git log"]' in text


def test_check_says_check_not_dry_run(isolated_home: Path) -> None:
    pending = run_rtok(["init", "-a", "claude", "-g", "--check"])
    assert pending.returncode == 1
    assert b"Check: changes pending; nothing written." in pending.stdout
    assert b"Dry run" not in pending.stdout
    assert run_rtok(["init", "-a", "claude", "-g", "--auto-patch"]).returncode == 0
    clean = run_rtok(["init", "-a", "claude", "-g", "--check"])
    assert clean.returncode == 0 and b"Check: nothing to change." in clean.stdout
