"""Hook payloads in the shapes the agents send (agent-e2e.md §4, agent-contracts.md)."""

from __future__ import annotations

import json
from typing import Any


def shell_payload(agent: str, command: str, cwd: str) -> dict[str, Any]:
    """The payload `agent` sends before running `command` in its shell tool."""
    builders = {
        "auggie": lambda: {"hook_event_name": "PreToolUse", "conversation_id": "c1",
                           "workspace_roots": [cwd], "tool_name": "launch-process",
                           "tool_input": {"command": command, "wait": True,
                                          "max_wait_seconds": 60, "cwd": cwd},
                           "tool_output": "[undefined]", "tool_error": None,
                           "is_mcp_tool": False},
        "claude": lambda: {"session_id": "s1", "transcript_path": "/t.jsonl", "cwd": cwd,
                           "permission_mode": "default", "hook_event_name": "PreToolUse",
                           "tool_name": "Bash", "tool_use_id": "toolu_1",
                           "tool_input": {"command": command, "description": "Run it"}},
        "codebuddy": lambda: {"session_id": "s", "transcript_path": "/t.jsonl", "cwd": cwd,
                              "hook_event_name": "PreToolUse", "tool_name": "Bash",
                              "tool_input": {"command": command}, "call_id": "c",
                              "tool_use_id": "toolu_1", "agent_type": "cli",
                              "permission_mode": "bypassPermissions", "client": "CLI",
                              "version": "2.163.0", "generation_id": "g",
                              "model": "fake-model"},
        "codex": lambda: {"session_id": "s", "turn_id": "t", "transcript_path": None,
                          "cwd": cwd, "hook_event_name": "PreToolUse", "model": "gpt-5.5",
                          "permission_mode": "bypassPermissions", "tool_name": "Bash",
                          "tool_input": {"command": command}, "tool_use_id": "call_1"},
        "cursor": lambda: {"conversation_id": "c", "generation_id": "g",
                           "hook_event_name": "preToolUse", "workspace_roots": [cwd],
                           "cwd": cwd, "tool_name": "Shell", "tool_input": {"command": command}},
        "gemini": lambda: {"session_id": "s", "transcript_path": "/t", "cwd": cwd,
                           "hook_event_name": "BeforeTool", "timestamp": "2026-01-01T00:00:00Z",
                           "tool_name": "run_shell_command", "tool_input": {"command": command}},
        "grok": lambda: grok_payload(command, cwd),
        "openhands": lambda: {"event_type": "PreToolUse", "tool_name": "terminal",
                              "tool_input": {"command": command, "is_input": False,
                                             "timeout": None, "reset": False,
                                             "kind": "TerminalAction"},
                              "tool_response": None, "message": None, "session_id": "s",
                              "working_dir": cwd, "metadata": {}},
        "copilot": lambda: {"sessionId": "s", "timestamp": 1795990512071, "cwd": cwd,
                            "toolName": "bash",
                            "toolArgs": json.dumps({"command": command, "description": "d"})},
        "droid": lambda: {"session_id": "s", "transcript_path": "/t", "cwd": cwd,
                          "permission_mode": "auto-low", "hook_event_name": "PreToolUse",
                          "tool_name": "Execute",
                          "tool_input": {"command": command, "summary": "Run the command"}},
        "trae": lambda: {"session_id": "s", "cwd": cwd, "hook_event_name": "PreToolUse",
                         "tool_name": "RunCommand",
                         "tool_input": {"command": command, "cwd": cwd, "blocking": True}},
        "vibe": lambda: {"hook_event_name": "pre_tool", "session_id": "s",
                         "parent_session_id": None, "transcript_path": "/t", "cwd": cwd,
                         "tool_name": "file_system.bash", "tool_call_id": "call_1",
                         "tool_input": {"command": command, "timeout_seconds": 30}},
        "kimi": lambda: {"hook_event_name": "PreToolUse", "session_id": "s", "cwd": cwd,
                         "client_type": "kimi_code_cli", "tool_name": "Bash",
                         "tool_input": {"command": command}, "tool_call_id": "call_1"},
        "antigravity": lambda: {"cwd": cwd, "toolCall": {"name": "run_command",
                                "args": {"CommandLine": command, "Cwd": cwd}}},
        "qwen": lambda: {"session_id": "s", "transcript_path": "/t", "cwd": cwd,
                         "hook_event_name": "PreToolUse", "timestamp": "x",
                         "permission_mode": "yolo", "prompt_id": "p",
                         "tool_name": "run_shell_command", "tool_input": {"command": command},
                         "tool_use_id": "toolu_1", "tool_call_id": "call_1"},
        "cline": lambda: {"clineVersion": "", "timestamp": "x", "taskId": "conv_1",
                          "workspaceRoots": [cwd], "hookName": "tool_call", "iteration": 1,
                          "tool_call": {"id": "call_1", "name": "run_commands",
                                        "input": {"commands": [command]}},
                          "preToolUse": {"toolName": "run_commands",
                                         "parameters": {"commands": json.dumps([command])}}},
    }
    return builders[agent]()


def grok_payload(command: str, cwd: str) -> dict[str, Any]:
    """Grok Build's camelCase PreToolUse payload; Grok sends the same one to the hooks it
    loads from Claude's settings and Cursor's hooks.json."""
    return {"hookEventName": "pre_tool_use", "sessionId": "s", "cwd": cwd,
            "workspaceRoot": cwd, "timestamp": "2026-12-01T00:00:00Z",
            "permissionMode": "bypassPermissions", "toolName": "run_terminal_command",
            "toolUseId": "call_1", "toolInput": {"command": command, "description": "Run it"},
            "toolInputTruncated": False}


def foreign_payload(agent: str, cwd: str) -> dict[str, Any]:
    """A call of a tool that is not the shell (a file read), in the agent's shape."""
    payload = shell_payload(agent, "git status", cwd)
    if agent == "copilot":
        payload["toolName"] = "view"
        payload["toolArgs"] = json.dumps({"path": "/etc/hosts"})
    elif agent == "antigravity":
        payload["toolCall"] = {"name": "view_file", "args": {"AbsolutePath": "/etc/hosts"}}
    elif agent == "cline":
        payload["tool_call"] = {"id": "c", "name": "read_files",
                                "input": {"file_paths": ["/etc/hosts"]}}
    elif agent == "grok":
        payload["toolName"] = "read_file"
        payload["toolInput"] = {"path": "/etc/hosts"}
    else:
        names = {"auggie": "view", "claude": "Read", "codebuddy": "Read",
                 "codex": "apply_patch", "cursor": "Read", "droid": "Read",
                 "gemini": "read_file", "kimi": "Read", "openhands": "file_editor",
                 "qwen": "read_file", "trae": "ReadFile", "vibe": "read_file"}
        payload["tool_name"] = names[agent]
        payload["tool_input"] = {"file_path": "/etc/hosts"}
    return payload


def _hook_agents() -> tuple[str, ...]:
    from rtok.install import integrations

    return tuple(sorted(name for name, item in integrations.load_descriptors().items()
                        if item.tier == "hook"))


# Every agent whose descriptor registers `rtok hook`: a new one without a payload builder
# above fails the reply tests instead of being left out.
HOOK_AGENTS = _hook_agents()
