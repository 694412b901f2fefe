"""Reading permission rules from real settings files under a temporary HOME."""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from pathlib import Path

import pytest

from rtok.permissions import readers, settings
from rtok.permissions.readers import auggie, claude, codex, droid, gemini, grok, kimi, vibe


def _write(path: Path, data: object) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data) if not isinstance(data, str) else data, encoding="utf-8")
    return path


def _rules(
    deny: Sequence[str] = (), ask: Sequence[str] = (), allow: Sequence[str] = ()
) -> dict[str, object]:
    return {"permissions": {"deny": list(deny), "ask": list(ask), "allow": list(allow)}}


def test_claude_reads_all_four_files(isolated_home: Path, tmp_path: Path) -> None:
    project = tmp_path / "proj"
    (project / "src" / "deep").mkdir(parents=True)
    _write(project / ".claude" / "settings.json", _rules(deny=["Bash(git push:*)"]))
    _write(project / ".claude" / "settings.local.json", _rules(ask=["Bash(npm publish)"]))
    _write(isolated_home / ".claude" / "settings.json", _rules(allow=["Bash(git status)"]))
    _write(isolated_home / ".claude" / "settings.local.json", _rules(allow=["Bash(ls:*)"]))
    deny, ask, allow = claude.claude_rules(str(project / "src" / "deep"), os.environ)
    assert deny == ["git push:*"]
    assert ask == ["npm publish"]
    assert allow == ["git status", "ls:*"]


def test_claude_config_dir_env(
    isolated_home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    other = tmp_path / "claude-elsewhere"
    _write(other / "settings.json", _rules(deny=["Bash(rm -rf:*)"]))
    _write(isolated_home / ".claude" / "settings.json", _rules(deny=["Bash(ignored)"]))
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(other))
    cwd = tmp_path / "nowhere"
    cwd.mkdir()
    assert claude.claude_rules(str(cwd), os.environ)[0] == ["rm -rf:*"]


def test_only_bash_rules_are_kept(isolated_home: Path, tmp_path: Path) -> None:
    _write(
        isolated_home / ".claude" / "settings.json",
        _rules(allow=["Read(./src/**)", "Bash(git log:*)", "WebFetch", "Bash", "Bashful(x)"]),
    )
    cwd = tmp_path / "w"
    cwd.mkdir()
    # A bare `Bash` rule covers every command, as in Claude Code.
    assert claude.claude_rules(str(cwd), os.environ)[2] == ["git log:*", "*"]


