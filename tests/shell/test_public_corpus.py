"""The tree-sitter-bash test corpus (tests/shell/data) read by rtok's shell reader: every
program lexes back to its own bytes, rewriting keeps the byte-for-byte invariant, and the
gate answers every program (a deny-everything rule never lets one through)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rtok.permissions.verdict import verdict_with_rules
from rtok.rewrite.decision import decide
from rtok.rewrite.rewriter import Settings, apply_insertions, insertion_points
from rtok.shell import lexer

DATA = Path(__file__).parent / "data" / "tree_sitter_bash_corpus.jsonl"
PROGRAMS = [json.loads(line)["code"] for line in DATA.read_text(encoding="utf-8").splitlines()]
LINES = sorted({line for program in PROGRAMS for line in program.splitlines() if line.strip()})
CASES = PROGRAMS + [line for line in LINES if line not in PROGRAMS]


def test_corpus_size() -> None:
    assert len(PROGRAMS) >= 90
    assert len(CASES) >= 500


@pytest.mark.parametrize("code", CASES)
def test_lexing_keeps_every_byte(code: str) -> None:
    assert "".join(lexer.lex(code).texts()) == code


@pytest.mark.parametrize("code", CASES)
def test_rewrite_only_inserts(code: str) -> None:
    found = insertion_points(code, settings=Settings())
    if found is None or not found[0]:
        return
    out = apply_insertions(code, found[0], "rtok run ")
    for offset in found[0]:
        assert out[offset : offset + len("rtok run ")] == "rtok run "
        out = out[:offset] + out[offset + len("rtok run ") :]
    assert out == code


@pytest.mark.parametrize("code", CASES)
def test_a_deny_everything_rule_lets_nothing_through(code: str) -> None:
    verdict = verdict_with_rules(code, ["*"], [], ["*"])
    assert verdict in ("deny", "defer", "opaque", "ask", "default")
    if verdict != "default":  # "default": nothing bash would run (comments, blank lines)
        assert decide(
            code, "deny" if verdict == "defer" else verdict, settings=Settings()
        ).kind in ("deny", "defer")
