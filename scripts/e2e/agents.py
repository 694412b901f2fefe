"""How each pinned agent CLI runs headless and offline against the fake model.

One `AgentProfile` per agent: the shell tool the model should call, the offline config it
needs (written into the run's throwaway HOME before rtok is installed, the way a user's
existing config would be), its env, its command line and any set-up steps.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from dataclasses import dataclass, field

from e2e.pins import NPM_AGENTS, PYPI_AGENTS, RUNTIMES, agent_package, agent_version, npm_cache

FAKE_KEY = "sk-dummy"
MODEL = "fake-model"


@dataclass
class RunContext:
    """Everything about one agent run that a profile needs to know."""

    agent: str
    home: str
    cwd: str
    run_dir: str
    port: int
    hub_port: int  # a second free port (Cline's hub daemon)

    @property
    def base_v1(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"


@dataclass
class Step:
    """A command run before the agent itself (same env, same namespace)."""

    name: str
    argv: list[str]
    timeout: float = 60.0


@dataclass
class AgentProfile:
    name: str
    label: str  # product name for reports
    tool_names: list[str]
    configure: Callable[[RunContext], dict[str, str]]  # writes files, returns extra env
    command: Callable[[RunContext, list[str], str], list[str]]  # (ctx, bin, prompt) -> argv
    pre_steps: Callable[[RunContext, list[str]], list[Step]] = lambda ctx, exe: []
    # What a user of the agent has already done to let project-local config load at all.
    trust_project: Callable[[RunContext], None] = lambda ctx: None
    follow_suggestions: bool = False
    # Other agents whose hook files this agent also runs: the round trip installs rtok for
    # them too, and their hooks must leave this agent's calls unanswered.
    companions: tuple[str, ...] = ()
    backend: str = ""  # "augment": the fake serves Augment's backend, not a model API
    timeout: float = 120.0
    notes: str = ""
    extra: dict[str, str] = field(default_factory=dict)

    @property
    def package(self) -> str:
        return agent_package(self.name)

    @property
    def version(self) -> str:
        return agent_version(self.name)


# --- locating binaries ------------------------------------------------------------------


def agent_executable(agent: str) -> list[str]:
    """argv prefix that starts the installed agent (bin resolved from its package.json)."""
    if agent in PYPI_AGENTS:
        return [PYPI_AGENTS[agent].executable]
    pkg = NPM_AGENTS[agent]
    if agent == "claude":
        # The postinstall hard-links the native binary over bin/claude.exe; if it did not
        # run, use the platform package's binary directly.
        linked = os.path.join(pkg.package_dir, "bin", "claude.exe")
        if os.path.exists(linked) and os.path.getsize(linked) > 10_000_000:
            return [linked]
        base = os.path.join(pkg.prefix, "node_modules", "@anthropic-ai")
        for entry in sorted(os.listdir(base)) if os.path.isdir(base) else []:
            if entry.startswith("claude-code-linux-"):
                return [os.path.join(base, entry, "claude")]
        return [linked]
    with open(os.path.join(pkg.package_dir, "package.json"), encoding="utf-8") as handle:
        bins = json.load(handle).get("bin")
    target = bins if isinstance(bins, str) else next(iter(bins.values()))
    return [os.path.normpath(os.path.join(pkg.package_dir, target))]


def path_dirs(agent: str) -> list[str]:
    """Directories put first on the agent's PATH: its runtime, then its own bin dir."""
    dirs = []
    if agent in RUNTIMES:
        dirs.append(RUNTIMES[agent].bin_dir)
    if agent in NPM_AGENTS:
        dirs.append(NPM_AGENTS[agent].bin_dir)
    else:
        dirs.append(PYPI_AGENTS[agent].bin_dir)
    return dirs


# --- config helpers ---------------------------------------------------------------------


def _write(path: str, text: str) -> None:
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(text)


