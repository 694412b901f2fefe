"""Capture the mvn cases of tests/golden/signal/ from json-simple, offline.

    python3 scripts/gen_signal_maven.py --git-dir PATH/json-simple.git [--dest DIR]

Needs Debian's maven (3.8.7) and the Maven repository its packages install under
/usr/share/maven-repo: maven-repo-helper, libmaven-compiler-plugin-java, libsurefire-java,
libmaven-resources-plugin-java, libmaven-jar-plugin-java, libmaven-install-plugin-java,
libmaven-deploy-plugin-java, libmaven-bundle-plugin-java, junit4. The build runs with `-o`
against a symlinked copy of that repository (/tmp/m2-debian) to which relocation poms are
added for the plugin versions json-simple's pom names (as Debian itself does for the versions
Maven's lifecycle names), and maven-metadata-local.xml naming Debian's versions of the plugins
the bundle lifecycle leaves unversioned. The project is unpacked in /tmp/json-simple (its path
is part of what Maven prints).

E and K are read from the raw output (colours removed), never from rtok: every warning, each
compiler location and message, each failed test's id, first exception line, first frame in
org.json.simple and the failing counts (E); the failing test classes, the counts of a pass and
javac's details under a location (K).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SIGNAL = os.path.join(ROOT, "tests", "golden", "signal")
DEBIAN_REPO = "/usr/share/maven-repo"
LOCAL_REPO = "/tmp/m2-debian"
WORK = "/tmp/json-simple"
HEAD = "2f4b7b5"
ANSI = re.compile(r"\x1b\[[0-9;]*m")
LOCATED = re.compile(r"^\[(?:ERROR|WARNING)\] (\S+\.java):(\[\d+,\d+\]) (.*)$")
PROJECT = f"fangyidong/json-simple @ {HEAD} (GitHub), Debian maven 3.8.7, OpenJDK 17.0.15"
SETUP = (
    "captured by scripts/gen_signal_maven.py: built offline (`mvn -o "
    "-Dmaven.repo.local=/tmp/m2-debian`) against a symlinked copy of "
    "Debian's /usr/share/maven-repo (maven-compiler-plugin 3.10.1, surefire 2.22.3, "
    "maven-bundle-plugin 3.5.1, junit 4.13.2) with relocation poms for the versions the pom "
    "names (maven-bundle-plugin 5.1.1 -> 3.5.1, maven-compiler-plugin 3.8.1 -> 3.10.1) and "
    "maven-metadata-local.xml naming Debian's versions of the plugins the bundle lifecycle "
    "leaves unversioned; stdout and stderr merged into a file, TERM=xterm"
)
ABOUT = (
    "; E: every warning, each failed test's id, first exception line and first frame in "
    "org.json.simple, each compiler location and message, the failing counts; K: the "
    "failing test classes, the counts of a pass, the details javac gives under a location"
)
OLD_TEST = "src/test/java/org/json/simple/Test.java"

# case -> (mvn arguments after -o and the local repository, what replaces HEAD's files, how)
CASES: dict[str, tuple[list[str], tuple[str, str] | None, str]] = {
    "mvn-compile-error": (
        ["-B", "test"],
        ("7ae9400", "src/main"),
        f"{HEAD} with src/main/java from 7ae9400 (before 7de38e5 and e9e1431 "
        "added the JSONArray constructor and array overloads its tests call): "
        "testCompile fails; `mvn -B test`; ",
    ),
    "mvn-test-fail": (
        ["test"],
        ("351aa58", OLD_TEST),
        f"{HEAD} with {OLD_TEST} from 351aa58, the last commit before a8b94b7 "
        "stopped the test depending on HashMap order (which changed in Java 8): "
        "plain `mvn test` (Maven still colours its output); ",
    ),
    "mvn-test-fail-full-trace": (
        ["-B", "test", "-DtrimStackTrace=false"],
        ("351aa58", OLD_TEST),
        "as mvn-test-fail, with surefire's whole stack traces "
        "(-DtrimStackTrace=false, the default from surefire 3.0 on) "
        "and -B; ",
    ),
    "mvn-q-test-fail": (
        ["-q", "test"],
        ("351aa58", OLD_TEST),
        "as mvn-test-fail, with -q (only errors, and what the tests print); ",
    ),
    "mvn-test-pass-warnings": (
        ["-B", "test", "-Dmaven.compiler.showWarnings=true"],
        None,
        f"{HEAD} as it is, -B, with the compiler's warnings shown (JDK "
        "17 deprecates the boxing constructors the code calls); ",
    ),
    "mvn-test-pass": (["test"], None, f"{HEAD} as it is, plain `mvn test`; "),
}
RELOCATED = [
    ("org.apache.felix", "maven-bundle-plugin", "5.1.1", "3.5.1"),
    ("org.apache.maven.plugins", "maven-compiler-plugin", "3.8.1", "3.10.1"),
]
RELEASES = {
    "maven-resources-plugin": "3.3.0",
    "maven-compiler-plugin": "3.10.1",
    "maven-surefire-plugin": "2.22.3",
    "maven-jar-plugin": "3.3.0",
    "maven-install-plugin": "3.1.0",
    "maven-deploy-plugin": "3.0.0",
}


def local_repository() -> None:
    """Debian's repository as symlinks, plus the relocations and release metadata."""
    shutil.rmtree(LOCAL_REPO, ignore_errors=True)
    for folder, _dirs, files in os.walk(DEBIAN_REPO):
        target = os.path.join(LOCAL_REPO, os.path.relpath(folder, DEBIAN_REPO))
        os.makedirs(target, exist_ok=True)
        for name in files:
            os.symlink(os.path.join(folder, name), os.path.join(target, name))
    for group, artifact, old, new in RELOCATED:
        folder = os.path.join(LOCAL_REPO, *group.split("."), artifact, old)
        os.makedirs(folder, exist_ok=True)
        with open(os.path.join(folder, f"{artifact}-{old}.pom"), "w", encoding="utf-8") as pom:
            pom.write(
                f"<project><modelVersion>4.0.0</modelVersion><groupId>{group}</groupId>"
                f"<artifactId>{artifact}</artifactId><version>{old}</version>"
                "<distributionManagement><relocation>"
                f"<groupId>{group}</groupId><artifactId>{artifact}</artifactId>"
                f"<version>{new}</version></relocation></distributionManagement>"
                "</project>\n"
            )
    for artifact, version in RELEASES.items():
        folder = os.path.join(LOCAL_REPO, "org", "apache", "maven", "plugins", artifact)
        with open(os.path.join(folder, "maven-metadata-local.xml"), "w", encoding="utf-8") as xml:
            xml.write(
                f"<metadata><groupId>org.apache.maven.plugins</groupId><artifactId>"
                f"{artifact}</artifactId><versioning><latest>{version}</latest><release>"
                f"{version}</release><versions><version>{version}</version></versions>"
                "</versioning></metadata>\n"
            )


