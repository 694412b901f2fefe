"""Which lines no rule may remove: lines that carry an error, a warning or a secret.

Stdlib only (hot path). Rules never redact: a protected line is shown as it is, secrets
included (the agent asked for that output; hiding part of a line would mislead it).

`CATALOGUE` is the data: one entry per kind of line, each with the literal hints a matching
line always contains (lower-cased), an example that must be protected and a near miss that
must not be. tests/filter/test_protect.py checks every entry both ways.
"""

from __future__ import annotations

from rtok._fast import regex

TYPE_CHECKING = False
if TYPE_CHECKING:
    from re import Pattern


class Entry:
    """One kind of protected line."""

    __slots__ = ("example", "hints", "kind", "name", "near_miss", "pattern")

    def __init__(
        self,
        kind: str,
        name: str,
        pattern: str,
        hints: tuple[str, ...],
        example: str,
        near_miss: str,
    ) -> None:
        self.kind = kind  # "error" | "warning" | "secret"
        self.name = name
        self.pattern = pattern
        self.hints = hints
        self.example = example
        self.near_miss = near_miss


CATALOGUE: tuple[Entry, ...] = (
    # ------------------------------------------------------------------------ errors
    Entry(
        "error",
        "error word",
        r"(?i:\b(?:errors?|err!?|fatal|panic(?:ked|s)?|exceptions?|traceback"
        r"|fail(?:ed|ure|ures|ing|s)?|critical|denied|abort(?:ed)?)\b)",
        ("err", "fatal", "panic", "exception", "traceback", "fail", "critical", "denied", "abort"),
        "npm ERR! code ELIFECYCLE",
        "stderr redirected to errand.log",
    ),
    Entry(
        "error",
        "error class name",
        r"[A-Za-z](?:Error|Exception)\b",
        ("error", "exception"),
        "java.io.IOException: Broken pipe",
        "test_parse_Error PASSED",
    ),
    Entry("error", "pytest failure line", r"^E\s", (), "E       assert 2 == 3", "Ending the run"),
    Entry(
        "error",
        "assertion",
        r"^\s*(?:>\s+)?assert\s+\S.*(?:==|!=|<=|>=|<|>| is | in )",
        ("assert",),
        "    assert x == 1",
        "asserting the flag set",
    ),
    Entry(
        "error",
        "segmentation fault",
        r"(?i:segmentation fault)",
        ("segmentation",),
        "Segmentation fault (core dumped)",
        "segment faults table",
    ),
    Entry(
        "error",
        "disk full",
        r"(?i:no space left on device)",
        ("no space left",),
        "OSError: [Errno 28] No space left on device",
        "no space left in the title",
    ),
    Entry(
        "error",
        "missing file",
        r"(?i:no such file or directory)",
        ("no such file",),
        "cat: notes.txt: No such file or directory",
        "no such filing cabinet",
    ),
    Entry(
        "error",
        "not found",
        r"(?i:\bnot found\b)",
        ("not found",),
        "127.0.0.1 - - [01/Dec/2026 09:57:02] code 404, message File not found",
        "found nothing, not founding",
    ),
    Entry(
        "error",
        "could not",
        r"(?i:\b(?:could not|couldn't|unable to)\b)",
        ("could not", "couldn't", "unable to"),
        "invoke-rc.d: could not determine current runlevel",
        "he could note it",
    ),
    Entry(
        "error",
        "refused",
        r"(?i:\brefused\b)",
        ("refused",),
        "dial tcp 127.0.0.1:8080: connect: connection refused",
        "refuse collection",
    ),
    Entry(
        "error",
        "missing command",
        r"(?i:command not found)",
        ("command not found",),
        "bash: line 1: jqq: command not found",
        "the command was found",
    ),
    Entry(
        "error",
        "killed",
        r"\bKilled\b",
        ("killed",),
        "bash: line 1:  4242 Killed                  ./build.sh",
        "a skilled reviewer",
    ),
    Entry(
        "error",
        "out of memory",
        r"(?i:\bout of memory\b|\boom-kill)",
        ("out of memory", "oom-kill"),
        "Out of memory: Killed process 812 (java)",
        "out of memo paper",
    ),
    Entry(
        "error",
        "link error",
        r"(?i:undefined reference to)",
        ("undefined reference",),
        "main.c:(.text+0x1b): undefined reference to `sqrt'",
        "an undefined referee",
    ),
    Entry(
        "error",
        "HTTP 4xx/5xx status",
        r"HTTP/[0-9.]+\"?\s+[45]\d\d\b",
        ("http/",),
        '127.0.0.1 - - [01/Dec/2026:09:00:00 +0000] "GET /api HTTP/1.1" 503 97',
        '127.0.0.1 - - [01/Dec/2026:09:00:00 +0000] "GET /api HTTP/1.1" 200 97',
    ),
    # ---------------------------------------------------------------------- warnings
    Entry(
        "warning",
        "warning word",
        r"(?i:\bwarn(?:ing|ings|s)?\b)",
        ("warn",),
        "warning: unused variable `x`",
        "a warm day",
    ),
    Entry(
        "warning",
        "warning class name",
        r"[A-Za-z]Warning\b",
        ("warning",),
        "DeprecationWarning: pkg_resources is deprecated",
        "forewarnings",
    ),
    # ----------------------------------------------------------------------- secrets
    Entry(
        "secret",
        "secret word",
        r"(?i:api[_-]?key|secret|passw(?:or)?d|\bbearer\s|private key|credential)",
        ("apikey", "api_key", "api-key", "private key", "secret", "passw", "bearer", "credential"),
        "export API_KEY=abc123",
        "keyboard layout",
    ),
    # "token" alone is prose ("token in ~/.netrc"); a value given to it is a secret
    Entry(
        "secret",
        "token assignment",
        r"(?i:\b(?:\w+_)?token[\"']?\s*[:=])",
        ("token",),
        'GITHUB_TOKEN=abc123 "token": "abc"',
        "reads the token in ~/.netrc",
    ),
    Entry(
        "secret",
        "AWS access key",
        r"AKIA[0-9A-Z]{16}",
        ("akia",),
        "aws_access_key_id = AKIA" + "ABCDEFGHIJKLMNOP",
        "AKIA is a prefix",
    ),
    Entry(
        "secret",
        "GitHub token",
        r"gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{20,}",
        ("ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"),
        "remote: github_pat_" + "11ABCDEFG0123456789_abcdefghij",
        "github_pat_ is the prefix",
    ),
    Entry(
        "secret",
        "OpenAI-style key",
        r"sk-[A-Za-z0-9_-]{20,}",
        ("sk-",),
        "OPENAI=sk-" + "a1b2c3d4e5f6g7h8i9j0k1",
        "desk-lamp",
    ),
    Entry(
        "secret",
        "Stripe live key",
        r"\b[rs]k_live_[A-Za-z0-9]{10,}",
        ("k_live_",),
        "stripe.api = 'sk_live_" + "4eC39HqLyjWDarjtT1zdp7dc'",
        "sk_live_ (prefix only)",
    ),
    Entry("secret", "Slack token", r"xox[abprs]-", ("xox",), "SLACK=xoxb-123-456", "xoxo"),
    Entry(
        "secret",
        "Google API key",
        r"AIza[0-9A-Za-z_-]{35}",
        ("aiza",),
        "key=AIza" + "SyA1234567890abcdefghijklmnopqrstuvw",
        "AIzawl",
    ),
    Entry(
        "secret",
        "GitLab token",
        r"glpat-[A-Za-z0-9_-]{20}",
        ("glpat-",),
        "CI_TOKEN=glpat-" + "abcdefghij0123456789",
        "glpat-short",
    ),
    Entry(
        "secret",
        "npm token",
        r"\bnpm_[A-Za-z0-9]{36}\b",
        ("npm_",),
        "//registry/:_authToken=npm_" + "a" * 36,
        "npm_config_cache=/tmp/npm",
    ),
    Entry(
        "secret",
        "Hugging Face token",
        r"\bhf_[A-Za-z0-9]{30,}",
        ("hf_",),
        "HF=hf_" + "abcdefghijklmnopqrstuvwxyz0123",
        "shelf_life",
    ),
    Entry(
        "secret",
        "URL with a password",
        r"[A-Za-z][A-Za-z0-9+.-]*://[^\s:/@]+:[^\s@/]+@",
        ("://",),
        "DATABASE_URL=postgres://app:s3cr3tpw@db:5432/app",
        "see https://example.org/a:b",
    ),
    Entry(
        "secret",
        "Authorization header",
        r"(?i:authorization:\s*(?:basic|bearer|token|digest|negotiate)\s)",
        ("authorization",),
        "> Authorization: Basic dXNlcjpwYXNz",
        "authorization flow explained",
    ),
    Entry(
        "secret",
        "JSON web token",
        r"eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.",
        ("eyj",),
        "cookie: eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.abc",
        "eyJ alone",
    ),
    Entry(
        "secret",
        "PEM block",
        r"-----(?:BEGIN|END) [A-Z0-9 ]+-----|^[A-Za-z0-9+/]{60,76}={0,2}$",
        ("-----",),
        "MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7VJTUt9Us8cKB",
        "MIIEvQIBADANBgkqhkiG9w0BAQEF short line",
    ),
)