def _write_json(path: str, value: object) -> None:
    _write(path, json.dumps(value, indent=2) + "\n")


def _openai_compatible_json(ctx: RunContext) -> dict[str, object]:
    """OpenCode's (and Kilo's) extra config file: a local provider and shell approval."""
    return {
        "provider": {
            "local": {
                "npm": "@ai-sdk/openai-compatible",
                "name": "local fake",
                "options": {"baseURL": ctx.base_v1, "apiKey": FAKE_KEY},
                "models": {MODEL: {"name": "Fake model", "tool_call": True}},
            }
        },
        "model": f"local/{MODEL}",
        "small_model": f"local/{MODEL}",
        "permission": {"bash": "allow", "external_directory": "allow"},
        "autoupdate": False,
        "share": "disabled",
    }


def _npm_offline() -> dict[str, str]:
    return {
        "npm_config_cache": npm_cache(),
        "npm_config_offline": "true",
        "npm_config_audit": "false",
        "npm_config_fund": "false",
    }


def _pi_provider(ctx: RunContext) -> dict[str, object]:
    return {
        "baseUrl": ctx.base_v1,
        "api": "openai-completions",
        "apiKey": FAKE_KEY,
        "compat": {"supportsDeveloperRole": False, "supportsReasoningEffort": False},
        "models": [
            {
                "id": MODEL,
                "name": "Fake model",
                "reasoning": False,
                "input": ["text"],
                "contextWindow": 128000,
                "maxTokens": 4096,
                "cost": {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0},
            }
        ],
    }


# --- per agent --------------------------------------------------------------------------


def _claude_config(ctx: RunContext) -> dict[str, str]:
    model = "claude-sonnet-4-5"
    return {
        "ANTHROPIC_BASE_URL": ctx.base,
        "ANTHROPIC_API_KEY": "sk-ant-dummy",
        "ANTHROPIC_MODEL": model,
        "ANTHROPIC_SMALL_FAST_MODEL": model,
        "ANTHROPIC_DEFAULT_HAIKU_MODEL": model,
        "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
        "DISABLE_TELEMETRY": "1",
        "DISABLE_ERROR_REPORTING": "1",
        "DISABLE_AUTOUPDATER": "1",
        "DISABLE_BUG_COMMAND": "1",
        "CLAUDE_CODE_DISABLE_TERMINAL_TITLE": "1",
        "CLAUDE_CODE_MAX_RETRIES": "0",
        "API_TIMEOUT_MS": "60000",
    }


def _claude_command(ctx: RunContext, exe: list[str], prompt: str) -> list[str]:
    return [
        *exe,
        "-p",
        prompt,
        "--model",
        "claude-sonnet-4-5",
        "--output-format",
        "json",
        "--permission-mode",
        "default",
        "--no-session-persistence",
        "--allowedTools",
        "Bash",
    ]


def _codex_config(ctx: RunContext) -> dict[str, str]:
    codex_home = os.path.join(ctx.home, ".codex")
    _write(
        os.path.join(codex_home, "config.toml"),
        (
            "[model_providers.local]\n"
            'name = "local fake model"\n'
            f'base_url = "{ctx.base_v1}"\n'
            'wire_api = "responses"\n'
            'env_key = "FAKE_API_KEY"\n'
            "request_max_retries = 0\n"
            "stream_max_retries = 0\n"
            "stream_idle_timeout_ms = 60000\n"
            "supports_websockets = false\n"
        ),
    )
    return {"CODEX_HOME": codex_home, "FAKE_API_KEY": FAKE_KEY, "RUST_LOG": "warn"}


def _codex_trust_project(ctx: RunContext) -> None:
    # Codex ignores a project's .codex/ until the user trusts the project (the TUI asks on
    # first start; `codex exec` prints "Untrusted project-local configuration is disabled").
    with open(os.path.join(ctx.home, ".codex", "config.toml"), "a", encoding="utf-8") as handle:
        handle.write(f'\n[projects."{ctx.cwd}"]\ntrust_level = "trusted"\n')


