"""What TVM prints while it runs, kept out of the pipe and away from the diagnostics.

    with output_captured() as printed: ...     printed.getvalue() afterwards

TVM's frontends print to standard output when they fail, and its C++ side logs warnings to
file descriptor 2 (a Relax BlockBuilder left with open blocks when a pass raises): written
through, they would land in `usmp-translate`'s IR or next to its one diagnostic.
"""

from __future__ import annotations

import contextlib
import io
import os
import sys
import tempfile
from collections.abc import Iterator


@contextlib.contextmanager
def output_captured() -> Iterator[io.StringIO]:
    """Standard output and error, Python's and the process's (file descriptors 1 and 2,
    where TVM's C++ logs), captured: what TVM prints is read by the caller, not written
    into the pipe or next to the diagnostic."""
    captured = io.StringIO()
    with tempfile.TemporaryFile() as native:
        sys.stdout.flush()
        sys.stderr.flush()
        saved = {fd: os.dup(fd) for fd in (1, 2)}
        for fd in saved:
            os.dup2(native.fileno(), fd)
        try:
            with contextlib.redirect_stdout(captured), contextlib.redirect_stderr(captured):
                yield captured
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
            for fd, original in saved.items():
                os.dup2(original, fd)
                os.close(original)
            native.seek(0)
            captured.write(native.read().decode("utf-8", "replace"))
