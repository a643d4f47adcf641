"""Errors that point at the IR a user wrote, and their MLIR-style rendering.

A pass or front end raises `UsmpError` with the op (or file position) at fault; the console
tools print it as `file:line:col: error: message` and exit with status 1.
"""

from __future__ import annotations

import sys

from xdsl.dialects.builtin import FileLineColLoc
from xdsl.ir import Operation
from xdsl.utils.exceptions import PassFailedException, VerifyException


class UsmpError(PassFailedException):
    def __init__(self, message: str, op: Operation | None = None):
        super().__init__(message)
        self.message = message
        self.op = op


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
