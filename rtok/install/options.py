"""Options and exit statuses of `rtok init` / `rtok uninstall` (cheap to import: the CLI
registers its commands with these before any installer module is loaded)."""

from __future__ import annotations

import os
from dataclasses import dataclass, field

EXIT_OK = 0
EXIT_PENDING = 1  # --check found changes; or changes needing consent were declined
EXIT_USAGE = 2  # bad options or bad input (unknown agent, unparseable or unwritable target)
EXIT_KEPT = 3  # uninstall kept an rtok file the user has modified
EXIT_FAILED = 4  # applying failed; every file written was restored
EXIT_CANCELLED = 130  # Ctrl-C at a prompt; nothing written

EXIT_CODES_HELP = (
    "Exit status: 0 done or nothing to do; 1 changes pending (--check), or changes that "
    "need consent were declined or not confirmed; 2 bad options or bad input (unknown "
    "agent, a target that does not parse, cannot be read or written, or links outside the "
    "project; --purge while an agent still has rtok), nothing written; 3 uninstall kept an "
    "rtok file you modified; 4 applying "
    "failed and every file was restored."
)


class UsageError(Exception):
    """Options that cannot be acted on; nothing was written."""


@dataclass
class InitOptions:
    agents: list[str] = field(default_factory=list)
    all_agents: bool = False
    global_scope: bool = False
    project_scope: bool = False  # --project: the current project, without asking
    dry_run: bool = False
    check: bool = False
    uninstall: bool = False
    patch: bool | None = None  # True --auto-patch, False --no-patch, None decide per run
    hook_only: bool = False
    show: bool = False
    awareness: str | None = None
    trust_filters: bool | None = None
    verbose: bool = False
    json: bool = False
    cwd: str = field(default_factory=os.getcwd)
    interactive: bool = False  # stdin and stdout are a terminal
    purge: bool = False  # uninstall --purge: remove rtok's own data and cache folders
    yes: bool = False  # --yes: consent to the purge without asking
    quiet: bool = False  # --quiet: print only the one-line result
