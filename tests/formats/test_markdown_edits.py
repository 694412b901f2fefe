"""Marked blocks and @-reference lines in Markdown files with user text around them."""

from __future__ import annotations

import pytest

from rtok.formats import markdown
from rtok.formats.errors import FormatError

BODY = "# Shell output\n\nOutput is shortened; run `rtok expand ID` for the raw bytes.\n"

DOCUMENTS: dict[str, bytes] = {
    "empty": b"",
    "one-line-no-newline": b"# Project rules",
    "one-line": b"# Project rules\n",
    "blank-line-at-end": b"# Project rules\n\n",
    "paragraphs": b"# Rules\n\nUse tabs.\n\n## Testing\n\n- run pytest\n",
    "crlf": b"# Rules\r\n\r\nUse tabs.\r\n",
    "crlf-no-final-newline": b"# Rules\r\n\r\nUse tabs.",
    "bom": b"\xef\xbb\xbf# Rules\n\nUse tabs.\n",
    "other-tool-block": (
        b"# Rules\n\n<!-- rtk-instructions v2 -->\nrtk stuff\n<!-- /rtk-instructions -->\n"
    ),
    "trailing-spaces": b"# Rules  \n\ttext\t\n   \n",
    "existing-at-ref": b"@AGENTS.md\n@docs/style.md\n",
    "unicode": "# Règles ✓\n\nÜnïcødé text.\n".encode(),
    "only-newlines": b"\n\n\n",
    "unusual-line-separators": "a\u2028b\x0cc\x85d\n".encode(),
}


@pytest.mark.parametrize("name", sorted(DOCUMENTS))
def test_block_round_trip(name: str) -> None:
    original = DOCUMENTS[name]
    installed = markdown.upsert_block(original, BODY)
    assert markdown.get_block(installed) == BODY
    assert installed.startswith(original.rstrip(b"\r\n")) or not original.strip()
    assert markdown.upsert_block(installed, BODY) == installed
    if b"\r\n" in original:
        assert installed.count(b"\n") == installed.count(b"\r\n")
    assert markdown.remove_block(installed) == original


@pytest.mark.parametrize("name", sorted(DOCUMENTS))
def test_reference_round_trip(name: str) -> None:
    original = DOCUMENTS[name]
    installed = markdown.add_reference(original, "@RTOK.md")
    assert markdown.has_reference(installed, "@RTOK.md")
    assert markdown.add_reference(installed, "@RTOK.md") == installed
    assert markdown.remove_reference(installed, ("@RTOK.md", "@/abs/RTOK.md")) == original


def test_block_and_reference_together_come_off_in_any_order() -> None:
    original = DOCUMENTS["paragraphs"]
    both = markdown.add_reference(markdown.upsert_block(original, BODY), "@RTOK.md")
    assert markdown.remove_block(markdown.remove_reference(both, "@RTOK.md")) == original
    assert markdown.remove_reference(markdown.remove_block(both), "@RTOK.md") == original


def test_update_replaces_only_the_body() -> None:
    original = DOCUMENTS["paragraphs"]
    installed = markdown.upsert_block(original, "old text\n")
    with_user_text = installed + b"\n## Added later by the user\n"
    updated = markdown.upsert_block(with_user_text, "new text\nsecond line\n")
    assert markdown.get_block(updated) == "new text\nsecond line\n"
    assert updated.endswith(b"<!-- rtok:end -->\n\n## Added later by the user\n")
    removed = markdown.remove_block(updated)
    assert removed == original + b"\n## Added later by the user\n"


def test_block_in_the_middle_takes_one_blank_line_with_it() -> None:
    doc = b"a\n\n<!-- rtok:begin -->\nx\n<!-- rtok:end -->\n\nb\n"
    assert markdown.remove_block(doc) == b"a\n\nb\n"


def test_reference_in_the_middle() -> None:
    assert markdown.remove_reference(b"a\n@RTOK.md\nb\n", "@RTOK.md") == b"a\nb\n"
    assert markdown.remove_reference(b"  @RTOK.md  \n", "@RTOK.md") == b""
    assert markdown.remove_reference(b"@RTOK.md.bak\n", "@RTOK.md") == b"@RTOK.md.bak\n"


@pytest.mark.parametrize(
    ("data", "line"),
    [
        (b"# T\n\n<!-- rtok:begin -->\nhalf\n", 3),
        (b"# T\n<!-- rtok:end -->\n", 2),
        (b"<!-- rtok:begin -->\n<!-- rtok:end -->\n\n<!-- rtok:begin -->\n<!-- rtok:end -->\n", 4),
    ],
)
def test_malformed_blocks_are_refused(data: bytes, line: int) -> None:
    with pytest.raises(FormatError) as caught:
        markdown.upsert_block(data, BODY, label="CLAUDE.md")
    assert caught.value.line == line
    with pytest.raises(FormatError):
        markdown.remove_block(data, label="CLAUDE.md")


def test_not_utf8_is_refused() -> None:
    with pytest.raises(FormatError) as caught:
        markdown.add_reference(b"ok\n\xff\xfe\n", "@RTOK.md", label="AGENTS.md")
    assert caught.value.line == 2


def test_markers_and_references_inside_code_fences_are_examples() -> None:
    doc = (
        b"# Docs\n\n```markdown\n<!-- rtok:begin -->\n@RTOK.md\n```\n\n~~~~\n"
        b"<!-- rtok:end -->\n~~~~\n"
    )
    assert markdown.get_block(doc) is None
    assert not markdown.has_reference(doc, "@RTOK.md")
    installed = markdown.add_reference(markdown.upsert_block(doc, "x\n"), "@RTOK.md")
    assert markdown.get_block(installed) == "x\n"
    assert markdown.remove_block(markdown.remove_reference(installed, "@RTOK.md")) == doc


def test_appending_after_an_unclosed_fence_is_refused() -> None:
    doc = b"# Docs\n\n```sh\nmake test\n"
    with pytest.raises(FormatError) as caught:
        markdown.upsert_block(doc, "x\n", label="AGENTS.md")
    assert caught.value.line == 3
    with pytest.raises(FormatError):
        markdown.add_reference(doc, "@RTOK.md", label="AGENTS.md")
