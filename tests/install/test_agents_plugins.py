"""The plugin templates, rendered as the installer writes them and run for real: the
TypeScript plugins (plain JavaScript inside) under node, the Hermes plugin under Python.
They follow the `rtok rewrite` contract (0/3 rewrite, 1/2 leave alone), check the tool
name themselves, and fail open on a missing binary, a crash or a timeout."""

from __future__ import annotations

import importlib.util
import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from rtok.install.targets.artifacts import render_template
from rtok_testing import rtok_entry_point

FAKE_RTOK = """#!/bin/sh
# rewrite [--rtok-bin PATH] [--] CMD
[ "$1" = rewrite ] || exit 9
shift
[ "$1" = --rtok-bin ] && shift 2
[ "$1" = -- ] && shift
case "$1" in
  "git status") echo "rtok run git status"; exit 0 ;;
  "npm test") echo "rtok run npm test"; exit 3 ;;
  "rm -rf build") echo "ignored"; exit 2 ;;
  "make") echo "ignored"; exit 1 ;;
  "slow") sleep 6; echo "rtok run slow"; exit 0 ;;
  *) echo "garbage" >&2; exit 70 ;;
esac
"""

OPENCODE_DRIVER = """
const mod = await import(process.argv[2]);
const hooks = await mod.RtokRewrite();
const output = {args: {command: process.argv[4], description: "d"}};
await hooks["tool.execute.before"]({tool: process.argv[3], sessionID: "s", callID: "c"}, output);
console.log(JSON.stringify(output.args));
"""

# OpenCode 2 takes the default export; OpenCode 1 calls every exported function with the
# same input, which must not give two sets of hooks (two rewrites per call).
OPENCODE_LOADERS_DRIVER = """
const mod = await import(process.argv[2]);
const input = {directory: "/p", worktree: "/p"};
const first = [];
for (const [name, fn] of Object.entries(mod)) {
  if (typeof fn === "function") first.push(await fn(input));
}
const withHooks = first.filter((h) => typeof h["tool.execute.before"] === "function");
const fresh = await mod.default({directory: "/q"});
const output = {args: {command: process.argv[4]}};
await fresh["tool.execute.before"]({tool: process.argv[3]}, output);
console.log(JSON.stringify({exports: Object.keys(mod).sort(), same: mod.default === mod.RtokRewrite,
                            instances: withHooks.length, command: output.args.command}));
"""

PI_DRIVER = """
const mod = await import(process.argv[2]);
let handler = null;
mod.default({on: (name, fn) => { if (name === "tool_call") handler = fn; }});
const event = {type: "tool_call", toolName: process.argv[3], toolCallId: "t",
               input: {command: process.argv[4]}};
const returned = await handler(event);
console.log(JSON.stringify({input: event.input, returned: returned ?? null}));
"""

node = pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")


def _fake_rtok(tmp_path: Path) -> str:
    path = tmp_path / "bin" / "rtok"
    path.parent.mkdir(exist_ok=True)
    path.write_text(FAKE_RTOK)
    path.chmod(0o755)
    return str(path)


