"""TFLite's quantized CONV_2D, DEPTHWISE_CONV_2D and FULLY_CONNECTED as TFLM's reference
kernels compute them, each one TE kernel with its requantization fused in (the int8
operators with weights, requantized per output channel; `int8_unweighted_kernels` has
those without):

    Requantization(...)      how an accumulator becomes the output
    ConvWindow(...)          a convolution's strides, dilations, padding and output size
    conv2d(data, weight, bias, multipliers, shifts, window, r)            -> te.Tensor
    depthwise_conv2d(data, weight, bias, multipliers, shifts, window, r)  -> te.Tensor
    fully_connected(data, weight, bias, multipliers, shifts, r)           -> te.Tensor
    transpose_conv2d(data, weight, bias, multipliers, shifts, window, r)  -> te.Tensor
    batch_matmul(lhs, rhs, rhs_zero_point, out_shape, r)                  -> te.Tensor

Each output element is the int32 sum over its window of (input - input zero point) x
weight, plus the bias, requantized in fixed point (`fixed_point`: TFLM's
MultiplyByQuantizedMultiplier by its output channel's multiplier and shift), plus the
output zero point, clamped to the fused activation's range: TFLM's
values bit for bit, where TVM's frontend computes the operator in float32 between a
dequantize and a quantize and rounds apart now and then. A tap of the window outside the
input adds nothing (TFLM's kernels skip it): the input is padded with its zero point.

A channel's multiplier and shift are TFLM's QuantizeMultiplier of input scale x weight
scale / output scale: immediates when every channel has the same, else read from two
constant tables (`multipliers`, int32, and `shifts`, int8; None when immediates), which
TFLM computes at start-up into its persistent arena (two int32 a channel); they take the
place of the weight's float32 scales TVM's dequantize read. A bias stored narrower
(`narrowed_constants`) reaches the kernel through an `R.astype` the lowering fuses into
it, as the PrimFunc's `usmp.widened_args` allows.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from tvm import te, tirx

from usmp_dialect.tvm.fast_kernels import kernel_annotation
from usmp_dialect.tvm.model_files.fixed_point import (
    clamped,
    multiply_int64_by_quantized_multiplier,
    requantized,
)


class Requantization(NamedTuple):
    """How an accumulator becomes an output value: the zero points, the fused
    activation's range [low, high] in output values, the multiplier and shift of every
    channel when they are one (`fixed`; else the kernel reads them from its tables), the
    output's dtype, the accumulator's: int32 for int8 activations, int64 for TFLM's 16x8
    kernels (int16 activations, int8 weights, an int64 bias), which requantize it by
    the int64 MultiplyByQuantizedMultiplier."""

    input_zero_point: int
    output_zero_point: int
    low: int
    high: int
    fixed: tuple[int, int] | None
    out_dtype: str
    accumulator: str = "int32"


class ConvWindow(NamedTuple):
    """A convolution's strides, dilations, padding before (top, left) and output size."""

    strides: tuple[int, int]
    dilation: tuple[int, int]
    padding: tuple[int, int]
    out_size: tuple[int, int]


def _requantized(
    acc: Any, bias: Any, tables: tuple[Any, Any], channel: Any, r: Requantization
) -> Any:
    if bias is not None:
        acc = acc + bias[channel].astype(r.accumulator)
    if r.fixed is not None:
        multiplier, shift = (tirx.const(v, "int32") for v in r.fixed)
    else:
        multipliers, shifts = tables
        multiplier, shift = multipliers[channel], shifts[channel].astype("int32")
    if r.accumulator == "int64":
        scaled = multiply_int64_by_quantized_multiplier(acc, multiplier, shift)
        value = scaled.astype("int64") + tirx.const(r.output_zero_point, "int64")
    else:
        value = requantized(acc, multiplier, shift, r.output_zero_point)
    return clamped(value, r.low, r.high, r.out_dtype)


def _requantized_sums(
    shape: tuple[Any, ...],
    sum_at: Any,
    bias: Any,
    tables: tuple[Any, Any],
    r: Requantization,
    kernel: tuple[str, ConvWindow | None] | None,
) -> Any:
    """The kernel's two stages: each output element's sum (`sum_at(*indices)`, its last
    index the output channel), then its requantized value, annotated with what the
    kernel is (`kernel`: its kind and window) for the C library's kernels
    (`fast_kernels`, int8 ones: a 16x8 kernel, or one without a `kernel`, is not
    annotated)."""
    acc = te.compute(shape, sum_at, "acc")
    return te.compute(
        shape,
        lambda *i: _requantized(acc[i], bias, tables, i[-1], r),
        "requantized",
        attrs=kernel_annotation(*kernel, r)
        if kernel is not None and r.accumulator == "int32"
        else None,
    )


