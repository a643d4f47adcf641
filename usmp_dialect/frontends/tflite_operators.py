"""TFLite operators TVM 0.27's frontend converts wrongly, converted anew.

    corrected_converter() -> type   TVM's `OperatorConverter` with these operators corrected

EXPAND_DIMS: TVM's converter passes `relax.op.expand_dims` a third argument it does not
take (a TypeError on every EXPAND_DIMS). BATCH_MATMUL: TVM's converter reads both operands
as tensors other operators computed (a KeyError on a weight) and broadcasts the batch dims
by hand; Relax's `matmul` broadcasts them as TFLite does, so each operand is read as any
operand is (a constant for a weight) and, when the options say so, has its last two axes
swapped. Found on openWakeWord's melspectrogram (in pyopen-wakeword).
"""

from __future__ import annotations

from typing import Any

import numpy as np


def corrected_converter() -> type:
    """TVM's TFLite `OperatorConverter` with EXPAND_DIMS and BATCH_MATMUL corrected."""
    import tvm
    from tvm import relax
    from tvm.relax.frontend.tflite.tflite_frontend import OperatorConverter

    class CorrectedConverter(OperatorConverter):
        def convert_expand_dims(self, op: Any) -> Any:
            data, axis = self.get_input_tensors(op)
            if data.qnn_params and not self.has_same_qnn_params(
                data, self.get_output_tensors(op)[0]
            ):
                raise tvm.error.OpNotImplemented(
                    "quantized EXPAND_DIMS whose output is quantized unlike its input"
                )
            (position,) = np.asarray(self.get_tensor_value(axis)).reshape(-1)
            # TFLite counts a negative axis from the end of the output, as Relax does.
            return relax.op.expand_dims(self.get_tensor_expr(data), int(position))

        def convert_batch_matmul(self, op: Any) -> Any:
            from tflite.BatchMatMulOptions import BatchMatMulOptions

            if self.is_quantized(op):
                raise tvm.error.OpNotImplemented("quantized BATCH_MATMUL")
            options = BatchMatMulOptions()
            table = op.BuiltinOptions()
            options.Init(table.Bytes, table.Pos)
            lhs, rhs = self.get_input_tensors(op)
            return relax.op.matmul(
                self._operand(lhs, options.AdjX()), self._operand(rhs, options.AdjY())
            )

        def _operand(self, tensor: Any, adjoint: bool) -> Any:
            """A BATCH_MATMUL operand, its last two axes swapped if `adjoint`."""
            expr = self.get_tensor_expr(tensor)
            if not adjoint:
                return expr
            rank = len(tensor.tensor.ShapeAsNumpy())
            return relax.op.permute_dims(expr, [*range(rank - 2), rank - 1, rank - 2])

    return CorrectedConverter
