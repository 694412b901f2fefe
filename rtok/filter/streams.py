"""Facts about captured streams that the pipeline and the renderer share (stdlib only, hot
path): below both, so neither has to import the other for them."""

from __future__ import annotations

# A shortened result carries a trailer of at least this many bytes, so output this small
# can never be shortened (never_worse) and is printed as it is.
TRAILER_BYTES = 64
# The archive stream that holds a command's stderr (1 is stdout, 0 one merged stream).
STDERR_STREAM = 2
