"""Errors that point at the IR a user wrote, and their MLIR-style rendering.

A pass raises `UsmpError` with the op at fault; a front end (CSV, TVMScript, Relax) raises a
subclass of `LocatedError` with the file position. The console tools print either as
`file:line:col: error: message` and exit with status 1.
"""

from __future__ import annotations

import sys

from xdsl.dialects.builtin import FileLineColLoc
from xdsl.ir import Operation
from xdsl.utils.exceptions import (
    DiagnosticException,
    PassFailedException,
    VerifyException,
)

INT64_MAX = 2**63 - 1
"""The largest size, offset, alignment, pool size or time the planner takes: it computes
in int64."""
MAX_TOTAL_BYTES = 2**60
"""The most the sizes plus alignments of a problem's buffers may sum to. No plan needs
more, so no offset or pool size the planner computes passes it, and its algorithms keep
int64 headroom above it for their sentinels and sums."""
MAX_NESTING = 500
"""Ops nest at most this deep (an op inside a region of an op ... of the module). Parsing,
passes and printing recurse once a level; `RECURSION_LIMIT` gives them room for it."""
RECURSION_LIMIT = 40 * MAX_NESTING


MODELS_EXTRA = "pip install -e '.[models]' in the usmp_dialect checkout"
"""How to add the packages TVM's frontends read model files with (`tflite`, `onnx`)."""


class UsmpError(PassFailedException):
    def __init__(self, message: str, op: Operation | None = None):
        super().__init__(message)
        self.message = message
        self.op = op


class LocatedError(DiagnosticException):
    """A user's mistake in an input, at `file:line:col` (or `file` when no line applies)."""

    def __init__(self, message: str, location: str):
        super().__init__(f"{location}: {message}")
        self.message = message
        self.location = location


def decode_input(data: bytes | bytearray, name: str, line_offset: int = 0) -> str:
    """Input bytes as text; anything but UTF-8 is a `LocatedError` at the first bad byte."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        bad = data[error.start : error.end]
        line_start = data.rfind(b"\n", 0, error.start) + 1
        line = data.count(b"\n", 0, error.start) + 1 + line_offset
        column = len(data[line_start : error.start].decode("utf-8", "replace")) + 1
        raise LocatedError(
            f"the input is not UTF-8 text: byte{'s' if len(bad) > 1 else ''} "
            f"{bad.hex(' ')} ({error.reason})",
            f"{name}:{line}:{column}",
        ) from None


def location_prefix(op: Operation | None, fallback: str) -> str:
    """`file:line:col` of where the op was parsed, else the fallback (the input's name)."""
    location = None if op is None else op.location
    if isinstance(location, FileLineColLoc):
        return f"{location.filename.data}:{location.line.data}:{location.column.data}"
    return fallback


def format_error(prefix: str, message: str) -> str:
    return f"{prefix}: error: {message}"


def warn(message: str, op: Operation | None, fallback: str) -> None:
    """`file:line:col: warning: message` on stderr: the tool goes on and writes its output."""
    print(f"{location_prefix(op, fallback)}: warning: {message}", file=sys.stderr)


def first_failing_op(module: Operation) -> Operation | None:
    """The first op, in program order, whose own verification fails."""
    for op in module.walk():
        try:
            op.verify(verify_nested_ops=False)
        except VerifyException:
            return op
    return None


def with_location(error: VerifyException, module: Operation) -> UsmpError:
    return UsmpError(str(error), first_failing_op(module))
