"""TFLite operators TVM 0.27's frontend converts wrongly, converted anew.

    CorrectedConverter              TVM's `OperatorConverter` with these operators corrected
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
constant), as TFLite's kernel does. SHAPE: TVM's converter makes it a run-time
`shape_to_tensor`, which its RESHAPE converter cannot take as a shape; shapes are static
here, so a SHAPE is the constant of its input's shape (an output of the model too: the
lowering copies it into its buffer). RESHAPE by a shape computed from it (a SHAPE sliced
and packed with a -1, as a Keras Reshape layer is written): that constant, or, computed
by operators TVM's frontend leaves to run time, the output shape the file declares.
DENSIFY: TVM's converter crashes when an operator reads the weight it makes dense (a
float16 one's DEQUANTIZE: MediaPipe's sparse face and pose detectors); here the weight is
made dense at import (`tflite_sparsity`), a constant every operator reads as any weight.
Quantized CONV_2D, DEPTHWISE_CONV_2D and FULLY_CONNECTED: TVM's converters compute them in
float32 between a dequantize and a quantize, which rounds apart from TFLM's fixed-point
requantization now and then (6 steps of MLPerf Tiny's image classifier's logits); each is
one kernel of ours instead (`int8_weighted_kernels`), TFLM's arithmetic bit for bit, its
weight and bias the file's constants as stored.

Found by tools/operator_table.py (each builtin TFLM registers, one operator a file,
against TFLM): quantized RELU, RELU6, LEAKY_RELU, PRELU, ABS, SUM, ADD_N, CUMSUM, the
comparisons and RESIZE_BILINEAR computed in TFLM's integers (`int8_unweighted_kernels`);
quantized SUB, MUL, DIV, SQUARED_DIFFERENCE, HARD_SWISH and int16 ADD likewise
(`quantized_arithmetic`), int8 LOG_SOFTMAX (`int8_log_softmax`) (tools/quantized_sweep.py
found TVM's float path off TFLM's on
ties and large multipliers); GATHER's and EMBEDDING_LOOKUP's run-time indices clamped
into their axis (TVM's `take` read outside the tensor), GATHER_ND's into their dims,
constant ones outside refused;
int8 ELU and int16 LOGISTIC, TANH and SOFTMAX by TFLM's lookup tables
(`int16_table_kernels`); the operators that only move values (`MOVING_OPERATORS`) taken
on int8 and int16 tensors; TVM's ARG_MAX/ARG_MIN index type, GATHER_ND's indices,
EMBEDDING_LOOKUP's input order, FILL of a constant, MIRROR_PAD SYMMETRIC, REVERSE_V2 of
several axes, SPACE_TO_BATCH_ND and BATCH_TO_SPACE_ND, float TRANSPOSE_CONV (in NCHW) and
float ABS (no fabs in TVM's C) corrected.

MediaPipe's custom operators: `mediapipe_operators`.
"""

from __future__ import annotations

from functools import partial
from typing import Any

import numpy as np
import tvm
from tvm import relax
from tvm.relax.frontend.tflite.tflite_frontend import OperatorConverter

from usmp_dialect.tvm.model_files import int8_unweighted_kernels as int8
from usmp_dialect.tvm.model_files.dynamic_update_slice import convert_dynamic_update_slice
from usmp_dialect.tvm.model_files.fixed_point import quantize_multiplier
from usmp_dialect.tvm.model_files.int8_l2_normalization import convert_int8_l2_normalization
from usmp_dialect.tvm.model_files.int8_log_softmax import convert_int8_log_softmax
from usmp_dialect.tvm.model_files.int16_table_kernels import (
    convert_int8_elu,
    convert_int16_softmax,
    convert_int16_squash,
)
from usmp_dialect.tvm.model_files.mediapipe_operators import (
    MediaPipeOperators,
)
from usmp_dialect.tvm.model_files.onnx_operators import OperatorRejected
from usmp_dialect.tvm.model_files.quantized_arithmetic import (
    convert_int8_hard_swish,
    convert_quantized_binary,
)
from usmp_dialect.tvm.model_files.tflite_moving_operators import (
    MovingOperators,
)
from usmp_dialect.tvm.model_files.tflite_options import (
    activation_range,
    compute_padding,
    options_of,
)
from usmp_dialect.tvm.model_files.tflite_tensors import scalar_quantization, tensor_shape
from usmp_dialect.tvm.model_files.tflite_weighted_operators import (
    WeightedOperators,
)

