"""TFLite's DYNAMIC_UPDATE_SLICE as TensorFlow Lite Micro's kernel computes it, on the
stored values of any type (a quantized tensor's too: TFLM copies them, its operand,
update and output quantized alike):

    convert_dynamic_update_slice(converter, op) -> the operator's call

The output is the operand with the update written at the start indices (a run-time
input, int32 or int64), each clamped as TFLM's CalculateClampedStartIndices clamps it:
to [0, operand's dim - update's dim], so that the update lies inside."""

from __future__ import annotations

from typing import Any

from tvm import te, tirx

from usmp_dialect.tvm.model_files.onnx_operators import OperatorRejected
from usmp_dialect.tvm.model_files.tflite_tensors import tensor_shape


def dynamic_update_slice(operand: Any, update: Any, starts: Any) -> Any:
    """`operand` with `update` written at `starts` (a 1-D tensor, one index a dim), each
    start clamped so that the update fits."""
    dims = [int(d) for d in operand.shape]
    sizes = [int(d) for d in update.shape]

    def start(axis: int) -> Any:
        at = starts[axis].astype("int64")
        return tirx.min(tirx.max(at, tirx.const(0, "int64")), dims[axis] - sizes[axis])

    def element(*index: Any) -> Any:
        offsets = [i.astype("int64") - start(a) for a, i in enumerate(index)]
        inside = tirx.all(*(tirx.all(o >= 0, o < s) for o, s in zip(offsets, sizes, strict=True)))
        return tirx.if_then_else(inside, update[tuple(offsets)], operand[index])

    return te.compute(operand.shape, element, name="dynamic_update_slice")


def convert_dynamic_update_slice(converter: Any, op: Any) -> Any:
    operand, update, starts = converter.get_input_tensors(op)
    (out,) = converter.get_output_tensors(op)
    if operand.qnn_params and not all(
        converter.has_same_qnn_params(operand, t) for t in (update, out)
    ):
        raise OperatorRejected(
            "quantized DYNAMIC_UPDATE_SLICE whose update or output is quantized unlike its "
            "operand (TFLM copies the stored values)"
        )
    if len(tensor_shape(starts.tensor)) != 1:
        raise OperatorRejected("DYNAMIC_UPDATE_SLICE of start indices not 1-D")
    return converter.bb.call_te(
        dynamic_update_slice,
        *(converter.get_tensor_expr(t) for t in (operand, update, starts)),
        primfunc_name_hint="dynamic_update_slice",
    )
