"""The checks behind `rtok verify`: is what rtok installed intact, and does it resolve?

Per artifact (from the integrity records): verified, tampered (expected and actual hash),
missing, no baseline (rtok's bytes on disk with no record), orphaned record (its agent or
project is gone). Per agent: every rtok path its hook command or plugin names is an
executable rtok of a compatible version. Per rule file that applies here: untrusted or
modified since it was trusted. Functions return `Finding`s; the CLI prints them.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import shlex
import subprocess
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, replace
from typing import Any

from rtok import __version__, fileio, paths, trust
from rtok.fileio import sha256_hex
from rtok.formats import dialects
from rtok.install.model import FileEdit
from rtok.integrity import installed
from rtok.integrity.codex_trust import check_codex_trust
from rtok.integrity.manifest import is_stock_artifact
from rtok.integrity.process import run_captured
from rtok.integrity.records import ArtifactRecord, load_records
from rtok.invocation import rtok_command

JSON_SCHEMA_VERSION = 1
PASS, FAIL, WARN = "PASS", "FAIL", "WARN"
VERSION_TIMEOUT_S = 15.0


@dataclass(frozen=True)
class Finding:
    check: str  # "artifact" | "hook_command" | "rule_file" | "records"
    status: str  # see docs/verify-json.md for the words per check
    level: str  # PASS | FAIL | WARN
    message: str
    fix: str | None = None
    agent: str | None = None
    scope: str | None = None
    kind: str | None = None
    path: str | None = None
    project_root: str | None = None
    expected_sha256: str | None = None
    actual_sha256: str | None = None
    command: str | None = None
    rtok_bin: str | None = None
    version: str | None = None

    def to_json(self) -> dict[str, object]:
        return asdict(self)


def _short(digest: str | None) -> str:
    return f"sha256:{digest[:12]}" if digest else "none"


def init_fix(agent: str, scope: str | None, project_root: str | None) -> str:
    rtok = rtok_command()
    if scope == "global":
        return f"{rtok} init --agent {agent} --auto-patch"
    where = shlex.quote(project_root or ".")
    return f"cd {where} && {rtok} init --agent {agent} --project --auto-patch"


def _reinstall_fix(agent: str, scope: str | None, project_root: str | None) -> str:
    """Re-recording an install that has no record: uninstall, then install again."""
    rtok = rtok_command()
    flag = "" if scope == "global" else " --project"
    prefix = "" if scope == "global" else f"cd {shlex.quote(project_root or '.')} && "
    return (
        f"{prefix}{rtok} uninstall --agent {agent}{flag} --auto-patch && "
        f"{rtok} init --agent {agent}{flag} --auto-patch"
    )


# --------------------------------------------------------------------------- artifacts


def edits_for(record: ArtifactRecord) -> tuple[list[FileEdit], str | None]:
    """The installer's edits that write this record's artifact, or ([], reason). A project
    install may also write into a user file (Codex trusts project hooks in the user's
    config.toml): such a record says `global` but carries its project root."""
    scopes = [(record.scope, record.project_root)]
    if record.project_root and record.scope != "project":
        scopes.append(("project", record.project_root))
    found: list[FileEdit] = []
    for scope, root in scopes:
        try:
            candidates = installed.install_edits(record.agent, scope, root)
        except Exception as exc:
            return [], f"cannot read it: {exc}"
        found.extend(
            edit
            for edit in candidates
            if edit.kind == record.kind and installed.same_path(edit.path, record.path)
        )
    if not found:
        return [], "this rtok version no longer installs it"
    return found, None


def edit_for(record: ArtifactRecord) -> tuple[FileEdit | None, str | None]:
    edits, reason = edits_for(record)
    return (edits[0] if edits else None), reason


def owned_now(record: ArtifactRecord, data: bytes) -> tuple[bytes | None, str | None]:
    """rtok's bytes in `data` for this record's artifact, or (None, reason); (None, None)
    when the file no longer holds rtok's entry, block or line."""
    if record.kind in installed.WHOLE_FILE_KINDS:
        return data, None
    edits, reason = edits_for(record)
    if not edits:
        return None, reason
    owned_found: list[bytes] = []
    for edit in edits:
        if edit.owned_bytes is None:
            return data, None
        try:
            owned = edit.owned_bytes(data)
        except Exception as exc:
            return None, f"does not parse: {exc}"
        if owned is not None:
            if sha256_hex(owned) == record.sha256:
                return owned, None
            owned_found.append(owned)
    return (owned_found[0] if owned_found else None), None


