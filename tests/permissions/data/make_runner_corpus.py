"""Regenerates runner_corpus.jsonl: every program of rules/registry.toml [runners] that
takes its command in a way bash would run, times every way of giving it the command
(argv, `-c` and other command options, a here-string or a pipe on stdin, `eval`/`trap`,
text bash evaluates later, inline interpreter code), times the quoting of that command.

Besides the hand-written forms below, every runner of the table is spelled with each of
its command and code options, stdin, `/dev/stdin` and argv (`_table_forms`). The runners
and the ways they take a command come from GTFOBins' shell and command
entries, the util-linux, coreutils and procps manuals and bash's builtins; the denied base
commands are `git push`, `rm -rf build` and `curl`. One JSON object per line:
{"cmd": ..., "base": ..., "form": ..., "way": ...}. Each line also runs `git status`
(before or after), which rtok rewrites: a line that slips through would be rewritten.

    python tests/permissions/data/make_runner_corpus.py
"""

from __future__ import annotations

import json
import os
import tomllib
from collections.abc import Callable

BASES = ["git push origin main", "rm -rf build", "curl --fail http://127.0.0.1:9/f"]

# The command as argument words: as written, with its program quoted or escaped.
ARGV_QUOTING: dict[str, Callable[[str], str]] = {
    "plain": lambda c: c,
    "quoted program": lambda c: "'" + c.split()[0] + "' " + c.split(" ", 1)[1],
    "escaped program": lambda c: "\\" + c,
}
# The command as one shell string.
STRING_QUOTING: dict[str, Callable[[str], str]] = {
    "single": lambda c: f"'{c}'",
    "double": lambda c: f'"{c}"',
    "ansi-c": lambda c: f"$'{c}'",
}

