"""Which agents on this machine rtok does not reach, for `rtok discover`.

- `without_rtok`: agents detected here (a binary on PATH or a configuration path present,
  the installer's own detection) that rtok's integrity records hold nothing for;
- `silent_hooks`: hook-tier agents rtok installed a hook for that have not called it since
  (no line of the decision log from that agent after the install; the log keeps 30 days).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from typing import Any


def _installed() -> dict[str, float]:
    """agent -> epoch seconds of its earliest integrity record."""
    from rtok.integrity.records import load_records

    first: dict[str, float] = {}
    for record in load_records():
        try:
            stamp = dt.datetime.fromisoformat(record.time.replace("Z", "+00:00")).timestamp()
        except ValueError:
            stamp = 0.0
        first[record.agent] = min(first.get(record.agent, stamp), stamp)
    return first


def _detected() -> list[str]:
    from rtok.install.integrations import detect
    from rtok.integrity.installed import context, descriptors

    ctx = context("global", None)
    return sorted(name for name, item in descriptors().items() if detect(item, ctx))


def coverage(records: Iterable[dict[str, Any]]) -> dict[str, list[dict[str, object]]]:
    try:
        installed = _installed()
    except Exception:  # unreadable records: nothing can be said
        installed = {}
    try:
        detected = _detected()
    except Exception:
        detected = []
    from rtok.integrity.installed import descriptors

    hook_tier = {name for name, item in descriptors().items() if item.has_hook}
    last_call: dict[str, float] = {}
    for record in records:
        agent, stamp = str(record.get("agent", "")), float(str(record.get("t", 0)))
        last_call[agent] = max(last_call.get(agent, 0.0), stamp)
    without: list[dict[str, object]] = [
        {"agent": name} for name in detected if name not in installed
    ]
    silent: list[dict[str, object]] = [
        {"agent": name, "installed": since}
        for name, since in sorted(installed.items())
        if name in hook_tier and last_call.get(name, 0.0) < since
    ]
    return {"without_rtok": without, "silent_hooks": silent}
