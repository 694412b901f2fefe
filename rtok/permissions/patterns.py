"""Claude-format permission patterns (the text inside `Bash(…)`) matched against a command.

Semantics follow Claude Code's rule syntax as RTK implements it:
- `*` (or a pattern made only of stars) matches every command;
- a single trailing `*` (optionally `:*` or ` *`) is a word-bounded prefix: `git push:*`
  matches `git push` and `git push origin`, never `git pushall`;
- any other `*` is a glob: the text before the first star is a prefix, the text after the
  last a suffix, the parts between must appear in order (`:*` / `*:` read as ` *` / `* `);
- no star: the command equals the pattern or continues it after whitespace.

Hot path: stdlib only, no regular expressions.
"""

from __future__ import annotations

_SPACE = " \t\n"


def command_matches_pattern(command: str, pattern: str) -> bool:
    cmd = command.strip()
    pat = pattern.strip()
    if not pat.strip("*"):
        return True
    if "*" not in pat:
        return _word_prefix(cmd, pat)
    if pat.endswith("*") and "*" not in pat[:-1]:
        prefix = pat[:-1].rstrip(": \t")
        return not prefix or _word_prefix(cmd, prefix)
    return _glob(cmd, pat.replace(":*", " *").replace("*:", "* ").split("*"))


def _word_prefix(cmd: str, prefix: str) -> bool:
    """`cmd` is `prefix`, or `prefix` followed by whitespace and more words."""
    if not cmd.startswith(prefix):
        return False
    return len(cmd) == len(prefix) or cmd[len(prefix)] in _SPACE


def _glob(cmd: str, parts: list[str]) -> bool:
    first, middles, last = parts[0], parts[1:-1], parts[-1]
    if not cmd.startswith(first):
        return False
    pos = len(first)
    for index, middle in enumerate(middles):
        if not middle:
            continue
        found = cmd.find(middle, pos)
        if found >= 0:
            pos = found + len(middle)
            continue
        # `git -C * diff *` must match `git -C /p diff`: a part ending in whitespace may
        # close the command when everything after it in the pattern is a star.
        trimmed = middle.rstrip(_SPACE)
        rest_is_stars = not last and not any(middles[index + 1 :])
        return (
            trimmed != middle
            and rest_is_stars
            and cmd.endswith(trimmed)
            and len(cmd) - len(trimmed) >= pos
        )
    return cmd.endswith(last) and len(cmd) - len(last) >= pos
