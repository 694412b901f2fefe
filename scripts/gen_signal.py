"""Capture signal-graded cases (tests/golden/signal/) from real public projects.

    .venv/bin/python scripts/gen_signal.py --click-git PATH [--only NAME...]

Runs real commands on real code and writes each case's `raw` (or `raw.gz`) and `case.json`
(format: tests/golden/signal/README.md). The projects: the click 8.1.7 and requests 2.32.3
sdists (downloaded with pip), a clone of click's public git history (PATH: any clone of
pallets/click), the Debian system's own logs and binaries, npm package metadata. A case
whose tool is missing is reported and left as it was.

E and K are computed from the raw output or from the project itself, never from rtok: E
holds the lines of a case that report an error or warning (the tool's own messages, a
log's ERROR/WARN/4xx/5xx lines), K the names an agent needs (files with hits, changed
files, commit subjects, folders, keys).
"""

from __future__ import annotations

import argparse
import gzip
import http.server
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
from collections.abc import Callable, Sequence

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SIGNAL = os.path.join(ROOT, "tests", "golden", "signal")
GZIP_OVER = 256 * 1024

# (E, K) of one case: the lines that report a problem, the names an agent needs.
Found = tuple[Sequence[object], Sequence[object]]
Annotate = Callable[[str, "Context"], Found]


class Context:
    """Where the projects are, and the command of the case being annotated."""

    def __init__(self, corpus: str, click_git: str, scratch: str) -> None:
        self.corpus = corpus
        self.click_git = click_git
        self.scratch = scratch
        self.port = 0
        self.command = ""
        self.cwd = ""

    def path(self, key: str) -> str:
        return {
            "click": os.path.join(self.corpus, "click-8.1.7"),
            "requests": os.path.join(self.corpus, "requests-2.32.3"),
            "clickgit": self.click_git,
            "scratch": self.scratch,
            "corpus": self.corpus,
            "root": "/",
        }[key]

    def git(self, *args: str) -> str:
        return subprocess.run(
            ["git", "-C", self.cwd, *args], capture_output=True, text=True, check=True
        ).stdout


# ------------------------------------------------------------------------ annotations

_SEVERITY = re.compile(
    r"(?i)\b(?:error|errors|fatal|failed|failure|denied|refused|warn|warning|deprecated|"
    r"cannot|could not|no such file or directory|not found|traceback|exception)\b"
    r"|HTTP/[0-9.]+\"? [45]\d\d\b"
)


def severity_lines(raw: str) -> list[object]:
    return [line for line in dict.fromkeys(raw.splitlines()) if _SEVERITY.search(line)]


def tool_messages(prefixes: tuple[str, ...]) -> Annotate:
    def annotate(raw: str, ctx: Context) -> Found:
        return [line for line in raw.splitlines() if line.startswith(prefixes)], []

    return annotate


def grep_hits(raw: str, ctx: Context) -> Found:
    """E: the search tool's own messages; K: every file with a hit."""
    lines = [line for line in raw.splitlines() if line and line != "--"]
    numbered = [re.match(r"^([^:]+):\d+:", line) for line in lines]
    if any(numbered):
        return _numbered_hits(lines, numbered)
    prefixes = ("grep:", "rg:", "fatal:", "Binary file")
    messages = [line for line in lines if line.startswith(prefixes) or "(os error" in line]
    files = dict.fromkeys(line.split(":", 1)[0] for line in lines if line not in messages)
    return list(messages), list(files)


def _numbered_hits(lines: list[str], numbered: list[re.Match[str] | None]) -> Found:
    """grep_hits for `path:N:` output: every line that is neither a hit nor a context row
    is a message of the tool."""
    files = dict.fromkeys(found.group(1) for found in numbered if found)
    messages = [
        line
        for line, found in zip(lines, numbered, strict=True)
        if found is None and not re.match(r"^.+?-\d+-", line)
    ]
    return messages, list(files)