_LITERAL = re.compile(r'"((?:\\.|[^"\\])*)"' + r"|'([^'\n]*)'")


def _pieces(text: str) -> set[str]:
    """String literals and trimmed lines of a settings or Markdown text."""
    pieces = {line.strip().lstrip("-").strip().strip("\"'") for line in text.splitlines()}
    for match in _LITERAL.finditer(text):
        pieces.add(match.group(1) if match.group(1) is not None else match.group(2))
    return {p for p in pieces if p}


def altered_in_place(record: ArtifactRecord, data: bytes) -> bool:
    """Does `data` still hold a damaged copy of rtok's entry? rtok's identifying pieces
    (the strings naming rtok) are rebuilt with the installer's own transform and looked
    for as near matches: a flipped byte in `rtok hook claude` leaves the entry
    unrecognisable to the installer, but it is tampered, not missing."""
    from difflib import SequenceMatcher

    edit, _reason = edit_for(record)
    if edit is None or edit.owned_bytes is None or len(data) > 1 << 20:
        return False
    try:
        rebuilt = edit.transform(data)
        expected = edit.owned_bytes(rebuilt) if rebuilt is not None else None
    except Exception:
        return False
    if not expected:
        return False
    wanted = [
        p
        for p in _pieces(expected.decode("utf-8", "replace"))
        if "rtok" in p.lower() and len(p) >= 4
    ]
    have = _pieces(data.decode("utf-8", "replace"))
    for piece in wanted:
        for candidate in have:
            if candidate == piece or abs(len(candidate) - len(piece)) > len(piece) // 2 + 1:
                continue
            if SequenceMatcher(None, piece, candidate, autojunk=False).ratio() >= 0.75:
                return True
    return False


WHOLE_KINDS = ("whole_file", "awareness_file")


def check_record(record: ArtifactRecord, known_agents: Iterable[str] | None) -> Finding:
    base: dict[str, Any] = dict(
        check="artifact",
        agent=record.agent,
        scope=record.scope,
        kind=record.kind,
        path=record.path,
        project_root=record.project_root,
        expected_sha256=record.sha256,
    )
    where = f"{record.agent} ({record.scope}) {record.kind} {record.path}"
    # A project install may write into a user file (scope "global") but keeps its root.
    install_scope = "project" if record.project_root else record.scope
    fix = init_fix(record.agent, install_scope, record.project_root)
    forget = f"{rtok_command()} verify --prune"
    if known_agents is not None and record.agent not in known_agents:
        return Finding(
            status="orphaned",
            level=WARN,
            fix=forget,
            message=f"{where}: record of an agent this rtok does not know",
            **base,
        )
    if record.project_root and not os.path.isdir(record.project_root):
        return Finding(
            status="orphaned",
            level=WARN,
            fix=forget,
            message=f"{where}: its project {record.project_root} is gone",
            **base,
        )
    data = fileio.read_if_readable(record.path)
    if data is None:
        if not os.path.isdir(os.path.dirname(record.path)):
            return Finding(
                status="orphaned",
                level=WARN,
                fix=forget,
                message=f"{where}: the folder holding it is gone",
                **base,
            )
        return Finding(
            status="missing", level=FAIL, fix=fix, message=f"{where}: file missing", **base
        )
    unreadable = host_parse_problem(record, data)
    if unreadable:
        return Finding(
            status="host_cannot_parse",
            level=FAIL,
            actual_sha256=sha256_hex(data),
            fix=f"correct {record.path}, then run {rtok_command()} verify",
            message=f"{where}: {unreadable}",
            **base,
        )
    owned, reason = owned_now(record, data)
    if owned is None:
        if reason is None:
            if altered_in_place(record, data):
                return Finding(
                    status="tampered",
                    level=FAIL,
                    fix=fix,
                    actual_sha256=sha256_hex(data),
                    message=(
                        f"{where}: tampered, rtok's entry was altered and is "
                        "no longer recognised (actual: hash of the file)"
                    ),
                    **base,
                )
            return Finding(
                status="missing",
                level=FAIL,
                fix=fix,
                message=f"{where}: rtok's entry is no longer in the file",
                **base,
            )
        if reason.startswith("does not parse"):
            # Re-installing would refuse the file too: the fix is correcting it.
            return Finding(
                status="tampered",
                level=FAIL,
                fix=f"correct {record.path}, then run rtok verify",
                actual_sha256=sha256_hex(data),
                message=f"{where}: the file {reason}",
                **base,
            )
        return Finding(
            status="unchecked",
            level=WARN,
            fix=fix,
            message=f"{where}: cannot check ({reason})",
            **base,
        )
    actual = sha256_hex(owned)
    if actual == record.sha256:
        return Finding(
            status="verified",
            level=PASS,
            actual_sha256=actual,
            message=f"{where}: verified ({_short(actual)})",
            **base,
        )
    if record.kind in WHOLE_KINDS:
        # rtok does not overwrite a file whose bytes it no longer recognises: the fix
        # keeps the changed file beside the new one.
        kept = shlex.quote(record.path + ".changed")
        fix = f"mv {shlex.quote(record.path)} {kept} && {fix}"
    return Finding(
        status="tampered",
        level=FAIL,
        actual_sha256=actual,
        fix=fix,
        message=(f"{where}: tampered (expected {_short(record.sha256)}, actual {_short(actual)})"),
        **base,
    )