def _codex_command(ctx: RunContext, exe: list[str], prompt: str) -> list[str]:
    return [
        *exe,
        "exec",
        "-c",
        'model_provider="local"',
        "-c",
        'model="gpt-5.5"',
        "-c",
        'approval_policy="never"',
        "-c",
        "analytics.enabled=false",
        "-c",
        "check_for_update_on_startup=false",
        "--disable",
        "plugins",
        "--disable",
        "apps",
        "--disable",
        "remote_plugin",
        "-s",
        "danger-full-access",
        "--skip-git-repo-check",
        "--ephemeral",
        "--color",
        "never",
        "-C",
        ctx.cwd,
        prompt,
    ]


def _gemini_config(ctx: RunContext) -> dict[str, str]:
    _write_json(
        os.path.join(ctx.home, ".gemini", "settings.json"),
        {
            "security": {"auth": {"selectedType": "gemini-api-key"}},
            "privacy": {"usageStatisticsEnabled": False},
            "telemetry": {"enabled": False},
            "general": {"enableAutoUpdate": False, "enableAutoUpdateNotification": False},
        },
    )
    return {
        "GEMINI_API_KEY": "dummy",
        "GOOGLE_GEMINI_BASE_URL": ctx.base,
        "GEMINI_TELEMETRY_ENABLED": "false",
        "GEMINI_CLI_TRUST_WORKSPACE": "true",
        "GEMINI_CLI_NO_RELAUNCH": "true",
    }


def _gemini_command(ctx: RunContext, exe: list[str], prompt: str) -> list[str]:
    return [
        *exe,
        "-p",
        prompt,
        "-m",
        "gemini-2.5-pro",
        "--approval-mode",
        "yolo",
        "--output-format",
        "json",
        "--skip-trust",
    ]


def _opencode_config(ctx: RunContext) -> dict[str, str]:
    path = os.path.join(ctx.run_dir, "opencode-offline.json")
    _write_json(
        path, {"$schema": "https://opencode.ai/config.json", **_openai_compatible_json(ctx)}
    )
    return {
        "OPENCODE_CONFIG": path,
        "OPENCODE_DISABLE_MODELS_FETCH": "1",
        "OPENCODE_DISABLE_AUTOUPDATE": "1",
        "OPENCODE_DISABLE_SHARE": "1",
        "OPENCODE_DISABLE_LSP_DOWNLOAD": "1",
        **_npm_offline(),
    }


def _opencode_command(ctx: RunContext, exe: list[str], prompt: str) -> list[str]:
    return [*exe, "run", "--format", "json", "--model", f"local/{MODEL}", prompt]


def _kilo_config(ctx: RunContext) -> dict[str, str]:
    path = os.path.join(ctx.run_dir, "kilo-offline.json")
    _write_json(path, _openai_compatible_json(ctx))
    return {
        "KILO_CONFIG": path,
        "KILO_DISABLE_MODELS_FETCH": "1",
        "KILO_DISABLE_AUTOUPDATE": "1",
        "KILO_DISABLE_SHARE": "1",
        "KILO_DISABLE_LSP_DOWNLOAD": "1",
        "KILO_DISABLE_CODEBASE_INDEXING": "1",
        "KILO_DISABLE_SESSION_INGEST": "1",
        **_npm_offline(),
    }


def _pi_config(ctx: RunContext) -> dict[str, str]:
    _write_json(
        os.path.join(ctx.home, ".pi", "agent", "models.json"),
        {"providers": {"local": _pi_provider(ctx)}},
    )
    return {"PI_OFFLINE": "1", "PI_TELEMETRY": "0"}


def _pi_command(ctx: RunContext, exe: list[str], prompt: str) -> list[str]:
    return [
        *exe,
        "--offline",
        "--no-session",
        "--mode",
        "json",
        "-p",
        "--model",
        f"local/{MODEL}",
        prompt,
    ]


