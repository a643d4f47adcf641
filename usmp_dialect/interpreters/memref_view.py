"""Running planned programs in xDSL's interpreter: `memref.view` of a byte pool.

xDSL's interpreter has no `memref.view`; a planned program needs it, since every buffer is
a view into a pool. The view aliases the pool's bytes, so two buffers planned onto the
same bytes really do share them, as they would on the device.
"""

from __future__ import annotations

from typing import Any

from xdsl.dialects import memref
from xdsl.dialects.builtin import MemRefType
from xdsl.interpreter import (
    Interpreter,
    InterpreterFunctions,
    PythonValues,
    impl,
    register_impls,
)
from xdsl.interpreters.builtin import xtype_for_el_type
from xdsl.interpreters.shaped_array import ShapedArray
from xdsl.interpreters.utils.ptr import TypedPtr


@register_impls
class MemRefViewFunctions(InterpreterFunctions):
    @impl(memref.ViewOp)
    def run_view(
        self, interpreter: Interpreter, op: memref.ViewOp, args: PythonValues
    ) -> PythonValues:
        pool, byte_shift, *_ = args
        assert isinstance(pool, ShapedArray)
        result_type = op.result.type
        assert isinstance(result_type, MemRefType)
        xtype = xtype_for_el_type(result_type.get_element_type(), interpreter.index_bitwidth)
        shift = byte_shift if isinstance(byte_shift, int) else byte_shift.value.data
        data: TypedPtr[Any] = TypedPtr(pool.data_ptr.raw + shift, xtype=xtype)
        return (ShapedArray(data, list(result_type.get_shape())),)
