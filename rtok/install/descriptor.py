"""Agent descriptors: integrations/<agent>.toml read and validated in one place.

Every key the installer reads is checked here, and an error names the file and the key.
The `[hook]` table belongs to the hook protocol (rtok/hooks/descriptors.py); only its
`permissions` and `no_opinion` values are read here, to describe the agent and to build a
hook command that degrades to "no opinion" on hosts that fail closed.

Schema of the installer's part:

    name = "claude"                 # the name users type
    display_name = "Claude Code"
    tier = "hook"                   # hook | plugin | rules

    [install]
    relocation_env = ["CLAUDE_CONFIG_DIR"]   # env vars that move the agent's files
    awareness_target = "..."                 # one line for humans
    fail_closed = false                      # host denies the call when the hook fails
    hook_condition = "..."                   # what else must hold for the host to run the
                                             #   hook (`rtok doctor` says it; rtok cannot check)

    [install.detect]
    binaries = ["claude"]                    # any on PATH -> detected
    paths = ["${CLAUDE_CONFIG_DIR:-~/.claude}"]   # any existing -> detected

    [[install.global]]  /  [[install.project]]   # one table per file rtok touches
    strategy = "json_hook_group"             # see STRATEGY_KEYS
    path = "..."                             # global: ~ / ${VAR:-default}; project: relative
    user_file = false                        # project scope entry that edits a user file
    when_exists = "~/.trae-cn"               # install only where this exists (uninstall: always)
    dialect = "json"                         # what the host's parser accepts in this file:
                                             # json | json-comments | jsonc | toml | yaml
    host_files = ["__pycache__/__init__.*.pyc"]  # files the host writes beside this one
                                             # (globs relative to its folder), removed with it
    prefer_when = ["hooks"]                  # see below

    [doctor]                                 # what `rtok doctor` checks a hook reply against
    rewrite_input = ["hookSpecificOutput", "updatedInput"]   # where the host reads a
                                             #   rewritten tool input (observed, not derived
                                             #   from [hook], so a reply mistake is caught)
    rewrite_requires = { "hookSpecificOutput.permissionDecision" = "allow" }  # reply
                                             #   values without which the host ignores it
    hook_env = { CLAUDE_PROJECT_DIR = "${cwd}" }   # env the host gives its hooks
    hook_env_default = { CODEX_MANAGED_BY_NPM = "1" }  # the same, unless already set

    [doctor.deny_rule]                       # a rule of this agent's permission source
    path = ".claude/settings.json"           #   that denies `git log`: the file, relative
    json = { permissions = { deny = ["Bash(git log:*)"] } }   #   to a temporary project
    # or text = "..." (written as is); home_env = "HOME" puts the file in a temporary
    # directory named by that env var instead of the project (per-user rules)

Several entries of one scope may name the same `group`: the host reads only one of these
files for that purpose (Droid reads `hooks.json` instead of the hooks in `settings.json`).
List them in the host's order of precedence. Install uses the first one in use (its file
exists, or, with `prefer_when`, holds that key path: where the user's hooks live), else the
first one without `prefer_when`; uninstall covers them all.
"""

from __future__ import annotations

import json
import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from rtok import resources
from rtok.formats.dialects import DIALECTS

TIERS = ("hook", "plugin", "rules")
SCOPES = ("global", "project")
LEVELS = ("default", "high", "full")

