"""A throwaway git repository whose `git log` is long enough for rtok to shorten."""

from __future__ import annotations

import os
import shutil
import subprocess

COMMITS = 64
AUTHOR = "Ada Example <ada@example.invalid>"


def git_env(home: str) -> dict[str, str]:
    """git without the real user's or system config, with a fixed identity."""
    return {
        "HOME": home,
        "PATH": "/usr/local/bin:/usr/bin:/bin",
        "LANG": "C.UTF-8",
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_CONFIG_GLOBAL": os.path.join(home, ".gitconfig"),
        "GIT_AUTHOR_NAME": "Ada Example",
        "GIT_AUTHOR_EMAIL": "ada@example.invalid",
        "GIT_COMMITTER_NAME": "Ada Example",
        "GIT_COMMITTER_EMAIL": "ada@example.invalid",
    }


def _fast_import_stream() -> bytes:
    """64 commits, each touching one file, with a subject and a body line.

    Kept under 16 000 bytes of `git log`: some agents move longer tool results to a file.
    """
    chunks = []
    for n in range(1, COMMITS + 1):
        when = 1_700_000_000 + n * 3600
        message = (
            f"Adjust module {n:02d} for the parser\n\n"
            f"It reads the shared token table now. Refs: {1000 + n}\n"
        ).encode()
        content = f"module {n}\nvalue = {n * n}\n".encode()
        chunks.append(b"commit refs/heads/main\n")
        chunks.append(f"mark :{n}\n".encode())
        chunks.append(f"author {AUTHOR} {when} +0000\n".encode())
        chunks.append(f"committer {AUTHOR} {when} +0000\n".encode())
        chunks.append(f"data {len(message)}\n".encode() + message)
        if n > 1:
            chunks.append(f"from :{n - 1}\n".encode())
        chunks.append(f"M 100644 inline src/module_{n:02d}.txt\n".encode())
        chunks.append(f"data {len(content)}\n".encode() + content + b"\n")
    return b"".join(chunks)


def make_template(path: str, home: str) -> str:
    """Build the repository once; `copy_repo` gives each run its own copy."""
    shutil.rmtree(path, ignore_errors=True)
    os.makedirs(path)
    env = git_env(home)
    subprocess.run(["git", "init", "-q", "-b", "main", path], env=env, check=True, timeout=60)
    subprocess.run(
        ["git", "fast-import", "--quiet"],
        cwd=path,
        env=env,
        check=True,
        input=_fast_import_stream(),
        timeout=60,
    )
    subprocess.run(
        ["git", "reset", "-q", "--hard", "main"], cwd=path, env=env, check=True, timeout=60
    )
    return path


def copy_repo(template: str, dest: str) -> str:
    shutil.copytree(template, dest, symlinks=True)
    return dest


def raw_git_log(repo: str, home: str) -> bytes:
    """What plain `git log` prints in the repository (no terminal, so no pager)."""
    return subprocess.run(
        ["git", "log"], cwd=repo, env=git_env(home), check=True, capture_output=True, timeout=60
    ).stdout
