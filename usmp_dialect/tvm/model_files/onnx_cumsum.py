"""ONNX `CumSum` reversed as one scan kernel.

    cumsum_converter() -> the converter, by the frontend's protocol

TVM's frontend converts a CumSum of `reverse=1` as flip, cumsum, flip: three kernels that
TVM's FuseTIR fails to fuse ("Inconsistent buffers ... mapped to the same relax var": the
flip's output buffer and the cumsum extern's input are of different types), and that would
hold a flipped copy besides. Ours is one `te.extern`, topi's scan walking the axis from its
last element: each sum adds the same elements in the order onnxruntime does (from the end;
with `exclusive=1`, those after it). A CumSum that is not reversed stays TVM's.
"""

from __future__ import annotations

import math
from typing import Any

import tvm
from tvm import te, tirx
from tvm.relax.frontend.onnx import onnx_frontend
from tvm.script.ir_builder import IRBuilder
from tvm.script.ir_builder import tirx as T


def _reverse_scan(data: Any, axis: int, exclusive: bool) -> Any:
    """The sums of `data` (a `te.Tensor`) along `axis` (negative: from the last) from its
    last element: each of the
    elements from it (`exclusive`: after it) to the end, added from the end."""
    shape = [int(d) for d in data.shape]
    axis %= len(shape)
    length, after = shape[axis], math.prod(shape[axis + 1 :])
    lines = math.prod(shape[:axis]) * after

    def scan(ins: Any, outs: Any) -> Any:
        with IRBuilder() as builder:
            source, sums = T.buffer_proxy(ins[0]), T.buffer_proxy(outs[0])
            with T.serial(0, lines) as line:
                last = line // after * length * after + line % after + (length - 1) * after
                sums[last] = tirx.const(0, data.dtype) if exclusive else source[last]
                with T.serial(1, length) as k:
                    at = last - k * after
                    added = source[at + after] if exclusive else source[at]
                    sums[at] = sums[at + after] + added
            return builder.get()

    out = tirx.decl_buffer(shape, data.dtype, "reverse_sums")
    return te.extern(
        [shape], [data], scan, dtype=data.dtype, out_buffers=[out], name="cumsum", tag="cumsum"
    )


def cumsum_converter() -> type:
    class CumSum(onnx_frontend.CumSum):
        @classmethod
        def _impl_v14(cls, bb: Any, inputs: Any, attr: dict[str, Any], params: Any) -> Any:
            axis = onnx_frontend.get_constant(inputs[1], params)
            if not attr.get("reverse", 0) or not isinstance(axis, tvm.ir.Constant):
                return super()._impl_v14(bb, inputs, attr, params)
            values = axis.value.numpy()
            if values.size != 1:  # TVM's converter says what it takes
                return super()._impl_v14(bb, inputs, attr, params)
            exclusive = attr.get("exclusive", 0) != 0
            axis_index = int(values.item())
            return bb.emit_te(
                _reverse_scan, inputs[0], axis_index, exclusive, primfunc_name_hint="cumsum"
            )

    return CumSum
