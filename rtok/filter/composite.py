"""Outputs of more than one tool: a package script's `xo && ava && tsd`, a make or just
recipe, a tox or nox session.

Stdlib only (hot path). A reader claims only the lines it understands
(`summary.Summarised.unclaimed` are the others). The output is split into the tools'
sections where it says where one starts (npm's `> cmd` header, yarn's `$ cmd`, tox's
`env: commands[0]> cmd`, nox's `nox > cmd`, a recipe line make or just echoes), each section
read by the readers of the programs its command chains, in order, each on what the one before
left. What no reader claims stays unclaimed; on a failed run `account_for` shows it through
the generic layer (its tail verbatim, its error lines kept) after what the readers said, so
the part that failed is always shown and a pass summary never stands alone.
"""

from __future__ import annotations

from rtok._fast import regex
from rtok.filter.cutting import fail_tail
from rtok.filter.formatters.summary import Summarised, clean_lines, summariser, unclaimed_of
from rtok.filter.protect import is_protected

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from rtok.filter.rule import Rule

    Reader = Callable[[str], "list[str] | None"]
    # rtok.filter.dispatch.formatter_for: a family and argv -> its reader, or None
    Lookup = Callable[[str, list[str]], "Reader | None"]

# npm and pnpm: `> pkg@1.0.0 test` then `> the script`; yarn 1: `$ the script`; tox 4:
# `py311: commands[0]> pytest`; tox 3: `py311 run-test: commands[0] | pytest`; nox:
# `nox > pytest` (its own `nox > Running session …` lines name no program it reads).
_PACKAGE_LINE = regex.compile(r"^> \S+@\S* \S+")
_HEADER = regex.compile(
    r"^(?:> |\$ |\S+: commands\[\d+\]> |\S+ run-test: commands\[\d+\] \| "
    r"|nox > )(?P<cmd>\S.*)$"
)
# make's own lines (`make[1]: Entering directory …`, `make: *** [Makefile:3: test] Error 1`)
_MAKE_OWN = regex.compile(r"^g?make(?:\[\d+\])?: ")
# a session's or an env's own result (nox's `nox > Session tests-3.11 was successful in 49
# seconds.`, tox 4's `  py311: OK (12.30=setup[2.10]+cmd[10.20] seconds)`): always shown
_SESSION_RESULT = regex.compile(
    r"^(?:nox > Session \S+ (?:was successful|failed|aborted|was skipped)"
    r"|\s+\S+: (?:OK|FAIL) \(|\s+congratulations :\))"
)
# families whose recipe lines are echoed as they run
_ECHOING = frozenset({"make", "gmake", "just"})
COMPOSITE = frozenset({"make", "gmake", "just", "tox", "nox"})
# A line that reads as a pass (a runner's counts, `ok  pkg`, `All checks passed!`).
_PASS = regex.compile(r"(?i)\b(?:pass(?:ed|es|ing)?|ok|succeeded|success(?:ful)?)\b")
# How many times unclaimed lines are read again by another reader.
_DEPTH = 4


class Section:
    __slots__ = ("command", "lines")

    def __init__(self, command: str) -> None:
        self.command = command
        self.lines: list[int] = []


def _header_command(lines: list[str], i: int, echoing: bool, lookup: Lookup) -> str:
    """The command a line says starts here, or ""."""
    line = lines[i]
    found = _HEADER.match(line)
    if found is not None:
        if line.startswith("> ") and _PACKAGE_LINE.match(line):
            return ""  # the package line; the script follows it
        if line.startswith("> ") and (i == 0 or not _PACKAGE_LINE.match(lines[i - 1])):
            return ""
        return found.group("cmd")
    if echoing and line[:1] not in ("", " ", "\t") and _reads(line, lookup):
        return line
    return ""


def _reads(command: str, lookup: Lookup) -> bool:
    """Whether a recipe line runs a program rtok has a summary reader for."""
    from rtok.filter.family import family_of_command

    try:
        family, words = family_of_command(command)
    except Exception:
        return False
    return bool(words) and family not in COMPOSITE and bool(_readers_of(command, lookup))