def _node(
    tmp_path: Path, template: str, driver: str, rtok_bin: str, tool: str, command: str
) -> Any:
    plugin = tmp_path / f"plugin-{template.replace('/', '-')}.mjs"
    plugin.write_bytes(render_template(template, rtok_bin))
    script = tmp_path / "driver.mjs"
    script.write_text(driver)
    result = subprocess.run(
        ["node", str(script), plugin.as_uri(), tool, command],
        capture_output=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr.decode()
    return json.loads(result.stdout)


CASES = [
    ("bash", "git status", "rtok run git status"),  # exit 0: rewrite
    ("bash", "npm test", "rtok run npm test"),  # exit 3: rewrite, the host asks
    ("bash", "rm -rf build", "rm -rf build"),  # exit 2: the host's rules decide
    ("bash", "make", "make"),  # exit 1: nothing to do
    ("bash", "crash", "crash"),  # unexpected exit: fail open
    ("read", "git status", "git status"),  # not the shell tool
]


@node
@pytest.mark.parametrize(("tool", "command", "expected"), CASES)
def test_opencode_and_kilo_plugin(tool: str, command: str, expected: str, tmp_path: Path) -> None:
    args = _node(tmp_path, "opencode/rtok.ts", OPENCODE_DRIVER, _fake_rtok(tmp_path), tool, command)
    assert args == {"command": expected, "description": "d"}


@node
def test_opencode_plugin_has_a_default_and_a_named_export(tmp_path: Path) -> None:
    seen = _node(
        tmp_path,
        "opencode/rtok.ts",
        OPENCODE_LOADERS_DRIVER,
        _fake_rtok(tmp_path),
        "bash",
        "git status",
    )
    assert seen == {
        "exports": ["RtokRewrite", "default"],
        "same": True,
        "instances": 1,
        "command": "rtok run git status",
    }


@node
@pytest.mark.parametrize(("tool", "command", "expected"), CASES)
def test_pi_and_omp_extension(tool: str, command: str, expected: str, tmp_path: Path) -> None:
    result = _node(tmp_path, "pi/rtok.ts", PI_DRIVER, _fake_rtok(tmp_path), tool, command)
    assert result["input"] == {"command": expected}
    if expected != command:  # Oh My Pi honours the returned input
        assert result["returned"] == {"input": {"command": expected}}
    else:
        assert result["returned"] is None


@node
def test_plugins_fail_open_without_rtok_and_on_timeout(tmp_path: Path) -> None:
    missing = str(tmp_path / "gone" / "rtok")
    assert (
        _node(tmp_path, "opencode/rtok.ts", OPENCODE_DRIVER, missing, "bash", "git status")[
            "command"
        ]
        == "git status"
    )
    assert (
        _node(tmp_path, "pi/rtok.ts", PI_DRIVER, missing, "bash", "git status")["input"]["command"]
        == "git status"
    )
    assert (
        _node(tmp_path, "pi/rtok.ts", PI_DRIVER, _fake_rtok(tmp_path), "bash", "slow")["input"][
            "command"
        ]
        == "slow"
    )


@node
def test_plugin_with_the_real_rtok(tmp_path: Path) -> None:
    args = _node(
        tmp_path, "opencode/rtok.ts", OPENCODE_DRIVER, rtok_entry_point(), "bash", "git status"
    )
    assert args["command"].endswith("run git status")


# OpenClaw's typed plugin hook as its docs and dist/ describe it: `api.on(name, handler)`;
# `before_tool_call` gets { toolName, params } and may return { params } to rewrite.
OPENCLAW_DRIVER = """
const mod = await import(process.argv[2]);
const hooks = {};
mod.default.register({on: (name, fn) => { hooks[name] = fn; }});
const params = {command: process.argv[4], workdir: "/repo", timeout: 30};
const event = {toolName: process.argv[3], params, toolCallId: "call_1", runId: "r"};
const returned = await hooks["before_tool_call"](event, {agentId: "main"});
console.log(JSON.stringify({id: mod.default.id, hooks: Object.keys(hooks), params,
                            returned: returned ?? null}));
"""


@node
@pytest.mark.parametrize(
    ("tool", "command", "expected"),
    [("exec" if tool == "bash" else tool, command, expected) for tool, command, expected in CASES],
)
def test_openclaw_plugin(tool: str, command: str, expected: str, tmp_path: Path) -> None:
    result = _node(
        tmp_path, "openclaw/index.js", OPENCLAW_DRIVER, _fake_rtok(tmp_path), tool, command
    )
    assert result["id"] == "rtok" and result["hooks"] == ["before_tool_call"]
    # The event is never changed in place: OpenClaw reads the returned params.
    assert result["params"] == {"command": command, "workdir": "/repo", "timeout": 30}
    if expected != command:
        assert result["returned"] == {
            "params": {"command": expected, "workdir": "/repo", "timeout": 30}
        }
    else:
        assert result["returned"] is None  # no opinion: never a block, never an approval


@node
def test_openclaw_plugin_fails_open_and_works_with_the_real_rtok(tmp_path: Path) -> None:
    missing = str(tmp_path / "gone" / "rtok")
    assert (
        _node(tmp_path, "openclaw/index.js", OPENCLAW_DRIVER, missing, "exec", "git status")[
            "returned"
        ]
        is None
    )
    assert (
        _node(tmp_path, "openclaw/index.js", OPENCLAW_DRIVER, _fake_rtok(tmp_path), "exec", "slow")[
            "returned"
        ]
        is None
    )
    real = _node(
        tmp_path, "openclaw/index.js", OPENCLAW_DRIVER, rtok_entry_point(), "exec", "git status"
    )
    assert real["returned"]["params"]["command"].endswith("run git status")


def test_openclaw_plugin_manifest_is_what_discovery_reads() -> None:
    from rtok import resources

    with open(
        resources.data_path("templates", "openclaw/openclaw.plugin.json"), encoding="utf-8"
    ) as handle:
        manifest = json.load(handle)
    with open(
        resources.data_path("templates", "openclaw/package.json"), encoding="utf-8"
    ) as handle:
        package = json.load(handle)
    assert manifest["id"] == "rtok" and manifest["configSchema"]["type"] == "object"
    assert manifest["activation"]["onStartup"] is True
    assert package["type"] == "module" and package["openclaw"]["extensions"] == ["./index.js"]


def _hermes_plugin(tmp_path: Path, rtok_bin: str) -> tuple[Any, dict[str, Any]]:
    folder = tmp_path / "hermes_rtok"
    folder.mkdir()
    (folder / "__init__.py").write_bytes(render_template("hermes/__init__.py", rtok_bin))
    spec = importlib.util.spec_from_file_location("hermes_rtok", folder / "__init__.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    # A loaded test machine must not turn into a fail-open case: the plugin's own timeout
    # (a module global it reads on each call) is raised for the test.
    assert isinstance(vars(module).get("TIMEOUT_S"), float)
    vars(module)["TIMEOUT_S"] = 30.0
    registered: dict[str, Any] = {}

    class Ctx:
        def register_middleware(self, name: str, fn: Any) -> None:
            registered[f"middleware:{name}"] = fn

        def register_hook(self, name: str, fn: Any) -> None:
            registered[f"hook:{name}"] = fn

    module.register(Ctx())
    return module, registered


@pytest.mark.parametrize(("tool", "command", "expected"), CASES)
def test_hermes_middleware(tool: str, command: str, expected: str, tmp_path: Path) -> None:
    _module, registered = _hermes_plugin(tmp_path, _fake_rtok(tmp_path))
    middleware = registered["middleware:tool_request"]
    hermes_tool = "terminal" if tool == "bash" else "read_file"
    reply = middleware(
        tool_name=hermes_tool,
        args={"command": command, "timeout": 5},
        task_id="t",
        middleware_schema_version=1,
    )
    if expected == command:
        assert reply is None
    else:
        assert reply == {"args": {"command": expected, "timeout": 5}}
    assert registered["hook:pre_tool_call"](tool_name="terminal", args={}) is None


def test_hermes_middleware_fails_open_without_rtok(tmp_path: Path) -> None:
    _module, registered = _hermes_plugin(tmp_path, str(tmp_path / "missing" / "rtok"))
    assert (
        registered["middleware:tool_request"](tool_name="terminal", args={"command": "git status"})
        is None
    )


@pytest.mark.parametrize(
    ("env", "config", "rewritten"),
    [
        ({}, None, True),  # no setting: Hermes runs commands locally
        ({}, {"terminal": {"backend": "local"}}, True),
        ({}, {"terminal": {"backend": "docker"}}, False),
        ({"TERMINAL_ENV": "ssh"}, {"terminal": {"backend": "local"}}, False),  # env wins
        ({"TERMINAL_ENV": "local"}, {"terminal": {"backend": "modal"}}, True),
        ({"RTOK_HERMES_BACKENDS": "local, docker"}, {"terminal": {"backend": "docker"}}, True),
        ({"RTOK_HERMES_BACKENDS": "docker"}, {"terminal": {"backend": "local"}}, False),
    ],
)
def test_hermes_rewrites_only_for_the_backends_it_is_told(
    env: dict[str, str],
    config: dict[str, Any] | None,
    rewritten: bool,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import sys
    import types

    for name in ("TERMINAL_ENV", "RTOK_HERMES_BACKENDS"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    if config is not None:
        # Hermes' own config module, as the plugin finds it inside Hermes' process.
        package = types.ModuleType("hermes_cli")
        module = types.ModuleType("hermes_cli.config")
        vars(module)["load_config_readonly"] = lambda: config
        vars(package)["config"] = module
        monkeypatch.setitem(sys.modules, "hermes_cli", package)
        monkeypatch.setitem(sys.modules, "hermes_cli.config", module)
    else:
        monkeypatch.setitem(sys.modules, "hermes_cli", None)  # not importable
    _module, registered = _hermes_plugin(tmp_path, _fake_rtok(tmp_path))
    reply = registered["middleware:tool_request"](
        tool_name="terminal", args={"command": "git status"}
    )
    assert reply == ({"args": {"command": "rtok run git status"}} if rewritten else None)
