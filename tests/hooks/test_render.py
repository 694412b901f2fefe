"""Filling reply templates."""

from __future__ import annotations

import json

from rtok.hooks.main import render


def test_input_placeholder_becomes_the_object() -> None:
    text = render('{"a":{"b":"${input}"},"c":[1,"${input}"]}', {"command": "x", "k": 1}, "x", "y")
    assert json.loads(text) == {
        "a": {"b": {"command": "x", "k": 1}},
        "c": [1, {"command": "x", "k": 1}],
    }


def test_text_placeholders_are_filled_once() -> None:
    template = '{"m":"run `${command}` not `${original}` (${unknown}) ${"}'
    text = render(template, {}, "rtok run echo ${original}", "echo ${command}")
    assert json.loads(text) == {
        "m": "run `rtok run echo ${original}` not `echo ${command}` (${unknown}) ${"
    }


def test_output_is_one_line_of_ascii_json() -> None:
    text = render('{"m":"${command}"}', {}, "echo 'é\nx'", "o")
    assert "\n" not in text and text.isascii()
    assert json.loads(text) == {"m": "echo 'é\nx'"}