def _omp_config(ctx: RunContext) -> dict[str, str]:
    # JSON is valid YAML, so the provider block can be written without a YAML library.
    _write(
        os.path.join(ctx.home, ".omp", "agent", "models.yml"),
        json.dumps({"providers": {"local": _pi_provider(ctx)}}, indent=2) + "\n",
    )
    return {"PI_OFFLINE": "1", "PI_TELEMETRY": "0", "PI_NO_TITLE": "1"}


def _omp_command(ctx: RunContext, exe: list[str], prompt: str) -> list[str]:
    return [
        *exe,
        "--no-session",
        "--no-title",
        "--yolo",
        "--mode",
        "json",
        "-p",
        "--model",
        f"local/{MODEL}",
        prompt,
    ]


def _vibe_config(ctx: RunContext) -> dict[str, str]:
    vibe_home = os.path.join(ctx.home, ".vibe")
    _write(
        os.path.join(vibe_home, "config.toml"),
        (
            'active_model = "local-fake"\n'
            "enable_telemetry = false\n"
            "enable_update_checks = false\n"
            "enable_notifications = false\n"
            "bypass_tool_permissions = true\n\n"
            "[[providers]]\n"
            'name = "local"\n'
            f'api_base = "{ctx.base_v1}"\n'
            'api_key_env_var = "FAKE_API_KEY"\n'
            'backend = "generic"\n\n'
            "[[models]]\n"
            f'name = "{MODEL}"\n'
            'provider = "local"\n'
            'alias = "local-fake"\n'
            "temperature = 0.2\n"
            "input_price = 0.0\n"
            "output_price = 0.0\n"
        ),
    )
    return {"VIBE_HOME": vibe_home, "FAKE_API_KEY": FAKE_KEY}


def _vibe_command(ctx: RunContext, exe: list[str], prompt: str) -> list[str]:
    return [*exe, "-p", prompt, "--auto-approve", "--trust", "--output", "json", "--max-turns", "4"]


def _hermes_config(ctx: RunContext) -> dict[str, str]:
    hermes_home = os.path.join(ctx.home, ".hermes")
    _write(
        os.path.join(hermes_home, "config.yaml"),
        (
            "model:\n"
            "  provider: custom\n"
            f"  default: {MODEL}\n"
            f"  base_url: {ctx.base_v1}\n"
            f"  api_key: {FAKE_KEY}\n"
            "security:\n"
            "  tirith_enabled: false\n"
        ),
    )
    return {"HERMES_HOME": hermes_home, "HERMES_ACCEPT_HOOKS": "1"}


def _hermes_command(ctx: RunContext, exe: list[str], prompt: str) -> list[str]:
    return [*exe, "chat", "-Q", "--yolo", "--source", "tool", "--max-turns", "4", "-q", prompt]


def _qwen_config(ctx: RunContext) -> dict[str, str]:
    _write_json(
        os.path.join(ctx.home, ".qwen", "settings.json"),
        {
            "modelProviders": {
                "openai": [
                    {
                        "id": MODEL,
                        "name": "local fake",
                        "baseUrl": ctx.base_v1,
                        "envKey": "FAKE_API_KEY",
                    }
                ]
            },
            "security": {"auth": {"selectedType": "openai"}},
            "model": {"name": MODEL},
            "privacy": {"usageStatisticsEnabled": False},
            "telemetry": {"enabled": False},
            "general": {"disableAutoUpdate": True, "disableUpdateNag": True},
        },
    )
    return {"FAKE_API_KEY": FAKE_KEY, "QWEN_CODE_SUPPRESS_YOLO_WARNING": "1"}


def _qwen_command(ctx: RunContext, exe: list[str], prompt: str) -> list[str]:
    return [*exe, "-p", prompt, "--approval-mode", "yolo", "--output-format", "json"]


