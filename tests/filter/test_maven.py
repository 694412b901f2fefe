"""mvn: surefire's test runs and the maven compiler plugin's errors, in process.

The real captures (json-simple) are graded in tests/golden/signal/mvn-*; these pin the shapes
surefire 2 and 3 print and the edge cases.
"""

from __future__ import annotations

from rtok.filter import engine
from rtok.filter.dispatch import formatter_for
from rtok.filter.family import family_of_command
from rtok.filter.formatters.summary import is_summariser
from rtok.filter.formatters.surefire import maven_output, surefire_output
from rtok.filter.rule import default_rule

BANNERS = """\
[INFO] Scanning for projects...
[INFO]
[INFO] ------------------------< com.example:shapes >-------------------------
[INFO] Building shapes 1.0
[INFO] --------------------------------[ jar ]---------------------------------
[INFO]
[INFO] --- maven-surefire-plugin:2.22.3:test (default-test) @ shapes ---
[INFO]
[INFO] -------------------------------------------------------
[INFO]  T E S T S
[INFO] -------------------------------------------------------
"""

PASS = (
    BANNERS
    + """\
[INFO] Running com.example.shapes.CircleTest
parse error: unexpected token at 3 (the test feeds bad input on purpose)
[INFO] Tests run: 4, Failures: 0, Errors: 0, Skipped: 0, Time elapsed: 0.02 s - in \
com.example.shapes.CircleTest
[INFO]
[INFO] Results:
[INFO]
[INFO] Tests run: 4, Failures: 0, Errors: 0, Skipped: 0
[INFO]
[INFO] ------------------------------------------------------------------------
[INFO] BUILD SUCCESS
[INFO] ------------------------------------------------------------------------
[INFO] Total time:  2.104 s
[INFO] Finished at: 2026-12-01T10:00:00Z
[INFO] ------------------------------------------------------------------------
"""
)

FRAMES = """\
\tat org.junit.Assert.fail(Assert.java:89)
\tat org.junit.Assert.failNotEquals(Assert.java:835)
\tat org.junit.Assert.assertEquals(Assert.java:120)
\tat com.example.shapes.Circle.area(Circle.java:17)
\tat com.example.shapes.CircleTest.testArea(CircleTest.java:42)
\tat java.base/jdk.internal.reflect.NativeMethodAccessorImpl.invoke0(Native Method)
\tat org.apache.maven.surefire.booter.ForkedBooter.main(ForkedBooter.java:418)
"""

FAIL = (
    BANNERS
    + """\
[INFO] Running com.example.shapes.CircleTest
warning: radius rounded to 2 places
computing area
[ERROR] Tests run: 4, Failures: 1, Errors: 1, Skipped: 0, Time elapsed: 0.03 s <<< FAILURE! - \
in com.example.shapes.CircleTest
[ERROR] testArea(com.example.shapes.CircleTest)  Time elapsed: 0.01 s  <<< FAILURE!
java.lang.AssertionError: expected:<3.14> but was:<3.0>
"""
    + FRAMES
    + """
[ERROR] testParse(com.example.shapes.CircleTest)  Time elapsed: 0 s  <<< ERROR!
java.lang.NullPointerException: radius
\tat com.example.shapes.Circle.parse(Circle.java:30)
Caused by: java.io.IOException: closed
\tat java.base/java.io.Reader.read(Reader.java:100)
\t... 23 more

[INFO] Running com.example.shapes.SquareTest
[INFO] Tests run: 2, Failures: 0, Errors: 0, Skipped: 0, Time elapsed: 0 s - in \
com.example.shapes.SquareTest
[INFO]
[INFO] Results:
[INFO]
[ERROR] Failures:
[ERROR]   CircleTest.testArea:42 expected:<3.14> but was:<3.0>
[ERROR]   SquareTest.testSide:9 expected:<2> but was:<4>
[ERROR] Errors:
[ERROR]   CircleTest.testParse:30 » NullPointer radius
[INFO]
[ERROR] Tests run: 6, Failures: 1, Errors: 1, Skipped: 0
[INFO]
[INFO] ------------------------------------------------------------------------
[INFO] BUILD FAILURE
[INFO] ------------------------------------------------------------------------
[INFO] Total time:  3.500 s
[ERROR] Failed to execute goal org.apache.maven.plugins:maven-surefire-plugin:2.22.3:test \
(default-test) on project shapes: There are test failures.
[ERROR]
[ERROR] Please refer to /p/target/surefire-reports for the individual test results.
[ERROR] -> [Help 1]
[ERROR]
[ERROR] To see the full stack trace of the errors, re-run Maven with the -e switch.
[ERROR] Re-run Maven using the -X switch to enable full debug logging.
"""
)


def test_a_pass_is_one_line_of_counts_build_and_time() -> None:
    assert surefire_output(PASS) == [
        "maven: Tests run: 4, Failures: 0, Errors: 0, Skipped: 0 · BUILD SUCCESS · 2.104 s"
    ]


