"""Hand-written rewrite cases: what is rewritten, where, and what is left alone."""

from __future__ import annotations

import pytest

from rtok.rewrite.rewriter import Settings, edit_points, insertion_points, rewrite_command

NO_SETTINGS = Settings()

REWRITTEN = [
    # plain rewrite groups
    ("git status", "rtok run git status"),
    ("git -C /repo --no-pager log -5", "rtok run git -C /repo --no-pager log -5"),
    ("cargo test --workspace", "rtok run cargo test --workspace"),
    ("pytest -q tests", "rtok run pytest -q tests"),
    ("python3 -m pytest -x", "rtok run python3 -m pytest -x"),
    ("/usr/bin/grep -rn TODO src", "rtok run /usr/bin/grep -rn TODO src"),
    ("./gradlew test", "rtok run ./gradlew test"),
    ("make", "rtok run make"),
    ("ls", "rtok run ls"),
    ("tail -n 20 build.log", "rtok run tail -n 20 build.log"),
    ("kubectl -n prod get pods", "rtok run kubectl -n prod get pods"),
    # find running commands: the gate reads them (tests/permissions), find still runs them
    ("find . -name '*.tmp' -exec rm {} \\;", "rtok run find . -name '*.tmp' -exec rm {} \\;"),
    ("find . -execdir ls {} +", "rtok run find . -execdir ls {} +"),
    ("find . -name '*.o' -delete", "rtok run find . -name '*.o' -delete"),
    ("fd -e py -x wc -l", "rtok run fd -e py -x wc -l"),
    ("docker compose ps", "rtok run docker compose ps"),
    ("npx tsc --noEmit", "rtok run npx tsc --noEmit"),
    ('git commit -m "fix: $TICKET"', 'rtok run git commit -m "fix: $TICKET"'),
    # launchers: rewritten when what they run is itself in a group
    ("uv run pytest -q", "rtok run uv run pytest -q"),
    ("bundle exec rspec spec/a_spec.rb", "rtok run bundle exec rspec spec/a_spec.rb"),
    ("poetry run mypy .", "rtok run poetry run mypy ."),
    ("pnpm dlx eslint .", "rtok run pnpm dlx eslint ."),
    ("bunx tsc --noEmit", "rtok run bunx tsc --noEmit"),
    # env prefixes are kept verbatim
    ("FOO=1 git status", "FOO=1 rtok run git status"),
    ("A='x y' B=\"z\" cargo build", "A='x y' B=\"z\" rtok run cargo build"),
    # process wrappers: rtok goes inside
    ("timeout 30 cargo test", "timeout 30 rtok run cargo test"),
    ("timeout -k 5 --signal=KILL 30 make", "timeout -k 5 --signal=KILL 30 rtok run make"),
    ("nice -n 10 make", "nice -n 10 rtok run make"),
    ("nice -5 make", "nice -5 rtok run make"),
    ("nohup make", "nohup rtok run make"),
    ("time go test ./...", "time rtok run go test ./..."),
    ("command git status", "command rtok run git status"),
    ("env FOO=1 git diff", "env FOO=1 rtok run git diff"),
    ("noglob git status", "noglob rtok run git status"),
    ("setsid -w make", "setsid -w rtok run make"),
    ("ionice -c 3 make", "ionice -c 3 rtok run make"),
    ("FOO=1 timeout 5 env BAR=2 nice make", "FOO=1 timeout 5 env BAR=2 nice rtok run make"),
    # compound lines: every simple command on its own
    ("cd src && git status", "cd src && rtok run git status"),
    ("git status; ls -la", "rtok run git status; rtok run ls -la"),
    ("make || echo failed", "rtok run make || echo failed"),
    ("make & git status", "rtok run make & rtok run git status"),
    # compound commands: grammar words are stepped over
    ("(cd x && make)", "(cd x && rtok run make)"),
    ("{ make; }", "{ rtok run make; }"),
    ("for f in *.py; do ruff check $f; done", "for f in *.py; do rtok run ruff check $f; done"),
    (
        "if git diff --quiet; then echo ok; else git status; fi",
        "if rtok run git diff --quiet; then echo ok; else rtok run git status; fi",
    ),
    ("while true; do make; done", "while true; do rtok run make; done"),
    ("! git diff --quiet || make", "! rtok run git diff --quiet || rtok run make"),
    ("for f in a\ndo\n  pytest $f\ndone", "for f in a\ndo\n  rtok run pytest $f\ndone"),
    # a loop feeding a pipe: its body stays as written, the final grep may be shortened
    ("for f in *; do cat $f; done | grep x", "for f in *; do cat $f; done | rtok run grep x"),
    # pipelines
    ("git log | grep fix", "git log | rtok run grep fix"),
    ("git status | grep x && cargo build", "git status | rtok run grep x && rtok run cargo build"),
    # trailing redirects stay where they are
    ("git status 2>&1", "rtok run git status 2>&1"),
    ("cargo build >/dev/null 2>&1", "rtok run cargo build >/dev/null 2>&1"),
    # multi-line: each line, comments and blank lines kept
    ("git status\n\n# now build\nmake\n", "rtok run git status\n\n# now build\nrtok run make\n"),
    ("cargo build &&\n  cargo test", "rtok run cargo build &&\n  rtok run cargo test"),
    ("git \\\n  status", "rtok run git \\\n  status"),
    # shell -c scripts are rewritten inside
    ("bash -c 'git status && ls'", "bash -c 'rtok run git status && rtok run ls'"),
    ("bash -c 'make | grep x'", "bash -c 'make | rtok run grep x'"),
    ('sh -c "cargo test"', 'sh -c "rtok run cargo test"'),
    ("timeout 60 bash -c 'pytest -q'", "timeout 60 bash -c 'rtok run pytest -q'"),
    ("zsh -c 'sh -c \"git log\"'", "zsh -c 'sh -c \"rtok run git log\"'"),
    # already through rtok: unchanged (identity), other commands still rewritten
    ("rtok run git status", "rtok run git status"),
    ("rtok git status", "rtok git status"),
    ("rtok run git status && ls", "rtok run git status && rtok run ls"),
]