def _taps(data: Any, window: ConvWindow, kernel: tuple[Any, Any], r: Requantization) -> Any:
    """`tap(n, y, x, c)`: (input - zero point) at input row y, column x (the window's,
    from -padding on) as the accumulator's type. With padding, the input is padded with
    its zero point first, a stage of its own (which the lowering computes where it is
    read, as it does topi's `pad_temp`: a condition in the sum itself takes TVM's TIR
    passes ten times as long)."""
    batch, height, width, channels = data.shape
    top, left = window.padding
    spans = [
        (out - 1) * stride + (k - 1) * dilation + 1
        for out, stride, k, dilation in zip(
            window.out_size, window.strides, kernel, window.dilation, strict=True
        )
    ]
    bottom, right = max(0, spans[0] - top - int(height)), max(0, spans[1] - left - int(width))
    accumulator = r.accumulator
    zero_point = tirx.const(r.input_zero_point, accumulator)
    if top == left == bottom == right == 0:
        return lambda n, y, x, c: data[n, y, x, c].astype(accumulator) - zero_point

    def padded_at(n: Any, y: Any, x: Any, c: Any) -> Any:
        inside = tirx.all(y >= top, y < top + height, x >= left, x < left + width)
        value = data[n, y - top, x - left, c]
        return tirx.if_then_else(inside, value, tirx.const(r.input_zero_point, data.dtype))

    shape = (batch, top + height + bottom, left + width + right, channels)
    padded = te.compute(shape, padded_at, "padded")
    return lambda n, y, x, c: padded[n, y + top, x + left, c].astype(accumulator) - zero_point


def _window(w: ConvWindow, h: Any, x: Any, kh: Any, kw: Any) -> tuple[Any, Any]:
    (sh, sw), (dh, dw), (top, left) = w.strides, w.dilation, w.padding
    return h * sh + kh * dh - top, x * sw + kw * dw - left


def conv2d(
    data: Any,
    weight: Any,
    bias: Any,
    multipliers: Any,
    shifts: Any,
    window: ConvWindow,
    r: Requantization,
) -> Any:
    """CONV_2D of NHWC `data` by OHWI `weight` (grouped when the input has a multiple of
    the weight's input channels)."""
    batch, _, _, in_channels = data.shape
    out_channels, kernel_h, kernel_w, group_channels = weight.shape
    per_group = out_channels // (in_channels // group_channels)
    kh = te.reduce_axis((0, kernel_h), "kh")
    kw = te.reduce_axis((0, kernel_w), "kw")
    ci = te.reduce_axis((0, group_channels), "ci")
    tap = _taps(data, window, (kernel_h, kernel_w), r)

    def sum_at(n: Any, h: Any, x: Any, c: Any) -> Any:
        y, xx = _window(window, h, x, kh, kw)
        channel = c // per_group * group_channels + ci
        product = tap(n, y, xx, channel) * weight[c, kh, kw, ci].astype(r.accumulator)
        return te.sum(product, axis=[kh, kw, ci])

    shape = (batch, *window.out_size, out_channels)
    return _requantized_sums(shape, sum_at, bias, (multipliers, shifts), r, ("conv2d", window))


