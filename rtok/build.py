"""Generators for rtok/compiled/: TOML data turned into Python literals.

Not on the hot path (it uses tomllib). Each area adds a `compile_<name>()` here and lists it
in `GENERATORS`; `scripts/compile_data.py` writes the results and a test checks them.
"""

from __future__ import annotations

import importlib.util
import os
import pprint
import sys
from collections.abc import Callable

from rtok.generated import HEADER, render_module


def compile_rules() -> str:
    from rtok.filter.compile_rules import compile_rules as generate

    return generate()


def compile_protect_hints() -> str:
    from rtok.filter.compile_rules import compile_protect_hints as generate

    return generate()


def compile_hook_protocols() -> str:
    from rtok.hooks.descriptors import protocols_module_body
    from rtok.install.descriptor import hook_protocols

    # Not render_module: one JSON text per agent loads faster than a literal of them all.
    body = protocols_module_body(hook_protocols())
    return HEADER.format(source="integrations/*.toml [hook]") + body


def compile_rewrite_hosts() -> str:
    from rtok.install.descriptor import rewrite_hosts

    def row(permissions: str, host_approves: bool, host_rules: str) -> str:
        return f"({permissions!r}, {host_approves!r}, {host_rules!r})"

    default, hosts = rewrite_hosts()
    # An agent answered exactly as an unnamed caller is left out.
    lines = [
        f"    {name!r}: {row(f.permissions, f.host_approves, f.host_rules)},"
        for name, f in sorted(hosts.items())
        if (f.permissions, f.host_approves, f.host_rules) != (default, False, "")
    ]
    return (
        HEADER.format(source="integrations/*.toml [rewrite]")
        + "# How `rtok rewrite` answers the agent that calls it (RTOK_REWRITE_HOST, --agent):\n"
        + "# name -> (permission source, the host owns approval, the host's own rule set).\n"
        + f"DEFAULT = {row(default, False, '')}\n"
        + "HOSTS = {\n"
        + "\n".join(lines)
        + "\n}\n"
    )


def compile_host_limits() -> str:
    from rtok.install.descriptor import host_limits

    limits = host_limits()
    caps = {
        name: (item.tool_result_chars, item.cap_env, item.over_cap_chars)
        for name, item in limits.items()
    }
    markers = [(env, name) for name, item in sorted(limits.items()) for env in item.agent_env]
    sessions = {name: item.session_env for name, item in limits.items() if item.session_env}
    fmt = pprint.pformat
    return (
        HEADER.format(source="integrations/*.toml [limits]")
        + "# agent -> (characters the host keeps of a shell result or None: not known,\n"
        + "#           env var that changes it or '',\n"
        + "#           characters of the preview it keeps instead over the cap, or None: cut)\n"
        + f"CAPS = {fmt(caps, width=100, sort_dicts=True)}\n"
        + "# (env var the host sets in its shell commands, agent), in the order they are tried\n"
        + f"MARKERS = {fmt(tuple(markers), width=100)}\n"
        + "# agent -> env vars holding its session id in its shell commands\n"
        + f"SESSIONS = {fmt(sessions, width=100, sort_dicts=True)}\n"
        + "# (Where each figure comes from is in the descriptors: `rtok gain --json` hosts.)\n"
    )


def compile_registry() -> str:
    from rtok.rewrite.registry_source import render_registry_module

    return render_registry_module()


def compile_runs_commands() -> str:
    from rtok.rewrite.registry_source import compiled_registry

    # A module of its own: `rtok run` reads these two tables for every command, and loading
    # the whole registry for them would cost every run more than the run's own work.
    registry = compiled_registry()
    runs, letters = registry["runs_commands"], registry["value_letters"]
    return (
        HEADER.format(source="rules/registry.toml")
        + "# program -> options after which it runs a command of its own, up to `;` or `+`\n"
        + f"RUNS_COMMANDS = {pprint.pformat(runs, width=100, sort_dicts=True)}\n"
        + "# program -> its single-letter options that take a value (clustered flags)\n"
        + f"VALUE_LETTERS = {pprint.pformat(letters, width=100, sort_dicts=True)}\n"
    )


E2E_PINS = os.path.join(
    os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "scripts", "e2e", "pins.py"
)


def e2e_pins(path: str = E2E_PINS) -> dict[str, tuple[str, str]]:
    """agent -> (package, version) for every agent the e2e tier runs with its real CLI,
    read from the tier's own pins (scripts/e2e/pins.py), so the version lives in one place."""
    spec = importlib.util.spec_from_file_location("_rtok_e2e_pins", path)
    if spec is None or spec.loader is None or not os.path.isfile(path):
        raise FileNotFoundError(f"{path}: the e2e tier's pins are not there")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while defining
    try:
        spec.loader.exec_module(module)
    finally:
        del sys.modules[spec.name]
    return {
        agent: (module.agent_package(agent), module.agent_version(agent)) for agent in module.AGENTS
    }


def compile_e2e_pins() -> str:
    from rtok.install.descriptor import check_proofs, load_all

    pins = e2e_pins()
    check_proofs(load_all(), pins)
    return render_module("scripts/e2e/pins.py", "E2E_PINS", pins)


GENERATORS: dict[str, Callable[[], str]] = {}
GENERATORS["registry"] = compile_registry
GENERATORS["default_rules"] = compile_rules
GENERATORS["e2e_pins"] = compile_e2e_pins
GENERATORS["hook_protocols"] = compile_hook_protocols
GENERATORS["protect_hints"] = compile_protect_hints
GENERATORS["rewrite_hosts"] = compile_rewrite_hosts
GENERATORS["runs_commands"] = compile_runs_commands
GENERATORS["host_limits"] = compile_host_limits


def compile_all() -> dict[str, str]:
    return {name: generator() for name, generator in sorted(GENERATORS.items())}