# Lines that match an error entry only through a test's name: the test passed, so the line
# is not an error (`tests/x.py::test_ValueError PASSED`). A secret on one is still protected.
PASSING: tuple[Entry, ...] = (
    Entry(
        "pass",
        "pytest passed",
        r"^(?:\[gw\d+\] (?:\[\s*\d+%\] )?)?(?:PASSED \S+::\S+|\S+::\S+ PASSED"
        r"(?: +\[\s*\d+%\])?)$",
        ("passed",),
        "tests/test_io.py::test_IOError PASSED  [ 40%]",
        "tests/test_io.py::test_IOError FAILED  [ 40%]",
    ),
    Entry(
        "pass",
        "go test passed",
        r"^\s*--- PASS: \S+(?: \([\d.]+s\))?$",
        ("--- pass",),
        "    --- PASS: TestParseError (0.00s)",
        "    --- FAIL: TestParseError (0.00s)",
    ),
    Entry(
        "pass",
        "go package ok",
        r"^ok\s+\S+(?:\s+(?:[\d.]+s|\(cached\)))?(?:\s+coverage: [^\n]*)?$",
        ("ok",),
        "ok  \tgithub.com/pkg/errors\t0.012s",
        "FAIL\tgithub.com/pkg/errors\t0.012s",
    ),
    Entry(
        "pass",
        "cargo test ok",
        r"^test \S+ \.\.\. ok$",
        ("ok",),
        "test error::tests::display ... ok",
        "test error::tests::display ... FAILED",
    ),
)
PASSING_SOURCE = "|".join(f"(?:{entry.pattern})" for entry in PASSING)
_PASSING: list[Pattern[str]] = []