def test_a_pass_keeps_what_maven_warned_about() -> None:
    text = PASS.replace(
        "[INFO] Building shapes 1.0\n",
        "[INFO] Building shapes 1.0\n[WARNING] Using platform encoding\n",
    )
    assert surefire_output(text) == [
        "[WARNING] Using platform encoding",
        "maven: Tests run: 4, Failures: 0, Errors: 0, Skipped: 0 · BUILD SUCCESS · 2.104 s",
    ]


def test_a_failure_keeps_each_failed_test_its_reason_and_own_frames() -> None:
    shown = surefire_output(FAIL)
    assert shown == [
        "warning: radius rounded to 2 places",
        "testArea(com.example.shapes.CircleTest) <<< FAILURE!",
        "java.lang.AssertionError: expected:<3.14> but was:<3.0>",
        "\tat com.example.shapes.Circle.area(Circle.java:17)",
        "\tat com.example.shapes.CircleTest.testArea(CircleTest.java:42)",
        "testParse(com.example.shapes.CircleTest) <<< ERROR!",
        "java.lang.NullPointerException: radius",
        "\tat com.example.shapes.Circle.parse(Circle.java:30)",
        "Caused by: java.io.IOException: closed",
        # reported only in the Results section: kept from there
        "SquareTest.testSide:9 expected:<2> but was:<4>",
        "maven: Tests run: 6, Failures: 1, Errors: 1, Skipped: 0 · BUILD FAILURE · 3.500 s",
    ]


def test_surefire_3_names_and_coloured_output() -> None:
    text = FAIL.replace(
        "testArea(com.example.shapes.CircleTest)  Time elapsed: 0.01 s  <<<",
        "com.example.shapes.CircleTest.testArea -- Time elapsed: 0.01 s <<<",
    )
    text = text.replace("[ERROR]", "[\x1b[1;31mERROR\x1b[m]")
    shown = surefire_output(text)
    assert shown is not None
    assert "com.example.shapes.CircleTest.testArea <<< FAILURE!" in shown
    # the Results line names the same test, so it is not said again
    assert not any(line.startswith("CircleTest.testArea:42") for line in shown)


def test_modules_counts_are_added_up() -> None:
    second = FAIL.split("[INFO] BUILD FAILURE")[0].replace("Tests run: 6,", "Tests run: 10,")
    text = PASS.split("[INFO] BUILD SUCCESS")[0] + second + "[INFO] BUILD FAILURE\n"
    shown = surefire_output(text)
    assert shown is not None
    assert shown[-1] == (
        "maven: Tests run: 14, Failures: 1, Errors: 1, Skipped: 0 in 2 modules · BUILD FAILURE"
    )


def test_a_fork_that_died_before_the_counts_takes_the_usual_path() -> None:
    text = FAIL.replace("[ERROR] Tests run: 6, Failures: 1, Errors: 1, Skipped: 0\n", "")
    text = text.replace(
        "[INFO] Running com.example.shapes.SquareTest\n",
        "[INFO] Running com.example.shapes.SquareTest\n"
        "Exception in thread main java.lang.OutOfMemoryError\n",
    )
    # no module's counts: not a run surefire finished, so the failure tail and error lines
    assert surefire_output(text) is None
    shown = engine.shorten(text, default_rule("mvn"), maven_output, 1, 3)
    assert "Exception in thread main java.lang.OutOfMemoryError" in shown


def test_no_counts_no_summary() -> None:
    assert surefire_output(BANNERS + "[INFO] BUILD SUCCESS\n") is None


COMPILE = """\
[INFO] --- maven-compiler-plugin:3.10.1:testCompile (default-testCompile) @ shapes ---
[INFO] Changes detected - recompiling the module!
[INFO] Compiling 2 source files to /p/target/test-classes
[INFO] /p/t/A.java: Some input files use unchecked or unsafe operations.
[INFO] /p/t/A.java: Recompile with -Xlint:unchecked for details.
[INFO] -------------------------------------------------------------
[ERROR] COMPILATION ERROR :
[INFO] -------------------------------------------------------------
[ERROR] /p/t/A.java:[26,45] constructor Box in class p.Box cannot be applied to given types;
  required: no arguments
  found:    java.util.ArrayList
  reason: actual and formal argument lists differ in length
[ERROR] /p/t/A.java:[36,45] constructor Box in class p.Box cannot be applied to given types;
  required: no arguments
  found:    java.util.HashSet
  reason: actual and formal argument lists differ in length
[INFO] 2 errors
[INFO] -------------------------------------------------------------
[INFO] BUILD FAILURE
[ERROR] Failed to execute goal org.apache.maven.plugins:maven-compiler-plugin:3.10.1:testCompile \
(default-testCompile) on project shapes: Compilation failure: Compilation failure:
[ERROR] /p/t/A.java:[26,45] constructor Box in class p.Box cannot be applied to given types;
[ERROR]   required: no arguments
[ERROR]   found:    java.util.ArrayList
[ERROR]   reason: actual and formal argument lists differ in length
[ERROR] /p/t/A.java:[36,45] constructor Box in class p.Box cannot be applied to given types;
[ERROR]   required: no arguments
[ERROR]   found:    java.util.HashSet
[ERROR]   reason: actual and formal argument lists differ in length
[ERROR] -> [Help 1]
[ERROR]
[ERROR] For more information about the errors and possible solutions, please read the following \
articles:
[ERROR] [Help 1] http://cwiki.apache.org/confluence/display/MAVEN/MojoFailureException
"""


