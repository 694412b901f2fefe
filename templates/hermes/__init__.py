"""rtok plugin for Hermes: terminal commands go through `rtok rewrite`.

Written by `rtok init`, removed by `rtok uninstall`. A `tool_request` middleware returns
the rewritten arguments before hooks, guardrails and approvals see them. Exit contract of
`rtok rewrite CMD`: 0 or 3 -> run the printed command; 1 or 2 -> leave it alone. Any
failure (rtok missing, timeout, crash) leaves the command exactly as typed.
"""

import subprocess

RTOK_BIN = {{RTOK_BIN_JSON}}
SHELL_TOOLS = frozenset({"terminal"})
TIMEOUT_S = 2.0


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
