"""Test-runner and build/linter summaries: passes, failures and hostile input, in process.

Real captures are graded in tests/golden/signal; these pin the shapes and the edge cases.
"""

from __future__ import annotations

import pytest

from rtok.filter import engine
from rtok.filter.dispatch import formatter_for
from rtok.filter.family import family_of_command
from rtok.filter.formatters import cargo, gotest, pytest_fmt, runners
from rtok.filter.formatters.diagnostics import FORMATTERS as DIAGNOSTICS
from rtok.filter.formatters.summary import is_summariser
from rtok.filter.rule import default_rule

PYTEST_VERBOSE_PASS = """\
============================= test session starts ==============================
platform linux -- Python 3.11.7, pytest-8.1.1, pluggy-1.7.0
rootdir: /p
collected 3 items

tests/test_parse.py::test_parse_Error PASSED                             [ 33%]
tests/test_parse.py::test_raises[ValueError] PASSED                      [ 66%]
tests/test_parse.py::test_win SKIPPED (needs Windows)                    [100%]

========================= 2 passed, 1 skipped in 0.05s =========================
"""

PYTEST_FAIL = """\
============================= test session starts ==============================
collected 3 items

tests/test_a.py .F.                                                      [100%]

=================================== FAILURES ===================================
__________________________________ test_token __________________________________

    def test_token():
        token = make_token()
>       assert token == "abc"
E       AssertionError: assert 'abd' == 'abc'

tests/test_a.py:12: AssertionError
----------------------------- Captured stdout call -----------------------------
making a token
ERROR: token service unreachable
=========================== short test summary info ============================
FAILED tests/test_a.py::test_token - AssertionError: assert 'abd' == 'abc'
========================= 1 failed, 2 passed in 0.10s ==========================
"""


def test_pytest_verbose_pass_is_one_line_even_when_test_ids_say_error() -> None:
    assert pytest_fmt.pytest_output(PYTEST_VERBOSE_PASS) == ["pytest: 2 passed, 1 skipped in 0.05s"]


def test_pytest_failure_keeps_name_assertion_location_and_captured_errors() -> None:
    shown = pytest_fmt.pytest_output(PYTEST_FAIL)
    assert shown == [
        "FAILED tests/test_a.py::test_token",
        # the E line gives the statement with its values filled in (the `>` line above it
        # is left out)
        "E       AssertionError: assert 'abd' == 'abc'",
        "tests/test_a.py:12: AssertionError",
        "ERROR: token service unreachable",
        "pytest: 1 failed, 2 passed in 0.10s",
    ]


def test_pytest_failure_without_a_short_summary_keeps_its_block_name() -> None:
    text = PYTEST_FAIL.replace(
        "=========================== short test summary info ============================\n", ""
    )
    text = text.replace(
        "FAILED tests/test_a.py::test_token - AssertionError: assert 'abd' == 'abc'\n", ""
    )
    shown = pytest_fmt.pytest_output(text)
    assert shown is not None and shown[0] == "__ test_token __"


def test_pytest_colours_and_crlf_are_read_like_plain_text() -> None:
    coloured = PYTEST_FAIL.replace("FAILED", "\x1b[31mFAILED\x1b[0m").replace("\n", "\r\n")
    assert pytest_fmt.pytest_output(coloured) == pytest_fmt.pytest_output(PYTEST_FAIL)


def test_pytest_truncated_output_is_not_summarised() -> None:
    truncated = PYTEST_FAIL[: PYTEST_FAIL.index("short test summary")]
    assert pytest_fmt.pytest_output(truncated) is None


def test_pytest_xdist_interleaved_lines() -> None:
    text = (
        "============================= test session starts ==============================\n"
        "created: 2/2 workers\n2 workers [3 items]\n\n"
        "tests/test_a.py::test_one \ntests/test_a.py::test_KeyError \n"
        "[gw1] [ 33%] PASSED tests/test_a.py::test_KeyError \n"
        "tests/test_a.py::test_two \n"
        "[gw0] [ 66%] PASSED tests/test_a.py::test_one \n"
        "[gw1] [100%] FAILED tests/test_a.py::test_two \n\n"
        "=========================== short test summary info ============================\n"
        "FAILED tests/test_a.py::test_two - assert 1 == 2\n"
        "========================= 1 failed, 2 passed in 0.50s ==========================\n"
    )
    assert pytest_fmt.pytest_output(text) == [
        "FAILED tests/test_a.py::test_two - assert 1 == 2",
        "pytest: 1 failed, 2 passed in 0.50s",
    ]


def test_summaries_are_shown_whole_on_failure_instead_of_the_tail() -> None:
    formatter = pytest_fmt.pytest_output
    assert is_summariser(formatter)
    shown = engine.shorten(PYTEST_FAIL, default_rule("pytest"), formatter, 1, 3)
    assert shown[0] == "FAILED tests/test_a.py::test_token"
    assert shown[-1].startswith("pytest: 1 failed")


def test_an_unrecognised_failure_still_gets_the_verbatim_tail() -> None:
    text = "".join(f"line {i}\n" for i in range(10))
    shown = engine.shorten(text, default_rule("pytest"), pytest_fmt.pytest_output, 1, 3)
    assert shown == ["… 7 lines omitted", "line 7", "line 8", "line 9"]


CARGO_TEST_FAIL = """\
   Compiling demo v0.1.0 (/p)
    Finished `test` profile [unoptimized + debuginfo] target(s) in 0.50s
     Running unittests src/lib.rs (target/debug/deps/demo-1)

running 3 tests
test tests::adds ... ok
test tests::Error_names ... ok
test tests::parses ... FAILED

failures:

---- tests::parses stdout ----

thread 'tests::parses' panicked at src/lib.rs:20:9:
assertion `left == right` failed
  left: 1
 right: 2
note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace


failures:
    tests::parses

test result: FAILED. 2 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s

error: test failed, to rerun pass `--lib`
"""


def test_cargo_test_failure() -> None:
    assert cargo.cargo_test(CARGO_TEST_FAIL) == [
        "FAILED tests::parses",
        "  thread 'tests::parses' panicked at src/lib.rs:20:9:",
        "  assertion `left == right` failed",
        "  left: 1",
        "  right: 2",
        "cargo test FAILED: 2 passed, 1 failed (1 suite, 0.00s)",
        "error: test failed, to rerun pass `--lib`",
    ]


def test_cargo_test_pass_sums_every_suite() -> None:
    text = (
        "running 2 tests\ntest a ... ok\ntest b ... ok\n\n"
        "test result: ok. 2 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; "
        "finished in 0.25s\n\n   Doc-tests demo\n\nrunning 1 test\ntest src/lib.rs - f (line 3)"
        " ... ignored\n\ntest result: ok. 0 passed; 0 failed; 1 ignored; 0 measured; "
        "0 filtered out; finished in 0.50s\n"
    )
    assert cargo.cargo_test(text) == ["cargo test ok: 2 passed, 1 ignored (2 suites, 0.75s)"]


CLIPPY = """\
    Checking demo v0.1.0 (/p)
warning: unneeded `return` statement
  --> src/lib.rs:3:5
   |
3  |     return x;
   |     ^^^^^^^^
   |
   = help: for further information visit https://rust-lang.github.io/rust-clippy/master/index.html#needless_return
   = note: `#[warn(clippy::needless_return)]` on by default

warning: unneeded `return` statement
  --> src/main.rs:9:5
   |
9  |     return y;
   |     ^^^^^^^^
   |
   = help: for further information visit https://rust-lang.github.io/rust-clippy/master/index.html#needless_return

error[E0308]: mismatched types
  --> src/lib.rs:12:20
   |
12 |     let n: u32 = "a";
   |            ---   ^^^ expected `u32`, found `&str`

warning: `demo` (lib) generated 2 warnings
error: could not compile `demo` (lib) due to 1 previous error; 2 warnings emitted
"""


def test_rust_backtrace_keeps_the_frames_of_the_crate_only() -> None:
    std = "/rustc/5980761/library"
    frames = [
        "stack backtrace:",
        "   0: __rustc::rust_begin_unwind",
        f"             at {std}/std/src/panicking.rs:689:5",
        "   1: core::panicking::panic_fmt",
        f"             at {std}/core/src/panicking.rs:80:14",
        "   2: demo::check",
        "             at ./tests/check.rs:24:9",
        "   3: core::ops::function::FnOnce::call_once",
        f"             at {std}/core/src/ops/function.rs:250:5",
        "   4: <fn() as core::ops::function::FnOnce<()>>::call_once",
        "   5: demo::helper",
    ]
    assert cargo.without_std_frames(frames) == [
        "stack backtrace:",
        "   2: demo::check",
        "             at ./tests/check.rs:24:9",
        "   5: demo::helper",
    ]


def test_clippy_groups_by_lint_and_keeps_every_location() -> None:
    assert DIAGNOSTICS["cargo"](CLIPPY) == [
        "cargo: 1 error, 2 warnings in 2 files",
        "src/lib.rs:12:20: error E0308: mismatched types",
        "warning clippy::needless_return (×2): unneeded `return` statement",
        "  src/lib.rs:3:5",
        "  src/main.rs:9:5",
        "error: could not compile `demo` (lib) due to 1 previous error; 2 warnings emitted",
    ]


