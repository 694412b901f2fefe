"""Where a host keeps its permission rules, and reading them.

Each reader returns `(deny, ask, allow)` pattern lists in the Claude pattern language (see
`verdict.py`). Each file is read in its host's own dialect: Claude's, Cursor's and Droid's
settings as strict JSON, Gemini's and Qwen's as JSON with `//` and `/* */` comments (as
Gemini CLI reads them). A missing file is skipped. A file rtok cannot read (unreadable, not
in the host's dialect, not an object, or larger than MAX_SETTINGS_BYTES) is recorded in
`problems` while the rules are read (`read_rules` returns them): the caller then must not
rewrite for that host, since the user meant those rules even where the host itself may
not parse them. One warning per file goes to stderr as well.

Hot path: stdlib only.
"""

from __future__ import annotations

import sys

from rtok._fast import fastjson as json
from rtok._fast import oslite as os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable

Rules = tuple[list[str], list[str], list[str]]

# Settings files past this size are not read on every shell call (a runaway settings file
# would cost every hook call seconds and hundreds of megabytes): they count as unreadable.
MAX_SETTINGS_BYTES = 1 << 20

_warned: set[str] = set()
# (path, why) of every file the current `read_rules` call could not read.
problems: list[tuple[str, str]] = []


def read_rules(reader: Callable[[str], Rules], cwd: str) -> tuple[Rules, list[tuple[str, str]]]:
    """Run one host's reader; also return the files it could not read."""
    problems.clear()
    rules = reader(cwd)
    found = list(problems)
    problems.clear()
    return rules, found


def read_settings(path: str, dialect: str = "json") -> dict[str, object] | None:
    """The JSON object in `path` (`dialect` "json", "jsonc" which allows comments, or
    "jsonc-commas" which also allows trailing commas);
    None when missing, or when it cannot be read (recorded in `problems`, warned once)."""
    try:
        with open(path, "rb") as handle:
            raw = handle.read(MAX_SETTINGS_BYTES + 1)
    except FileNotFoundError:
        return None
    except OSError as error:
        _problem(path, f"cannot read it ({error.strerror or error})")
        return None
    if len(raw) > MAX_SETTINGS_BYTES:
        _problem(path, f"larger than {MAX_SETTINGS_BYTES >> 20} MiB")
        return None
    try:
        if len(raw) > CACHE_FROM_BYTES:
            data = _cached_parse(path, raw, dialect)
        else:
            data = _parse(raw, dialect)
    except (UnicodeDecodeError, ValueError, RecursionError) as error:
        what = "JSON" if dialect == "json" else "JSON with comments"
        _problem(path, f"not valid {what} ({error})")
        return None
    if not isinstance(data, dict):
        _problem(path, "the top level is not a JSON object")
        return None
    return data


# Larger settings files are parsed once per content: their rule keys (RULE_KEYS) are kept
# in rtok's cache under the SHA-256 of the bytes (`rtok._fast.cachefile`), so an unchanged file
# costs a hash and a small read instead of a parse on every shell call.
CACHE_FROM_BYTES = 64 << 10


def _parse(raw: bytes, dialect: str) -> object:
    if raw.startswith(b"\xef\xbb\xbf"):  # not "utf-8-sig": that codec costs an import
        raw = raw[3:]
    text = raw.decode("utf-8")
    if dialect in ("jsonc", "jsonc-commas"):
        text = strip_json_comments(text, trailing_commas=dialect == "jsonc-commas")
    return json.loads(text)


# The top-level keys any reader here looks at: only these are kept in the cache.
RULE_KEYS = (
    "permissions",
    "permission",
    "tools",
    "excludeTools",
    "security",
    "commandBlocklist",
    "commandDenylist",
)


def _cached_parse(path: str, raw: bytes, dialect: str) -> object:
    from rtok._fast import cachefile

    def rules_only(data: bytes) -> object:
        parsed = _parse(data, dialect)
        if not isinstance(parsed, dict):
            return parsed
        return {key: parsed[key] for key in RULE_KEYS if key in parsed}

    value, _data = cachefile.parse_with_bytes(path, f"settings-{dialect}", rules_only, data=raw)
    return value


