"""Settings of the e2e tier, read once at import (the test session later scrubs RTOK_*)."""

from __future__ import annotations

import os

SCRIPTS_DIR = os.path.dirname(os.path.abspath(__file__))
REPO_ROOT = os.path.dirname(os.path.dirname(SCRIPTS_DIR))
COMMAND = "git log"


def prompt_for(command: str) -> str:
    return f"Run this exact shell command with your shell tool and report its output: `{command}`"


PROMPT = prompt_for(COMMAND)
# The deny run: a push the user's own host rules forbid (to a local bare remote).
DENIED_COMMAND = "git push origin HEAD:refs/heads/pushed"
FINAL_TEXT = "Done."
SYSTEM_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
# Run folders and results live in the checkout's git-ignored e2e-artifacts/ (CI uploads it).
ARTIFACTS_DIR = os.environ.get("RTOK_E2E_ARTIFACTS") or os.path.join(REPO_ROOT, "e2e-artifacts")
RESULTS_DIR = os.environ.get("RTOK_E2E_RESULTS") or os.path.join(ARTIFACTS_DIR, "results")
NETNS_SETTING = os.environ.get("RTOK_E2E_NETNS", "auto")
# rtok on the agent's PATH the way `pipx install` puts it there (~/.local/bin). Most hook
# replies name a bare `rtok` in the rewritten command, so the agent's shell must find it.
RTOK_ON_PATH = os.environ.get("RTOK_E2E_RTOK_ON_PATH", "1") != "0"
RTOK_OVERRIDE = os.environ.get("RTOK_E2E_RTOK", "")