def host_parse_problem(record: ArtifactRecord, data: bytes) -> str | None:
    """Why the agent itself cannot parse this record's file (so it ignores rtok's entry),
    in the host's terms with the line, or None."""
    edit, _reason = edit_for(record)
    if edit is None or not edit.dialect:
        return None
    problem = dialects.host_problem(data, edit.dialect, label=record.path)
    if problem is None:
        return None
    line, reason = problem
    return (
        f"{dialects.host_reading(edit.host or record.agent, edit.dialect, line, reason)}: "
        "rtok's entry in it does not run"
    )


UNREADABLE_RULES = "rtok rewrites nothing for {agent} while its permission rules are unreadable"


def merge_unreadable(
    host_broken: dict[str, str], unreadable: list[tuple[str, str, str]]
) -> tuple[dict[str, str], list[tuple[str, str, str]]]:
    """One message per broken file: a permission file that is also a file the host cannot
    parse (already reported) gets the consequence added to that report instead of a second
    report in another parser's words. `host_broken` maps path -> message."""
    merged = dict(host_broken)
    rest: list[tuple[str, str, str]] = []
    for agent, path, why in unreadable:
        if path in merged:
            merged[path] += "; " + UNREADABLE_RULES.format(agent=agent)
        else:
            rest.append((agent, path, why))
    return merged, rest


def _install_finding(
    check: str,
    status: str,
    level: str,
    install: tuple[str, str, str | None],
    message: str,
    **details: Any,
) -> Finding:
    """A finding about one agent's install in one scope (agent, scope, project root); its
    fix is installing again unless `details` names another."""
    agent, scope, root = install
    details.setdefault("fix", init_fix(agent, scope, root))
    details.update(agent=agent, scope=scope, project_root=root)
    return Finding(check, status, level, message, **details)


def _edit_of(edit: FileEdit) -> dict[str, Any]:
    """The fields of a finding that name the file edit it is about."""
    return {"kind": edit.kind, "path": edit.path}


def check_partial(records: Sequence[ArtifactRecord]) -> list[Finding]:
    """An install whose hook, plugin or trust part was declined (it needed consent) while
    the rest was written: the agent is told about rtok but never calls it."""
    findings: list[Finding] = []
    groups: dict[tuple[str, str | None], list[ArtifactRecord]] = {}
    for record in records:
        scope = "project" if record.project_root else record.scope
        groups.setdefault(
            (record.agent, record.project_root if scope == "project" else None), []
        ).append(record)
    for (agent, root), group in sorted(groups.items(), key=lambda kv: str(kv[0])):
        scope = "project" if root else "global"
        try:
            descriptor = installed.descriptors()[agent]
            missing = installed.missing_parts(descriptor, scope, root)
        except Exception:
            continue
        recorded = {(os.path.abspath(r.path), r.kind) for r in group}
        for edit in missing:
            if (os.path.abspath(edit.path), edit.kind) in recorded:
                continue  # its own record reports it (missing or tampered)
            message = (
                f"{agent} ({scope}): partial install, not done: {edit.description} "
                f"in {edit.path} (it needed your consent); the agent does not call rtok "
                "until it is"
            )
            findings.append(
                _install_finding(
                    "artifact", "partial", FAIL, (agent, scope, root), message, **_edit_of(edit)
                )
            )
    return findings


