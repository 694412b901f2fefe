"""`rtok config show | path | validate [FILE] | set KEY VALUE`.

Exit status: 0 fine, 1 validate found a malformed or unreadable file, 2 bad input (nothing
written).
"""

from __future__ import annotations

import os
from typing import Any

import typer

from rtok import paths

KNOWN_KEYS: dict[str, tuple[type, object, str]] = {
    "plugins.cmd.rules": (str, "", "user rules file (default: <config dir>/rules.toml)"),
    "plugins.cmd.rules_dir": (str, "", "drop-in rule folder (default: <config dir>/rules.d)"),
    "plugins.cmd.fail_tail_lines": (int, 80, "lines a failed command prints verbatim"),
    "archive.max_entries": (int, 200, "archived outputs kept"),
    "archive.max_entry_bytes": (int, 10 * 1024 * 1024, "bytes stored per output"),
    "archive.max_age_days": (int, 30, "days an archived output is kept"),
    "hooks.exclude_commands": (list, [], "commands the hooks never rewrite"),
    "hooks.transparent_prefixes": (list, [], "prefixes looked through (e.g. a wrapper)"),
    "awareness.level": (str, "default", "what agents are told: default, high or full"),
}
CHOICES: dict[str, tuple[str, ...]] = {"awareness.level": ("default", "high", "full")}

config_app = typer.Typer(
    help="Show, locate, check and edit rtok's settings and rule files.", no_args_is_help=True
)


def register(app: typer.Typer) -> None:
    app.add_typer(config_app, name="config")


@config_app.command("path")
def path_command() -> None:
    """Print where rtok keeps its settings, rules and data."""
    from rtok.filter.layers import project_root
    from rtok.filter.settings import load_settings

    settings = load_settings()
    rows = [
        ("config", paths.config_file()),
        ("rules", settings.rules_file),
        ("rules.d", settings.rules_dir),
    ]
    root = project_root(os.getcwd())
    if root is not None:
        rows.append(("project rules", os.path.join(root, ".rtok")))
    rows += [
        ("archive", paths.archive_db()),
        ("ledger", paths.ledger_db()),
        ("trust store", paths.trust_store()),
        ("cache", paths.cache_dir()),
    ]
    for name, value in rows:
        typer.echo(f"{name:<14} {value}")


@config_app.command("show")
def show_command() -> None:
    """Print the effective settings and the rule files that apply here."""
    from rtok.filter.settings import reset_cache
    from rtok.filter.validate import check_all

    reset_cache()
    try:
        document = _read_config_document()
    except ValueError as exc:
        _fail(
            f"{paths.config_file()}: {exc}; rtok ignores the file until it is fixed "
            "(`rtok config validate` checks it)"
        )
    typer.echo(
        f"# {paths.config_file()}"
        + ("" if os.path.exists(paths.config_file()) else " (not created yet)")
    )
    for key, (_kind, default, help_text) in KNOWN_KEYS.items():
        value = _lookup(document, key)
        shown = value if value is not None else default
        origin = "" if value is not None else "  (default)"
        typer.echo(f"{key} = {_toml_value(shown)}{origin}    # {help_text}")
    typer.echo("")
    reports = check_all(os.getcwd())
    if not reports:
        typer.echo("rule files: none (built-in rules only)")
    for report in reports:
        families = ", ".join(report.families) or "-"
        typer.echo(f"{report.state:<10} {report.path} [{families}]")


@config_app.command("validate")
def validate_command(
    file: str | None = typer.Argument(None, help="A rule file to check (default: all)."),
) -> None:
    """Check rule files: name each malformed one with the line and the reason."""
    from rtok.filter.validate import check_all, check_named

    problems = 0
    if file is not None:
        if not os.path.exists(file):
            typer.echo(f"rtok config validate: {file}: no such file", err=True)
            raise typer.Exit(2)
        if os.path.realpath(file) == os.path.realpath(paths.config_file()):
            # The user config: itself, then every rule file it resolves to.
            problems += _validate_config_file()
            reports = check_all(os.getcwd())
        else:
            reports = [check_named(file)]
    else:
        problems += _validate_config_file()
        reports = check_all(os.getcwd())
        if not reports:
            typer.echo("no user or project rule files; built-in rules apply")
    for report in reports:
        if report.state in ("malformed", "unreadable"):
            problems += 1
            typer.echo(f"{report.path}: {report.state}: {report.detail}")
        elif report.state == "untrusted":
            typer.echo(f"{report.path}: valid, untrusted: {report.detail}")
        else:
            typer.echo(f"{report.path}: ok ({', '.join(report.families) or 'no tables'})")
    if problems:
        typer.echo(f"{problems} file(s) will be skipped until fixed", err=True)
        raise typer.Exit(1)


