"""Help texts read as an outline: every command and option named, descriptions archived."""

from __future__ import annotations

from rtok.filter import engine
from rtok.filter.dispatch import formatter_for
from rtok.filter.formatters import helptext
from rtok.filter.rule import default_rule

DOCKERISH = """\
Usage:  tool [OPTIONS] COMMAND

A runtime for things

Common Commands:
  run         Create and run a new thing
  exec        Execute a command in a running thing,
              reporting any error it meets
  ps          List things

Options:
  -c, --config string   Location of client config files (default
                        "/root/.tool")
      --tls             Use TLS
  -v, --version         Print version information and quit

Run 'tool COMMAND --help' for more information on a command.
"""

KUBECTLISH = """\
The following options can be passed to any command:

    --as='':
\tUsername to impersonate for the operation.

    --password='':
\tPassword for basic authentication to the API server

    -v, --v=0:
\tnumber for the log level verbosity

    --warnings-as-errors=false:
\tTreat warnings received from the server as errors
"""


def test_help_of_container_tools_is_read_by_the_outline() -> None:
    assert formatter_for("docker", ["docker", "run", "--help"]) is helptext.help_outline
    assert formatter_for("kubectl", ["kubectl", "options"]) is helptext.help_outline
    assert formatter_for("docker", ["docker", "ps"]) is None
    # `docker run -h NAME` sets the container's host name: its output is the container's
    assert formatter_for("docker", ["docker", "run", "-h", "web", "alpine"]) is None
    assert formatter_for("kubectl", ["kubectl", "get", "-h"]) is helptext.help_outline


def test_each_section_names_its_entries_and_drops_their_descriptions() -> None:
    assert helptext.help_outline(DOCKERISH) == [
        "Usage:  tool [OPTIONS] COMMAND",
        "A runtime for things",
        "Common Commands:",
        "  run exec ps",
        "Options:",
        "  -c/--config --tls -v/--version",
        "Run 'tool COMMAND --help' for more information on a command.",
    ]


def test_options_with_their_defaults_on_a_line_of_their_own() -> None:
    out = engine.shorten(KUBECTLISH, default_rule("kubectl"), helptext.help_outline, 0, 80)
    assert out[:2] == [
        "The following options can be passed to any command:",
        "  --as --password -v/--v --warnings-as-errors",
    ]
    # the last line is kept as it is; an error word in a description is no message
    assert out[2] == "\tTreat warnings received from the server as errors"
    assert "\tUsername to impersonate for the operation." not in out
    # a line carrying a secret word is put back as it is
    assert "    --password='':" in out


def test_a_long_list_of_names_is_wrapped_before_it_could_be_clipped() -> None:
    rows = "".join(f"      --option-number-{n}   Does thing {n}\n" for n in range(80))
    out = helptext.help_outline("Usage: tool [flags]\n\nOptions:\n" + rows)
    assert out is not None
    names = " ".join(out[2:-1]).split()
    assert names == [f"--option-number-{n}" for n in range(80)]
    assert out[-1] == "      --option-number-79   Does thing 79"  # the end as it is
    assert all(len(line) <= helptext.LINE_WIDTH for line in out)


def test_examples_and_usage_lines_are_kept_and_other_text_is_not_read() -> None:
    text = "Usage:\n  tool run  [flags]\n\nExamples:\n  tool run   --fast x\n  tool ps\n"
    assert helptext.help_outline(text) == [line for line in text.splitlines() if line]
    assert helptext.help_outline("hello world\nthis is not help\n") is None