CFG_WARNINGS = """\
warning: unexpected `cfg` condition name: `doc_cfg`
  --> src/lib.rs:64:13
   |
64 | #![cfg_attr(doc_cfg, feature(doc_cfg))]
   |             ^^^^^^^
   |
   = help: or consider adding in `Cargo.toml` the `check-cfg` lint config for the lint:
            [lints.rust]
            unexpected_cfgs = { level = "warn", check-cfg = ['cfg(doc_cfg)'] }
   = help: or consider adding `println!("cargo::rustc-check-cfg=cfg(doc_cfg)");`
   = note: `#[warn(unexpected_cfgs)]` on by default

warning: unexpected `cfg` condition name: `no_std`
  --> src/lib.rs:65:43
   |
   = help: or consider adding in `Cargo.toml` the `check-cfg` lint config for the lint:
            unexpected_cfgs = { level = "warn", check-cfg = ['cfg(no_std)'] }
            password = "hunter2hunter2"

warning: `demo` (lib) generated 2 warnings
"""


def test_rust_help_text_is_read_with_its_diagnostic_but_a_secret_is_kept() -> None:
    assert DIAGNOSTICS["cargo"](CFG_WARNINGS) == [
        "cargo: 2 warnings in 1 file",
        "warning unexpected_cfgs (×2): unexpected `cfg` condition name: `doc_cfg`",
        "  src/lib.rs: 64:13, 65:43 `no_std`",
        '            password = "hunter2hunter2"',
    ]


def test_tsc_groups_by_code_and_says_only_the_names_that_differ() -> None:
    text = (
        "src/a.ts(1,5): error TS2304: Cannot find name 'foo'.\n"
        "src/a.ts(2,5): error TS2304: Cannot find name 'bar'.\n"
        "src/b.ts(3,1): error TS2322: Type 'string' is not assignable to type 'number'.\n"
    )
    assert DIAGNOSTICS["tsc"](text) == [
        "tsc: 3 errors in 2 files",
        "error TS2304 (×2): Cannot find name 'foo'.",
        "  src/a.ts: (1,5), (2,5) 'bar'",
        "src/b.ts(3,1): error TS2322: Type 'string' is not assignable to type 'number'.",
    ]


def test_a_rule_with_many_locations_names_each_file_once_and_keeps_every_position() -> None:
    rows = "".join(
        f"  {n}:1  error  Unexpected var, use let or const instead  no-var\n" for n in range(1, 61)
    )
    text = (
        f"\n/p/src/a.js\n{rows}\n/p/src/b.js\n  4:2  error  Unexpected var, use let or "
        "const instead  no-var\n  9:3  error  Expected '===' and instead saw '=='  no-var\n"
        "\n✖ 62 problems (62 errors, 0 warnings)\n"
    )
    out = DIAGNOSTICS["eslint"](text)
    assert out is not None
    assert out[:2] == [
        "eslint: 62 errors in 2 files",
        "error no-var (×61): Unexpected var, use let or const instead",
    ]
    # a message said once stays on its own line, after the rule's repeated one
    assert out[-3:] == [
        "  /p/src/b.js:4:2",
        "/p/src/b.js:9:3: error no-var: Expected '===' and instead saw '=='",
        "✖ 62 problems (62 errors, 0 warnings)",
    ]
    a_lines = out[2:-3]
    # one file, named once, wrapped so that no line is cut
    assert a_lines[0].startswith("  /p/src/a.js: 1:1 2:1 3:1 ")
    assert len(a_lines) > 1 and all(len(line) < 200 for line in a_lines)
    assert not any("/p/src/a.js" in line for line in a_lines[1:])
    positions = " ".join(a_lines).removeprefix("  /p/src/a.js:").split()
    assert positions == [f"{n}:1" for n in range(1, 61)]


RUFF_FULL = """\
UP045 [*] Use `X | None` for type annotations
  --> src/a.py:18:13
   |
18 |     errors: t.Optional[str],
   |             ^^^^^^^^^^^^^^^
   |
help: Convert to `X | None`
   |
   -     errors: t.Optional[str],
18 +     errors: str | None,
   |
note: This is an unsafe fix and may change runtime behavior

UP045 [*] Use `X | None` for type annotations
  --> src/a.py:40:9
   |
help: Convert to `X | None`
 8  + import contextlib
--------------------------------------------------------------------------------
40 +     errors: str | None,

Found 2 errors.
"""


def test_a_rule_that_says_two_things_says_each_once() -> None:
    text = "".join(
        f"src/a.c:{n}:{col}: warning: {msg} [-Wspace]\n"
        for n in (1, 2, 3)
        for col, msg in ((5, "no space after '{'"), (9, "no space before '}'"))
    )
    assert DIAGNOSTICS["gcc"](text) == [
        "gcc: 6 warnings in 1 file",
        "warning -Wspace (×3): no space after '{'",
        "  src/a.c: 1:5 2:5 3:5",
        "warning -Wspace (×3): no space before '}'",
        "  src/a.c: 1:9 2:9 3:9",
    ]


def test_ruff_full_format_fix_previews_are_read_with_their_diagnostic() -> None:
    assert DIAGNOSTICS["ruff"](RUFF_FULL) == [
        "ruff: 2 errors in 1 file",
        "error UP045 (×2): Use `X | None` for type annotations",
        "  src/a.py: 18:13 40:9",
        "Found 2 errors.",
    ]


def test_eslint_stylish_rows_get_their_file() -> None:
    text = (
        "\n/p/src/a.js\n  1:5  error  'x' is defined but never used  no-unused-vars\n"
        "  2:1  warning  Unexpected var, use let or const instead  no-var\n\n"
        "/p/src/b.js\n  7:3  error  'y' is defined but never used  no-unused-vars\n\n"
        "✖ 3 problems (2 errors, 1 warning)\n"
    )
    assert DIAGNOSTICS["eslint"](text) == [
        "eslint: 2 errors, 1 warning in 2 files",
        "error no-unused-vars (×2): 'x' is defined but never used",
        "  /p/src/a.js:1:5",
        "  /p/src/b.js:7:3 'y'",
        "/p/src/a.js:2:1: warning no-var: Unexpected var, use let or const instead",
        "✖ 3 problems (2 errors, 1 warning)",
    ]


def test_xo_rows_get_the_file_of_their_header() -> None:
    text = (
        "\n  lib/a.js:1:9\n  ⚠   7:3    Too many parameters (5).    max-params\n"
        "  ✖   1:9    There should be no space after {.    object-curly-spacing\n\n"
        "  1 warning\n  1 error\n"
    )
    assert DIAGNOSTICS["xo"](text) == [
        "xo: 1 error, 1 warning in 1 file",
        "lib/a.js:1:9: error object-curly-spacing: There should be no space after {.",
        "lib/a.js:7:3: warning max-params: Too many parameters (5).",
    ]


@pytest.mark.parametrize(
    ("tool", "line", "code"),
    [
        ("mypy", "src/a.py:3: error: Missing return statement  [return]", "return"),
        ("flake8", "src/a.py:1:80: E501 line too long (88 > 79 characters)", "E501"),
        ("ruff", "src/a.py:1:8: F401 [*] `os` imported but unused", "F401"),
        ("gcc", "x.c:12:5: warning: unused variable 'n' [-Wunused-variable]", "-Wunused-variable"),
        ("go", "./main.go:7:2: fmt.Println arg list ends with redundant newline", ""),
        (
            "pyright",
            '  /p/a.py:4:1 - error: Import "x" could not be resolved (reportMissingImports)',
            "reportMissingImports",
        ),
        ("dotnet", "/p/A.cs(3,9): error CS1002: ; expected [/p/A.csproj]", "CS1002"),
        ("mvn", "[ERROR] /p/A.java:[3,9] cannot find symbol", ""),
    ],
)
def test_one_diagnostic_per_tool_shape(tool: str, line: str, code: str) -> None:
    shown = DIAGNOSTICS[tool](line + "\n")
    assert shown is not None and len(shown) == 2
    assert (code in shown[1]) and shown[0].startswith(f"{'maven' if tool == 'mvn' else tool}: 1 ")


def test_javac_source_line_and_symbol() -> None:
    text = (
        "A.java:3: error: cannot find symbol\nimport x.Y;\n        ^\n"
        "  symbol:   class Y\n  location: package x\n1 error\n"
    )
    assert DIAGNOSTICS["javac"](text) == [
        "javac: 1 error in 1 file",
        "A.java:3: error: cannot find symbol (symbol: class Y) (location: package x)",
        "1 error",
    ]


def test_diagnostics_stand_down_without_a_diagnostic() -> None:
    assert DIAGNOSTICS["gcc"]("gcc -c a.c\nall done\n") is None


GO_VERBOSE_FAIL = """\
=== RUN   TestA
    a_test.go:5: log of a passing test
--- PASS: TestA (0.00s)
=== RUN   TestB
=== RUN   TestB/one
    b_test.go:9: want 2, got 3
=== RUN   TestB/two
    b_test.go:9: want 2, got 3
--- FAIL: TestB (0.00s)
    --- FAIL: TestB/one (0.00s)
    --- FAIL: TestB/two (0.00s)
FAIL
FAIL\texample.com/b\t0.01s
ok  \texample.com/a\t0.02s
?   \texample.com/c\t[no test files]
FAIL
"""