def rg_headed(raw: str, ctx: Context) -> Found:
    """`rg --heading`: a path line opens each group; K: those paths."""
    lines = raw.splitlines()
    paths = [
        line
        for i, line in enumerate(lines)
        if line and (i == 0 or not lines[i - 1]) and not re.match(r"^\d+[:-]", line)
    ]
    return [line for line in lines if line.startswith("rg:")], paths


def tree_summary(raw: str, ctx: Context) -> Found:
    """K: the `N directories, M files` line and the folders right under the root."""
    lines = raw.splitlines()
    top = [re.sub(r"^[├└]── ", "", line) for line in lines if re.match(r"^[├└]── ", line)]
    folders = [name for name in top if "." not in name]
    return [], [*folders, *[line for line in lines if "directories" in line]]


def git_patch(raw: str, ctx: Context) -> Found:
    """K: every commit subject and every changed file (old path of a rename too)."""
    keep: list[object] = []
    for line in raw.splitlines():
        found = re.match(r"^diff --git a/(\S+) b/(\S+)$", line)
        if found:
            keep.append(found.group(2))
        elif line.startswith(("rename from ", "copy from ")):
            keep.append(line)
    subjects = re.findall(r"^commit [0-9a-f]{40}.*\n(?:\w+:.*\n)*\n    (.+)$", raw, re.M)
    return [], [*dict.fromkeys(subjects), *dict.fromkeys(keep)]


def git_stat(raw: str, ctx: Context) -> Found:
    subjects = re.findall(r"^commit [0-9a-f]{40}.*\n(?:\w+:.*\n)*\n    (.+)$", raw, re.M)
    files = re.findall(r"^ (\S.*?)\s+\|\s+", raw, re.M)
    return [], [*dict.fromkeys(subjects), *dict.fromkeys(files)]


def git_log_plain(raw: str, ctx: Context) -> Found:
    subjects = re.findall(r"^commit [0-9a-f]{40}.*\n(?:\w+:.*\n)*\n    (.+)$", raw, re.M)
    return [], list(dict.fromkeys(subjects))


def git_status(raw: str, ctx: Context) -> Found:
    names = [
        line.strip().split(":", 1)[-1].strip() for line in raw.splitlines() if line.startswith("\t")
    ]
    return [], names


def folders(raw: str, ctx: Context) -> Found:
    """E: the tool's messages; K: every folder that holds a listed path."""
    errors: list[object] = [line for line in raw.splitlines() if line.startswith("find:")]
    dirs: dict[str, None] = {}
    for line in raw.splitlines():
        if line.startswith("find:") or "/" not in line:
            continue
        dirs.setdefault(line.rstrip("/").rsplit("/", 1)[0] + "/", None)
    return errors, list(dirs)


def ls_folders(raw: str, ctx: Context) -> Found:
    errors: list[object] = [line for line in raw.splitlines() if line.startswith("ls:")]
    dirs = [
        line.split()[-1]
        for line in raw.splitlines()
        if line.startswith("d") and line.split()[-1] not in (".", "..")
    ]
    return errors, dirs


def log_lines(raw: str, ctx: Context) -> Found:
    """E: every ERROR/WARN/4xx/5xx-style line; K: the first and the last line."""
    lines = raw.splitlines()
    return severity_lines(raw), [lines[0], lines[-1]] if lines else []


def help_text(raw: str, ctx: Context) -> Found:
    """A help text reports nothing wrong; K: its usage line and its last line."""
    lines = [line for line in raw.splitlines() if line.strip()]
    usage = [line for line in lines if line.startswith("Usage:")][:1]
    return [], usage + lines[-1:]


def first_last(raw: str, ctx: Context) -> Found:
    """A document or a log without problems (package names like libgpg-error are not)."""
    lines = raw.splitlines()
    return [], [lines[0], lines[-1]] if lines else []


_TOOL_WARNING = re.compile(
    r"^(?:invoke-rc\.d|dpkg|debconf|update-alternatives|W|E): "
    r"|^(?:dpkg|debconf): (?:warning|error)"
)