LEFT_ALONE = [
    # a carriage return is part of a word to bash (`git status\r` runs `status\r`)
    "git status\r\nmake",
    # a line bash rejects runs nothing
    "git status &&",
    "&& git status",
    "git status; fi",
    # the meaning of a command name or of an fd changes earlier in the line
    "PATH=/tmp/x; git status",
    "export PATH=/tmp/x; git status",
    "unset PATH; git status",
    "hash -p /bin/false git; git status",
    "git status >&-",
    "git status 2>&-",
    "exec >&-; git status",
    "ulimit -n 4; git status",
    # builtins and trivial commands
    "cd src",
    "echo hello",
    "export FOO=1",
    "pwd",
    "true",
    "mkdir -p x",
    "rm -rf build",
    "sed -i s/a/b/ f",
    "awk '{print}' f",
    "sort f",
    "python -c 'print(1)'",
    # editors, pagers, interactive tools, followers
    "vim main.py",
    "nano x",
    "less log.txt",
    "man git",
    "top",
    "ssh host",
    "python",
    "tail -f server.log",
    "tail -F x",
    "tail --follow=name x",
    "tail -fn 20 x",
    "docker logs -f web",
    "kubectl logs -f pod",
    "kubectl get pods -w",
    "watch ls",
    "journalctl -fu nginx",
    "docker run -it ubuntu bash",
    "npm run dev",
    "jest --watch",
    "git rebase -i HEAD~3",
    "git add -p",
    "cat",
    "grep",
    # launchers of something unknown, interactive or long-running
    "uv run python",
    "uv run ./serve.py",
    "bundle exec rails server",
    "bunx create-next-app",
    "make run",
    "make watch",
    "npm run watch",
    "poetry run python",
    "gh run watch 42",
    "glab ci view",
    "mvn spring-boot:run",
    "./gradlew bootRun",
    "deno task dev",
    "sbt run",
    # sudo never
    "sudo git status",
    "sudo -u root make",
    "doas make",
    # machine-readable output
    "gh pr list --json number",
    "git status --porcelain",
    # RTOK_DISABLED for that one command
    "RTOK_DISABLED=1 git status",
    "RTOK_DISABLED= cargo test",
    "env RTOK_DISABLED=1 make",
    # unknown wrapper option
    "timeout --frobnicate 5 make",
    "nice --what make",
    "env -S 'x y' make",
    # unattestable constructs
    "git log > /tmp/out.txt",
    "git log $(git rev-parse HEAD)",
    'git commit -m "$(date)"',
    "git diff `cat ref`",
    "diff <(ls a) <(ls b)",
    "cat <<EOF\nhello\nEOF",
    "echo $((1+1)) && git status",
    "git log $'--oneline'",
    "bash -c 'git log > f'",
    'bash -c "$CMD"',
    # syntax the rewriter does not walk
    "f() { make; }",
    "function f { make; }",
    "arr=(git status)",
    "case $x in a) make;; esac",
    "((n++)); make",
    "echo @(a|b)",
    "coproc make",
    "select x in a; do make; done",
    # a group joined to a pipe: its commands stay as written
    "{ git status; git log; } | head",
    "(make) | tail",
    "if true; then git log; fi | head",
    "while true; do make; done |& tail",
    # a command feeding a pipe: its consumer must read its own bytes
    "cargo test 2>&1 | tail -20",
    "git diff | head -50 | cat",
    "git log --oneline | head -3",
    "ls -la src | cat",
    "git log | tee out",
    "git status |& cat",
    # the environment is reset: a bare rtok could exit 127
    "env -i git status",
    "env -u HOME FOO=1 git diff",
    "env - git status",
    "env -u PATH git status",
    "PATH=/nowhere git status",
    "env PATH=/x git status",
    # a login shell may set another PATH from the user's profile
    "bash -lc 'make | tail -5'",
    "bash --login -c 'git status'",
    # the command word or subcommand is an expansion
    "git $sub",
    "git status; $X push",
    # find asking on the terminal, or writing names for a program or a file
    "find . -ok rm {} \\;",
    "find . -okdir ls \\;",
    "find . -print0",
    "fd -0 -e py",
    "find . -fprint names.txt",
    "find . -exec $CMD {} \\;",
    # pipelines that are not safe
    "find . | xargs rm",
    "ls |& head",
    "git log | less",
    "cargo test | tee out",
    "git log | grep -f patterns.txt",
    "cat file | sort",
    "npm test | head",
    # in no group / unknown command word
    "frobnicate --all",
    "$GIT status",
    '"$X" status',
    "",
    "   ",
    "git",
    "fish -c 'git status'",
    # a lone CR is a word character to bash, not a separator
    "ls\rgit status",
]