def sections(lines: list[str], echoing: bool, lookup: Lookup) -> list[Section]:
    """The output cut where a header says a command starts (the first section, before any
    header, has no command)."""
    out = [Section("")]
    for i in range(len(lines)):
        command = _header_command(lines, i, echoing, lookup)
        if command:
            out.append(Section(command))
        out[-1].lines.append(i)
    return [section for section in out if section.lines]


def _readers_of(command: str, lookup: Lookup) -> list[Reader]:
    """The summary readers of the programs a command runs, in the order it runs them."""
    from rtok.filter.family import chain, family_of
    from rtok.filter.formatters.summary import is_summariser

    try:
        programs = chain(command)
    except Exception:
        return []
    readers: list[Reader] = []
    for argv in programs:
        family, words = family_of(argv)
        if family in COMPOSITE:
            continue
        reader = lookup(family, words)
        if reader is not None and is_summariser(reader) and reader not in readers:
            readers.append(reader)
    return readers


def _fallback_readers() -> list[Reader]:
    """Readers tried on lines no named reader claimed (tools run without a header)."""
    from rtok.filter.formatters.diagnostics import diagnostics_for
    from rtok.filter.formatters.pytest_fmt import pytest_output
    from rtok.filter.formatters.runners import detect_runner

    readers: list[Reader] = [pytest_output, detect_runner]
    for tool in ("tsd", "tsc", "eslint", "ruff", "mypy"):
        reader = diagnostics_for(tool)
        if reader is not None:
            readers.append(reader)
    return readers


def read_lines(
    raw: list[str], indices: list[int], readers: list[Reader], depth: int = 0
) -> tuple[list[str], list[int]]:
    """(what the first reader that knows them said of the lines at `indices`, read again
    by the readers after it where it left some, the indices none claimed)."""
    for position, reader in enumerate(readers):
        said, claimed = _read(raw, indices, reader)
        if said is None or not claimed:
            continue
        rest = [i for i in indices if i not in claimed and raw[i].strip()]
        shown = list(said)
        if rest and depth < _DEPTH:
            more, rest = read_lines(raw, rest, readers[position + 1 :], depth + 1)
            shown.extend(more)
        return shown, rest
    return [], [i for i in indices if raw[i].strip()]


def read_chain(
    raw: list[str], indices: list[int], readers: list[Reader]
) -> tuple[list[str], list[int]]:
    """The lines of `a && b && c`: c printed last, so each reader, from the last program's
    back to the first's, reads the lines above those a later one claimed. (What a linter's
    and a type checker's reports share, `✖ 4:19 message`, is the later tool's when a test
    run came between them.) The parts in the order they were printed, and the lines none
    claimed."""
    limit = len(indices)
    parts: list[tuple[int, list[str]]] = []
    claimed_all: set[int] = set()
    for position in range(len(readers) - 1, -1, -1):
        part = [i for i in indices[:limit] if i not in claimed_all]
        if not part:
            break
        said, claimed = _read(raw, part, readers[position])
        if said is None or not claimed:
            continue
        said = _earliest(raw, part, readers[:position], claimed) or said
        first = min(claimed)
        parts.append((first, said))
        claimed_all |= claimed
        limit = indices.index(first)
    shown = [line for _, said in sorted(parts, key=lambda part: part[0]) for line in said]
    return shown, [i for i in indices if i not in claimed_all and raw[i].strip()]


def _earliest(
    raw: list[str], part: list[int], before: list[Reader], claimed: set[int]
) -> list[str] | None:
    """What an earlier program's reader says of the lines a later one claimed, when it
    claims the same lines and no program between them printed anything it reads: in
    `xo && ava && tsd` a report in the form both xo and tsd print is xo's when ava printed
    nothing (xo failed, so ava and tsd never ran)."""
    for index, reader in enumerate(before):
        said, mine = _read(raw, part, reader)
        if said is None or mine != claimed:
            continue
        if all(_read(raw, part, between)[0] is None for between in before[index + 1 :]):
            return said
    return None


