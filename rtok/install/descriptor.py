"""Agent descriptors: integrations/<agent>.toml read and validated in one place.

Every key the installer reads is checked here, and an error names the file and the key.
This is the one validator of a descriptor file: the `[hook]` table is checked by its own
schema (rtok/hooks/descriptors.py, called from here), and the compiled tables it gives are
what `scripts/compile_data.py` writes to rtok/compiled/hook_protocols.py (`hook_protocols()`).
A hook-tier agent must have a `[hook]` table; no other agent may. Errors are
`rtok.schema.DescriptorError`.

Schema of the installer's part:

    name = "claude"                 # the name users type
    display_name = "Claude Code"
    tier = "hook"                   # hook | plugin | rules

    [proof]                         # how the integration is shown to work (required)
    kind = "e2e"                    # e2e: the real CLI in the e2e tier (tests/e2e), its
                                    #   version the tier's pin (scripts/e2e/pins.py,
                                    #   compiled into rtok/compiled/e2e_pins.py);
                                    # contract: built from the host's docs, tested against
                                    #   payloads recorded from them only
    docs = ["https://..."]          # the docs it was built from (required for contract)
    note = "..."                    # optional: why not e2e (what stops the real CLI here)

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
    strategy = "json_hook_group"             # see rtok/install/strategies.py
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

    [rewrite]                                # how `rtok rewrite` answers this agent when it
                                             #   calls it (RTOK_REWRITE_HOST or --agent)
    approval = "host"                        # "host": the agent's own approval flow decides
                                             #   a command no rule covers (exit 0 for it);
                                             #   "rules" (default): rtok asks (exit 3)
    permissions = "claude"                   # whose rules `rtok rewrite` reads for it
                                             #   (default: those of the `default_rules` agent)
    default_rules = true                     # `rtok rewrite` reads this agent's rules (its
                                             #   [hook] permissions) for a caller that names
                                             #   no agent or whose table names none; exactly
                                             #   one descriptor says so
    host_rules = "opencode"                  # also the agent's own `permission.bash` rules
                                             #   (rtok.permissions.opencode): opencode | kilo
    names = ["kilo"]                         # other names the agent calls itself by there

    [limits]                                 # what the host itself does with a shell
                                             #   result, for honest savings (`rtok gain`)
    tool_result_chars = 30000                # the host cuts a shell tool result to this
                                             #   many characters (absent: not known, counted
                                             #   as uncapped)
    cap_env = "BASH_MAX_OUTPUT_LENGTH"       # env var the user sets to change that cap
    over_cap_chars = 2000                    # a result over the cap is not cut: the host
                                             #   saves it to a file and keeps a preview of
                                             #   this many characters (absent: it cuts)
    agent_env = ["CLAUDECODE"]               # env vars the host sets in its shell commands
                                             #   (`rtok run` knows its agent by them)
    session_env = ["CLAUDE_CODE_SESSION_ID"] # env vars holding the host's session id there
    source = "..."                           # where these facts come from (required)

    [transcripts]                            # where the agent keeps its session logs, for
    glob = "${CLAUDE_CONFIG_DIR:-~/.claude}/projects/*/*.jsonl"   # `rtok discover`
    format = "claude-jsonl"                  # the reader (rtok/store/transcripts.py):
                                             #   claude-jsonl | codex-jsonl |
                                             #   gemini-jsonl

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
from collections.abc import Collection, Mapping
from dataclasses import replace

from rtok import resources, schema
from rtok.formats.dialects import DIALECTS
from rtok.hooks.descriptors import validate_hook_sample, validate_hook_table
from rtok.hooks.types import HookProtocol
from rtok.install.model import AWARENESS_LEVELS, SCOPES
from rtok.install.specs import (
    Borrower,
    DenyRule,
    Descriptor,
    Detection,
    DoctorFacts,
    FileSpec,
    HostLimits,
    Proof,
    RewriteFacts,
)
from rtok.install.strategies import STRATEGIES
from rtok.permissions.opencode import RULE_SETS as HOST_RULE_SETS
from rtok.permissions.verdict import SOURCES as PERMISSION_SOURCES
from rtok.schema import DescriptorError, at, only

TIERS = ("hook", "plugin", "rules")
LEVELS = AWARENESS_LEVELS
APPROVALS = ("rules", "host")
PROOFS = ("e2e", "contract")

_COMMON_KEYS = {
    "strategy",
    "path",
    "user_file",
    "description",
    "when_exists",
    "dialect",
    "host_files",
    "group",
    "prefer_when",
    "rejects_bom",
    "siblings",
}

# The validator's names; the records it reads descriptors into are specs.py's.
__all__ = [
    "DescriptorError",
    "check_proofs",
    "hook_protocols",
    "host_limits",
    "load_all",
    "load_file",
    "parse",
    "rewrite_default_permissions",
    "rewrite_hosts",
]


def load_all() -> dict[str, Descriptor]:
    """Every descriptor under integrations/, by agent name."""
    found: dict[str, Descriptor] = {}
    names: dict[str, str] = {}  # every name and rewrite alias -> the file that uses it
    for relative in resources.list_files("integrations", ".toml"):
        path = resources.data_path("integrations", relative)
        descriptor = load_file(path)
        for name in (descriptor.name, *descriptor.rewrite.names):
            if name in names:
                raise DescriptorError(f"{path}: name {name!r} is already used by {names[name]}")
            names[name] = path
        found[descriptor.name] = descriptor
    return found


def hook_protocols() -> dict[str, HookProtocol]:
    """agent name -> compiled `[hook]` table, for every hook-tier agent (what
    rtok/compiled/hook_protocols.py holds)."""
    return {name: item.hook for name, item in load_all().items() if item.hook is not None}


def check_proofs(descriptors: Mapping[str, Descriptor], e2e_agents: Collection[str]) -> None:
    """Every descriptor claiming `e2e` names an agent the e2e tier runs with its real CLI,
    and every agent the tier runs says `e2e` (its proof is not left at `contract`)."""
    for name, item in sorted(descriptors.items()):
        if item.proof.kind == "e2e" and name not in e2e_agents:
            raise DescriptorError(
                f"{item.source}: proof.kind is 'e2e', but the e2e tier "
                f"(scripts/e2e/pins.py) does not run {name!r}"
            )
        if item.proof.kind != "e2e" and name in e2e_agents:
            raise DescriptorError(
                f"{item.source}: the e2e tier runs {name!r} with its real "
                "CLI: proof.kind should be 'e2e'"
            )


def rewrite_default_permissions(descriptors: Mapping[str, Descriptor]) -> str:
    """The permission source `rtok rewrite` reads for a caller that names no agent: that
    of the one descriptor with `[rewrite] default_rules = true`."""
    marked = sorted(name for name, item in descriptors.items() if item.rewrite.default_rules)
    if len(marked) != 1:
        raise DescriptorError(
            f"integrations/: exactly one descriptor needs [rewrite] "
            f"default_rules = true, not {len(marked)} ({', '.join(marked)})"
        )
    return descriptors[marked[0]].permission_source


def rewrite_hosts() -> tuple[str, dict[str, RewriteFacts]]:
    """(the default permission source of `rtok rewrite`, each name an agent may give it ->
    how it answers that agent, with the permission source filled in) for every agent whose
    descriptor has a `[rewrite]` table."""
    descriptors = load_all()
    default = rewrite_default_permissions(descriptors)
    hosts: dict[str, RewriteFacts] = {}
    for name, item in descriptors.items():
        if item.rewrite != RewriteFacts():
            facts = replace(item.rewrite, permissions=item.rewrite.permissions or default)
            hosts.update(dict.fromkeys((name, *item.rewrite.names), facts))
    return default, hosts


def load_file(path: str) -> Descriptor:
    try:
        with open(path, "rb") as handle:
            data = tomllib.load(handle)
    except tomllib.TOMLDecodeError as exc:
        raise DescriptorError(f"{path}: not valid TOML: {exc}") from exc
    except OSError as exc:
        raise DescriptorError(f"{path}: cannot be read: {exc.strerror}") from exc
    return parse(data, path)


_TOP_KEYS = (
    "name",
    "display_name",
    "tier",
    "proof",
    "install",
    "hook",
    "doctor",
    "rewrite",
    "limits",
    "transcripts",
)
TRANSCRIPT_FORMATS = ("claude-jsonl", "codex-jsonl", "gemini-jsonl")
_INSTALL_KEYS = (
    "relocation_env",
    "awareness_target",
    "fail_closed",
    "hook_condition",
    "detect",
    "global",
    "project",
)


def parse(data: Mapping[str, object], where: str) -> Descriptor:
    top = f"{where}:"
    only(data, _TOP_KEYS, top)
    name = schema.string(data, "name", top)
    stem = os.path.splitext(os.path.basename(where))[0]
    if where.endswith(".toml") and name != stem:
        raise DescriptorError(f"{where}: name {name!r} must match the file name {stem!r}")
    tier = schema.choice(data, "tier", TIERS, top)
    hook = _hook(data, tier, where)
    sample = None
    if hook is not None:
        raw_hook = schema.table(data["hook"], f"{where}: hook")
        sample = validate_hook_sample(raw_hook.get("sample"), hook, where)
    if "install" not in data:
        raise DescriptorError(f"{where}: missing the [install] table")
    table = f"{where}: install"
    install = schema.table(data["install"], table)
    only(install, _INSTALL_KEYS, table)
    files = _files(install, where)
    return Descriptor(
        name=name,
        display_name=schema.string(data, "display_name", top),
        tier=tier,
        relocation_env=tuple(schema.strings(install, "relocation_env", table)),
        detection=_detection(install.get("detect", {}), f"{table}.detect"),
        awareness_target=schema.string(install, "awareness_target", table, required=False),
        permission_source=hook["permissions"] if hook else "none",
        no_opinion=hook["no_opinion"] if hook else "",
        fail_closed=schema.boolean(install, "fail_closed", table),
        files=files,
        source=where,
        hook_condition=schema.string(install, "hook_condition", table, required=False),
        doctor=_doctor_facts(data.get("doctor", {}), f"{where}: doctor"),
        hook=hook,
        hook_sample=sample,
        rewrite=_rewrite(data.get("rewrite", {}), f"{where}: rewrite", hook),
        proof=_proof(data.get("proof"), f"{where}: proof"),
        limits=_limits(data.get("limits", {}), f"{where}: limits"),
        transcripts=_transcripts(data.get("transcripts"), f"{where}: transcripts"),
    )


def _proof(value: object, where: str) -> Proof:
    """The `[proof]` table: required, so that no integration is offered without saying
    whether the real CLI or only the host's documentation backs it."""
    if value is None:
        raise DescriptorError(
            f"{where.rstrip(':')}: missing the [proof] table "
            f"(kind = {' | '.join(repr(k) for k in PROOFS)})"
        )
    table = schema.table(value, where)
    only(table, ("kind", "docs", "note"), where)
    kind = schema.choice(table, "kind", PROOFS, where)
    docs = tuple(schema.strings(table, "docs", where, required=kind == "contract"))
    return Proof(kind=kind, docs=docs, note=schema.string(table, "note", where, required=False))