@pytest.mark.parametrize(("cmd", "expected"), REWRITTEN)
def test_rewritten(cmd: str, expected: str) -> None:
    assert rewrite_command(cmd, settings=NO_SETTINGS) == expected


@pytest.mark.parametrize("cmd", LEFT_ALONE)
def test_left_alone(cmd: str) -> None:
    assert rewrite_command(cmd, settings=NO_SETTINGS) is None


def test_quoted_command_word_is_still_recognised_when_literal() -> None:
    assert rewrite_command("'git' status", settings=NO_SETTINGS) == "rtok run 'git' status"


def test_absolute_rtok_bin_is_inserted_as_given() -> None:
    rtok_bin = "'/opt/my tools/rtok'"
    assert (
        rewrite_command("FOO=1 git status; ls", rtok_bin=rtok_bin, settings=NO_SETTINGS)
        == "FOO=1 '/opt/my tools/rtok' run git status; '/opt/my tools/rtok' run ls"
    )
    # A login shell's profile may change PATH: only an absolute rtok path goes inside.
    assert (
        rewrite_command("bash -lc 'git status'", rtok_bin="/usr/bin/rtok", settings=NO_SETTINGS)
        == "bash -lc '/usr/bin/rtok run git status'"
    )
    # Inside a single-quoted script the quoted path cannot be inserted: left alone.
    assert rewrite_command("bash -c 'ls'", rtok_bin=rtok_bin, settings=NO_SETTINGS) is None
    assert (
        rewrite_command("bash -c 'ls'", rtok_bin="/usr/bin/rtok", settings=NO_SETTINGS)
        == "bash -c '/usr/bin/rtok run ls'"
    )


