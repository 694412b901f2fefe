"""Awareness in Markdown files the user owns: a marked block, or one `@` reference line.

The block is `<!-- rtok:<agent> -->` … `<!-- /rtok:<agent> -->` (one per agent, so that
removing one agent never takes another's text away). The reference line is `@<path>` to
rtok's own awareness file, relative to the referencing file's folder or absolute (Codex
resolves `@` from its working directory). Both are edited through rtok.formats.markdown,
which gives the user's file back byte for byte on removal.
"""

from __future__ import annotations

import os
from dataclasses import replace

from rtok.formats import markdown
from rtok.install.model import Action, FileEdit
from rtok.install.targets import artifacts
from rtok.install.targets.base import Target, part_edit, removing
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

    verb = "add" if action == "install" else "remove"
    return part_edit(target, action, kind="awareness_block", install=install,
                     uninstall=removing(remove, target), owned=owned,
                     description=f"{verb} rtok's marked awareness block")


def reference_text(target: Target, awareness_path: str) -> str:
    if target.option("form") == "absolute":
        return "@" + awareness_path
    relative = os.path.relpath(awareness_path, os.path.dirname(target.path))
    return "@" + relative.replace(os.sep, "/")


def reference_line(target: Target, action: Action, awareness_path: str) -> FileEdit:
    reference = reference_text(target, awareness_path)

    def install(data: bytes | None) -> bytes | None:
        return markdown.add_reference(data, reference, label=target.path)

    def remove(data: bytes) -> bytes:
        return markdown.remove_reference(data, reference, label=target.path)

    def owned(data: bytes | None) -> bytes | None:
        if markdown.has_reference(data, reference, label=target.path):
            return (reference + "\n").encode("utf-8")
        return None

    verb = "add" if action == "install" else "remove"
    return part_edit(target, action, kind="reference_line", install=install,
                     uninstall=removing(remove, target), owned=owned,
                     description=f"{verb} the line {reference}")


def rules_dir_or_file(target: Target, action: Action) -> FileEdit:
    """`.clinerules` may be a folder of rules files or one file: rtok adds its own file to
    the folder (creating the folder when there is neither), or a marked block to the file."""
    if os.path.isfile(target.path):
        return awareness_block(target, action)
    inner = os.path.join(target.path, str(target.option("file_in_dir")))
    return awareness_file(replace(target, path=inner), action)