def _agents_to_scan(agent: str | None) -> list[str]:
    try:
        names = sorted(installed.descriptors())
    except Exception:
        return []
    return [n for n in names if agent is None or n == agent]


def find_unrecorded(
    records: Sequence[ArtifactRecord], agent: str | None, cwd: str
) -> list[Finding]:
    """rtok artifacts on disk that no record covers (`no_baseline`)."""
    findings: list[Finding] = []
    recorded = {(os.path.realpath(r.path), r.kind, r.agent) for r in records}
    project = trust.project_root(cwd)
    for name in _agents_to_scan(agent):
        for scope in installed.scopes_of(name):
            if scope == "project" and project is None:
                continue
            root = project if scope == "project" else None
            try:
                edits = installed.install_edits(name, scope, root)
            except Exception:
                continue
            for edit in edits:
                if (os.path.realpath(edit.path), edit.kind, edit.agent) in recorded:
                    continue
                data = fileio.read_if_readable(edit.path)
                if data is None or not _holds_rtok_bytes(edit, data):
                    continue
                message = (
                    f"{name} ({scope}) {edit.kind} {edit.path}: rtok's bytes are there but "
                    "no record covers them"
                )
                finding = _install_finding(
                    "artifact",
                    "no_baseline",
                    WARN,
                    (name, scope, root),
                    message,
                    actual_sha256=sha256_hex(_owned_or_all(edit, data)),
                    fix=_reinstall_fix(name, scope, root),
                    **_edit_of(edit),
                )
                findings.append(finding)
    return findings


def _owned_or_all(edit: FileEdit, data: bytes) -> bytes:
    if edit.owned_bytes is None:
        return data
    try:
        return edit.owned_bytes(data) or data
    except Exception:
        return data


def _holds_rtok_bytes(edit: FileEdit, data: bytes) -> bool:
    try:
        if edit.kind in installed.WHOLE_FILE_KINDS:
            return bool(edit.transform(data) == data or is_stock_artifact(edit.kind, data))
        if edit.owned_bytes is not None:
            return edit.owned_bytes(data) is not None
        return bool(edit.transform(data) == data)
    except Exception:
        return False


# ------------------------------------------------------------------------ hook commands


def json_strings(value: object) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in json_strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in json_strings(v)]
    return []


def candidate_strings(text: str) -> list[str]:
    """The strings of a JSON document (rtok's entry as recorded) read by a JSON parser;
    for any other text (a plugin file), `text` itself, then every string literal in it."""
    try:
        return json_strings(json.loads(text))
    except ValueError:
        pass
    found = [text]
    for match in _LITERAL.finditer(text):
        if match.group(1) is not None:
            try:
                found.append(json.loads(f'"{match.group(1)}"'))
            except ValueError:
                found.append(match.group(1))
        else:
            found.append(match.group(2))
    return found


def rtok_bins_in(text: str, depth: int = 0) -> list[str]:
    """Absolute paths of an `rtok` executable named in `text` (a hook command, a settings
    entry, a plugin file): shell words and string literals, `sh -c` scripts included."""
    bins: list[str] = []
    for candidate in candidate_strings(text) if depth == 0 else [text]:
        bins.extend(b for b in _bins_in_candidate(candidate, depth) if b not in bins)
    return bins


def _is_rtok_path(word: str) -> bool:
    return os.path.isabs(word) and os.path.basename(word) in ("rtok", "rtok.exe")


def _bins_in_candidate(candidate: str, depth: int) -> list[str]:
    """The rtok paths of one string: itself when it is exactly a path (`const RTOK_BIN =
    "/a b/rtok"`), else its shell words and the scripts among them."""
    if _is_rtok_path(candidate):
        return [candidate]
    try:
        words = shlex.split(candidate, comments=False, posix=True)
    except ValueError:
        words = candidate.split()
    found: list[str] = []
    for word in words:
        if _is_rtok_path(word):
            found.append(word)
        elif depth < 2 and " " in word and "rtok" in word:
            found.extend(rtok_bins_in(word, depth + 1))
    return found