# strategy -> (required keys with their types, optional keys with their types)
_T = type
STRATEGY_KEYS: dict[str, tuple[dict[str, tuple[_T, ...]], dict[str, tuple[_T, ...]]]] = {
    "json_hook_group": (
        {"container": (list,), "matcher": (str,)},
        {"timeout": (int, float), "handler": (dict,), "skeleton": (dict,)},
    ),
    "json_hook_flat": (
        {"container": (list,), "command_key": (str,), "entry": (dict,)},
        {"skeleton": (dict,)},
    ),
    "json_named_hooks": (
        {"key": (str,), "event": (str,), "matcher": (str,)},
        {"timeout": (int, float)},
    ),
    "toml_hook_table": ({"array": (str,), "fields": (dict,)}, {}),
    "toml_hook_group": ({"container": (list,), "matcher": (str,)}, {"timeout": (int, float)}),
    "yaml_list_item": ({"keys": (list,), "item": (str,)}, {}),
    "template_file": ({"template": (str,)}, {"mode": (int,)}),
    "awareness_file": ({}, {"frontmatter": (str,), "level": (str,)}),
    "awareness_block": ({}, {"level": (str,)}),
    "reference_line": ({"target": (str,), "form": (str,)}, {}),
    "codex_trust": ({"hooks_file": (str,)}, {}),
    "rules_dir_or_file": ({"file_in_dir": (str,)}, {"level": (str,)}),
}
_COMMON_KEYS = {
    "strategy", "path", "user_file", "description", "when_exists", "dialect", "host_files",
    "group", "prefer_when",
}
# The dialect a strategy's files are read in when the descriptor does not say.
DEFAULT_DIALECT = {
    "json_hook_group": "jsonc", "json_hook_flat": "jsonc", "json_named_hooks": "jsonc",
    "toml_hook_table": "toml", "toml_hook_group": "toml", "codex_trust": "toml",
    "yaml_list_item": "yaml",
}
# Strategies whose files exist only to tell the agent about rtok (skipped by --hook-only).
AWARENESS_STRATEGIES = frozenset(
    {"awareness_file", "awareness_block", "reference_line", "rules_dir_or_file"}
)


class DescriptorError(ValueError):
    """A descriptor that does not follow the schema; the message names file and key."""


@dataclass(frozen=True)
class FileSpec:
    """One file an agent's integration touches in one scope, and how."""

    strategy: str
    path: str  # path template (global) or project-relative path
    options: Mapping[str, Any]
    user_file: bool = False  # a project install that edits a file in the user's home
    description: str = ""
    when_exists: str = ""  # install only when this path exists (a second product variant)
    dialect: str = ""  # what the host's parser accepts ("" for files rtok owns whole)
    host_files: tuple[str, ...] = ()  # globs of files the host writes beside this one
    group: str = ""  # entries of one group: the host reads only one of their files
    prefer_when: tuple[str, ...] = ()  # install here when this key path exists in the file

    @property
    def is_awareness(self) -> bool:
        return self.strategy in AWARENESS_STRATEGIES


@dataclass(frozen=True)
class Detection:
    binaries: tuple[str, ...] = ()
    paths: tuple[str, ...] = ()


@dataclass(frozen=True)
class DenyRule:
    """A file holding one rule of the agent's permission source that denies `git log`."""

    path: str
    content: str  # written as is (JSON already serialised)
    home_env: str = ""  # the file lives in a temporary dir named by this env var


@dataclass(frozen=True)
class DoctorFacts:
    """What the host itself does with a hook's reply, for `rtok doctor`."""

    rewrite_input: tuple[str, ...] = ()  # empty: the host's rewrite location is not known
    rewrite_requires: Mapping[str, str] = field(default_factory=dict)
    hook_env: Mapping[str, str] = field(default_factory=dict)
    hook_env_default: Mapping[str, str] = field(default_factory=dict)
    deny_rule: DenyRule | None = None


@dataclass(frozen=True)
class Descriptor:
    name: str
    display_name: str
    tier: str
    relocation_env: tuple[str, ...]
    detection: Detection
    awareness_target: str
    permission_source: str  # from the [hook] table; "none" without one
    no_opinion: str  # the hook's exact "no opinion" stdout ("" = print nothing)
    fail_closed: bool  # the host denies the tool call when the hook command fails
    files: Mapping[str, tuple[FileSpec, ...]] = field(default_factory=dict)
    source: str = ""  # the descriptor file, for messages
    hook_condition: str = ""  # a host setting outside rtok's reach the hook also needs
    doctor: DoctorFacts = field(default_factory=DoctorFacts)

    @property
    def scopes(self) -> tuple[str, ...]:
        return tuple(scope for scope in SCOPES if self.files.get(scope))

    @property
    def has_hook(self) -> bool:
        """Registers `rtok hook <name>` with the agent (hook tier)."""
        return self.tier == "hook"

    @property
    def hook_protocol(self) -> str | None:
        """The agent whose `[hook]` table `rtok hook` answers with, or None (plugins call
        `rtok rewrite`; rules-tier agents are only told about rtok)."""
        return self.name if self.has_hook else None