def test_go_verbose_failures_with_the_same_reason_share_it() -> None:
    assert gotest.go_test(GO_VERBOSE_FAIL) == [
        "--- FAIL: TestB",
        "--- FAIL: TestB/one",
        "--- FAIL: TestB/two",
        "    b_test.go:9: want 2, got 3",
        "FAIL\texample.com/b\t0.01s",
        "ok: example.com/a",
        "go test: 1 package ok; 1 failed; 1 without tests; tests: 1 passed, 3 failed; 0.03s",
    ]


def test_go_passing_test_error_lines_are_kept_once_with_their_count() -> None:
    run = (
        "=== RUN   TestRetry\n    retry_test.go:9: error: dial refused, retrying\n"
        "--- PASS: TestRetry (0.00s)\n"
    )
    failing = "=== RUN   TestB\n    b_test.go:3: want 1\n--- FAIL: TestB (1.50s)\n"
    text = run * 3 + failing + "FAIL\nFAIL\texample.com/net\t1.510s\n"
    assert gotest.go_test(text) == [
        "--- FAIL: TestB (1.50s)",
        "    b_test.go:3: want 1",
        "FAIL\texample.com/net\t1.510s",
        "    retry_test.go:9: error: dial refused, retrying (×3)",
        "go test: 0 packages ok; 1 failed; tests: 3 passed, 1 failed; 1.51s",
    ]


def test_go_passing_run_is_one_line_even_when_tests_log_failures() -> None:
    # a test that checks a test helper runs failing tests of its own and still passes
    text = (
        "=== RUN   TestRetry\n    retry_test.go:9: error: dial refused, retrying\n"
        "--- PASS: TestRetry (0.00s)\n=== RUN   TestSuite\n=== RUN   TestSuite/Inner\n"
        "    suite_test.go:4: Error: Not equal\n--- FAIL: TestSuite/Inner (0.00s)\n"
        "--- PASS: TestSuite (0.00s)\n        PASS\nPASS\nok  \texample.com/net\t0.250s\n"
    )
    assert gotest.go_test(text) == [
        "ok: example.com/net",
        "go test: 1 package ok; tests: 2 passed; 0.25s",
    ]


def test_go_testify_report_drops_what_the_test_line_already_says() -> None:
    text = (
        "--- FAIL: TestConv (0.00s)\n    map_test.go:116: \n"
        "        \tError Trace:\t/src/objx/map_test.go:116\n"
        "        \t            \t/src/objx/helper.go:20\n"
        "        \tError:      \tNot equal: \n"
        "        \t            \texpected: 1\n"
        "        \tTest:       \tTestConv\nFAIL\nFAIL\texample.com/objx\t0.010s\n"
    )
    assert gotest.go_test(text) == [
        "--- FAIL: TestConv",
        "    map_test.go:116:",
        "    /src/objx/helper.go:20",
        "    Error: Not equal:",
        "    expected: 1",
        "FAIL\texample.com/objx\t0.010s",
        "go test: 0 packages ok; 1 failed; tests: 1 failed; 0.01s",
    ]


def test_go_testify_location_is_kept_under_every_test_that_logged_it() -> None:
    def failing(name: str, message: str) -> str:
        return (
            f"--- FAIL: {name} (0.00s)\n    lists_test.go:919: \n"
            "        \tError:      \tNot equal: \n"
            f"        \tMessages:   \t{message}\n"
        )

    text = (
        failing("TestDiff/empty", "extra A for []")
        + failing("TestDiff/same", "extra A for [x]")
        + "FAIL\nFAIL\texample.com/lists\t0.010s\n"
    )
    assert gotest.go_test(text) == [
        "--- FAIL: TestDiff/empty",
        "    lists_test.go:919: Error: Not equal:",
        "    Messages: extra A for []",
        "--- FAIL: TestDiff/same",
        "    lists_test.go:919: Error: Not equal:",
        "    Messages: extra A for [x]",
        "FAIL\texample.com/lists\t0.010s",
        "go test: 0 packages ok; 1 failed; tests: 2 failed; 0.01s",
    ]


def test_go_failure_details_are_cut_after_a_few_lines_and_counted() -> None:
    dump = "".join(f"        field{n}: {n}\n" for n in range(8))
    text = (
        "--- FAIL: TestDump (0.00s)\n    dump_test.go:7: values differ\n"
        + dump
        + "        error: field7 is wrong\n        reason: the fields differ\n"
        "FAIL\nFAIL\texample.com/dump\t0.010s\n"
    )
    shown = gotest.go_test(text)
    assert shown is not None
    assert shown[:8] == [
        "--- FAIL: TestDump",
        "    dump_test.go:7: values differ",
        "    field0: 0",
        "    field1: 1",
        "    field2: 2",
        "    … 5 more lines",
        "    error: field7 is wrong",
        "    reason: the fields differ",
    ]


def test_go_cut_details_are_counted_as_the_raw_lines_they_were() -> None:
    # run with -count=2, the test logs each line twice: the cut says how many raw lines
    dump = "".join(f"        field{n}: {n}\n" for n in range(8))
    report = "    dump_test.go:7: values differ\n" + dump + "        reason: the fields differ\n"
    text = (
        "=== RUN   TestDump\n" + report + "--- FAIL: TestDump (0.00s)\n"
        "=== RUN   TestDump\n" + report + "--- FAIL: TestDump (0.00s)\n"
        "FAIL\nFAIL\texample.com/dump\t0.010s\n"
    )
    shown = gotest.go_test(text)
    assert shown is not None
    assert shown[1:7] == [
        "    dump_test.go:7: values differ (×2)",
        "    field0: 0 (×2)",
        "    field1: 1 (×2)",
        "    field2: 2 (×2)",
        "    … 10 more lines",
        "    reason: the fields differ (×2)",
    ]


def test_go_failures_past_the_first_ones_keep_their_location_and_errors_only() -> None:
    def failing(number: int) -> str:
        return (
            f"--- FAIL: TestCase{number} (0.00s)\n    case_test.go:{number}: \n"
            "        \tError:      \tNot equal: \n"
            f"        \t            \texpected: {number}\n"
            f"        \t            \tactual  : {number + 1}\n"
            "        \t            \tDiff:\n"
        )

    text = "".join(failing(n) for n in range(1, 13)) + "FAIL\nFAIL\texample.com/cases\t0.010s\n"
    shown = gotest.go_test(text)
    assert shown is not None
    assert shown[:5] == [
        "--- FAIL: TestCase1",
        "    case_test.go:1: Error: Not equal:",
        "    expected: 1",
        "    actual: 2",
        "    Diff:",
    ]
    assert shown[-5:-1] == [
        "--- FAIL: TestCase12",
        "    case_test.go:12: Error: Not equal:",
        "    … 3 more lines",
        "FAIL\texample.com/cases\t0.010s",
    ]
    assert sum(line.startswith("--- FAIL: TestCase") for line in shown) == 12


def test_go_panic_keeps_its_innermost_frames() -> None:
    text = (
        "--- FAIL: TestB (0.00s)\npanic: runtime error: index out of range [recovered]\n\n"
        "goroutine 7 [running]:\n"
        + "".join(f"example.com/b.f{n}(0xc000012345)\n\t/p/b.go:{n} +0x1d\n" for n in range(1, 7))
        + "FAIL\texample.com/b\t0.010s\nFAIL\n"
    )
    shown = gotest.go_test(text)
    assert shown is not None
    # three frames (a call and its file line each), the rest counted, the outermost last
    assert shown[3:11] == [
        "    example.com/b.f1(…)",
        "    /p/b.go:1",
        "    example.com/b.f2(…)",
        "    /p/b.go:2",
        "    example.com/b.f3(…)",
        "    /p/b.go:3",
        "    … 5 more lines",
        "    /p/b.go:6",
    ]


def test_go_frames_repeated_across_tests_with_other_arguments_are_shown_once() -> None:
    def failing(name: str, arg: str) -> str:
        return (
            f"=== RUN   {name}\n    Panic stack:\tgoroutine 7 [running]:\n"
            f"    example.com/m.(*Mock).fail({arg}, {{0x6209cf?, 0x1?}})\n"
            f"    \t/src/m/mock.go:322 +0x{arg[-3:]}\n"
            f"    expected: pkg.Value(0x1)\n--- FAIL: {name} (0.00s)\n"
        )

    text = (
        failing("TestA", "0xc000016fa0")
        + failing("TestB", "0xc0000170e0")
        + "FAIL\nFAIL\texample.com/m\t0.010s\n"
    )
    assert gotest.go_test(text) == [
        "--- FAIL: TestA",
        "--- FAIL: TestB",
        "    Panic stack:\tgoroutine [running]:",
        "    example.com/m.(*Mock).fail(…)",
        "    /src/m/mock.go:322",
        "    expected: pkg.Value(0x1)",
        "FAIL\texample.com/m\t0.010s",
        "go test: 0 packages ok; 1 failed; tests: 0 passed, 2 failed; 0.01s",
    ]


def test_go_pass_is_its_counts() -> None:
    text = "ok  \texample.com/a\t0.02s\n?   \texample.com/c\t[no test files]\n"
    assert gotest.go_test(text) == [
        "ok: example.com/a",
        "go test: 1 package ok; 1 without tests; 0.02s",
    ]


