// rtok plugin for OpenClaw: before an `exec` tool call runs, its command goes through
// `rtok rewrite`, and the plugin hands OpenClaw the command to run instead (its output gets
// shortened, the raw bytes are archived). Written by `rtok init`, removed by `rtok uninstall`.
//
// Hook: `before_tool_call` (typed plugin hook). Returning `params` replaces the tool call's
// parameters; OpenClaw's own exec approvals then judge the rewritten call as they would the
// typed one, so the plugin never blocks and never approves anything itself.
//
// Exit contract of `rtok rewrite CMD`: 0 or 3 -> run the printed command; 1 -> leave the
// command alone; 2 -> leave it alone too (the host's own rules decide).
// Any failure (rtok missing, timeout, crash) leaves the command exactly as typed.
// --rtok-bin makes the rewritten command name rtok by absolute path: the exec tool's shell
// may run with a PATH that does not contain rtok.
// Plain JavaScript (an ES module), loaded by OpenClaw as is.
import { spawnSync } from "node:child_process";

const RTOK_BIN = {{RTOK_BIN_JSON}};
const SHELL_TOOLS = new Set(["exec"]);
const TIMEOUT_MS = 2000;

function rewrite(command) {
  try {
    const result = spawnSync(RTOK_BIN, ["rewrite", "--rtok-bin", RTOK_BIN, "--", command], {
      encoding: "utf8",
      timeout: TIMEOUT_MS,
      maxBuffer: 1024 * 1024,
      stdio: ["ignore", "pipe", "ignore"],
      env: { ...process.env, RTOK_REWRITE_HOST: "openclaw" },
    });
    if (result.error || (result.status !== 0 && result.status !== 3)) return command;
    const proposed = (result.stdout ?? "").trim();
    return proposed.length > 0 ? proposed : command;
  } catch {
    return command;
  }
}

export function beforeToolCall(event) {
  try {
    if (!event || !SHELL_TOOLS.has(String(event.toolName))) return undefined;
    const params = event.params;
    const command = params?.command;
    if (typeof command !== "string" || command.trim() === "") return undefined;
    const next = rewrite(command);
    if (next === command) return undefined;
    return { params: { ...params, command: next } };
  } catch {
    return undefined; // Fail open: the command runs as typed.
  }
}

export default {
  id: "rtok",
  name: "rtok",
  description: "Runs shell commands through rtok, which shortens their output.",
  register(api) {
    api.on("before_tool_call", beforeToolCall);
  },
};