def load_all() -> dict[str, Descriptor]:
    """Every descriptor under integrations/, by agent name."""
    found: dict[str, Descriptor] = {}
    for relative in resources.list_files("integrations", ".toml"):
        path = resources.data_path("integrations", relative)
        descriptor = load_file(path)
        if descriptor.name in found:
            other = found[descriptor.name].source
            raise DescriptorError(f"{path}: name {descriptor.name!r} is already used by {other}")
        found[descriptor.name] = descriptor
    return found


def load_file(path: str) -> Descriptor:
    try:
        with open(path, "rb") as handle:
            data = tomllib.load(handle)
    except tomllib.TOMLDecodeError as exc:
        raise DescriptorError(f"{path}: not valid TOML: {exc}") from exc
    except OSError as exc:
        raise DescriptorError(f"{path}: cannot be read: {exc.strerror}") from exc
    return parse(data, path)


def parse(data: Mapping[str, Any], where: str) -> Descriptor:
    name = _string(data, "name", where)
    stem = os.path.splitext(os.path.basename(where))[0]
    if where.endswith(".toml") and name != stem:
        raise DescriptorError(f"{where}: name {name!r} must match the file name {stem!r}")
    display_name = _string(data, "display_name", where)
    tier = _string(data, "tier", where)
    if tier not in TIERS:
        raise DescriptorError(f"{where}: tier must be one of {', '.join(TIERS)}, not {tier!r}")
    hook = data.get("hook", {})
    if not isinstance(hook, dict):
        raise DescriptorError(f"{where}: [hook] must be a table")
    permission_source = str(hook.get("permissions", "none"))
    no_opinion = hook.get("no_opinion", "")
    if not isinstance(no_opinion, str):
        raise DescriptorError(f"{where}: hook.no_opinion must be a string")
    install = data.get("install")
    if not isinstance(install, dict):
        raise DescriptorError(f"{where}: missing the [install] table")
    allowed = {"relocation_env", "awareness_target", "fail_closed", "hook_condition", "detect",
               "global", "project"}
    _only(install, allowed, f"{where}: install")
    relocation = install.get("relocation_env", [])
    if not isinstance(relocation, list) or not all(isinstance(v, str) for v in relocation):
        raise DescriptorError(f"{where}: install.relocation_env must be a list of strings")
    awareness_target = install.get("awareness_target", "")
    if not isinstance(awareness_target, str):
        raise DescriptorError(f"{where}: install.awareness_target must be a string")
    fail_closed = install.get("fail_closed", False)
    if not isinstance(fail_closed, bool):
        raise DescriptorError(f"{where}: install.fail_closed must be true or false")
    hook_condition = install.get("hook_condition", "")
    if not isinstance(hook_condition, str):
        raise DescriptorError(f"{where}: install.hook_condition must be a string")
    detection = _detection(install.get("detect", {}), where)
    files: dict[str, tuple[FileSpec, ...]] = {}
    for scope in SCOPES:
        entries = install.get(scope, [])
        if not isinstance(entries, list):
            raise DescriptorError(f"{where}: install.{scope} must be an array of tables")
        specs = tuple(
            _file_spec(entry, scope, f"{where}: install.{scope}[{index}]")
            for index, entry in enumerate(entries)
        )
        if specs:
            files[scope] = specs
    if not files:
        raise DescriptorError(f"{where}: install has neither global nor project files")
    _check_cross_references(files, where)
    return Descriptor(
        name=name,
        display_name=display_name,
        tier=tier,
        relocation_env=tuple(relocation),
        detection=detection,
        awareness_target=awareness_target,
        permission_source=permission_source,
        no_opinion=no_opinion,
        fail_closed=fail_closed,
        files=files,
        source=where,
        hook_condition=hook_condition,
        doctor=_doctor_facts(data.get("doctor", {}), f"{where}: doctor"),
    )


