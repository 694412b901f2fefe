"""The records an agent descriptor is read into: `Descriptor`, its `FileSpec`s and parts.

Plain data. The validator (descriptor.py) builds them; the file strategies (targets/) and
the strategy registry (strategies.py) read them, below the validator, so neither needs it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from rtok.hooks.descriptors import HookSample
from rtok.hooks.types import HookProtocol
from rtok.install.model import SCOPES

__all__ = [
    "Borrower",
    "DenyRule",
    "Descriptor",
    "Detection",
    "DoctorFacts",
    "FileSpec",
    "HostLimits",
    "Proof",
    "RewriteFacts",
]


@dataclass(frozen=True)
class FileSpec:
    """One file an agent's integration touches in one scope, and how."""

    strategy: str
    path: str  # path template (global) or project-relative path
    options: Mapping[str, object]
    user_file: bool = False  # a project install that edits a file in the user's home
    description: str = ""
    when_exists: str = ""  # install only when this path exists (a second product variant)
    dialect: str = ""  # what the host's parser accepts ("" for files rtok owns whole)
    host_files: tuple[str, ...] = ()  # globs of files the host writes beside this one
    group: str = ""  # entries of one group: the host reads only one of their files
    prefer_when: tuple[str, ...] = ()  # install here when this key path exists in the file
    rejects_bom: bool = False  # the host cannot parse the file when it starts with a BOM
    # Files the host reads together with this one (same scope, same path form): one it
    # cannot parse, such as an empty file, makes it ignore the hooks in this one too.
    siblings: tuple[str, ...] = ()
    # The entry only tells the agent about rtok (its strategy's `awareness`): --hook-only
    # leaves it out.
    is_awareness: bool = False

    def option_strings(self, key: str) -> tuple[str, ...]:
        """A list-of-strings option (`container`, `keys`), empty when absent."""
        value = self.options.get(key, ())
        return tuple(str(item) for item in value) if isinstance(value, (list, tuple)) else ()


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
class Borrower:
    """Another host that loads this agent's hook settings and runs its hook command with
    payloads of its own (`[[doctor.borrowers]]`), for `rtok doctor`."""

    name: str
    binaries: tuple[str, ...]  # any on PATH: the host is on this machine
    paths: tuple[str, ...]  # any existing: likewise
    source: str  # where the borrowing is documented
    payload: str = ""  # its shell-call payload (JSON with ${command} and ${cwd}), or
    sample_of: str = ""  # the agent whose [hook.sample] shell payload it sends


@dataclass(frozen=True)
class DoctorFacts:
    """What the host itself does with a hook's reply, for `rtok doctor`."""

    rewrite_input: tuple[str, ...] = ()  # empty: the host's rewrite location is not known
    rewrite_requires: Mapping[str, str] = field(default_factory=dict)
    hook_env: Mapping[str, str] = field(default_factory=dict)
    hook_env_default: Mapping[str, str] = field(default_factory=dict)
    deny_rule: DenyRule | None = None
    borrowers: tuple[Borrower, ...] = ()


@dataclass(frozen=True)
class RewriteFacts:
    """How `rtok rewrite` answers this agent (its `[rewrite]` table)."""

    host_approves: bool = False  # "no rule" is the host's to decide: exit 0, not 3
    permissions: str = ""  # "" = the rules of the `default_rules` agent
    default_rules: bool = False
    host_rules: str = ""  # the host's own permission.bash rule set ("" = none)
    names: tuple[str, ...] = ()  # other RTOK_REWRITE_HOST values meaning this agent


@dataclass(frozen=True)
class Proof:
    """How an integration is shown to work (its `[proof]` table)."""

    kind: str = "contract"  # "e2e" | "contract"
    docs: tuple[str, ...] = ()  # the host documentation it was built from
    note: str = ""  # e.g. what stops the real CLI from running in the e2e tier


@dataclass(frozen=True)
class HostLimits:
    """What the host does with a shell result (its `[limits]` table)."""

    tool_result_chars: int | None = None  # None: not known (counted as uncapped)
    cap_env: str = ""
    over_cap_chars: int | None = None  # over the cap: a preview this long, not a cut
    agent_env: tuple[str, ...] = ()
    session_env: tuple[str, ...] = ()
    source: str = ""


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
    hook: HookProtocol | None = None  # the compiled [hook] table (hook tier only)
    hook_sample: HookSample | None = None  # [hook.sample]: payloads the agent sends
    rewrite: RewriteFacts = field(default_factory=RewriteFacts)
    proof: Proof = field(default_factory=Proof)
    limits: HostLimits = field(default_factory=HostLimits)
    transcripts: tuple[str, str] | None = None  # (glob, format) of its session logs

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
