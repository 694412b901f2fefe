"""The one error every editor raises for a document it will not touch."""

from __future__ import annotations


class FormatError(ValueError):
    """A document does not parse, or does not have the shape an edit needs.

    ``label`` names the document (the installer passes the file path), ``line`` is 1-based
    (0 when no line applies, e.g. for bytes that are not UTF-8 at all), ``reason`` says what
    is wrong in plain words. Nothing is written when this is raised.
    """

    def __init__(self, label: str, line: int, reason: str) -> None:
        self.label = label
        self.line = line
        self.reason = reason
        where = f"{label}:{line}" if line > 0 else label
        super().__init__(f"{where}: {reason}")