def _doctor_facts(table: object, where: str) -> DoctorFacts:
    if not isinstance(table, dict):
        raise DescriptorError(f"{where} must be a table")
    _only(table, {"rewrite_input", "rewrite_requires", "hook_env", "hook_env_default",
                  "deny_rule"}, where)
    deny = table.get("deny_rule")
    return DoctorFacts(
        rewrite_input=_strings(table, "rewrite_input", where),
        rewrite_requires=_string_map(table, "rewrite_requires", where),
        hook_env=_string_map(table, "hook_env", where),
        hook_env_default=_string_map(table, "hook_env_default", where),
        deny_rule=None if deny is None else _deny_rule(deny, f"{where}.deny_rule"),
    )


def _deny_rule(table: object, where: str) -> DenyRule:
    if not isinstance(table, dict):
        raise DescriptorError(f"{where} must be a table")
    _only(table, {"path", "json", "text", "home_env"}, where)
    path = _string(table, "path", where)
    if os.path.isabs(path) or ".." in path.split("/"):
        raise DescriptorError(f"{where}: path must be relative, without '..'")
    if ("json" in table) == ("text" in table):
        raise DescriptorError(f"{where}: needs exactly one of json and text")
    if "json" in table:
        if not isinstance(table["json"], dict):
            raise DescriptorError(f"{where}: json must be a table")
        content = json.dumps(table["json"])
    else:
        content = _string(table, "text", where)
    home_env = table.get("home_env", "")
    if not isinstance(home_env, str):
        raise DescriptorError(f"{where}: home_env must be a string")
    return DenyRule(path=path, content=content, home_env=home_env)


def _string_map(table: Mapping[str, Any], key: str, where: str) -> dict[str, str]:
    raw = table.get(key, {})
    if not isinstance(raw, dict) or not all(isinstance(v, str) for v in raw.values()):
        raise DescriptorError(f"{where}: {key} must be a table of strings")
    return dict(raw)


def _detection(table: object, where: str) -> Detection:
    if not isinstance(table, dict):
        raise DescriptorError(f"{where}: install.detect must be a table")
    _only(table, {"binaries", "paths"}, f"{where}: install.detect")
    values: dict[str, tuple[str, ...]] = {}
    for key in ("binaries", "paths"):
        raw = table.get(key, [])
        if not isinstance(raw, list) or not all(isinstance(v, str) and v for v in raw):
            raise DescriptorError(f"{where}: install.detect.{key} must be a list of strings")
        values[key] = tuple(raw)
    return Detection(binaries=values["binaries"], paths=values["paths"])


def _file_spec(entry: object, scope: str, where: str) -> FileSpec:
    if not isinstance(entry, dict):
        raise DescriptorError(f"{where}: must be a table")
    strategy = _string(entry, "strategy", where)
    if strategy not in STRATEGY_KEYS:
        raise DescriptorError(
            f"{where}: unknown strategy {strategy!r} (known: {', '.join(sorted(STRATEGY_KEYS))})"
        )
    path = _string(entry, "path", where)
    _check_strategy_keys(entry, strategy, where)
    user_file = entry.get("user_file", False)
    if not isinstance(user_file, bool):
        raise DescriptorError(f"{where}: user_file must be true or false")
    _check_path(path, scope, user_file, where)
    _check_strategy_values(entry, strategy, where)
    description = _optional_string(entry, "description", where)
    when_exists = _optional_string(entry, "when_exists", where)
    dialect = entry.get("dialect", DEFAULT_DIALECT.get(strategy, ""))
    if dialect and dialect not in DIALECTS:
        raise DescriptorError(f"{where}: dialect must be one of {', '.join(DIALECTS)}")
    host_files = _strings(entry, "host_files", where)
    if any(os.path.isabs(g) or ".." in g.split("/") for g in host_files):
        raise DescriptorError(f"{where}: host_files are globs relative to the file's folder")
    group = _optional_string(entry, "group", where)
    prefer_when = _strings(entry, "prefer_when", where)
    if prefer_when and not group:
        raise DescriptorError(f"{where}: prefer_when needs a group")
    options = {k: v for k, v in entry.items() if k not in _COMMON_KEYS}
    return FileSpec(strategy, path, options, user_file, description, when_exists, dialect,
                    host_files, group, prefer_when)