def unpack(git_dir: str, replaced: tuple[str, str] | None) -> None:
    shutil.rmtree(WORK, ignore_errors=True)
    os.makedirs(WORK)

    def extract(commit: str, *paths: str) -> None:
        archive = subprocess.run(
            ["git", f"--git-dir={git_dir}", "archive", commit, *paths],
            capture_output=True,
            check=True,
        ).stdout
        subprocess.run(["tar", "-x", "-C", WORK], input=archive, check=True)

    extract(HEAD)
    if replaced is not None:
        commit, path = replaced
        if os.path.isdir(os.path.join(WORK, path)):
            shutil.rmtree(os.path.join(WORK, path))
        extract(commit, path)


def capture(arguments: list[str]) -> tuple[bytes, int]:
    env = {**os.environ, "TERM": "xterm"}
    done = subprocess.run(
        ["mvn", "-o", f"-Dmaven.repo.local={LOCAL_REPO}", *arguments],
        cwd=WORK,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        env=env,
        timeout=600,
        check=False,
    )
    return done.stdout, done.returncode


Entry = str | list[str]


def warnings(lines: list[str]) -> list[Entry]:
    """Warnings without a location, once each (located ones are compiler diagnostics)."""
    out: list[Entry] = []
    for line in lines:
        text = line[len("[WARNING] ") :]
        if line.startswith("[WARNING] ") and not LOCATED.match(line) and text not in out:
            out.append(text)
    return out


