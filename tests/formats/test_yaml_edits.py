"""YAML list items edited as lines: comments, anchors and quoting survive."""

from __future__ import annotations

import pytest

from rtok.formats import yamltext
from rtok.formats.errors import FormatError

PATH = ("plugins", "enabled")

DOCUMENTS: dict[str, bytes] = {
    "empty": b"",
    "comments-only": b"# Hermes config\n",
    "model-with-comments": (
        b"# Hermes\nmodel:\n  provider: custom   # local server\n"
        b"  base_url: http://127.0.0.1:1/v1\n"
    ),
    "no-final-newline": b"model:\n  provider: custom",
    "anchors": (
        b"defaults: &defaults\n  timeout: 30\nprofile:\n  <<: *defaults\n"
        b"plugins:\n  disabled: [noisy]\n"
    ),
    "block-list": b"plugins:\n  enabled:\n    - memory   # keep\n    - 'web'\n",
    "unindented-block-list": b"plugins:\n  enabled:\n  - memory\n\nsecurity:\n  x: 1\n",
    "flow-list": b"plugins:\n  enabled: [memory, web]  # both\n",
    "empty-flow-list": b"plugins:\n  enabled: []\n",
    "empty-value": b"plugins:\n  enabled:\nmodel: x\n",
    "plugins-without-enabled": b"plugins:\n  disabled: []\n# trailing note\n",
    "crlf": b"model:\r\n  provider: custom\r\nplugins:\r\n  enabled:\r\n    - a\r\n",
    "four-space": b"model:\n    provider: custom\nplugins:\n    enabled:\n        - a\n",
    "document-marker": b"---\nmodel:\n  provider: custom\n",
    "bom": b"\xef\xbb\xbfmodel:\n  provider: custom\n",
    "plugins-null": b"plugins:\nmodel: x\n",
    "plugins-null-with-comment": b"plugins:   # none yet\n",
    "mixed-indentation": b"model:\n  provider: custom\nplugins:\n      disabled: [x]\n",
    "quoted-flow-items": b"plugins:\n  enabled: [\"a, b\", 'it''s', c]\n",
    "quoted-keys": b'"plugins":\n  \'enabled\':\n    - "memory"\n',
    "block-scalar-nearby": b"notes: |\n  enabled:\n  - not a list\nplugins:\n  enabled: []\n",
}


@pytest.mark.parametrize("name", sorted(DOCUMENTS))
def test_list_item_round_trip(name: str) -> None:
    original = DOCUMENTS[name]
    created = len(PATH) - yamltext.existing_depth(original, PATH)
    installed = yamltext.append_to_list(original, PATH, "rtok")
    enabled = yamltext.get(installed, PATH)
    assert isinstance(enabled, list) and enabled[-1] == "rtok"
    if b"&defaults" in original:
        assert b"&defaults" in installed and b"*defaults" in installed
    if b"#" in original:
        assert installed.count(b"#") == original.count(b"#")
    if b"\r\n" in original:
        assert installed.count(b"\n") == installed.count(b"\r\n")
    removed = yamltext.remove_from_list(installed, PATH, lambda v: v == "rtok", prune=created)
    assert removed == original


def test_user_items_stay() -> None:
    original = DOCUMENTS["block-list"]
    installed = yamltext.append_to_list(original, PATH, "rtok")
    assert yamltext.get(installed, PATH) == ["memory", "web", "rtok"]
    assert installed == original + b"    - rtok\n"


def test_flow_list_keeps_its_comment() -> None:
    installed = yamltext.append_to_list(DOCUMENTS["flow-list"], PATH, "rtok")
    assert installed == b"plugins:\n  enabled: [memory, web, rtok]  # both\n"


def test_awkward_items_are_quoted() -> None:
    installed = yamltext.append_to_list(b"", PATH, "yes: no # x")
    assert yamltext.get(installed, PATH) == ["yes: no # x"]


@pytest.mark.parametrize(
    "data",
    [
        b"plugins: {enabled: [a]}\n",
        b"plugins:\n  enabled: a-string\n",
        b"plugins:\n  enabled: &x [a]\n",
        b"- just\n- a list\n",
    ],
)
def test_unsupported_layouts_are_refused(data: bytes) -> None:
    with pytest.raises(FormatError):
        yamltext.append_to_list(data, PATH, "rtok", label="config.yaml")


@pytest.mark.parametrize(
    ("data", "line"),
    [
        (b"model:\n  provider: [unclosed\nplugins: x\n", 3),
        (b"a: 1\n b: 2\n", 2),
        (b"a: 'x\n", 2),
    ],
)
def test_malformed_yaml_names_the_line(data: bytes, line: int) -> None:
    with pytest.raises(FormatError) as caught:
        yamltext.append_to_list(data, PATH, "rtok", label="config.yaml")
    assert caught.value.line == line
