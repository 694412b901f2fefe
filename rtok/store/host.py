"""Which agent a run is for, its session, and how much of a shell result that agent keeps.

Stdlib only (hot path). The rewritten command cannot say which agent asked for it without
changing its text (the rewrite only inserts `rtok run `), so a run learns its agent from
its own environment, which the host hands to every shell command it starts:

1. `RTOK_AGENT=<name>` when set (by the user, a wrapper, or a test): that agent;
2. else the first variable of `MARKERS` (descriptors' `[limits] agent_env`, in name order)
   that is set and not empty: `CLAUDECODE` for Claude Code, `GEMINI_CLI`, `OPENCODE`, ...;
3. else `unknown`.

The session is `RTOK_SESSION` when set, else the agent's `[limits] session_env` variable,
else "". The cap is the agent's `[limits] tool_result_chars`, replaced by its `cap_env`
variable when that holds a positive integer; None when rtok does not know it (the run is
then counted as uncapped, and `rtok gain` says so).
"""

from __future__ import annotations

from rtok._fast import oslite as os

UNKNOWN = "unknown"


def agent(environ: dict[str, str] | None = None) -> str:
    env = os.environ if environ is None else environ
    named = env.get("RTOK_AGENT", "").strip()
    if named:
        return named[:40]
    from rtok.compiled.host_limits import MARKERS

    for variable, name in MARKERS:
        if env.get(variable, ""):
            return name
    return UNKNOWN


def session(name: str, environ: dict[str, str] | None = None) -> str:
    env = os.environ if environ is None else environ
    given = env.get("RTOK_SESSION", "")
    if given:
        return given[:200]
    from rtok.compiled.host_limits import SESSIONS

    for variable in SESSIONS.get(name, ()):
        value = env.get(variable, "")
        if value:
            return value[:200]
    return ""


def cap(name: str, environ: dict[str, str] | None = None) -> int | None:
    """Characters the agent keeps of one shell result; None when not known."""
    from rtok.compiled.host_limits import CAPS

    chars, variable, _preview = CAPS.get(name, (None, "", None))
    if variable:
        env = os.environ if environ is None else environ
        try:
            value = int(env.get(variable, ""))
        except ValueError:
            value = 0
        if value > 0:
            return value
    return chars


def over_cap(name: str) -> int | None:
    """Characters of the preview the agent keeps of a result over its cap (it saves the
    whole result to a file instead of cutting it); None when it cuts."""
    from rtok.compiled.host_limits import CAPS

    return CAPS.get(name, (None, "", None))[2]


def counterfactual(raw_bytes: int, cap_chars: int | None, preview_chars: int | None = None) -> int:
    """What the host would have put in context of `raw_bytes` without rtok: all of it up
    to the cap; over it, the cap (a host that cuts) or the preview (a host that saves the
    result to a file and shows its start).

    The cap counts characters and this counts bytes as characters: for output that is not
    ASCII the host would keep more bytes than this, so the saving is understated, never
    overstated."""
    if cap_chars is None or raw_bytes <= cap_chars:
        return raw_bytes
    return cap_chars if preview_chars is None else min(preview_chars, cap_chars)
