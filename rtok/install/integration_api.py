"""The interface the runner, `rtok init --show` and `rtok agents` call the agent
integrations through.

rtok.install.integrations implements it (mypy checks the module against `Integrations`);
the installer's tests substitute a one-agent module with the same functions.
"""

from __future__ import annotations

from typing import Protocol

from rtok.install.model import Action, FileEdit, InstallContext
from rtok.install.specs import Descriptor


class Integrations(Protocol):
    def load_descriptors(self) -> dict[str, Descriptor]: ...

    def detect(self, descriptor: Descriptor, ctx: InstallContext) -> bool: ...

    def installed_scopes(self, descriptor: Descriptor, ctx: InstallContext) -> list[str]: ...

    def missing_parts(
        self, descriptor: Descriptor, scope: str, ctx: InstallContext
    ) -> list[FileEdit]: ...

    def edits_for(
        self, agent: str, scope: str, action: Action, ctx: InstallContext
    ) -> list[FileEdit]: ...

    def awareness_notes(self, agents: list[str], scope: str, ctx: InstallContext) -> list[str]: ...
