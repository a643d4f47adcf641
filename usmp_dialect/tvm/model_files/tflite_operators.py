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

MediaPipe's custom operators (mediapipe/util/tflite/operations), by their published
definitions: Convolution2DTransposeBias, TFLite's TRANSPOSE_CONV with a bias and the
output shape its kernel computes (MediaPipe's selfie segmentation ends in one);
MaxPoolingWithArgmax2D, MAX_POOL_2D with where each max is in its window; MaxUnpooling2D,
each value put back there (windows that do not overlap only); the version-2 operators of
the face mesh with attention: Landmarks2TransformMatrix (a crop's 4x4 matrix from
landmarks), TransformTensorBilinear (a bilinear crop of a tensor by it) and
TransformLandmarks (points moved by it). Their options are a C struct of int32 fields
(TfLiteTransposeConvParams, TfLitePoolParams) or a FlexBuffer map (the landmark ones).
"""

from __future__ import annotations

from functools import partial
from typing import Any, NamedTuple

import numpy as np
import tvm
from tvm import relax
from tvm.relax.frontend.tflite.tflite_frontend import OperatorConverter

from usmp_dialect.tvm.model_files import int8_unweighted_kernels as int8
from usmp_dialect.tvm.model_files.dynamic_update_slice import convert_dynamic_update_slice
from usmp_dialect.tvm.model_files.fixed_point import quantize_multiplier
from usmp_dialect.tvm.model_files.int8_l2_normalization import convert_int8_l2_normalization
from usmp_dialect.tvm.model_files.int8_log_softmax import convert_int8_log_softmax
from usmp_dialect.tvm.model_files.int8_weighted_kernels import (
    ConvWindow,
    Requantization,
    batch_matmul,
    conv2d,
    depthwise_conv2d,
    fully_connected,
    transpose_conv2d,
)
from usmp_dialect.tvm.model_files.int16_table_kernels import (
    convert_int8_elu,
    convert_int16_softmax,
    convert_int16_squash,
)
from usmp_dialect.tvm.model_files.onnx_operators import OperatorRejected
from usmp_dialect.tvm.model_files.quantized_arithmetic import (
    convert_int8_hard_swish,
    convert_quantized_binary,
)
from usmp_dialect.tvm.model_files.tensor_names import tflite_tensor_label
from usmp_dialect.tvm.model_files.tflite_sparsity import SparsityError, densified
from usmp_dialect.tvm.model_files.tflite_tensors import scalar_quantization, tensor_shape
from usmp_dialect.tvm.relax.narrowed_constants import WIDENED_ARGS

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
# TFLite's fused activations (TfLiteFusedActivation) that clamp: RELU, RELU_N1_TO_1, RELU6.
_CLAMPS = {1: (0.0, None), 2: (-1.0, 1.0), 3: (0.0, 6.0)}


class _PoolOptions(NamedTuple):
    """TFLite's TfLitePoolParams, the C struct MediaPipe's pooling kernels read as their
    options (int32 fields; TFLite's own padding fields after them are not read)."""

    padding: int
    stride_w: int
    stride_h: int
    filter_w: int
    filter_h: int
    activation: int


def _pool_options(op: Any, name: str) -> _PoolOptions:
    options = _custom_options(op)
    if len(options) < len(_PoolOptions._fields):
        raise ValueError(f"{name} with {options.nbytes} bytes of options (TfLitePoolParams: 24)")
    return _PoolOptions(*(int(v) for v in options[: len(_PoolOptions._fields)]))


def flex_options(op: Any) -> dict[str, Any]:
    """A custom operator's options written as a FlexBuffer map (MediaPipe's version-2
    landmark operators, TFLM's signal library)."""
    from flatbuffers import flexbuffers

    if not op.CustomOptionsLength():
        return {}
    options = flexbuffers.Loads(op.CustomOptionsAsNumpy().tobytes())
    return options if isinstance(options, dict) else {}


def _padding(stride: int, size: int, kernel: int, out: int) -> int:
    """TFLite's ComputePadding (dilation 1): the padding before, rounded towards zero, not
    below 0."""
    return max(0, int(((out - 1) * stride + kernel - size) / 2))


def _custom_options(op: Any) -> np.ndarray:
    """A custom operator's options, read as the C struct of int32 fields MediaPipe's
    kernel casts them to."""
    raw = op.CustomOptionsAsNumpy() if op.CustomOptionsLength() else np.zeros(0, np.uint8)
    return np.frombuffer(raw.tobytes(), "<i4")


# The fused activations whose quantized range TFLM computes (CalculateActivationRangeQuantized):
# the real bounds, None for the type's own.
_QUANTIZED_CLAMPS = {0: (None, None), 1: (0.0, None), 2: (-1.0, 1.0), 3: (0.0, 6.0)}


def _quantized_value(real: float, scale: float, zero_point: int) -> int:
    """TFLite's Quantize of a bound: zero point + round(real / scale), the division in
    float32, rounded half away from zero."""
    quotient = float(np.float32(real) / np.float32(scale))
    return zero_point + int(np.copysign(np.floor(abs(quotient) + 0.5), quotient))


def activation_range(activation: int, scale: float, zero_point: int, dtype: str) -> tuple[int, int]:
    """The output values a fused `activation` keeps, TFLM's CalculateActivationRangeQuantized
    (NONE, RELU, RELU_N1_TO_1, RELU6; another raises ValueError)."""
    if activation not in _QUANTIZED_CLAMPS:
        raise ValueError(f"a quantized fused activation {activation} (TFLM has none)")
    info = np.iinfo(dtype)
    low, high = _QUANTIZED_CLAMPS[activation]
    return (
        int(info.min)
        if low is None
        else max(int(info.min), _quantized_value(low, scale, zero_point)),
        int(info.max)
        if high is None
        else min(int(info.max), _quantized_value(high, scale, zero_point)),
    )


def _quantization(tensor: Any) -> tuple[np.ndarray, np.ndarray]:
    """A flatbuffer tensor's scales (float32) and zero points."""
    q = tensor.Quantization()
    # A vector the file leaves out reads as the number 0.
    scales = np.asarray(q.ScaleAsNumpy(), np.float32).reshape(-1)
    return scales, np.asarray(q.ZeroPointAsNumpy(), np.int64).reshape(-1)


def requantization(
    data: Any, weight: Any, out: Any, activation: int, out_dtype: str, float_product: bool
) -> tuple[Requantization, tuple[np.ndarray, np.ndarray] | None]:
    """How TFLM requantizes the accumulator of an operator reading `data` and `weight` to
    `out` (flatbuffer tensors; `out` of `out_dtype`), and its channels'
    multipliers (int32) and shifts (int8) when they differ (None when they are one). A
    channel's are QuantizeMultiplier of input scale x weight scale / output scale in
    double; `float_product`: the product rounded to float32 first (TFLM's per-tensor
    FULLY_CONNECTED, GetQuantizedConvolutionMultipler). ValueError: TFLM has no kernel."""
    (input_scale,), (input_zero_point,) = _quantization(data)
    (output_scale,), (output_zero_point,) = _quantization(out)
    weight_scales, _ = _quantization(weight)
    products = (
        (input_scale * weight_scales).astype(np.float64)
        if float_product and weight_scales.size == 1
        else np.float64(input_scale) * weight_scales.astype(np.float64)
    )
    reals = products / np.float64(output_scale)
    low, high = activation_range(activation, float(output_scale), int(output_zero_point), out_dtype)
    pairs = np.array([quantize_multiplier(float(real)) for real in reals], np.int64)
    uniform = bool(np.all(pairs == pairs[0]))
    fixed = (int(pairs[0, 0]), int(pairs[0, 1])) if uniform else None
    r = Requantization(int(input_zero_point), int(output_zero_point), low, high, fixed, out_dtype)
    tables = None if uniform else (pairs[:, 0].astype(np.int32), pairs[:, 1].astype(np.int8))
    return r, tables


def _same_padding(size: int, kernel: int, stride: int, dilation: int) -> tuple[int, int]:
    """TFLite's SAME: the output size ceil(size / stride), padded before by half the
    total (rounded down)."""
    out = -(-size // stride)
    total = max(0, (out - 1) * stride + (kernel - 1) * dilation + 1 - size)
    return total // 2, out


def conv_window(options: Any, data: Any, kernel: tuple[int, int]) -> ConvWindow:
    """The window of a CONV_2D's or DEPTHWISE_CONV_2D's `options` over `data` (a
    flatbuffer tensor, NHWC) by a kernel of `kernel` (height, width)."""
    from tflite.Padding import Padding

    strides = (options.StrideH(), options.StrideW())
    dilation = (options.DilationHFactor(), options.DilationWFactor())
    _, height, width, _ = tensor_shape(data)
    padding, out_size = [], []
    for size, k, stride, d in zip((height, width), kernel, strides, dilation, strict=True):
        if options.Padding() == Padding.SAME:
            before, out = _same_padding(size, k, stride, d)
        else:
            before, out = 0, (size - (k - 1) * d - 1) // stride + 1
        padding.append(before)
        out_size.append(out)
    return ConvWindow(strides, dilation, (padding[0], padding[1]), (out_size[0], out_size[1]))


def options_of(op: Any, table: type) -> Any:
    options = table()
    builtin = op.BuiltinOptions()
    options.Init(builtin.Bytes, builtin.Pos)
    return options


class CorrectedConverter(OperatorConverter):
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

    def convert_transpose_conv_bias(self, op: Any) -> Any:
        """MediaPipe's Convolution2DTransposeBias: TFLite's TRANSPOSE_CONV (float32,
        weights OHWI) plus a bias, its output shape its own (TFLite's takes it as an
        input): (in - 1) * stride + kernel - padding, the padding SAME's total, of
        which the top (left) gets half, rounded down."""
        from tflite.Padding import Padding

        data, weights, bias = self.get_input_tensors(op)
        options = _custom_options(op)
        if len(options) < 3:
            raise ValueError(
                f"its options are {options.nbytes} bytes, a TfLiteTransposeConvParams "
                "is 12 (padding, stride width, stride height)"
            )
        padding, stride_w, stride_h = (int(v) for v in options[:3])
        _, in_h, in_w, _ = tensor_shape(data.tensor)
        _, kernel_h, kernel_w, _ = tensor_shape(weights.tensor)
        pads = [0, 0, 0, 0]
        if padding == Padding.SAME:
            total_h = max(0, kernel_h - (in_h - 1) % stride_h - 1)
            total_w = max(0, kernel_w - (in_w - 1) % stride_w - 1)
            pads = [total_h // 2, total_w // 2, total_h - total_h // 2, total_w - total_w // 2]
        # TVM legalizes conv2d_transpose of NCHW data only (its own TRANSPOSE_CONV,
        # NHWC, is never lowered): the data is transposed to NCHW and back.
        iohw = relax.op.permute_dims(self.get_tensor_expr(weights), [3, 0, 1, 2])
        nchw = relax.op.permute_dims(self.get_tensor_expr(data), [0, 3, 1, 2])
        out = relax.op.nn.conv2d_transpose(
            nchw, iohw, strides=(stride_h, stride_w), padding=pads, out_dtype="float32"
        )
        nhwc = relax.op.permute_dims(out, [0, 2, 3, 1])
        return relax.op.add(nhwc, self.get_tensor_expr(bias))

    def convert_max_pool_argmax(self, op: Any) -> Any:
        """MediaPipe's MaxPoolingWithArgmax2D: MAX_POOL_2D's values (the window
        clamped to the input), its activation, and where in its window each max is
        (row * filter width + column, the first of equal maxima, + 0.1, as float32)."""
        from tflite.Padding import Padding

        (data,) = self.get_input_tensors(op)
        o = _pool_options(op, "MaxPoolingWithArgmax2D")
        _, height, width, _ = tensor_shape(data.tensor)
        if o.padding == Padding.SAME:
            out_h, out_w = -(-height // o.stride_h), -(-width // o.stride_w)
        else:
            out_h = (height - o.filter_h + o.stride_h) // o.stride_h
            out_w = (width - o.filter_w + o.stride_w) // o.stride_w
        top = _padding(o.stride_h, height, o.filter_h, out_h)
        left = _padding(o.stride_w, width, o.filter_w, out_w)
        span_h, span_w = (out_h - 1) * o.stride_h + 1, (out_w - 1) * o.stride_w + 1
        bottom = max(0, span_h + o.filter_h - 1 - height - top)
        right = max(0, span_w + o.filter_w - 1 - width - left)
        # Padded with -inf: a padded cell is never a window's max, as if left out.
        padded = self.bb.emit(
            relax.op.nn.pad(
                self.get_tensor_expr(data),
                pad_width=[0, 0, top, bottom, left, right, 0, 0],
                pad_value=float("-inf"),
            )
        )
        windows = [
            relax.op.strided_slice(
                padded,
                axes=[1, 2],
                begin=[y, x],
                end=[y + span_h, x + span_w],
                strides=[o.stride_h, o.stride_w],
            )
            for y in range(o.filter_h)
            for x in range(o.filter_w)
        ]
        stacked = self.bb.emit(relax.op.stack(windows, axis=4))
        values = relax.op.max(stacked, axis=4)
        if o.activation in _CLAMPS:
            low, high = _CLAMPS[o.activation]
            values = relax.op.clip(values, low, float("inf") if high is None else high)
        where = relax.op.astype(relax.op.argmax(stacked, axis=4), "float32")
        indices = relax.op.add(where, relax.const(0.1, "float32"))
        return relax.Tuple([self.bb.emit(values), self.bb.emit(indices)])

    def convert_max_unpooling(self, op: Any) -> Any:
        """MediaPipe's MaxUnpooling2D: each value written where its index (row *
        filter width + column, truncated) puts it in its window, at stride * its
        position less the padding, within an output of filter size * the input's;
        0 elsewhere. Windows that do not overlap (stride >= filter) only: each output
        pixel is then in one window at most, and takes its value by a gather. An
        index outside its window writes nothing (MediaPipe's kernel would write into a
        neighbouring window's pixel: MaxPoolingWithArgmax2D never gives one)."""
        data, indices = self.get_input_tensors(op)
        o = _pool_options(op, "MaxUnpooling2D")
        if o.stride_h < o.filter_h or o.stride_w < o.filter_w:
            raise ValueError(
                f"overlapping windows (stride {o.stride_h}x{o.stride_w}, filter "
                f"{o.filter_h}x{o.filter_w}) are not converted"
            )
        _, height, width, _ = tensor_shape(data.tensor)
        gathered_x, gathered_at = self.get_tensor_expr(data), self.get_tensor_expr(indices)
        offsets = []  # of each output row (column) in its window, -1 if in none
        for axis, size, stride, kernel in [
            (1, height, o.stride_h, o.filter_h),
            (2, width, o.stride_w, o.filter_w),
        ]:
            out_size = size * kernel
            pad = _padding(stride, out_size, kernel, size)
            source, offset = np.divmod(np.arange(out_size) + pad, stride)
            rows = relax.const(np.minimum(source, size - 1).astype("int32"))
            gathered_x = relax.op.take(gathered_x, rows, axis=axis, mode="clip")
            gathered_at = relax.op.take(gathered_at, rows, axis=axis, mode="clip")
            offsets.append(np.where((offset < kernel) & (source < size), offset, -1))
        dy, dx = offsets[0][:, None], offsets[1][None, :]
        position = np.where((dy >= 0) & (dx >= 0), dy * o.filter_w + dx, -1)
        wanted = relax.const(position[None, :, :, None].astype("int32"))
        chosen = relax.op.equal(relax.op.astype(gathered_at, "int32"), wanted)
        zero = relax.const(0.0, "float32")
        return relax.op.where(chosen, gathered_x, zero)

    def _require_version(self, op: Any, name: str, versions: tuple[int, ...] = (2,)) -> None:
        """Only the versions of MediaPipe's operator `name` converted here."""
        version = self.model.OperatorCodes(op.OpcodeIndex()).Version()
        if version not in versions:
            raise ValueError(f"{name} version {version} is not converted (version 2 is)")

    def _scalar(self, expr: Any) -> Any:
        return self.bb.emit(relax.op.reshape(expr, [1]))

    def convert_landmarks_to_transform_matrix(self, op: Any) -> Any:
        """MediaPipe's Landmarks2TransformMatrix (version 2): the rotation that levels
        the line from the left to the right landmark (to `target_rotation_radians`),
        the box of the subset's landmarks so rotated, and the 4x4 matrix taking an
        output pixel of `output_width` x `output_height` to the box, scaled by
        `scale_x`, `scale_y`: shift(center) * rotate(-rotation) * scale * shift(-output
        size / 2)."""
        self._require_version(op, "Landmarks2TransformMatrix")
        (landmarks,) = self.get_input_tensors(op)
        o = flex_options(op)
        expr = self.get_tensor_expr(landmarks)

        def coordinate(index: int, axis: int) -> Any:
            return self._scalar(
                relax.op.strided_slice(
                    expr, axes=[1, 2], begin=[index, axis], end=[index + 1, axis + 1]
                )
            )

        left, right = int(o["left_rotation_idx"]), int(o["right_rotation_idx"])
        count = tensor_shape(landmarks.tensor)[1]
        subset_idxs = [int(i) for i in o["subset_idxs"]]
        if not all(0 <= i < count for i in [left, right, *subset_idxs]):
            raise ValueError(f"its options name landmarks outside the {count} it reads")
        dy = relax.op.subtract(coordinate(right, 1), coordinate(left, 1))
        dx = relax.op.subtract(coordinate(right, 0), coordinate(left, 0))
        target = relax.const(np.float32(o.get("target_rotation_radians", 0.0)))
        rotation = self.bb.emit(relax.op.subtract(target, relax.op.atan2(dy, dx)))
        cos, sin = self.bb.emit(relax.op.cos(rotation)), self.bb.emit(relax.op.sin(rotation))
        subset = relax.const(np.asarray(subset_idxs, "int32"))
        points = self.bb.emit(relax.op.take(expr, subset, axis=1, mode="clip"))  # [1, K, 3]
        xs, ys = (
            self.bb.emit(
                relax.op.reshape(
                    relax.op.strided_slice(points, axes=[2], begin=[i], end=[i + 1]),
                    [len(subset_idxs)],
                )
            )
            for i in range(2)
        )
        turned_x = self.bb.emit(relax.op.subtract(cos * xs, sin * ys))
        turned_y = self.bb.emit(relax.op.add(sin * xs, cos * ys))
        extremes = [
            self._scalar(reduce(t, axis=0))
            for t in (turned_x, turned_y)
            for reduce in (relax.op.max, relax.op.min)
        ]
        max_x, min_x, max_y, min_y = extremes
        half = relax.const(np.float32(0.5))
        middle_x = self.bb.emit((max_x + min_x) * half)
        middle_y = self.bb.emit((max_y + min_y) * half)
        # The box's center, rotated back.
        crop_x = cos * middle_x + sin * middle_y
        crop_y = cos * middle_y - sin * middle_x
        out_w, out_h = float(o["output_width"]), float(o["output_height"])
        scale_x = (max_x - min_x) * relax.const(np.float32(o["scale_x"] / out_w))
        scale_y = (max_y - min_y) * relax.const(np.float32(o["scale_y"] / out_h))
        scale_x, scale_y = self.bb.emit(scale_x), self.bb.emit(scale_y)
        # rotate(-rotation): cos, sin of -rotation are cos, -sin.
        m00, m01 = self.bb.emit(cos * scale_x), self.bb.emit(sin * scale_y)
        m10, m11 = self.bb.emit(-sin * scale_x), self.bb.emit(cos * scale_y)
        shift_x, shift_y = (
            relax.const(np.float32(-out_w / 2)),
            relax.const(np.float32(-out_h / 2)),
        )
        m03 = crop_x + m00 * shift_x + m01 * shift_y
        m13 = crop_y + m10 * shift_x + m11 * shift_y
        zero, one = relax.const(np.zeros(1, "float32")), relax.const(np.ones(1, "float32"))
        rows = [m00, m01, zero, m03, m10, m11, zero, m13]
        rows += [zero, zero, one, zero, zero, zero, zero, one]
        return relax.op.reshape(relax.op.concat(rows, axis=0), [1, 4, 4])

    def _affine_rows(self, matrix: Any) -> list[Any]:
        """The first two rows of a [1, 4, 4] matrix, each element a [1] tensor."""
        return [
            self._scalar(
                relax.op.strided_slice(matrix, axes=[1, 2], begin=[r, c], end=[r + 1, c + 1])
            )
            for r in range(2)
            for c in range(4)
        ]

    def convert_transform_tensor_bilinear(self, op: Any) -> Any:
        """MediaPipe's TransformTensorBilinear (version 2): each output pixel (x, y)
        of `output_width` x `output_height` samples the input bilinearly at the first
        two rows of the matrix times (x, y, 0, 1), corners aligned (the matrix's
        shift corrected by half a pixel), 0 outside the input; a corner past the
        input's last row or column reads 0."""
        self._require_version(op, "TransformTensorBilinear")
        data, matrix = self.get_input_tensors(op)
        o = flex_options(op)
        out_h, out_w = int(o["output_height"]), int(o["output_width"])
        _, height, width, channels = tensor_shape(data.tensor)
        a, b, _, tx, c, d, _, ty = self._affine_rows(self.get_tensor_expr(matrix))
        half = relax.const(np.float32(0.5))
        tx = tx + a * half + b * half - half
        ty = ty + c * half + d * half - half
        grid_y, grid_x = np.meshgrid(np.arange(out_h), np.arange(out_w), indexing="ij")
        gx, gy = (relax.const(g.reshape(-1).astype("float32")) for g in (grid_x, grid_y))
        x = self.bb.emit(a * gx + b * gy + tx)  # [out_h * out_w]
        y = self.bb.emit(c * gx + d * gy + ty)
        zero = relax.const(np.float32(0))
        inside = self.bb.emit(
            relax.op.logical_and(
                relax.op.logical_and(
                    relax.op.greater_equal(x, zero),
                    relax.op.less_equal(x, relax.const(np.float32(width - 1))),
                ),
                relax.op.logical_and(
                    relax.op.greater_equal(y, zero),
                    relax.op.less_equal(y, relax.const(np.float32(height - 1))),
                ),
            )
        )
        x0, y0 = self.bb.emit(relax.op.floor(x)), self.bb.emit(relax.op.floor(y))
        right, lower = self.bb.emit(x - x0), self.bb.emit(y - y0)
        flat = self.bb.emit(
            relax.op.reshape(self.get_tensor_expr(data), [height * width, channels])
        )

        def corner(dy: int, dx: int) -> Any:
            row = relax.op.astype(y0, "int32") + relax.const(np.int32(dy))
            column = relax.op.astype(x0, "int32") + relax.const(np.int32(dx))
            row, column = self.bb.emit(row), self.bb.emit(column)
            valid = relax.op.logical_and(
                relax.op.logical_and(
                    relax.op.greater_equal(row, relax.const(np.int32(0))),
                    relax.op.less(row, relax.const(np.int32(height))),
                ),
                relax.op.logical_and(
                    relax.op.greater_equal(column, relax.const(np.int32(0))),
                    relax.op.less(column, relax.const(np.int32(width))),
                ),
            )
            valid = self.bb.emit(relax.op.logical_and(valid, inside))
            index = relax.op.where(
                valid, row * relax.const(np.int32(width)) + column, relax.const(np.int32(0))
            )
            values = relax.op.take(flat, self.bb.emit(index), axis=0, mode="clip")
            return relax.op.where(relax.op.expand_dims(valid, 1), values, zero)

        one = relax.const(np.float32(1))
        right_c, lower_c = relax.op.expand_dims(right, 1), relax.op.expand_dims(lower, 1)
        upper = (one - right_c) * corner(0, 0) + right_c * corner(0, 1)
        below = (one - right_c) * corner(1, 0) + right_c * corner(1, 1)
        result = lower_c * below + (one - lower_c) * upper
        return relax.op.reshape(result, [1, out_h, out_w, channels])

    def convert_transform_landmarks(self, op: Any) -> Any:
        """MediaPipe's TransformLandmarks (version 2): each landmark's x, y taken by
        the first two rows of the matrix times (x, y, 0, 1); a third coordinate kept."""
        self._require_version(op, "TransformLandmarks")
        landmarks, matrix = self.get_input_tensors(op)
        dims = tensor_shape(landmarks.tensor)[-1]
        if dims not in (2, 3):
            raise ValueError(f"landmarks of {dims} coordinates (2 or 3 are converted)")
        a, b, _, tx, c, d, _, ty = self._affine_rows(self.get_tensor_expr(matrix))
        expr = self.get_tensor_expr(landmarks)

        def axis(i: int) -> Any:
            return self.bb.emit(relax.op.strided_slice(expr, axes=[2], begin=[i], end=[i + 1]))

        x, y = axis(0), axis(1)
        moved = [a * x + b * y + tx, c * x + d * y + ty]
        if dims == 3:
            moved.append(axis(2))
        return relax.op.concat(moved, axis=2)

    def convert_pad(self, op: Any) -> Any:
        data, paddings, *constant = self.get_input_tensors(op)
        if not data.qnn_params:
            return super().convert_pad(op)
        (out,) = self.get_output_tensors(op)
        if not all(self.has_same_qnn_params(data, t) for t in (out, *constant)):
            raise tvm.error.OpNotImplemented(
                f"quantized PAD computing {tflite_tensor_label(out.tensor, out.tensor_idx)} "
                "is quantized "
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

    def convert_densify(self, op: Any) -> None:
        (sparse,) = self.get_input_tensors(op)
        (out,) = self.get_output_tensors(op)
        values = np.frombuffer(
            sparse.buffer.DataAsNumpy() if sparse.buffer.DataLength() else b"",
            self.get_tensor_type_as_numpy(sparse),
        )
        try:
            dense = densified(sparse.tensor, values)
        except SparsityError as error:
            problem = str(error)
        else:
            problem = ""
        # Raised outside the handler: a chained error's frames would keep TVM's
        # BlockBuilder alive past the frontend's clean-up (a warning on stderr).
        if problem:
            label = tflite_tensor_label(sparse.tensor, sparse.tensor_idx)
            raise ValueError(f"the sparse tensor {label}: {problem}")
        # A weight, dense from here on: the operators reading it read a constant.
        self.set_prefetched_node(out.tensor_idx, dense)

    def get_tensor_value(self, tensor: Any, is_sparse: bool = False) -> Any:
        # A densified weight (a float16 one's DEQUANTIZE reads it) has no buffer.
        if not is_sparse and self.is_prefetched(tensor.tensor_idx):
            return self.get_prefetched_node(tensor.tensor_idx)
        return super().get_tensor_value(tensor, is_sparse)

    def convert_shape(self, op: Any) -> Any:
        (data,) = self.get_input_tensors(op)
        (out,) = self.get_output_tensors(op)
        dims = self._infer_shape(self.get_tensor_expr(data))
        if not all(isinstance(d, tvm.tirx.IntImm) for d in dims):
            raise ValueError(f"the shape of its input is dynamic: {list(dims)}")
        dtype = self.get_tensor_type_str(out.tensor.Type())
        return relax.const(np.array([int(d) for d in dims], dtype), dtype)

    def convert_reshape(self, op: Any) -> Any:
        data, *shape = self.get_input_tensors(op)
        if not (shape and self.has_expr(shape[0].tensor_idx)):
            return super().convert_reshape(op)
        (out,) = self.get_output_tensors(op)
        computed = self.get_expr(shape[0].tensor_idx)
        if isinstance(computed, tvm.ir.Constant):
            target = [int(d) for d in computed.value.numpy().reshape(-1)]
        else:
            # Shapes are static: a shape computed at run time (a SHAPE's slices packed
            # with a -1) is the one the file declares, if the sizes agree.
            target = tensor_shape(out.tensor)
            size = int(np.prod([int(d) for d in self._infer_shape(self.get_expr(data.tensor_idx))]))
            if int(np.prod(target)) != size:
                raise ValueError(
                    f"its shape is computed at run time and the file's {target} does not "
                    f"hold its {size} values"
                )
        return relax.op.reshape(self.get_tensor_expr(data), target)

    def convert_expand_dims(self, op: Any) -> Any:
        data, axis = self.get_input_tensors(op)
        if data.qnn_params and not self.has_same_qnn_params(data, self.get_output_tensors(op)[0]):
            raise tvm.error.OpNotImplemented(
                "quantized EXPAND_DIMS whose output is quantized unlike its input"
            )
        (position,) = np.asarray(self.get_tensor_value(axis)).reshape(-1)
        # TFLite counts a negative axis from the end of the output, as Relax does.
        return relax.op.expand_dims(self.get_tensor_expr(data), int(position))

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
        if np.any(_quantization(weight.tensor)[1] != 0):
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
            top = _padding(o.StrideH(), height, o.FilterHeight(), out_shape[1])
            left = _padding(o.StrideW(), width, o.FilterWidth(), out_shape[2])
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
            top = _padding(stride, size, kernel, convolved)
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
            pads.append(_padding(stride, size, kernel, convolved))
        window = ConvWindow(strides, (1, 1), (pads[0], pads[1]), (out_h, out_w))
        return self._kernel(
            lambda x, w, b, m, s: transpose_conv2d(x, w, b, m, s, window, r),
            ("transpose_conv2d", window, r),
            self.get_tensor_expr(data),
            operands,
            tables,
        )

    def convert_mirror_pad(self, op: Any) -> Any:
        """TFLite's MIRROR_PAD, REFLECT (the edge not repeated) or SYMMETRIC (repeated):
        each padded axis the flipped slices beside the tensor, concatenated (TVM's
        converter has no SYMMETRIC)."""
        from tflite.MirrorPadOptions import MirrorPadOptions

        data, paddings = self.get_input_tensors(op)
        edge = 0 if options_of(op, MirrorPadOptions).Mode() == 1 else 1  # SYMMETRIC: 1
        padded = self.get_tensor_expr(data)
        shape = tensor_shape(data.tensor)
        pads = np.asarray(self.get_tensor_value(paddings)).reshape(-1, 2)
        for axis, (before, after) in enumerate(pads.tolist()):
            size = shape[axis]
            parts = []
            if before:
                parts.append(self._flipped(padded, axis, edge, edge + before))
            parts.append(padded)
            if after:
                parts.append(self._flipped(padded, axis, size - edge - after, size - edge))
            if len(parts) > 1:
                padded = relax.op.concat(parts, axis=axis)
                shape = [*shape[:axis], size + before + after, *shape[axis + 1 :]]
        return padded

    @staticmethod
    def _flipped(x: Any, axis: int, begin: int, end: int) -> Any:
        part = relax.op.strided_slice(x, axes=[axis], begin=[begin], end=[end])
        return relax.op.flip(part, axis=axis)

    def _space_batch_operands(self, op: Any) -> tuple[Any, list[int], list[int], list[int]] | None:
        """A 4-D SPACE_TO_BATCH_ND's or BATCH_TO_SPACE_ND's data, its shape, block and
        paddings (crops) flattened; None for another rank."""
        data, block, pads = self.get_input_tensors(op)
        shape = tensor_shape(data.tensor)
        if len(shape) != 4:
            return None
        sizes = [int(v) for v in np.asarray(self.get_tensor_value(block)).reshape(-1)]
        flat = [int(v) for v in np.asarray(self.get_tensor_value(pads)).reshape(-1)]
        return data, shape, sizes, flat

    def convert_space_to_batch_nd(self, op: Any) -> Any:
        """TFLite's SPACE_TO_BATCH_ND of NHWC data: padded (with the zero point of a
        quantized tensor, as TFLM pads), each block's pixels made a batch, the block's
        row and column outermost -- reshapes and a transpose (TVM's converter leaves a
        packed call no plan can take)."""
        blocked = self._space_batch_operands(op)
        if blocked is None:
            return super().convert_space_to_batch_nd(op)
        data, (batch, height, width, channels), (bh, bw), (top, bottom, left, right) = blocked
        quantization = scalar_quantization(data)
        padded = relax.op.nn.pad(
            self.get_tensor_expr(data),
            pad_width=[0, 0, top, bottom, left, right, 0, 0],
            pad_value=float(quantization[1]) if quantization else 0.0,
        )
        rows, columns = (height + top + bottom) // bh, (width + left + right) // bw
        split = relax.op.reshape(padded, [batch, rows, bh, columns, bw, channels])
        moved = relax.op.permute_dims(split, [2, 4, 0, 1, 3, 5])
        return relax.op.reshape(moved, [bh * bw * batch, rows, columns, channels])

    def convert_batch_to_space_nd(self, op: Any) -> Any:
        """TFLite's BATCH_TO_SPACE_ND of NHWC data: SPACE_TO_BATCH_ND undone, then
        cropped."""
        blocked = self._space_batch_operands(op)
        if blocked is None:
            return super().convert_batch_to_space_nd(op)
        data, (batch, height, width, channels), (bh, bw), (top, bottom, left, right) = blocked
        outer = batch // (bh * bw)
        split = relax.op.reshape(
            self.get_tensor_expr(data), [bh, bw, outer, height, width, channels]
        )
        moved = relax.op.permute_dims(split, [2, 3, 0, 4, 1, 5])
        whole = relax.op.reshape(moved, [outer, height * bh, width * bw, channels])
        return relax.op.strided_slice(
            whole,
            axes=[1, 2],
            begin=[top, left],
            end=[height * bh - bottom, width * bw - right],
        )

    def convert_reverse_v2(self, op: Any) -> Any:
        """TFLite's REVERSE_V2 of any number of axes, one flip each (TVM's converter
        takes one)."""
        data, axes = self.get_input_tensors(op)
        rank = len(tensor_shape(data.tensor))
        reversed_ = self.get_tensor_expr(data)
        for axis in np.asarray(self.get_tensor_value(axes)).reshape(-1):
            reversed_ = relax.op.flip(reversed_, axis=int(axis) % rank)
        return reversed_

    def convert_fill(self, op: Any) -> Any:
        """TFLite's FILL of a shape the file holds: TVM's reads the value only as an
        expression another operator computed (a KeyError on a constant one)."""
        dims, value = self.get_input_tensors(op)
        if self.has_expr(dims.tensor_idx):
            return super().convert_fill(op)
        shape = [int(d) for d in np.asarray(self.get_tensor_value(dims)).reshape(-1)]
        return relax.op.full(shape, self.get_tensor_expr(value))

    def convert_embedding_lookup(self, op: Any) -> Any:
        """TFLite's EMBEDDING_LOOKUP: the rows of its second input (the table) at its
        first (the ids), as TFLM reads them (TVM's converter swaps the two). A table of
        another type than the output (TFLM dequantizes an int8 one) is refused."""
        ids, table = self.get_input_tensors(op)
        (out,) = self.get_output_tensors(op)
        if table.tensor.Type() != out.tensor.Type():
            raise tvm.error.OpNotImplemented(
                "EMBEDDING_LOOKUP of a table of another type than its output"
            )
        rows = self._checked_indices(ids, tensor_shape(table.tensor)[0], "EMBEDDING_LOOKUP")
        return relax.op.take(self.get_tensor_expr(table), rows, axis=0, mode="clip")

    def convert_gather(self, op: Any) -> Any:
        """TFLite's GATHER (batch_dims 0) along its axis, an index outside the axis clamped
        into it (TVM's converter takes them unchecked: a read outside the tensor)."""
        from tflite.GatherOptions import GatherOptions

        data, indices = self.get_input_tensors(op)
        shape = tensor_shape(data.tensor)
        axis = options_of(op, GatherOptions).Axis()
        axis = axis + len(shape) if axis < 0 else axis
        at = self._checked_indices(indices, shape[axis], "GATHER")
        return relax.op.take(self.get_tensor_expr(data), at, axis=axis, mode="clip")

    def _checked_indices(self, indices: Any, size: Any, name: str) -> Any:
        """GATHER's, GATHER_ND's or EMBEDDING_LOOKUP's indices into an axis of `size` (or
        GATHER_ND's last dim into dims of `size`s), as int32: constant ones checked (one
        outside is refused: TFLM's Invoke fails on it), those computed at run time
        clamped by the caller (TFLM's Invoke fails; the C library has no error path
        from an operator, so it reads the nearest row instead of outside the tensor)."""
        if not self.has_expr(indices.tensor_idx):
            values = np.asarray(self.get_tensor_value(indices))
            outside = values[(values < 0) | (values >= size)]
            if outside.size:
                where = f"its axis of {size}" if np.ndim(size) == 0 else f"dims {list(size)}"
                raise OperatorRejected(
                    f"{name} index {int(outside.flat[0])} outside {where} "
                    "(TFLM's Invoke fails on it)"
                )
        return relax.op.astype(self.get_tensor_expr(indices), "int32")

    def convert_gather_nd(self, op: Any) -> Any:
        """TFLite's GATHER_ND: the indices' last dim indexes the data's leading dims, as
        Relax's `gather_nd` reads them (TVM's converter moves that dim first, as Relay's
        took them: an output of the wrong shape). Each index is clamped into its dim, as
        GATHER's (`_checked_indices`)."""
        data, indices = self.get_input_tensors(op)
        depth = tensor_shape(indices.tensor)[-1]
        sizes = np.array(tensor_shape(data.tensor)[:depth], np.int64)
        self._checked_indices(indices, sizes, "GATHER_ND")
        at = relax.op.astype(self.get_tensor_expr(indices), "int64")
        # Relax's gather_nd has no clamping mode: each column clamped to its dim's size.
        low, high = relax.const(np.zeros_like(sizes), "int64"), relax.const(sizes - 1, "int64")
        return relax.op.gather_nd(
            self.get_tensor_expr(data), relax.op.minimum(relax.op.maximum(at, low), high)
        )

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