def _read(raw: list[str], indices: list[int], reader: Reader) -> tuple[list[str] | None, set[int]]:
    """What `reader` says of the lines at `indices`, and which of them it claimed."""
    text = "\n".join(raw[i] for i in indices) + "\n"
    try:
        said = reader(text)
    except Exception:
        said = None
    if said is None:
        return None, set()
    left = {indices[i] for i in unclaimed_of(said)}
    if isinstance(said, Summarised):
        left.update(indices[i] for i in said.foreign)
        said = said.own
    return said, {i for i in indices if i not in left and raw[i].strip()}


def chain_reader(script: str, lookup: Lookup) -> Reader | None:
    """The reader of a script's output: its lines before any header are the output of the
    programs it chains, read in the order they ran. None when no program has a reader."""
    if not _readers_of(script, lookup):
        return None
    return composite_reader("script", None, lookup, script)


def composite_reader(
    family: str, fallback: Reader | None, lookup: Lookup, command: str = ""
) -> Reader:
    """A summary reader for an output of several tools (see the module docstring);
    `command` is what printed the lines before the first header."""
    echoing = family in _ECHOING

    @summariser
    def read(text: str) -> list[str] | None:
        raw = clean_lines(text)
        parts = sections(raw, echoing, lookup)
        lead = parts[0] if command and parts and not parts[0].command else None
        if lead is not None:
            lead.command = command  # the lines before any header: no header line of theirs
        shown: list[str] = []
        unclaimed: list[int] = []
        read_any = False
        for section in parts:
            said, rest = _read_section(raw, section, section is lead, lookup)
            unclaimed.extend(rest)
            if said:
                read_any = True
                shown.extend(said)
        if not read_any:
            return fallback(text) if fallback is not None else None
        return _with_protected(shown, raw, sorted(unclaimed))

    read.__name__ = f"{family}_sections"
    return read


def _read_section(
    raw: list[str], section: Section, is_lead: bool, lookup: Lookup
) -> tuple[list[str], list[int]]:
    """(what the readers of the section's command said of its lines, the lines none of
    them claimed); nothing said when no reader knows the command or its lines. A header
    line is the section's first, except for the lead (the lines before any header)."""
    readers = _readers_of(section.command, lookup) if section.command else []
    if not readers:
        body = section.lines
        if section.command and raw[section.lines[0]].strip():
            body = section.lines[1:]
            return [], [section.lines[0], *(i for i in body if raw[i].strip())]
        return [], [i for i in body if raw[i].strip()]
    body = section.lines if is_lead else section.lines[1:]
    said, rest = read_chain(raw, body, readers)
    if not said:
        return [], [i for i in section.lines if raw[i].strip()]
    return said, rest


def _with_protected(shown: list[str], raw: list[str], unclaimed: list[int]) -> Summarised:
    """The sections' summaries, and the unclaimed lines: their error lines shown, the others
    left to `account_for`."""
    present = {line.strip() for line in shown}
    rest: list[int] = []
    for i in unclaimed:
        line = raw[i]
        if (_MAKE_OWN.match(line) or _PACKAGE_LINE.match(line)) and not is_protected(line):
            continue  # make entering and leaving directories, npm naming the package
        if is_protected(line) or _SESSION_RESULT.match(line):
            if line.strip() not in present:
                shown.append(line)
                present.add(line.strip())
            continue
        rest.append(i)
    return Summarised(shown, rest)


def account_for(
    summary: list[str], text: str, exit_code: int, rule: Rule, fail_tail_lines: int
) -> list[str]:
    """A failed run's summary with the lines its reader did not claim: read by another
    reader when one knows them, else through the generic layer; and, when nothing shown
    reports a failure while a line reads as a pass, a line that says the run failed."""
    unclaimed = unclaimed_of(summary)
    shown = list(summary)
    if unclaimed:
        raw = clean_lines(text)
        said, rest = read_lines(raw, unclaimed, _fallback_readers())
        shown.extend(said)
        if rest:
            present = set(shown)
            lines = [raw[i] for i in rest if raw[i] not in present]
            shown.extend(fail_tail(lines, rule, fail_tail_lines))
    if not any(is_protected(line) for line in shown) and (
        not shown or any(_PASS.search(line) for line in shown)
    ):
        shown.append(
            f"exit status {exit_code}: the run failed, though no part of its output above says so"
        )
    return shown