ARGV = [
    "setsid",
    "setsid -w",
    "chrt -o 0",
    "ionice -c 3",
    "taskset -c 0",
    "nice -n 5",
    "nohup",
    "timeout 30",
    "stdbuf -oL",
    "env",
    "env --default-signal",
    "env --default-signal=INT",
    "env --block-signal",
    "env --ignore-signal=PIPE",
    "prlimit --nofile=256",
    "prlimit -n256",
    "flock /tmp/rtok-corpus.lock",
    "flock -n /tmp/rtok-corpus.lock",
    "flock -w 5 /tmp/rtok-corpus.lock",
    "logsave /dev/null",
    "setarch x86_64",
    "setarch x86_64 -R",
    "choom -n 0",
    "runuser -u root --",
    "runuser -u root",
    "chroot /",
    "unshare -m",
    "unshare --mount",
    "unshare -f",
    "busybox",
    "exec",
    "command",
    "time",
    "time -p",
    "strace -o /dev/null",
    "strace -f -o /dev/null",
    "parallel --will-cite",
    "systemd-run --quiet --pipe",
    "timeout 5 flock /tmp/rtok-corpus.lock",
    "nice -n 1 setsid",
    "env -u HOME",
    "command -p",
]
OPTION = [
    "script -qc {Q} /dev/null",
    "script -q -c {Q} /dev/null",
    "script --command={Q} /dev/null",
    "script -q /dev/null -c {Q}",
    "su -m -c {Q}",
    "su -c {Q}",
    "su -m root -c {Q}",
    "su root -m -c {Q}",
    "su --command={Q} -m",
    "su -m -c {Q} root",
    "runuser -m root -c {Q}",
    "runuser -m -c {Q} root",
    "runuser -m --command={Q} root",
    "flock /tmp/rtok-corpus.lock -c {Q}",
    "flock -n /tmp/rtok-corpus.lock -c {Q}",
    "flock /tmp/rtok-corpus.lock --command {Q}",
    "sg root -c {Q}",
    "sg root {Q}",
    "bash -c {Q}",
    "bash -o posix -c {Q}",
    "bash -O extglob -c {Q}",
    "bash +O extglob -c {Q}",
    "bash --norc -c {Q}",
    "bash -e -c {Q}",
    "bash -ec {Q}",
    "bash --posix -c {Q}",
    "sh -c {Q}",
    "dash -c {Q}",
    "zsh -c {Q}",
    "zsh -f -c {Q}",
    "mksh -c {Q}",
    "busybox sh -c {Q}",
    "busybox ash -c {Q}",
    "timeout 5 su -m -c {Q}",
    "setsid script -qc {Q} /dev/null",
    "env -S {Q}",
    "watch -g -n 0.1 {Q}",
    "parallel --will-cite ::: {Q}",
    "eval {Q}",
    "eval -- {Q}",
    "command eval {Q}",
    "builtin eval {Q}",
    "trap -- {Q} EXIT",
    "trap {Q} EXIT",
    "trap -- {Q} EXIT; true",
    "find . -maxdepth 0 -exec sh -c {Q} \\;",
    "xargs -0 -a /dev/null -r sh -c {Q}",
    "nohup sh -c {Q}",
    "env bash -c {Q}",
]
STDIN = [
    "bash <<< {Q}",
    "bash -o posix <<< {Q}",
    "bash -O extglob <<< {Q}",
    "bash -s <<< {Q}",
    "bash /dev/stdin <<< {Q}",
    "bash - <<< {Q}",
    "bash --norc <<< {Q}",
    "sh <<< {Q}",
    "dash <<< {Q}",
    "zsh <<< {Q}",
    "mksh <<< {Q}",
    "busybox sh <<< {Q}",
    "su -m <<< {Q}",
    "source /dev/stdin <<< {Q}",
    ". /dev/stdin <<< {Q}",
    "xargs -I% sh -c '%' <<< {Q}",
    "xargs -I{{}} bash -c '{{}}' <<< {Q}",
    "xargs -i sh -c '{{}}' <<< {Q}",
    "parallel --will-cite <<< {Q}",
    "echo {Q} | bash",
    "echo {Q} | sh -s",
    "echo {Q} | bash -o posix",
    "echo {Q} | parallel --will-cite",
    "echo {Q} | su -m",
    "chroot / /bin/sh <<< {Q}",
    "unshare -m sh <<< {Q}",
    "BASH_ENV=/dev/stdin bash -c : <<< {Q}",
    "ENV=/dev/stdin sh -i -c : <<< {Q}",
    "bash -c 'source /dev/stdin' <<< {Q}",
    "python3 - <<< {P}",
    "perl <<< {E}",
]
LATE = [
    "let 'a[$({C})]'",
    "a=(); let 'a[$({C})]+=1'",
    "printf -v 'a[$({C})]' x",
    "read 'a[$({C})]' <<< 1",
    "a=(); test -v 'a[$({C})]'",
    "a=(); [ -v 'a[$({C})]' ]",
    "a=(); [[ -v 'a[$({C})]' ]]",
    "declare -n r='a[$({C})]'; echo $r",
    "unset 'a[$({C})]'",
    "mapfile -C '{C}' -c 1 <<< x",
    "readarray -C '{C} #' -c 1 <<< x",
    "PS4='$({C}) '; set -x; true",
    "x='$({C})'; echo \"${{x@P}}\"",
    "v='a[$({C})]'; let v",
    "v='a[$({C})]'; [[ v -eq 0 ]]",
    "zsh -c '={C}'",
    "export PS4='$({C})'; set -x; :",
]
OPAQUE = [
    "python3 -c 'import os; os.system(\"{C}\")'",
    "python3 -c \"import os; os.system('{C}')\"",
    "perl -e 'system(\"{C}\")'",
    "perl -e \"system('{C}')\"",
    'node -e \'require("child_process").execSync("{C}")\'',
    "awk 'BEGIN{{system(\"{C}\")}}'",
    "mawk 'BEGIN{{system(\"{C}\")}}'",
    "awk 'BEGIN{{print | \"{C}\"}}'",
    "awk 'BEGIN{{\"{C}\" | getline}}'",
    "echo x | sed '1e {C}'",
    "echo x | sed 's/.*/{C}/e'",
    "echo x | sed -n 's/x/{C}/ep'",
    "tar -cf /dev/null /dev/null --checkpoint=1 --checkpoint-action=exec='{C}'",
    "tar -cf /dev/null --to-command='{C}' /dev/null",
    "find . -maxdepth 0 -exec {C} \\;",
    "find . -maxdepth 0 -exec sh -c '{C}' \\;",
    "PAGER='{C}' git -p log -1",
    "GIT_PAGER='{C}' git --paginate log -1",
    "python3 -c 'import subprocess; subprocess.run(\"{C}\", shell=True)'",
    "echo 'import os; os.system(\"{C}\")' | python3",
    "busybox awk 'BEGIN{{system(\"{C}\")}}'",
]
# The same runners, reaching the denied command through another layer.
WRAPPED_ARGV = ["git -p", "git --paginate", "git -p -C ."]


