"""What every file strategy receives: one file of one agent's scope, fully resolved."""

from __future__ import annotations

from dataclasses import dataclass

from rtok.formats.text import decode
from rtok.install.descriptor import Descriptor, FileSpec
from rtok.install.model import InstallContext


class IntegrationError(ValueError):
    """An existing file rtok would have to overwrite or guess about; nothing is written."""


@dataclass(frozen=True)
class Target:
    descriptor: Descriptor
    scope: str  # the scope being installed ("global" | "project")
    spec: FileSpec
    path: str  # absolute path of the file
    ctx: InstallContext
    command: str  # the hook command rtok registers for this agent
    edit_scope: str  # scope recorded on the edit ("global" for a user file of a project)

    @property
    def agent(self) -> str:
        return self.descriptor.name

    def option(self, key: str, default: object = None) -> object:
        return self.spec.options.get(key, default)


def hand_edited_note(changed: list[str]) -> str | None:
    """The removal note for rtok entries the user changed by hand (None: there were none)."""
    if not changed:
        return None
    return ("removed rtok's hook entry although it was changed by hand: "
            + "; ".join(f"`{c}`" for c in changed))


def delete_if_created(data: bytes, target: Target) -> bytes | None:
    """A text file rtok created is deleted (None) once nothing but blank space is left."""
    if target.ctx.created_by_rtok(target.path) and not decode(data, target.path).text.strip():
        return None
    return data