def _copilot_config(ctx: RunContext) -> dict[str, str]:
    return {
        "COPILOT_HOME": os.path.join(ctx.home, ".copilot"),
        "COPILOT_OFFLINE": "true",
        "COPILOT_PROVIDER_TYPE": "openai",
        "COPILOT_PROVIDER_BASE_URL": ctx.base_v1,
        "COPILOT_PROVIDER_API_KEY": FAKE_KEY,
        "COPILOT_MODEL": MODEL,
        "COPILOT_AUTO_UPDATE": "false",
    }


def _copilot_trust_project(ctx: RunContext) -> None:
    # Copilot CLI reads a repository's .github/hooks/ only in a folder the user trusted (it
    # asks on first start in a folder and records the answer in config.json).
    _write_json(os.path.join(ctx.home, ".copilot", "config.json"), {"trusted_folders": [ctx.cwd]})


def _copilot_command(ctx: RunContext, exe: list[str], prompt: str) -> list[str]:
    return [
        *exe,
        "-p",
        prompt,
        "--allow-all-tools",
        "--disable-client-telemetry",
        "--no-auto-update",
        "-s",
    ]


def _droid_config(ctx: RunContext) -> dict[str, str]:
    _write_json(
        os.path.join(ctx.home, ".factory", "settings.json"),
        {
            "customModels": [
                {
                    "model": MODEL,
                    "displayName": "Local Fake",
                    "baseUrl": ctx.base_v1,
                    "apiKey": FAKE_KEY,
                    "provider": "generic-chat-completion-api",
                    "maxOutputTokens": 4096,
                }
            ]
        },
    )
    return {}


def _droid_command(ctx: RunContext, exe: list[str], prompt: str) -> list[str]:
    return [
        *exe,
        "exec",
        "--skip-permissions-unsafe",
        "-m",
        f"custom:{MODEL}",
        "-o",
        "json",
        prompt,
    ]


def _auggie_config(ctx: RunContext) -> dict[str, str]:
    # Auggie has no model endpoint setting: the session's tenant URL is the fake backend.
    auth = {"accessToken": FAKE_KEY, "tenantURL": ctx.base + "/", "scopes": ["email"]}
    _write_json(os.path.join(ctx.home, ".augment", "settings.json"), {})
    return {"AUGMENT_SESSION_AUTH": json.dumps(auth), "AUGMENT_DISABLE_AUTO_UPDATE": "1"}


def _auggie_command(ctx: RunContext, exe: list[str], prompt: str) -> list[str]:
    # `-w DIR PROMPT` reads the prompt as part of the path: name both explicitly.
    return [
        *exe,
        "--print",
        "--dont-save-session",
        "--max-turns",
        "4",
        f"--workspace-root={ctx.cwd}",
        "--instruction",
        prompt,
    ]


def _kimi_config(ctx: RunContext) -> dict[str, str]:
    kimi_home = os.path.join(ctx.home, ".kimi-code")
    _write(
        os.path.join(kimi_home, "config.toml"),
        (
            f'default_model = "harness/{MODEL}"\n'
            'default_permission_mode = "auto"\n'
            "telemetry = false\n\n"
            "[providers.harness]\n"
            'type = "openai"\n'
            f'base_url = "{ctx.base_v1}"\n'
            f'api_key = "{FAKE_KEY}"\n\n'
            f'[models."harness/{MODEL}"]\n'
            'provider = "harness"\n'
            f'model = "{MODEL}"\n'
            "max_context_size = 128000\n"
            'capabilities = ["tool_use"]\n'
        ),
    )
    return {"KIMI_CODE_HOME": kimi_home}


def _kimi_command(ctx: RunContext, exe: list[str], prompt: str) -> list[str]:
    # `--auto` is refused together with -p; the config's permission mode approves instead.
    return [*exe, "-m", f"harness/{MODEL}", "-p", prompt, "--output-format", "stream-json"]