def test_go_runtime_frames_leave_a_panic() -> None:
    lines = [
        "panic: boom [recovered]",
        "goroutine 7 [running]:",
        "testing.tRunner.func1()",
        "\t/usr/lib/go-1.19/src/testing/testing.go:1396 +0x24e",
        "example.com/b.TestB(0x0?)",
        "\t/p/b_test.go:12 +0x19",
        "created by testing.(*T).Run",
        "\t/usr/lib/go-1.19/src/testing/testing.go:1493 +0x35f",
    ]
    assert gotest.without_runtime_frames(lines) == [
        "panic: boom [recovered]",
        "goroutine 7 [running]:",
        "example.com/b.TestB(0x0?)",
        "\t/p/b_test.go:12 +0x19",
    ]


JEST_FAIL = """\
  console.warn
    deprecated thing

      3 | warn()
        at warn (test/a.test.js:3:1)

FAIL test/a.test.js
  sum
    ✓ adds (2 ms)
    ✕ subtracts (1 ms)

  ● sum › subtracts

    expect(received).toBe(expected) // Object.is equality

    Expected: 1
    Received: 2

      10 |   expect(sub(3, 1)).toBe(1)
         |                     ^
      at Object.toBe (test/a.test.js:10:21)
      at Promise.then.completed (node_modules/jest-circus/build/utils.js:298:28)

Test Suites: 1 failed, 1 total
Tests:       1 failed, 1 passed, 2 total
Snapshots:   0 total
Time:        0.5 s
"""


def test_jest_failure_keeps_the_failed_test_its_reason_and_location() -> None:
    assert runners.FORMATTERS["jest"](JEST_FAIL) == [
        # the `✕` line names the test the `●` report names in full; the excerpt's line is
        # the one the frame under it names; a count of none says nothing
        "FAIL test/a.test.js",
        "  ● sum › subtracts",
        "    expect(received).toBe(expected) // Object.is equality",
        "    Expected: 1",
        "    Received: 2",
        "      at Object.toBe (test/a.test.js:10:21)",
        "jest: Test Suites: 1 failed, 1 total; Tests: 1 failed, 1 passed, 2 total; Time: 0.5 s",
    ]


def test_jest_helper_frames_of_an_earlier_failure_are_counted_not_repeated() -> None:
    def failure(name: str, line: int) -> str:
        return (
            f"  ● api › {name}\n\n    Expected: 200\n    Received: 500\n\n"
            "      at expectOk (test/helpers.js:4:20)\n"
            f"      at Object.<anonymous> (test/api.test.js:{line}:5)\n\n"
        )

    text = (
        "FAIL test/api.test.js\n  api\n    ✕ get (3 ms)\n    ✕ put (2 ms)\n\n"
        + failure("get", 8)
        + failure("put", 12)
        + "Test Suites: 1 failed, 1 total\nTests:       2 failed, 2 total\n"
    )
    assert runners.FORMATTERS["jest"](text) == [
        "FAIL test/api.test.js",
        "  ● api › get",
        "    Expected: 200",
        "    Received: 500",
        "      at expectOk (test/helpers.js:4:20)",
        "      at Object.<anonymous> (test/api.test.js:8:5)",
        "  ● api › put",
        "    Expected: 200",
        "    Received: 500",
        "      … 1 frame as above",
        "      at Object.<anonymous> (test/api.test.js:12:5)",
        "jest: Test Suites: 1 failed, 1 total; Tests: 2 failed, 2 total",
    ]


def test_jest_pass_is_one_line() -> None:
    text = (
        "PASS test/a.test.js\n  ✓ adds (2 ms)\n\nTest Suites: 1 passed, 1 total\n"
        "Tests:       1 passed, 1 total\nSnapshots:   0 total\nTime:        0.4 s, estimated 1 s\n"
    )
    # no snapshots and jest's estimate of the time say nothing of this run
    assert runners.FORMATTERS["jest"](text) == [
        "jest: Test Suites: 1 passed, 1 total; Tests: 1 passed, 1 total; Time: 0.4 s"
    ]
    written = text.replace("Snapshots:   0 total", "Snapshots:   2 written, 2 total")
    assert runners.FORMATTERS["jest"](written) == [
        "jest: Test Suites: 1 passed, 1 total; Tests: 1 passed, 1 total; "
        "Snapshots: 2 written, 2 total; Time: 0.4 s"
    ]


def test_mocha_failure_details_after_the_list() -> None:
    text = (
        "  math\n    ✔ adds\n    1) subtracts\n\n  1 passing (5ms)\n  1 failing\n\n"
        "  1) math\n       subtracts:\n     AssertionError [ERR_ASSERTION]: 2 == 1\n"
        "      at Context.<anonymous> (test/math.js:9:12)\n"
        "      at process.processImmediate (node:internal/timers:483:21)\n"
    )
    assert runners.FORMATTERS["mocha"](text) == [
        "    1) subtracts",
        "  1) math",
        "       subtracts:",
        "     AssertionError [ERR_ASSERTION]: 2 == 1",
        "      at Context.<anonymous> (test/math.js:9:12)",
        "mocha: 1 passing (5ms); 1 failing",
    ]


def test_unittest_pass_with_a_warning_printed_into_the_dots() -> None:
    text = (
        "....../p/m.py:9: DeprecationWarning: old\n  warnings.warn(\n....\n"
        "----------------------------------------------------------------------\n"
        "Ran 10 tests in 0.01s\n\nOK\n"
    )
    assert runners.FORMATTERS["unittest"](text) == [
        "unittest: Ran 10 tests in 0.01s; OK",
        "/p/m.py:9: DeprecationWarning: old",
        "  warnings.warn(",
    ]


def test_ctest_failure_lists_the_failed_tests() -> None:
    # the list's heading and a test program's own counts say nothing its lines do not
    text = (
        "Test project /p/build\n      Start  1: a\n 1/2 Test  #1: a ....   Passed    0.00 sec\n"
        "      Start  2: b\n 2/2 Test  #2: b ....***Failed    0.01 sec\n"
        "b.c:9:test_b:FAIL: Expected 1 Was 2\n3 Tests 1 Failures 0 Ignored\nFAIL\n\n"
        "50% tests passed, 1 tests failed out of 2\n\nTotal Test time (real) =   0.02 sec\n\n"
        "The following tests FAILED:\n\t  2 - b (Failed)\n"
    )
    assert runners.FORMATTERS["ctest"](text) == [
        " 2/2 Test  #2: b ....***Failed    0.01 sec",
        "b.c:9:test_b:FAIL: Expected 1 Was 2",
        "\t  2 - b (Failed)",
        "ctest: 50% tests passed, 1 tests failed out of 2; 0.02 sec",
    ]


def test_runner_stands_down_without_its_summary() -> None:
    for formatter in runners.FORMATTERS.values():
        assert formatter("compiling\nsomething else\n") is None


def test_npm_test_reads_the_runner_behind_the_script() -> None:
    family, words = family_of_command("npm test")
    formatter = formatter_for(family, words)
    assert formatter is not None
    text = "\n> demo@1.0.0 test\n> mocha\n\n  ✔ adds\n\n  1 passing (3ms)\n"
    assert formatter(text) == ["mocha: 1 passing (3ms)"]


@pytest.mark.parametrize(
    "command",
    [
        "npm run test:browser",
        "pnpm test:e2e",
        "yarn e2e",
        "npm run-script test-unit",
        "pnpm run app:e2e",
    ],
)
def test_a_script_named_for_a_kind_of_tests_reads_the_runner_behind_it(command: str) -> None:
    family, words = family_of_command(command)
    formatter = formatter_for(family, words)
    assert formatter is not None
    text = (
        "Running 2 tests using 1 worker\n\n  ✓  1 [chrome] › a_tests.js:4:5 › renders (0.4s)\n"
        "  ✓  2 [chrome] › a_tests.js:9:5 › keeps (0.5s)\n\n  2 passed (2.1s)\n"
    )
    assert formatter(text) == ["playwright: 2 passed (2.1s)"]


def test_other_scripts_are_not_read_as_tests() -> None:
    for command in ("npm run build", "npm run attest", "pnpm run latest", "yarn testing"):
        family, words = family_of_command(command)
        assert formatter_for(family, words) is None, command


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("python -m pytest -q", "pytest_output"),
        ("cargo test", "cargo_test"),
        ("go test ./...", "go_test"),
        ("python3 -m unittest", "unittest_output"),
        ("npx tsc --noEmit", "tsc_diagnostics"),
        ("bundle exec rspec", "rspec_output"),
        ("node --test", "tap_output"),
        ("go vet ./...", "go_diagnostics"),
    ],
)
def test_families_reach_their_summaries(command: str, expected: str) -> None:
    family, words = family_of_command(command)
    formatter = formatter_for(family, words)
    assert formatter is not None and is_summariser(formatter)
    assert getattr(formatter, "__name__", None) == expected


def test_other_subcommands_keep_their_rules() -> None:
    for command in ("cargo fmt", "go mod tidy", "npm install", "node app.js", "dotnet --info"):
        family, words = family_of_command(command)
        formatter = formatter_for(family, words)
        assert formatter is None or not is_summariser(formatter), command