def _version_of(
    binary: str, cache: dict[str, tuple[str | None, str | None]]
) -> tuple[str | None, str | None]:
    """(version, problem) of running `binary --version`."""
    if binary in cache:
        return cache[binary]
    result: tuple[str | None, str | None]
    try:
        run = run_captured([binary, "--version"], VERSION_TIMEOUT_S)
        match = re.search(r"rtok (\S+)", run.stdout)
        if run.returncode != 0 or match is None:
            detail = (run.stderr or run.stdout).strip().splitlines()
            result = (
                None,
                f"`{binary} --version` failed (exit {run.returncode}"
                + (f": {detail[-1]}" if detail else "")
                + ")",
            )
        else:
            result = (match.group(1), None)
    except subprocess.TimeoutExpired:
        result = (None, f"`{binary} --version` did not answer within {VERSION_TIMEOUT_S:.0f}s")
    except OSError as exc:
        result = (None, f"cannot run {binary}: {exc.strerror or exc}")
    cache[binary] = result
    return result


def compatible(found: str, wanted: str) -> bool:
    """Same major version (and same minor while the major is 0)."""
    from packaging.version import InvalidVersion, Version

    try:
        a, b = Version(found), Version(wanted)
    except InvalidVersion:
        return found == wanted
    if a.major != b.major:
        return False
    return a.major != 0 or a.minor == b.minor


def check_rtok_bin(
    binary: str,
    agent: str,
    scope: str,
    project_root: str | None,
    wanted: str,
    cache: dict[str, tuple[str | None, str | None]],
) -> Finding:
    fix = init_fix(agent, scope, project_root)
    base: dict[str, Any] = dict(
        check="hook_command", agent=agent, scope=scope, rtok_bin=binary, project_root=project_root
    )
    if not os.path.exists(binary):
        return Finding(
            status="missing_binary",
            level=FAIL,
            fix=fix,
            message=f"{agent} ({scope}): {binary} does not exist",
            **base,
        )
    if not os.access(binary, os.X_OK) or os.path.isdir(binary):
        return Finding(
            status="not_executable",
            level=FAIL,
            fix=fix,
            message=f"{agent} ({scope}): {binary} is not executable",
            **base,
        )
    version, problem = _version_of(binary, cache)
    if version is None:
        return Finding(
            status="broken", level=FAIL, fix=fix, message=f"{agent} ({scope}): {problem}", **base
        )
    if not compatible(version, wanted):
        return Finding(
            status="incompatible_version",
            level=FAIL,
            fix=fix,
            version=version,
            message=(
                f"{agent} ({scope}): {binary} is rtok {version}, the install expects {wanted}"
            ),
            **base,
        )
    return Finding(
        status="ok",
        level=PASS,
        version=version,
        message=f"{agent} ({scope}): {binary} runs (rtok {version})",
        **base,
    )


def check_hook_commands(records: Sequence[ArtifactRecord]) -> list[Finding]:
    findings: list[Finding] = []
    cache: dict[str, tuple[str | None, str | None]] = {}
    groups: dict[tuple[str, str, str | None], list[ArtifactRecord]] = {}
    for record in records:
        if record.kind in ("settings_entry", "whole_file"):
            groups.setdefault((record.agent, record.scope, record.project_root), []).append(record)
    for (agent, scope, root), group in sorted(groups.items(), key=lambda kv: str(kv[0])):
        bins: list[str] = []
        has_entry = any(r.kind == "settings_entry" for r in group)
        readable = False
        for record in group:
            data = fileio.read_if_readable(record.path)
            if data is None:
                continue
            owned, _reason = owned_now(record, data)
            if owned is None:
                continue
            readable = True
            bins.extend(b for b in rtok_bins_in(owned.decode("utf-8", "replace")) if b not in bins)
        wanted = max((r.rtok_version for r in group), key=_version_sort_key, default=__version__)
        if not bins:
            if has_entry and readable:
                message = f"{agent} ({scope}): no absolute rtok path in its hook entry"
                findings.append(
                    _install_finding(
                        "hook_command", "no_command", FAIL, (agent, scope, root), message
                    )
                )
            continue
        findings.extend(check_rtok_bin(b, agent, scope, root, wanted, cache) for b in bins)
    return findings


