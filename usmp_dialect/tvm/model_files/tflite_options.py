"""What TVM's TFLite converter and ours read of a TFLite operator beyond its tensors: its
builtin options (`options_of`), a custom operator's (a C struct of int32 fields, or a
FlexBuffer map), TFLite's padding and convolution windows, and how TFLM requantizes a
quantized operator's accumulator (`requantization`, `activation_range`)."""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from usmp_dialect.tvm.model_files.fixed_point import quantize_multiplier
from usmp_dialect.tvm.model_files.int8_weighted_kernels import (
    ConvWindow,
    Requantization,
)
from usmp_dialect.tvm.model_files.tflite_tensors import tensor_shape


class PoolOptions(NamedTuple):
    """TFLite's TfLitePoolParams, the C struct MediaPipe's pooling kernels read as their
    options (int32 fields; TFLite's own padding fields after them are not read)."""

    padding: int
    stride_w: int
    stride_h: int
    filter_w: int
    filter_h: int
    activation: int


def pool_options(op: Any, name: str) -> PoolOptions:
    options = custom_options(op)
    if len(options) < len(PoolOptions._fields):
        raise ValueError(f"{name} with {options.nbytes} bytes of options (TfLitePoolParams: 24)")
    return PoolOptions(*(int(v) for v in options[: len(PoolOptions._fields)]))


def flex_options(op: Any) -> dict[str, Any]:
    """A custom operator's options written as a FlexBuffer map (MediaPipe's version-2
    landmark operators, TFLM's signal library)."""
    from flatbuffers import flexbuffers

    if not op.CustomOptionsLength():
        return {}
    options = flexbuffers.Loads(op.CustomOptionsAsNumpy().tobytes())
    return options if isinstance(options, dict) else {}


def compute_padding(stride: int, size: int, kernel: int, out: int) -> int:
    """TFLite's ComputePadding (dilation 1): the padding before, rounded towards zero, not
    below 0."""
    return max(0, int(((out - 1) * stride + kernel - size) / 2))


def custom_options(op: Any) -> np.ndarray:
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


def quantization_of(tensor: Any) -> tuple[np.ndarray, np.ndarray]:
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
    (input_scale,), (input_zero_point,) = quantization_of(data)
    (output_scale,), (output_zero_point,) = quantization_of(out)
    weight_scales, _ = quantization_of(weight)
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


def same_padding(size: int, kernel: int, stride: int, dilation: int) -> tuple[int, int]:
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
            before, out = same_padding(size, k, stride, d)
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
