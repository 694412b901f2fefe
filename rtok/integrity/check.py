"""One result of `rtok doctor`: the record every check returns, and its levels."""

from __future__ import annotations

from dataclasses import asdict, dataclass

PASS, FAIL, WARN, SKIP = "PASS", "FAIL", "WARN", "SKIP"


@dataclass(frozen=True)
class Check:
    agent: str
    scope: str
    sample: str  # rewrite | passthrough | deny | hook_entry | plugin_file | codex_trust | ...
    level: str  # PASS | FAIL | WARN | SKIP
    message: str
    fix: str | None = None
    command: str | None = None
    reply: str | None = None
    path: str | None = None  # the file the check is about, when there is one

    def to_json(self) -> dict[str, object]:
        return asdict(self)