def _validate_config_file() -> int:
    """Report config.toml's own problems (broken TOML, wrong types for rtok run's keys)."""
    target = paths.config_file()
    if not os.path.exists(target):
        return 0
    try:
        document = _read_config_document()
    except ValueError as exc:
        typer.echo(f"{target}: malformed: {exc}")
        return 1
    bad = 0
    for key in KNOWN_KEYS:
        value = _lookup(document, key)
        if value is not None:
            problem = _check_known(key, value)
            if problem:
                typer.echo(f"{target}: {key}: {problem}")
                bad += 1
    if not bad:
        typer.echo(f"{target}: ok")
    return bad


@config_app.command("set")
def set_command(
    key: str = typer.Argument(..., help="Dotted key, e.g. plugins.cmd.fail_tail_lines."),
    value: str = typer.Argument(..., help='A TOML value (80, true, "text") or plain text.'),
) -> None:
    """Set one key in config.toml, keeping its comments and layout."""
    import tomlkit
    from tomlkit.exceptions import TOMLKitError

    parts = key.split(".")
    if not all(part.strip() for part in parts):
        _fail(f"{key!r} is not a dotted key")
    parsed = _parse_value(value)
    if key not in KNOWN_KEYS:
        _fail(f"unknown key {key!r}; rtok reads: {', '.join(KNOWN_KEYS)} (nothing written)")
    problem = _check_known(key, parsed)
    if problem:
        _fail(f"{key}: {problem} (nothing written)")
    target = paths.config_file()
    try:
        with open(target, encoding="utf-8") as handle:
            text = handle.read()
    except FileNotFoundError:
        text = ""
    try:
        document = tomlkit.parse(text)
    except TOMLKitError as exc:
        _fail(f"{target} is not valid TOML ({exc}); fix it first, nothing was written")
    table: Any = document
    for part in parts[:-1]:
        child = table.get(part)
        if child is None:
            child = tomlkit.table(is_super_table=part != parts[-2])
            table[part] = child
        elif not isinstance(child, dict):
            _fail(f"{part!r} in {key!r} is a value, not a table")
        table = child
    table[parts[-1]] = parsed
    _write_atomic(target, tomlkit.dumps(document))
    typer.echo(f"{key} = {_toml_value(parsed)}  ({target})")


def _fail(message: str) -> None:
    typer.echo(f"rtok config: {message}", err=True)
    raise typer.Exit(2)


def _parse_value(value: str) -> object:
    import tomllib

    try:
        return tomllib.loads(f"v = {value}")["v"]
    except tomllib.TOMLDecodeError:
        return value


def _check_known(key: str, value: object) -> str | None:
    kind = KNOWN_KEYS[key][0]
    if kind is list:
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            return f'expected a list of strings such as ["git log"], got {value!r}'
        return None
    if key in CHOICES and value not in CHOICES[key]:
        return f"must be one of {', '.join(CHOICES[key])}, not {value!r}"
    if kind is int:
        if isinstance(value, bool) or not isinstance(value, int):
            return f"expected an integer, got {value!r}"
        minimum = 0 if key == "plugins.cmd.fail_tail_lines" else 1
        if value < minimum:
            return f"must be at least {minimum}"
    elif not isinstance(value, str):
        return f"expected a string, got {value!r}"
    return None


def _read_config_document() -> dict[str, object]:
    import tomllib

    try:
        with open(paths.config_file(), "rb") as handle:
            return tomllib.load(handle)
    except FileNotFoundError:
        return {}
    except tomllib.TOMLDecodeError as exc:
        raise ValueError(f"broken TOML: {exc}") from exc


def _lookup(document: dict[str, object], key: str) -> object:
    node: object = document
    for part in key.split("."):
        if not isinstance(node, dict) or part not in node:
            return None
        node = node[part]
    return node


def _toml_value(value: object) -> str:
    import json

    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str | list):
        return json.dumps(value)
    return str(value)


def _write_atomic(target: str, text: str) -> None:
    from rtok import paths

    paths.private_dir(os.path.dirname(target))
    tmp = f"{target}.{os.getpid()}.tmp"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with open(fd, "w", encoding="utf-8") as handle:
        handle.write(text)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(tmp, target)
