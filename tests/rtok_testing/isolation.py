"""The environment variables the test session scrubs, derived from the agent descriptors."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

INTEGRATIONS = Path(__file__).resolve().parents[2] / "integrations"
# `${VAR` or `${VAR:-default}` in a descriptor's path.
_PATH_VARIABLE = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)")


def descriptor_env_overrides(folder: Path = INTEGRATIONS) -> frozenset[str]:
    """Every variable an agent descriptor says relocates the agent's files (its
    `relocation_env` and each `${VAR}` its paths expand) or marks a host's shell command
    (its `[limits]` variables)."""
    names: set[str] = set()
    for path in sorted(folder.glob("*.toml")):
        with open(path, "rb") as handle:
            data = tomllib.load(handle)
        install = data.get("install") or {}
        names.update(install.get("relocation_env") or [])
        # The variables by which `rtok run` knows its agent, its session and its cap.
        limits = data.get("limits") or {}
        names.update([*limits.get("agent_env", []), *limits.get("session_env", [])])
        if limits.get("cap_env"):
            names.add(limits["cap_env"])
        names.update(_PATH_VARIABLE.findall(path.read_text(encoding="utf-8")))
    return frozenset(names)


# Variables that would point rtok or an agent at a real location, or change rtok's behaviour:
# the descriptors' overrides, plus agents' config variables rtok does not read itself.
SCRUBBED_PREFIXES = ("RTOK_",)
SCRUBBED = descriptor_env_overrides() | {
    "OPENCODE_CONFIG",
    "OPENCODE_CONFIG_DIR",
    "KILO_CONFIG",
    "QWEN_HOME",
    "XDG_CONFIG_HOME",
    "XDG_DATA_HOME",
    "XDG_CACHE_HOME",
    "XDG_STATE_HOME",
}