# Operators that move a tensor's values without arithmetic (TFLM's kernels copy the stored
# integers, whatever the quantization): TVM's converters, on the stored integers, are TFLM's
# of a quantized tensor too. ARG_MAX and ARG_MIN compare them: the order of the stored
# values is that of the real ones (a scale is positive). CAST converts the stored values,
# as TFLM's does (its quantization unread).
MOVING_OPERATORS = frozenset(
    {
        "ARG_MAX",
        "ARG_MIN",
        "BATCH_TO_SPACE_ND",
        "BROADCAST_TO",
        "CAST",
        "DEPTH_TO_SPACE",
        "EXPAND_DIMS",
        "GATHER",
        "GATHER_ND",
        "MIRROR_PAD",
        "PACK",
        "RESIZE_NEAREST_NEIGHBOR",
        "REVERSE_V2",
        "SELECT_V2",
        "SLICE",
        "SPACE_TO_BATCH_ND",
        "SPACE_TO_DEPTH",
        "SPLIT",
        "SPLIT_V",
        "SQUEEZE",
        "TRANSPOSE",
        "UNPACK",
    }
)


# The comparisons TFLM computes on scaled integers for int8 and int16 inputs.
_RELATIONS = {
    "EQUAL": tvm.tirx.EQ,
    "NOT_EQUAL": tvm.tirx.NE,
    "GREATER": tvm.tirx.GT,
    "GREATER_EQUAL": tvm.tirx.GE,
    "LESS": tvm.tirx.LT,
    "LESS_EQUAL": tvm.tirx.LE,
}


# The operators `quantized_arithmetic` computes as TFLM does (ADD: int16 only).
_ARITHMETIC = ("SUB", "MUL", "DIV", "SQUARED_DIFFERENCE")


# MediaPipe's custom operators converted here, by their custom code.
CONVERTED_CUSTOM = frozenset(
    {
        "Convolution2DTransposeBias",
        "MaxPoolingWithArgmax2D",
        "MaxUnpooling2D",
        "Landmarks2TransformMatrix",
        "TransformTensorBilinear",
        "TransformLandmarks",
    }
) | frozenset(  # TFLM's signal library (micro_speech's front end), in tflm_signal
    {
        "SignalWindow",
        "SignalFftAutoScale",
        "SignalRfft",
        "SignalEnergy",
        "SignalFilterBank",
        "SignalFilterBankSquareRoot",
        "SignalFilterBankSpectralSubtraction",
        "SignalPCAN",
        "SignalFilterBankLog",
        "SignalDelay",
        "SignalOverlapAdd",
        "SignalIrfft",
        "SignalFramer",
        "SignalStacker",
    }
)


