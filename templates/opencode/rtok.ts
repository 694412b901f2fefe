// rtok plugin for OpenCode and Kilo: shell commands go through `rtok rewrite`, which
// answers with the command to run instead (its output gets shortened, the raw bytes are
// archived). Written by `rtok init`, removed by `rtok uninstall`.
//
// Exit contract of `rtok rewrite CMD`: 0 or 3 -> run the printed command; 1 -> leave the
// command alone; 2 -> leave it alone too (the host's own permission rules decide).
// Any failure (rtok missing, timeout, crash) leaves the command exactly as typed.
// --rtok-bin makes the rewritten command name rtok by absolute path: the host's shell may
// run with a PATH (a login shell's, say) that does not contain rtok.
// RTOK_REWRITE_HOST names the host (from where this file is installed), so that rtok reads
// the host's own `permission.bash` rules: the host checks them on the rewritten command,
// and rtok only rewrites when that check gives the same answer as for the command typed.
// Plain JavaScript on purpose: valid TypeScript for the host, and runnable by node as is.
import { spawnSync } from "node:child_process";

const RTOK_BIN = {{RTOK_BIN_JSON}};
const SHELL_TOOLS = new Set(["bash"]);
const TIMEOUT_MS = 2000;
const HOST = /[\\/]\.?kilo(code)?[\\/]/.test(decodeURIComponent(import.meta.url ?? ""))
  ? "kilo"
  : "opencode";

function rewrite(command) {
  try {
    const result = spawnSync(RTOK_BIN, ["rewrite", "--rtok-bin", RTOK_BIN, "--", command], {
      encoding: "utf8",
      timeout: TIMEOUT_MS,
      maxBuffer: 1024 * 1024,
      stdio: ["ignore", "pipe", "ignore"],
      env: { ...process.env, RTOK_REWRITE_HOST: HOST },
    });
    if (result.error || (result.status !== 0 && result.status !== 3)) return command;
    const proposed = (result.stdout ?? "").trim();
    return proposed.length > 0 ? proposed : command;
  } catch {
    return command;
  }
}

// One set of hooks per host instance: OpenCode 1 calls every exported function (both
// forms below name the same one), OpenCode 2 only the default export.
const started = new WeakSet();

async function plugin(input) {
  if (input && typeof input === "object") {
    if (started.has(input)) return {};
    started.add(input);
  }
  return {
    "tool.execute.before": async (toolInput, output) => {
      try {
        if (!toolInput || !SHELL_TOOLS.has(String(toolInput.tool))) return;
        const command = output?.args?.command;
        if (typeof command !== "string" || command.trim() === "") return;
        const next = rewrite(command);
        if (next !== command) output.args.command = next;
      } catch {
        // Fail open: the command runs as typed.
      }
    },
  };
}

export const RtokRewrite = plugin;
export default plugin;