def strip_json_comments(text: str, trailing_commas: bool = False) -> str:
    """`text` with `// …` and `/* … */` comments outside strings replaced by blanks (line
    breaks kept, so parse errors still point at the right line), and with
    `trailing_commas` a comma before `}` or `]` blanked too. An unterminated block comment
    raises ValueError."""
    if trailing_commas and "," in text:
        return _strip_trailing_commas(strip_json_comments(text))
    if "/" not in text:
        return text
    out: list[str] = []
    i, n = 0, len(text)
    start = 0
    while i < n:
        c = text[i]
        if c == '"':
            i += 1
            while i < n and text[i] != '"':
                i += 2 if text[i] == "\\" else 1
            i += 1
        elif c == "/" and text.startswith("//", i):
            end = text.find("\n", i)
            end = n if end < 0 else end
            out.append(text[start:i])
            out.append(" " * (end - i))
            i = start = end
        elif c == "/" and text.startswith("/*", i):
            end = text.find("*/", i + 2)
            if end < 0:
                raise ValueError("unterminated /* comment")
            out.append(text[start:i])
            out.append("".join(ch if ch == "\n" else " " for ch in text[i : end + 2]))
            i = start = end + 2
        else:
            i += 1
    out.append(text[start:])
    return "".join(out)


def _strip_trailing_commas(text: str) -> str:
    out = list(text)
    last_comma = -1
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == '"':
            last_comma = -1
            i += 1
            while i < n and text[i] != '"':
                i += 2 if text[i] == "\\" else 1
        elif c == ",":
            last_comma = i
        elif c in "}]":
            if last_comma >= 0:
                out[last_comma] = " "
            last_comma = -1
        elif c not in " \t\r\n":
            last_comma = -1
        i += 1
    return "".join(out)


def _problem(path: str, why: str) -> None:
    problems.append((path, why))
    _warn(path, why)


def _warn(path: str, why: str) -> None:
    if path in _warned:
        return
    _warned.add(path)
    try:
        sys.stderr.write(
            f"rtok: warning: cannot read the permission rules in {path}: {why}; commands are "
            "not rewritten for this host until it is fixed\n"
        )
    except (OSError, ValueError):
        return


def project_root(cwd: str, marker: str) -> str | None:
    """Nearest ancestor of `cwd` (itself included) holding a `marker` directory, else the
    top of the enclosing git work tree (found by walking up to `.git`, no git process)."""
    current = os.path.abspath(cwd)
    git_top = None
    while True:
        if os.path.isdir(os.path.join(current, marker)):
            return current
        if git_top is None and os.path.exists(os.path.join(current, ".git")):
            git_top = current
        parent = os.path.dirname(current)
        if parent == current:
            return git_top
        current = parent


def _strings(value: object) -> list[str]:
    if not isinstance(value, list):
        return []
    return [item.strip() for item in value if isinstance(item, str) and item.strip()]


def _bash_patterns(rules: Iterable[str], tool: str) -> list[str]:
    """Inner patterns of `Tool(…)` rules; a bare `Tool` rule covers every command."""
    out = []
    for rule in rules:
        if rule == tool:
            out.append("*")
        elif rule.startswith(tool + "(") and rule.endswith(")"):
            out.append(rule[len(tool) + 1 : -1])
    return out


def claude_config_dir() -> str:
    configured = os.environ.get("CLAUDE_CONFIG_DIR", "")
    if configured:
        return configured
    return os.path.join(os.environ.get("HOME") or os.path.expanduser("~"), ".claude")


def _claude_managed_settings() -> str:
    """The administrator's policy file; its deny rules bind every user and project."""
    if sys.platform == "darwin":
        return "/Library/Application Support/ClaudeCode/managed-settings.json"
    if os.name == "nt":
        return os.path.join(
            os.environ.get("PROGRAMDATA", r"C:\ProgramData"), "ClaudeCode", "managed-settings.json"
        )
    return "/etc/claude-code/managed-settings.json"


MANAGED_SETTINGS = _claude_managed_settings()