def _cline_config(ctx: RunContext) -> dict[str, str]:
    return {"CLINE_HUB_PORT": str(ctx.hub_port)}


def _cline_steps(ctx: RunContext, exe: list[str]) -> list[Step]:
    return [
        Step(
            "cline-auth",
            [
                *exe,
                "auth",
                "-p",
                "openai-compatible",
                "-k",
                FAKE_KEY,
                "-m",
                MODEL,
                "-b",
                ctx.base_v1,
            ],
        )
    ]


def _cline_command(ctx: RunContext, exe: list[str], prompt: str) -> list[str]:
    return [*exe, "--json", "-t", "100", prompt]


def _codebuddy_config(ctx: RunContext) -> dict[str, str]:
    home = os.path.join(ctx.home, ".codebuddy")
    # `url` is the full chat-completions endpoint, not a base URL.
    _write_json(
        os.path.join(home, "models.json"),
        {
            "models": [
                {
                    "id": MODEL,
                    "name": "Fake model",
                    "vendor": "OpenAI",
                    "apiKey": FAKE_KEY,
                    "maxInputTokens": 128000,
                    "maxOutputTokens": 4096,
                    "url": f"{ctx.base_v1}/chat/completions",
                    "supportsToolCall": True,
                }
            ],
            "availableModels": [MODEL],
        },
    )
    _write_json(os.path.join(home, "settings.json"), {"model": MODEL})
    return {
        "CODEBUDDY_API_KEY": "dummy",
        "CODEBUDDY_CODE_ENABLE_TELEMETRY": "0",
        "DISABLE_AUTOUPDATER": "1",
    }


def _codebuddy_command(ctx: RunContext, exe: list[str], prompt: str) -> list[str]:
    return [
        *exe,
        "-p",
        "--output-format",
        "json",
        "--model",
        MODEL,
        "-y",
        "--max-turns",
        "4",
        prompt,
    ]


def _grok_home(ctx: RunContext) -> str:
    # Not ~/.grok: the run proves that rtok follows GROK_HOME.
    return os.path.join(ctx.home, "grok-home")


def _grok_config(ctx: RunContext) -> dict[str, str]:
    home = _grok_home(ctx)
    _write(
        os.path.join(home, "config.toml"),
        (
            "auto_update = false\n"
            "[models]\n"
            f'default = "{MODEL}"\n'
            f"[model.{MODEL}]\n"
            f'model = "{MODEL}"\n'
            f'base_url = "{ctx.base_v1}"\n'
            f'api_key = "{FAKE_KEY}"\n'
            'api_backend = "chat_completions"\n'
            "context_window = 128000\n"
            "[features]\n"
            "telemetry = false\n"
            "feedback = false\n"
            "remote_fetch = false\n"
            "codebase_indexing = false\n"
        ),
    )
    return {
        "GROK_HOME": home,
        "GROK_DISABLE_AUTOUPDATER": "1",
        "GROK_TELEMETRY_ENABLED": "0",
        "GROK_MEMORY": "0",
        "GROK_SUBAGENTS": "0",
        "GROK_LOG_FILE": os.path.join(ctx.run_dir, "grok.log"),
    }


def _grok_trust_project(ctx: RunContext) -> None:
    # Grok runs a project's hooks only in a trusted folder (`--trust` or /hooks-trust
    # records it here).
    with open(
        os.path.join(_grok_home(ctx), "trusted_folders.toml"), "a", encoding="utf-8"
    ) as handle:
        handle.write(f'[folders."{ctx.cwd}"]\ntrusted = true\n')


def _grok_command(ctx: RunContext, exe: list[str], prompt: str) -> list[str]:
    return [
        *exe,
        "-p",
        prompt,
        "-m",
        MODEL,
        "--always-approve",
        "--output-format",
        "json",
        "--no-subagents",
        "--max-turns",
        "4",
        "--disable-web-search",
        "--cwd",
        ctx.cwd,
    ]


