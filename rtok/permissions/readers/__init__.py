"""The permission rule readers, one module per rule format, registered in `READERS`.

A reader is `rules(cwd, env) -> (deny, ask, allow)`: pattern lists in the Claude pattern
language (rtok.permissions.verdict) read from the files the host keeps for `cwd`, with
every location taken from `env` (never the process environment). A judge
(`JUDGES`) is `verdict(cmd, cwd, env) -> str` for a host whose rules are not prefix
patterns (Auggie's regexes). Files a reader cannot read go into
`rtok.permissions.settings.problems`.

A new rule format is one module here and one line in `READERS` (or `JUDGES`): the source
name a descriptor's `[hook] permissions` may name, the module, the function, and the
top-level keys of a JSON settings file it reads (kept when a large file is cached).

Hot path: stdlib only. Only the module of the host being judged is imported.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping
    from typing import Any

    from rtok.permissions.settings import Reader

    Judge = Callable[[str, str, Mapping[str, str]], str]

# source -> (module under rtok.permissions.readers, function, top-level JSON keys it reads)
READERS: dict[str, tuple[str, str, tuple[str, ...]]] = {
    "claude": ("claude", "claude_rules", ("permissions",)),
    "codebuddy": ("claude", "codebuddy_rules", ("permissions",)),
    "cursor": ("claude", "cursor_rules", ("permissions",)),
    "droid": ("droid", "droid_rules", ("commandBlocklist", "commandDenylist")),
    "gemini": ("gemini", "gemini_rules", ("tools", "excludeTools", "security")),
    "grok": ("grok", "grok_rules", ("permissions",)),
    "qwen": ("gemini", "qwen_rules", ("tools", "excludeTools", "security")),
    "vibe": ("vibe", "vibe_rules", ()),
    "codex": ("codex", "codex_rules", ()),
    "kimi": ("kimi", "kimi_rules", ()),
}
JUDGES: dict[str, tuple[str, str, tuple[str, ...]]] = {
    "auggie": ("auggie", "auggie_verdict", ("toolPermissions",)),
}
# Read by rtok.permissions.opencode, which is not a reader of this table.
_OTHER_KEYS = ("permission",)

# The top-level keys any reader looks at: only these are kept in the settings cache.
RULE_KEYS = (
    tuple(
        dict.fromkeys(
            key for entry in (*READERS.values(), *JUDGES.values()) for key in entry[2]
        ).keys()
    )
    + _OTHER_KEYS
)


def _function(entry: tuple[str, str, tuple[str, ...]]) -> Any:
    module = __import__(f"rtok.permissions.readers.{entry[0]}", fromlist=[entry[1]])
    return getattr(module, entry[1])


def reader(source: str) -> Reader | None:
    """The rule reader of `source`, or None when it has none."""
    entry = READERS.get(source)
    if entry is None:
        return None
    found: Reader = _function(entry)
    return found


def judge(source: str) -> Judge | None:
    """The command judge of `source`, or None when it has none."""
    entry = JUDGES.get(source)
    if entry is None:
        return None
    found: Judge = _function(entry)
    return found
