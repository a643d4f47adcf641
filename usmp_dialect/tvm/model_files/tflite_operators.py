"""TFLite operators TVM 0.27's frontend converts wrongly, converted anew.

    corrected_converter() -> type   TVM's `OperatorConverter` with these operators corrected
    tensor_shape(tensor) -> [dim]   a flatbuffer tensor's shape ([] for a scalar)

EXPAND_DIMS: TVM's converter passes `relax.op.expand_dims` a third argument it does not
take (a TypeError on every EXPAND_DIMS). BATCH_MATMUL: TVM's converter reads both operands
as tensors other operators computed (a KeyError on a weight) and broadcasts the batch dims
by hand; Relax's `matmul` broadcasts them as TFLite does, so each operand is read as any
operand is (a constant for a weight) and, when the options say so, has its last two axes
swapped. Found on openWakeWord's melspectrogram (in pyopen-wakeword). FULLY_CONNECTED:
TVM's converter keeps the input's leading dims whatever the options say; without
`keep_num_dims` TFLite flattens them, [rows, units] (microWakeWord's "Okay Nabu" declares
its output [1, 1], TVM made it [1, 1, 1, 1]). PAD and PADV2 of a quantized tensor: TVM's
check rejects every quantized operator it has not listed (an int8 MobileNetV2 keyword
spotter pads int8 tensors); an int8 PAD pads with its zero point (PADV2 with its
constant), as TFLite's kernel does.
"""

from __future__ import annotations

from typing import Any

import numpy as np


def tensor_shape(tensor: Any) -> list[int]:
    """A flatbuffer tensor's shape as the file writes it: `ShapeAsNumpy()` is 0, not an
    empty array, for a scalar (a tensor without a shape vector)."""
    return [int(d) for d in tensor.ShapeAsNumpy()] if tensor.ShapeLength() else []


def corrected_converter() -> type:
    """TVM's TFLite `OperatorConverter` with EXPAND_DIMS, BATCH_MATMUL and FULLY_CONNECTED
    corrected."""
    import tvm
    from tvm import relax
    from tvm.relax.frontend.tflite.tflite_frontend import OperatorConverter

    class CorrectedConverter(OperatorConverter):
        _SUPPORTED_QUANTIZED_OPS = OperatorConverter._SUPPORTED_QUANTIZED_OPS | {
            "PAD",
            "PADV2",
        }

        def convert_pad(self, op: Any) -> Any:
            data, paddings, *constant = self.get_input_tensors(op)
            if not data.qnn_params:
                return super().convert_pad(op)
            (out,) = self.get_output_tensors(op)
            if not all(self.has_same_qnn_params(data, t) for t in (out, *constant)):
                raise tvm.error.OpNotImplemented(
                    f"quantized PAD computing '{out.tensor.Name().decode()}' is quantized "
                    "unlike its input (TFLite's kernel copies the values)"
                )
            if constant:
                (value,) = np.asarray(self.get_tensor_value(constant[0])).reshape(-1)
            else:
                value = data.qnn_params["zero_point"].value.numpy()
            widths = np.asarray(self.get_tensor_value(paddings)).reshape(-1)
            return relax.op.nn.pad(
                self.get_tensor_expr(data),
                pad_width=[int(w) for w in widths],
                pad_value=float(value),
            )

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

        def convert_fully_connected(self, op: Any) -> Any:
            from tflite.FullyConnectedOptions import FullyConnectedOptions

            out = super().convert_fully_connected(op)
            options = FullyConnectedOptions()
            table = op.BuiltinOptions()
            options.Init(table.Bytes, table.Pos)
            data, weight = self.get_input_tensors(op)[:2]
            if options.KeepNumDims() or len(tensor_shape(data.tensor)) == 2:
                return out
            units = int(tensor_shape(weight.tensor)[0])
            return relax.op.reshape(self.bb.normalize(out), [-1, units])

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
            rank = len(tensor_shape(tensor.tensor))
            return relax.op.permute_dims(expr, [*range(rank - 2), rank - 1, rank - 2])

    return CorrectedConverter