def _version_sort_key(version: str) -> tuple[int, ...]:
    return tuple(int(p) for p in re.findall(r"\d+", version)[:3])


# --------------------------------------------------------------------------- rule files


def _rule_file_finding(path: str, state: str) -> Finding | None:
    """The finding for one gated rule file in trust state `state` (None: a state not reported)."""
    quoted = shlex.quote(path)
    if state == "trusted":
        problem = _rule_file_problem(path)
        if not problem:
            return _rule_finding(path, "trusted", PASS, "trusted", None)
        return _rule_finding(
            path,
            "malformed",
            WARN,
            f"trusted but malformed ({problem}); rtok skips it",
            f"{rtok_command()} config validate {quoted}",
        )
    if state == "modified":
        return _rule_finding(
            path,
            "modified",
            WARN,
            "changed since it was trusted; rtok skips it",
            f"{rtok_command()} trust {quoted}",
        )
    if state == "untrusted":
        return _rule_finding(
            path,
            "untrusted",
            WARN,
            "not trusted; rtok skips it",
            f"{rtok_command()} trust {quoted}",
        )
    return None


def _rule_finding(path: str, status: str, level: str, what: str, fix: str | None) -> Finding:
    return Finding(
        check="rule_file",
        status=status,
        level=level,
        path=path,
        scope=trust.scope_of(path),
        fix=fix,
        message=f"rule file {path}: {what}",
    )


def check_rule_files(cwd: str) -> list[Finding]:
    findings: list[Finding] = []
    problem = trust.store_problem()
    if problem:
        findings.append(
            Finding(
                check="records",
                status="unreadable",
                level=FAIL,
                path=paths.trust_store(),
                message=f"{problem}: every rule file counts as untrusted",
                fix=f"mv {shlex.quote(paths.trust_store())} "
                f"{shlex.quote(paths.trust_store() + '.bad')} && rtok trust",
            )
        )
    for path in trust.gated_rule_files(cwd):
        finding = _rule_file_finding(path, trust.trust_state(path))
        if finding is not None:
            findings.append(finding)
    return findings


def _rule_file_problem(path: str) -> str | None:
    """Why the output-rules layer would skip this file, or None."""
    from rtok.filter.ruleparse import parse_rule_bytes

    data = trust.read_file_bytes(path)
    if data is None:
        return "cannot be read"
    parsed = parse_rule_bytes(data)
    return str(parsed["error"]) if "error" in parsed else None


# ------------------------------------------------------------------------------- report


def check_codex_hook_trust(records: Sequence[ArtifactRecord]) -> list[Finding]:
    """Codex runs a hook only while config.toml trusts its exact definition."""
    findings: list[Finding] = []
    for record in records:
        if record.kind != "settings_entry" or not installed.trusts_hooks(
            record.agent, record.scope
        ):
            continue
        if fileio.read_if_readable(record.path) is None:
            continue  # reported as missing already
        fix = init_fix(record.agent, record.scope, None)
        for check in check_codex_trust(record.path, record.scope, record.agent, fix):
            findings.append(
                Finding(
                    check="hook_trust",
                    status="trusted" if check.level == PASS else "untrusted",
                    level=PASS if check.level == PASS else FAIL,
                    agent=record.agent,
                    scope=record.scope,
                    path=record.path,
                    project_root=record.project_root,
                    command=check.command,
                    message=f"{record.agent} ({record.scope}): {check.message}",
                    fix=init_fix(
                        record.agent,
                        "project" if record.project_root else record.scope,
                        record.project_root,
                    )
                    if check.level != PASS
                    else None,
                )
            )
    return findings


def verify(agents: Sequence[str], cwd: str) -> list[Finding]:
    """Every finding for `rtok verify [--agent NAME]...` run in `cwd`: for the distinct
    `agents` named (the command drops repeats), every agent's when none is."""
    try:
        records = [r for r in load_records() if not agents or r.agent in agents]
    except Exception as exc:
        return [
            Finding(
                check="records",
                status="unreadable",
                level=FAIL,
                message=f"integrity records: {exc}",
                fix="move the records file aside, then run rtok init again",
            )
        ]
    try:
        known: list[str] | None = list(installed.descriptors())
    except Exception:
        known = None
    findings = [check_record(r, known) for r in records]
    scans: Sequence[str | None] = agents or [None]
    for name in scans:
        findings.extend(find_unrecorded(records, name, cwd))
    live = [r for r, f in zip(records, findings, strict=False) if f.status != "orphaned"]
    findings.extend(check_partial(live))
    findings.extend(check_hook_commands(live))
    findings.extend(check_codex_hook_trust(live))
    findings.extend(check_rule_files(cwd))
    return one_report_per_broken_file(
        findings, permission_file_problems(sorted({r.agent for r in live}), cwd, os.environ)
    )


