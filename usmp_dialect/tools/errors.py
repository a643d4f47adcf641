"""One place that turns a user's mistake into an MLIR-style diagnostic and exit status 1.

Only the errors a user can cause are caught here; anything else is a bug in this project
and keeps its traceback.
"""

from __future__ import annotations

import argparse
import gc
import os
import re
import stat
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, NoReturn

from xdsl.utils.arg_spec import ArgSpecParseError
from xdsl.utils.exceptions import DiagnosticException, ParseError

from usmp_dialect.diagnostics import (
    RECURSION_LIMIT,
    LocatedError,
    UsmpError,
    format_error,
    location_prefix,
)

STDIN_NAME = "<stdin>"
"""Standard input in diagnostics, as both tools (and MLIR's) name it."""

_NOT_SPACE = re.compile(rb"\S")
"""What `bytes.strip` would keep, found without copying the input (a model's is 100 MB)."""


def _stdin_is_a_pipe() -> bool:
    try:
        return stat.S_ISFIFO(os.fstat(sys.stdin.fileno()).st_mode)
    except (OSError, ValueError):
        return False


_MLIR_CODE = re.compile(rb"^[ \t\r\f\v]*(?:[^\s/]|/(?!/))", re.MULTILINE)
"""A line's first character that is neither white space nor the start of a `//` comment."""


def holds_only_comments(data: bytes | bytearray) -> bool:
    """Whether MLIR text `data` has nothing but white space and `//` comments."""
    return _MLIR_CODE.search(data) is None


def check_not_empty(data: bytes | bytearray, name: str, mlir: bool = False) -> None:
    """An input with nothing but white space (or, `mlir`, comments) is one diagnostic saying
    so (a parser's would blame its end); in a pipe, most likely the command before failed."""
    if _NOT_SPACE.search(data):
        if mlir and holds_only_comments(data):
            raise LocatedError("the input is empty: it holds nothing but comments", name)
        return
    message = "the input is empty"
    if name == STDIN_NAME and _stdin_is_a_pipe():
        message += "; the command before this one in the pipe may have failed"
    raise LocatedError(message, name)


def usage_error(tool: str, message: str) -> NoReturn:
    """A mistake on the command line: one line naming the tool, exit status 1 (argparse's
    own is 2)."""
    print(f"{tool}: error: {message}", file=sys.stderr)
    raise SystemExit(1)


class UsageParser(argparse.ArgumentParser):
    """An argument parser whose errors are `usage_error`s, and which takes no abbreviated
    option (`--pool` is not `--pools`: a typo, not a choice)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **{**kwargs, "allow_abbrev": False})

    def error(self, message: str) -> NoReturn:
        usage_error(self.prog, message)


@dataclass
class ErrorContext:
    tool: str
    input_name: str | None = None

    @property
    def prefix(self) -> str:
        return self.input_name or self.tool


_QUOTED_PAST_CARET = 80
"""Characters of the source line quoted after the caret (a line may be megabytes)."""


def _parse_error_text(error: ParseError) -> str:
    span = error.span
    location = span.get_location()
    content = span.input.content
    if isinstance(content, bytes):
        content = content.decode("utf-8", "replace")
    line_start = content.rfind("\n", 0, span.start) + 1
    line_end = content.find("\n", span.start)
    source_line = content[line_start : None if line_end < 0 else line_end]
    if len(source_line) > location.col + _QUOTED_PAST_CARET:
        source_line = source_line[: location.col + _QUOTED_PAST_CARET] + " ..."
    caret = " " * (location.col - 1) + "^"
    header = format_error(f"{location.file}:{location.line}:{location.col}", error.msg)
    return f"{header}\n{source_line}\n{caret}"


_PIPELINE_ERROR = re.compile(
    r"Error parsing pass pipeline specification:\n(?P<location>\S+)\n"
    r"(?P<source>.*)\n(?P<caret> *\^)\n *(?P<message>.*?)\s*$",
    re.S,
)
"""xDSL's text for a mistake in `-p`: its location, the pipeline, a caret, the message."""


def _pipeline_error_text(error: ArgSpecParseError, tool: str) -> str:
    """A `-p` mistake as a diagnostic at `pass-pipeline:line:col`, as MLIR's tools name the
    pipeline, then the pipeline and a caret under the mistake."""
    text = str(error)
    found = _PIPELINE_ERROR.match(text)
    if found is None:
        return format_error(tool, text.replace("\n", " "))
    header = format_error(found["location"], found["message"])
    return f"{header}\n{found['source']}\n{found['caret']}"


USER_ERRORS = (ParseError, DiagnosticException, ArgSpecParseError)


def user_error_text(error: BaseException, context: ErrorContext) -> str:
    """The diagnostic for one of the `USER_ERRORS`."""
    match error:
        case ParseError():
            return _parse_error_text(error)
        case UsmpError():
            return format_error(location_prefix(error.op, context.prefix), error.message)
        case LocatedError():
            return format_error(error.location, error.message)
        case ArgSpecParseError():
            return _pipeline_error_text(error, context.tool)
        case DiagnosticException():
            return format_error(context.prefix, str(error))
        case _:
            return format_error(context.tool, str(error).replace("\n", " "))


TVM_MODULES = ("tvm", "tvm_ffi")
TVM_EXTRA = "pip install -e '.[tvm]' in the usmp_dialect checkout"
"""How to add Apache TVM, an optional dependency: only the TVMScript and Relax front and
back ends use it, never planning .mlir or CSV. The package is installed from its checkout
(it is on no package index), so that is the command that works."""


@contextmanager
def requires_tvm(tool: str, feature: str) -> Iterator[None]:
    """A missing Apache TVM, when `feature` needs it, as one diagnostic naming the extra."""
    try:
        yield
    except ModuleNotFoundError as error:
        if (error.name or "").partition(".")[0] not in TVM_MODULES:
            raise
        print(f"{tool}: error: {feature} needs Apache TVM: {TVM_EXTRA}", file=sys.stderr)
        raise SystemExit(1) from None


@contextmanager
def _rare_collections() -> Iterator[None]:
    """A run builds one large IR that lives to its end: Python's cycle collector, at its
    default thresholds, went over it again and again as it grew (a fifth of planning a
    62k-buffer trace). Young garbage is still collected."""
    thresholds = gc.get_threshold()
    gc.set_threshold(100_000, 50, 100)
    try:
        yield
    finally:
        gc.set_threshold(*thresholds)


@contextmanager
def report_user_errors(tool: str) -> Iterator[ErrorContext]:
    """The run of a tool: a user's mistake becomes a diagnostic and exit status 1."""
    context = ErrorContext(tool)
    sys.setrecursionlimit(max(sys.getrecursionlimit(), RECURSION_LIMIT))
    try:
        with _rare_collections():
            yield context
    except USER_ERRORS as error:
        print(user_error_text(error, context), file=sys.stderr)
        raise SystemExit(1) from None
    except RecursionError:
        # The parser stops .mlir nested past MAX_NESTING at the op; this is the rest
        # (a Python expression in a model or TVMScript file nested that deep).
        message = (
            "the input nests too deeply: past the recursion limit of "
            f"{sys.getrecursionlimit()} Python frames"
        )
        print(format_error(context.prefix, message), file=sys.stderr)
        raise SystemExit(1) from None
