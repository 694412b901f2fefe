"""The options of `rtok expand`: what each sets and the message for each mistake."""

from __future__ import annotations

import pytest

from rtok.store.expand_main import Options, parse_args


def _options(args: list[str]) -> Options:
    parsed = parse_args(args)
    assert isinstance(parsed, Options), parsed
    return parsed


def test_values_inline_or_in_the_next_word() -> None:
    parsed = _options(["ABCD12", "--from", "3", "--lines=2", "--grep=err"])
    assert (parsed.entry_id, parsed.first, parsed.count, parsed.grep) == ("abcd12", 3, 2, "err")
    assert not (parsed.full or parsed.merged or parsed.listing)
    assert _options(["--list"]).listing
    assert _options(["abcd", "--merged"]).merged
    assert _options(["abcd", "--full"]).full


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["abcd", "--from"], "--from needs a value"),
        (["abcd", "--lines=x"], "--lines takes a number, not 'x'"),
        (["abcd", "--from", "0"], "--from must be 1 or more"),
        (["abcd", "-q"], "unknown option '-q'"),
        (["abcd", "efgh"], "unexpected argument 'efgh'"),
        (["--list", "abcd"], "--list takes no id and no other option"),
        (["--list", "--grep", "x"], "--list takes no id and no other option"),
        (
            ["abcd", "--merged", "--lines", "1"],
            "--full and --merged print everything; they"
            " cannot be combined with --from/--lines/--grep",
        ),
        ([], "an archive id is required (see `rtok expand --list`)"),
        (["abc"], "an id needs at least 4 characters"),
    ],
)
def test_each_mistake_is_named(args: list[str], message: str) -> None:
    assert parse_args(args) == message
