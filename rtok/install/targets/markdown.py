"""Awareness in Markdown files the user owns: a marked block, or one `@` reference line.

The block is `<!-- rtok:<agent> -->` … `<!-- /rtok:<agent> -->` (one per agent, so that
removing one agent never takes another's text away). The reference line is `@<path>` to
rtok's own awareness file, relative to the referencing file's folder or absolute (Codex
resolves `@` from its working directory; in a project's file, "absolute" means from the
project root, so a committed AGENTS.md never names a user's home). Both are edited through
rtok.formats.markdown, which gives the user's file back byte for byte on removal.
"""

from __future__ import annotations

import os
from dataclasses import replace

from rtok.formats import markdown
from rtok.install.model import Action, FileEdit
from rtok.install.targets import artifacts
from rtok.install.targets.base import PartTransforms, Target, add_or_remove, part_edit
from rtok.install.targets.whole_files import awareness_command, awareness_file, awareness_level


def block_markers(agent: str) -> tuple[str, str]:
    return f"<!-- rtok:{agent} -->", f"<!-- /rtok:{agent} -->"


def awareness_block(target: Target, action: Action) -> FileEdit:
    begin, end = block_markers(target.agent)
    body = artifacts.awareness_text(awareness_level(target), awareness_command(target))

    def install(data: bytes | None) -> bytes | None:
        return markdown.upsert_block(data, body, begin=begin, end=end, label=target.path)

    def remove(data: bytes) -> bytes:
        return markdown.remove_block(data, begin=begin, end=end, label=target.path)

    def owned(data: bytes | None) -> bytes | None:
        found = markdown.get_block(data, begin=begin, end=end, label=target.path)
        return None if found is None else found.encode("utf-8")

    transforms = PartTransforms.removing(target, install, remove, owned)
    description = f"{add_or_remove(action)} rtok's marked awareness block"
    return part_edit(target, action, transforms, kind="awareness_block", description=description)


def reference_text(target: Target, awareness_path: str) -> str:
    """The `@` line for `awareness_path`. "absolute" is for a user's own file: in a project
    file (usually committed) it names the file relative to the project root instead, which is
    where the host's working directory starts, so that no user's home path is shared."""
    if target.option("form") == "absolute":
        root = _project_root(target)
        if root is None or not _inside(awareness_path, root):
            return "@" + awareness_path
        return "@" + os.path.relpath(awareness_path, root).replace(os.sep, "/")
    relative = os.path.relpath(awareness_path, os.path.dirname(target.path))
    return "@" + relative.replace(os.sep, "/")


def _project_root(target: Target) -> str | None:
    if target.edit_scope != "project" or not target.ctx.project_root:
        return None
    return target.ctx.project_root


def _inside(path: str, root: str) -> bool:
    return os.path.abspath(path).startswith(os.path.abspath(root).rstrip(os.sep) + os.sep)


def _earlier_references(target: Target, awareness_path: str, reference: str) -> list[str]:
    """The lines earlier releases wrote for the same file (a project's absolute `@` path),
    which an uninstall also takes out."""
    if target.option("form") == "absolute" and reference != "@" + awareness_path:
        return ["@" + awareness_path]
    return []


def reference_line(target: Target, action: Action, awareness_path: str) -> FileEdit:
    reference = reference_text(target, awareness_path)
    earlier = _earlier_references(target, awareness_path, reference)

    def install(data: bytes | None) -> bytes | None:
        return markdown.add_reference(data, reference, label=target.path)

    def remove(data: bytes) -> bytes:
        return markdown.remove_reference(data, (reference, *earlier), label=target.path)

    def owned(data: bytes | None) -> bytes | None:
        for line in [reference, *earlier]:
            if markdown.has_reference(data, line, label=target.path):
                return (line + "\n").encode("utf-8")
        return None

    transforms = PartTransforms.removing(target, install, remove, owned)
    description = f"{add_or_remove(action)} the line {reference}"
    return part_edit(target, action, transforms, kind="reference_line", description=description)


def rules_dir_or_file(target: Target, action: Action) -> FileEdit:
    """`.clinerules` may be a folder of rules files or one file: rtok adds its own file to
    the folder (creating the folder when there is neither), or a marked block to the file."""
    if os.path.isfile(target.path):
        return awareness_block(target, action)
    inner = os.path.join(target.path, str(target.option("file_in_dir")))
    return awareness_file(replace(target, path=inner), action)
