"""Hosts that borrow another agent's hooks: they load, say, Claude Code's hook settings by
themselves and run `rtok hook claude` with payloads of their own (Devin CLI, ZCode, Grok
Build, Copilot CLI's `.claude` loading). The lending agent's descriptor lists them
(`[[doctor.borrowers]]`); `rtok doctor` names those found on this machine and runs the
registered hook command with each one's payload: the answer must be a reply of the lending
agent's format or its "no opinion" (exit 0), never an error or a block.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from collections.abc import Callable, Mapping, Sequence

from rtok.hooks.descriptors import fill_sample
from rtok.hooks.types import JsonObject, JsonValue
from rtok.install.specs import Borrower, Descriptor
from rtok.integrity import installed

SAMPLE_COMMAND = "git status"
# (command, payload, cwd, env) -> (exit status or None, stdout, stderr)
RunHook = Callable[
    [str, Mapping[str, JsonValue], str, Mapping[str, str]], tuple[int | None, str, str]
]


def found_by(borrower: Borrower) -> str:
    """How the host shows itself on this machine ("" when it does not)."""
    for binary in borrower.binaries:
        if shutil.which(binary):
            return f"{binary} on PATH"
    for path in borrower.paths:
        if os.path.exists(os.path.expanduser(path)):
            return path
    return ""


def borrower_payload(borrower: Borrower, cwd: str) -> JsonObject | None:
    """The host's shell-call payload for SAMPLE_COMMAND in `cwd` (None: its sample agent
    has no descriptor sample)."""
    if borrower.sample_of:
        lender = installed.descriptors().get(borrower.sample_of)
        if lender is None or lender.hook_sample is None:
            return None
        return fill_sample(lender.hook_sample, SAMPLE_COMMAND, cwd)
    text = borrower.payload.replace("${command}", SAMPLE_COMMAND).replace(
        "${cwd}", json.dumps(cwd)[1:-1]
    )
    payload: JsonObject = json.loads(text)
    return payload


def reply_problem(descriptor: Descriptor, code: int | None, out: str, err: str) -> str | None:
    """Why this answer could hurt the borrowing host (None: a valid reply or no opinion)."""
    if code is None:
        return f"the hook did not answer: {err.strip() or 'no message'}"
    if code != 0:
        return f"the hook exited {code}" + (" (exit 2 blocks the call)" if code == 2 else "")
    text = out.strip()
    if not text or text == descriptor.no_opinion.strip():
        return None
    try:
        reply = json.loads(text)
    except ValueError:
        return f"stdout is not JSON: {text[:80]!r}"
    if not isinstance(reply, dict):
        return "stdout is JSON but not an object"
    return None


def borrowed_checks(
    descriptor: Descriptor, commands: Sequence[str], run: RunHook
) -> list[tuple[str, str, str]]:
    """(level, host name, message) for each borrowing host found here, running each
    registered command with the host's payload through `run(command, payload, cwd, env)`
    (rtok.integrity.doctor.run_hook_command)."""
    results: list[tuple[str, str, str]] = []
    for borrower in descriptor.doctor.borrowers:
        where = found_by(borrower)
        if not where:
            continue
        with tempfile.TemporaryDirectory(prefix="rtok-doctor-") as tmp:
            cwd = os.path.realpath(tmp)
            payload = borrower_payload(borrower, cwd)
            if payload is None:
                results.append(
                    (
                        "WARN",
                        borrower.name,
                        f"found ({where}), but no sample payload of {borrower.sample_of} is known",
                    )
                )
                continue
            for command in commands:
                code, out, err = run(command, payload, cwd, dict(os.environ))
                problem = reply_problem(descriptor, code, out, err)
                head = (
                    f"{borrower.name} ({where}) loads {descriptor.display_name}'s "
                    f"hooks and runs `{command}` with its own payload"
                )
                if problem:
                    results.append(("FAIL", borrower.name, f"{head}: {problem}"))
                else:
                    answer = "a reply" if out.strip() else "no opinion"
                    results.append(
                        (
                            "PASS",
                            borrower.name,
                            f"{head}; it answers with "
                            f"{answer} (exit 0) [{borrower.source.split(' ')[0]}]",
                        )
                    )
    return results
