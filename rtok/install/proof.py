"""How each integration is proven, for `rtok agents` and the README's agent table.

A descriptor's `[proof]` says `e2e` (the real CLI runs in the e2e tier) or `contract` (built
from the host's docs, tested against payloads recorded from them). The version an `e2e`
integration was run with is the tier's pin, compiled from scripts/e2e/pins.py into
rtok/compiled/e2e_pins.py, never written a second time in the descriptor.
"""

from __future__ import annotations

from rtok.compiled.e2e_pins import E2E_PINS
from rtok.install.specs import Descriptor


def proof_facts(descriptor: Descriptor) -> dict[str, object]:
    """The `proof` field of `rtok agents --json`."""
    proof = descriptor.proof
    facts: dict[str, object] = {"kind": proof.kind}
    if proof.kind == "e2e":
        package, version = E2E_PINS.get(descriptor.name, ("", ""))
        facts.update(package=package, version=version)
    if proof.docs:
        facts["docs"] = list(proof.docs)
    if proof.note:
        facts["note"] = proof.note
    return facts


def proof_label(facts: dict[str, object]) -> str:
    """One short phrase: `e2e (claude-code 2.1.332)` or `contract (docs)`."""
    if facts.get("kind") == "e2e":
        return f"e2e ({facts.get('package')} {facts.get('version')})"
    return "contract (docs)"