def claude_settings_files(cwd: str) -> list[str]:
    """Project `settings.json` and `settings.local.json`, then the user's two files, then
    the managed policy file when an administrator installed one."""
    files = []
    root = project_root(cwd, ".claude")
    if root is not None:
        files += [
            os.path.join(root, ".claude", "settings.json"),
            os.path.join(root, ".claude", "settings.local.json"),
        ]
    user = claude_config_dir()
    files += [os.path.join(user, "settings.json"), os.path.join(user, "settings.local.json")]
    files.append(MANAGED_SETTINGS)
    return _unique(files)


def claude_rules(cwd: str) -> Rules:
    """`permissions.deny|ask|allow` `Bash(…)` rules merged from Claude's settings files."""
    return _permission_rules(claude_settings_files(cwd), "Bash")


def codebuddy_settings_files(cwd: str) -> list[str]:
    """CodeBuddy Code's settings files, in Claude's layout under `.codebuddy/`: the
    project's `settings.json` and `settings.local.json`, then the user's two files."""
    files = []
    root = project_root(cwd, ".codebuddy")
    if root is not None:
        files += [
            os.path.join(root, ".codebuddy", "settings.json"),
            os.path.join(root, ".codebuddy", "settings.local.json"),
        ]
    user = os.environ.get("CODEBUDDY_CONFIG_DIR", "").strip() or os.path.join(
        os.environ.get("HOME") or os.path.expanduser("~"), ".codebuddy"
    )
    files += [os.path.join(user, "settings.json"), os.path.join(user, "settings.local.json")]
    return _unique(files)


def codebuddy_rules(cwd: str) -> Rules:
    """`permissions.deny|ask|allow` `Bash(…)` rules merged from CodeBuddy Code's settings."""
    return _permission_rules(codebuddy_settings_files(cwd), "Bash")


def cursor_rules(cwd: str) -> Rules:
    """Cursor CLI's `~/.cursor/cli-config.json`: `permissions.allow|deny` with `Shell(…)`."""
    del cwd  # Cursor keeps shell permissions per user only
    home = os.environ.get("HOME") or os.path.expanduser("~")
    return _permission_rules([os.path.join(home, ".cursor", "cli-config.json")], "Shell")


def _permission_rules(files: list[str], tool: str) -> Rules:
    deny: list[str] = []
    ask: list[str] = []
    allow: list[str] = []
    for path in files:
        settings = read_settings(path)
        if settings is None:
            continue
        permissions = settings.get("permissions")
        if not isinstance(permissions, dict):
            continue
        deny += _bash_patterns(_strings(permissions.get("deny")), tool)
        ask += _bash_patterns(_strings(permissions.get("ask")), tool)
        allow += _bash_patterns(_strings(permissions.get("allow")), tool)
    return deny, ask, allow


def gemini_rules(cwd: str) -> Rules:
    """Gemini CLI's `tools.allowed` (run without confirmation) and `tools.exclude` /
    legacy `excludeTools` (blocked) `run_shell_command(…)` / `ShellTool(…)` entries.

    The user file is `${GEMINI_CLI_HOME:-~}/.gemini/settings.json`; a project's
    `.gemini/settings.json` counts only when Gemini trusts the workspace
    (`GEMINI_CLI_TRUST_WORKSPACE=true`, or folder trust not enabled). Exclusions add up;
    a project's allow list replaces the user's, as Gemini's settings merge does.
    """
    home = os.environ.get("GEMINI_CLI_HOME", "") or os.environ.get("HOME", "")
    trusted = os.environ.get("GEMINI_CLI_TRUST_WORKSPACE", "").lower() == "true"
    return _gemini_family_rules(cwd, home, ".gemini", trusted)


def qwen_rules(cwd: str) -> Rules:
    """Qwen Code (a Gemini CLI fork): the same keys in `~/.qwen/settings.json` and a
    trusted project's `.qwen/settings.json`."""
    return _gemini_family_rules(cwd, os.environ.get("HOME", ""), ".qwen", False)


