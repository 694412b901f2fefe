"""rtok plugin for Hermes: terminal commands go through `rtok rewrite`.

Written by `rtok init`, removed by `rtok uninstall`. A `tool_request` middleware returns
the rewritten arguments before hooks, guardrails and approvals see them. Exit contract of
`rtok rewrite CMD`: 0 or 3 -> run the printed command; 1 or 2 -> leave it alone. Any
failure (rtok missing, timeout, crash) leaves the command exactly as typed.

Only commands Hermes runs on this machine are rewritten: its terminal tool may run them in
a container or on another host (`terminal.backend` in config.yaml, or TERMINAL_ENV, which
overrides it: docker, ssh, modal, ...), where rtok's path does not exist. The backends to
rewrite for are `local` unless RTOK_HERMES_BACKENDS lists others (comma-separated), e.g.
for a container that has rtok at the same path.
"""

import os
import subprocess

RTOK_BIN = {{RTOK_BIN_JSON}}
SHELL_TOOLS = frozenset({"terminal"})
TIMEOUT_S = 2.0
DEFAULT_BACKENDS = ("local",)


def _backend():
    """The terminal backend as Hermes' terminal tool picks it: TERMINAL_ENV when set, else
    config.yaml's terminal.backend (which Hermes copies into TERMINAL_ENV), else local."""
    chosen = os.environ.get("TERMINAL_ENV", "").strip().lower()
    if chosen:
        return chosen
    try:
        from hermes_cli import config as hermes_config

        load = getattr(hermes_config, "load_config_readonly", None) or hermes_config.load_config
        terminal = load().get("terminal", {})
        backend = terminal.get("backend", "local") if isinstance(terminal, dict) else "local"
    except Exception:
        return "local"  # what Hermes itself falls back to
    return str(backend or "local").strip().lower()


def _rewrites_here():
    listed = os.environ.get("RTOK_HERMES_BACKENDS", "")
    wanted = {word.strip().lower() for word in listed.split(",") if word.strip()}
    return _backend() in (wanted or set(DEFAULT_BACKENDS))


def _rewrite(command):
    try:
        result = subprocess.run(
            [RTOK_BIN, "rewrite", "--rtok-bin", RTOK_BIN, "--", command],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            timeout=TIMEOUT_S,
            check=False,
        )
    except Exception:
        return command
    if result.returncode not in (0, 3):
        return command
    proposed = result.stdout.decode("utf-8", "replace").strip()
    return proposed or command


def _rewrite_request(tool_name=None, args=None, **_kwargs):
    try:
        if tool_name not in SHELL_TOOLS or not isinstance(args, dict):
            return None
        if not _rewrites_here():
            return None
        command = args.get("command")
        if not isinstance(command, str) or not command.strip():
            return None
        rewritten = _rewrite(command)
        if rewritten == command:
            return None
        return {"args": dict(args, command=rewritten)}
    except Exception:
        return None


def _observe(**_kwargs):
    return None


def register(ctx):
    ctx.register_middleware("tool_request", _rewrite_request)
    # plugin.yaml declares pre_tool_call; registering a no-op keeps the declaration true.
    ctx.register_hook("pre_tool_call", _observe)
