"""`rtok rewrite CMD…` in a real subprocess: exit codes 0/1/2/3 and stdout."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rtok.install import descriptor
from rtok_testing import run_rtok

# The agents whose descriptor says they own approval ([rewrite] approval = "host"), with
# the other names they call `rtok rewrite` by.
APPROVING_HOSTS = sorted(
    name for name, facts in descriptor.rewrite_hosts()[1].items() if facts.host_approves
)


def claude_rules(home: Path, **permissions: list[str]) -> None:
    settings = home / ".claude" / "settings.json"
    settings.parent.mkdir(parents=True, exist_ok=True)
    settings.write_text(json.dumps({"permissions": permissions}), encoding="utf-8")


def rewrite(*args: str, cwd: Path, env: dict[str, str] | None = None) -> tuple[int, str, str]:
    result = run_rtok(["rewrite", *args], cwd=str(cwd), env=env)
    return result.returncode, result.stdout.decode(), result.stderr.decode()


def test_no_rule_is_ask_with_the_rewritten_command(tmp_path: Path) -> None:
    assert rewrite("git", "status", cwd=tmp_path) == (3, "rtok run git status", "")


def test_arguments_are_joined_with_spaces(tmp_path: Path) -> None:
    assert rewrite("ls -al", cwd=tmp_path)[:2] == rewrite("ls", "-al", cwd=tmp_path)[:2]
    assert rewrite("ls", "-al", cwd=tmp_path)[1] == "rtok run ls -al"


@pytest.mark.parametrize(
    "cmd",
    ["echo hi", "git log > out.txt", "git log $(x)", "vim x", "RTOK_DISABLED=1 make", ""],
)
def test_nothing_to_rewrite_exits_1_silently(tmp_path: Path, cmd: str) -> None:
    code, out, _ = rewrite(cmd, cwd=tmp_path)
    assert (code, out) == (1, "")


def test_allow_rule_exits_0(isolated_home: Path, tmp_path: Path) -> None:
    claude_rules(isolated_home, allow=["Bash(git status:*)"])
    assert rewrite("git status", cwd=tmp_path) == (0, "rtok run git status", "")
    # Only every segment allowed gives Allow.
    assert rewrite("git status && make", cwd=tmp_path)[:2] == (
        3,
        "rtok run git status && rtok run make",
    )


def test_deny_rule_exits_2_through_prefixes(isolated_home: Path, tmp_path: Path) -> None:
    claude_rules(isolated_home, deny=["Bash(git push:*)"])
    for cmd in ("git push", "FOO=1 git push", "timeout 5 git push origin", "git status; git push"):
        assert rewrite(cmd, cwd=tmp_path)[:2] == (2, ""), cmd


def test_a_command_find_runs_is_judged_as_the_users_own(
    isolated_home: Path, tmp_path: Path
) -> None:
    claude_rules(
        isolated_home, allow=["Bash(find:*)", "Bash(wc:*)"], deny=["Bash(rm:*)", "Bash(git push:*)"]
    )
    assert rewrite("find . -type f -exec wc -l {} +", cwd=tmp_path)[:2] == (
        0,
        "rtok run find . -type f -exec wc -l {} +",
    )
    # a command with no rule of its own makes the whole line ask, like `find ... && cat x`
    assert rewrite("find . -exec cat {} \\;", cwd=tmp_path)[0] == 3
    for cmd in (
        "find . -exec rm -rf {} +",
        "find . -execdir /bin/rm {} \\;",
        "find . -exec 'rm' {} \\;",
        "find . -exec env rm {} \\;",
        "find . -exec sh -c 'rm \"$1\"' _ {} \\;",
        "fd -e tmp -x rm",
        "find . -name x -exec wc -l {} \\; -exec git push \\;",
    ):
        assert rewrite(cmd, cwd=tmp_path)[:2] == (2, ""), cmd
    # what it runs is hidden: nothing to judge, nothing rewritten
    assert rewrite("find . -exec $CMD {} \\;", cwd=tmp_path)[:2] == (1, "")


def test_a_command_given_the_way_find_and_fd_also_read_it_is_judged(
    isolated_home: Path, tmp_path: Path
) -> None:
    claude_rules(
        isolated_home, allow=["Bash(find:*)", "Bash(fd:*)", "Bash(fdfind:*)"], deny=["Bash(rm:*)"]
    )
    # fd takes its command attached (`--exec=rm`, `-xrm`, `-Hx rm`: clustered flags); an
    # operand that spells `-exec` (`-name -exec`) is not the option, the next one is.
    for cmd in (
        "fd --exec=rm",
        "fd --exec-batch=rm",
        "fd -xrm",
        "fd -Xrm",
        "fd -x=rm",
        "fd -Hx rm",
        "fd -HIxrm",
        "fdfind -HIX rm",
        "find . -name '-exec' -exec rm {} \\;",
        "find . -path -exec -exec rm {} +",
        "find . -newer -exec -execdir rm {} \\;",
    ):
        assert rewrite(cmd, cwd=tmp_path)[:2] == (2, ""), cmd
    # a value option clustered before x takes the x as its value: `-tx` is type executable
    for cmd in ("fd -tx foo", "fd -Htx foo", "fd -ex foo"):
        assert rewrite(cmd, cwd=tmp_path)[:2] == (0, f"rtok run {cmd}"), cmd


def test_ask_rule_exits_3(isolated_home: Path, tmp_path: Path) -> None:
    claude_rules(isolated_home, ask=["Bash(cargo:*)"], allow=["Bash(cargo:*)"])
    assert rewrite("cargo test", cwd=tmp_path)[:2] == (3, "rtok run cargo test")


def test_the_hosts_that_own_approval_include_the_plugin_hosts() -> None:
    # A rewrite table lost from a descriptor would quietly turn these hosts' 0 into 3.
    assert {"codex", "opencode", "pi", "omp", "hermes", "kilocode", "kilo"} <= set(APPROVING_HOSTS)
    assert "claude" not in APPROVING_HOSTS


@pytest.mark.parametrize("host", APPROVING_HOSTS)
def test_hosts_that_own_approval_get_0_for_no_rule(
    isolated_home: Path, tmp_path: Path, host: str
) -> None:
    env = {"RTOK_REWRITE_HOST": host}
    assert rewrite("git status", cwd=tmp_path, env=env)[:2] == (0, "rtok run git status")
    claude_rules(isolated_home, ask=["Bash(make:*)"], deny=["Bash(rm:*)"])
    assert rewrite("make", cwd=tmp_path, env=env)[:2] == (3, "rtok run make")
    assert rewrite("rm x && ls", cwd=tmp_path, env=env)[:2] == (2, "")


def test_other_hosts_keep_3(tmp_path: Path) -> None:
    for host in ("claude", "an-agent-rtok-does-not-know"):
        env = {"RTOK_REWRITE_HOST": host}
        assert rewrite("make", cwd=tmp_path, env=env)[:2] == (3, "rtok run make")


def test_agent_option_names_the_host_and_wins_over_the_variable(tmp_path: Path) -> None:
    assert rewrite("--agent", "codex", "git status", cwd=tmp_path)[:2] == (0, "rtok run git status")
    assert rewrite("--agent=pi", "--", "make", cwd=tmp_path)[:2] == (0, "rtok run make")
    env = {"RTOK_REWRITE_HOST": "codex"}
    assert rewrite("--agent", "claude", "make", cwd=tmp_path, env=env)[:2] == (3, "rtok run make")
    code, out, err = rewrite("--agent", cwd=tmp_path)
    assert (code, out) == (1, "") and "usage: rtok rewrite" in err


def test_absolute_rtok_bin(tmp_path: Path) -> None:
    code, out, _ = rewrite("--rtok-bin", "/opt/my tools/rtok", "git", "status", cwd=tmp_path)
    assert (code, out) == (3, "'/opt/my tools/rtok' run git status")
    code, out, _ = rewrite("--rtok-bin=/usr/bin/rtok", "--", "make", cwd=tmp_path)
    assert (code, out) == (3, "/usr/bin/rtok run make")
    env = {"RTOK_REWRITE_BIN": "/usr/local/bin/rtok"}
    assert rewrite("make", cwd=tmp_path, env=env)[:2] == (3, "/usr/local/bin/rtok run make")


def test_identity_is_reported(tmp_path: Path) -> None:
    assert rewrite("rtok run git status", cwd=tmp_path)[:2] == (3, "rtok run git status")


def test_help_goes_to_stdout_with_status_0(tmp_path: Path) -> None:
    code, out, _ = rewrite("--help", cwd=tmp_path)
    assert code == 0
    assert out.startswith("Usage: rtok rewrite [OPTIONS]")
    # the exit table keeps its layout
    assert "\n      exit 3  rewritten command on stdout   rewrite, the host should ask" in out


def test_usage_error(tmp_path: Path) -> None:
    code, out, err = rewrite("--rtok-bin", cwd=tmp_path)
    assert (code, out) == (1, "")
    assert "usage: rtok rewrite" in err


def test_malformed_claude_settings_mean_no_rewrite(isolated_home: Path, tmp_path: Path) -> None:
    settings = isolated_home / ".claude" / "settings.json"
    settings.parent.mkdir(parents=True)
    settings.write_text(
        '// my rules\n{"permissions": {"deny": ["Bash(git push:*)"]}}', encoding="utf-8"
    )
    code, out, err = rewrite("git status", cwd=tmp_path)
    assert (code, out) == (1, "")
    assert err.count("\n") == 1 and "settings.json" in err


def test_oversized_claude_settings_mean_no_rewrite(isolated_home: Path, tmp_path: Path) -> None:
    settings = isolated_home / ".claude" / "settings.json"
    settings.parent.mkdir(parents=True)
    padding = " " * (2 << 20)
    settings.write_text('{"permissions": {"allow": ["Bash(*)"]}' + padding + "}", encoding="utf-8")
    code, out, err = rewrite("git status", cwd=tmp_path)
    assert (code, out) == (1, "")
    assert "larger than" in err


def test_config_exclusions_apply(isolated_home: Path, tmp_path: Path) -> None:
    config = isolated_home / ".config" / "rtok" / "config.toml"
    config.parent.mkdir(parents=True)
    config.write_text(
        '[hooks]\nexclude_commands = ["^cargo"]\ntransparent_prefixes = ["direnv exec ."]\n',
        encoding="utf-8",
    )
    assert rewrite("cargo test", cwd=tmp_path)[:2] == (1, "")
    assert rewrite("direnv exec . make", cwd=tmp_path)[:2] == (3, "direnv exec . rtok run make")