def _transcripts(value: object, where: str) -> tuple[str, str] | None:
    if value is None:
        return None
    table = schema.table(value, where)
    only(table, ("glob", "format"), where)
    pattern = schema.string(table, "glob", where)
    if not pattern.startswith(("~", "${", "/")):
        raise DescriptorError(f"{at(where, 'glob')} must start with ~, / or ${{VAR:-default}}")
    return pattern, schema.choice(table, "format", TRANSCRIPT_FORMATS, where)


def _positive(table: Mapping[str, object], key: str, where: str) -> int | None:
    number = table.get(key)
    if number is None:
        return None
    if isinstance(number, bool) or not isinstance(number, int) or number <= 0:
        raise DescriptorError(f"{at(where, key)} must be a positive integer")
    return number


def _limits(value: object, where: str) -> HostLimits:
    table = schema.table(value, where)
    if not table:
        return HostLimits()
    only(
        table,
        ("tool_result_chars", "cap_env", "over_cap_chars", "agent_env", "session_env", "source"),
        where,
    )
    chars = _positive(table, "tool_result_chars", where)
    preview = _positive(table, "over_cap_chars", where)
    if preview is not None and chars is None:
        raise DescriptorError(f"{at(where, 'over_cap_chars')} needs tool_result_chars")
    return HostLimits(
        tool_result_chars=chars,
        over_cap_chars=preview,
        cap_env=schema.string(table, "cap_env", where, required=False),
        agent_env=tuple(schema.strings(table, "agent_env", where)),
        session_env=tuple(schema.strings(table, "session_env", where)),
        source=schema.string(table, "source", where),
    )