def apt_term_log(raw: str, ctx: Context) -> Found:
    """E: the messages maintainer scripts and dpkg print about what went wrong."""
    lines = raw.splitlines()
    errors = [
        line
        for line in dict.fromkeys(lines)
        if _TOOL_WARNING.search(line) and _SEVERITY.search(line)
    ]
    return list(errors), [lines[0], lines[-1]] if lines else []


def failure(raw: str, ctx: Context) -> Found:
    return [line for line in raw.splitlines() if line.strip()][-3:], []


def yaml_keys(raw: str, ctx: Context) -> Found:
    keys = [
        line
        for line in raw.splitlines()
        if re.match(r"^\s*(kind|name|image|replicas|apiVersion):", line)
    ]
    return [], keys


def json_keys(raw: str, ctx: Context) -> Found:
    data = json.loads(raw)
    if isinstance(data, dict):
        return [], [f'"{key}"' for key in list(data)[:40]]
    return [], []


def installer(raw: str, ctx: Context) -> Found:
    keep = [
        line
        for line in raw.splitlines()
        if line.startswith(("Successfully", "Saved ", "added ", "changed ", "up to date"))
    ]
    return severity_lines(raw), keep


def curl_verbose(raw: str, ctx: Context) -> Found:
    status = [line for line in raw.splitlines() if line.startswith("< HTTP/")]
    bad = [line for line in status if re.search(r" [45]\d\d\b", line)]
    return bad, status


def unified(raw: str, ctx: Context) -> Found:
    return [], [line.split("\t")[0] for line in raw.splitlines() if line.startswith("+++ ")]


def du_rows(raw: str, ctx: Context) -> Found:
    lines = raw.splitlines()
    return [], lines[-1:]


def postgres_errors(raw: str, ctx: Context) -> Found:
    """E: every ERROR, FATAL, PANIC and WARNING line of the server log."""
    lines = raw.splitlines()
    errors = [line for line in lines if re.search(r"\] (?:ERROR|FATAL|PANIC|WARNING):  ", line)]
    return errors, [lines[0], lines[-1]] if lines else []


# ------------------------------------------------------------------------------ cases