def _gemini_family_rules(cwd: str, home: str, folder: str, trusted_by_env: bool) -> Rules:
    user_path = os.path.join(home or os.path.expanduser("~"), folder, "settings.json")
    user = read_settings(user_path, "jsonc") or {}
    layers = [user]
    root = project_root(cwd, folder)
    if root is not None and (trusted_by_env or _folder_trust_off(user)):
        project_path = os.path.join(root, folder, "settings.json")
        if os.path.normpath(project_path) != os.path.normpath(user_path):
            project = read_settings(project_path, "jsonc")
            if project is not None:
                layers.append(project)
    deny: list[str] = []
    allow: list[str] = []
    for layer in layers:
        tools = layer.get("tools")
        tools = tools if isinstance(tools, dict) else {}
        excluded = _strings(tools.get("exclude")) + _strings(layer.get("excludeTools"))
        deny += _gemini_patterns(excluded)
        if "allowed" in tools:
            allow = _gemini_patterns(_strings(tools.get("allowed")))
    return deny, [], allow


def _gemini_patterns(rules: list[str]) -> list[str]:
    return _bash_patterns(rules, "run_shell_command") + _bash_patterns(rules, "ShellTool")


def _folder_trust_off(user: dict[str, object]) -> bool:
    """Without folder trust enabled, Gemini (and Qwen) read every workspace's settings."""
    security = user.get("security")
    folder_trust = security.get("folderTrust") if isinstance(security, dict) else None
    enabled = folder_trust.get("enabled") if isinstance(folder_trust, dict) else None
    return enabled is not True


def _user_config_toml(env_var: str, default_folder: str) -> str:
    """`${env_var:-~/default_folder}/config.toml`, the per-user config of a TOML host."""
    home = os.environ.get(env_var, "")
    if not home:
        home = os.path.join(os.environ.get("HOME") or os.path.expanduser("~"), default_folder)
    return os.path.join(home, "config.toml")


def _parsed_toml(path: str, key: str, parse: Callable[[bytes], object]) -> tuple[bool, object]:
    """(readable, what `parse` made of the file), parsed only when it changes
    (`rtok._fast.cachefile`). An unreadable or non-TOML file is a problem of this host's rules:
    (False, None), so the caller rewrites nothing for it."""
    try:
        from rtok._fast import cachefile

        return True, cachefile.cached_parse(path, key, parse)
    except Exception as error:  # unreadable or not TOML: no rewrite for this host
        _problem(path, f"cannot read it as TOML ({error})")
        return False, None


def vibe_rules(cwd: str) -> Rules:
    """Mistral Vibe's `[tools.bash] denylist` from `${VIBE_HOME:-~/.vibe}/config.toml`.

    Only the deny list matters: Vibe's reply carries no decision, and a rewrite must not
    slip past a command the user blocked. The TOML is parsed only when the file changes
    (`rtok._fast.cachefile`); Vibe's built-in deny list (editors, debuggers, interactive shells)
    names nothing rtok rewrites.
    """
    del cwd  # Vibe keeps tool settings per user
    path = _user_config_toml("VIBE_HOME", ".vibe")
    readable, parsed = _parsed_toml(path, "vibe-bash-denylist", _vibe_denylist)
    return (_strings(parsed), [], []) if readable else ([], [], [])


def _vibe_denylist(data: bytes) -> list[str]:
    import tomllib

    config = tomllib.loads(data.decode("utf-8"))
    tools = config.get("tools")
    bash = tools.get("bash") if isinstance(tools, dict) else None
    denylist = bash.get("denylist") if isinstance(bash, dict) else None
    return _strings(denylist)


def grok_config_files(cwd: str) -> list[str]:
    """Grok Build's own config files with `[permission]` tables: the user's
    `${GROK_HOME:-~/.grok}/config.toml`, then `.grok/config.toml` of every folder from the
    git top level down to `cwd` (outside a repository, of `cwd` only)."""
    home = os.environ.get("GROK_HOME", "").strip() or os.path.join(
        os.environ.get("HOME") or os.path.expanduser("~"), ".grok"
    )
    files = [os.path.join(home, "config.toml")]
    top = project_root(cwd, ".git")
    current = os.path.abspath(cwd)
    folders = [] if top is not None else [current]  # outside a repository: cwd only
    while top is not None:
        folders.append(current)
        parent = os.path.dirname(current)
        if current == top or parent == current:
            break
        current = parent
    files += [os.path.join(folder, ".grok", "config.toml") for folder in reversed(folders)]
    return _unique(files)