def test_project_root_falls_back_to_git_top(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    (repo / "a" / "b").mkdir(parents=True)
    assert readers.project_root(str(repo / "a" / "b"), ".claude") == str(repo)
    # A `.git` file (worktree, submodule) counts too.
    wt = tmp_path / "wt"
    wt.mkdir()
    (wt / ".git").write_text("gitdir: elsewhere\n")
    assert readers.project_root(str(wt), ".claude") == str(wt)


def test_nearest_claude_dir_wins_over_git_top(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    (repo / "pkg" / ".claude").mkdir(parents=True)
    assert readers.project_root(str(repo / "pkg"), ".claude") == str(repo / "pkg")


def test_malformed_file_warns_once_and_is_ignored(
    isolated_home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    project = tmp_path / "proj"
    bad = _write(project / ".claude" / "settings.json", '{"permissions": {"deny": [')
    _write(isolated_home / ".claude" / "settings.json", _rules(deny=["Bash(git push)"]))
    settings._warned.discard(str(bad))
    first = claude.claude_rules(str(project), os.environ)
    second = claude.claude_rules(str(project), os.environ)
    assert first == second == (["git push"], [], [])
    err = capsys.readouterr().err
    assert err.count("warning") == 1
    assert str(bad) in err


@pytest.mark.parametrize("content", ["[1, 2]", '"text"', "\xff\xfe", ""])
def test_non_object_settings_are_ignored(tmp_path: Path, content: str) -> None:
    path = tmp_path / "settings.json"
    path.write_bytes(content.encode("latin-1"))
    assert settings.read_settings(str(path)) is None


def test_bom_and_wrong_types_are_tolerated(isolated_home: Path, tmp_path: Path) -> None:
    path = isolated_home / ".claude" / "settings.json"
    path.parent.mkdir(parents=True)
    path.write_bytes(
        b"\xef\xbb\xbf"
        + json.dumps(
            {"permissions": {"deny": "Bash(x)", "ask": [1, None, "Bash(y)"], "allow": {"a": 1}}}
        ).encode()
    )
    cwd = tmp_path / "c"
    cwd.mkdir()
    assert claude.claude_rules(str(cwd), os.environ) == ([], ["y"], [])


def test_droid_lists_from_four_files(
    isolated_home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    factory_home = tmp_path / "fhome"
    monkeypatch.setenv("FACTORY_HOME_OVERRIDE", str(factory_home))
    _write(
        factory_home / ".factory" / "settings.json",
        {"commandDenylist": ["rm -rf"], "commandAllowlist": ["ls"]},
    )
    _write(factory_home / ".factory" / "settings.local.json", {"commandBlocklist": [" mkfs "]})
    project = tmp_path / "proj"
    _write(project / ".factory" / "settings.json", {"commandBlocklist": ["git push --force"]})
    _write(project / ".factory" / "settings.local.json", {"commandDenylist": ["curl"]})
    deny, ask, allow = droid.droid_rules(str(project), os.environ)
    assert sorted(deny) == ["curl", "git push --force", "mkfs", "rm -rf"]
    assert ask == allow == []


def test_droid_home_defaults_to_home(isolated_home: Path, tmp_path: Path) -> None:
    _write(isolated_home / ".factory" / "settings.json", {"commandBlocklist": ["shutdown"]})
    cwd = tmp_path / "c"
    cwd.mkdir()
    assert droid.droid_rules(str(cwd), os.environ)[0] == ["shutdown"]


def test_cursor_shell_rules(isolated_home: Path, tmp_path: Path) -> None:
    _write(
        isolated_home / ".cursor" / "cli-config.json",
        {"permissions": {"allow": ["Shell(git)", "Read(*)"], "deny": ["Shell(rm)"]}},
    )
    assert claude.cursor_rules(str(tmp_path), os.environ) == (["rm"], [], ["git"])


def test_same_file_is_read_once_when_project_is_home(isolated_home: Path) -> None:
    _write(isolated_home / ".claude" / "settings.json", _rules(deny=["Bash(x)"]))
    files = claude.claude_settings_files(str(isolated_home), os.environ)
    assert len(files) == len({os.path.normpath(f) for f in files}) == 3
    assert claude.claude_rules(str(isolated_home), os.environ)[0] == ["x"]


def test_gemini_allowed_and_excluded(
    isolated_home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _write(
        isolated_home / ".gemini" / "settings.json",
        {
            "tools": {
                "allowed": ["run_shell_command(git status)", "read_file", "ShellTool(ls)"],
                "exclude": ["run_shell_command(rm -rf)"],
            },
            "excludeTools": ["ShellTool(git push)"],
        },
    )
    project = tmp_path / "proj"
    _write(
        project / ".gemini" / "settings.json",
        {
            "tools": {
                "allowed": ["run_shell_command(npm test)"],
                "exclude": ["run_shell_command(curl)"],
            }
        },
    )
    # Folder trust is off by default: the project's settings count.
    assert gemini.gemini_rules(str(project), os.environ) == (
        ["rm -rf", "git push", "curl"],
        [],
        ["npm test"],
    )
    # With folder trust on and the workspace not trusted, only the user's file counts.
    _write(
        isolated_home / ".gemini" / "settings.json",
        {
            "security": {"folderTrust": {"enabled": True}},
            "tools": {"allowed": ["run_shell_command(git status)"]},
        },
    )
    assert gemini.gemini_rules(str(project), os.environ) == ([], [], ["git status"])
    monkeypatch.setenv("GEMINI_CLI_TRUST_WORKSPACE", "true")
    assert gemini.gemini_rules(str(project), os.environ) == (["curl"], [], ["npm test"])


def test_gemini_home_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    home = tmp_path / "gh"
    _write(home / ".gemini" / "settings.json", {"tools": {"exclude": ["run_shell_command"]}})
    monkeypatch.setenv("GEMINI_CLI_HOME", str(home))
    assert gemini.gemini_rules(str(tmp_path), os.environ) == (["*"], [], [])


def test_claude_managed_policy_file(
    isolated_home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    managed = _write(tmp_path / "etc" / "managed-settings.json", _rules(deny=["Bash(curl:*)"]))
    monkeypatch.setattr(claude, "MANAGED_SETTINGS", str(managed))
    _write(isolated_home / ".claude" / "settings.json", _rules(allow=["Bash(curl:*)"]))
    cwd = tmp_path / "w"
    cwd.mkdir()
    assert claude.claude_rules(str(cwd), os.environ) == (["curl:*"], [], ["curl:*"])


def test_qwen_settings(isolated_home: Path, tmp_path: Path) -> None:
    _write(
        isolated_home / ".qwen" / "settings.json",
        {
            "tools": {
                "exclude": ["run_shell_command(git push)"],
                "allowed": ["run_shell_command(ls)"],
            }
        },
    )
    project = tmp_path / "p"
    _write(project / ".qwen" / "settings.json", {"tools": {"exclude": ["ShellTool(curl)"]}})
    assert gemini.qwen_rules(str(project), os.environ) == (["git push", "curl"], [], ["ls"])


def test_vibe_denylist(
    isolated_home: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    config = isolated_home / ".vibe" / "config.toml"
    _write(
        config,
        'active_model = "x"\n[tools.bash]\npermission = "ask"\n'
        'denylist = ["git push", "rm -rf"]\nallowlist = ["ls"]\n',
    )
    assert vibe.vibe_rules(str(tmp_path), os.environ) == (["git push", "rm -rf"], [], [])
    # A changed file is read again (the parse is cached by size and mtime).
    _write(config, '[tools.bash]\ndenylist = ["curl", "wget", "scp"]\n')
    assert vibe.vibe_rules(str(tmp_path), os.environ) == (["curl", "wget", "scp"], [], [])
    # VIBE_HOME moves the file; no [tools.bash] table means nothing is denied.
    elsewhere = tmp_path / "vibe-home"
    _write(elsewhere / "config.toml", "enable_telemetry = false\n")
    monkeypatch.setenv("VIBE_HOME", str(elsewhere))
    assert vibe.vibe_rules(str(tmp_path), os.environ) == ([], [], [])
    # Malformed TOML: one warning, the file is ignored.
    _write(elsewhere / "config.toml", "[tools.bash\ndenylist = [")
    assert vibe.vibe_rules(str(tmp_path), os.environ) == ([], [], [])
    assert vibe.vibe_rules(str(tmp_path), os.environ) == ([], [], [])
    assert capsys.readouterr().err.count("warning") == 1


CODEX_RULES = """
# Starlark execpolicy rules
prefix_rule(
    pattern = ["git", "push"],
    decision = "forbidden",
    justification = "pushing is for humans",
)
prefix_rule(pattern=["npm", ["publish", "unpublish"]], decision="prompt",
            match=["npm publish"], not_match=["npm test"])
prefix_rule(pattern=["ls"], decision="allow")
"""


def test_codex_prefix_rules(
    isolated_home: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    _write(isolated_home / ".codex" / "rules" / "default.rules", CODEX_RULES)
    _write(isolated_home / ".codex" / "rules" / "notes.txt", "prefix_rule(pattern=['x'])")
    project = tmp_path / "repo"
    _write(
        project / ".codex" / "rules" / "team.rules",
        'prefix_rule(pattern=["terraform", "apply"], decision="forbidden")\n',
    )
    deny, ask, allow = codex.codex_rules(str(project), os.environ)
    assert deny == ["git push", "npm publish", "npm unpublish", "terraform apply"]
    assert ask == allow == []
    # CODEX_HOME moves the user rules; a file that is not Starlark is skipped with a warning.
    codex_home = tmp_path / "codex-home"
    _write(codex_home / "rules" / "broken.rules", "prefix_rule(pattern=[")
    _write(codex_home / "rules" / "ok.rules", 'prefix_rule(pattern=["rm"], decision="forbidden")')
    monkeypatch.setenv("CODEX_HOME", str(codex_home))
    assert codex.codex_rules(str(tmp_path), os.environ)[0] == ["rm"]
    assert "broken.rules" in capsys.readouterr().err


def test_unreadable_file_is_reported_to_the_caller(isolated_home: Path, tmp_path: Path) -> None:
    project = tmp_path / "proj"
    bad = _write(project / ".claude" / "settings.json", '{"permissions": {"deny": [],}}')
    _write(isolated_home / ".claude" / "settings.json", _rules(deny=["Bash(git push)"]))
    rules, problems = settings.read_rules(claude.claude_rules, str(project), os.environ)
    assert rules == (["git push"], [], [])
    assert [path for path, _ in problems] == [str(bad)]
    # Each call reports what it read: a fixed file is no longer listed.
    _write(bad, _rules(deny=[]))
    assert settings.read_rules(claude.claude_rules, str(project), os.environ)[1] == []


def test_gemini_settings_may_hold_comments(isolated_home: Path, tmp_path: Path) -> None:
    _write(
        isolated_home / ".gemini" / "settings.json",
        '// user settings\n{"tools": {/* blocked */ "exclude": ["run_shell_command(rm)"],'
        ' "allowed": ["run_shell_command(git status)"]}, "url": "http://x//y"}\n',
    )
    rules, problems = settings.read_rules(gemini.gemini_rules, str(tmp_path), os.environ)
    assert problems == []
    assert rules == (["rm"], [], ["git status"])


def test_claude_settings_are_strict_json(isolated_home: Path, tmp_path: Path) -> None:
    _write(
        isolated_home / ".claude" / "settings.json",
        '// comment\n{"permissions": {"deny": ["Bash(rm:*)"]}}',
    )
    rules, problems = settings.read_rules(claude.claude_rules, str(tmp_path), os.environ)
    assert rules == ([], [], [])
    assert len(problems) == 1 and "not valid JSON" in problems[0][1]


def test_oversized_settings_are_not_read(isolated_home: Path, tmp_path: Path) -> None:
    path = isolated_home / ".claude" / "settings.json"
    _write(path, json.dumps(_rules(deny=["Bash(rm:*)"])) + " " * settings.MAX_SETTINGS_BYTES)
    rules, problems = settings.read_rules(claude.claude_rules, str(tmp_path), os.environ)
    assert rules == ([], [], [])
    assert problems and "larger than" in problems[0][1]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('{"a": "//not a comment"} // one', '{"a": "//not a comment"}       '),
        ('{"a": 1 /* two\nlines */}', '{"a": 1       \n        }'),
        ('{"a": "\\"//"}', '{"a": "\\"//"}'),
    ],
)
def test_strip_json_comments(text: str, expected: str) -> None:
    assert settings.strip_json_comments(text) == expected


def test_unterminated_block_comment_is_an_error() -> None:
    with pytest.raises(ValueError):
        settings.strip_json_comments('{"a": 1 /* open')


def test_large_settings_are_parsed_once_per_content(isolated_home: Path, tmp_path: Path) -> None:
    from rtok import paths
    from rtok._fast import cachefile

    path = isolated_home / ".claude" / "settings.json"
    padding = {"notes": ["x" * 100] * 1000}  # over CACHE_FROM_BYTES
    _write(path, {**_rules(deny=["Bash(rm:*)"]), **padding})
    assert claude.claude_rules(str(tmp_path), os.environ)[0] == ["rm:*"]
    cachefile.flush()  # what the entry point does once a verb has finished
    cache = Path(paths.cache_dir()) / "parsed" / "settings-json.json"
    entries = json.loads(cache.read_text())
    # The cached value is what later calls use while the bytes stay the same...
    entries[str(path)]["value"]["permissions"]["deny"] = ["Bash(curl:*)"]
    cache.write_text(json.dumps(entries))
    assert claude.claude_rules(str(tmp_path), os.environ)[0] == ["curl:*"]
    # ...and other bytes (same size) are parsed again.
    text = path.read_text().replace("Bash(rm:*)", "Bash(ls:*)")
    path.write_text(text)
    assert claude.claude_rules(str(tmp_path), os.environ)[0] == ["ls:*"]


def test_codebuddy_rules_come_from_its_own_settings(
    isolated_home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _write(
        isolated_home / ".claude" / "settings.json", {"permissions": {"deny": ["Bash(git push:*)"]}}
    )
    _write(
        isolated_home / ".codebuddy" / "settings.local.json",
        {"permissions": {"deny": ["Bash(curl:*)"], "allow": ["Bash"]}},
    )
    project = tmp_path / "p"
    (project / ".git").mkdir(parents=True)
    _write(project / ".codebuddy" / "settings.json", {"permissions": {"ask": ["Bash(git log)"]}})
    assert claude.codebuddy_rules(str(project / "src"), os.environ) == (
        ["curl:*"],
        ["git log"],
        ["*"],
    )
    moved = tmp_path / "cb-home"
    _write(moved / "settings.json", {"permissions": {"deny": ["Bash(wget)"]}})
    monkeypatch.setenv("CODEBUDDY_CONFIG_DIR", str(moved))
    assert claude.codebuddy_rules(str(project), os.environ) == (["wget"], ["git log"], [])


def test_grok_rules_merge_its_toml_and_claudes_settings(
    isolated_home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _write(
        isolated_home / ".claude" / "settings.json", {"permissions": {"deny": ["Bash(git push:*)"]}}
    )
    grok_home = tmp_path / "grok-home"
    monkeypatch.setenv("GROK_HOME", str(grok_home))
    _write(
        grok_home / "config.toml",
        '[permission]\nallow = ["Bash(git status)", "Read"]\n'
        'rules = [\n  { action = "deny", tool = "bash", pattern = "rm -rf *" },\n'
        '  { action = "allow", tool = "read" },\n  { action = "ask", tool = "bash" },\n]\n',
    )
    project = tmp_path / "repo"
    (project / ".git").mkdir(parents=True)
    _write(project / ".grok" / "config.toml", '[permission]\ndeny = ["Bash(curl *)"]\n')
    _write(project / "sub" / ".grok" / "config.toml", '[permission]\nask = ["Bash(git log)"]\n')
    _write(tmp_path / ".grok" / "config.toml", '[permission]\ndeny = ["Bash(outside)"]\n')
    # Ask rules count as deny: a suggested `rtok run …` would slip past them.
    deny, ask, allow = grok.grok_rules(str(project / "sub"), os.environ)
    assert deny == ["git push:*", "rm -rf *", "curl *", "*", "git log"]
    assert ask == []
    assert allow == ["git status"]
    # Malformed TOML is ignored (with one warning), the other files still count.
    _write(project / ".grok" / "config.toml", "[permission\ndeny = [")
    assert grok.grok_rules(str(project), os.environ)[0] == ["git push:*", "rm -rf *", "*"]


def _auggie_rule(kind: str, regex: str | None = None, tool: str = "launch-process") -> object:
    rule: dict[str, object] = {"toolName": tool, "permission": {"type": kind}}
    if regex is not None:
        rule["shellInputRegex"] = regex
    return rule


def test_auggie_rules_from_user_and_workspace(isolated_home: Path, tmp_path: Path) -> None:
    from rtok.permissions.verdict import detailed_verdict

    _write(
        isolated_home / ".augment" / "settings.json",
        {
            "toolPermissions": [
                _auggie_rule("deny", "^git push"),
                _auggie_rule("deny", None, tool="view"),
                {
                    "toolName": "launch-process",
                    "eventType": "tool-response",
                    "permission": {"type": "deny"},
                },
            ]
        },
    )
    project = tmp_path / "p"
    (project / ".git").mkdir(parents=True)
    _write(
        project / ".augment" / "settings.local.json",
        {"toolPermissions": [_auggie_rule("ask-user", r"\bcurl\b")]},
    )
    cwd = project / "src"
    cwd.mkdir()
    assert auggie.auggie_shell_rules(str(cwd), os.environ) == [
        ("ask-user", r"\bcurl\b"),
        ("deny", "^git push"),
    ]
    assert detailed_verdict("git push origin", "auggie", str(cwd), os.environ) == "deny"
    assert detailed_verdict("ls && curl x", "auggie", str(cwd), os.environ) == "deny"
    assert detailed_verdict("git status", "auggie", str(cwd), os.environ) == "default"


def test_auggie_allow_rules_and_unreadable_regexes_leave_the_command_to_auggie(
    isolated_home: Path, tmp_path: Path
) -> None:
    # An allow rule may come before a catch-all deny: the rewrite would then be denied.
    _write(
        isolated_home / ".augment" / "settings.json",
        {
            "toolPermissions": [
                _auggie_rule("allow", "^git status$"),
                _auggie_rule("deny", "(?<name>x)\\k<name>"),
            ]
        },
    )
    assert auggie.auggie_verdict("git status", str(tmp_path), os.environ) == "deny"
    assert auggie.auggie_verdict("git log", str(tmp_path), os.environ) == "deny"  # JS-only syntax
    _write(
        isolated_home / ".augment" / "settings.json", {"toolPermissions": [_auggie_rule("deny")]}
    )  # every command
    assert auggie.auggie_verdict("git log", str(tmp_path), os.environ) == "deny"
    (isolated_home / ".augment" / "settings.json").write_text("{}")
    assert auggie.auggie_verdict("git log", str(tmp_path), os.environ) == "default"


def test_kimi_deny_and_ask_rules(
    isolated_home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from rtok.permissions.verdict import detailed_verdict

    kimi_home = tmp_path / "kimi"
    kimi_home.mkdir()
    monkeypatch.setenv("KIMI_CODE_HOME", str(kimi_home))
    (kimi_home / "config.toml").write_text(
        'default_model = "m"\n'
        "[permission]\n"
        'deny = [{ tool = "Bash", match = "git push*" }]\n'
        'ask = [{ tool = "Bash", match = "rm -rf {a,b}" }]\n'
        'allow = [{ tool = "Bash", match = "git status" }]\n'
        "[[permission.rules]]\n"
        'decision = "deny"\n'
        'pattern = "Bash(curl *)"\n'
        "[[permission.rules]]\n"
        'decision = "deny"\n'
        'pattern = "Read(/etc/*)"\n'
    )
    assert kimi.kimi_rules(str(tmp_path), os.environ) == (
        ["git push**", "rm -rf **", "curl **"],
        [],
        [],
    )
    cwd = str(tmp_path)
    # Kimi's `*` crosses word ends: `git push*` also stops `git pushall`.
    for command in ("git push", "git pushall x", "rm -rf c", "curl -s x", "ls && curl x"):
        assert detailed_verdict(command, "kimi", cwd, os.environ) == "deny", command
    assert detailed_verdict("git status", "kimi", cwd, os.environ) == "default"
    (kimi_home / "config.toml").write_text("[permission\n")
    assert kimi.kimi_rules(cwd, os.environ) == ([], [], [])  # not TOML: warned once, ignored


def test_every_location_comes_from_the_env_given(tmp_path: Path) -> None:
    # The process's environment (the test's HOME) has no rules; the env passed names them.
    other = tmp_path / "elsewhere"
    _write(other / "settings.json", _rules(deny=["Bash(rm:*)"]))
    cwd = tmp_path / "nowhere"
    cwd.mkdir()
    assert claude.claude_rules(str(cwd), os.environ)[0] == []
    env = {"HOME": str(tmp_path / "home"), "CLAUDE_CONFIG_DIR": str(other)}
    assert claude.claude_rules(str(cwd), env)[0] == ["rm:*"]
    assert "CLAUDE_CONFIG_DIR" not in os.environ


def test_every_source_names_a_reader_or_judge_in_the_table() -> None:
    from rtok.permissions import readers
    from rtok.permissions.verdict import SOURCES

    for source in SOURCES[:-1]:
        assert (readers.reader(source) or readers.judge(source)) is not None, source
    assert SOURCES[-1] == "none"
    assert readers.reader("none") is None and readers.judge("none") is None
    # Every top-level key a reader declares survives the cache of a large settings file.
    for _module, _function, keys in (*readers.READERS.values(), *readers.JUDGES.values()):
        assert set(keys) <= set(readers.RULE_KEYS)


def test_auggie_rules_in_a_large_settings_file_are_read(tmp_path: Path) -> None:
    # Past CACHE_FROM_BYTES only the readers' keys are cached: toolPermissions is one.
    rule = {
        "toolName": "launch-process",
        "shellInputRegex": "^git push",
        "permission": {"type": "deny"},
    }
    document = {"toolPermissions": [rule], "pad": "x" * (settings.CACHE_FROM_BYTES + 10)}
    _write(tmp_path / ".augment" / "settings.json", json.dumps(document))
    env = {"HOME": str(tmp_path)}
    for _ in range(2):  # parsed, then from the cache
        assert auggie.auggie_verdict("git push origin", str(tmp_path), env) == "deny"
        assert auggie.auggie_verdict("git status", str(tmp_path), env) == "default"