def test_already_rtok_via_absolute_bin() -> None:
    assert (
        rewrite_command("/usr/bin/rtok run ls", rtok_bin="/usr/bin/rtok", settings=NO_SETTINGS)
        == "/usr/bin/rtok run ls"
    )


def test_exclude_commands_word_prefix() -> None:
    settings = Settings(exclude_commands=["git rebase", "playwright", "pytest", "rspec"])
    assert rewrite_command("git rebase main", settings=settings) is None
    assert rewrite_command("git rebased", settings=settings) is None  # in no group anyway
    assert rewrite_command("git status", settings=settings) == "rtok run git status"
    assert rewrite_command("FOO=1 git rebase main", settings=settings) is None
    assert rewrite_command("timeout 9 git rebase x", settings=settings) is None
    assert rewrite_command("npx playwright test", settings=settings) is None
    assert rewrite_command("python3 -m pytest", settings=settings) is None
    assert rewrite_command("/usr/local/bin/pytest", settings=settings) is None
    assert rewrite_command("uv run pytest", settings=settings) is None
    assert rewrite_command("bundle exec rspec", settings=settings) is None


def test_exclude_commands_regex_and_trivial_entries() -> None:
    settings = Settings(exclude_commands=["^curl", "^", "  ", "^git (push|pull)", "^[bad"])
    assert rewrite_command("curl https://x", settings=settings) is None
    assert rewrite_command("git push", settings=settings) is None
    assert rewrite_command("git status", settings=settings) == "rtok run git status"
    # An invalid regex falls back to a plain prefix.
    assert rewrite_command("make", settings=settings) == "rtok run make"


def test_transparent_prefixes() -> None:
    settings = Settings(transparent_prefixes=["docker exec web", "direnv exec ."])
    assert (
        rewrite_command("docker exec web git status", settings=settings)
        == "docker exec web rtok run git status"
    )
    assert (
        rewrite_command("direnv exec . cargo test", settings=settings)
        == "direnv exec . rtok run cargo test"
    )
    # No fall-through: an inner command in no group leaves the line alone.
    assert rewrite_command("docker exec web bash", settings=settings) is None


def test_insertion_points_are_offsets_into_the_input() -> None:
    found = insertion_points("FOO=1 git status && ls", settings=NO_SETTINGS)
    assert found == ([6, 20], False)


@pytest.mark.parametrize(
    ("cmd", "expected"),
    [
        ("rtok expand 3f2a9c", "/opt/rtok/bin/rtok expand 3f2a9c"),
        (
            "rtok expand 3f2a9c --grep err | head -5",
            "/opt/rtok/bin/rtok expand 3f2a9c --grep err | head -5",
        ),
        ("timeout 9 rtok gain", "timeout 9 /opt/rtok/bin/rtok gain"),
        ("'rtok' doctor", "/opt/rtok/bin/rtok doctor"),
        (
            "git status && rtok expand a1",
            "/opt/rtok/bin/rtok run git status && /opt/rtok/bin/rtok expand a1",
        ),
        ("bash -c 'rtok expand a1'", "bash -c '/opt/rtok/bin/rtok expand a1'"),
        ("rtok run git log", "/opt/rtok/bin/rtok run git log"),
    ],
)
def test_bare_rtok_names_the_installed_rtok(cmd: str, expected: str) -> None:
    # The trailer and the awareness texts say `rtok expand ID`; where the agent's shell
    # may not find rtok on PATH, the hook names the rtok it knows.
    assert rewrite_command(cmd, rtok_bin="/opt/rtok/bin/rtok", settings=NO_SETTINGS) == expected
    # Where a bare rtok is the rtok to run, no word is renamed.
    found = edit_points(cmd, settings=NO_SETTINGS)
    assert found is not None and not found[1]


@pytest.mark.parametrize(
    "cmd",
    [
        "/usr/bin/rtok expand a1",  # a path is the user's own choice
        "env -i rtok expand a1",  # the environment is reset on purpose
        "echo rtok expand a1",  # not the command word
    ],
)
def test_other_rtok_words_stay(cmd: str) -> None:
    assert rewrite_command(cmd, rtok_bin="/opt/rtok/bin/rtok", settings=NO_SETTINGS) in (None, cmd)