def grok_rules(cwd: str) -> Rules:
    """Grok Build's rules: those of Claude's settings files, which Grok merges into its own,
    plus the `[permission]` tables of its config files (`allow`, `ask`, `deny` lists of
    `Bash(…)` rules, and `rules` entries with `tool = "bash"`). The TOML is parsed only when
    a file changes (`rtok._fast.cachefile`).

    Ask rules count as deny: Grok judges the command the model sends after rtok's
    suggestion, and `rtok run git log` no longer matches `Bash(git log *)`, so a command
    the user wants to be asked about is left to Grok."""
    deny, ask, allow = claude_rules(cwd)
    for path in grok_config_files(cwd):
        readable, parsed = _parsed_toml(path, "grok-permission", _grok_permission)
        if readable and isinstance(parsed, list) and len(parsed) == 3:
            deny += _strings(parsed[0])
            ask += _strings(parsed[1])
            allow += _strings(parsed[2])
    return deny + ask, [], allow


def _grok_permission(data: bytes) -> list[list[str]]:
    import tomllib

    table = tomllib.loads(data.decode("utf-8")).get("permission")
    if not isinstance(table, dict):
        return [[], [], []]
    found = {
        action: _bash_patterns(_strings(table.get(action)), "Bash")
        for action in ("deny", "ask", "allow")
    }
    rules = table.get("rules")
    for rule in rules if isinstance(rules, list) else []:
        if not isinstance(rule, dict) or str(rule.get("tool", "")).lower() != "bash":
            continue
        action, pattern = rule.get("action"), rule.get("pattern", "*")
        if action in found and isinstance(pattern, str) and pattern.strip():
            found[action].append(pattern.strip())
    return [found["deny"], found["ask"], found["allow"]]


def codex_rules(cwd: str) -> Rules:
    """Codex's execpolicy rules: `prefix_rule(pattern=[…], decision=…)` in the `*.rules`
    files of `${CODEX_HOME:-~/.codex}/rules/` and of the project's `.codex/rules/`.

    "forbidden" and "prompt" both become deny: Codex applies its rules to the command it
    runs, and `rtok run git push` no longer matches a rule for `git push`, so rtok leaves
    such commands untouched for Codex to judge. Each file is parsed only when it changes.
    """
    home = os.environ.get("CODEX_HOME", "")
    if not home:
        home = os.path.join(os.environ.get("HOME") or os.path.expanduser("~"), ".codex")
    folders = [os.path.join(home, "rules")]
    root = project_root(cwd, ".codex")
    if root is not None:
        folders.append(os.path.join(root, ".codex", "rules"))
    deny: list[str] = []
    for folder in _unique(folders):
        try:
            names = sorted(name for name in os.listdir(folder) if name.endswith(".rules"))
        except OSError:
            continue
        for name in names:
            path = os.path.join(folder, name)
            try:
                from rtok._fast import cachefile

                parsed = cachefile.cached_parse(path, "codex-rules", _codex_prefix_rules)
            except Exception as error:  # not Starlark rtok can read: no rewrite for Codex
                _problem(path, f"cannot read its prefix_rule() calls ({error})")
                continue
            if isinstance(parsed, list):
                deny += [
                    rule[0]
                    for rule in parsed
                    if isinstance(rule, list)
                    and len(rule) == 2
                    and rule[1] in ("forbidden", "prompt")
                    and isinstance(rule[0], str)
                ]
    return deny, [], []


# Alternatives in a pattern multiply; past this many prefixes a rule file is not read.
_MAX_PREFIXES = 512


def _codex_prefix_rules(data: bytes) -> list[list[str]]:
    """[prefix, decision] for each `prefix_rule(...)` call (Starlark read as Python)."""
    import ast

    tree = ast.parse(data.decode("utf-8"))
    rules: list[list[str]] = []
    for node in ast.walk(tree):
        if not (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == "prefix_rule"
        ):
            continue
        args = {kw.arg: kw.value for kw in node.keywords if kw.arg}
        if "pattern" not in args:
            continue
        pattern = ast.literal_eval(args["pattern"])
        decision = ast.literal_eval(args["decision"]) if "decision" in args else "allow"
        if not isinstance(pattern, list) or not isinstance(decision, str):
            raise ValueError("prefix_rule needs a list pattern and a string decision")
        prefixes = [""]
        for token in pattern:
            choices = token if isinstance(token, list) else [token]
            if not all(isinstance(choice, str) for choice in choices):
                raise ValueError("pattern items are strings or lists of strings")
            prefixes = [f"{p} {c}".strip() for p in prefixes for c in choices]
            if len(prefixes) > _MAX_PREFIXES:
                raise ValueError("too many alternatives in a pattern")
        rules += [[prefix, decision] for prefix in prefixes if prefix]
    return rules