PLAYWRIGHT_FAIL = """\
Running 2 tests using 1 worker

  ✓  1 [chromium] › example.spec.ts:3:1 › has title (1.2s)
  ✘  2 [chromium] › example.spec.ts:10:1 › get started link (5.1s)

  1) [chromium] › example.spec.ts:10:1 › get started link ──────────────────────

    Error: Timed out 5000ms waiting for expect(locator).toBeVisible()

    Locator: getByRole('heading', { name: 'Installation' })

       9 |   await page.getByRole('link', { name: 'Get started' }).click();
    > 10 |   await expect(page.getByRole('heading', { name: 'Installation' })).toBeVisible();
         |                                                                     ^
      at /p/tests/example.spec.ts:10:69

  1 failed
    [chromium] › example.spec.ts:10:1 › get started link ──────────────────────
  1 passed (6.5s)
"""


def test_playwright_failure_and_pass() -> None:
    # the progress line and the name under the counts repeat the report's header; the
    # failing source line is named by the frame under it
    assert runners.FORMATTERS["playwright"](PLAYWRIGHT_FAIL) == [
        "  1) [chromium] › example.spec.ts:10:1 › get started link",
        "      at /p/tests/example.spec.ts:10:69",
        "    Error: Timed out 5000ms waiting for expect(locator).toBeVisible()",
        "    Locator: getByRole('heading', { name: 'Installation' })",
        "playwright: 1 failed; 1 passed (6.5s)",
    ]
    passing = (
        "Running 1 test using 1 worker\n\n  ✓  1 [chromium] › a.spec.ts:3:1 › t (1.0s)\n\n"
        "  1 passed (1.4s)\n"
    )
    assert runners.FORMATTERS["playwright"](passing) == ["playwright: 1 passed (1.4s)"]


PLAYWRIGHT_RETRIED = """\
Running 3 tests using 1 worker

  ✘  1 [chrome] › a_tests.js:4:5 › posts away (818ms)
  ✘  2 [chrome] › a_tests.js:4:5 › posts away (retry #1) (5.9s)
  ✘  3 [chrome] › a_tests.js:4:5 › posts away (retry #2) (5.7s)
  ✓  4 [chrome] › a_tests.js:12:5 › stays (400ms)
  ✘  5 [chrome] › b_tests.js:8:5 › reads the list (1.1s)
  ✓  6 [chrome] › b_tests.js:8:5 › reads the list (retry #1) (1.0s)


  1) [chrome] › a_tests.js:4:5 › posts away ──────────────────────────────────────────────

    Error: page.evaluate: Execution context was destroyed, most likely because of a navigation

       at helpers/page.js:237

      235 |
    > 237 |   return page.evaluate(
          |               ^
        at readArray (/p/helpers/page.js:237:15)
        at /p/a_tests.js:6:25

    Retry #1 ───────────────────────────────────────────────────────────────────────────────

    Error: Timed out 5000ms waiting for expect(locator).toHaveURL(expected)

    Expected string: "https://example.org/post"
    Received string: "chrome-error://chromewebdata/"

        at /p/a_tests.js:7:22

    Retry #2 ───────────────────────────────────────────────────────────────────────────────

    Error: Timed out 5000ms waiting for expect(locator).toHaveURL(expected)

    Expected string: "https://example.org/post"
    Received string: "chrome-error://chromewebdata/"

        at /p/a_tests.js:7:22

  2) [chrome] › b_tests.js:8:5 › reads the list ──────────────────────────────────────────

    Error: expect(received).toEqual(expected) // deep equality

    Expected: 1
    Received: 0

        at /p/b_tests.js:10:28

  1 failed
    [chrome] › a_tests.js:4:5 › posts away ───────────────────────────────────────────────
  1 flaky
    [chrome] › b_tests.js:8:5 › reads the list ───────────────────────────────────────────
  1 passed (14.2s)
"""


def test_playwright_call_log_keeps_only_what_the_locator_resolved_to() -> None:
    def attempt(polls: int) -> str:
        return (
            "    Error: Timed out 5000ms waiting for expect(locator).toHaveText(expected)\n\n"
            "    Locator: locator('#out')\n    Expected string: \"on\"\n"
            '    Received string: "off"\n    Call log:\n'
            "      - expect.toHaveText with timeout 5000ms\n"
            "      - waiting for locator('#out')\n"
            f'        {polls} × locator resolved to <div id="out">off</div>\n'
            '          - unexpected value "off"\n\n'
            "      4 |   await page.click('#go')\n"
            "    > 5 |   await expect(page.locator('#out')).toHaveText('on')\n"
            "        |                                      ^\n"
            "        at /p/a.spec.js:5:40\n\n"
        )

    text = (
        "  1) [chrome] › a.spec.js:3:5 › turns on ──────────\n\n"
        + attempt(9)
        + "    Retry #1 ──────────\n\n"
        + attempt(8)
        + "  1 failed\n    [chrome] › a.spec.js:3:5 › turns on ──────────\n  2 passed (9.0s)\n"
    )
    assert runners.FORMATTERS["playwright"](text) == [
        "  1) [chrome] › a.spec.js:3:5 › turns on",
        "        at /p/a.spec.js:5:40",
        "    Error: Timed out 5000ms waiting for expect(locator).toHaveText(expected)",
        "    Locator: locator('#out')",
        '    Expected string: "on"',
        '    Received string: "off"',
        '        9 × locator resolved to <div id="out">off</div>',
        "    Retry #1: the same as the first attempt",
        "playwright: 1 failed; 2 passed (9.0s)",
    ]


def test_playwright_retries_that_read_the_same_are_one_line() -> None:
    # a flaky test's header says so (the names under `1 flaky` are left out)
    assert runners.FORMATTERS["playwright"](PLAYWRIGHT_RETRIED) == [
        "  1) [chrome] › a_tests.js:4:5 › posts away",
        "        at readArray (/p/helpers/page.js:237:15)",
        "        at /p/a_tests.js:6:25",
        "    Error: page.evaluate: Execution context was destroyed, most likely because of a "
        "navigation",
        "    Retry #1",
        "    Error: Timed out 5000ms waiting for expect(locator).toHaveURL(expected)",
        '    Expected string: "https://example.org/post"',
        '    Received string: "chrome-error://chromewebdata/"',
        "        at /p/a_tests.js:7:22",
        "    Retry #2: the same as retry #1",
        "  2) [chrome] › b_tests.js:8:5 › reads the list (flaky)",
        "        at /p/b_tests.js:10:28",
        "    Error: expect(received).toEqual(expected) // deep equality",
        "    Expected: 1",
        "    Received: 0",
        "playwright: 1 failed; 1 flaky; 1 passed (14.2s)",
    ]


def test_playwright_retries_like_the_first_attempt_and_tests_that_share_reasons() -> None:
    report = (
        "    Error: expect(received).toEqual(expected) // deep equality\n\n"
        "    Expected: false\n    Received: true\n\n"
    )
    text = (
        "Running 2 tests using 1 worker\n\n"
        + "".join(
            f"  {n}) [chrome] › r_tests.js:{line}:5 › drops {what} ─────\n\n"
            + report
            + f"        at /p/r_tests.js:{line + 5}:53\n\n"
            + "".join(
                f"    Retry #{k} ─────\n\n" + report + f"        at /p/r_tests.js:{line + 5}:53\n\n"
                for k in (1, 2)
            )
            for n, line, what in ((1, 260, "styles"), (2, 276, "links"))
        )
        + "  2 failed\n    [chrome] › r_tests.js:260:5 › drops styles ─\n"
        + "    [chrome] › r_tests.js:276:5 › drops links \n  3 passed (9.0s)\n"
    )
    assert runners.FORMATTERS["playwright"](text) == [
        "  1) [chrome] › r_tests.js:260:5 › drops styles",
        "        at /p/r_tests.js:265:53",
        "  2) [chrome] › r_tests.js:276:5 › drops links",
        "        at /p/r_tests.js:281:53",
        "    Error: expect(received).toEqual(expected) // deep equality",
        "    Expected: false",
        "    Received: true",
        "    Retry #1, #2: the same as the first attempt",
        "playwright: 2 failed; 3 passed (9.0s)",
    ]


def test_playwright_line_and_dot_progress_is_left_out() -> None:
    report = (
        "  1) [chrome] › r_tests.js:202:5 › sets dir ───\n\n"
        "    Error: expect(received).toEqual(expected) // deep equality\n\n"
        '    Expected: "rtl"\n    Received: ""\n\n'
        "        at /p/r_tests.js:205:38\n\n"
    )
    counts = "  1 failed\n    [chrome] › r_tests.js:202:5 › sets dir ───\n  2 passed (3.0s)\n"
    line = (
        "\nRunning 3 tests using 1 worker\n\n"
        "\x1b[1A\x1b[2K[1/3] [chrome] › r_tests.js:26:5 › renders\n"
        "\x1b[1A\x1b[2K[2/3] [chrome] › r_tests.js:202:5 › sets dir\n"
        "\x1b[1A\x1b[2K" + report + "\x1b[1A\x1b[2K[3/3] [chrome] › r_tests.js:210:5 › keeps\n"
        "\x1b[1A\x1b[2K[4/3] (retries) [chrome] › r_tests.js:202:5 › sets dir (retry #1)\n"
        "\x1b[1A\x1b[2K" + counts
    )
    dot = "\nRunning 3 tests using 1 worker\n··F\n\n" + report + counts
    expected = [
        "  1) [chrome] › r_tests.js:202:5 › sets dir",
        "        at /p/r_tests.js:205:38",
        "    Error: expect(received).toEqual(expected) // deep equality",
        '    Expected: "rtl"',
        '    Received: ""',
        "playwright: 1 failed; 2 passed (3.0s)",
    ]
    assert runners.FORMATTERS["playwright"](line) == expected
    assert runners.FORMATTERS["playwright"](dot) == expected