def host_limits() -> dict[str, HostLimits]:
    """agent name -> its `[limits]` facts, for every descriptor that has the table (what
    rtok/compiled/host_limits.py holds)."""
    return {name: item.limits for name, item in load_all().items() if item.limits != HostLimits()}


def _rewrite(value: object, where: str, hook: HookProtocol | None) -> RewriteFacts:
    table = schema.table(value, where)
    if table.get("default_rules") and (hook is None or hook["permissions"] == "none"):
        raise DescriptorError(
            f"{where}.default_rules needs a permission source ([hook] "
            "permissions) whose rules could be read"
        )
    only(table, ("approval", "permissions", "host_rules", "names", "default_rules"), where)
    host_rules = permissions = ""
    if "host_rules" in table:
        host_rules = schema.choice(table, "host_rules", HOST_RULE_SETS, where)
    if "permissions" in table:
        permissions = schema.choice(table, "permissions", PERMISSION_SOURCES, where)
    return RewriteFacts(
        host_approves=schema.choice(table, "approval", APPROVALS, where, default="rules") == "host",
        permissions=permissions,
        default_rules=schema.boolean(table, "default_rules", where),
        host_rules=host_rules,
        names=tuple(schema.strings(table, "names", where)),
    )


def _hook(data: Mapping[str, object], tier: str, where: str) -> HookProtocol | None:
    """The compiled `[hook]` table: required for the hook tier (its agent runs `rtok hook`),
    refused elsewhere (nothing would read it)."""
    if "hook" not in data:
        if tier == "hook":
            raise DescriptorError(f"{where}: a hook-tier agent needs a [hook] table")
        return None
    if tier != "hook":
        raise DescriptorError(f"{where}: [hook] is only for the hook tier, not {tier!r}")
    return validate_hook_table(data["hook"], where)


