"""Generated commands (hypothesis): tokens re-join, the rewrite invariant, no unattestable rewrite.

9 500 commands are generated per run here and 2 500 more in
tests/shell/test_shell_segment_properties.py (max_examples below); the seed changes from
run to run, so every CI run looks at new commands.
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rtok.rewrite.rewriter import Settings, apply_edits, edit_points, rewrite_command
from rtok.shell.lexer import is_unattestable, lex
from rtok.shell.words import dequote

RUNS = settings(
    deadline=None,
    derandomize=False,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

SHELL_ALPHABET = st.sampled_from(list("abcgilmnoprstux019 \t\n\r'\"\\$`(){}[]|&;<>#=*~!-./:,%@+^"))

COMMAND_WORDS = [
    "git",
    "cargo",
    "pytest",
    "ls",
    "grep",
    "rg",
    "find",
    "make",
    "npm",
    "docker",
    "kubectl",
    "tail",
    "head",
    "cat",
    "python3",
    "npx",
    "go",
    "ruff",
    "tsc",
    "terraform",
    "gh",
    "uv",
    "echo",
    "cd",
    "sudo",
    "vim",
    "less",
    "watch",
    "rtok",
    "xargs",
    "sort",
    "frob",
    "/usr/bin/git",
    "./gradlew",
    "'git'",
    '"ls"',
    "$GIT",
]
ARGUMENT_WORDS = [
    "status",
    "log",
    "diff",
    "test",
    "build",
    "-m",
    "pytest",
    "-la",
    "-f",
    "-n",
    "5",
    "--follow",
    "logs",
    "get",
    "pods",
    "-w",
    "run",
    "x.txt",
    "*.py",
    "$HOME",
    '"$X"',
    "\\;",
    "'a && b'",
    '"c | d"',
    "--json",
    "-C",
    "/tmp",
    "-it",
    "compose",
    "ps",
    "fix",
    "-i",
    "--",
    "{",
    "}",
    "=",
    "a=b",
    "'it''s'",
    "\\ ",
    "#x",
    "~",
]
PREFIX_WORDS = [
    "FOO=1",
    "A='x y'",
    "RTOK_DISABLED=1",
    "timeout 5",
    "timeout -k 2 9",
    "nice -n 3",
    "nohup",
    "time",
    "env",
    "env -u X",
    "command",
    "timeout --bad 1",
    "exec",
    "stdbuf -oL",
]
OPERATORS = [" && ", " || ", "; ", " | ", " |& ", " & ", "\n", "\r\n", " \\\n  ", "&&", "|"]
REDIRECTS = [" 2>&1", " >/dev/null", " 2>/dev/null", " &>/dev/null", " 2>&-", " 1>&2"]
GRAMMAR = ["(", ")", "{ ", "; }", "if ", "then ", "fi", "do ", "done", "for x in a; do "]
UNATTESTABLE = [
    "$(id)",
    "`id`",
    "<(ls)",
    ">(wc -l)",
    "$((1+2))",
    "$'x'",
    "<<EOF\nbody\nEOF",
    "> out.txt",
    '"$(id)"',
    ">> log",
    "< in.txt",
    "&> all.log",
    "'unclosed",
    'bash -c "$C"',
]


def _simple_command(rng: random.Random) -> str:
    parts = [rng.choice(PREFIX_WORDS) for _ in range(rng.choice((0, 0, 0, 1, 1, 2)))]
    parts.append(rng.choice(COMMAND_WORDS))
    parts.extend(rng.choice(ARGUMENT_WORDS) for _ in range(rng.randint(0, 4)))
    text = " ".join(parts)
    if rng.random() < 0.3:
        text += rng.choice(REDIRECTS)
    return text


def build_line(rng: random.Random, depth: int = 0) -> str:
    """A command line from the vocabulary above, driven by one random source."""
    pieces = [_simple_command(rng)]
    for _ in range(rng.randint(0, 3)):
        pieces.append(rng.choice(OPERATORS))
        roll = rng.random()
        if depth < 1 and roll < 0.15:
            inner = build_line(rng, depth + 1)
            quote = "'" if "'" not in inner else '"'
            shell = rng.choice(["bash", "sh -lc", "zsh"])
            pieces.append(f"{shell} -c {quote}{inner}{quote}")
        elif roll < 0.3:
            pieces.append(rng.choice(GRAMMAR))
        else:
            pieces.append(_simple_command(rng))
    if rng.random() < 0.2:
        pieces.append(" # " + rng.choice(ARGUMENT_WORDS))
    return "".join(pieces)


# One drawn seed per command: drawing every word through hypothesis costs ~10x more and
# the vocabulary, not shrinking, is what finds problems here. The command is printed on
# failure (hypothesis shows the drawn value).
command_lines = st.integers(0, 2**63).map(lambda seed: build_line(random.Random(seed)))


RTOK_BINS = st.sampled_from(["rtok", "/usr/local/bin/rtok", "'/opt/my tools/rtok'"])
USER_SETTINGS = st.sampled_from(
    [
        Settings(),
        Settings(exclude_commands=["git push", "^cargo (test|build)"]),
        Settings(transparent_prefixes=["docker exec web", "direnv exec ."]),
    ]
)


def _undo_edits(
    cmd: str,
    out: str,
    offsets: list[int],
    renamed: list[tuple[int, int]],
    inserted: str,
    rtok_bin: str,
) -> str:
    """OUT with every edit undone, checking each is where the edit points say."""
    # Undo every edit from the right, so earlier offsets stay valid: each insertion is
    # deleted, each renamed word gets its own bytes back.
    events = sorted([(o, 0) for o in offsets] + list(renamed))
    shift = [0]
    for _offset, length in events:
        shift.append(shift[-1] + (len(inserted) if length == 0 else len(rtok_bin) - length))
    restored = out
    for k in reversed(range(len(events))):
        offset, length = events[k]
        at = offset + shift[k]
        if length == 0:
            assert restored[at : at + len(inserted)] == inserted
            restored = restored[:at] + restored[at + len(inserted) :]
        else:
            assert restored[at : at + len(rtok_bin)] == rtok_bin
            assert dequote(cmd[offset : offset + length]) == "rtok"
            restored = (
                restored[:at] + cmd[offset : offset + length] + restored[at + len(rtok_bin) :]
            )
    return restored


def check_invariant(cmd: str, rtok_bin: str, user: Settings) -> None:
    out = rewrite_command(cmd, rtok_bin=rtok_bin, settings=user)
    if out is None:
        return
    found = edit_points(cmd, rtok_bin=rtok_bin, settings=user)
    assert found is not None
    offsets, renamed, _ = found
    inserted = f"{rtok_bin} run "
    assert out == (
        apply_edits(cmd, offsets, inserted, renamed, rtok_bin) if offsets or renamed else cmd
    )
    if rtok_bin == "rtok":
        assert not renamed  # a bare rtok is already the rtok to run
    assert _undo_edits(cmd, out, offsets, renamed, inserted, rtok_bin) == cmd
    if "rtok" not in cmd:
        assert out.replace(inserted, "") == cmd
    # The rewritten line reads the same way: no quoting was broken.
    assert not lex(out).reasons


@settings(RUNS, max_examples=2500)
@given(st.text(SHELL_ALPHABET, max_size=80))
def test_lexer_tokens_rejoin_to_arbitrary_text(cmd: str) -> None:
    for dialect in ("bash", "fish"):
        lexed = lex(cmd, dialect)
        assert "".join(lexed.texts()) == cmd
        position = 0
        for _, start, end in lexed.tokens:
            assert start == position and end > start
            position = end


@settings(RUNS, max_examples=2000)
@given(command_lines)
def test_lexer_tokens_rejoin_to_command_lines(cmd: str) -> None:
    assert "".join(lex(cmd).texts()) == cmd


@settings(RUNS, max_examples=2500)
@given(command_lines, RTOK_BINS, USER_SETTINGS)
def test_rewrite_invariant(cmd: str, rtok_bin: str, user: Settings) -> None:
    check_invariant(cmd, rtok_bin, user)


@settings(RUNS, max_examples=1000)
@given(st.text(SHELL_ALPHABET, max_size=60), RTOK_BINS)
def test_rewrite_invariant_on_arbitrary_text(cmd: str, rtok_bin: str) -> None:
    check_invariant(cmd, rtok_bin, Settings())


@settings(RUNS, max_examples=1500)
@given(command_lines, st.sampled_from(UNATTESTABLE), st.integers(0, 1000), RTOK_BINS)
def test_unattestable_commands_are_never_rewritten(
    cmd: str, construct: str, where: int, rtok_bin: str
) -> None:
    # Put the construct at a word boundary of the line (or inside a sh -c script).
    cut = where % (len(cmd) + 1)
    line = f"{cmd[:cut]} {construct} {cmd[cut:]}"
    if not is_unattestable(line):
        return  # the cut landed inside quotes, where the construct is just text
    assert rewrite_command(line, rtok_bin=rtok_bin, settings=Settings()) is None
    script = f"sh -c '{construct}'" if "'" not in construct else f'sh -c "{construct}"'
    wrapped = f"{script} && {cmd}"
    assert is_unattestable(wrapped)
    assert rewrite_command(wrapped, rtok_bin=rtok_bin, settings=Settings()) is None