def test_playwright_stopped_early_counts_the_error_outside_the_tests() -> None:
    text = (
        "Running 3 tests using 1 worker\n\n  ✓  1 [chrome] › r_tests.js:26:5 › renders (1.3s)\n"
        "  ✘  2 [chrome] › r_tests.js:202:5 › sets dir (5.6s)\n"
        "\x1b[31mTesting stopped early after 1 maximum allowed failures.\x1b[39m\n\n\n"
        "  1) [chrome] › r_tests.js:202:5 › sets dir ───\n\n"
        "    Error: expect(received).toEqual(expected)\n\n"
        "        at /p/r_tests.js:205:38\n\n"
        "  1 failed\n    [chrome] › r_tests.js:202:5 › sets dir ───\n  1 did not run\n"
        "  1 passed (3.0s)\n  1 error was not a part of any test, see above for details\n"
    )
    assert runners.FORMATTERS["playwright"](text) == [
        "Testing stopped early after 1 maximum allowed failures.",
        "  1) [chrome] › r_tests.js:202:5 › sets dir",
        "        at /p/r_tests.js:205:38",
        "    Error: expect(received).toEqual(expected)",
        "playwright: 1 failed; 1 did not run; 1 passed (3.0s); 1 error was not a part of any "
        "test, see above for details",
    ]


def test_rspec_pass_and_a_gem_frame() -> None:
    text = (
        "..F\n\nFailures:\n\n  1) Env sets FOO\n"
        "     Failure/Error: expect(ENV['FOO']).to eq 'x'\n"
        "     # ./spec/env_spec.rb:4:in `block (2 levels) in <top (required)>'\n"
        "     # /usr/share/rubygems-integration/all/gems/rspec-core-3.12.0/lib/rspec.rb:1\n\n"
        "Finished in 0.01 seconds (files took 0.05 seconds to load)\n3 examples, 1 failure\n\n"
        "Failed examples:\n\nrspec ./spec/env_spec.rb:3 # Env sets FOO\n"
    )
    assert runners.FORMATTERS["rspec"](text) == [
        "Failures:",
        "  1) Env sets FOO",
        "     Failure/Error: expect(ENV['FOO']).to eq 'x'",
        "     # ./spec/env_spec.rb:4:in `block (2 levels) in <top (required)>'",
        "Failed examples:",
        "rspec ./spec/env_spec.rb:3 # Env sets FOO",
        "rspec: Finished in 0.01 seconds (files took 0.05 seconds to load); 3 examples, 1 failure",
    ]


def test_go_json_events_are_read_as_the_text_they_carry() -> None:
    import json

    events = [
        {"Action": "output", "Package": "example.com/b", "Output": line}
        for line in GO_VERBOSE_FAIL.splitlines(keepends=True)
    ]
    text = "".join(json.dumps(event) + "\n" for event in events)
    assert gotest.go_test(text) == gotest.go_test(GO_VERBOSE_FAIL)
    assert gotest.go_test('{"Action": "output", "Output": "not json at all\n') is None


# two tests that fail the same way, then a setup error
_SAME_FAILURE = """\
___________________________________ test_a[{n}] __________________________________

>       assert out == expect
E       AssertionError: assert 'a' == 'b'
E        +  where 'a' = f('x')
E        +    where f = <function f at 0x7f>
E       assert 'a' == 'b'

tests/test_u.py:5: AssertionError
"""
PYTEST_SAME_FAILURES = (
    "=================================== FAILURES ===================================\n"
    + _SAME_FAILURE.format(n=1)
    + _SAME_FAILURE.format(n=2)
    + """\
_________________________________ ERROR at setup _______________________________
../venv/lib/python3.11/site-packages/_pytest/fixtures.py:10: in call
tests/conftest.py:3: in db
E   RuntimeError: no database
!!!!!!!!!!!!!!!!!!!!!!!!!!! stopping after 3 failures !!!!!!!!!!!!!!!!!!!!!!!!!!!
=========================== short test summary info ============================
FAILED tests/test_u.py::test_a[1] - AssertionError: assert 'a' == 'b'
FAILED tests/test_u.py::test_a[2] - AssertionError: assert 'a' == 'b'
=================== 2 failed, 1 error, 4 passed in 0.10s ====================
"""
)


def test_pytest_diff_of_values_the_assertion_shows_whole_is_left_out() -> None:
    def failure(expected: str, got: str, diff: list[str]) -> str:
        return (
            "================================= FAILURES =================================\n"
            "________________________________ test_v ________________________________\n\n"
            "    def test_v():\n>       assert got == expected\n"
            f"E       AssertionError: assert '{got}' == '{expected}'\n"
            + "".join(f"E         {line}\n" for line in diff)
            + "E         Use -v to get more diff\n\ntests/test_v.py:3: AssertionError\n"
            "=========================== short test summary info ============================\n"
            f"FAILED tests/test_v.py::test_v - AssertionError: assert '{got}' == '{expected}'\n"
            "============================== 1 failed in 0.10s ===============================\n"
        )

    shown = pytest_fmt.pytest_output(
        failure("1.0.post0", "1.0post0", ["- 1.0.post0", "?    -", "+ 1.0post0"])
    )
    assert shown == [
        "FAILED tests/test_v.py::test_v",
        "E       AssertionError: assert '1.0post0' == '1.0.post0'",
        "tests/test_v.py:3: AssertionError",
        "pytest: 1 failed in 0.10s",
    ]
    # a value pytest cut (`...`) is not shown whole: its diff stays
    cut = pytest_fmt.pytest_output(failure("ab...", "abc...", ["- ab...", "+ abc..."]))
    assert cut is not None
    assert "E         - ab..." in cut and "E         + abc..." in cut


def test_pytest_failures_that_say_the_same_share_one_block() -> None:
    assert pytest_fmt.pytest_output(PYTEST_SAME_FAILURES) == [
        "FAILED tests/test_u.py::test_a[1]",
        "FAILED tests/test_u.py::test_a[2]",
        "E       AssertionError: assert 'a' == 'b'",
        "E       assert 'a' == 'b'",
        "tests/test_u.py:5: AssertionError",
        "__ ERROR at setup __",
        "tests/conftest.py:3: in db",
        "E   RuntimeError: no database",
        "stopping after 3 failures",
        "pytest: 2 failed, 1 error, 4 passed in 0.10s",
    ]


def test_rust_backtrace_drops_the_frames_that_repeat_the_panic() -> None:
    body = [
        "thread 'check' (812) panicked at tests/check.rs:40:5:",
        "did not match",
        "stack backtrace:",
        "   2: demo::assert_all",
        "             at ./tests/check.rs:24:9",
        "   3: demo::check",
        "             at ./tests/check.rs:40:5",
        "   4: demo::check::{{closure}}",
        "             at ./tests/check.rs:37:16",
    ]
    assert cargo.without_echo_frames(body) == body[:5]
    alone = body[:3] + body[5:]
    assert cargo.without_echo_frames(alone) == body[:2]


def test_a_warning_cargo_repeats_for_each_target_is_listed_once() -> None:
    one = (
        "warning: unused variable: `x`\n --> src/lib.rs:3:9\n  |\n3 |     let x = 1;\n"
        "  |         ^\n\n"
    )
    text = (
        one + one + "warning: `demo` (lib) generated 1 warning\n"
        "warning: `demo` (lib test) generated 1 warning (1 duplicate)\n"
    )
    assert DIAGNOSTICS["cargo"](text) == [
        "cargo: 1 warning in 1 file",
        "src/lib.rs:3:9: warning: unused variable: `x`",
    ]


PHPUNIT_ERRORS = """\
PHPUnit 9.6.7 by Sebastian Bergmann and contributors.

EE.E                                                                4 / 4 (100%)

Time: 00:00.008, Memory: 6.00 MB

There were 3 errors:

1) Acme\\Tests\\CartTest::testAdd
ArgumentCountError: Too few arguments to function Acme\\Tests\\CartTest::testAdd(), 2 expected

/src/tests/CartTest.php:12

2) Acme\\Tests\\CartTest::testRemove
ArgumentCountError: Too few arguments to function Acme\\Tests\\CartTest::testRemove(), 2 expected

/src/tests/CartTest.php:20

3) Acme\\Tests\\CartTest::testTotal
TypeError: total(): Argument #1 must be of type int

/src/tests/CartTest.php:31

ERRORS!
Tests: 4, Assertions: 1, Errors: 3.
"""


