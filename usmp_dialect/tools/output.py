"""Writing a tool's result: to standard output, or to `-o FILE` all at once.

The text goes to a temporary file beside the target, renamed over it only when complete, so
a failure never leaves a half-written output (nor an empty one) behind.
"""

from __future__ import annotations

import os
import stat
import sys
import tempfile
from collections.abc import Iterable
from typing import IO, Any

from usmp_dialect.diagnostics import LocatedError


def _check_writable(path: str) -> None:
    if os.path.isdir(path):
        raise LocatedError("cannot write the output: it is a directory", path)
    if os.path.lexists(path) and (
        not os.access(path, os.W_OK) or not os.stat(path).st_mode & stat.S_IWUSR
    ):
        raise LocatedError("cannot write the output: the file is read-only", path)


def _new_file_mode() -> int:
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


class PendingFile:
    """Text or bytes written to a temporary file beside `path`: renamed over `path` by
    `commit` once complete, removed by `discard`."""

    def __init__(self, path: str, binary: bool = False):
        _check_writable(path)
        self.path = path
        self._mode = os.stat(path).st_mode & 0o7777 if os.path.exists(path) else _new_file_mode()
        directory, name = os.path.split(os.path.abspath(path))
        try:
            descriptor, self._temporary = tempfile.mkstemp(prefix=f".{name}.", dir=directory)
        except OSError as error:
            raise LocatedError(f"cannot write the output: {error.strerror}", path) from None
        self.file: IO[Any] = (
            os.fdopen(descriptor, "wb") if binary else os.fdopen(descriptor, "w", encoding="utf-8")
        )

    def write(self, text: Any) -> int:
        try:
            return self.file.write(text)
        except OSError as error:
            self.discard()
            raise LocatedError(f"cannot write the output: {error.strerror}", self.path) from None

    def flush(self) -> None:
        self.file.flush()

    def close(self) -> None:
        """Kept open: `commit` or `discard` ends the file (a stream's users close it)."""

    def commit(self) -> None:
        try:
            self.file.close()
            os.chmod(self._temporary, self._mode)
            os.replace(self._temporary, self.path)
        except OSError as error:
            self.discard()
            raise LocatedError(f"cannot write the output: {error.strerror}", self.path) from None

    def discard(self) -> None:
        self.file.close()
        if os.path.exists(self._temporary):
            os.unlink(self._temporary)


def write_output(path: str | None, text: str | Iterable[str] | bytes | bytearray) -> None:
    """`text` (or its pieces, written one after another) to standard output when `path` is
    None, else to the file `path` (bytes as they are)."""
    if path is None:
        assert not isinstance(text, bytes | bytearray), "bytes go to a file"
        for piece in [text] if isinstance(text, str) else text:
            sys.stdout.write(piece)
        return
    pending = PendingFile(path, binary=isinstance(text, bytes | bytearray))
    pieces: Iterable[str | bytes | bytearray] = (
        [text] if isinstance(text, str | bytes | bytearray) else text
    )
    try:
        for part in pieces:
            pending.write(part)
    except BaseException:
        pending.discard()
        raise
    pending.commit()