def _openhands_config(ctx: RunContext) -> dict[str, str]:
    # Without the local cost map LiteLLM keeps retrying a download of it. OpenHands runs
    # commands in a terminal, where `git log` would add ref names that git's piped output
    # (the raw reference) does not have.
    return {
        "LLM_MODEL": f"openai/{MODEL}",
        "LLM_BASE_URL": ctx.base_v1,
        "LLM_API_KEY": FAKE_KEY,
        "LITELLM_LOCAL_MODEL_COST_MAP": "True",
        "OPENHANDS_SUPPRESS_BANNER": "1",
        "GIT_CONFIG_COUNT": "1",
        "GIT_CONFIG_KEY_0": "log.decorate",
        "GIT_CONFIG_VALUE_0": "false",
    }


def _openhands_command(ctx: RunContext, exe: list[str], prompt: str) -> list[str]:
    return [
        *exe,
        "--headless",
        "--json",
        "--override-with-envs",
        "--always-approve",
        "--exit-without-confirmation",
        "-t",
        prompt,
    ]


PROFILES: dict[str, AgentProfile] = {
    p.name: p
    for p in (
        AgentProfile(
            "auggie",
            "Auggie",
            ["launch-process"],
            _auggie_config,
            _auggie_command,
            backend="augment",
        ),
        AgentProfile("claude", "Claude Code", ["Bash"], _claude_config, _claude_command),
        AgentProfile(
            "codex",
            "Codex CLI",
            ["exec_command"],
            _codex_config,
            _codex_command,
            trust_project=_codex_trust_project,
        ),
        AgentProfile(
            "gemini", "Gemini CLI", ["run_shell_command"], _gemini_config, _gemini_command
        ),
        AgentProfile("opencode", "OpenCode", ["bash"], _opencode_config, _opencode_command),
        AgentProfile("pi", "Pi", ["bash"], _pi_config, _pi_command),
        AgentProfile("omp", "Oh My Pi", ["bash"], _omp_config, _omp_command),
        AgentProfile("vibe", "Mistral Vibe", ["bash"], _vibe_config, _vibe_command),
        AgentProfile("hermes", "Hermes", ["terminal"], _hermes_config, _hermes_command),
        AgentProfile(
            "qwen",
            "Qwen Code",
            ["run_shell_command"],
            _qwen_config,
            _qwen_command,
            follow_suggestions=True,
        ),
        AgentProfile(
            "copilot",
            "GitHub Copilot CLI",
            ["bash"],
            _copilot_config,
            _copilot_command,
            trust_project=_copilot_trust_project,
        ),
        AgentProfile("droid", "Factory Droid", ["Execute"], _droid_config, _droid_command),
        AgentProfile(
            "cline",
            "Cline CLI",
            ["run_commands"],
            _cline_config,
            _cline_command,
            pre_steps=_cline_steps,
        ),
        AgentProfile("kilocode", "Kilo CLI", ["bash"], _kilo_config, _opencode_command),
        AgentProfile(
            "kimi", "Kimi Code", ["Bash"], _kimi_config, _kimi_command, follow_suggestions=True
        ),
        # The CLI ships inside the agent SDK's wheel, whose version is the pin.
        AgentProfile(
            "codebuddy",
            "CodeBuddy Code 2.163.0 from codebuddy-agent-sdk",
            ["Bash"],
            _codebuddy_config,
            _codebuddy_command,
        ),
        AgentProfile(
            "grok",
            "Grok Build",
            ["run_terminal_command"],
            _grok_config,
            _grok_command,
            trust_project=_grok_trust_project,
            follow_suggestions=True,
            companions=("claude", "cursor"),
        ),
        AgentProfile(
            "openhands",
            "OpenHands CLI",
            ["terminal"],
            _openhands_config,
            _openhands_command,
            follow_suggestions=True,
        ),
    )
}