def droid_settings_files(cwd: str) -> list[str]:
    files = []
    home = os.environ.get("FACTORY_HOME_OVERRIDE", "") or os.environ.get("HOME", "")
    if not home:
        home = os.path.expanduser("~")
    user = os.path.join(home, ".factory")
    files += [os.path.join(user, "settings.json"), os.path.join(user, "settings.local.json")]
    root = project_root(cwd, ".factory")
    if root is not None:
        files += [
            os.path.join(root, ".factory", "settings.json"),
            os.path.join(root, ".factory", "settings.local.json"),
        ]
    return _unique(files)


def droid_rules(cwd: str) -> Rules:
    """Droid's `commandBlocklist` (hard stop) and `commandDenylist` (Droid asks first).

    Both are deny for rtok: rewriting such a command would hide it from Droid's own
    check (its list says `rm -rf`, the rewrite says `rtok run rm -rf`), so rtok leaves it
    untouched and Droid decides. Droid's allow list never lets rtok approve anything:
    the hook reply carries no decision.
    """
    deny: list[str] = []
    for path in droid_settings_files(cwd):
        settings = read_settings(path)
        if settings is None:
            continue
        deny += _strings(settings.get("commandBlocklist"))
        deny += _strings(settings.get("commandDenylist"))
    return deny, [], []


def _unique(paths: list[str]) -> list[str]:
    seen: set[str] = set()
    out = []
    for path in paths:
        key = os.path.normpath(path)
        if key not in seen:
            seen.add(key)
            out.append(path)
    return out


# Auggie's tool permissions apply to launch-process (and its shell/bash aliases); a rule
# with `shellInputRegex` is a JavaScript regular expression searched in the command.
_AUGGIE_SHELL_TOOLS = ("launch-process", "shell", "bash")


def auggie_settings_files(cwd: str) -> list[str]:
    """The workspace's `.augment/settings.local.json` and `settings.json` (workspace = the
    nearest ancestor with `.augment/`, else the git top level), then `~/.augment`'s."""
    files: list[str] = []
    root = project_root(cwd, ".augment")
    if root is not None:
        folder = os.path.join(root, ".augment")
        files += [
            os.path.join(folder, "settings.local.json"),
            os.path.join(folder, "settings.json"),
        ]
    files.append(os.path.join(os.environ.get("HOME", ""), ".augment", "settings.json"))
    return _unique(files)


def auggie_shell_rules(cwd: str) -> list[tuple[str, str]]:
    """(permission type, regex or "" for every command) of each `toolPermissions` rule
    for shell tool calls, in file order."""
    rules: list[tuple[str, str]] = []
    for path in auggie_settings_files(cwd):
        settings = read_settings(path)
        entries = settings.get("toolPermissions") if settings is not None else None
        for rule in entries if isinstance(entries, list) else []:
            if not isinstance(rule, dict) or rule.get("toolName") not in _AUGGIE_SHELL_TOOLS:
                continue
            if rule.get("eventType", "tool-call") != "tool-call":
                continue
            permission = rule.get("permission")
            kind = permission.get("type") if isinstance(permission, dict) else None
            regex = rule.get("shellInputRegex", "")
            if isinstance(kind, str) and isinstance(regex, str):
                rules.append((kind, regex))
    return rules


def auggie_verdict(cmd: str, cwd: str) -> str:
    """ "deny" when any of the user's Auggie shell rules matches `cmd`, else "default".

    Auggie judges the command it finally runs against these rules; `rtok run git push`
    no longer matches `^git push`, so a command any rule speaks about (deny, ask-user,
    a webhook or script policy, or allow: an allow may sit before a catch-all deny) is
    left untouched and Auggie decides on the original. A regex Python cannot read counts
    as a match. Each rule sees the command as written and every reading bash could run
    (quotes removed, wrappers peeled, …). Tenant rules from Augment's backend are out of
    rtok's reach.
    """
    rules = auggie_shell_rules(cwd)
    if not rules:
        return "default"
    import re  # only when the user has such rules: the hook does not pay for it otherwise

    texts = [cmd, *_readings_of(cmd)]
    for _kind, regex in rules:
        if not regex:
            return "deny"
        try:
            if any(re.search(regex, text) for text in texts):
                return "deny"
        except (re.error, RecursionError):
            return "deny"
    from rtok.permissions.verdict import is_opaque

    # A line running what no reading shows (`python3 -c …`): no rule can be checked.
    return "opaque" if is_opaque(cmd) else "default"


