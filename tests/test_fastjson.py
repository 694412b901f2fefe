"""rtok._fast.fastjson reads and writes what the json module does, without importing `re`."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rtok._fast import fastjson
from rtok_testing import REPO_ROOT

VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=20,
)


@settings(max_examples=300, deadline=None)
@given(value=VALUES, ascii_only=st.booleans(), compact=st.booleans(), sort=st.booleans())
def test_same_text_and_values_as_json(
    value: object, ascii_only: bool, compact: bool, sort: bool
) -> None:
    separators = (",", ":") if compact else None
    text = json.dumps(value, separators=separators, ensure_ascii=ascii_only, sort_keys=sort)
    assert (
        fastjson.dumps(value, separators=separators, ensure_ascii=ascii_only, sort_keys=sort)
        == text
    )
    assert fastjson.loads(text) == json.loads(text)
    assert fastjson.loads("  \n" + text + "\n ") == json.loads(text)


@pytest.mark.parametrize(
    "text",
    [
        "",
        " ",
        "{",
        "{ not json",
        '{"a" 1}',
        "[1 2]",
        "[1,]",
        '"open',
        "tru",
        "{} x",
        "[] []",
        '{"a":}',
    ],
)
def test_what_json_rejects_is_a_value_error(text: str) -> None:
    with pytest.raises(ValueError):
        json.loads(text)
    with pytest.raises(ValueError):
        fastjson.loads(text)


def test_indent_goes_to_json() -> None:
    assert fastjson.dumps({"a": [1]}, indent=2) == json.dumps({"a": [1]}, indent=2)


def test_importing_it_loads_no_re() -> None:
    code = (
        "import sys; import rtok._fast.fastjson as f; f.loads('{\"a\": [1]}');"
        " f.dumps({'a': 1}); print('re' in sys.modules, 'json' in sys.modules)"
    )
    done = subprocess.run(
        [sys.executable, "-S", "-c", code],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
        cwd=REPO_ROOT,
    )
    assert done.stdout.split() == ["False", "False"]
