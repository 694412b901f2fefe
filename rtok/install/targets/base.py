"""What every file strategy receives: one file of one agent's scope, fully resolved."""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass

from rtok.formats.text import decode
from rtok.install.model import Action, EditKind, FileEdit, InstallContext
from rtok.install.specs import Descriptor, FileSpec

# current bytes (None = absent) -> desired bytes (None = delete the file)
Transform = Callable[[bytes | None], bytes | None]


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
    return "removed rtok's hook entry although it was changed by hand: " + "; ".join(
        f"`{c}`" for c in changed
    )


def delete_if_created(data: bytes, target: Target) -> bytes | None:
    """A text file rtok created is deleted (None) once nothing but blank space is left."""
    if target.ctx.created_by_rtok(target.path) and not decode(data, target.path).text.strip():
        return None
    return data


def removing(remove: Callable[[bytes], bytes], target: Target) -> Transform:
    """The uninstall transform that takes rtok's part out of a file with `remove`: a missing
    file stays missing, a file without rtok's part is left as it is, and a file rtok created
    is deleted once nothing but blank space is left."""

    def uninstall(data: bytes | None) -> bytes | None:
        if data is None:
            return None
        removed = remove(data)
        if removed == data:
            return data
        return delete_if_created(removed, target)

    return uninstall


def needs_consent(target: Target, action: Action) -> bool:
    """Editing a settings file the user already has asks first; creating one, or taking
    rtok's entry out again on an explicit uninstall, does not."""
    return action == "install" and os.path.lexists(target.path)


def add_or_remove(action: Action) -> str:
    """The verb of a part edit's description."""
    return "add" if action == "install" else "remove"


RemovalNote = Callable[[bytes | None], str | None]


@dataclass(frozen=True)
class PartTransforms:
    """What an edit does to rtok's part of one file: `install` puts it in, `uninstall` takes
    it out, `owned` gives the bytes that are rtok's (what the integrity records hash), and
    `removal_note` says what an uninstall took out beyond rtok's exact bytes."""

    install: Transform
    uninstall: Transform
    owned: Transform
    removal_note: RemovalNote | None = None

    @classmethod
    def removing(
        cls,
        target: Target,
        install: Transform,
        remove: Callable[[bytes], bytes],
        owned: Transform,
        removal_note: RemovalNote | None = None,
    ) -> PartTransforms:
        """The transforms whose uninstall is `removing(remove, target)`."""
        return cls(install, removing(remove, target), owned, removal_note)


def part_edit(
    target: Target,
    action: Action,
    transforms: PartTransforms,
    *,
    kind: EditKind,
    description: str,
    consent: bool = False,
    mode: int | None = None,
    kept_note: RemovalNote | None = None,
) -> FileEdit:
    """The edit of rtok's part of one file: `install` or `uninstall` by `action` (the
    removal note only on an uninstall; `mode`, for a file rtok creates, only on an install)."""
    installing = action == "install"
    return FileEdit(
        path=target.path,
        agent=target.agent,
        scope=target.edit_scope,
        kind=kind,
        transform=transforms.install if installing else transforms.uninstall,
        mode=mode if installing else None,
        needs_consent=consent,
        owned_bytes=transforms.owned,
        description=description,
        kept_note=kept_note,
        removal_note=None if installing else transforms.removal_note,
    )


def settings_entry_edit(
    target: Target, action: Action, transforms: PartTransforms, what: str
) -> FileEdit:
    """The edit of rtok's entry in a settings file, described as "add WHAT" or "remove WHAT";
    changing a file the user already has asks first (`needs_consent`)."""
    return part_edit(
        target,
        action,
        transforms,
        kind="settings_entry",
        consent=needs_consent(target, action),
        description=f"{add_or_remove(action)} {what}",
    )