def _readings_of(cmd: str) -> list[str]:
    """Every reading of every command bash could run for `cmd` (rtok.shell.readings):
    Auggie's regex sees the text only; `"git" push` is still a push."""
    from rtok.shell.readings import all_readings
    from rtok.shell.segments import TooDeep, permission_commands

    try:
        commands = permission_commands(cmd)
    except TooDeep:
        return []
    return [
        form
        for words, dialect, _direct in commands
        for reading in all_readings(words, dialect)
        for form in reading.forms
    ]


def kimi_rules(cwd: str) -> Rules:
    """Kimi Code's `[permission]` deny and ask rules for its `Bash` tool, from
    `${KIMI_CODE_HOME:-~/.kimi-code}/config.toml` (`rules = [{decision, pattern}]` and the
    `deny` / `ask` lists of `{tool, match}`), both as deny.

    Kimi judges the command the model sends after rtok's suggestion, and `rtok run git
    push` no longer matches `Bash(git push*)`; such a command is left to Kimi. Its globs
    are read at least as broadly as Kimi reads them. Allow rules do not matter: the hook
    only ever suggests. The TOML is parsed only when the file changes.
    """
    del cwd  # Kimi keeps permission rules per user
    path = _user_config_toml("KIMI_CODE_HOME", ".kimi-code")
    readable, parsed = _parsed_toml(path, "kimi-bash-rules", _kimi_bash_patterns)
    return (_strings(parsed), [], []) if readable else ([], [], [])


def _kimi_bash_patterns(data: bytes) -> list[str]:
    import tomllib

    permission = tomllib.loads(data.decode("utf-8")).get("permission")
    if not isinstance(permission, dict):
        return []
    entries: list[tuple[object, object]] = []
    for key in ("deny", "ask"):
        value = permission.get(key)
        entries += [(key, item) for item in (value if isinstance(value, list) else [value])]
    rules = permission.get("rules")
    for item in rules if isinstance(rules, list) else []:
        entries.append((item.get("decision") if isinstance(item, dict) else None, item))
    patterns: list[str] = []
    for decision, item in entries:
        if decision not in ("deny", "ask") or not isinstance(item, dict):
            continue
        tool, args = _kimi_rule_parts(item)
        if tool and (tool == "Bash" or any(c in tool for c in "*?[{")):
            patterns.append(_kimi_glob_as_pattern(args))
    return patterns


def _kimi_rule_parts(item: dict[str, object]) -> tuple[str, str]:
    """(tool name pattern, argument glob) of one rule: `tool` + `match`, or `Tool(glob)`."""
    tool = item.get("tool")
    if isinstance(tool, str):
        match = item.get("match", item.get("pattern"))
        return tool.strip(), match.strip() if isinstance(match, str) else ""
    pattern = item.get("pattern")
    if not isinstance(pattern, str):
        return "", ""
    pattern = pattern.strip()
    if "(" not in pattern or not pattern.endswith(")"):
        return pattern, ""
    name, _, args = pattern[:-1].partition("(")
    return name.strip(), args.strip()


def _kimi_glob_as_pattern(glob: str) -> str:
    """A Kimi argument glob as a pattern of rtok's matcher that matches at least as much:
    its `*` crosses word ends (a trailing one becomes a plain prefix), and a glob with any
    other special character is cut to the literal text before it."""
    if not glob or glob.startswith("!"):
        return "*"  # every command, or every command but some: judged by Kimi alone
    cut = min((glob.find(c) for c in "?[]{}()+@" if c in glob), default=-1)
    if cut >= 0:
        glob = glob[:cut] + "*"
    return glob + "*" if glob.endswith("*") else glob
