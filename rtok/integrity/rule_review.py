"""What a user sees before trusting a rule file, and the trust flow built on it.

`review_file` reads a file once; everything shown (content, risk summary) and the hash
stored by `trust_reviewed` come from those same bytes, so a file swapped between showing
and storing is never trusted. `offer_trust` is the flow `rtok trust` and
`rtok init --trust-filters` share; the caller passes how to print and how to ask.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from rtok import trust

# Lines a rule must never hide; a drop pattern matching one of them is a risk.
ERROR_SAMPLES: tuple[str, ...] = (
    "error: could not compile `app`",
    "ERROR tests/test_app.py::test_login - AssertionError",
    "FAILED tests/test_app.py::test_login",
    "Traceback (most recent call last):",
    "fatal: not a git repository",
    "warning: unused variable `x`",
    "npm ERR! code ELIFECYCLE",
    "panic: runtime error: index out of range",
    "E   assert 1 == 2",
    'Exception in thread "main" java.lang.NullPointerException',
)
# Ordinary output lines; a pattern matching all of them (and the error lines) is a catch-all.
PLAIN_SAMPLES: tuple[str, ...] = ("", "ok", "src/app.py", "  42 files changed", "}")
SMALL_CAP = 10


@dataclass(frozen=True)
class Review:
    path: str
    canonical: str
    data: bytes  # the exact bytes shown; their hash is what gets stored
    families: tuple[str, ...]
    risks: tuple[str, ...]
    parse_error: str | None = None
    notes: tuple[str, ...] = field(default_factory=tuple)

    @property
    def text(self) -> str:
        return self.data.decode("utf-8", errors="replace")


def _builtin_families() -> frozenset[str]:
    from rtok.filter.layers import builtin_tables

    return frozenset(builtin_tables())


def _parse(data: bytes) -> tuple[dict[str, object], str | None]:
    """The file's rule tables as rtok's filter parses them, or its malformed reason."""
    from rtok.filter.ruleparse import parse_rule_bytes

    parsed = parse_rule_bytes(data)
    if "error" in parsed:
        return {}, str(parsed["error"])
    rules: dict[str, object] = dict(parsed.get("rules") or {})
    return rules, None


def _patterns(table: dict[str, object], key: str) -> list[str]:
    value = table.get(key)
    return [p for p in value if isinstance(p, str)] if isinstance(value, list) else []


def _matches(pattern: str, line: str) -> bool:
    try:
        return re.search(pattern, line) is not None
    except re.error:
        return False


def _is_catch_all(pattern: str) -> bool:
    return all(_matches(pattern, line) for line in (*PLAIN_SAMPLES[1:], *ERROR_SAMPLES))


def _int_field(table: dict[str, object], key: str) -> int:
    """The field's value, or the default an unset field takes."""
    from rtok.filter.rule import FIELDS

    value = table.get(key, FIELDS[key][1])
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def table_risks(family: str, table: dict[str, object]) -> list[str]:
    """Risks of one rule table, one sentence each."""
    risks: list[str] = []
    for pattern in _patterns(table, "drop"):
        if _is_catch_all(pattern):
            risks.append(f"[{family}] drop pattern {pattern!r} matches every line")
            continue
        hit = next((line for line in ERROR_SAMPLES if _matches(pattern, line)), None)
        if hit is not None:
            risks.append(f"[{family}] drop pattern {pattern!r} matches error lines such as {hit!r}")
    for pattern in _patterns(table, "keep"):
        if _is_catch_all(pattern):
            risks.append(
                f"[{family}] keep pattern {pattern!r} matches every line (nothing is shortened)"
            )
    max_lines = _int_field(table, "max_lines")
    if "max_lines" in table and max_lines < SMALL_CAP:
        risks.append(f"[{family}] max_lines = {max_lines} shows fewer than {SMALL_CAP} lines")
    kept = _int_field(table, "head") + _int_field(table, "tail")
    if ("head" in table or "tail" in table) and kept < SMALL_CAP:
        risks.append(
            f"[{family}] head + tail = {kept}: a long output is cut to fewer than {SMALL_CAP} lines"
        )
    return risks


def review_bytes(path: str, data: bytes, earlier: Sequence[str] = ()) -> Review:
    """Risk summary of `data` as the rule file at `path`. `earlier` are the gated files
    of lower layers: a family defined there too is reported as shadowed."""
    tables, error = _parse(data)
    families = tuple(sorted(tables))
    risks: list[str] = []
    notes: list[str] = []
    if error is not None:
        risks.append(f"the file is malformed ({error}); rtok skips it even when trusted")
    builtins = _builtin_families()
    overridden = [f for f in families if f in builtins]
    if overridden:
        risks.append("replaces the built-in rule of " + ", ".join(f"[{f}]" for f in overridden))
    risks.extend(_shadowing_risks(path, families, earlier))
    added = [f for f in families if f not in builtins and f not in ("script", "mcp")]
    if added:
        notes.append(
            "adds rules for "
            + ", ".join(f"[{f}]" for f in added)
            + " (these commands become rewritable)"
        )
    for family in families:
        table = tables[family]
        if isinstance(table, dict):
            risks.extend(table_risks(family, table))
    return Review(
        path=path,
        canonical=trust.canonical_path(path),
        data=data,
        families=families,
        risks=tuple(risks),
        parse_error=error,
        notes=tuple(notes),
    )


