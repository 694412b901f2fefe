"""Regenerates bypass_corpus.jsonl: spellings of denied commands that bash would run.

The base commands are the `git push`, `rm` and `curl` examples of the tldr pages
(tldr-pages/tldr, pages/common/{git-push,rm,curl}.md) with their placeholders filled in;
each is spelled in every way below (quoting, escaping, paths, wrappers, global options,
compounds, newlines, substitutions, `find -exec`, `xargs`, `sh -c`, `eval`, fish's
`; and`). One JSON object per line: {"cmd": ..., "base": ..., "form": ...}.

    python tests/permissions/data/make_bypass_corpus.py
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable

BASES = [
    "git push",
    "git push origin main",
    "git push -u origin feature",
    "git push origin main:release",
    "git push --all origin",
    "git push origin --delete old",
    "git push --prune origin",
    "git push --tags",
    "rm notes.txt other.txt",
    "rm -r build",
    "rm -rf build",
    "rm -i notes.txt",
    "rm -v dir/x",
    "curl http://127.0.0.1:9/ --output out.html",
    "curl --remote-name http://127.0.0.1:9/f",
    "curl --fail --location http://127.0.0.1:9/f",
    "curl --data name=bob http://127.0.0.1:9/",
    "curl --header 'X-My-Header: 123' --request PUT http://127.0.0.1:9/",
]


def _program(cmd: str) -> tuple[str, str]:
    head, _, rest = cmd.partition(" ")
    return head, rest


def _sub(cmd: str) -> tuple[str, str, str]:
    head, rest = _program(cmd)
    sub, _, tail = rest.partition(" ")
    return head, sub, tail


def _join(*parts: str) -> str:
    return " ".join(p for p in parts if p)


Form = Callable[[str], str | None]

FORMS: dict[str, Form] = {
    "plain": lambda c: c,
    "double-quoted program": lambda c: _join(f'"{_program(c)[0]}"', _program(c)[1]),
    "single-quoted program": lambda c: _join(f"'{_program(c)[0]}'", _program(c)[1]),
    "backslash program": lambda c: _join("\\" + _program(c)[0], _program(c)[1]),
    "empty quotes in program": lambda c: _join(
        _program(c)[0][:1] + "''" + _program(c)[0][1:], _program(c)[1]
    ),
    "escaped letter": lambda c: _join(
        _program(c)[0][:1] + "\\" + _program(c)[0][1:], _program(c)[1]
    ),
    "double-quoted whole": lambda c: (
        None
        if "'" in c
        else _join(f'"{_program(c)[0]}"', *[f'"{w}"' for w in _program(c)[1].split()])
    ),
    "quoted subcommand": lambda c: (
        _join(_sub(c)[0], f'"{_sub(c)[1]}"', _sub(c)[2]) if c.startswith("git ") else None
    ),
    "split subcommand": lambda c: (
        _join(_sub(c)[0], _sub(c)[1][:2] + "''" + _sub(c)[1][2:], _sub(c)[2])
        if c.startswith("git ")
        else None
    ),
    "absolute path": lambda c: "/usr/bin/" + c,
    "bin path": lambda c: "/bin/" + c,
    "relative path": lambda c: "./" + c,
    "dot-dot path": lambda c: "/usr/../usr/bin/" + c,
    "tab separated": lambda c: c.replace(" ", "\t", 1),
    "double space": lambda c: c.replace(" ", "  ", 1),
    "line continuation": lambda c: c.replace(" ", " \\\n  ", 1),
    "continuation inside word": lambda c: c[:2] + "\\\n" + c[2:],
    "assignment prefix": lambda c: "FOO=1 " + c,
    "two assignments": lambda c: "A=1 B='x y' " + c,
    "noglob": lambda c: "noglob " + c,
    "command": lambda c: "command " + c,
    "command -p": lambda c: "command -p " + c,
    "exec": lambda c: "exec " + c,
    "exec -a": lambda c: "exec -a name " + c,
    "time": lambda c: "time " + c,
    "time -p": lambda c: "time -p " + c,
    "nohup": lambda c: "nohup " + c,
    "nice": lambda c: "nice " + c,
    "nice -n": lambda c: "nice -n 5 " + c,
    "timeout": lambda c: "timeout 30 " + c,
    "timeout -s": lambda c: "timeout -s KILL 30 " + c,
    "env": lambda c: "env " + c,
    "env -i": lambda c: "env -i " + c,
    "env assignment": lambda c: "env FOO=1 " + c,
    "env -u": lambda c: "env -u HOME " + c,
    "env -S": lambda c: None if "'" in c else f"env -S '{c}'",
    "/usr/bin/env": lambda c: "/usr/bin/env " + c,
    "sudo": lambda c: "sudo " + c,
    "sudo -u": lambda c: "sudo -u root " + c,
    "doas": lambda c: "doas " + c,
    "stdbuf": lambda c: "stdbuf -oL " + c,
    "setsid": lambda c: "setsid " + c,
    "ionice": lambda c: "ionice -c 3 " + c,
    "chrt": lambda c: "chrt -o 0 " + c,
    "taskset": lambda c: "taskset -c 0 " + c,
    "nested wrappers": lambda c: "timeout 5 nice -n 2 env A=1 " + c,
    "unknown wrapper option": lambda c: "timeout --frob 5 " + c,
    "brace program": lambda c: _join("{" + _program(c)[0] + ",}", _program(c)[1]),
    "brace split program": lambda c: (
        _join("{" + _program(c)[0][:1] + "," + _program(c)[0][1:] + "}", _program(c)[1])
        if len(_program(c)[0]) > 1
        else None
    ),
    "glob program": lambda c: _join("/usr/bin/" + _program(c)[0][:-1] + "?", _program(c)[1]),
    "bracket program": lambda c: _join(
        _program(c)[0][:-1] + "[" + _program(c)[0][-1] + "]", _program(c)[1]
    ),
    "brace subcommand": lambda c: (
        _join(_sub(c)[0], "{" + _sub(c)[1] + ",}", _sub(c)[2]) if c.startswith("git ") else None
    ),
    "glob subcommand": lambda c: (
        _join(_sub(c)[0], _sub(c)[1][:-1] + "[" + _sub(c)[1][-1] + "]", _sub(c)[2])
        if c.startswith("git ")
        else None
    ),
    "before a rewritable command": lambda c: c + "; git status",
    "after a rewritable command": lambda c: "git status && " + c,
    "git -C": lambda c: c.replace("git ", "git -C . ", 1) if c.startswith("git ") else None,
    "git --no-pager": lambda c: (
        c.replace("git ", "git --no-pager ", 1) if c.startswith("git ") else None
    ),
    "git -c": lambda c: c.replace("git ", "git -c core.x=1 ", 1) if c.startswith("git ") else None,
    "git several options": lambda c: (
        c.replace("git ", "git -C /tmp -c a=b --no-pager ", 1) if c.startswith("git ") else None
    ),
    "after &&": lambda c: "echo hi && " + c,
    "after ||": lambda c: "false || " + c,
    "after ;": lambda c: "true; " + c,
    "after &": lambda c: "true & " + c,
    "background": lambda c: c + " &",
    "before &&": lambda c: c + " && echo done",
    "subshell": lambda c: f"({c})",
    "group": lambda c: f"{{ {c}; }}",
    "negated": lambda c: "! " + c,
    "if": lambda c: f"if true; then {c}; fi",
    "while": lambda c: f"while true; do {c}; break; done",
    "for": lambda c: f"for i in 1; do {c}; done",
    "case": lambda c: f"case x in x) {c};; esac",
    "function": lambda c: f"f() {{ {c}; }}; f",
    "pipe producer": lambda c: c + " | cat",
    "pipe consumer": lambda c: "echo x | " + c,
    "pipe stderr": lambda c: c + " |& cat",
    "newline": lambda c: "echo ok\n" + c,
    "crlf": lambda c: "echo ok\r\n" + c,
    "comment first": lambda c: "# note\n" + c,
    "command substitution": lambda c: f"echo $({c})",
    "backticks": lambda c: f"echo `{c}`",
    "assignment substitution": lambda c: f"x=$({c})",
    "quoted substitution": lambda c: f'echo "$({c})"',
    "process substitution": lambda c: f"cat <({c})",
    "redirect to null": lambda c: c + " >/dev/null 2>&1",
    "stderr to stdout": lambda c: c + " 2>&1",
    "sh -c": lambda c: None if "'" in c else f"sh -c '{c}'",
    "bash -c": lambda c: None if "'" in c else f'bash -c "{c}"',
    "bash -lc": lambda c: None if "'" in c else f"bash -lc '{c}'",
    "bash -c chained": lambda c: None if "'" in c else f"bash -c 'true && {c}'",
    "eval quoted": lambda c: None if "'" in c else f"eval '{c}'",
    "eval words": lambda c: "eval " + c,
    "find -exec": lambda c: f"find . -maxdepth 0 -exec {c} \\;",
    "find -exec plus": lambda c: f"find . -maxdepth 0 -exec {c} {{}} +",
    "find -execdir": lambda c: f"find . -maxdepth 0 -execdir {c} \\;",
    "find -ok": lambda c: f"find . -maxdepth 0 -ok {c} \\;",
    "xargs": lambda c: f"echo . | xargs {c}",
    "xargs -I": lambda c: f"echo . | xargs -I{{}} {c}",
    "xargs -0": lambda c: f"printf '.\\0' | xargs -0 {c}",
    "piped into sh": lambda c: None if "'" in c else f"echo '{c}' | sh; git status",
    "piped into bash -s": lambda c: None if "'" in c else f"echo '{c}' | bash -s",
    "here-string to bash": lambda c: None if "'" in c else f"bash <<< '{c}'; git status",
    "watch": lambda c: "watch -n 1 " + c,
    "flock": lambda c: "flock /tmp/lock " + c,
    "unbuffer": lambda c: "unbuffer " + c,
    "inline git alias": lambda c: (
        c.replace("git push", "git -c alias.p=push p", 1) + "; git status"
        if c.startswith("git push")
        else None
    ),
    "alias then use": lambda c: f"alias x='{_program(c)[0]}'; git status" if "'" not in c else None,
    "trap": lambda c: None if "'" in c else f"trap '{c}' EXIT; git status",
    "fish and": lambda c: None if "'" in c else f"fish -c 'true; and {c}'",
    "bash and": lambda c: "true; and " + c,
}


def corpus() -> list[dict[str, str]]:
    out = []
    seen = set()
    for base in BASES:
        for form, build in FORMS.items():
            cmd = build(base)
            if cmd is None or cmd in seen:
                continue
            seen.add(cmd)
            out.append({"cmd": cmd, "base": base, "form": form})
    return out


def main() -> None:
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "bypass_corpus.jsonl")
    with open(path, "w", encoding="utf-8") as handle:
        for entry in corpus():
            handle.write(json.dumps(entry) + "\n")


if __name__ == "__main__":
    main()