def is_passing_test(line: str) -> bool:
    """True for a line that only names a passing test (or a package that passed)."""
    if not _PASSING:
        _PASSING.append(regex.compile(PASSING_SOURCE))
    return _PASSING[0].match(line) is not None


# The whole catalogue as one pattern: what is_protected must agree with (the tests check).
# The hot path never searches with it (see _HINT_CHECKS).
PROTECTED_SOURCE = "|".join(f"(?:{entry.pattern})" for entry in CATALOGUE)

# A PEM body line has no literal hint: it is all base64, 60 to 76 characters long.
PEM_BODY_SOURCE = r"^[A-Za-z0-9+/]{60,76}={0,2}$"


def hint_tables() -> tuple[tuple[bytes, ...], tuple[tuple[str, tuple[tuple[str, bool], ...]], ...]]:
    """The hint tables the hot path searches with, derived from CATALOGUE (at build time:
    `scripts/compile_data.py` writes them to rtok/compiled/protect_hints.py, since deriving
    them costs every run milliseconds).

    First, the hints to look for in a streamed block (lower-cased): one pass per hint, and a
    hint that contains another (`warning`, `warn`) adds no line the shorter one does not
    already find. Second, for each of those hints, the patterns a line holding it is tried
    against (pattern, is a secret): a line is never tried against a pattern whose hints it
    lacks (one alternation of every pattern is an order of magnitude slower: the regex
    engine tries each at every position).
    """
    all_hints = {hint.encode() for entry in CATALOGUE for hint in entry.hints}
    hints = tuple(
        sorted(
            {
                hint
                for hint in all_hints
                if not any(other != hint and other in hint for other in all_hints)
            }
            | {b"\ne ", b"\ne\t"}
        )
    )
    by_hint: dict[str, list[tuple[str, bool]]] = {}
    for entry in CATALOGUE:
        for hint in sorted(
            {
                hint.decode()
                for hint in hints
                if hint[:1] != b"\n" and any(hint.decode() in full for full in entry.hints)
            }
        ):
            by_hint.setdefault(hint, []).append((entry.pattern, entry.kind == "secret"))
    return hints, tuple((hint, tuple(patterns)) for hint, patterns in by_hint.items())


