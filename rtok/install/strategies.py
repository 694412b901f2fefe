"""The install strategies: one `Strategy` record per kind of descriptor file entry.

A descriptor's `[[install.<scope>]]` entry names its strategy; everything rtok knows about
that strategy is its record here (in the way pre-commit keeps one `Language` record per
language): the keys the entry may give and their types, the value checks beyond types,
the dialect its file is read in when the entry does not say, whether it only tells the
agent about rtok, which other entries may point at it, and the builder of its edits. The
validator (descriptor.py) and the integrations (integrations.py) look every fact up here;
a new strategy is one record and its builder in targets/.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from rtok import resources, schema
from rtok.install.model import Action, FileEdit
from rtok.install.specs import FileSpec
from rtok.install.targets import json_hooks, markdown, toml_hooks, whole_files, yaml_items
from rtok.install.targets.base import Target
from rtok.schema import DescriptorError

__all__ = ["STRATEGIES", "ScopeFiles", "Strategy"]

KeyTypes = Mapping[str, tuple[type, ...]]

# file format -> the dialect of the host's parser an entry editing it gets by default
DEFAULT_DIALECTS = {"json": "jsonc", "toml": "toml", "yaml": "yaml"}


@dataclass(frozen=True)
class ScopeFiles:
    """Every entry of the scope being planned, for a strategy whose edit depends on another
    entry (a reference line on its awareness file, a trust entry on its hooks file)."""

    specs: tuple[FileSpec, ...]
    targets: list[Target]  # by position: two entries may name one file
    skipped: frozenset[int]  # positions an install leaves out (the unchosen of a group)


# (the target, the action, the scope's entries) -> the target's edits
Builder = Callable[[Target, Action, ScopeFiles], list[FileEdit]]
# (a descriptor entry, where it is for messages) -> None, or DescriptorError
ValueCheck = Callable[[Mapping[str, object], str], None]


def _no_check(entry: Mapping[str, object], where: str) -> None:
    return None


@dataclass(frozen=True)
class Strategy:
    """Everything rtok knows about one install strategy."""

    name: str
    required: KeyTypes  # keys the entry must give, with their types
    optional: KeyTypes  # keys it may give, with their types
    build: Builder
    check: ValueCheck = _no_check  # value checks beyond the types
    file_format: str = ""  # json | toml | yaml | md: the format rtok edits in the file;
    # "" for a file rtok owns whole
    awareness: bool = False  # only tells the agent about rtok (skipped by --hook-only)
    awareness_file: bool = False  # a whole awareness file a `reference_line` may point at
    hook_file: bool = False  # a hooks file a `codex_trust` entry may trust
    shared: bool = False  # agents may share the one file: uninstall keeps it while in use
    # The option naming another entry of the scope by its path, and the error when none
    # has that path ({scope} and {value} filled in).
    refers: tuple[str, str] = ("", "")
    keys: frozenset[str] = field(init=False)
    # The host's dialect when the entry gives none: its format's (`DEFAULT_DIALECTS`), ""
    # for a Markdown file and for one rtok owns whole.
    dialect: str = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "keys", frozenset(self.required) | frozenset(self.optional))
        object.__setattr__(self, "dialect", DEFAULT_DIALECTS.get(self.file_format, ""))


def _single(build: Callable[[Target, Action], FileEdit]) -> Builder:
    def builder(target: Target, action: Action, scope: ScopeFiles) -> list[FileEdit]:
        return [build(target, action)]

    return builder


def _named(scope: ScopeFiles, path: str, wanted: Callable[[Strategy], bool]) -> Target:
    """The target of the entry with this descriptor path whose strategy is `wanted`, else
    the first entry with that path."""
    pairs = list(zip(scope.specs, scope.targets, strict=True))
    for spec, target in pairs:
        if spec.path == path and wanted(STRATEGIES[spec.strategy]):
            return target
    return next(t for s, t in pairs if s.path == path)


def _reference_line(target: Target, action: Action, scope: ScopeFiles) -> list[FileEdit]:
    awareness = _named(scope, str(target.option("target")), lambda s: s.awareness_file)
    return [markdown.reference_line(target, action, awareness.path)]


def _trusted_hook_targets(target: Target, scope: ScopeFiles) -> list[Target]:
    """The hook files a trust entry is for: the named one, or the member of its group the
    install chose instead; every member for an uninstall."""
    named = _named(scope, str(target.option("hooks_file")), lambda s: s.hook_file)
    group = named.spec.group
    return [
        t
        for i, t in enumerate(scope.targets)
        if i not in scope.skipped
        and (
            t is named
            if not group
            else (t.spec.group == group and STRATEGIES[t.spec.strategy].hook_file)
        )
    ]


def _codex_trust(target: Target, action: Action, scope: ScopeFiles) -> list[FileEdit]:
    edits: list[FileEdit] = []
    for hooks_target in _trusted_hook_targets(target, scope):
        hooks_strategy = STRATEGIES[hooks_target.spec.strategy]
        hooks_edit = hooks_strategy.build(hooks_target, "install", scope)[0]
        edits.append(
            toml_hooks.codex_trust(
                target,
                action,
                hooks_target.path,
                hooks_target.spec.option_strings("container"),
                hooks_edit.transform,
                json_hooks.desired_group(hooks_target),
            )
        )
    return edits


def _check_form(entry: Mapping[str, object], where: str) -> None:
    schema.choice(entry, "form", ("relative", "absolute"), where)


def _check_template(entry: Mapping[str, object], where: str) -> None:
    if not os.path.isfile(resources.data_path("templates", str(entry["template"]))):
        raise DescriptorError(f"{where}: template {entry['template']!r} is not in templates/")


_NUMBER = (int, float)

STRATEGIES: dict[str, Strategy] = {
    s.name: s
    for s in (
        Strategy(
            "json_hook_group",
            {"container": (list,), "matcher": (str,)},
            {"timeout": _NUMBER, "handler": (dict,), "skeleton": (dict,)},
            _single(json_hooks.json_hook_group),
            file_format="json",
            hook_file=True,
        ),
        Strategy(
            "json_hook_flat",
            {"container": (list,), "command_key": (str,), "entry": (dict,)},
            {"skeleton": (dict,)},
            _single(json_hooks.json_hook_flat),
            file_format="json",
        ),
        Strategy(
            "json_named_hooks",
            {"key": (str,), "event": (str,), "matcher": (str,)},
            {"timeout": _NUMBER},
            _single(json_hooks.json_named_hooks),
            file_format="json",
        ),
        Strategy(
            "toml_hook_table",
            {"array": (str,), "fields": (dict,)},
            {},
            _single(toml_hooks.toml_hook_table),
            file_format="toml",
        ),
        Strategy(
            "toml_hook_group",
            {"container": (list,), "matcher": (str,)},
            {"timeout": _NUMBER},
            _single(toml_hooks.toml_hook_group),
            file_format="toml",
            hook_file=True,
        ),
        Strategy(
            "yaml_list_item",
            {"keys": (list,), "item": (str,)},
            {},
            _single(yaml_items.yaml_list_item),
            file_format="yaml",
        ),
        Strategy(
            "template_file",
            {"template": (str,)},
            {"mode": (int,)},
            _single(whole_files.template_file),
            check=_check_template,
            shared=True,
        ),
        Strategy(
            "awareness_file",
            {},
            {"frontmatter": (str,), "level": (str,)},
            _single(whole_files.awareness_file),
            awareness=True,
            awareness_file=True,
        ),
        Strategy(
            "awareness_block",
            {},
            {"level": (str,)},
            _single(markdown.awareness_block),
            file_format="md",
            awareness=True,
        ),
        Strategy(
            "reference_line",
            {"target": (str,), "form": (str,)},
            {},
            _reference_line,
            check=_check_form,
            file_format="md",
            awareness=True,
            refers=(
                "target",
                "install.{scope}: reference_line target {value!r} is not an awareness "
                "file of this scope",
            ),
        ),
        Strategy(
            "codex_trust",
            {"hooks_file": (str,)},
            {},
            _codex_trust,
            file_format="toml",
            refers=(
                "hooks_file",
                "install.{scope}: codex_trust names hooks_file {value!r}, which no entry "
                "of this scope installs",
            ),
        ),
        Strategy(
            "rules_dir_or_file",
            {"file_in_dir": (str,)},
            {"level": (str,)},
            _single(markdown.rules_dir_or_file),
            file_format="md",
            awareness=True,
            awareness_file=True,
        ),
    )
}