def _files(install: Mapping[str, object], where: str) -> dict[str, tuple[FileSpec, ...]]:
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
    return files


def _doctor_facts(value: object, where: str) -> DoctorFacts:
    table = schema.table(value, where)
    only(
        table,
        {
            "rewrite_input",
            "rewrite_requires",
            "hook_env",
            "hook_env_default",
            "deny_rule",
            "borrowers",
        },
        where,
    )
    deny = table.get("deny_rule")
    borrowers = table.get("borrowers", [])
    if not isinstance(borrowers, list):
        raise DescriptorError(f"{where}.borrowers must be an array of tables")
    return DoctorFacts(
        rewrite_input=tuple(schema.strings(table, "rewrite_input", where)),
        rewrite_requires=schema.string_map(table, "rewrite_requires", where),
        hook_env=schema.string_map(table, "hook_env", where),
        hook_env_default=schema.string_map(table, "hook_env_default", where),
        deny_rule=None if deny is None else _deny_rule(deny, f"{where}.deny_rule"),
        borrowers=tuple(
            _borrower(item, f"{where}.borrowers[{index}]") for index, item in enumerate(borrowers)
        ),
    )


def _borrower(value: object, where: str) -> Borrower:
    table = schema.table(value, where)
    only(table, {"name", "binaries", "paths", "source", "payload", "sample_of"}, where)
    payload = schema.string(table, "payload", where, required=False)
    sample_of = schema.string(table, "sample_of", where, required=False)
    if bool(payload) == bool(sample_of):
        raise DescriptorError(f"{where}: needs exactly one of payload and sample_of")
    if payload:
        try:
            parsed = json.loads(payload)
        except ValueError as exc:
            raise DescriptorError(f"{at(where, 'payload')} is not JSON: {exc}") from exc
        if not isinstance(parsed, dict) or "${command}" not in payload:
            raise DescriptorError(
                f'{at(where, "payload")} must be a JSON object holding "${{command}}"'
            )
    borrower = Borrower(
        name=schema.string(table, "name", where),
        binaries=tuple(schema.strings(table, "binaries", where)),
        paths=tuple(schema.strings(table, "paths", where)),
        source=schema.string(table, "source", where),
        payload=payload,
        sample_of=sample_of,
    )
    if not borrower.binaries and not borrower.paths:
        raise DescriptorError(f"{where}: needs binaries or paths to find the host by")
    return borrower


def _deny_rule(value: object, where: str) -> DenyRule:
    table = schema.table(value, where)
    only(table, {"path", "json", "text", "home_env"}, where)
    path = schema.string(table, "path", where)
    if os.path.isabs(path) or ".." in path.split("/"):
        raise DescriptorError(f"{where}: path must be relative, without '..'")
    if ("json" in table) == ("text" in table):
        raise DescriptorError(f"{where}: needs exactly one of json and text")
    if "json" in table:
        content = json.dumps(schema.table(table["json"], at(where, "json")))
    else:
        content = schema.string(table, "text", where)
    home_env = schema.string(table, "home_env", where, required=False)
    return DenyRule(path=path, content=content, home_env=home_env)