# name -> (command, where it runs, streams, project, annotate, tools it needs)
CASES: dict[str, tuple[str, str, str, str, Annotate, tuple[str, ...]]] = {
    "grep-click-raise": (
        "grep -rn raise src/click",
        "click",
        "merged",
        "click 8.1.7",
        grep_hits,
        ("grep",),
    ),
    "grep-requests-def": (
        "grep -rn 'def ' src/requests",
        "requests",
        "merged",
        "requests 2.32.3",
        grep_hits,
        ("grep",),
    ),
    "grep-requests-import": (
        "grep -rn import .",
        "requests",
        "merged",
        "requests 2.32.3",
        grep_hits,
        ("grep",),
    ),
    "grep-click-context": (
        "grep -rn -C2 deprecated src/click",
        "clickgit",
        "merged",
        "click (git main)",
        grep_hits,
        ("grep",),
    ),
    "grep-click-password": (
        "grep -rn password src tests",
        "clickgit",
        "merged",
        "click (git main)",
        grep_hits,
        ("grep",),
    ),
    "grep-missing-path": (
        "grep -rn ctx src/click/core.py src/nosuch tests/nosuch.py",
        "clickgit",
        "merged",
        "click (git main)",
        grep_hits,
        ("grep",),
    ),
    "grep-click-todo": (
        "grep -rni todo .",
        "clickgit",
        "merged",
        "click (git main)",
        grep_hits,
        ("grep",),
    ),
    "grep-dpkg-status": (
        "grep -n 'status installed' /var/log/dpkg.log",
        "root",
        "merged",
        "Debian dpkg log",
        first_last,
        ("grep",),
    ),
    "rg-click-raise": (
        "rg -n raise src/click",
        "click",
        "merged",
        "click 8.1.7",
        grep_hits,
        ("rg",),
    ),
    "rg-requests-plain": (
        "rg session src/requests",
        "requests",
        "merged",
        "requests 2.32.3",
        grep_hits,
        ("rg",),
    ),
    "rg-click-heading": (
        "rg -n --heading Option src/click",
        "click",
        "merged",
        "click 8.1.7",
        rg_headed,
        ("rg",),
    ),
    "rg-missing-path": (
        "rg -n 'def echo' src nosuch",
        "clickgit",
        "merged",
        "click (git main)",
        grep_hits,
        ("rg",),
    ),
    "git-grep-ctx": (
        "git grep -n 'ctx.exit' -- src tests",
        "clickgit",
        "merged",
        "click (git main)",
        grep_hits,
        ("git",),
    ),
    "git-show-13-files": (
        "git show 7a0a3447",
        "clickgit",
        "stdout",
        "click (git history)",
        git_patch,
        ("git",),
    ),
    "git-show-renames": (
        "git show 47cc96fb",
        "clickgit",
        "stdout",
        "click (git history)",
        git_patch,
        ("git",),
    ),
    "git-show-merge-base": (
        "git show a1d87858",
        "clickgit",
        "stdout",
        "click (git history)",
        git_patch,
        ("git",),
    ),
    "git-log-p-3": (
        "git log -p -n 3",
        "clickgit",
        "stdout",
        "click (git history)",
        git_patch,
        ("git",),
    ),
    "git-log-p-core": (
        "git log -p -n 5 -- src/click/core.py",
        "clickgit",
        "stdout",
        "click (git history)",
        git_patch,
        ("git",),
    ),
    "git-log-stat": (
        "git log --stat -n 12",
        "clickgit",
        "stdout",
        "click (git history)",
        git_stat,
        ("git",),
    ),
    "git-log-30": (
        "git log -n 30",
        "clickgit",
        "stdout",
        "click (git history)",
        git_log_plain,
        ("git",),
    ),
    "git-diff-tags": (
        "git diff 8.1.7 8.1.8 -- src",
        "clickgit",
        "stdout",
        "click (git history)",
        git_patch,
        ("git",),
    ),
    "git-diff-worktree": (
        "git diff",
        "scratch",
        "stdout",
        "click (git main, files from 8.1.7)",
        git_patch,
        ("git",),
    ),
    "git-diff-cached": (
        "git diff --cached",
        "scratch",
        "stdout",
        "click (git main, files from 8.0.0 staged)",
        git_patch,
        ("git",),
    ),
    "git-status-changes": (
        "git status",
        "scratch",
        "stdout",
        "click (git main, changed)",
        git_status,
        ("git",),
    ),
    "find-click-files": (
        "find src tests docs -type f",
        "clickgit",
        "merged",
        "click (git main)",
        folders,
        ("find",),
    ),
    "find-requests-py": (
        "find . -name '*.py'",
        "requests",
        "merged",
        "requests 2.32.3",
        folders,
        ("find",),
    ),
    "find-perl-modules": (
        "find /usr/share/perl5 -name '*.pm'",
        "root",
        "merged",
        "Debian perl modules",
        folders,
        ("find",),
    ),
    "find-missing-dir": (
        "find src nosuch -name '*.py'",
        "clickgit",
        "merged",
        "click (git main)",
        folders,
        ("find",),
    ),
    "ls-usr-bin": ("ls -la /usr/bin", "root", "merged", "Debian /usr/bin", ls_folders, ("ls",)),
    "ls-click-root": ("ls -la", "clickgit", "merged", "click (git main)", ls_folders, ("ls",)),
    "ls-usr-lib-python": (
        "ls -la /usr/lib/python3/dist-packages",
        "root",
        "merged",
        "Debian python3 packages",
        ls_folders,
        ("ls",),
    ),
    "ls-missing": (
        "ls -la src nosuch",
        "clickgit",
        "merged",
        "click (git main)",
        ls_folders,
        ("ls",),
    ),
    "tree-click": (
        "tree src tests",
        "clickgit",
        "stdout",
        "click (git main)",
        tree_summary,
        ("tree",),
    ),
    "tree-requests": (
        "tree -L 2",
        "requests",
        "stdout",
        "requests 2.32.3",
        tree_summary,
        ("tree",),
    ),
    "cat-dpkg-log": (
        "cat /var/log/dpkg.log",
        "root",
        "stdout",
        "Debian dpkg log",
        first_last,
        ("cat",),
    ),
    "cat-apt-term-log": (
        "cat /var/log/apt/term.log",
        "root",
        "stdout",
        "Debian apt log",
        apt_term_log,
        ("cat",),
    ),
    "tail-dpkg-log": (
        "tail -n 400 /var/log/dpkg.log",
        "root",
        "stdout",
        "Debian dpkg log",
        first_last,
        ("tail",),
    ),
    "head-apt-term-log": (
        "head -n 500 /var/log/apt/term.log",
        "root",
        "stdout",
        "Debian apt log",
        apt_term_log,
        ("head",),
    ),
    "cat-access-log": (
        "cat server.log",
        "corpus",
        "stdout",
        "python http.server serving click 8.1.7",
        log_lines,
        ("cat",),
    ),
    "cat-postgres-log": (
        "cat postgresql.log",
        "corpus",
        "stdout",
        "PostgreSQL 15 server log",
        postgres_errors,
        ("cat",),
    ),
    "tail-postgres-log": (
        "tail -n 250 postgresql.log",
        "corpus",
        "stdout",
        "PostgreSQL 15 server log",
        postgres_errors,
        ("tail",),
    ),
    "grep-postgres-errors": (
        "grep -n -A2 ERROR postgresql.log",
        "corpus",
        "stdout",
        "PostgreSQL 15 server log",
        postgres_errors,
        ("grep",),
    ),
    "cat-click-changes": (
        "cat CHANGES.rst",
        "click",
        "stdout",
        "click 8.1.7",
        first_last,
        ("cat",),
    ),
    "docker-help": (
        "docker --help",
        "root",
        "merged",
        "Debian docker.io client",
        help_text,
        ("docker",),
    ),
    "docker-build-help": (
        "docker build --help",
        "root",
        "merged",
        "Debian docker.io client",
        help_text,
        ("docker",),
    ),
    "docker-run-help": (
        "docker run --help",
        "root",
        "merged",
        "Debian docker.io client",
        help_text,
        ("docker",),
    ),
    "docker-ps-no-daemon": (
        "docker ps",
        "root",
        "merged",
        "Debian docker.io client",
        failure,
        ("docker",),
    ),
    "kubectl-help": (
        "kubectl --help",
        "root",
        "merged",
        "Debian kubernetes-client",
        help_text,
        ("kubectl",),
    ),
    "kubectl-get-no-server": (
        "kubectl get pods -A",
        "root",
        "merged",
        "Debian kubernetes-client",
        failure,
        ("kubectl",),
    ),
    "kubectl-deployment-yaml": (
        "kubectl create deployment web --image=nginx:1.27 --replicas=3 --dry-run=client -o yaml",
        "root",
        "merged",
        "Debian kubernetes-client",
        yaml_keys,
        ("kubectl",),
    ),
    "kubectl-options": (
        "kubectl options",
        "root",
        "merged",
        "Debian kubernetes-client",
        help_text,
        ("kubectl",),
    ),
    "jq-npm-react-versions": (
        "jq '.time' react.json",
        "corpus",
        "stdout",
        "npm metadata of react",
        json_keys,
        ("jq",),
    ),
    "jq-cmake-presets-schema": (
        "jq . /usr/share/cmake-3.25/Help/manual/presets/schema.json",
        "root",
        "stdout",
        "Debian cmake 3.25",
        json_keys,
        ("jq",),
    ),
    "jq-iso-countries": (
        "jq '.\"3166-1\"[:60]' /usr/share/iso-codes/json/iso_3166-1.json",
        "root",
        "stdout",
        "Debian iso-codes",
        first_last,
        ("jq",),
    ),
    "pip-install-click-sdist": (
        "pip install --no-index --no-build-isolation ./click-8.1.7",
        "corpus",
        "merged",
        "click 8.1.7 sdist",
        installer,
        ("pip",),
    ),
    "pip-install-missing-version": (
        "pip install --no-index click==0.0.1",
        "corpus",
        "merged",
        "click (no such version)",
        failure,
        ("pip",),
    ),
    "npm-install-request": (
        "npm install request@2.88.2 --no-audit --no-fund",
        "scratchnpm",
        "merged",
        "request 2.88.2 (npm)",
        installer,
        ("npm",),
    ),
    "curl-verbose-ok": (
        "curl -sv http://127.0.0.1:{port}/LICENSE.rst",
        "corpus",
        "merged",
        "python http.server serving click 8.1.7",
        curl_verbose,
        ("curl",),
    ),
    "curl-verbose-404": (
        "curl -sv http://127.0.0.1:{port}/nosuch.txt",
        "corpus",
        "merged",
        "python http.server serving click 8.1.7",
        curl_verbose,
        ("curl",),
    ),
    "diff-core-versions": (
        "diff -u click-8.1.7/src/click/core.py clickgit/src/click/core.py",
        "corpus",
        "stdout",
        "click 8.1.7 vs git main",
        unified,
        ("diff",),
    ),
    "du-click": ("du -a click-8.1.7", "corpus", "stdout", "click 8.1.7", du_rows, ("du",)),
}


