"""An MLIR parser that remembers where each op was written, so diagnostics can say
`file:line:col` the way MLIR's do."""

from __future__ import annotations

from xdsl.context import Context
from xdsl.dialects.builtin import FileLineColLoc, IntAttr, StringAttr, UnknownLoc
from xdsl.ir import Operation
from xdsl.parser import Parser


class LocatingParser(Parser):
    def __init__(self, ctx: Context, input: str | bytes, name: str, line_offset: int = 0):
        super().__init__(ctx, input, name)
        self._line_offset = line_offset
        self._file_name = StringAttr(name)

    def parse_operation(self) -> Operation:
        start = self._current_token.span.get_location()
        op = super().parse_operation()
        if isinstance(op.location, UnknownLoc):
            op.location = FileLineColLoc(
                self._file_name, IntAttr(start.line + self._line_offset), IntAttr(start.col)
            )
        return op