def _detection(value: object, where: str) -> Detection:
    table = schema.table(value, where)
    only(table, {"binaries", "paths"}, where)
    return Detection(
        binaries=tuple(schema.strings(table, "binaries", where)),
        paths=tuple(schema.strings(table, "paths", where)),
    )


def _file_spec(entry: object, scope: str, where: str) -> FileSpec:
    table = schema.table(entry, where)
    strategy = schema.string(table, "strategy", where)
    if strategy not in STRATEGIES:
        raise DescriptorError(
            f"{where}: unknown strategy {strategy!r} (known: {', '.join(sorted(STRATEGIES))})"
        )
    record = STRATEGIES[strategy]
    path = schema.string(table, "path", where)
    _check_strategy_keys(table, strategy, where)
    user_file = schema.boolean(table, "user_file", where)
    _check_path(path, scope, user_file, where)
    _check_strategy_values(table, strategy, where)
    dialect = table.get("dialect", record.dialect)
    if dialect and dialect not in DIALECTS:
        raise DescriptorError(f"{at(where, 'dialect')} must be one of {', '.join(DIALECTS)}")
    host_files = tuple(schema.strings(table, "host_files", where))
    if any(os.path.isabs(g) or ".." in g.split("/") for g in host_files):
        raise DescriptorError(f"{where}: host_files are globs relative to the file's folder")
    group = schema.string(table, "group", where, required=False)
    prefer_when = tuple(schema.strings(table, "prefer_when", where))
    if prefer_when and not group:
        raise DescriptorError(f"{where}: prefer_when needs a group")
    options = {k: v for k, v in table.items() if k not in _COMMON_KEYS}
    return FileSpec(
        strategy,
        path,
        options,
        user_file,
        schema.string(table, "description", where, required=False),
        schema.string(table, "when_exists", where, required=False),
        str(dialect),
        host_files,
        group,
        prefer_when,
        schema.boolean(table, "rejects_bom", where),
        tuple(schema.strings(table, "siblings", where)),
        record.awareness,
    )


def _check_strategy_keys(entry: Mapping[str, object], strategy: str, where: str) -> None:
    """Only the keys the strategy knows, its required ones present, each of its type."""
    required, optional = STRATEGIES[strategy].required, STRATEGIES[strategy].optional
    only(entry, _COMMON_KEYS | STRATEGIES[strategy].keys, where)
    for key in required:
        if key not in entry:
            raise DescriptorError(f"{where}: strategy {strategy!r} needs the key {key!r}")
    for key, types in {**required, **optional}.items():
        if key in entry and (
            not isinstance(entry[key], types)
            or (isinstance(entry[key], bool) and bool not in types)
        ):
            names = " or ".join(t.__name__ for t in types)
            raise DescriptorError(f"{at(where, key)} must be of type {names}")


def _check_path(path: str, scope: str, user_file: bool, where: str) -> None:
    is_relative = not (path.startswith(("~", "${", "/")))
    if scope == "project" and not user_file and not is_relative:
        raise DescriptorError(f"{where}: path of a project file must be relative to the project")
    if (scope == "global" or user_file) and is_relative:
        raise DescriptorError(f"{where}: path must start with ~, / or ${{VAR:-default}}")
    if ".." in path.replace("\\", "/").split("/"):
        raise DescriptorError(f"{where}: path must not contain '..'")


def _check_strategy_values(entry: Mapping[str, object], strategy: str, where: str) -> None:
    if "level" in entry:
        schema.choice(entry, "level", LEVELS, where)
    if "container" in entry:  # may be empty: the hook list is the file's top level
        schema.strings(entry, "container", where)
    if "keys" in entry:
        schema.strings(entry, "keys", where, required=True)
    STRATEGIES[strategy].check(entry, where)


def _check_cross_references(files: Mapping[str, tuple[FileSpec, ...]], where: str) -> None:
    for scope, specs in files.items():
        paths = {spec.path for spec in specs}
        for spec in specs:
            key, message = STRATEGIES[spec.strategy].refers
            if key and spec.options[key] not in paths:
                raise DescriptorError(
                    f"{where}: " + message.format(scope=scope, value=spec.options[key])
                )