def prepare(ctx: Context) -> None:
    """The scratch clone (with real changes), npm metadata, the access log."""
    scratch = ctx.scratch
    if not os.path.isdir(os.path.join(scratch, ".git")):
        subprocess.run(["git", "clone", "-q", "--local", ctx.click_git, scratch], check=True)
        # Unstaged: three files as they were in 8.1.7; staged: two as they were in 8.0.0.
        for path in ("src/click/termui.py", "src/click/utils.py", "src/click/formatting.py"):
            blob = subprocess.run(
                ["git", "-C", scratch, "show", f"8.1.7:{path}"], capture_output=True, check=True
            ).stdout
            with open(os.path.join(scratch, path), "wb") as handle:
                handle.write(blob)
        for path in ("src/click/parser.py", "src/click/globals.py"):
            subprocess.run(["git", "-C", scratch, "checkout", "8.0.0", "--", path], check=True)
        with open(os.path.join(scratch, "notes.txt"), "w", encoding="utf-8") as handle:
            handle.write("scratch\n")
    link = os.path.join(ctx.corpus, "clickgit")
    if not os.path.exists(link):
        os.symlink(ctx.click_git, link)
    for package in ("react",):
        target = os.path.join(ctx.corpus, f"{package}.json")
        if not os.path.exists(target) and shutil.which("npm"):
            data = subprocess.run(
                ["npm", "view", package, "--json"], capture_output=True, check=True
            ).stdout
            with open(target, "wb") as handle:
                handle.write(data)
    os.makedirs(os.path.join(ctx.corpus, "scratchnpm"), exist_ok=True)
    # pip cases install into a venv of their own, never into the interpreter running this.
    if not os.path.isdir(os.path.join(ctx.corpus, "venv")):
        subprocess.run([sys.executable, "-m", "venv", os.path.join(ctx.corpus, "venv")], check=True)


