"""Reading one host settings file in its host's dialect, and the files that could not be read.

Each file is read in its host's own dialect: strict JSON ("json"), JSON with `//` and
`/* */` comments ("jsonc", as Gemini CLI reads it), or that with trailing commas too
("jsonc-commas", OpenCode and Kilo). A missing file is skipped. A file rtok cannot read
(unreadable, not in the host's dialect, not an object, or larger than MAX_SETTINGS_BYTES)
is recorded in `problems` while a host's rules are read (`read_rules` returns them): the
caller then must not rewrite for that host, since the user meant those rules even where
the host itself may not parse them. One warning per file goes to stderr as well.

Hot path: stdlib only.
"""

from __future__ import annotations

import sys

from rtok._fast import fastjson as json

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

    Rules = tuple[list[str], list[str], list[str]]
    Reader = Callable[[str, Mapping[str, str]], Rules]

# Settings files past this size are not read on every shell call (a runaway settings file
# would cost every hook call seconds and hundreds of megabytes): they count as unreadable.
MAX_SETTINGS_BYTES = 1 << 20

# Larger settings files are parsed once per content: their rule keys
# (`rtok.permissions.readers.RULE_KEYS`) are kept in rtok's cache under the SHA-256 of the
# bytes (`rtok._fast.cachefile`), so an unchanged file costs a hash and a small read
# instead of a parse on every shell call.
CACHE_FROM_BYTES = 64 << 10

_warned: set[str] = set()
# (path, why) of every file the current `read_rules` call could not read.
problems: list[tuple[str, str]] = []


def read_rules(
    reader: Reader, cwd: str, env: Mapping[str, str]
) -> tuple[Rules, list[tuple[str, str]]]:
    """Run one host's reader; also return the files it could not read."""
    problems.clear()
    rules = reader(cwd, env)
    found = list(problems)
    problems.clear()
    return rules, found


def read_settings(path: str, dialect: str = "json") -> dict[str, object] | None:
    """The JSON object in `path` (`dialect` "json", "jsonc" which allows comments, or
    "jsonc-commas" which also allows trailing commas);
    None when missing, or when it cannot be read (recorded in `problems`, warned once)."""
    try:
        with open(path, "rb") as handle:
            raw = handle.read(MAX_SETTINGS_BYTES + 1)
    except FileNotFoundError:
        return None
    except OSError as error:
        problem(path, f"cannot read it ({error.strerror or error})")
        return None
    if len(raw) > MAX_SETTINGS_BYTES:
        problem(path, f"larger than {MAX_SETTINGS_BYTES >> 20} MiB")
        return None
    try:
        if len(raw) > CACHE_FROM_BYTES:
            data = _cached_parse(path, raw, dialect)
        else:
            data = _parse(raw, dialect)
    except (UnicodeDecodeError, ValueError, RecursionError) as error:
        what = "JSON" if dialect == "json" else "JSON with comments"
        problem(path, f"not valid {what} ({error})")
        return None
    if not isinstance(data, dict):
        problem(path, "the top level is not a JSON object")
        return None
    return data


def _parse(raw: bytes, dialect: str) -> object:
    if raw.startswith(b"\xef\xbb\xbf"):  # not "utf-8-sig": that codec costs an import
        raw = raw[3:]
    text = raw.decode("utf-8")
    if dialect in ("jsonc", "jsonc-commas"):
        text = strip_json_comments(text, trailing_commas=dialect == "jsonc-commas")
    return json.loads(text)


def _cached_parse(path: str, raw: bytes, dialect: str) -> object:
    from rtok._fast import cachefile
    from rtok.permissions.readers import RULE_KEYS

    def rules_only(data: bytes) -> object:
        parsed = _parse(data, dialect)
        if not isinstance(parsed, dict):
            return parsed
        return {key: parsed[key] for key in RULE_KEYS if key in parsed}

    value, _data = cachefile.parse_with_bytes(path, f"settings-{dialect}", rules_only, data=raw)
    return value


def strip_json_comments(text: str, trailing_commas: bool = False) -> str:
    """`text` with `// …` and `/* … */` comments outside strings replaced by blanks (line
    breaks kept, so parse errors still point at the right line), and with
    `trailing_commas` a comma before `}` or `]` blanked too. An unterminated block comment
    raises ValueError."""
    if trailing_commas and "," in text:
        return _strip_trailing_commas(strip_json_comments(text))
    if "/" not in text:
        return text
    out: list[str] = []
    i, n = 0, len(text)
    start = 0
    while i < n:
        c = text[i]
        if c == '"':
            i = _string_end(text, i)
        elif c == "/" and text.startswith("//", i):
            end = text.find("\n", i)
            end = n if end < 0 else end
            out.append(text[start:i])
            out.append(" " * (end - i))
            i = start = end
        elif c == "/" and text.startswith("/*", i):
            end = _block_comment_end(text, i)
            out.append(text[start:i])
            out.append("".join(ch if ch == "\n" else " " for ch in text[i:end]))
            i = start = end
        else:
            i += 1
    out.append(text[start:])
    return "".join(out)


def _string_end(text: str, i: int) -> int:
    """The index just past the string literal whose opening quote is at `i` (or past the
    end of `text` for an unterminated one)."""
    i += 1
    n = len(text)
    while i < n and text[i] != '"':
        i += 2 if text[i] == "\\" else 1
    return i + 1


def _block_comment_end(text: str, i: int) -> int:
    """The index just past the `*/` closing the comment opened at `i`."""
    end = text.find("*/", i + 2)
    if end < 0:
        raise ValueError("unterminated /* comment")
    return end + 2


def _strip_trailing_commas(text: str) -> str:
    out = list(text)
    last_comma = -1
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == '"':
            last_comma = -1
            i = _string_end(text, i) - 1
        elif c == ",":
            last_comma = i
        elif c in "}]":
            if last_comma >= 0:
                out[last_comma] = " "
            last_comma = -1
        elif c not in " \t\r\n":
            last_comma = -1
        i += 1
    return "".join(out)


def parsed_toml(path: str, key: str, parse: Callable[[bytes], object]) -> tuple[bool, object]:
    """(readable, what `parse` made of the file), parsed only when it changes
    (`rtok._fast.cachefile`). An unreadable or non-TOML file is a problem of this host's rules:
    (False, None), so the caller rewrites nothing for it."""
    try:
        from rtok._fast import cachefile

        return True, cachefile.cached_parse(path, key, parse)
    except Exception as error:  # unreadable or not TOML: no rewrite for this host
        problem(path, f"cannot read it as TOML ({error})")
        return False, None


def problem(path: str, why: str) -> None:
    """Record that `path` could not be read (and warn once)."""
    problems.append((path, why))
    _warn(path, why)


def _warn(path: str, why: str) -> None:
    if path in _warned:
        return
    _warned.add(path)
    try:
        sys.stderr.write(
            f"rtok: warning: cannot read the permission rules in {path}: {why}; commands are "
            "not rewritten for this host until it is fixed\n"
        )
    except (OSError, ValueError):
        return