def one_report_per_broken_file(
    findings: list[Finding], unreadable: list[tuple[str, str, str]]
) -> list[Finding]:
    """A file its host cannot parse is reported once: the first finding for it carries
    what follows (the entry does not run; no rewrites while the rules are unreadable)."""
    broken = {f.path: f.message for f in findings if _broken_file(f) and f.path}
    merged, rest = merge_unreadable(broken, unreadable)
    out: list[Finding] = []
    reported: set[str] = set()
    for finding in findings:
        if _broken_file(finding) and finding.path:
            if finding.path in reported:
                continue
            reported.add(finding.path)
            finding = replace(finding, message=merged[finding.path])
        elif (
            finding.level == FAIL
            and "does not parse" in finding.message
            and any(path in finding.message for path in broken)
        ):
            continue  # another check that failed only because of a file reported above
        out.append(finding)
    out.extend(_permission_findings(rest))
    return out


def permission_file_problems(
    agents: Sequence[str], cwd: str, env: Mapping[str, str]
) -> list[tuple[str, str, str]]:
    """(agent, path, why) once per host permission file rtok cannot read, for the agents
    given, with the hosts' locations from `env`: while one is listed, rtok rewrites
    nothing for that agent."""
    from rtok.compiled.hook_protocols import protocol
    from rtok.permissions.verdict import unreadable_rule_files

    seen: set[str] = set()
    out: list[tuple[str, str, str]] = []
    for agent in agents:
        table = protocol(agent)
        if not table:
            continue  # not a hook agent
        source = str(table.get("permissions", "none"))
        # The hot path's one-line warning would report the file a second time.
        with contextlib.redirect_stderr(io.StringIO()):
            found = unreadable_rule_files(source, cwd, env)
        for path, why in found:
            if path not in seen:
                seen.add(path)
                out.append((agent, path, why))
    return out


def check_permission_files(agents: Sequence[str], cwd: str) -> list[Finding]:
    return _permission_findings(permission_file_problems(agents, cwd, os.environ))


def _broken_file(finding: Finding) -> bool:
    """A finding that says a file rtok has an entry in does not parse."""
    return bool(finding.path) and (
        finding.status == "host_cannot_parse"
        or (finding.status == "tampered" and ": the file does not parse" in finding.message)
    )


def _permission_findings(unreadable: Sequence[tuple[str, str, str]]) -> list[Finding]:
    return [
        Finding(
            check="permission_file",
            status="unreadable",
            level=FAIL,
            agent=agent,
            path=path,
            fix=f"correct or remove {shlex.quote(path)}",
            message=f"{agent}: cannot read the permission rules in {path} ({why}); "
            "rtok rewrites nothing for it until this is fixed",
        )
        for agent, path, why in unreadable
    ]


def prune_orphans(findings: Sequence[Finding]) -> int:
    from rtok.integrity.records import forget_artifacts

    keys = [
        (f.path, f.kind, f.agent)
        for f in findings
        if f.status == "orphaned" and f.path and f.kind and f.agent
    ]
    return forget_artifacts(keys)


def exit_code(findings: Sequence[Finding]) -> int:
    return 0 if all(f.level == PASS for f in findings) else 1


def to_json(findings: Sequence[Finding], agents: Sequence[str]) -> dict[str, object]:
    counts = {
        level.lower(): sum(1 for f in findings if f.level == level) for level in (PASS, FAIL, WARN)
    }
    named = list(agents)
    return {
        "schema": JSON_SCHEMA_VERSION,
        "rtok_version": __version__,
        "agent": named[0] if len(named) == 1 else None,
        "agents": named,
        "ok": exit_code(findings) == 0,
        "exit_code": exit_code(findings),
        "summary": counts,
        "items": [f.to_json() for f in findings],
    }