def test_phpunit_errors_that_differ_only_by_the_test_name_are_said_once() -> None:
    assert runners.FORMATTERS["phpunit"](PHPUNIT_ERRORS) == [
        "There were 3 errors:",
        "1) Acme\\Tests\\CartTest::testAdd",
        "/src/tests/CartTest.php:12",
        "2) Acme\\Tests\\CartTest::testRemove",
        "/src/tests/CartTest.php:20",
        "ArgumentCountError: Too few arguments to function …(), 2 expected",
        "3) Acme\\Tests\\CartTest::testTotal",
        "/src/tests/CartTest.php:31",
        "TypeError: total(): Argument #1 must be of type int",
        "phpunit: Time: 00:00.008; ERRORS!; Tests: 4, Assertions: 1, Errors: 3.",
    ]


def tap_file_result(number: int, name: str, output: str) -> str:
    """node-tap's report of one test file: the file's own output, then its result."""
    return (
        f"{output}not ok {number} - test/{name}.js # time=12ms\n"
        f"  externalID: test/{name}.js\n  exitCode: 1\n"
    )


def test_tap_files_that_failed_the_same_way_are_said_once_with_their_own_output() -> None:
    loader = "/p/loader.ts:142\nTypeError: no fileExists\n"
    text = (
        "TAP version 14\n"
        + tap_file_result(1, "alpha", loader)
        + tap_file_result(2, "beta", loader)
        + tap_file_result(3, "gamma", "/p/test/gamma.js:7\nError: expected 2\n")
        + "# time=30ms\n# { total: 3, pass: 0, fail: 3 }\n"
    )
    assert runners.FORMATTERS["tap"](text) == [
        "not ok 1 - test/alpha.js # time=12ms",
        "not ok 2 - test/beta.js # time=12ms",
        "/p/loader.ts:142",
        "TypeError: no fileExists",
        "  externalID: …",
        "  exitCode: 1",
        "not ok 3 - test/gamma.js # time=12ms",
        "/p/test/gamma.js:7",
        "Error: expected 2",
        "  externalID: test/gamma.js",
        "  exitCode: 1",
        "# time=30ms",
        "tap: # { total: 3, pass: 0, fail: 3 }",
    ]


def test_rspec_thread_report_keeps_its_error_and_leaves_out_its_frames() -> None:
    text = (
        "..#<Thread:0x1 /p/spec/env_spec.rb:9 run> terminated with exception"
        " (report_on_exception is true):\n"
        "/gems/rspec-support/lib/rspec/support.rb:102:in `block':  "
        "(RSpec::Expectations::ExpectationNotMetError)\n"
        'expected: "1"\n     got: nil\n(compared using ==)\n'
        "\tfrom /p/spec/env_spec.rb:11:in `block (3 levels)'\n"
        "\tfrom /p/lib/env.rb:4:in `modify'\nF\n\nFailures:\n\n"
        "  1) Env sets FOO\n     Failure/Error: expect(ENV['FOO']).to eq '1'\n\n"
        '       expected: "1"\n            got: nil\n\n       (compared using ==)\n'
        "     # ./spec/env_spec.rb:11:in `block (3 levels)'\n\n"
        "Finished in 0.1 seconds\n3 examples, 1 failure\n\nFailed examples:\n\n"
        "rspec ./spec/env_spec.rb:8 # Env sets FOO\n"
    )
    shown = runners.FORMATTERS["rspec"](text)
    assert shown is not None
    assert not any(line.lstrip().startswith(("from ", "(compared")) for line in shown)
    assert '       expected: "1"' in shown
    assert "     # ./spec/env_spec.rb:11:in `block (3 levels)'" in shown
    assert any("ExpectationNotMetError" in line for line in shown)


def test_rspec_frames_shown_in_an_earlier_failure_are_counted_not_repeated() -> None:
    def failure(number: int, line: int) -> str:
        return (
            f"  {number}) Env modifies VAR_{number}\n"
            f'     Failure/Error: expect(ENV["VAR_{number}"]).to eq "bar"\n'
            f"     # ./spec/env_spec.rb:{line}:in `block (3 levels)'\n"
            "     # ./lib/env.rb:22:in `block in modify'\n"
            "     # ./lib/env.rb:13:in `modify'\n"
            f"     # ./spec/env_spec.rb:{line - 1}:in `block (2 levels)'\n"
        )

    text = (
        "FF\n\nFailures:\n\n"
        + failure(1, 9)
        + "\n"
        + failure(2, 19)
        + "\nFinished in 0.1 seconds\n2 examples, 2 failures\n"
    )
    assert runners.FORMATTERS["rspec"](text) == [
        "Failures:",
        "  1) Env modifies VAR_1",
        '     Failure/Error: expect(ENV["VAR_1"]).to eq "bar"',
        "     # ./spec/env_spec.rb:9:in `block (3 levels)'",
        "     # ./lib/env.rb:22:in `block in modify'",
        "     # ./lib/env.rb:13:in `modify'",
        "     # ./spec/env_spec.rb:8:in `block (2 levels)'",
        "  2) Env modifies VAR_2",
        '     Failure/Error: expect(ENV["VAR_2"]).to eq "bar"',
        "     # ./spec/env_spec.rb:19:in `block (3 levels)'",
        "     … 2 frames as above",
        "     # ./spec/env_spec.rb:18:in `block (2 levels)'",
        "rspec: Finished in 0.1 seconds; 2 examples, 2 failures",
    ]


def test_phpunit_pass_is_its_counts_and_time() -> None:
    text = (
        "PHPUnit 9.6.7\n\n....  4 / 4 (100%)\n\nTime: 00:00.010, Memory: 6.00 MB\n\n"
        "OK (4 tests, 9 assertions)\n"
    )
    assert runners.FORMATTERS["phpunit"](text) == [
        "phpunit: Time: 00:00.010; OK (4 tests, 9 assertions)"
    ]


def test_a_message_said_at_many_locations_gets_a_part_of_its_own() -> None:
    lines = ['src/a.py:1: error: Name "doc" is not defined  [name-defined]']
    lines += [
        f'src/b.py:{n}: error: Name "no_track_caller" is not defined  [name-defined]'
        for n in range(10, 16)
    ]
    lines += ['src/c.py:3: error: Name "other" is not defined  [name-defined]']
    text = "\n".join(lines) + "\nFound 8 errors in 3 files (checked 3 source files)\n"
    assert DIAGNOSTICS["mypy"](text) == [
        "mypy: 8 errors in 3 files",
        'error name-defined (×2): Name "doc" is not defined',
        "  src/a.py:1",
        '  src/c.py:3 "other"',
        'error name-defined (×6): Name "no_track_caller" is not defined',
        "  src/b.py: 10 11 12 13 14 15",
        "Found 8 errors in 3 files (checked 3 source files)",
    ]
    # said twice, the name is shorter than a header of its own: it stays with its rule
    two = "\n".join(lines[:3] + lines[-1:]) + "\n"
    shown = DIAGNOSTICS["mypy"](two)
    assert shown is not None
    assert 'error name-defined (×4): Name "doc" is not defined' in shown


def test_pytest_keeps_the_library_frame_where_the_error_was_raised() -> None:
    text = PYTEST_SAME_FAILURES.replace("tests/conftest.py:3: in db\n", "")
    shown = pytest_fmt.pytest_output(text)
    assert shown is not None
    assert "../venv/lib/python3.11/site-packages/_pytest/fixtures.py:10: in call" in shown


def test_jest_names_every_failed_test_file_the_first_one_too() -> None:
    # Two suites that fail the same way: each report stays under its own file's header.
    def suite(path: str, module: str) -> str:
        return (
            f"FAIL {path}\n  ● Test suite failed to run\n\n"
            f"    Cannot find module '{module}' from '{path}'\n\n"
            "      at Resolver._throwModNotFoundError "
            "(node_modules/jest-resolve/build/index.js:1031:11)\n\n"
        )

    text = (
        suite("t/req.test.js", "./missing")
        + suite("t/other.test.js", "./gone")
        + "Test Suites: 2 failed, 2 total\nTests:       0 total\n"
    )
    out = runners.FORMATTERS["jest"](text)
    assert out is not None
    assert [line for line in out if line.startswith("FAIL ")] == [
        "FAIL t/req.test.js",
        "FAIL t/other.test.js",
    ]
    assert (
        out.index("FAIL t/req.test.js")
        < out.index("    Cannot find module './missing' from 't/req.test.js'")
        < out.index("FAIL t/other.test.js")
    )


def test_tap_subtests_of_a_file_stay_with_that_file() -> None:
    # As node-tap 18 prints it: a file's subtests (indented) come between its `# Subtest:`
    # line and its result; what the file prints unindented may fall among them.
    def subtest(file: str, message: str) -> str:
        return (
            f"    # Subtest: {message}\n        not ok 1 - {message}\n          ---\n"
            f"          at:\n            fileName: {file}\n            lineNumber: 2\n"
            "          ...\n        1..1\n"
        )

    text = (
        "TAP version 14\n1..2\n# Subtest: t/a.test.js\n"
        + subtest("t/a.test.js", "in a")
        + "not ok 1 - t/a.test.js # time=10ms\n  ---\n  exitCode: 1\n  ...\n\n"
        "# Subtest: t/b.test.js\n"
        + subtest("t/b.test.js", "first in b")
        + "stderr from b\n"
        + subtest("t/b.test.js", "second in b")
        + "not ok 2 - t/b.test.js # time=10ms\n  ---\n  exitCode: 1\n  ...\n\n"
        "# { total: 2, pass: 0, fail: 2 }\n"
    )
    out = runners.FORMATTERS["tap"](text)
    assert out is not None
    header_a, header_b = (
        out.index("not ok 1 - t/a.test.js # time=10ms"),
        out.index("not ok 2 - t/b.test.js # time=10ms"),
    )
    for n, line in enumerate(out):
        if "fileName:" in line:
            assert (header_a < n < header_b) == line.endswith("t/a.test.js"), (line, out)
            assert n > header_a
    assert "        not ok 1 - first in b" in out[header_b:]
    assert not any(line.startswith("# Subtest") for line in out)


