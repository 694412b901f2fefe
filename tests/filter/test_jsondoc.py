"""jq's output read as an outline: small values whole, large ones by their shape."""

from __future__ import annotations

import json

from rtok.filter import engine
from rtok.filter.dispatch import formatter_for
from rtok.filter.formatters import jsondoc
from rtok.filter.rule import default_rule


def shown(value: object) -> list[str]:
    text = json.dumps(value, indent=2)
    return engine.shorten(text, default_rule("jq"), jsondoc.json_outline, 0, 80)


def test_jq_output_is_read_by_the_outline() -> None:
    assert formatter_for("jq", ["jq", "."]) is jsondoc.json_outline


def test_small_values_are_whole_and_large_ones_summarised() -> None:
    doc = {
        "name": "demo",
        "tags": ["a", "b"],
        "about": "x" * 300,
        "parts": [{"id": n, "body": "y" * 40} for n in range(9)],
        "defs": {f"def{n}": {"type": "object", "text": "z" * 50} for n in range(12)},
    }
    assert shown(doc) == [
        '"name": "demo"',
        '"tags": ["a", "b"]',
        f'"about": "{"x" * 80}…" (300 chars)',
        '"parts": [9 objects with keys "id", "body"]',
        '"defs": {12 keys: ' + ", ".join(f'"def{n}"' for n in range(8)) + ", …}",
    ]


def test_many_keys_keep_the_head_and_the_tail_and_count_the_rest() -> None:
    doc = {f"1.{n}.0": f"2026-01-{n % 28 + 1:02d}" for n in range(200)}
    out = shown(doc)
    assert out[: jsondoc.KEYS_HEAD] == [f'"1.{n}.0": "2026-01-{n % 28 + 1:02d}"' for n in range(40)]
    assert out[jsondoc.KEYS_HEAD] == "… 150 keys omitted"
    assert out[-1] == '"1.199.0": "2026-01-04"'
    assert len(out) == jsondoc.KEYS_HEAD + 1 + jsondoc.KEYS_TAIL


def test_an_array_of_records_shows_its_first_items_and_their_shared_keys() -> None:
    records = [{"code": f"C{n}", "name": "n" * 60, "extra": "e" * 150 * (n % 2)} for n in range(20)]
    out = shown(records)
    assert out[0] == json.dumps(records[0], ensure_ascii=False)
    assert out[1] == '{3 keys: "code", "name", "extra"}'  # over ITEM characters
    assert out[3] == '… 17 more items (in all: 20 objects with keys "code", "name", "extra")'


def test_an_array_of_short_items_is_listed_like_jq_prints_it() -> None:
    assert shown(["a", 1, None, {"k": 2}]) == ['"a"', "1", "null", '{"k": 2}']


def test_error_words_in_the_data_are_not_put_back_but_a_secret_is() -> None:
    doc = {
        "notes": ["an error " + "w" * 120 for _ in range(3)],
        "auth": {"password": "hunter2" + "p" * 100},
    }
    text = json.dumps(doc, indent=2)
    out = engine.shorten(text, default_rule("jq"), jsondoc.json_outline, 0, 80)
    secret = next(line for line in text.splitlines() if "hunter2" in line)
    assert out == ['"notes": [3 strings]', '"auth": {1 key: "password"}', secret]


def test_what_is_not_one_json_document_is_left_to_the_rule() -> None:
    assert jsondoc.json_outline('{"a": 1}\n{"a": 2}\n') is None
    assert jsondoc.json_outline("jq: error (at <stdin>:0): Cannot index") is None
    assert jsondoc.json_outline('"just a string"') is None