POSTGRES_SQL = """\
CREATE TABLE users (id serial PRIMARY KEY, email text UNIQUE NOT NULL, age int CHECK (age >= 0));
INSERT INTO users (email, age) SELECT 'user' || g || '@example.org', g % 90
  FROM generate_series(1, 500) g;
INSERT INTO users (email, age) VALUES ('user1@example.org', 30);
INSERT INTO users (email, age) VALUES ('neg@example.org', -1);
SELEC * FROM users;
SELECT * FROM orders;
SELECT 1 / (age - age) FROM users LIMIT 1;
SELECT count(*) FROM users WHERE age > 50;
UPDATE users SET email = NULL WHERE id = 3;
CREATE INDEX users_age ON users (age);
VACUUM ANALYZE users;
DROP TABLE missing_table;
SELECT nosuchcolumn FROM users;
DROP TABLE users;
"""


def postgres_log(ctx: Context, rounds: int = 30) -> None:
    """A real PostgreSQL server log: a cluster on 127.0.0.1 runs a script with mistakes in
    it `rounds` times (every statement logged), then stops. Needs PostgreSQL and root (the
    server runs as the postgres user)."""
    target = os.path.join(ctx.corpus, "postgresql.log")
    versions = (
        sorted(os.listdir("/usr/lib/postgresql")) if os.path.isdir("/usr/lib/postgresql") else []
    )
    if os.path.exists(target) or not versions or os.geteuid() != 0:
        return
    bin_dir = f"/usr/lib/postgresql/{versions[-1]}/bin"
    work = tempfile.mkdtemp(prefix="rtok-pg-")
    shutil.chown(work, "postgres")
    as_pg = ["runuser", "-u", "postgres", "--"]
    data, log = os.path.join(work, "data"), os.path.join(work, "server.log")
    subprocess.run(
        [*as_pg, f"{bin_dir}/initdb", "-D", data, "-A", "trust", "-U", "postgres"],
        capture_output=True,
        check=True,
    )
    options = f"-c listen_addresses=127.0.0.1 -p 55432 -k {work} -c log_statement=all"
    subprocess.run(
        [*as_pg, f"{bin_dir}/pg_ctl", "-D", data, "-l", log, "-o", options, "-w", "start"],
        capture_output=True,
        check=True,
    )
    script = os.path.join(work, "work.sql")
    with open(script, "w", encoding="utf-8") as handle:
        handle.write(POSTGRES_SQL)
    shutil.chown(script, "postgres")
    try:
        for _ in range(rounds):
            subprocess.run(
                [
                    *as_pg,
                    f"{bin_dir}/psql",
                    "-h",
                    "127.0.0.1",
                    "-p",
                    "55432",
                    "-U",
                    "postgres",
                    "-q",
                    "-f",
                    script,
                ],
                capture_output=True,
                check=False,
            )
    finally:
        subprocess.run(
            [*as_pg, f"{bin_dir}/pg_ctl", "-D", data, "-m", "fast", "-w", "stop"],
            capture_output=True,
            check=False,
        )
    shutil.copyfile(log, target)
    shutil.rmtree(work, ignore_errors=True)


