"""The launcher: the small program every registered hook command and rewritten command runs.

A pip-generated `rtok` script starts Python with `site` (every `.pth` file of the venv) and
imports `re` before rtok's code runs; on a hook or `rtok run` that is most of the time
spent. The launcher is a POSIX shell script in rtok's state dir (`paths.launcher()`,
`$XDG_STATE_HOME/rtok/bin/rtok`: not the data dir, which users wipe to clear the archive):

* hot-path verbs (`hook`, `rewrite`, `run`, `filter`, `expand`) start the venv's interpreter
  with `-S -I` (no site, no user environment, no script directory on sys.path) and put
  rtok's own package directory first on sys.path; other verbs start it with `site`;
* when the interpreter or the package is gone (venv deleted, rtok uninstalled), it fails
  open: `hook` prints the agent's "no opinion" reply and exits 0, `rewrite` exits 1 (no
  rewrite), `run` executes the command itself, `filter` copies its input; anything else
  says what is missing and exits 127.

It lives outside the venv, so a deleted venv leaves a launcher that still answers; its name
is `rtok`, so registered commands stay recognisable by their words (`<path>/rtok hook
AGENT`). `rtok init` (re)writes it for the running installation; `rtok doctor` checks it.
"""

from __future__ import annotations

import os
import shlex
import sys

from rtok import __version__, paths

MARK = "# rtok launcher"
HOT_VERBS = ("hook", "rewrite", "run", "filter", "expand")
# sys.argv arrives as [-c, package dir, launcher path, args...]. rtok._fast.preload loads
# the verb's modules from one file when it can (see rtok/_fast/preload.py); it is imported
# as the top-level `preload` from its own folder, so that no package goes through the
# import system before the bundle is read (the bundle holds `rtok` and `rtok._fast` too).
# The rest of the start is `preload.boot()`, compiled once into its cached bytecode: the
# interpreter parses this line on every run (each statement here cost a hook tens of
# thousands of instructions). The entry point is named here, not in the preloader, which
# sits below every other rtok module.
BOOT = (
    'import sys;sys.path.insert(0,sys.argv[1]+"/rtok/_fast");import preload;preload.boot();'
    "from rtok.cli.entry import main;sys.exit(main())"
)


def supported() -> bool:
    """The launcher is a POSIX shell script; Windows registers the entry point itself."""
    return os.name != "nt"


def package_root() -> str:
    """The directory holding the running `rtok` package (site-packages, or the source tree
    of an editable install)."""
    import rtok

    return os.path.dirname(os.path.dirname(os.path.abspath(rtok.__file__)))


def interpreter() -> str:
    """The running interpreter as the venv names it (not resolved: a venv's python is a
    link whose own path is what makes it the venv's)."""
    return os.path.abspath(sys.executable)


def no_opinion_replies() -> dict[str, str]:
    """agent -> the text its host reads as "no opinion" (only the non-empty ones)."""
    from rtok.compiled.hook_protocols import PROTOCOLS

    replies = {agent: str(table["no_opinion"]) for agent, table in PROTOCOLS.items()}
    return {agent: text for agent, text in sorted(replies.items()) if text}


