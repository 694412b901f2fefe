"""Every integration says how it is proven, and `rtok agents` says it too."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from rtok import build
from rtok.install import integrations
from rtok.install.descriptor import DescriptorError, check_proofs
from rtok.install.specs import Proof
from rtok_testing import run_rtok


def test_agents_json_carries_the_proof_of_every_agent() -> None:
    done = run_rtok(["agents", "--json"])
    assert done.returncode == 0, done.stderr.decode()
    rows = {row["name"]: row for row in json.loads(done.stdout)}
    descriptors = integrations.load_descriptors()
    assert set(rows) == set(descriptors)
    pins = build.e2e_pins()  # the e2e tier's own pins, read from scripts/e2e/pins.py
    for name, row in rows.items():
        proof = row["proof"]
        assert proof["kind"] == descriptors[name].proof.kind, name
        if proof["kind"] == "e2e":
            assert (proof["package"], proof["version"]) == pins[name], name
        else:
            assert proof["kind"] == "contract" and proof["docs"], name
            assert "version" not in proof, name


def test_agents_text_names_the_proof_on_each_line() -> None:
    done = run_rtok(["agents"])
    assert done.returncode == 0, done.stderr.decode()
    lines = {line.split()[0]: line for line in done.stdout.decode().splitlines()}
    pins = build.e2e_pins()
    for name, item in integrations.load_descriptors().items():
        if item.proof.kind == "e2e":
            package, version = pins[name]
            assert f"e2e ({package} {version})" in lines[name], lines[name]
        else:
            assert "contract (docs)" in lines[name], lines[name]


def test_an_e2e_claim_needs_the_agent_in_the_e2e_tier() -> None:
    real = integrations.load_descriptors()
    claims = {name: item for name, item in real.items() if item.proof.kind == "e2e"}
    name, item = next(iter(claims.items()))
    others = set(build.e2e_pins()) - {name}
    with pytest.raises(DescriptorError, match=f"does not run {name!r}"):
        check_proofs({name: item}, others)
    demoted = {name: dataclasses.replace(item, proof=Proof("contract", ("d",)))}
    with pytest.raises(DescriptorError, match=r"proof\.kind should be 'e2e'"):
        check_proofs(demoted, {name})
    check_proofs(real, set(build.e2e_pins()))  # the shipped descriptors hold


def test_the_pins_are_read_from_the_e2e_tier(tmp_path: Path) -> None:
    pins = tmp_path / "pins.py"
    pins.write_text(
        'AGENTS = ("demo",)\n'
        'def agent_package(a): return "demo-cli"\n'
        'def agent_version(a): return "9.9.9"\n'
    )
    assert build.e2e_pins(str(pins)) == {"demo": ("demo-cli", "9.9.9")}
    with pytest.raises(FileNotFoundError):
        build.e2e_pins(str(tmp_path / "missing.py"))
