"""Files rtok owns whole: plugin templates and awareness files.

Install writes the rendered file; a file already there is replaced only when it is a stock
rtok file (any release, any rtok path). A file rtok created that the user has since edited
is left as it is and reported (`kept_note`); anything else at that path is refused: rtok
never overwrites a file it cannot prove it wrote. Uninstall deletes a stock file, keeps one
rtok created that the user changed, saying so through `kept_note`, and leaves any other
file at that path (one rtok never wrote) alone without a word.
"""

from __future__ import annotations

from collections.abc import Callable

from rtok.install.model import Action, EditKind, FileEdit
from rtok.install.targets import artifacts
from rtok.install.targets.base import IntegrationError, PartTransforms, Target, part_edit

StockTest = Callable[[bytes], bool]


def _whole_file(
    target: Target,
    action: Action,
    kind: EditKind,
    desired: bytes,
    is_stock: StockTest,
    what: str,
    mode: int | None = None,
) -> FileEdit:
    def ours(data: bytes | None) -> bool:
        return data is None or data == desired or is_stock(data)

    def changed_by_user(data: bytes | None) -> bool:
        return not ours(data) and target.ctx.created_by_rtok(target.path)

    def install(data: bytes | None) -> bytes | None:
        if ours(data):
            return desired
        if changed_by_user(data):
            return data  # rtok's file, edited since: the edit wins, reported by kept_note
        raise IntegrationError(
            f"{target.path}: a file rtok did not write (or one changed since) is in the way "
            f"of the {what}; move it away, then run rtok init again"
        )

    def uninstall(data: bytes | None) -> bytes | None:
        return None if ours(data) else data

    def kept_note(data: bytes | None) -> str | None:
        # Only a file rtok created can have been changed since: any other file at that
        # path (the user's own, never replaced) is simply not rtok's.
        if ours(data) or not changed_by_user(data):
            return None
        return f"kept {target.path}: it differs from the {what} rtok wrote (changed by hand?)"

    def owned(data: bytes | None) -> bytes | None:
        return data

    verb = "write" if action == "install" else "delete"
    # part_edit gives `mode` to an install only: an uninstall never changes the mode of a
    # file it leaves in place.
    return part_edit(
        target,
        action,
        PartTransforms(install, uninstall, owned),
        kind=kind,
        description=f"{verb} the {what}",
        mode=mode,
        kept_note=kept_note,
    )


def template_file(target: Target, action: Action) -> FileEdit:
    name = str(target.option("template"))
    desired = artifacts.render_template(name, target.ctx.rtok_bin)
    mode = target.option("mode")
    return _whole_file(
        target,
        action,
        "whole_file",
        desired,
        lambda data: artifacts.is_stock_template(name, data),
        f"{target.descriptor.display_name} {name.rsplit('/', 1)[-1]} file",
        mode if isinstance(mode, int) else None,
    )


def awareness_level(target: Target) -> str:
    forced = target.option("level")
    if isinstance(forced, str):
        return forced
    if target.descriptor.tier == "rules":
        return "full"
    return target.ctx.awareness_level


def awareness_command(target: Target) -> str:
    """How the awareness text names rtok. A rules-only agent has no hook to rename a bare
    `rtok`, so its user-scope text names rtok's path when the shell will not find `rtok`.
    A project's files never carry a path of this machine (they are shared)."""
    if target.descriptor.tier != "rules" or target.scope != "global":
        return "rtok"
    from rtok.install import command_link
    from rtok.invocation import shell_word

    if command_link.found_on_path(target.ctx.env) is not None:
        return "rtok"
    link = command_link.plan_install(target.ctx.rtok_bin, target.ctx.env, target.ctx.home)
    if link.action in ("create", "replace"):
        return "rtok"  # the same run puts it on PATH
    return shell_word(target.ctx.rtok_bin, target.ctx.home)


def awareness_file(target: Target, action: Action) -> FileEdit:
    frontmatter = str(target.option("frontmatter", ""))
    text = frontmatter + artifacts.awareness_text(
        awareness_level(target), awareness_command(target)
    )
    return _whole_file(
        target,
        action,
        "awareness_file",
        text.encode("utf-8"),
        lambda data: artifacts.is_stock_awareness(data, frontmatter),
        "rtok awareness file",
    )