def test_jest_in_colour_reads_as_without() -> None:
    # FORCE_COLOR: the PASS and FAIL labels are inverse video with a blank each side
    def label(word: str, colour: int, path: str) -> str:
        return (
            f"\x1b[0m\x1b[7m\x1b[1m\x1b[{colour}m {word} \x1b[39m\x1b[22m\x1b[27m\x1b[0m "
            f"\x1b[2mtest/\x1b[22m\x1b[1m{path}\x1b[22m\n"
        )

    text = (
        label("FAIL", 31, "a.test.js") + "  ● adds\n\n    Expected: 1\n    Received: 2\n\n"
        "      at Object.toBe (test/a.test.js:3:17)\n\n"
        + "".join(label("PASS", 32, f"ok{n}.test.js") for n in range(5))
        + "Test Suites: 1 failed, 5 passed, 6 total\n"
        "Tests:       1 failed, 5 passed, 6 total\n"
    )
    out = runners.FORMATTERS["jest"](text)
    assert out is not None
    assert not any("PASS" in line for line in out), out
    assert any("FAIL" in line and "a.test.js" in line for line in out), out


def test_a_tool_count_that_differs_from_the_rows_read_is_the_one_shown() -> None:
    rows = (
        "\n  lib/a.js:1:9\n"
        "  ✖   1:9    There should be no space after {.    object-curly-spacing\n"
        "  ✖   2:9    There should be no space after {.    object-curly-spacing\n\n"
    )
    agreeing = DIAGNOSTICS["xo"](rows + "  2 errors\n")
    differing = DIAGNOSTICS["xo"](rows + "  3 errors\n")
    assert agreeing is not None and differing is not None
    assert agreeing[0] == "xo: 2 errors in 1 file"
    assert differing[0] == "xo: 3 errors (its own count; 2 errors read below) in 1 file"


def test_go_without_v_counts_only_what_it_names_and_keeps_packages_apart() -> None:
    """Without -v go names only failed tests: no pass count is made up; the same test name
    failing in two packages is two blocks, each under its package's result line, each with
    its own reason."""
    text = (
        "--- FAIL: TestEncode (0.00s)\n    a_test.go:5: got x\n    a_test.go:5: got x\n"
        "FAIL\nFAIL\texample.com/a\t0.010s\n"
        "--- FAIL: TestEncode (0.00s)\n    b_test.go:9: got y\n"
        "--- FAIL: TestDecode (0.00s)\n    b_test.go:20: got x\n"
        "FAIL\nFAIL\texample.com/b\t0.020s\nok  \texample.com/c\t0.030s\n"
    )
    assert gotest.go_test(text) == [
        "--- FAIL: TestEncode",
        "    a_test.go:5: got x (×2)",
        "FAIL\texample.com/a\t0.010s",
        "--- FAIL: TestEncode",
        "    b_test.go:9: got y",
        "--- FAIL: TestDecode",
        "    b_test.go:20: got x",
        "FAIL\texample.com/b\t0.020s",
        "ok: example.com/c",
        "go test: 1 package ok; 2 failed; tests: 3 failed; 0.06s",
    ]


def test_go_example_output_keeps_its_order() -> None:
    text = (
        "--- FAIL: ExampleEncode (0.00s)\ngot:\n-----BEGIN-----\ndGVzdA=>\n-----END-----\n"
        "want:\n-----BEGIN-----\ndGVzdA==\n-----END-----\nFAIL\nFAIL\texample.com/pem\t0.01s\n"
    )
    shown = gotest.go_test(text)
    assert shown is not None
    assert shown[:10] == [
        "--- FAIL: ExampleEncode",
        "    got:",
        "    -----BEGIN-----",
        "    dGVzdA=>",
        "    -----END-----",
        "    want:",
        "    -----BEGIN-----",
        "    dGVzdA==",
        "    -----END-----",
        "FAIL\texample.com/pem\t0.01s",
    ]


def test_pytest_keeps_the_where_that_gives_a_bare_false_its_values() -> None:
    block = [
        "    def test_x():",
        ">       assert isinstance(result.exception, CustomError)",
        "E       AssertionError: assert False",
        "E        +  where False = isinstance(None, <class 'CustomError'>)",
        "E        +    where None = <Result okay>.exception",
        "E        +  and   3 = len(x)",
        "",
        "tests/test_t.py:17: AssertionError",
    ]
    text = (
        "=================================== FAILURES ===================================\n"
        "____________________________________ test_x ____________________________________\n"
        + "\n".join(block)
        + "\n"
        "=========================== short test summary info ============================\n"
        "FAILED tests/test_t.py::test_x - AssertionError: assert False\n"
        "============================== 1 failed in 0.10s ===============================\n"
    )
    shown = pytest_fmt.pytest_output(text)
    assert shown is not None
    assert "E        +  where False = isinstance(None, <class 'CustomError'>)" in shown
    assert "E        +    where None = <Result okay>.exception" in shown


def test_runs_of_frames_in_installed_packages_are_one_count_line() -> None:
    text = (
        " FAIL  test/a.test.js > parses\nTypeError: bad input\n"
        " ❯ parse node_modules/yaml/dist/parse.js:10:5\n"
        " ❯ compose node_modules/yaml/dist/compose.js:20:7\n"
        " ❯ node:internal/process/task_queues:95:5\n"
        " ❯ test/a.test.js:7:12\n\n"
        " Test Files  1 failed (1)\n      Tests  1 failed (1)\n"
    )
    shown = runners.FORMATTERS["vitest"](text)
    assert shown is not None
    assert " … 3 frames in installed packages or node" in shown
    assert not any("node_modules" in line for line in shown)
    assert " ❯ test/a.test.js:7:12" in shown


def test_vitest_snapshot_diff_keeps_its_changed_lines_and_the_location() -> None:
    text = (
        " ❯ test/a.test.ts (2 tests | 1 failed) 20ms\n   × a > renders 5ms\n"
        "     → Snapshot `a > renders 1` mismatched\n   ✓ a > parses 1ms\n\n"
        "⎯⎯⎯⎯ Failed Tests 1 ⎯⎯⎯⎯\n\n FAIL  test/a.test.ts > a > renders\n"
        "Error: Snapshot `a > renders 1` mismatched\n\n- Expected\n+ Received\n\n"
        "@@ -1,3 +1,3 @@\n  ## v1\n- - Jane (@jane)\n+ - Jane <jane@x.org>\n  - Bob\n\n"
        " ❯ test/a.test.ts:7:20\n      6|     const md = render()\n"
        "      7|     expect(md).toMatchInlineSnapshot(`\n       |                ^\n\n"
        " Test Files  1 failed (1)\n      Tests  1 failed | 1 passed (2)\n"
    )
    assert runners.FORMATTERS["vitest"](text) == [
        " FAIL  test/a.test.ts > a > renders",
        " ❯ test/a.test.ts:7:20",
        "Error: Snapshot `a > renders 1` mismatched",
        "- Expected",
        "+ Received",
        "- - Jane (@jane)",
        "+ - Jane <jane@x.org>",
        "vitest: Test Files 1 failed (1); Tests 1 failed | 1 passed (2)",
    ]


def test_pytest_skip_reason_given_at_several_places_is_said_once() -> None:
    text = (
        "=========================== short test summary info ============================\n"
        "SKIPPED [16] tests/test_termui.py:329: Tests user-input using the msvcrt module.\n"
        "SKIPPED [3] tests/test_termui.py:339: Tests special character inputs.\n"
        "SKIPPED [2] tests/test_termui.py:354: Tests user-input using the msvcrt module.\n"
        "================= 582 passed, 21 skipped in 4.71s =================\n"
    )
    assert pytest_fmt.pytest_output(text) == [
        "SKIPPED [18] Tests user-input using the msvcrt module. (tests/test_termui.py:329,"
        " tests/test_termui.py:354)",
        "SKIPPED [3] Tests special character inputs. (tests/test_termui.py:339)",
        "pytest: 582 passed, 21 skipped in 4.71s",
    ]


def test_pytest_9_counts_of_subtests_are_read() -> None:
    text = (
        "test_support.py::TestSupport::test_HOST PASSED                           [  6%]\n"
        "test_support.py::TestSupport::test_args_from_interpreter_flags \n"
        "test_support.py::TestSupport::test_args_from_interpreter_flags PASSED    [  8%]\n"
        "======== 18 passed, 27 deselected, 24 subtests passed in 3.10s ========\n"
    )
    assert pytest_fmt.pytest_output(text) == [
        "pytest: 18 passed, 27 deselected, 24 subtests passed in 3.10s"
    ]
