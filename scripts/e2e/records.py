"""Records of the tier: one agent session, one check, one agent's report; log readers."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from typing import Any


@dataclass
class Session:
    """One agent session against the fake model, and what came back."""

    scenario: str
    folder: str
    returncode: int | None = None
    seconds: float = 0.0
    timed_out: bool = False
    steps: list[dict[str, Any]] = field(default_factory=list)
    requests: int = 0
    offered_tools: list[str] = field(default_factory=list)
    tool_results: list[str] = field(default_factory=list)
    swept_pids: list[int] = field(default_factory=list)
    hook_calls: list[dict[str, Any]] = field(default_factory=list)  # from RTOK_HOOK_LOG

    @property
    def final_output(self) -> str:
        """The output part of the last tool result, unwrapped from JSON shapes."""
        return tool_output_text(self.tool_results[-1]) if self.tool_results else ""


@dataclass
class Check:
    name: str
    ok: bool
    detail: str = ""


@dataclass
class AgentReport:
    """Everything one agent's e2e test learnt; also the input of the README table."""

    agent: str
    label: str
    package: str
    version: str
    kind: str  # "control" | "round_trip" | "project_round_trip"
    passed: bool = False
    checks: list[Check] = field(default_factory=list)
    sessions: list[Session] = field(default_factory=list)
    commands: list[dict[str, Any]] = field(default_factory=list)
    seconds: float = 0.0
    run_dir: str = ""
    netns: bool = False
    finished_at: str = ""

    def check(self, name: str, ok: bool, detail: str = "") -> bool:
        self.checks.append(Check(name, ok, detail))
        return ok

    def failures(self) -> list[Check]:
        return [c for c in self.checks if not c.ok]

    def summary(self) -> str:
        lines = [
            f"{self.agent} {self.version} {self.kind}: "
            f"{'PASS' if self.passed else 'FAIL'} in {self.seconds:.1f}s ({self.run_dir})"
        ]
        lines += [f"  [{'ok' if c.ok else 'FAIL'}] {c.name}: {c.detail}"[:600] for c in self.checks]
        return "\n".join(lines)


def tool_output_text(text: str) -> str:
    """The command's output inside an agent's tool-result wrapper (JSON shapes unwrapped)."""
    try:
        value = json.loads(text)
    except ValueError:
        return text
    if isinstance(value, dict):
        parts = [value[k] for k in ("stdout", "output", "result") if isinstance(value.get(k), str)]
        return "\n".join(parts) if parts else text
    if isinstance(value, list):
        parts = [
            item["result"]
            for item in value
            if isinstance(item, dict) and isinstance(item.get("result"), str)
        ]
        return "\n".join(parts) if parts else text
    return text


def read_requests(log_path: str) -> list[dict[str, Any]]:
    if not os.path.exists(log_path):
        return []
    with open(log_path, encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]