def _check_strategy_keys(entry: Mapping[str, Any], strategy: str, where: str) -> None:
    """Only the keys the strategy knows, its required ones present, each of its type."""
    required, optional = STRATEGY_KEYS[strategy]
    _only(entry, _COMMON_KEYS | set(required) | set(optional), where)
    for key in required:
        if key not in entry:
            raise DescriptorError(f"{where}: strategy {strategy!r} needs the key {key!r}")
    for key, types in {**required, **optional}.items():
        if key in entry and (
            not isinstance(entry[key], types)
            or (isinstance(entry[key], bool) and bool not in types)
        ):
            names = " or ".join(t.__name__ for t in types)
            raise DescriptorError(f"{where}: {key} must be of type {names}")


def _check_path(path: str, scope: str, user_file: bool, where: str) -> None:
    is_relative = not (path.startswith(("~", "${", "/")))
    if scope == "project" and not user_file and not is_relative:
        raise DescriptorError(f"{where}: path of a project file must be relative to the project")
    if (scope == "global" or user_file) and is_relative:
        raise DescriptorError(f"{where}: path must start with ~, / or ${{VAR:-default}}")
    if ".." in path.replace("\\", "/").split("/"):
        raise DescriptorError(f"{where}: path must not contain '..'")


def _check_strategy_values(entry: Mapping[str, Any], strategy: str, where: str) -> None:
    level = entry.get("level")
    if level is not None and level not in LEVELS:
        raise DescriptorError(f"{where}: level must be one of {', '.join(LEVELS)}")
    if strategy == "reference_line" and entry["form"] not in ("relative", "absolute"):
        raise DescriptorError(f"{where}: form must be 'relative' or 'absolute'")
    for key in ("container", "keys"):
        if key in entry and not (
            all(isinstance(part, str) and part for part in entry[key])
            and (entry[key] or key == "container")
        ):
            raise DescriptorError(f"{where}: {key} must be a list of non-empty strings")
    if strategy == "template_file" and not os.path.isfile(
        resources.data_path("templates", entry["template"])
    ):
        raise DescriptorError(f"{where}: template {entry['template']!r} is not in templates/")


def _optional_string(entry: Mapping[str, Any], key: str, where: str) -> str:
    value = entry.get(key, "")
    if not isinstance(value, str):
        raise DescriptorError(f"{where}: {key} must be a string")
    return value


def _strings(entry: Mapping[str, Any], key: str, where: str) -> tuple[str, ...]:
    raw = entry.get(key, [])
    if not isinstance(raw, list) or not all(isinstance(v, str) and v for v in raw):
        raise DescriptorError(f"{where}: {key} must be a list of non-empty strings")
    return tuple(raw)


def _check_cross_references(files: Mapping[str, tuple[FileSpec, ...]], where: str) -> None:
    for scope, specs in files.items():
        paths = {spec.path for spec in specs}
        for spec in specs:
            if spec.strategy == "codex_trust" and spec.options["hooks_file"] not in paths:
                raise DescriptorError(
                    f"{where}: install.{scope}: codex_trust names hooks_file "
                    f"{spec.options['hooks_file']!r}, which no entry of this scope installs"
                )
            if spec.strategy == "reference_line" and spec.options["target"] not in paths:
                raise DescriptorError(
                    f"{where}: install.{scope}: reference_line target "
                    f"{spec.options['target']!r} is not an awareness file of this scope"
                )


def _string(table: Mapping[str, Any], key: str, where: str) -> str:
    value = table.get(key)
    if not isinstance(value, str) or not value:
        raise DescriptorError(f"{where}: {key} must be a non-empty string")
    return value


def _only(table: Mapping[str, Any], allowed: set[str], where: str) -> None:
    unknown = sorted(set(table) - allowed)
    if unknown:
        raise DescriptorError(f"{where}: unknown key {unknown[0]!r}")