def depthwise_conv2d(
    data: Any,
    weight: Any,
    bias: Any,
    multipliers: Any,
    shifts: Any,
    window: ConvWindow,
    r: Requantization,
) -> Any:
    """DEPTHWISE_CONV_2D of NHWC `data` by `weight` [1, KH, KW, C x depth multiplier]:
    output channel c reads input channel c // depth multiplier."""
    batch, _, _, in_channels = data.shape
    _, kernel_h, kernel_w, out_channels = weight.shape
    multiplier = out_channels // in_channels
    kh = te.reduce_axis((0, kernel_h), "kh")
    kw = te.reduce_axis((0, kernel_w), "kw")
    tap = _taps(data, window, (kernel_h, kernel_w), r)

    def sum_at(n: Any, h: Any, x: Any, c: Any) -> Any:
        y, xx = _window(window, h, x, kh, kw)
        product = tap(n, y, xx, c // multiplier) * weight[0, kh, kw, c].astype(r.accumulator)
        return te.sum(product, axis=[kh, kw])

    shape = (batch, *window.out_size, out_channels)
    kernel = ("depthwise_conv2d", window)
    return _requantized_sums(shape, sum_at, bias, (multipliers, shifts), r, kernel)


def fully_connected(
    data: Any, weight: Any, bias: Any, multipliers: Any, shifts: Any, r: Requantization
) -> Any:
    """FULLY_CONNECTED of `data` [rows, inputs] by `weight` [units, inputs]."""
    rows, inputs = data.shape
    units = weight.shape[0]
    i = te.reduce_axis((0, inputs), "i")
    accumulator = r.accumulator
    zero_point = tirx.const(r.input_zero_point, accumulator)

    def sum_at(row: Any, c: Any) -> Any:
        product = (data[row, i].astype(accumulator) - zero_point) * weight[c, i].astype(accumulator)
        return te.sum(product, axis=i)

    kernel = ("fully_connected", None)
    return _requantized_sums((rows, units), sum_at, bias, (multipliers, shifts), r, kernel)


def transpose_conv2d(
    data: Any,
    weight: Any,
    bias: Any,
    multipliers: Any,
    shifts: Any,
    window: ConvWindow,
    r: Requantization,
) -> Any:
    """TRANSPOSE_CONV of NHWC `data` by OHWI `weight` into an output of the window's
    size: TFLM scatters each input pixel times each tap to output (y x stride - top +
    tap row, x x stride - left + tap column), dropping what falls outside; each output
    element here sums the input pixels that land on it (its row + top - tap row a
    multiple of the stride, within the input), the same integers."""
    batch, height, width, _ = data.shape
    out_channels, kernel_h, kernel_w, in_channels = weight.shape
    (sh, sw), (top, left) = window.strides, window.padding
    kh = te.reduce_axis((0, kernel_h), "kh")
    kw = te.reduce_axis((0, kernel_w), "kw")
    ci = te.reduce_axis((0, in_channels), "ci")
    zero_point = tirx.const(r.input_zero_point, r.accumulator)

    def sum_at(n: Any, y: Any, x: Any, c: Any) -> Any:
        row, column = y + top - kh, x + left - kw
        iy, ix = tirx.floordiv(row, sh), tirx.floordiv(column, sw)
        lands = tirx.all(
            tirx.floormod(row, sh) == 0,
            tirx.floormod(column, sw) == 0,
            row >= 0,
            column >= 0,
            iy < height,
            ix < width,
        )
        tap = data[n, iy, ix, ci].astype(r.accumulator) - zero_point
        product = tap * weight[c, kh, kw, ci].astype(r.accumulator)
        return te.sum(
            tirx.if_then_else(lands, product, tirx.const(0, r.accumulator)), axis=[kh, kw, ci]
        )

    shape = (batch, *window.out_size, out_channels)
    return _requantized_sums(shape, sum_at, bias, (multipliers, shifts), r, None)


def batch_matmul(lhs: Any, rhs: Any, rhs_zero_point: int, out_shape: list[int], r: Any) -> Any:
    """BATCH_MATMUL of `lhs` [..., M, K] by `rhs` [..., K, N], their batch dims broadcast
    into `out_shape`'s: each product of the operands less their zero points (the lhs's
    is the requantization's input zero point), summed, requantized by one multiplier."""
    depth = int(lhs.shape[-1])
    k = te.reduce_axis((0, depth), "k")
    lhs_zero, rhs_zero = (
        tirx.const(z, r.accumulator) for z in (r.input_zero_point, rhs_zero_point)
    )

    def batch(shape: Any, index: tuple[Any, ...]) -> list[Any]:
        dims = [int(d) for d in shape[:-2]]
        tail = index[len(index) - len(dims) :] if dims else ()
        return [0 if d == 1 else i for d, i in zip(dims, tail, strict=True)]

    def sum_at(*i: Any) -> Any:
        outer, row, column = i[:-2], i[-2], i[-1]
        a = lhs[(*batch(lhs.shape, outer), row, k)].astype(r.accumulator) - lhs_zero
        b = rhs[(*batch(rhs.shape, outer), k, column)].astype(r.accumulator) - rhs_zero
        return te.sum(a * b, axis=k)

    return _requantized_sums(tuple(out_shape), sum_at, None, (None, None), r, None)
