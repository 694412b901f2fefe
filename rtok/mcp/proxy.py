"""The stdio MCP proxy.

Messages are newline-delimited JSON-RPC. Client-to-server lines are forwarded byte for byte
(tools/call request ids are noted on the way). Server-to-client lines are forwarded byte for
byte, except a response to a noted tools/call whose result is not an error: each of its text
blocks longer than the `[mcp]` rule's max_lines is archived and replaced by the shortened text
with the `[rtok expand <id> · N lines]` trailer, and that one message is
re-serialised. The server's stderr is inherited; its exit status is ours (128+N when killed
by signal N); SIGINT, SIGTERM and SIGHUP sent to rtok are passed on.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from typing import IO, Any

from rtok.fileio import sha256_hex
from rtok.filter.engine import shorten
from rtok.filter.layers import resolve_rule
from rtok.filter.render import trailer
from rtok.filter.rule import Rule
from rtok.filter.settings import Settings, load_settings

FORWARDED = tuple(
    getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name)
)


class CallBook:
    """tools/call request ids seen from the client, mapped to their tool names."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._calls: dict[str, str] = {}

    @staticmethod
    def key(request_id: object) -> str:
        return json.dumps(request_id)

    def note(self, message: object) -> None:
        for item in message if isinstance(message, list) else [message]:
            if isinstance(item, dict) and item.get("method") == "tools/call" and "id" in item:
                params = item.get("params")
                name = params.get("name") if isinstance(params, dict) else None
                with self._lock:
                    self._calls[self.key(item["id"])] = str(name or "?")

    def take(self, request_id: object) -> str | None:
        with self._lock:
            return self._calls.pop(self.key(request_id), None)


class Shortener:
    """Cuts long text blocks of tool results, archiving each one first."""

    def __init__(self, server: str, rule: Rule, settings: Settings, cwd: str) -> None:
        self.server = server
        self.rule = rule
        self.settings = settings
        self.cwd = cwd

    def result_message(self, message: dict[str, Any], tool: str) -> bool:
        """Shorten the text blocks of one response in place; True when anything changed."""
        result = message.get("result")
        if not isinstance(result, dict) or result.get("isError") is True:
            return False
        content = result.get("content")
        if not isinstance(content, list):
            return False
        changed = False
        for block in content:
            if isinstance(block, dict) and block.get("type") == "text":
                text = block.get("text")
                if isinstance(text, str):
                    shorter = self.text_block(text, tool, message.get("id"))
                    if shorter is not None:
                        block["text"] = shorter
                        changed = True
        return changed

    def text_block(self, text: str, tool: str, request_id: object) -> str | None:
        lines = text.split("\n")
        if text.endswith("\n"):
            lines.pop()
        if len(lines) <= self.rule.max_lines:
            return None
        raw = text.encode("utf-8", "surrogatepass")
        shown_lines = shorten(text, self.rule, None, 0, self.settings.fail_tail_lines)
        ref = f"{self.server}/{tool}:{json.dumps(request_id)}"

        from rtok.store.archive import ArchiveWriter

        digest = sha256_hex(raw)
        writer = ArchiveWriter(f"mcp {ref}", "mcp", self.settings.max_entry_bytes)
        try:
            writer.write(raw)
            entry_id = writer.finish(
                digest,
                len(raw),
                len(lines),
                0,
                self.settings.max_entries,
                self.settings.max_age_days,
            )
        except Exception:
            return None
        finally:
            writer.close()
        shorter = "\n".join(shown_lines) + "\n" + trailer(entry_id, len(lines))
        if len(shorter.encode("utf-8", "surrogatepass")) >= len(raw):
            return None
        try:
            from rtok.store.ledger import Row, write

            shown = len(shorter.encode("utf-8", "surrogatepass"))
            write(Row(ref, "mcp", "mcp", len(raw), shown, 0, None, self.cwd), entry_id)
        except Exception:
            pass
        return shorter


def transform_line(line: bytes, book: CallBook, shortener: Shortener) -> bytes:
    """One server-to-client line, shortened when it answers a noted tools/call."""
    stripped = line.strip()
    if not stripped.startswith((b"{", b"[")):
        return line
    try:
        message = json.loads(stripped)
    except ValueError:
        return line
    items = message if isinstance(message, list) else [message]
    changed = False
    for item in items:
        if isinstance(item, dict) and "id" in item and "method" not in item:
            tool = book.take(item["id"])
            if tool is not None and shortener.result_message(item, tool):
                changed = True
    if not changed:
        return line
    ending = line[len(line.rstrip(b"\r\n")) :] or b"\n"
    return json.dumps(message, ensure_ascii=False, separators=(",", ":")).encode() + ending


def _lines_of_fd(fd: int) -> Iterator[bytes]:
    """Lines read straight from a file descriptor.

    Unbuffered on purpose: a daemon thread blocked inside a buffered reader would make the
    interpreter abort at exit (the buffer's lock is still held).
    """
    pending = b""
    while True:
        try:
            chunk = os.read(fd, 65536)
        except InterruptedError:
            continue
        if not chunk:
            break
        pending += chunk
        while True:
            end = pending.find(b"\n")
            if end < 0:
                break
            yield pending[: end + 1]
            pending = pending[end + 1 :]
    if pending:
        yield pending


def _client_to_server(fd: int, sink: IO[bytes], book: CallBook) -> None:
    try:
        for line in _lines_of_fd(fd):
            stripped = line.strip()
            if stripped.startswith((b"{", b"[")):
                with contextlib.suppress(ValueError):
                    book.note(json.loads(stripped))
            sink.write(line)
            sink.flush()
    except (BrokenPipeError, OSError, ValueError):
        pass
    finally:
        with contextlib.suppress(BrokenPipeError, OSError):
            sink.close()


def main(argv: list[str]) -> int:
    if argv and argv[0] == "--":
        argv = argv[1:]
    if not argv:
        sys.stderr.write("usage: rtok mcp -- SERVER [ARGS...]\n")
        return 2
    cwd = os.path.realpath(os.getcwd())
    settings = load_settings()
    rule = resolve_rule("mcp", cwd)
    try:
        child = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    except FileNotFoundError:
        sys.stderr.write(f"rtok mcp: {argv[0]}: command not found\n")
        return 127
    except OSError as exc:
        sys.stderr.write(f"rtok mcp: {argv[0]}: {exc.strerror or exc}\n")
        return 126
    for signum in FORWARDED:
        signal.signal(signum, lambda n, _f: _send(child, n))
    book = CallBook()
    shortener = Shortener(os.path.basename(argv[0]), rule, settings, cwd)
    assert child.stdin is not None and child.stdout is not None
    pump = threading.Thread(
        target=_client_to_server, args=(sys.stdin.fileno(), child.stdin, book), daemon=True
    )
    pump.start()
    out = sys.stdout.buffer
    try:
        for line in iter(child.stdout.readline, b""):
            try:
                data = transform_line(line, book, shortener)
            except Exception:
                data = line
            out.write(data)
            out.flush()
    except BrokenPipeError:
        pass
    status = _wait(child)
    return status if status >= 0 else 128 - status


def _send(child: subprocess.Popen[bytes], signum: int) -> None:
    with contextlib.suppress(OSError):
        child.send_signal(signum)


def _wait(child: subprocess.Popen[bytes]) -> int:
    deadline = time.monotonic() + 3600
    while time.monotonic() < deadline:
        try:
            return child.wait()
        except KeyboardInterrupt:
            continue
    return child.wait()
