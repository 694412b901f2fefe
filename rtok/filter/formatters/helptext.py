"""A command's help text (`docker run --help`, `kubectl options`) as an outline: the usage,
the prose and the section headers as they are, each section's commands or options named
on the header's line, their descriptions left to the archive.

Every command and option stays named (a head/tail cut would drop the middle sections
whole); what each does is one `rtok expand` away. The text's last line is shown as it is,
as every cut keeps the end. A help text reports nothing: the words
`error` or `warning` in a description are no message, so only a line carrying a secret is
protected. Stdlib only (hot path).
"""

from __future__ import annotations

from rtok._fast import regex
from rtok.filter.formatters import declare_complete
from rtok.filter.formatters.listing import LINE_WIDTH
from rtok.filter.protect import carries_secret

# `  run         Create and run …` (a command: its name, two spaces or more, what it does)
_COMMAND = regex.compile(r"^ {1,8}([A-Za-z][\w.:-]*\*?)(?: {2,}|\t)\S")
# `  -a, --attach list   Attach to …`, `      --rm   Remove …` (docker, cobra, click)
_OPTION = regex.compile(
    r"^ {1,8}((?:-[\w?], )?--?[\w][\w.-]*)(?:[ =](?:\S+|\[\S+\]))?(?: {2,}|\t|$)"
)
# kubectl's `    --as='':` (an option and its default; the description follows on
# lines of its own, indented by a tab)
_DEFAULTED = regex.compile(r"^ {2,8}((?:-\w, )?--[\w-]+)=.*:$")
_HEADER = regex.compile(r"^[A-Z][\w ()/-]*:$")
# sections whose lines are no entries (a usage line, examples to copy)
_VERBATIM = ("usage:", "examples:", "example:", "aliases:")


def help_outline(text: str) -> list[str] | None:
    lines = text.splitlines()
    if not any(_opens_help(line) for line in lines):
        return None
    out = _outline(lines)
    last = next((line for line in reversed(lines) if line.strip()), "")
    if out and out[-1] != last:
        out.append(last)  # the end as it is, as every cut keeps it (a pointer, a footer)
    return out if len(out) < len(lines) else None


def _opens_help(line: str) -> bool:
    """A usage line, or kubectl's `    --as='':` form of an option."""
    return line.lower().startswith("usage:") or _DEFAULTED.match(line) is not None


def _outline(lines: list[str]) -> list[str]:
    """Every line but the entries' descriptions and blank lines; each run of entries as
    their names."""
    out: list[str] = []
    names: list[str] = []
    verbatim = False
    for line in lines:
        name = None if verbatim else _entry(line)
        if name is not None:
            names.append(name)
        elif names and (not line.strip() or line[:1] in " \t"):
            continue  # the description of the entry above (wrapped, or on lines of its own)
        else:
            out.extend(_named(names))
            names = []
            if _HEADER.match(line):
                verbatim = line.lower() in _VERBATIM
            if line.strip():
                out.append(line)
    return out + _named(names)


def _entry(line: str) -> str | None:
    """The name of the command or option a help line describes, or None."""
    for pattern in (_DEFAULTED, _OPTION, _COMMAND):
        found = pattern.match(line)
        if found is not None:
            return found.group(1).replace(", ", "/")
    return None


def _named(names: list[str]) -> list[str]:
    """The names of one section's entries, several to a line under its header (a name
    holds no space, so one space parts them), wrapped before a line could be clipped."""
    out: list[str] = []
    line = " "
    for name in names:
        if len(line) + 1 + len(name) > LINE_WIDTH and line.strip():
            out.append(line)
            line = " "
        line += " " + name
    return [*out, line] if names else []


declare_complete(help_outline, carries_secret)
