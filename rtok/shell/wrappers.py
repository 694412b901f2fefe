"""Looking through env prefixes, process wrappers and shells to the command that runs.

`timeout 30 env FOO=1 nice -n 5 cargo test` runs `cargo test`; `command_index` finds it by
reading each wrapper's options from the option tables in rules/registry.toml (compiled into
rtok/compiled/registry.py). An option a table does not list means "unknown": the caller
must then leave the command alone. `shell_script` finds the script of `bash -c '…'`.

Hot path: stdlib only.
"""

from __future__ import annotations

from rtok.compiled.registry import REGISTRY
from rtok.shell.words import assignment_name, basename, dequote

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

MAX_LAYERS = 10
DISABLE_VARIABLE = "RTOK_DISABLED"

_WRAPPERS: dict[str, dict[str, object]] = REGISTRY["wrappers"]  # type: ignore[assignment]
_SHELLS: dict[str, dict[str, object]] = REGISTRY["shells"]  # type: ignore[assignment]


class Peeled:
    """Where the real command starts inside a simple command's words."""

    __slots__ = ("disabled", "index", "layers", "privileged")

    def __init__(self, index: int, disabled: bool, layers: int, privileged: bool) -> None:
        self.index = index  # index of the command word
        self.disabled = disabled  # an RTOK_DISABLED assignment applies to this command
        self.layers = layers  # how many wrappers were looked through
        self.privileged = privileged  # a wrapper such as sudo was looked through


def command_index(
    words: Sequence[str],
    *,
    through_privileged: bool = False,
    transparent: Sequence[tuple[str, ...]] = (),
) -> Peeled | None:
    """Find the command word after assignments and wrappers.

    Returns None when no command is left (`FOO=1`, `env` alone) or a wrapper carries an
    option its table does not know. `transparent` lists user prefixes (word tuples,
    longest first) to look through as well. Privileged wrappers (sudo) are looked through
    only when `through_privileged` is set; otherwise the result points at them.
    """
    i = 0
    n = len(words)
    disabled = False
    layers = 0
    privileged = False
    while i < n:
        name = assignment_name(words[i])
        if name is None:
            break
        disabled = disabled or name == DISABLE_VARIABLE
        i += 1
    while i < n and layers <= MAX_LAYERS:
        literal = dequote(words[i])
        if literal is None:
            return Peeled(i, disabled, layers, privileged)
        prefix_len = _transparent_match(words, i, transparent)
        if prefix_len:
            i += prefix_len
            layers += 1
            continue
        table = _WRAPPERS.get(basename(literal)) if "/" not in literal else _WRAPPERS.get(literal)
        if table is None:
            return Peeled(i, disabled, layers, privileged)
        if table.get("rewrite") is False:
            if not through_privileged:
                return Peeled(i, disabled, layers, privileged)
            privileged = True
        after = _skip_wrapper(words, i + 1, table)
        if after is None:
            return None
        i, found_disabled = after
        disabled = disabled or found_disabled
        layers += 1
    if i >= n or layers > MAX_LAYERS:
        return None
    return Peeled(i, disabled, layers, privileged)


def _transparent_match(
    words: Sequence[str], i: int, transparent: Sequence[tuple[str, ...]]
) -> int:
    for prefix in transparent:
        k = len(prefix)
        if k and i + k < len(words) and tuple(dequote(w) for w in words[i : i + k]) == prefix:
            return k
    return 0


def _skip_wrapper(
    words: Sequence[str], i: int, table: dict[str, object]
) -> tuple[int, bool] | None:
    """Index after the wrapper's options and positionals, and whether RTOK_DISABLED was set."""
    flags: Sequence[str] = table.get("flags", ())  # type: ignore[assignment]
    value_options: Sequence[str] = table.get("value_options", ())  # type: ignore[assignment]
    positionals: int = table.get("positionals", 0)  # type: ignore[assignment]
    assignments = bool(table.get("assignments", False))
    numeric = bool(table.get("numeric_flags", False))
    disabled = False
    n = len(words)
    while i < n:
        word = dequote(words[i])
        if word is None:
            return None
        if word == "--":
            i += 1
            break
        if not word.startswith("-") or (word == "-" and "-" not in flags):
            break
        if word in flags:
            i += 1
        elif word in value_options:
            i += 2
        elif word.startswith("--") and word.split("=", 1)[0] in value_options and "=" in word:
            i += 1
        elif len(word) > 2 and word[:2] in value_options and not word.startswith("--"):
            i += 1  # `-k5`: value attached to a short option
        elif numeric and word[1:].isdigit():
            i += 1
        else:
            return None
    for _ in range(positionals):
        if i >= n:
            return None
        i += 1
    if assignments:
        while i < n:
            name = assignment_name(words[i])
            if name is None:
                break
            disabled = disabled or name == DISABLE_VARIABLE
            i += 1
    if i > n:
        return None
    return i, disabled


def shell_script(words: Sequence[str], index: int) -> tuple[int, str] | None:
    """For `bash [options] -c SCRIPT …` with the shell at `index`: (script index, dialect).

    None when the command is not a shell reading a `-c` script.
    """
    literal = dequote(words[index])
    if literal is None:
        return None
    table = _SHELLS.get(basename(literal))
    if table is None:
        return None
    letters: str = table["flags"]  # type: ignore[assignment]
    long_flags: Sequence[str] = table["long_flags"]  # type: ignore[assignment]
    value_options: Sequence[str] = table["value_options"]  # type: ignore[assignment]
    dialect: str = table["dialect"]  # type: ignore[assignment]
    seen_c = False
    i = index + 1
    n = len(words)
    while i < n:
        word = dequote(words[i])
        if word is None:
            break  # an expanding word cannot be an option: it is the script (or an operand)
        if word == "--command" and dialect == "fish":
            return (i + 1, dialect) if i + 1 < n else None
        if word.startswith("--command=") and dialect == "fish":
            return None  # the script shares a word with the option: not rewritable in place
        if word in long_flags:
            i += 1
        elif word in value_options:
            i += 2
        elif word.startswith(("-", "+")) and len(word) > 1:
            body = word[1:]
            if word.startswith("+") and all(c in letters for c in body):
                i += 1
                continue
            if not all(c in letters or c == "c" for c in body):
                return None
            seen_c = seen_c or "c" in body
            i += 1
        else:
            break
    if not seen_c or i >= n:
        return None
    return i, dialect