def _shadowing_risks(path: str, families: Sequence[str], earlier: Sequence[str]) -> list[str]:
    """One risk per family of `path` that a gated file of a lower layer defines too."""
    shadowed: dict[str, list[str]] = {}
    for other in earlier:
        other_data = trust.read_file_bytes(other)
        if other_data is None or trust.canonical_path(other) == trust.canonical_path(path):
            continue
        other_tables, _ = _parse(other_data)
        for family in families:
            if family in other_tables:
                shadowed.setdefault(family, []).append(other)
    return [
        f"[{family}] shadows the rule in " + ", ".join(others)
        for family, others in sorted(shadowed.items())
    ]


MAX_REVIEW_BYTES = 1 << 20  # a rule file nobody can read through is not reviewed


def review_file(path: str, earlier: Sequence[str] = ()) -> Review:
    """Read `path` once and review those bytes. Raises OSError when it cannot be read,
    is not a regular file, or is too large to show."""
    if not os.path.isfile(path):
        raise OSError(f"not a regular file: {path}")
    with open(path, "rb") as handle:
        data = handle.read(MAX_REVIEW_BYTES + 1)
    if len(data) > MAX_REVIEW_BYTES:
        raise OSError(f"larger than {MAX_REVIEW_BYTES} bytes, too large to review: {path}")
    return review_bytes(path, data, earlier)


def render_review(review: Review) -> str:
    """The text shown before asking: header, the content verbatim, the risk summary."""
    shown = review.path
    if review.canonical != os.path.abspath(review.path):
        shown += f" -> {review.canonical}"
    rule = "=" * min(72, max(24, len(shown) + 8))
    lines = [
        f"=== {shown} ===",
        review.text.rstrip("\n"),
        rule,
        "",
        f"Risk summary ({trust.scope_of(review.path)} rules, "
        f"{len(review.families)} families, sha256:{trust.sha256_hex(review.data)[:16]}):",
    ]
    if review.risks:
        lines.extend(f"  [!] {risk}" for risk in review.risks)
    else:
        lines.append("  no high-risk patterns found")
    lines.extend(f"  - {note}" for note in review.notes)
    return "\n".join(lines)


def trust_reviewed(review: Review) -> dict[str, str]:
    """Store trust for exactly the reviewed bytes."""
    return trust.trust_bytes(review.path, review.data)


def stdin_is_terminal() -> bool:
    try:
        return sys.stdin.isatty() and sys.stdout.isatty()
    except (OSError, ValueError):
        return False


@dataclass
class TrustOutcome:
    trusted: list[str] = field(default_factory=list)
    declined: list[str] = field(default_factory=list)
    unreadable: list[str] = field(default_factory=list)


def offer_trust(
    files: Sequence[str],
    *,
    decision: bool | None,
    echo: Callable[[str], None],
    confirm: Callable[[str], bool] | None,
    earlier_of: Callable[[str], Sequence[str]] = lambda _path: (),
) -> TrustOutcome:
    """Show each file and trust it when the user agrees.

    `decision` True trusts every file shown (`--yes`, `--trust-filters`), False trusts
    none (`--no-trust-filters`), None asks `confirm` for each file. Without `confirm`
    (no terminal) nothing is trusted: consent cannot be assumed.
    """
    outcome = TrustOutcome()
    for path in files:
        try:
            review = review_file(path, earlier_of(path))
        except OSError as exc:
            echo(f"cannot read {path}: {exc.strerror or exc}")
            outcome.unreadable.append(path)
            continue
        if decision is False:
            outcome.declined.append(path)
            continue
        echo(render_review(review))
        if decision is None:
            agreed = confirm(f"Trust {path}?") if confirm is not None else False
        else:
            agreed = True
        if agreed:
            entry = trust_reviewed(review)
            echo(f"trusted {path} (sha256:{entry['sha256'][:16]})")
            outcome.trusted.append(path)
        else:
            echo(f"not trusted: {path} (rtok keeps skipping it)")
            outcome.declined.append(path)
        echo("")
    return outcome


def earlier_layers(cwd: str) -> Callable[[str], list[str]]:
    """For `offer_trust`: the gated files below a given file in layer order."""
    order = trust.gated_rule_files(cwd)

    def earlier(path: str) -> list[str]:
        if path in order:
            return order[: order.index(path)]
        return [p for p in order if p != path]

    return earlier


def offer_trust_for_project(
    cwd: str,
    *,
    decision: bool | None,
    echo: Callable[[str], None],
    confirm: Callable[[str], bool] | None = None,
) -> TrustOutcome:
    """`rtok init`'s step: every untrusted rule file that applies in `cwd`, shown and
    offered. With `decision` None and no terminal, nothing is trusted and the files are
    named with the command that trusts them."""
    files = trust.untrusted_rule_files(cwd)
    if not files:
        return TrustOutcome()
    if decision is None and confirm is None:
        if stdin_is_terminal():
            confirm = questionary_confirm
        else:
            for path in files:
                echo(f"untrusted rule file (skipped until trusted): {path}")
            echo("review and trust them with: rtok trust")
            return TrustOutcome(declined=list(files))
    return offer_trust(
        files, decision=decision, echo=echo, confirm=confirm, earlier_of=earlier_layers(cwd)
    )


def questionary_confirm(question: str) -> bool:
    import questionary

    # unsafe_ask: Ctrl-C stops `rtok init` (exit 130) instead of answering "no"
    answer = questionary.confirm(question, default=False).unsafe_ask()
    return bool(answer)
