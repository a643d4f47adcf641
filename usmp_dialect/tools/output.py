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


def write_output(path: str | None, text: str | Iterable[str] | bytes | bytearray) -> None:
    """`text` (or its pieces, written one after another) to standard output when `path` is
    None, else to the file `path` (bytes as they are)."""
    if path is None:
        assert not isinstance(text, bytes | bytearray), "bytes go to a file"
        for piece in [text] if isinstance(text, str) else text:
            sys.stdout.write(piece)
        return
    _check_writable(path)
    mode = os.stat(path).st_mode & 0o7777 if os.path.exists(path) else _new_file_mode()
    directory, name = os.path.split(os.path.abspath(path))
    try:
        descriptor, temporary = tempfile.mkstemp(prefix=f".{name}.", dir=directory)
    except OSError as error:
        raise LocatedError(f"cannot write the output: {error.strerror}", path) from None
    try:
        if isinstance(text, bytes | bytearray):
            with os.fdopen(descriptor, "wb") as binary:
                binary.write(text)
        else:
            with os.fdopen(descriptor, "w", encoding="utf-8") as file:
                for piece in [text] if isinstance(text, str) else text:
                    file.write(piece)
        os.chmod(temporary, mode)
        os.replace(temporary, path)
    except BaseException as error:
        os.unlink(temporary)
        if isinstance(error, OSError):
            raise LocatedError(f"cannot write the output: {error.strerror}", path) from None
        raise
