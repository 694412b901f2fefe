// rtok extension for Pi and Oh My Pi: shell commands go through `rtok rewrite`, which
// answers with the command to run instead (its output gets shortened, the raw bytes are
// archived). Written by `rtok init`, removed by `rtok uninstall`.
//
// Exit contract of `rtok rewrite CMD`: 0 or 3 -> run the printed command; 1 -> leave the
// command alone; 2 -> leave it alone too (the host's own permission rules decide).
// Any failure (rtok missing, timeout, crash) leaves the command exactly as typed.
// --rtok-bin makes the rewritten command name rtok by absolute path: the host's shell may
// run with a PATH (a login shell's, say) that does not contain rtok.
// Plain JavaScript on purpose: valid TypeScript for the host, and runnable by node as is.
import { spawnSync } from "node:child_process";

const RTOK_BIN = {{RTOK_BIN_JSON}};
const SHELL_TOOLS = new Set(["bash"]);
const TIMEOUT_MS = 2000;

function rewrite(command) {
  try {
    const result = spawnSync(RTOK_BIN, ["rewrite", "--rtok-bin", RTOK_BIN, "--", command], {
      encoding: "utf8",
      timeout: TIMEOUT_MS,
      maxBuffer: 1024 * 1024,
      stdio: ["ignore", "pipe", "ignore"],
    });
    if (result.error || (result.status !== 0 && result.status !== 3)) return command;
    const proposed = (result.stdout ?? "").trim();
    return proposed.length > 0 ? proposed : command;
  } catch {
    return command;
  }
}

export default function rtokExtension(pi) {
  pi.on("tool_call", async (event) => {
    try {
      if (!event || !SHELL_TOOLS.has(String(event.toolName))) return undefined;
      const command = event.input?.command;
      if (typeof command !== "string" || command.trim() === "") return undefined;
      const next = rewrite(command);
      if (next === command) return undefined;
      // Pi runs the mutated input; Oh My Pi may run a copy and honour the returned one.
      event.input.command = next;
      return { input: { ...event.input, command: next } };
    } catch {
      return undefined; // fail open: the command runs as typed
    }
  });
}
