"""Output that is not text (an executable, an image, compressed data) is told in one line;
its bytes stay in the archive for `rtok expand`.

Stdlib only (hot path). Read on the first `SAMPLE_BYTES`. A sample that begins with the
mark of a format no text can begin with (one holding a control byte or a byte UTF-8 never
starts with: ELF, PNG, gzip, SQLite, ...) is that format. Otherwise text has almost no
control bytes (tab, newline, form feed, carriage return, backspace, escape and the bell that
ends a terminal's title or link sequence are text) and decodes as UTF-8; past one bad byte in
`BAD_SHARE` it is data. Text in a legacy encoding (Latin-1, cp1252, Shift-JIS, GBK) does not
decode, but has no control bytes: at most one in `LEGACY_SHARE` keeps it text, where
compressed data, images and executables have more than one in 20. A run of zero bytes
counts once, so a log with a stretch of them (a crash's zero-filled block) stays a log. Text
in UTF-16 (a byte-order mark, every other byte zero, or a sample that decodes in one byte
order into lines with hardly a control character) is text. `text_end` finds where an
output that begins as text turns into data, `text_lead` the text lines data of no known
kind begins with.
"""

from __future__ import annotations

SAMPLE_BYTES = 64 * 1024
BAD_SHARE = 10  # data when more than 1 in 10 decoded characters is a control or bad byte
LEGACY_SHARE = 100  # text whatever it decodes to when at most 1 in 100 bytes is a control
_CONTROL = bytes(b for b in range(32) if b not in (7, 8, 9, 10, 11, 12, 13, 27)) + b"\x7f"
_MAGIC = (
    (b"\x7fELF", "an ELF executable"),
    (b"MZ", "a Windows executable"),
    (b"\xca\xfe\xba\xbe", "a Java class or Mach-O executable"),
    (b"\xcf\xfa\xed\xfe", "a Mach-O executable"),
    (b"\x00asm", "a WebAssembly module"),
    (b"\x89PNG\r\n\x1a\n", "a PNG image"),
    (b"\xff\xd8\xff", "a JPEG image"),
    (b"GIF8", "a GIF image"),
    (b"RIFF", "a RIFF file (WebP, WAV or AVI)"),
    (b"%PDF-", "a PDF document"),
    (b"PK\x03\x04", "a zip archive (or jar, wheel, docx)"),
    (b"\x1f\x8b", "gzip data"),
    (b"BZh", "bzip2 data"),
    (b"\xfd7zXZ\x00", "xz data"),
    (b"\x28\xb5\x2f\xfd", "zstd data"),
    (b"7z\xbc\xaf\x27\x1c", "a 7z archive"),
    (b"SQLite format 3\x00", "an SQLite database"),
    (b"\xde\x12\x04\x95", "a gettext message catalog"),
    (b"\x95\x04\x12\xde", "a gettext message catalog"),
)
# marks holding a control byte or a byte no UTF-8 text starts with: no text begins so
_SURE_MAGIC = tuple(
    (magic, kind)
    for magic, kind in _MAGIC
    if not magic.isascii() or magic.translate(None, _CONTROL) != magic
)
_UTF16_MARKS = (b"\xff\xfe", b"\xfe\xff")


def binary_kind(data: bytes) -> str | None:
    """What `data` is when it is not text (its kind by its first bytes, else "binary
    data"), or None when it is text."""
    sample = data[:SAMPLE_BYTES]
    for magic, kind in _SURE_MAGIC:
        if sample.startswith(magic):
            return kind
    if not sample or _is_utf16(sample):
        return None
    while b"\0\0" in sample:  # at most 16 rounds for 64 KiB
        sample = sample.replace(b"\0\0", b"\0")
    control = len(sample) - len(sample.translate(None, _CONTROL))
    if control * LEGACY_SHARE <= len(sample):
        return None
    decoded = sample.decode("utf-8", "replace")
    # a sample cut inside a character ends in up to 3 bad bytes that are not bad
    bad = decoded.count("\ufffd", 0, max(0, len(decoded) - 3)) + control
    if bad * BAD_SHARE <= len(decoded):
        return None
    if _is_utf16_text(data[:SAMPLE_BYTES]):
        return None
    for magic, kind in _MAGIC:
        if sample.startswith(magic):
            return kind
    return "binary data"


# code points that are control characters (the text ones aside), to delete from decoded
# UTF-16 (built from the bytes themselves: a codec here would cost every run its import)
_UTF16_CONTROL = dict.fromkeys(_CONTROL)


def _is_utf16_text(sample: bytes) -> bool:
    """UTF-16 without a byte-order mark in any script (`日本語` has no zero bytes): the
    sample decodes in one byte order, with lines and hardly a control character. Random
    bytes hold a lone surrogate within a few hundred bytes, binary tables many controls."""
    even = sample[: len(sample) // 2 * 2]
    for encoding in ("utf-16-le", "utf-16-be"):
        try:
            text = even.decode(encoding)
        except UnicodeDecodeError:
            try:  # the sample may end inside a surrogate pair
                text = even[:-2].decode(encoding)
            except UnicodeDecodeError:
                continue
        if "\n" in text and (len(text) - len(text.translate(_UTF16_CONTROL))) * 100 <= len(text):
            return True
    return False


def text_lead(data: bytes) -> int:
    """How many bytes of whole UTF-8 text lines begin an output that is data (a script
    that carries its payload, a log line then an image), 0 when none."""
    sample = data[:SAMPLE_BYTES]
    first = _first_control(sample, len(sample))
    cut = sample.rfind(b"\n", 0, first) + 1
    while cut:  # each round ends before the bad byte found: at most one per line
        try:
            sample[:cut].decode("utf-8")
        except UnicodeDecodeError as exc:
            cut = sample.rfind(b"\n", 0, exc.start) + 1
        else:
            return cut
    return 0


def text_end(data: bytes) -> int:
    """Where an output whose start is text turns into data: the start of the line holding
    the first control byte of the first sample that is data (`len(data)` when its last
    sample is text too; only then are the samples between read)."""
    if len(data) <= SAMPLE_BYTES or binary_kind(data[-SAMPLE_BYTES:]) is None:
        return len(data)
    start = SAMPLE_BYTES
    while start < len(data) and binary_kind(data[start : start + SAMPLE_BYTES]) is None:
        start += SAMPLE_BYTES
    first = _first_control(data[start : start + SAMPLE_BYTES], 0)
    return data.rfind(b"\n", 0, start + first) + 1


def _first_control(chunk: bytes, default: int) -> int:
    """Index of the first control byte (not a text one) in `chunk`, or `default`."""
    return min((i for i in (chunk.find(bytes((b,))) for b in _CONTROL) if i >= 0), default=default)


def _is_utf16(sample: bytes) -> bool:
    if sample.startswith(_UTF16_MARKS):
        return True
    half = len(sample) // 2
    if half < 8:
        return False
    even_zero, odd_zero = sample[0::2].count(0), sample[1::2].count(0)
    # mostly Latin text: one byte of each pair is zero, the other almost never
    return max(even_zero, odd_zero) * 10 >= half * 9 and min(even_zero, odd_zero) * 10 < half


def described(kind: str, size: int) -> str:
    return f"[binary output not shown: {kind}, {size:,} bytes]"