from rtok.compiled.protect_hints import HINT_CHECKS as _HINT_CHECKS  # noqa: E402
from rtok.compiled.protect_hints import HINTS as _HINTS  # noqa: E402
from rtok.filter.memfind import finder  # noqa: E402

# Patterns are compiled when a line first needs one: most outputs need none or few, and
# compiling all of them would cost every `rtok run` a few milliseconds.
_COMPILED: dict[str, Pattern[str]] = {}


def _pem_body() -> Pattern[str]:
    pattern = _COMPILED.get(PEM_BODY_SOURCE)
    if pattern is None:
        pattern = _COMPILED[PEM_BODY_SOURCE] = regex.compile(PEM_BODY_SOURCE, regex.MULTILINE)
    return pattern


def _search(source: str, line: str) -> bool:
    pattern = _COMPILED.get(source)
    if pattern is None:
        pattern = _COMPILED[source] = regex.compile(source, regex.MULTILINE)
    return pattern.search(line) is not None


def _matches(line: str, secrets_only: bool) -> bool:
    low = line.lower()
    for hint, patterns in _HINT_CHECKS:
        if hint in low:
            for source, secret in patterns:
                if (secret or not secrets_only) and _search(source, line):
                    if secret or not is_passing_test(line):
                        return True
                    secrets_only = True
    # A PEM body line carries no hint; nor does pytest's `E   assert ...` line.
    if 60 <= len(line) <= 78 and _pem_body().match(line) is not None:
        return True
    return not secrets_only and line[:1] == "E" and line[1:2].isspace()


def is_protected(line: str) -> bool:
    return _matches(line, False)


def carries_secret(line: str) -> bool:
    """True when `line` holds a credential (what quoted content, like a grep hit, keeps)."""
    return _matches(line, True)


def error_hints() -> tuple[bytes, ...]:
    """The hints of the error and warning entries alone (what the part of an output past
    the archive is scanned for: a secret there is neither shown nor stored)."""
    if not _ERROR_HINTS:
        wanted = {
            hint.encode() for entry in CATALOGUE if entry.kind != "secret" for hint in entry.hints
        }
        _ERROR_HINTS.append(
            tuple(hint for hint in _HINTS if hint[:1] == b"\n" or any(hint in w for w in wanted))
        )
    return _ERROR_HINTS[0]


_ERROR_HINTS: list[tuple[bytes, ...]] = []


def protected_lines(block: bytes, hints: tuple[bytes, ...] | None = None) -> list[tuple[int, str]]:
    """(line index, text) of the protected lines of `block`, a run of complete lines.

    Candidate lines are found with fast substring searches (`rtok.filter.memfind`) on the
    lower-cased block for `hints` (every hint by default; `error_hints()` leaves secrets
    out); only those lines go through the patterns.
    """
    low = b"\n" + block.lower()
    starts = _candidate_starts(low, _HINTS if hints is None else hints)
    if hints is None and b"-----" in block:
        # PEM bodies carry no hint; they only occur between BEGIN/END lines.
        text = block.decode("latin-1")
        for found in _pem_body().finditer(text):
            starts.add(found.start() + 1)
    found_lines: list[tuple[int, str]] = []
    line_no = 0
    counted = 0
    for start in sorted(starts):
        # Offsets in `low` are one past those in `block` (the leading newline).
        begin = start - 1 if start else 0
        end = block.find(b"\n", begin)
        line_no += block.count(b"\n", counted, begin)
        counted = begin
        text_line = block[begin : end if end != -1 else len(block)].decode("utf-8", "replace")
        if is_protected(text_line):
            found_lines.append((line_no, text_line))
    return found_lines


def _candidate_starts(low: bytes, hints: tuple[bytes, ...]) -> set[int]:
    """Where in `low` each line holding one of `hints` starts."""
    find = finder(low)
    starts: set[int] = set()
    for hint in hints:
        pos = find(hint, 0)
        while pos != -1:
            at = pos + 1 if hint[0] == 10 else pos
            starts.add(low.rfind(b"\n", 0, at) + 1)
            end = low.find(b"\n", at)
            if end == -1:
                break
            pos = find(hint, end)
    return starts
