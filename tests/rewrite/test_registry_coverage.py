"""Registry coverage: the commands RTK rewrites that rtok had no rewrite group for, and their
limits."""

from __future__ import annotations

import pytest

from rtok.compiled.registry import REGISTRY
from rtok.rewrite.rewriter import Settings, rewrite_command


def test_at_least_110_groups() -> None:
    assert len(REGISTRY["groups"]) >= 110


@pytest.mark.parametrize(
    "command",
    [
        "jq . data.json",
        "yq '.spec' deploy.yaml",
        "just test",
        "jj log",
        "jj status",
        "glab mr list",
        "npm exec tsc",
        "pnpm tsc --noEmit",
        "pnpm exec vitest run",
        "yarn exec jest",
        "yarn dlx eslint .",
        "npx tsc --noEmit",
        "ping -c 3 example.org",
        "aws s3 ls",
        "gcloud compute instances list",
        "az vm list",
        "terraform plan",
        "helm lint chart",
        "gradle build",
        "mvn test",
        "dotnet test",
        "swift test",
        "rspec",
        "rake test",
        "rubocop",
        "composer install",
        "phpunit",
        "deno test",
        "bun test",
        "uv run pytest",
        "poetry run pytest",
        "tox",
        "nox",
        "vite build",
        "cabal build",
        "meson test",
        "gcc -c main.c",
        "tar -tzf pkg.tgz",
        "dig example.org",
        "trivy fs .",
        "nix build",
        "dmesg",
        "kustomize build overlays/prod",
        "sphinx-build docs out",
    ],
)
def test_covered_command_is_rewritten(command: str) -> None:
    assert rewrite_command(command, settings=Settings()) == f"rtok run {command}"


@pytest.mark.parametrize(
    "command",
    [
        "ping example.org",
        "jq -n '1'",
        "just dev",
        "jj split -i",
        "aws logs tail group",
        "gcloud auth login",
        "vite",
        "webpack serve",
        "dmesg -w",
        "nix develop",
        "cypress open",
        "flutter run",
        "dart run",
        "mkdocs serve",
        "conda activate env",
    ],
)
def test_streaming_and_interactive_forms_are_left_alone(command: str) -> None:
    assert rewrite_command(command, settings=Settings()) is None