class CorrectedConverter(MediaPipeOperators, WeightedOperators, MovingOperators):
    """TVM's TFLite `OperatorConverter` with the operators above converted anew, and
    int8 ones computed as TFLM computes them (`int8_unweighted_kernels`)."""

    _SUPPORTED_QUANTIZED_OPS = (
        OperatorConverter._SUPPORTED_QUANTIZED_OPS
        | {"PAD", "PADV2", "SHAPE", "DENSIFY", "PRELU"}
        | {"BATCH_MATMUL", "DYNAMIC_UPDATE_SLICE", "L2_NORMALIZATION", "ELU"}
        | {"ADD_N", "CUMSUM"}
        | MOVING_OPERATORS
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._tensor_wrappers: dict[int, Any] = {}  # by tensor index, see get_tensors
        self._kernels: dict[tuple[Any, ...], tuple[Any, Any]] = {}  # see _kernel
        self.convert_map.update(
            {
                "Convolution2DTransposeBias": self.convert_transpose_conv_bias,
                "MaxPoolingWithArgmax2D": self.convert_max_pool_argmax,
                "MaxUnpooling2D": self.convert_max_unpooling,
                "Landmarks2TransformMatrix": self.convert_landmarks_to_transform_matrix,
                "TransformTensorBilinear": self.convert_transform_tensor_bilinear,
                "TransformLandmarks": self.convert_transform_landmarks,
                "DYNAMIC_UPDATE_SLICE": self.convert_dynamic_update_slice,
            }
        )
        int8_operators = {
            "ADD": self.convert_int8_add,
            "AVERAGE_POOL_2D": self.convert_int8_average_pool,
            "MEAN": self.convert_int8_mean,
            "SUM": self.convert_quantized_sum,
            "QUANTIZE": self.convert_int8_quantize,
            "RELU": self.convert_quantized_relu,
            "RELU6": self.convert_quantized_relu6,
            "LEAKY_RELU": self.convert_quantized_leaky_relu,
            "ABS": self.convert_quantized_abs,
            "PRELU": self.convert_quantized_prelu,
            "HARD_SWISH": self.convert_quantized_hard_swish,
            **{name: partial(self.convert_quantized_comparison, name) for name in _RELATIONS},
            **{name: partial(self.convert_quantized_arithmetic, name) for name in _ARITHMETIC},
        }
        # TVM's, for the float and per-channel tensors ours leave to it (called as
        # TVM calls a converter, op by keyword).
        self.tvm_converters = {name: self.convert_map[name] for name in int8_operators}
        self.convert_map.update(int8_operators)

    def get_tensors(self, tensors_idx_list: Any) -> list[Any]:
        """TVM's, each tensor's wrapper made once: TVM's reads a tensor's
        quantization anew at each read, its scale and zero point new constants each
        time (TVM tensors), and an int8 model's tensors are read by the operator
        check, by the operator computing them, and by each operator reading them."""
        wrappers = self._tensor_wrappers
        indices = [int(i) for i in self._indices_or_empty(tensors_idx_list)]
        unread = list(dict.fromkeys(i for i in indices if i not in wrappers))
        if unread:
            wrappers.update(zip(unread, super().get_tensors(unread), strict=True))
        return [wrappers[i] for i in indices]

    def get_op_code_str(self, op: Any) -> str:
        from tflite.BuiltinOperator import BuiltinOperator

        code = self.model.OperatorCodes(op.OpcodeIndex())
        if max(code.BuiltinCode(), code.DeprecatedBuiltinCode()) == BuiltinOperator.CUSTOM:
            custom = (code.CustomCode() or b"").decode("utf-8", "replace")
            if custom in CONVERTED_CUSTOM:
                return custom
        return str(super().get_op_code_str(op))

    def get_tensor_value(self, tensor: Any, is_sparse: bool = False) -> Any:
        # A densified weight (a float16 one's DEQUANTIZE reads it) has no buffer.
        if not is_sparse and self.is_prefetched(tensor.tensor_idx):
            return self.get_prefetched_node(tensor.tensor_idx)
        return super().get_tensor_value(tensor, is_sparse)

    # ---- int8 operators as TFLM computes them (`int8_unweighted_kernels`)

    def _int8_call(self, compute: Any, args: list[Any], name: str, **attrs: Any) -> Any:
        exprs = [self.get_tensor_expr(t) for t in args]
        hint = {"primfunc_attrs": attrs} if attrs else {}
        return self.bb.call_te(compute, *exprs, primfunc_name_hint=name, **hint)

    def _bounds(self, out: Any, activation: int = 0) -> Any:
        dtype = self.get_tensor_type_str(out.tensor.Type())
        scale, zero_point = scalar_quantization(out) or (1.0, 0)
        return int8.Bounds(*activation_range(activation, scale, zero_point, dtype), dtype)

    def convert_int8_add(self, op: Any) -> Any:
        from tflite.AddOptions import AddOptions

        lhs, rhs = self.get_input_tensors(op)
        (out,) = self.get_output_tensors(op)
        quantizations = [scalar_quantization(t) for t in (lhs, rhs, out)]
        types = {self.get_tensor_type_str(t.tensor.Type()) for t in (lhs, rhs, out)}
        if types != {"int8"} or None in quantizations:
            return self.convert_quantized_arithmetic("ADD", op)
        (s1, z1), (s2, z2), (so, zo) = (q for q in quantizations if q is not None)
        options = AddOptions()
        table = op.BuiltinOptions()
        options.Init(table.Bytes, table.Pos)
        shapes = [tensor_shape(lhs.tensor), tensor_shape(rhs.tensor)]
        operands, multiplier, shift = int8.add_operands(shapes, [s1, s2], [z1, z2], so)
        output = int8.Requantized(multiplier, shift, zo)
        bounds = self._bounds(out, options.FusedActivationFunction())

        def compute(a: Any, b: Any) -> Any:
            return int8.add(a, b, operands, output, bounds, tensor_shape(out.tensor))

        # Fused with nothing, as TFLM runs it: in its producer's group its sum stage
        # keeps a convolution's whole sum alive (TVM's fusion kept the dequantized
        # inputs of its float32 add apart alike: `temporaries.widening_kept_apart`).
        return self._int8_call(compute, [lhs, rhs], "add_int8", op_pattern=int8.OPAQUE)

    def convert_quantized_arithmetic(self, name: str, op: Any) -> Any:
        """TFLM's quantized SUB, MUL, DIV, SQUARED_DIFFERENCE and int16 ADD
        (`quantized_arithmetic`); TVM's of float32 tensors."""
        call = convert_quantized_binary(self, op, name, self._bounds)
        return self.tvm_converters[name](op=op) if call is None else call

    def convert_quantized_hard_swish(self, op: Any) -> Any:
        """TFLM's int8 HARD_SWISH (`quantized_arithmetic`); TVM's of float32."""
        call = convert_int8_hard_swish(self, op)
        return self.tvm_converters["HARD_SWISH"](op=op) if call is None else call

    def _summed_operand(self, op: Any, inputs: list[Any]) -> tuple[Any, Any, Any] | None:
        """An int8 ADD_N's or CUMSUM's input operand (`int8.add_operands`, one for all
        its inputs), output requantization and bounds; None for a float one."""
        (out,) = self.get_output_tensors(op)
        if self.get_tensor_type_str(out.tensor.Type()) != "int8":
            return None
        quantizations = {scalar_quantization(t) for t in inputs}
        source, target = quantizations.pop(), scalar_quantization(out)
        if quantizations or source is None or target is None:
            raise OperatorRejected(
                "int8 inputs of more than one scale and zero point (TFLM takes one)"
            )
        scale, zero_point = source
        shapes = [tensor_shape(t.tensor) for t in inputs]
        operands, multiplier, shift = int8.add_operands(
            shapes, [scale] * len(inputs), [zero_point] * len(inputs), target[0]
        )
        output = int8.Requantized(multiplier, shift, target[1])
        return operands[0], output, self._bounds(out)

    def convert_add_n(self, op: Any) -> Any:
        """TFLM's int8 ADD_N (`int8.add_n`); TVM's of float32 inputs."""
        inputs = self.get_input_tensors(op)
        summed = self._summed_operand(op, inputs)
        if summed is None:
            return super().convert_add_n(op)

        def compute(*tensors: Any) -> Any:
            return int8.add_n(list(tensors), *summed)

        return self._int8_call(compute, inputs, "add_n_int8")

    def convert_cumsum(self, op: Any) -> Any:
        """TFLM's int8 CUMSUM (`int8.cumsum`) along a constant axis; TVM's of float32."""
        from tflite.CumsumOptions import CumsumOptions

        data, axis = self.get_input_tensors(op)
        summed = self._summed_operand(op, [data])
        if summed is None:
            return super().convert_cumsum(op)
        if self.has_expr(axis.tensor_idx):
            raise OperatorRejected("CUMSUM of an axis computed at run time (a constant only)")
        rank = len(tensor_shape(data.tensor))
        index = int(np.asarray(self.get_tensor_value(axis)).flat[0])
        if not -rank <= index < rank:
            raise OperatorRejected(f"CUMSUM along axis {index} of a rank-{rank} tensor")
        options = options_of(op, CumsumOptions)
        scan = int8.Scan(index % rank, bool(options.Exclusive()), bool(options.Reverse()))

        def compute(x: Any) -> Any:
            return int8.cumsum(x, *summed, scan)

        return self._int8_call(compute, [data], "cumsum_int8")

    def convert_int8_average_pool(self, op: Any) -> Any:
        from tflite.Padding import Padding
        from tflite.Pool2DOptions import Pool2DOptions

        (data,) = self.get_input_tensors(op)
        (out,) = self.get_output_tensors(op)
        if scalar_quantization(data) is None or scalar_quantization(out) is None:
            return self.tvm_converters["AVERAGE_POOL_2D"](op=op)
        o = Pool2DOptions()
        table = op.BuiltinOptions()
        o.Init(table.Bytes, table.Pos)
        _, height, width, _ = tensor_shape(data.tensor)
        out_shape = tensor_shape(out.tensor)
        top = left = 0
        if o.Padding() == Padding.SAME:
            top = compute_padding(o.StrideH(), height, o.FilterHeight(), out_shape[1])
            left = compute_padding(o.StrideW(), width, o.FilterWidth(), out_shape[2])
        window = int8.PoolWindow(
            height,
            width,
            o.FilterHeight(),
            o.FilterWidth(),
            o.StrideH(),
            o.StrideW(),
            top,
            left,
        )
        bounds = self._bounds(out, o.FusedActivationFunction())

        def compute(x: Any) -> Any:
            return int8.average_pool(x, window, out_shape, bounds)

        return self._int8_call(compute, [data], "average_pool_int8")

    def _reduction(self, op: Any) -> tuple[Any, Any, Any, str] | None:
        """A quantized MEAN's or SUM's input, its `Reduction`, the output's (scale, zero
        point) and type; None for a float one."""
        from tflite.ReducerOptions import ReducerOptions

        data, axes = self.get_input_tensors(op)
        (out,) = self.get_output_tensors(op)
        source, target = scalar_quantization(data), scalar_quantization(out)
        dtype = self.get_tensor_type_str(out.tensor.Type())
        if source is None or target is None or dtype not in int8.INT_RANGES:
            return None
        shape = tensor_shape(data.tensor)
        listed = np.asarray(self.get_tensor_value(axes)).reshape(-1)
        keep_dims = False
        if op.BuiltinOptionsType():
            options = ReducerOptions()
            table = op.BuiltinOptions()
            options.Init(table.Bytes, table.Pos)
            keep_dims = bool(options.KeepDims())
        axes_list = sorted({int(a) % len(shape) for a in listed})
        return data, int8.Reduction(shape, axes_list, keep_dims, source[1]), target, dtype

    def convert_int8_mean(self, op: Any) -> Any:
        reduced = self._reduction(op)
        if reduced is None:
            return self.tvm_converters["MEAN"](op=op)
        data, reduction, target, dtype = reduced
        in_scale = scalar_quantization(data)[0]  # type: ignore[index]
        output = int8.mean_requantization(in_scale, target[0], reduction.elements, target[1])
        bounds = int8.Bounds(*int8.INT_RANGES[dtype], dtype)

        def compute(x: Any) -> Any:
            return int8.mean(x, reduction, output, bounds)

        return self._int8_call(compute, [data], "mean_int8")

    def convert_quantized_sum(self, op: Any) -> Any:
        """TFLM's quantized SUM (`int8.quantized_sum`), its scale the input's over the
        output's in float32."""
        reduced = self._reduction(op)
        if reduced is None:
            return self.tvm_converters["SUM"](op=op)
        data, reduction, (out_scale, zero_point), dtype = reduced
        in_scale = scalar_quantization(data)[0]  # type: ignore[index]
        scale = float(np.float32(in_scale) / np.float32(out_scale))

        def compute(x: Any) -> Any:
            return int8.quantized_sum(x, reduction, scale, zero_point, dtype)

        return self._int8_call(compute, [data], "sum_quantized")

    def _convert_arg_min_max(self, op: Any, relax_op: Any) -> Any:
        """TVM's, its int64 indices cast to the type the file's output has (TFLite's
        options choose int32 or int64; TVM's converter leaves them int64)."""
        (out,) = self.get_output_tensors(op)
        indices = super()._convert_arg_min_max(op, relax_op)
        return relax.op.astype(indices, self.get_tensor_type_str(out.tensor.Type()))

    def _quantized_unary(self, op: Any) -> tuple[Any, Any, str, Any, Any] | None:
        """An int8 or int16 operator's input and output, their type and (scale, zero
        point) each; None for a float one (or one without a single scale)."""
        (data,) = self.get_input_tensors(op)
        (out,) = self.get_output_tensors(op)
        dtype = self.get_tensor_type_str(out.tensor.Type())
        source, target = scalar_quantization(data), scalar_quantization(out)
        if dtype not in ("int8", "int16") or source is None or target is None:
            return None
        return data, out, dtype, source, target

    def _rectified(self, op: Any, slopes: Any, bounds: Any, name: str) -> Any:
        data = self.get_input_tensors(op)[0]
        zero_point = scalar_quantization(data)[1]  # type: ignore[index]

        def compute(x: Any) -> Any:
            return int8.rectify(x, zero_point, slopes, bounds)

        return self._int8_call(compute, [data], name)

    def convert_quantized_relu(self, op: Any) -> Any:
        """TFLM's quantized RELU: requantized to the output, clamped from its zero
        point (CalculateReluOpData)."""
        unary = self._quantized_unary(op)
        if unary is None:
            return self.tvm_converters["RELU"](op=op)
        _, out, _, (in_scale, _), (out_scale, zero_point) = unary
        same = int8.Requantized(*quantize_multiplier(in_scale / out_scale), zero_point)
        return self._rectified(op, int8.Slopes(same, same), self._bounds(out, 1), "relu")

    def convert_quantized_relu6(self, op: Any) -> Any:
        """TFLM's quantized RELU6: the stored values clamped to the input's 0 and 6, its
        output's quantization unread (Relu6Quantized)."""
        unary = self._quantized_unary(op)
        if unary is None:
            return self.tvm_converters["RELU6"](op=op)
        data, _, dtype, (scale, zero_point), _ = unary
        bounds = int8.Bounds(*activation_range(3, scale, zero_point, dtype), dtype)
        return self._int8_call(lambda x: int8.clamp(x, bounds), [data], "relu6")

    def convert_quantized_leaky_relu(self, op: Any) -> Any:
        """TFLM's quantized LEAKY_RELU: input-to-output scale where the value is not below
        its zero point, times alpha where it is, each multiplier computed in float32 as
        TFLM's CalculateOpDataLeakyRelu does."""
        from tflite.LeakyReluOptions import LeakyReluOptions

        unary = self._quantized_unary(op)
        if unary is None:
            return self.tvm_converters["LEAKY_RELU"](op=op)
        _, out, _, (in_scale, _), (out_scale, zero_point) = unary
        alpha = np.float32(options_of(op, LeakyReluOptions).Alpha())
        identity = float(np.float32(in_scale) / np.float32(out_scale))
        sloped = float(np.float32(in_scale) * alpha / np.float32(out_scale))
        slopes = int8.Slopes(
            int8.Requantized(*quantize_multiplier(identity), zero_point),
            int8.Requantized(*quantize_multiplier(sloped), zero_point),
        )
        return self._rectified(op, slopes, self._bounds(out), "leaky_relu")

    def convert_resize_bilinear(self, op: Any) -> Any:
        """TFLM's integer RESIZE_BILINEAR of an int8 or int16 tensor (its stored values,
        `int8.resize_bilinear`); TVM's of a float32 one."""
        from tflite.ResizeBilinearOptions import ResizeBilinearOptions

        data = self.get_input_tensors(op)[0]
        (out,) = self.get_output_tensors(op)
        if self.get_tensor_type_str(data.tensor.Type()) not in ("int8", "int16"):
            return super().convert_resize_bilinear(op)
        options = options_of(op, ResizeBilinearOptions)
        align, half_pixel = bool(options.AlignCorners()), bool(options.HalfPixelCenters())

        def compute(x: Any) -> Any:
            return int8.resize_bilinear(x, tensor_shape(out.tensor), align, half_pixel)

        return self._int8_call(compute, [data], "resize_bilinear_quantized")

    def convert_dynamic_update_slice(self, op: Any) -> Any:
        return convert_dynamic_update_slice(self, op)

    def convert_l2_normalization(self, op: Any) -> Any:
        if self.is_quantized(op):
            return convert_int8_l2_normalization(self, op)
        return super().convert_l2_normalization(op)

    # TFLM's int16 LOGISTIC, TANH and SOFTMAX: `int16_table_kernels`.
    def convert_logistic(self, op: Any) -> Any:
        if self._int16_input(op):
            return convert_int16_squash(self, op, "LOGISTIC")
        return super().convert_logistic(op)

    def convert_tanh(self, op: Any) -> Any:
        if self._int16_input(op):
            return convert_int16_squash(self, op, "TANH")
        return super().convert_tanh(op)

    def _int16_input(self, op: Any) -> bool:
        data = self.get_input_tensors(op)[0]
        return bool(self.get_tensor_type_str(data.tensor.Type()) == "int16")

    def convert_elu(self, op: Any) -> Any:
        if self.is_quantized(op):
            return convert_int8_elu(self, op)
        return super().convert_elu(op)

    def convert_softmax(self, op: Any) -> Any:
        if self._int16_input(op):
            return convert_int16_softmax(self, op)
        return super().convert_softmax(op)

    def convert_log_softmax(self, op: Any) -> Any:
        call = convert_int8_log_softmax(self, op)
        return super().convert_log_softmax(op) if call is None else call

    def convert_quantized_comparison(self, name: str, op: Any) -> Any:
        """TFLM's comparison of int8 or int16 inputs (`int8.compare`); TVM's of others."""
        lhs, rhs = self.get_input_tensors(op)
        (out,) = self.get_output_tensors(op)
        quantizations = [scalar_quantization(t) for t in (lhs, rhs)]
        types = {self.get_tensor_type_str(t.tensor.Type()) for t in (lhs, rhs)}
        if not types <= {"int8", "int16"} or None in quantizations:
            return self.tvm_converters[name](op=op)
        operands = int8.comparison_operands(
            [tensor_shape(t.tensor) for t in (lhs, rhs)],
            [q[0] for q in quantizations if q is not None],
            [q[1] for q in quantizations if q is not None],
        )
        relation = _RELATIONS[name]

        def compute(a: Any, b: Any) -> Any:
            return int8.compare(a, b, operands, relation, tensor_shape(out.tensor))

        return self._int8_call(compute, [lhs, rhs], f"{name.lower()}_quantized")

    def convert_quantized_prelu(self, op: Any) -> Any:
        """TFLM's quantized PRELU (CalculatePreluParams: input over output scale where the
        input is not below its zero point, times alpha's scale where it is); TVM's of
        float32 tensors."""
        data, alpha = self.get_input_tensors(op)
        (out,) = self.get_output_tensors(op)
        quantizations = [scalar_quantization(t) for t in (data, alpha, out)]
        if self.get_tensor_type_str(out.tensor.Type()) not in ("int8", "int16") or (
            None in quantizations
        ):
            return self.tvm_converters["PRELU"](op=op)
        (in_scale, in_zero), (alpha_scale, alpha_zero), (out_scale, out_zero) = (
            q for q in quantizations if q is not None
        )
        slopes = int8.Slopes(
            int8.Requantized(*quantize_multiplier(in_scale / out_scale), out_zero),
            int8.Requantized(*quantize_multiplier(in_scale * alpha_scale / out_scale), out_zero),
        )
        bounds = self._bounds(out)

        def compute(x: Any, a: Any) -> Any:
            return int8.prelu(x, a, (in_zero, alpha_zero), slopes, bounds)

        return self._int8_call(compute, [data, alpha], "prelu_quantized")

    def convert_quantized_abs(self, op: Any) -> Any:
        """TFLM's quantized ABS: the magnitude of the value less its zero point,
        requantized to the output; a float ABS as the larger of x and -x (TVM's C target
        has no fabs)."""
        unary = self._quantized_unary(op)
        if unary is None:
            (data,) = self.get_input_tensors(op)
            x = self.get_tensor_expr(data)
            return relax.op.maximum(x, relax.op.negative(x))
        _, out, _, (in_scale, _), (out_scale, zero_point) = unary
        scaled = int8.Requantized(*quantize_multiplier(in_scale / out_scale), zero_point)
        slopes = int8.Slopes(scaled, scaled, magnitude=True)
        return self._rectified(op, slopes, self._bounds(out), "abs_quantized")

    def convert_int8_quantize(self, op: Any) -> Any:
        (data,) = self.get_input_tensors(op)
        (out,) = self.get_output_tensors(op)
        source_type = self.get_tensor_type_str(data.tensor.Type())
        dtype = self.get_tensor_type_str(out.tensor.Type())
        target = scalar_quantization(out)
        source = scalar_quantization(data)
        if target is None or dtype not in int8.REQUANTIZED_RANGES:
            return self.tvm_converters["QUANTIZE"](op=op)
        bounds = int8.Bounds(*int8.REQUANTIZED_RANGES[dtype], dtype)
        scale, zero_point = target
        if source_type == "float32" and dtype in int8.INT_RANGES:

            def from_float(x: Any) -> Any:
                return int8.quantize(x, scale, zero_point, bounds)

            return self._int8_call(from_float, [data], "quantize_int8")
        if source_type not in int8.INT_RANGES or source is None:
            return self.tvm_converters["QUANTIZE"](op=op)
        multiplier, shift = quantize_multiplier(source[0] / scale)
        output = int8.Requantized(multiplier, shift, zero_point)

        def from_integers(x: Any) -> Any:
            return int8.requantize(x, source[1], output, bounds)

        return self._int8_call(from_integers, [data], "requantize_int8")