def serve(ctx: Context) -> http.server.ThreadingHTTPServer:
    """A local server on 127.0.0.1 serving click's sdist; its access log is a real log."""
    log = open(os.path.join(ctx.corpus, "server.log"), "w", encoding="utf-8")  # noqa: SIM115
    root = ctx.path("click")

    class Handler(http.server.SimpleHTTPRequestHandler):
        def __init__(self, *args: object, **kwargs: object) -> None:
            super().__init__(*args, directory=root, **kwargs)  # type: ignore[arg-type]

        def log_message(self, format: str, *args: object) -> None:
            # The standard library's own access-log line.
            log.write(
                f"{self.address_string()} - - [{self.log_date_time_string()}] {format % args}\n"
            )
            log.flush()

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    ctx.port = server.server_address[1]
    threading.Thread(target=server.serve_forever, daemon=True).start()
    # Real requests make the access log: files that exist and paths that do not.
    for path in [
        *sorted(os.listdir(root)),
        "src/click/core.py",
        "missing.txt",
        "docs/",
        "docs/nosuch.rst",
        "src/click/../../etc/passwd",
        "favicon.ico",
    ] * 3:
        subprocess.run(
            ["curl", "-s", "-o", "/dev/null", f"http://127.0.0.1:{ctx.port}/{path}"], check=False
        )
    return server