def test_compile_errors_grouped_with_shared_details_said_once() -> None:
    assert maven_output(COMPILE) == [
        "maven: 2 errors in 1 file",
        "error (×2): constructor Box in class p.Box cannot be applied to given types; "
        "(required: no arguments) (reason: actual and formal argument lists differ in length)",
        "  /p/t/A.java: [26,45] (found: java.util.ArrayList), [36,45] (found: java.util.HashSet)",
        "[INFO] BUILD FAILURE",
        "[ERROR] Failed to execute goal org.apache.maven.plugins:maven-compiler-plugin:3.10.1:"
        "testCompile (default-testCompile) on project shapes: Compilation failure: Compilation "
        "failure:",
    ]


def test_one_compile_error_keeps_its_details_after_its_message() -> None:
    text = "[ERROR] /p/A.java:[3,9] cannot find symbol\n  symbol:   class Y\n  location: class A\n"
    assert maven_output(text) == [
        "maven: 1 error in 1 file",
        "/p/A.java:[3,9]: error: cannot find symbol (symbol: class Y) (location: class A)",
    ]


def test_mvn_and_its_wrapper_get_the_maven_reader() -> None:
    for command in ("mvn test", "mvn -B -q verify", "./mvnw clean install"):
        family, words = family_of_command(command)
        assert formatter_for(family, words) is maven_output, command
    assert is_summariser(maven_output)


def test_the_engine_shows_the_summary_whole() -> None:
    shown = engine.shorten(FAIL, default_rule("mvn"), maven_output, 1, 3)
    assert "testParse(com.example.shapes.CircleTest) <<< ERROR!" in shown
    assert not any("Re-run Maven" in line for line in shown)


def test_quiet_output_has_no_running_lines_so_stdout_goes_with_the_next_counts() -> None:
    text = """\
computing area
parse error: bad radius
[ERROR] Tests run: 4, Failures: 1, Errors: 0, Skipped: 0, Time elapsed: 0.03 s <<< FAILURE! - \
in com.example.shapes.CircleTest
[ERROR] testArea(com.example.shapes.CircleTest)  Time elapsed: 0.01 s  <<< FAILURE!
java.lang.AssertionError: expected:<3.14> but was:<3.0>
\tat com.example.shapes.CircleTest.testArea(CircleTest.java:42)

[ERROR] Failures:
[ERROR]   CircleTest.testArea:42 expected:<3.14> but was:<3.0>
[ERROR] Tests run: 6, Failures: 1, Errors: 0, Skipped: 0
[ERROR] Failed to execute goal org.apache.maven.plugins:maven-surefire-plugin:2.22.3:test \
(default-test) on project shapes: There are test failures.
"""
    assert surefire_output(text) == [
        "parse error: bad radius",
        "testArea(com.example.shapes.CircleTest) <<< FAILURE!",
        "java.lang.AssertionError: expected:<3.14> but was:<3.0>",
        "\tat com.example.shapes.CircleTest.testArea(CircleTest.java:42)",
        "maven: Tests run: 6, Failures: 1, Errors: 0, Skipped: 0",
    ]


def test_a_junit5_report_names_only_the_method_and_is_still_known_in_results() -> None:
    text = FAIL.replace("testArea(com.example.shapes.CircleTest)  Time", "testArea()  Time")
    shown = surefire_output(text)
    assert shown is not None
    assert "testArea() <<< FAILURE!" in shown
    assert not any(line.startswith("CircleTest.testArea:42") for line in shown)


def test_compiler_warnings_are_grouped_above_the_test_counts() -> None:
    warnings = "".join(
        f"[WARNING] /p/src/A.java:[{n},9] Integer(int) in java.lang.Integer has been deprecated "
        "and marked for removal\n"
        for n in (12, 30)
    )
    text = PASS.replace(
        "[INFO]  T E S T S\n",
        warnings + "[WARNING] bootstrap class path not "
        "set\n[INFO]  T E S T S\n[WARNING] bootstrap class path not set\n",
    )
    assert maven_output(text) == [
        "maven: 2 warnings in 1 file",
        "warning (×2): Integer(int) in java.lang.Integer has been deprecated and marked for "
        "removal",
        "  /p/src/A.java: [12,9] [30,9]",
        "[WARNING] bootstrap class path not set (×2)",
        "maven: Tests run: 4, Failures: 0, Errors: 0, Skipped: 0 · BUILD SUCCESS · 2.104 s",
    ]


def test_an_error_line_printed_before_any_test_ran_is_kept() -> None:
    text = PASS.replace(
        "[INFO] Running com.example.shapes.CircleTest\n",
        "npm ERR! missing script: build\n[INFO] Running com.example.shapes.CircleTest\n",
    )
    shown = surefire_output(text)
    assert shown is not None
    assert shown[0] == "npm ERR! missing script: build"
    assert shown[-1].startswith("maven: Tests run: 4, Failures: 0")
