"""TFLite's operators with a weight (FULLY_CONNECTED, CONV_2D, DEPTHWISE_CONV_2D, BATCH_MATMUL,
TRANSPOSE_CONV), converted anew: quantized ones one kernel of ours each
(`int8_weighted_kernels`), TFLM's arithmetic bit for bit (see `tflite_operators`)."""

from __future__ import annotations

from typing import Any

import numpy as np
import tvm
from tvm import relax
from tvm.relax.frontend.tflite.tflite_frontend import OperatorConverter

from usmp_dialect.tvm.model_files.int8_weighted_kernels import (
    ConvWindow,
    Requantization,
    batch_matmul,
    conv2d,
    depthwise_conv2d,
    fully_connected,
    transpose_conv2d,
)
from usmp_dialect.tvm.model_files.onnx_operators import OperatorRejected
from usmp_dialect.tvm.model_files.tflite_options import (
    compute_padding,
    conv_window,
    options_of,
    quantization_of,
    requantization,
)
from usmp_dialect.tvm.model_files.tflite_tensors import scalar_quantization, tensor_shape
from usmp_dialect.tvm.relax.narrowed_constants import WIDENED_ARGS


class WeightedOperators(OperatorConverter):
    """The converters of operators with a weight, for `CorrectedConverter`."""

    def convert_fully_connected(self, op: Any) -> Any:
        from tflite.FullyConnectedOptions import FullyConnectedOptions

        options = options_of(op, FullyConnectedOptions)
        data, weight = self.get_input_tensors(op)[:2]
        units = int(tensor_shape(weight.tensor)[0])
        operands = self._kernel_operands(op)
        if operands is None:
            out = super().convert_fully_connected(op)
            if options.KeepNumDims() or len(tensor_shape(data.tensor)) == 2:
                return out
            return relax.op.reshape(self.bb.normalize(out), [-1, units])
        data, weight, _, _ = operands
        r, tables = self._requantization(operands, options.FusedActivationFunction(), True)
        shape = tensor_shape(data.tensor)
        inputs = int(tensor_shape(weight.tensor)[1])
        rows = int(np.prod(shape)) // inputs
        expr = self.get_tensor_expr(data)
        if shape != [rows, inputs]:
            expr = self.bb.emit(relax.op.reshape(expr, [rows, inputs]))
        result = self._kernel(
            lambda x, w, b, m, s: fully_connected(x, w, b, m, s, r),
            ("fully_connected", r),
            expr,
            operands,
            tables,
        )
        if options.KeepNumDims() and len(shape) != 2:
            return relax.op.reshape(self.bb.normalize(result), [*shape[:-1], units])
        return result

    def convert_conv(self, op: Any, conv_type: str) -> Any:
        from tflite.Conv2DOptions import Conv2DOptions
        from tflite.DepthwiseConv2DOptions import DepthwiseConv2DOptions

        operands = self._kernel_operands(op)
        if operands is None:
            return super().convert_conv(op, conv_type)
        data, weight, _, _ = operands
        depthwise = conv_type == "depthwise"
        options = options_of(op, DepthwiseConv2DOptions if depthwise else Conv2DOptions)
        r, tables = self._requantization(operands, options.FusedActivationFunction(), False)
        _, kernel_h, kernel_w, _ = tensor_shape(weight.tensor)
        window = conv_window(options, data.tensor, (kernel_h, kernel_w))
        kernel = depthwise_conv2d if depthwise else conv2d
        return self._kernel(
            lambda x, w, b, m, s: kernel(x, w, b, m, s, window, r),
            ("depthwise_conv2d" if depthwise else "conv2d", window, r),
            self.get_tensor_expr(data),
            operands,
            tables,
        )

    def _kernel_operands(self, op: Any, first: int = 0) -> tuple[Any, Any, Any, Any] | None:
        """(data, weight, bias or None, out) of a quantized operator our kernels
        compute: int8 activations, or int16 ones with an int64 bias or none (TFLM's
        16x8), an int8 weight of zero point 0 that is a constant of the file; None for
        any other (TVM's converter's). Its inputs from `first` on are the data, weight
        and bias (TRANSPOSE_CONV's: weight, data, bias after the output's shape)."""
        inputs = self.get_input_tensors(op)[first:]
        if first:
            inputs[:2] = inputs[1::-1]
        data, weight, *rest = inputs
        (out,) = self.get_output_tensors(op)
        bias = rest[0] if rest and rest[0].tensor_idx != -1 else None
        types = [self.get_tensor_type_str(t.tensor.Type()) for t in (data, out, weight)]
        constant = not self.has_expr(weight.tensor_idx) and (
            bias is None or not self.has_expr(bias.tensor_idx)
        )
        bias_type = None if bias is None else self.get_tensor_type_str(bias.tensor.Type())
        int16 = types == ["int16", "int16", "int8"] and bias_type in (None, "int64")
        if (set(types) != {"int8"} and not int16) or not data.qnn_params or not constant:
            return None
        if np.any(quantization_of(weight.tensor)[1] != 0):
            return None  # our kernels sum a symmetric weight; TVM's converter takes this one
        return data, weight, bias, out

    def _requantization(
        self, operands: tuple[Any, Any, Any, Any], activation: int, float_product: bool
    ) -> tuple[Requantization, tuple[Any, Any]]:
        """The operator's `requantization`, and the constants of its channels'
        multipliers and shifts when its kernel reads them (else None, None)."""
        data, weight, _, out = operands
        out_dtype = self.get_tensor_type_str(out.tensor.Type())
        try:
            r, tables = requantization(
                data.tensor, weight.tensor, out.tensor, activation, out_dtype, float_product
            )
        except ValueError as error:
            raise tvm.error.OpNotImplemented(str(error)) from None
        if self.get_tensor_type_str(data.tensor.Type()) == "int16":
            r = r._replace(accumulator="int64")
        if tables is None:
            return r, (None, None)
        name = weight.tensor.Name().decode("utf-8", "replace")
        multipliers, shifts = (
            self.exp_tab.new_const(t, dtype=str(t.dtype), source_name=f"{name}_{what}")
            for t, what in zip(tables, ("multiplier", "shift"), strict=True)
        )
        return r, (multipliers, shifts)

    def _kernel(
        self,
        compute: Any,
        key: tuple[Any, ...],
        data: Any,
        operands: tuple[Any, Any, Any, Any],
        tables: tuple[Any, Any],
    ) -> Any:
        """One call of the kernel `compute(data, weight, bias, multipliers, shifts)`
        (TE) on the operator's constants as the file stores them; `key` (its name
        first) with the arguments' types says which kernel it is: an operator alike
        (a stack of equal layers) calls the one made for the first, whose TE compute
        and PrimFunc are not made again."""
        _, weight, bias, _ = operands
        weight_expr = self.get_tensor_expr(weight)
        bias_expr = None if bias is None else self.get_tensor_expr(bias)
        args = [data, weight_expr, bias_expr, *tables]
        signature = (*key, *(None if a is None else str(a.ty) for a in args))
        made = self._kernels.get(signature)
        if made is not None:
            gvar, out_ty = made
            return relax.call_tir(gvar, relax.Tuple([a for a in args if a is not None]), out_ty)
        # The bias, read through a cast: a narrower copy of it is widened there.
        widened = {} if bias is None else {"primfunc_attrs": {WIDENED_ARGS: [2]}}
        call = self.bb.call_te(compute, *args, primfunc_name_hint=key[0], **widened)
        self._kernels[signature] = (call.args[0], call.ty_args[0])
        return call

    def convert_batch_matmul(self, op: Any) -> Any:
        from tflite.BatchMatMulOptions import BatchMatMulOptions

        options = BatchMatMulOptions()
        table = op.BuiltinOptions()
        options.Init(table.Bytes, table.Pos)
        lhs, rhs = self.get_input_tensors(op)
        operands = self._operand(lhs, options.AdjX()), self._operand(rhs, options.AdjY())
        if self.is_quantized(op):
            return self._quantized_batch_matmul(op, *operands)
        return relax.op.matmul(*operands)

    def _quantized_batch_matmul(self, op: Any, lhs_expr: Any, rhs_expr: Any) -> Any:
        """TFLM's int8 (int32 sums) or int16 (int64 sums) BATCH_MATMUL (`batch_matmul`):
        one multiplier, the float32 product of the operands' scales over the output's,
        no activation."""
        lhs, rhs = self.get_input_tensors(op)
        (out,) = self.get_output_tensors(op)
        types = {self.get_tensor_type_str(t.tensor.Type()) for t in (lhs, rhs, out)}
        quantizations = [scalar_quantization(t) for t in (lhs, rhs, out)]
        if len(types) != 1 or not types <= {"int8", "int16"} or None in quantizations:
            raise OperatorRejected(
                "quantized BATCH_MATMUL of other types than TFLM's (int8 or int16 "
                "operands and output, one scale each)"
            )
        (dtype,) = types
        r, _ = requantization(lhs.tensor, rhs.tensor, out.tensor, 0, dtype, True)
        if dtype == "int16":
            r = r._replace(accumulator="int64")
        rhs_zero_point = quantizations[1][1]  # type: ignore[index]
        out_shape = tensor_shape(out.tensor)

        def compute(a: Any, b: Any) -> Any:
            return batch_matmul(a, b, rhs_zero_point, out_shape, r)

        operands = [self.bb.normalize(e) for e in (lhs_expr, rhs_expr)]  # typed for TE
        return self.bb.call_te(compute, *operands, primfunc_name_hint="batch_matmul")

    def _operand(self, tensor: Any, adjoint: bool) -> Any:
        """A BATCH_MATMUL operand, its last two axes swapped if `adjoint`."""
        expr = self.get_tensor_expr(tensor)
        if not adjoint:
            return expr
        rank = len(tensor_shape(tensor.tensor))
        return relax.op.permute_dims(expr, [*range(rank - 2), rank - 1, rank - 2])

    def convert_transpose_conv(self, op: Any) -> Any:
        """TFLite's TRANSPOSE_CONV of float32 tensors (weights OHWI, the output's shape an
        input, a bias if given, a fused activation): Relax's conv2d_transpose of the data
        in NCHW (TVM lowers no NHWC one: its converter's does not build), its output
        cropped as TFLite's ComputePaddingHeightWidth pads it (of the output's size). A
        quantized one is refused: TFLM's integer arithmetic is not converted."""
        from tflite.Padding import Padding
        from tflite.TransposeConvOptions import TransposeConvOptions

        inputs = self.get_input_tensors(op)
        weights, data = inputs[1], inputs[2]
        options = options_of(op, TransposeConvOptions)
        if data.qnn_params:
            return self._quantized_transpose_conv(op, options)
        (out,) = self.get_output_tensors(op)
        _, out_h, out_w, _ = tensor_shape(out.tensor)
        _, in_h, in_w, _ = tensor_shape(data.tensor)
        _, kernel_h, kernel_w, _ = tensor_shape(weights.tensor)
        strides = (options.StrideH(), options.StrideW())
        before, after, extra = [], [], []
        for size, given, kernel, stride in zip(
            (out_h, out_w), (in_h, in_w), (kernel_h, kernel_w), strides, strict=True
        ):
            convolved = -(-size // stride)  # ComputeOutSize of the output's size, SAME
            if options.Padding() != Padding.SAME:
                convolved = (size + stride - kernel) // stride
            top = compute_padding(stride, size, kernel, convolved)
            bottom = (given - 1) * stride + kernel - size - top
            if bottom <= -stride:
                raise ValueError(f"its output is {size} wide, more than its input gives")
            before.append(top)
            after.append(max(bottom, 0))
            extra.append(max(-bottom, 0))
        iohw = relax.op.permute_dims(self.get_tensor_expr(weights), [3, 0, 1, 2])
        nchw = relax.op.permute_dims(self.get_tensor_expr(data), [0, 3, 1, 2])
        result = relax.op.nn.conv2d_transpose(
            nchw,
            iohw,
            strides=strides,
            padding=[*before, *after],
            output_padding=extra,
            out_dtype="float32",
        )
        nhwc = relax.op.permute_dims(result, [0, 2, 3, 1])
        if len(inputs) > 3:
            nhwc = relax.op.add(nhwc, self.get_tensor_expr(inputs[3]))
        return self.convert_fused_activation_function(nhwc, options.FusedActivationFunction())

    def _quantized_transpose_conv(self, op: Any, options: Any) -> Any:
        """TFLM's int8 (int32 sums) or 16x8 (int64 sums, an int64 bias) TRANSPOSE_CONV
        (`transpose_conv2d`), requantized per channel as its convolutions are, padded as
        TFLite's ComputePaddingHeightWidth pads a convolution of the output's size."""
        from tflite.Padding import Padding

        operands = self._kernel_operands(op, first=1)
        if operands is None:
            raise OperatorRejected(
                "quantized TRANSPOSE_CONV of other types than TFLM's int8 or 16x8 (an int8 "
                "weight of zero point 0, an int32 or int64 bias)"
            )
        data, weight, _, out = operands
        r, tables = self._requantization(operands, options.FusedActivationFunction(), False)
        _, out_h, out_w, _ = tensor_shape(out.tensor)
        _, kernel_h, kernel_w, _ = tensor_shape(weight.tensor)
        strides = (options.StrideH(), options.StrideW())
        pads = []
        for size, kernel, stride in zip((out_h, out_w), (kernel_h, kernel_w), strides, strict=True):
            same = options.Padding() == Padding.SAME
            convolved = -(-size // stride) if same else (size + stride - kernel) // stride
            pads.append(compute_padding(stride, size, kernel, convolved))
        window = ConvWindow(strides, (1, 1), (pads[0], pads[1]), (out_h, out_w))
        return self._kernel(
            lambda x, w, b, m, s: transpose_conv2d(x, w, b, m, s, window, r),
            ("transpose_conv2d", window, r),
            self.get_tensor_expr(data),
            operands,
            tables,
        )