def run_case(name: str, ctx: Context) -> bool:
    command, where, streams, project, annotate, tools = CASES[name]
    missing = [tool for tool in tools if shutil.which(tool) is None]
    if missing:
        print(f"{name}: skipped, {', '.join(missing)} not installed")
        return False
    command = command.replace("{port}", str(ctx.port))
    cwd = os.path.join(ctx.corpus, "scratchnpm") if where == "scratchnpm" else ctx.path(where)
    path = os.path.join(ctx.corpus, "venv", "bin") + os.pathsep + os.environ.get("PATH", "")
    # pip runs with no configuration: its output then names no index of this machine.
    base = {key: value for key, value in os.environ.items() if not key.startswith("PIP_")}
    env = dict(
        base,
        PATH=path,
        PIP_CONFIG_FILE=os.devnull,
        LC_ALL="C.UTF-8",
        GIT_PAGER="cat",
        PAGER="cat",
        NO_COLOR="1",
        npm_config_update_notifier="false",
    )
    result = subprocess.run(
        ["bash", "-c", command], cwd=cwd, env=env, capture_output=True, check=False
    )
    raw = result.stdout + result.stderr if streams == "merged" else result.stdout
    ctx.command, ctx.cwd = command, cwd
    errors, keep = annotate(raw.decode("utf-8", "replace"), ctx)
    folder = os.path.join(SIGNAL, name)
    os.makedirs(folder, exist_ok=True)
    for old in ("raw", "raw.gz"):
        if os.path.exists(os.path.join(folder, old)):
            os.remove(os.path.join(folder, old))
    if len(raw) > GZIP_OVER:
        with gzip.GzipFile(os.path.join(folder, "raw.gz"), "wb", mtime=0) as handle:
            handle.write(raw)
    else:
        with open(os.path.join(folder, "raw"), "wb") as handle:
            handle.write(raw)
    shown_command = command.replace(str(ctx.port), "8000") if ctx.port else command
    meta = {
        "command": shown_command,
        "exit_code": result.returncode,
        "streams": streams,
        "project": project,
        "how": f"`{shown_command}` run by scripts/gen_signal.py",
        "E": errors,
        "K": keep,
    }
    with open(os.path.join(folder, "case.json"), "w", encoding="utf-8") as handle:
        json.dump(meta, handle, indent=1, ensure_ascii=False)
        handle.write("\n")
    print(f"{name}: {len(raw)} bytes, exit {result.returncode}, E {len(errors)}, K {len(keep)}")
    return True


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--click-git", required=True, help="a clone of pallets/click")
    parser.add_argument("--corpus", default=os.path.join(tempfile.gettempdir(), "rtok-corpus"))
    parser.add_argument("--only", nargs="*", default=None)
    args = parser.parse_args()
    os.makedirs(args.corpus, exist_ok=True)
    for sdist in ("click-8.1.7", "requests-2.32.3"):
        if not os.path.isdir(os.path.join(args.corpus, sdist)):
            name, version = sdist.rsplit("-", 1)
            subprocess.run(
                [
                    sys.executable,
                    "-m",
                    "pip",
                    "download",
                    "-q",
                    "--no-deps",
                    "--no-binary",
                    ":all:",
                    f"{name}=={version}",
                    "-d",
                    args.corpus,
                ],
                check=True,
            )
            shutil.unpack_archive(os.path.join(args.corpus, f"{sdist}.tar.gz"), args.corpus)
    ctx = Context(
        args.corpus, os.path.abspath(args.click_git), os.path.join(args.corpus, "scratch")
    )
    prepare(ctx)
    postgres_log(ctx)
    server = serve(ctx)
    try:
        for name in args.only or list(CASES):
            run_case(name, ctx)
    finally:
        server.shutdown()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
