"""Regenerate tests/golden/: real output of real tools, and what rtok shows for it.

    .venv/bin/python scripts/gen_golden.py            # .in files (runs the tools) and .out
    .venv/bin/python scripts/gen_golden.py --out-only # only .out, from the committed .in

Each case runs a real command in a scratch project built here (a git repository, a Python
package with tests, a cargo crate, an npm package, a Makefile tree, ...) and stores its
combined stdout+stderr as `<name>.in`; `cases.json` keeps the command line and exit status.
A tool that is missing on this machine is reported and its case left as it was. `.out` is
what `rtok filter --stdin --cmd CMD --exit-code N` prints for the `.in`.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GOLDEN = os.path.join(ROOT, "tests", "golden")
PY = sys.executable

# name -> (command run in the scratch project, tools it needs)
CASES: dict[str, tuple[str, tuple[str, ...]]] = {
    "git_status": ("git status", ("git",)),
    "git_log": ("git log", ("git",)),
    "git_diff": ("git diff", ("git",)),
    "git_show": ("git show HEAD~1", ("git",)),
    "pytest_pass": (f"{PY} -m pytest -v tests/test_ok.py", ()),
    "pytest_fail": (f"{PY} -m pytest tests", ()),
    "pip_show": (f"{PY} -m pip show -f pytest", ()),
    "pip_list": (f"{PY} -m pip list", ()),
    "npm_run": ("npm run build", ("npm",)),
    "cargo_build": ("cargo build --offline --manifest-path crate/Cargo.toml", ("cargo",)),
    "cargo_test": ("cargo test --offline --manifest-path crate/Cargo.toml", ("cargo",)),
    "ls_long": ("ls -la src/pkg0", ("ls",)),
    "ls_plain": ("ls -1 src/pkg0", ("ls",)),
    "tree": ("tree src", ("tree",)),
    "grep": ("grep -rn value src", ("grep",)),
    "make": ("make all", ("make",)),
    "make_fail": ("make -C sub9 build", ("make",)),
    "find": ("find src -name *.py", ("find",)),
    "du": ("du -a src", ("du",)),
    "python_traceback": (f"{PY} crash.py", ()),
    "node_error": ("node crash.js", ("node",)),
    "diff": ("diff -u old.txt new.txt", ("diff",)),
    "jq": ("jq . data.json", ("jq",)),
    "docker_help": ("docker --help", ("docker",)),
    "cat": ("cat big.txt", ("cat",)),
    "sed": ("sed -n 1,400p big.txt", ("sed",)),
    "head": ("head -n 350 big.txt", ("head",)),
    "script_chain": ("sh -c 'git status && ls -la src/pkg1 && grep -rn value src'", ("git",)),
    "unknown_tool": (f"{PY} gen_log.py", ()),
}
# The family each case's command is filtered as (what `rtok filter --cmd` receives).
FILTER_CMD = {
    "pytest_pass": "pytest -v tests/test_ok.py",
    "pytest_fail": "pytest tests",
    "pip_show": "pip show -f pytest",
    "pip_list": "pip list",
    "python_traceback": "python crash.py",
    "unknown_tool": "gen_log",
    "script_chain": "git status && ls -la src/pkg1 && grep -rn value src",
}


def _write(path: str, text: str) -> None:
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(text)


def _git(project: str, *args: str) -> None:
    env = dict(
        os.environ,
        GIT_AUTHOR_NAME="Ada Example",
        GIT_AUTHOR_EMAIL="ada@example.org",
        GIT_COMMITTER_NAME="Ada Example",
        GIT_COMMITTER_EMAIL="ada@example.org",
        GIT_AUTHOR_DATE="2026-11-01T10:00:00+00:00",
        GIT_COMMITTER_DATE="2026-11-01T10:00:00+00:00",
    )
    subprocess.run(["git", *args], cwd=project, env=env, check=True, capture_output=True)


def build_project(project: str) -> None:
    """A scratch project that every case runs in."""
    _write_python(project)
    _write_texts(project)
    _write_builds(project)
    _write_history(project)


def _write_python(project: str) -> None:
    """Modules, passing and failing tests, crashing scripts (Python and JavaScript)."""
    for n in range(60):
        body = "".join(
            f"def value_{n}_{i}(x):\n    return x * {i}  # value {i}\n\n" for i in range(4)
        )
        _write(os.path.join(project, "src", f"pkg{n % 3}", f"mod_{n:02d}.py"), body)
    _write(os.path.join(project, "src", "README.txt"), "notes\n" * 3)
    tests = "".join(f"def test_ok_{i}():\n    assert {i} + 1 == {i + 1}\n\n" for i in range(60))
    _write(os.path.join(project, "tests", "test_ok.py"), tests)
    failing = "".join(f"def test_more_{i}():\n    assert {i} < 100\n\n" for i in range(40))
    failing += (
        "def test_broken():\n    data = {'a': 1}\n    assert data == {'a': 2}\n\n"
        "def test_raises():\n    raise ValueError('bad input: 42')\n"
    )
    _write(os.path.join(project, "tests", "test_mixed.py"), failing)
    _write(
        os.path.join(project, "crash.py"),
        "def parse(x):\n    return int(x)\n\n"
        "def load(rows):\n    return [parse(r) for r in rows]\n\n"
        "for i in range(30):\n    print(f'loading batch {i}')\nload(['1', '2', 'x'])\n",
    )
    _write(
        os.path.join(project, "crash.js"),
        "for (let i = 0; i < 40; i++) console.log(`step ${i}`);\n"
        "function f(o) { return o.missing.field; }\nf({});\n",
    )


def _write_texts(project: str) -> None:
    """Text, JSON and log files for the diff, read and log cases."""
    _write(os.path.join(project, "old.txt"), "".join(f"line {i}\n" for i in range(200)))
    _write(
        os.path.join(project, "new.txt"),
        "".join(f"line {i}{' changed' if i % 37 == 0 else ''}\n" for i in range(200) if i != 100),
    )
    _write(
        os.path.join(project, "data.json"),
        json.dumps(
            {
                "items": [
                    {
                        "id": i,
                        "name": f"item-{i}",
                        "tags": ["a", "b"],
                        "note": None,
                        "description": "x" * 300 if i == 2 else "",
                    }
                    for i in range(40)
                ],
                "total": 40,
                "next": None,
                "warnings": ["quota at 90%"],
            },
            indent=2,
        )
        + "\n",
    )
    _write(
        os.path.join(project, "big.txt"),
        "".join(
            f"{i:04d} lorem ipsum dolor sit amet {'warning: check this' if i == 500 else ''}\n"
            for i in range(900)
        ),
    )
    _write(
        os.path.join(project, "gen_log.py"),
        "import sys\nfor i in range(300):\n"
        "    print(f'[{i:03d}] INFO processing record {i}')\n"
        "    if i % 100 == 42: print(f'[{i:03d}] WARN slow record {i}')\n"
        "print('error: 1 record rejected', file=sys.stderr)\n",
    )


def _write_builds(project: str) -> None:
    """An npm package, a recursive Makefile and a Cargo crate."""
    _write(
        os.path.join(project, "package.json"),
        json.dumps(
            {"name": "golden-demo", "version": "1.0.0", "scripts": {"build": "node build.js"}},
            indent=2,
        ),
    )
    _write(
        os.path.join(project, "build.js"),
        "for (let i = 0; i < 60; i++) console.log(`bundling module ${i}.js`);\n"
        "console.warn('warning: module 7.js is large');\nconsole.log('built 60 modules');\n",
    )
    makefile = "all: " + " ".join(f"part{i}" for i in range(6)) + "\n\n"
    for i in range(6):
        makefile += f"part{i}:\n\t@$(MAKE) -C sub{i} build\n\n"
        _write(
            os.path.join(project, f"sub{i}", "Makefile"),
            "build:\n"
            + "".join(f"\t@echo compiling unit{j}.c\n" for j in range(6))
            + ("\t@echo 'unit3.c:12: warning: unused variable x'\n" if i == 2 else ""),
        )
    _write(os.path.join(project, "Makefile"), makefile)
    crate = os.path.join(project, "crate")
    _write(
        os.path.join(crate, "Cargo.toml"),
        '[package]\nname = "golden"\nversion = "0.1.0"\nedition = "2021"\n',
    )
    lib = "".join(f"pub fn f{i}(x: i32) -> i32 {{ x + {i} }}\n" for i in range(30))
    lib += "pub fn unused() { let y = 3; }\n#[cfg(test)]\nmod tests {\n    use super::*;\n"
    lib += "".join(
        f"    #[test]\n    fn t{i}() {{ assert_eq!(f{i}(1), {i + 1}); }}\n" for i in range(30)
    )
    lib += "}\n"
    _write(os.path.join(crate, "src", "lib.rs"), lib)


def _write_history(project: str) -> None:
    """The git history, then uncommitted, staged and untracked changes."""
    _git(project, "init", "-q", "-b", "main")
    _git(project, "add", "-A")
    _git(project, "commit", "-q", "-m", "Initial import")
    for n in range(25):
        path = os.path.join(project, "src", f"pkg{n % 3}", f"mod_{n % 12:02d}.py")
        with open(path, "a", encoding="utf-8") as handle:
            handle.write(f"# revision {n}\n")
        message = f"Tune module {n % 12} (revision {n})"
        if n == 10:
            message += "\n\nFixes an error when the value is negative."
        _git(project, "commit", "-q", "-am", message)
    for n in range(5):
        path = os.path.join(project, "src", f"pkg{n % 3}", f"mod_{n:02d}.py")
        with open(path, "a", encoding="utf-8") as handle:
            handle.write("def added():\n    return 'value'\n")
    _git(project, "add", "src/pkg0/mod_00.py")
    _write(os.path.join(project, "notes", "todo.txt"), "later\n")
    _write(os.path.join(project, "scratch.py"), "print('hi')\n")


def run_case(command: str, project: str) -> tuple[bytes, int]:
    import shlex

    argv = shlex.split(command)
    env = dict(
        os.environ,
        LC_ALL="C.UTF-8",
        COLUMNS="100",
        NO_COLOR="1",
        GIT_PAGER="cat",
        PAGER="cat",
        PYTHONDONTWRITEBYTECODE="1",
    )
    result = subprocess.run(
        argv,
        cwd=project,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        timeout=600,
        check=False,
    )
    return result.stdout, result.returncode


def write_out(name: str, case: dict[str, object]) -> None:
    with open(os.path.join(GOLDEN, f"{name}.in"), "rb") as handle:
        raw = handle.read()
    with tempfile.TemporaryDirectory() as home:
        env = {k: v for k, v in os.environ.items() if not k.startswith("RTOK_")}
        env.update(
            HOME=home,
            XDG_CONFIG_HOME=f"{home}/c",
            XDG_DATA_HOME=f"{home}/d",
            XDG_CACHE_HOME=f"{home}/k",
        )
        result = subprocess.run(
            [
                PY,
                "-m",
                "rtok",
                "filter",
                "--stdin",
                "--cmd",
                str(case["filter_cmd"]),
                "--exit-code",
                str(case["exit_code"]),
            ],
            input=raw,
            env=env,
            capture_output=True,
            cwd=ROOT,
            check=False,
        )
    with open(os.path.join(GOLDEN, f"{name}.out"), "wb") as handle:
        handle.write(result.stdout)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out-only", action="store_true", help="only regenerate .out files")
    args = parser.parse_args()
    manifest_path = os.path.join(GOLDEN, "cases.json")
    try:
        with open(manifest_path, encoding="utf-8") as handle:
            manifest: dict[str, dict[str, object]] = json.load(handle)
    except FileNotFoundError:
        manifest = {}
    if not args.out_only:
        with tempfile.TemporaryDirectory(prefix="rtok-golden-") as tmp:
            project = os.path.join(tmp, "project")
            build_project(project)
            for name, (command, tools) in CASES.items():
                missing = [tool for tool in tools if shutil.which(tool) is None]
                if missing:
                    print(f"skipped {name}: {', '.join(missing)} not installed here")
                    continue
                output, status = run_case(command, project)
                with open(os.path.join(GOLDEN, f"{name}.in"), "wb") as handle:
                    handle.write(output)
                display = command.replace(PY, "python")
                manifest[name] = {
                    "command": display,
                    "filter_cmd": FILTER_CMD.get(name, display),
                    "exit_code": status,
                }
                print(f"{name}: {len(output)} bytes, exit {status}")
        with open(manifest_path, "w", encoding="utf-8") as handle:
            json.dump(manifest, handle, indent=2, sort_keys=True)
            handle.write("\n")
    for name, case in sorted(manifest.items()):
        write_out(name, case)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