def render(python: str, root: str, replies: dict[str, str], version: str = __version__) -> str:
    """The launcher's text for an installation (`python`, package dir `root`)."""
    by_reply: dict[str, list[str]] = {}
    for agent, text in replies.items():
        by_reply.setdefault(text, []).append(agent)
    cases = "".join(
        f"    {'|'.join(agents)}) printf '%s\\n' {shlex.quote(text)} ;;\n"
        for text, agents in by_reply.items()
    )
    verbs = "|".join(HOT_VERBS)
    return f"""#!/bin/sh
{MARK} (rtok {version}). Written by `rtok init`, checked by `rtok doctor`; edits are lost.
py={shlex.quote(python)}
lib={shlex.quote(root)}
boot={shlex.quote(BOOT)}
if [ -x "$py" ] && [ -f "$lib/rtok/cli/entry.py" ]; then
  case "$1" in
  {verbs}) exec "$py" -S -I -c "$boot" "$lib" "$0" "$@" ;;
  esac
  exec "$py" -I -c "$boot" "$lib" "$0" "$@"
fi
# rtok is gone: never block the agent.
case "$1" in
hook)
  case "$2" in
{cases}  esac
  exit 0 ;;
rewrite) exit 1 ;;
run)
  shift
  [ "$1" = "--" ] && shift
  [ "$#" -gt 0 ] && exec "$@"
  exit 2 ;;
filter) exec cat ;;
esac
echo "rtok: $py is gone; reinstall rtok, then run \\`rtok init\\`" >&2
exit 127
"""


def ensure(path: str | None = None) -> str:
    """Write the launcher for the running installation unless it is already there;
    returns its path."""
    from rtok._fast import bundles

    target = path or paths.launcher()
    text = render(interpreter(), package_root(), no_opinion_replies())
    if not problems(target):
        _tighten(target)
        bundles.clear_untrusted(target)
        return target
    directory = os.path.dirname(target)
    paths.private_dir(os.path.dirname(directory))
    paths.private_dir(directory)
    # A bundle folder another user made, or anyone may write, is never used: remove it
    # (and any damaged bundle) so the next runs make private ones.
    bundles.clear_untrusted(target)
    temporary = os.path.join(directory, f".rtok.{os.getpid()}.tmp")
    with open(temporary, "w", encoding="utf-8") as handle:
        handle.write(text)
        handle.flush()
        os.fsync(handle.fileno())
    os.chmod(temporary, 0o700)  # executable, and private like everything in the data dir
    os.replace(temporary, target)
    return target


def _tighten(target: str) -> None:
    """A launcher an earlier release wrote 0755 (and its folders) become private."""
    paths.private_dir(os.path.dirname(os.path.dirname(target)))
    paths.private_dir(os.path.dirname(target))
    try:
        if os.stat(target).st_mode & 0o077:
            os.chmod(target, 0o700)
    except OSError:
        pass


def is_launcher(path: str) -> bool:
    """Does `path` hold a launcher rtok wrote (any version)?"""
    try:
        with open(path, encoding="utf-8") as handle:
            head = handle.read(200)
    except (OSError, UnicodeDecodeError):
        return False
    return head.startswith("#!/bin/sh\n" + MARK + " ")


def problems(path: str | None = None) -> list[str]:
    """What is wrong with the launcher at `path` for the running installation (empty when
    it is in place and runs this rtok)."""
    target = path or paths.launcher()
    if not os.path.exists(target):
        return [f"{target} is missing"]
    if not is_launcher(target):
        return [f"{target} is not an rtok launcher"]
    found: list[str] = []
    if not os.access(target, os.X_OK):
        found.append(f"{target} is not executable")
    try:
        with open(target, encoding="utf-8") as handle:
            current = handle.read()
    except OSError as exc:
        return [f"cannot read {target}: {exc.strerror or exc}"]
    python, root = configured(current)
    if not os.access(python, os.X_OK):
        found.append(f"{target} starts {python}, which is gone")
    elif not _same_file(python, interpreter()) or not _same_file(root, package_root()):
        found.append(f"{target} runs another rtok installation ({python})")
    elif current != render(python, root, no_opinion_replies()):
        found.append(f"{target} was written by another rtok version or edited")
    return found


def configured(text: str) -> tuple[str, str]:
    """(interpreter, package dir) a launcher's text names."""
    values = {"py": "", "lib": ""}
    for line in text.splitlines():
        name, eq, value = line.partition("=")
        if eq and name in values and not values[name]:
            words = shlex.split(value)
            values[name] = words[0] if words else ""
    return values["py"], values["lib"]


def _same_file(a: str, b: str) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False
