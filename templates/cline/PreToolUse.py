#!/usr/bin/env python3
"""rtok hook for the Cline CLI: passes the tool call to `rtok hook cline`.

Written by `rtok init`, removed by `rtok uninstall`. Cline runs this file for every tool
call; `rtok hook cline` answers with `overrideInput` for shell commands it rewrites. Any
failure (rtok missing, timeout, crash, bad reply) prints nothing, so the call goes ahead
as typed.
"""

import json
import subprocess
import sys

RTOK_BIN = {{RTOK_BIN_JSON}}
TIMEOUT_S = 10.0


def main():
    try:
        payload = sys.stdin.buffer.read()
        result = subprocess.run(
            [RTOK_BIN, "hook", "cline"],
            input=payload,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            timeout=TIMEOUT_S,
            check=False,
        )
        if result.returncode != 0:
            return 0
        reply = result.stdout.strip()
        if reply:
            json.loads(reply)  # only a well-formed reply is passed on
            sys.stdout.buffer.write(reply + b"\n")
    except Exception:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