REGISTRY = os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "rules", "registry.toml"
)


def _table_forms() -> list[tuple[str, str]]:
    """(template, way) for every runner of [runners] and every way it takes a command:
    its command and code options, stdin (a here-string and a pipe), `/dev/stdin` as its
    file, and the command as its arguments (runners without positionals)."""
    with open(REGISTRY, "rb") as handle:
        registry = tomllib.load(handle)
    wrappers = registry["wrappers"]
    forms = []
    for name, runner in registry["runners"].items():
        how = runner["how"]
        for option in runner.get("command_options", []) + runner.get("code_options", []):
            joined = f"{option}={{Q}}" if option.startswith("--") else f"{option} {{Q}}"
            forms.append((f"{name} {joined}", "table option"))
        if "stdin" in how or "always" in how:
            forms += [(f"{name} <<< {{Q}}", "table stdin"), (f"echo {{Q}} | {name}", "table stdin")]
        if "file" in how and not runner.get("reader"):  # awk/sed: the file is `-f FILE`
            forms.append((f"{name} /dev/stdin <<< {{Q}}", "table file"))
        if "argv" in how and not wrappers.get(name, {}).get("positionals"):
            forms.append((f"{name} {{C}}", "table argv"))
    return forms


def _quoted_entries(base: str) -> list[dict[str, str]]:
    """BASE behind each argv runner and in each option and stdin template, in every quoting."""
    out = []
    for runner in ARGV:
        for quoting, spell in ARGV_QUOTING.items():
            out.append(
                {
                    "cmd": f"{runner} {spell(base)}",
                    "base": base,
                    "form": f"{runner} (argv, {quoting})",
                    "way": "argv",
                }
            )
    for template in OPTION + STDIN:
        way = "option" if template in OPTION else "stdin"
        for quoting, spell in STRING_QUOTING.items():
            cmd = template.format(
                Q=spell(base),
                P=spell(f"import os; os.system('{base}')"),
                E=spell(f"system(q({base}))"),
            )
            out.append({"cmd": cmd, "base": base, "form": f"{template} ({quoting})", "way": way})
    return out


def _template_entries(base: str) -> list[dict[str, str]]:
    """BASE in the late, opaque and table templates, and behind each wrapper of git."""
    out = []
    for template in LATE:
        out.append({"cmd": template.format(C=base), "base": base, "form": template, "way": "late"})
    for template in OPAQUE:
        out.append(
            {"cmd": template.format(C=base), "base": base, "form": template, "way": "opaque"}
        )
    for template, way in _table_forms():
        for quoting, spell in STRING_QUOTING.items():
            if quoting == "ansi-c" or ("{Q}" not in template and quoting != "single"):
                continue
            out.append(
                {
                    "cmd": template.replace("{Q}", spell(base)).replace("{C}", base),
                    "base": base,
                    "form": f"{template} ({quoting})",
                    "way": way,
                }
            )
    if base.startswith("git "):
        for prefix in WRAPPED_ARGV:
            out.append(
                {
                    "cmd": base.replace("git", prefix, 1),
                    "base": base,
                    "form": prefix,
                    "way": "argv",
                }
            )
    return out


def _entries() -> list[dict[str, str]]:
    out = []
    for base in BASES:
        out += _quoted_entries(base)
        out += _template_entries(base)
    seen: set[str] = set()
    unique = []
    for index, entry in enumerate(out):
        cmd = entry["cmd"]
        entry["cmd"] = f"{cmd}; git status" if index % 2 else f"git status && {cmd}"
        if entry["cmd"] not in seen:
            seen.add(entry["cmd"])
            unique.append(entry)
    return unique


def main() -> None:
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "runner_corpus.jsonl")
    with open(path, "w", encoding="utf-8") as handle:
        for entry in _entries():
            handle.write(json.dumps(entry) + "\n")


if __name__ == "__main__":
    main()
