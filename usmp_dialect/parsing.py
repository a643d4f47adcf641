"""An MLIR parser that remembers where each op was written, so diagnostics can say
`file:line:col` the way MLIR's do, and whose modules print back parseable whatever their
SSA names."""

from __future__ import annotations

from bisect import bisect_right

from xdsl.context import Context
from xdsl.dialects.builtin import FileLineColLoc, IntAttr, ModuleOp, StringAttr, UnknownLoc
from xdsl.ir import Operation
from xdsl.parser import Parser

from usmp_dialect.dialects.tir import set_readable_hint


class LocatingParser(Parser):
    def __init__(self, ctx: Context, input: str | bytes, name: str, line_offset: int = 0):
        super().__init__(ctx, input, name)
        self._line_offset = line_offset
        self._file_name = StringAttr(name)
        newline = b"\n" if isinstance(input, bytes) else "\n"
        # Line starts found once, so locating an op is a binary search rather than a
        # count of the newlines before it (which made large inputs quadratic).
        self._line_starts = [0]
        position = input.find(newline)
        while position >= 0:
            self._line_starts.append(position + 1)
            position = input.find(newline, position + 1)

    def parse_operation(self) -> Operation:
        start = self._current_token.span.start
        op = super().parse_operation()
        if isinstance(op.location, UnknownLoc):
            line = bisect_right(self._line_starts, start)
            column = start - self._line_starts[line - 1] + 1
            op.location = FileLineColLoc(
                self._file_name, IntAttr(line + self._line_offset), IntAttr(column)
            )
        return op

    def parse_module(self, allow_implicit_module: bool = True) -> ModuleOp:
        """xDSL keeps `%x_1_2` as the hint `x_1`, which its printer may also give another
        value: the hints are made ones that print uniquely."""
        module = super().parse_module(allow_implicit_module)
        for op in module.walk():
            for value in (*op.results, *(a for r in op.regions for b in r.blocks for a in b.args)):
                if value.name_hint is not None:
                    set_readable_hint(value, value.name_hint)
        return module