def diagnostics(lines: list[str]) -> list[Entry]:
    """Each compiler location once, as [file, position], then each message once, then the
    goal that failed."""
    places: list[Entry] = []
    messages: list[Entry] = []
    for line in lines:
        found = LOCATED.match(line)
        if found is None:
            continue
        place = [found.group(1), found.group(2)]
        if place not in places:
            places.append(place)
        if found.group(3) not in messages:
            messages.append(found.group(3))
    goals: list[Entry] = [
        line[len("[ERROR] ") :].rstrip()
        for line in lines
        if line.startswith("[ERROR] Failed to execute goal")
    ]
    return places + messages + goals


def details(lines: list[str]) -> list[Entry]:
    out: list[Entry] = []
    for line in lines:
        found = re.match(r"^\s+(required|found|reason):\s+(.*)$", line)
        if found and [found.group(1) + ":", found.group(2)] not in out:
            out.append([found.group(1) + ":", found.group(2)])
    return out


def failures(lines: list[str]) -> tuple[list[Entry], list[Entry]]:
    head = re.compile(r"^\[ERROR\] (\S+\((\S+)\))  Time elapsed: .* <<< (?:FAILURE|ERROR)!$")
    found_e: list[Entry] = []
    found_k: list[Entry] = []
    for i, line in enumerate(lines):
        found = head.match(line)
        if found is None:
            continue
        own = [
            frame.strip() for frame in lines[i + 2 :] if frame.startswith("\tat org.json.simple.")
        ]
        found_e.extend([found.group(1), lines[i + 1], *own[:1]])
        found_k.append(found.group(2))
    found_e.extend(counts(lines, failing=True))
    return found_e, found_k


def counts(lines: list[str], failing: bool) -> list[Entry]:
    failed = r"[1-9]\d*" if failing else "0"
    shape = re.compile(
        rf"^\[(?:ERROR|INFO)\] (Tests run: \d+, Failures: {failed}, Errors: \d+, "
        r"Skipped: \d+)$"
    )
    return [found.group(1) for found in map(shape.match, lines) if found is not None]


def entries(raw: bytes, exit_code: int) -> tuple[list[Entry], list[Entry]]:
    lines = [ANSI.sub("", line) for line in raw.decode("utf-8").splitlines()]
    if any(LOCATED.match(line) for line in lines):
        found_e = diagnostics(lines)
        found_k = details(lines) if exit_code else counts(lines, failing=False)
    elif exit_code:
        found_e, found_k = failures(lines)
    else:
        found_e, found_k = [], counts(lines, failing=False)
    return warnings(lines) + found_e, found_k


def write_case(dest: str, name: str, command: str, how: str, raw: bytes, exit_code: int) -> None:
    found_e, found_k = entries(raw, exit_code)
    text = raw.decode("utf-8")
    for entry in found_e + found_k:
        parts = [entry] if isinstance(entry, str) else entry
        assert all(part in text for part in parts), (name, entry)
    folder = os.path.join(dest, name)
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "raw"), "wb") as handle:
        handle.write(raw)
    meta = {
        "command": command,
        "exit_code": exit_code,
        "streams": "merged",
        "project": PROJECT,
        "how": how + SETUP + ABOUT,
        "E": found_e,
        "K": found_k,
    }
    with open(os.path.join(folder, "case.json"), "w", encoding="utf-8") as handle:
        json.dump(meta, handle, indent=1, ensure_ascii=False)
        handle.write("\n")
    print(f"{name}: exit {exit_code}, {len(raw)} bytes, E {len(found_e)}, K {len(found_k)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--git-dir", required=True, help="a clone of fangyidong/json-simple")
    parser.add_argument("--dest", default=SIGNAL, help="where the case folders go")
    parser.add_argument("cases", nargs="*", help="only these cases")
    args = parser.parse_args()
    local_repository()
    for name, (arguments, replaced, how) in CASES.items():
        if args.cases and name not in args.cases:
            continue
        unpack(args.git_dir, replaced)
        raw, exit_code = capture(arguments)
        command = " ".join(["mvn", *arguments])
        write_case(args.dest, name, command, how, raw, exit_code)


if __name__ == "__main__":
    main()
