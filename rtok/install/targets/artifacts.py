"""Files rtok writes whole: rendered templates and awareness texts, and recognising them.

A template holds `{{RTOK_BIN_JSON}}` where the installer puts the rtok path as a JSON
string literal (valid in TypeScript and Python alike). A file on disk is rtok's stock file
when some shipped version of its template, with any value in its placeholders, gives its
bytes: the shipped/ manifest knows every shipped version; the current template (rendered
with any path) is always known, even before the manifest is regenerated.
"""

from __future__ import annotations

import json
import re

from rtok import resources

BIN_PLACEHOLDER = "{{RTOK_BIN_JSON}}"
LEVELS = ("default", "high", "full")
_BIN_LITERAL = re.compile(r'"(?:[^"\\\n]|\\.)*"')


def render_template(name: str, rtok_bin: str) -> bytes:
    text = resources.read_text("templates", name)
    return text.replace(BIN_PLACEHOLDER, json.dumps(rtok_bin)).encode("utf-8")


# The example of the expand command every awareness text carries: it names the command
# the text was written with.
_EXPAND_EXAMPLE = re.compile(r"`([^`\n]+?) expand 3f2a9c`")


def awareness_text(level: str, rtok_command: str = "rtok") -> str:
    """The awareness text of `level`, naming rtok as `rtok_command` in its commands (the
    path where the agent's shell has no `rtok` on PATH and no hook renames it)."""
    if level not in LEVELS:
        raise ValueError(f"unknown awareness level {level!r} (known: {', '.join(LEVELS)})")
    text = resources.read_text("awareness", f"{level}.md")
    return text if rtok_command == "rtok" else text.replace("`rtok ", f"`{rtok_command} ")


def _with_bare_rtok(body: bytes) -> bytes:
    """An awareness text written with another rtok command, as written with `rtok`."""
    text = body.decode("utf-8", "replace")
    found = _EXPAND_EXAMPLE.search(text)
    if found is None or found.group(1) == "rtok":
        return body
    return text.replace(f"`{found.group(1)} ", "`rtok ").encode("utf-8")


def _matches_current_template(name: str, data: bytes) -> bool:
    template = resources.read_text("templates", name)
    before, sep, after = template.partition(BIN_PLACEHOLDER)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    if not sep:
        return text == template
    pieces = after.split(BIN_PLACEHOLDER)
    regex = re.escape(before) + "(?P<lit>" + _BIN_LITERAL.pattern + ")"
    for piece in pieces[:-1]:
        regex += re.escape(piece) + "(?P=lit)"
    regex += re.escape(pieces[-1])
    return re.fullmatch(regex, text, flags=re.DOTALL) is not None


def _manifest_knows(relpath: str, data: bytes) -> bool:
    try:
        from rtok.integrity import manifest
    except ImportError:  # the trust layer is optional for recognising current files
        return False
    try:
        return manifest.is_stock_artifact(relpath, data)
    except (ValueError, OSError):
        return False


def is_stock_template(name: str, data: bytes) -> bool:
    """Did some rtok release write exactly `data` from template `name`?"""
    return _matches_current_template(name, data) or _manifest_knows(f"templates/{name}", data)


def is_stock_awareness(data: bytes, frontmatter: str = "") -> bool:
    """Is `data` one of rtok's awareness texts (any level, any release) after `frontmatter`?"""
    prefix = frontmatter.encode("utf-8")
    if not data.startswith(prefix):
        return False
    body = _with_bare_rtok(data[len(prefix) :])
    if any(body == awareness_text(level).encode("utf-8") for level in LEVELS):
        return True
    return any(_manifest_knows(f"awareness/{level}.md", body) for level in LEVELS)
