"""`ruff format --check`: the files that would be reformatted survive, whatever the form."""

from __future__ import annotations

from rtok.filter.dispatch import formatter_for
from rtok.filter.family import family_of_command
from rtok.filter.formatters.git import unified_diff
from rtok.filter.formatters.ruff_format import ruff_format

# ruff 0.17's form (a diff under each file), cut from a real run on click 8.1.7
DIFFS = """\
unformatted: File would be reformatted
  --> src/click/__init__.py:7:1
  |
6 | \"\"\"
7 +
8 | from .core import Argument as Argument
  |

unformatted: File would be reformatted
    --> src/click/core.py:386:47
     |
385  |         #: options, choices, commands etc.
     -         self.token_normalize_func: t.Optional[
386  +         self.token_normalize_func: t.Optional[t.Callable[[str], str]] = (
--------------------------------------------------------------------------------
648  |         self, name: str, call: "te.Literal[True]" = True
     |

2 files would be reformatted, 9 files already formatted
"""


def test_diff_form_names_each_file_once_with_ruffs_counts() -> None:
    assert ruff_format(DIFFS) == [
        "ruff format: 2 files would be reformatted, 9 files already formatted",
        "  src/click/__init__.py",
        "  src/click/core.py",
    ]


def test_old_form_names_each_file() -> None:
    text = (
        "Would reformat: src/a.py\nWould reformat: src/b.py\n"
        "2 files would be reformatted, 1 file already formatted\n"
    )
    assert ruff_format(text) == [
        "ruff format: 2 files would be reformatted, 1 file already formatted",
        "  src/a.py",
        "  src/b.py",
    ]


def test_a_count_that_differs_from_the_files_read_says_so() -> None:
    text = DIFFS.replace("2 files would", "3 files would")
    shown = ruff_format(text)
    assert shown is not None
    assert shown[0] == (
        "ruff format: 3 files would be reformatted, 9 files already formatted (2 files named below)"
    )


def test_the_family_picks_the_reader_by_subcommand() -> None:
    family, words = family_of_command("ruff format --check src")
    assert formatter_for(family, words) is ruff_format
    family, words = family_of_command("ruff format --diff src")
    assert formatter_for(family, words) is unified_diff
    assert ruff_format("All checks passed!\n") is None
