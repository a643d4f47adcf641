"""int8 TFLite operators without weights (`int8_weighted_kernels` has CONV_2D,
DEPTHWISE_CONV_2D and FULLY_CONNECTED) computed as TensorFlow Lite Micro's kernels compute them, in
integers, where TVM 0.27's frontend dequantizes, computes in float32 and quantizes (its
outputs then a step off TFLM's here and there, and more after a few layers). Each is a TE
compute of the operator's int8 tensors, one `call_tir` (`tflite_operators` reads the
file's options and quantization and emits it):

    add(a, b, operands, output, bounds, shape, left_shift, subtract)   ADD, SUB (int8, int16)
    add_n(tensors, operand, output, bounds)        ADD_N
    cumsum(x, operand, output, bounds, scan)       CUMSUM (`Scan`: axis, exclusive, reverse)
    average_pool(x, window, out_shape, bounds)     AVERAGE_POOL_2D
    mean(x, reduction, output, bounds)             MEAN
    quantized_sum(x, reduction, scale, zero_point, dtype)   SUM (int8, int16)
    quantize(x, scale, zero_point, bounds)         QUANTIZE of float32
    requantize(x, zero_point, output, bounds)      QUANTIZE of an integer tensor
    rectify(x, zero_point, slopes, bounds)         RELU, LEAKY_RELU, ABS (`Slopes`)
    clamp(x, bounds)                               RELU6 (the stored values clamped)
    prelu(x, alpha, zero_points, slopes, bounds)   PRELU (alpha broadcast)
    compare(a, b, operands, relation, shape)       EQUAL, LESS, ... (a bool tensor)
    resize_bilinear(x, out_shape, align_corners, half_pixel)   RESIZE_BILINEAR

ADD: each input less its zero point, in 20 more bits, scaled to twice the larger input
scale (`add_operands`), their sum scaled to the output's. ADD_N and CUMSUM: the same
scaling of their inputs (one scale for all), summed onto the scaled value of a stored 0 (TFLM's
accumulator starts there), the sum scaled to the output's. AVERAGE_POOL_2D: the int8 values
of a window summed as they are (input and output share a scale and zero point), over the
cells inside the input only, divided by their count rounding half away from zero. MEAN:
the sum less count x zero point, multiplied by the input-to-output scale over the count
as TFLM folds them into one multiplier (`mean_requantization`). QUANTIZE of an integer
tensor: the value less its zero point multiplied by the input-to-output scale; of a
float32 tensor: the value divided by the scale in float32, rounded half away from zero.
RESIZE_BILINEAR: TFLM's ResizeBilinearInteger, each source position in 1/1024ths of a
pixel, the four neighbours weighted in 20 fractional bits, rounded half away from zero (the
wheel's double rounding). The comparisons: each input less its zero point, in 8 more bits,
times its own scale (`comparison_operands`), compared. RELU, LEAKY_RELU, PRELU and ABS:
the value less its zero point requantized to the output, by the input-to-output scale
where it is not negative, by that times alpha where it is (LEAKY_RELU's option; PRELU's
tensor, less its zero point, the product requantized; ABS: the magnitude); RELU's bounds
begin at the output's zero point.
Each result is clamped to `bounds` (the type's, or a fused activation's) and cast. The
multipliers are `fixed_point`'s.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
from tvm import te, tirx

from usmp_dialect.tvm.fast_kernels import add_annotation, average_pool_annotation
from usmp_dialect.tvm.model_files.fixed_point import (
    clamped,
    multiply_by_quantized_multiplier,
    quantize_multiplier,
    requantized,
)

OPAQUE = 8  # TVM's OpPatternKind kOpaque: FuseOps fuses such a function with nothing
INT_RANGES = {"int8": (-128, 127), "uint8": (0, 255), "int16": (-32768, 32767)}
# The types TFLM's QUANTIZE requantizes an integer tensor to (int16 to int32 too).
REQUANTIZED_RANGES = {**INT_RANGES, "int32": (-(2**31), 2**31 - 1)}
ADD_LEFT_SHIFT = 20  # TFLM's int8 ADD and SUB: the inputs in 20 more bits (int16: 15)
_COMPARISON_LEFT_SHIFT = 8  # TFLM's quantized comparisons: the inputs in 8 more bits


class Bounds(NamedTuple):
    """The values a result is clamped to, and its type."""

    low: int
    high: int
    dtype: str


class Requantized(NamedTuple):
    """An int32 value times multiplier * 2^(shift - 31), plus a zero point."""

    multiplier: int
    shift: int
    zero_point: int


class Slopes(NamedTuple):
    """How `rectify` requantizes a value less its zero point: where it is not negative,
    where it is (LEAKY_RELU's alpha folded in), and whether it takes the magnitude first
    (ABS)."""

    nonnegative: Requantized
    negative: Requantized
    magnitude: bool = False


class AddOperand(NamedTuple):
    """An ADD input: its shape (broadcast as numpy does), zero point, and the multiplier
    scaling it to twice the larger input scale."""

    shape: list[int]
    zero_point: int
    multiplier: int
    shift: int


class Scan(NamedTuple):
    """A CUMSUM's axis, whether an element's own value is left out of its sum
    (exclusive), and whether it sums the elements after it (reverse)."""

    axis: int
    exclusive: bool
    reverse: bool

    def summed(self, element: Any, term: Any) -> Any:
        """Whether the sum at `element` (its index along the axis) takes `term`."""
        if self.reverse:
            return term > element if self.exclusive else term >= element
        return term < element if self.exclusive else term <= element


class PoolWindow(NamedTuple):
    """An AVERAGE_POOL_2D's window over an NHWC input of `height` x `width`."""

    height: int
    width: int
    filter_h: int
    filter_w: int
    stride_h: int
    stride_w: int
    top: int
    left: int


class Reduction(NamedTuple):
    """A MEAN's input shape, the axes it averages, whether they stay as dims of 1, and
    the input's zero point."""

    shape: list[int]
    axes: list[int]
    keep_dims: bool
    zero_point: int

    @property
    def elements(self) -> int:
        total = 1
        for axis in self.axes:
            total *= self.shape[axis]
        return total

    @property
    def out_shape(self) -> list[int]:
        if self.keep_dims:
            return [1 if i in self.axes else d for i, d in enumerate(self.shape)]
        return [d for i, d in enumerate(self.shape) if i not in self.axes]


def add_operands(
    shapes: list[list[int]],
    scales: list[float],
    zero_points: list[int],
    out_scale: float,
    left_shift: int = ADD_LEFT_SHIFT,
) -> tuple[list[AddOperand], int, int]:
    """TFLM's CalculateOpDataAdd: both inputs' operands, and the output's multiplier and
    shift (`left_shift`: 20 for int8, 15 for int16)."""
    twice_max = 2 * max(scales)
    operands = [
        AddOperand(shape, zero_point, *quantize_multiplier(scale / twice_max))
        for shape, scale, zero_point in zip(shapes, scales, zero_points, strict=True)
    ]
    return operands, *quantize_multiplier(twice_max / ((1 << left_shift) * out_scale))


def comparison_operands(
    shapes: list[list[int]], scales: list[float], zero_points: list[int]
) -> list[AddOperand]:
    """TFLM's ComparisonsPrepare of int8 and int16 inputs: each scaled by its own scale
    (QuantizeMultiplierSmallerThanOneExp, QuantizeMultiplier's of a scale below 1)."""
    return [
        AddOperand(shape, zero_point, *quantize_multiplier(scale))
        for shape, scale, zero_point in zip(shapes, scales, zero_points, strict=True)
    ]


def mean_requantization(
    in_scale: float, out_scale: float, count: int, zero_point: int
) -> Requantized:
    """TFLM's QuantizedMeanOrSum: 1/count folded into the input-to-output multiplier,
    shifted left by log2(count) (at most 32, and no further than a shift of -31), divided
    by count, truncated."""
    multiplier, shift = quantize_multiplier(in_scale / out_scale)
    extra = min(count.bit_length() - 1, 32, 31 + shift)
    return Requantized((multiplier << extra) // count, shift - extra, zero_point)


def broadcast_index(shape: list[int], index: tuple[Any, ...]) -> tuple[Any, ...]:
    """The element of a tensor of `shape` that numpy's broadcasting reads at the output's
    `index` (dims aligned from the last; a dim of 1 read at 0)."""
    tail = index[len(index) - len(shape) :] if shape else ()
    return tuple(0 if size == 1 else i for size, i in zip(shape, tail, strict=True))


def scaled_at(x: Any, operand: AddOperand, index: tuple[Any, ...], left_shift: int) -> Any:
    """The element of `x` broadcast to the output's `index`, less its zero point, in
    `left_shift` more bits, times its operand's multiplier: how TFLM's ADD and comparisons
    bring two inputs to one scale."""
    return _scaled_value(x[broadcast_index(operand.shape, index)], operand, left_shift)


def _scaled_value(value: Any, operand: AddOperand, left_shift: int) -> Any:
    shifted = (value.astype("int32") - tirx.const(operand.zero_point, "int32")) * (1 << left_shift)
    return multiply_by_quantized_multiplier(shifted, operand.multiplier, operand.shift)


def requantized_within(value: Any, r: Requantized, bounds: Bounds) -> Any:
    return clamped(requantized(value, r.multiplier, r.shift, r.zero_point), *bounds)


def add(
    a: Any,
    b: Any,
    operands: list[AddOperand],
    output: Requantized,
    bounds: Bounds,
    shape: list[int],
    left_shift: int = ADD_LEFT_SHIFT,
    subtract: bool = False,
) -> Any:
    """TFLM's quantized ADD (or SUB: `subtract`) of `a` and `b` into `shape`, the inputs
    in `left_shift` more bits."""
    tensors = (a, b)

    def scaled(term: int, index: tuple[Any, ...]) -> Any:
        value = scaled_at(tensors[term], operands[term], index, left_shift)
        return tirx.const(0, "int32") - value if subtract and term == 1 else value

    # The scaled inputs summed as a reduction of two terms: the lowering keeps a
    # reduction's value in a local accumulator, where an elementwise stage is inlined into
    # the final multiply, which reads its operand seven times (three multiplies then make
    # an expression TVM simplifies for seconds).
    term = te.reduce_axis((0, 2), "term")
    total = te.compute(
        shape,
        lambda *i: te.sum(tirx.Select(term == 0, scaled(0, i), scaled(1, i)), axis=term),
        name="scaled_sum",
    )
    same_shape = all(list(o.shape) == list(shape) for o in operands)
    # The M55's fast kernel is TFLM's int8 ADD's (`fast_kernels`).
    plain = not subtract and left_shift == ADD_LEFT_SHIFT
    return te.compute(
        shape,
        lambda *i: requantized_within(total[i], output, bounds),
        name="subtract" if subtract else "add",
        attrs=add_annotation(operands, output, bounds, same_shape) if plain else None,
    )


def _scaled_zero(operand: AddOperand) -> Any:
    """A stored 0 scaled as an input: where TFLM's ADD_N and CUMSUM start their sums."""
    return _scaled_value(tirx.const(0, "int32"), operand, ADD_LEFT_SHIFT)


def add_n(tensors: list[Any], operand: AddOperand, output: Requantized, bounds: Bounds) -> Any:
    """TFLM's int8 ADD_N of `tensors` (one shape, one quantization)."""
    term = te.reduce_axis((0, len(tensors)), "term")

    def scaled(index: tuple[Any, ...]) -> Any:
        chosen = scaled_at(tensors[-1], operand, index, ADD_LEFT_SHIFT)
        for i in reversed(range(len(tensors) - 1)):
            chosen = tirx.Select(
                term == i, scaled_at(tensors[i], operand, index, ADD_LEFT_SHIFT), chosen
            )
        return chosen

    shape = list(tensors[0].shape)
    total = te.compute(shape, lambda *i: te.sum(scaled(i), axis=term), name="scaled_sum")
    zero = _scaled_zero(operand)
    return te.compute(
        shape, lambda *i: requantized_within(zero + total[i], output, bounds), name="add_n"
    )


def cumsum(x: Any, operand: AddOperand, output: Requantized, bounds: Bounds, scan: Scan) -> Any:
    """TFLM's int8 CUMSUM of `x` along `scan.axis`."""
    shape = list(x.shape)
    term = te.reduce_axis((0, shape[scan.axis]), "term")

    def summed(*index: Any) -> Any:
        at = (*index[: scan.axis], term, *index[scan.axis + 1 :])
        value = _scaled_value(x[at], operand, ADD_LEFT_SHIFT)
        # A Select, not te.sum's `where`: TVM's create_prim_func drops that condition.
        kept = tirx.Select(scan.summed(index[scan.axis], term), value, tirx.const(0, "int32"))
        return te.sum(kept, axis=term)

    total = te.compute(shape, summed, name="scaled_cumsum")
    zero = _scaled_zero(operand)
    return te.compute(
        shape, lambda *i: requantized_within(zero + total[i], output, bounds), name="cumsum"
    )


def compare(a: Any, b: Any, operands: list[AddOperand], relation: Any, shape: list[int]) -> Any:
    """TFLM's quantized comparison (`relation`, a TIR comparison such as `tirx.GT`) of
    `a` and `b`, broadcast into `shape`: a bool tensor."""
    tensors = (a, b)

    def scaled(term: int, index: tuple[Any, ...]) -> Any:
        return scaled_at(tensors[term], operands[term], index, _COMPARISON_LEFT_SHIFT)

    return te.compute(shape, lambda *i: relation(scaled(0, i), scaled(1, i)), name="compare")


def average_pool(x: Any, w: PoolWindow, out_shape: list[int], bounds: Bounds) -> Any:
    """TFLM's int8 AVERAGE_POOL_2D of the NHWC `x`."""
    ky, kx = te.reduce_axis((0, w.filter_h), "ky"), te.reduce_axis((0, w.filter_w), "kx")
    zero = tirx.const(0, "int32")

    def cell(n: Any, y: Any, xx: Any, c: Any) -> Any:
        row, column = y * w.stride_h - w.top + ky, xx * w.stride_w - w.left + kx
        inside = tirx.all(row >= 0, row < w.height, column >= 0, column < w.width)
        return tirx.if_then_else(inside, x[n, row, column, c].astype("int32"), zero)

    total = te.compute(out_shape, lambda *i: te.sum(cell(*i), axis=[ky, kx]), name="window_sum")

    def average(n: Any, y: Any, xx: Any, c: Any) -> Any:
        first_row, first_column = y * w.stride_h - w.top, xx * w.stride_w - w.left
        rows = tirx.min(w.filter_h, w.height - first_row) - tirx.max(0, -first_row)
        columns = tirx.min(w.filter_w, w.width - first_column) - tirx.max(0, -first_column)
        count = rows * columns
        acc, half = total[n, y, xx, c], tirx.truncdiv(count, 2)
        rounded = tirx.Select(
            acc > zero, tirx.truncdiv(acc + half, count), tirx.truncdiv(acc - half, count)
        )
        return clamped(rounded, *bounds)

    return te.compute(
        out_shape, average, name="average_pool", attrs=average_pool_annotation(w, bounds)
    )


def mean(x: Any, reduction: Reduction, output: Requantized, bounds: Bounds) -> Any:
    """TFLM's int8 MEAN of `x` over the reduction's axes."""
    total = _sum(x, reduction)
    offset = tirx.const(reduction.zero_point * reduction.elements, "int32")
    return te.compute(
        reduction.out_shape,
        lambda *i: requantized_within(total[i] - offset, output, bounds),
        name="mean",
    )


def quantized_sum(x: Any, reduction: Reduction, scale: float, zero_point: int, dtype: str) -> Any:
    """TFLM's quantized SUM (QuantizedMeanOrSum's sum) of `x` over the reduction's axes,
    in float32 as TFLM computes it: the int32 sum times the input-to-output `scale`
    (float32) plus the input zero point's share, rounded half away from zero, plus the
    output's `zero_point`, cast to `dtype` unclamped (TFLM's static_cast)."""
    total = _sum(x, reduction)
    f32 = np.float32
    bias = f32(-reduction.zero_point) * f32(scale) * f32(reduction.elements)

    def element(*index: Any) -> Any:
        real = total[index].astype("float32") * tirx.const(float(scale), "float32")
        rounded = _rounded_half_away(real + tirx.const(float(bias), "float32"))
        return (rounded.astype("int32") + tirx.const(zero_point, "int32")).astype(dtype)

    return te.compute(reduction.out_shape, element, name="sum")


def _sum(x: Any, reduction: Reduction) -> Any:
    """The int32 sums of `x` over the reduction's axes."""
    shape, rank = reduction.shape, len(reduction.shape)
    reduced = {a: te.reduce_axis((0, shape[a]), f"r{a}") for a in reduction.axes}
    kept = [i for i in range(rank) if i not in reduced]

    def element(*index: Any) -> Any:
        # The output's index at the kept dims, the reduced axes at the others.
        outer = [index[i] for i in kept] if reduction.keep_dims else list(index)
        at = {**dict(zip(kept, outer, strict=True)), **reduced}
        read = x[tuple(at[i] for i in range(rank))].astype("int32")
        return te.sum(read, axis=list(reduced.values()))

    return te.compute(reduction.out_shape, element, name="sum")


def _rounded_half_away(q: Any) -> Any:
    """The float32 expression `q` rounded half away from zero (std::round), bounded to
    +-2^30 so that a cast to int32 is defined."""
    magnitude = tirx.Select(q < 0, -q, q)  # no fabs in TVM's C target
    whole = tirx.floor(magnitude)
    away = tirx.Select(magnitude - whole >= tirx.const(0.5, "float32"), whole + 1.0, whole)
    bound = tirx.const(2.0**30, "float32")
    return tirx.max(tirx.min(tirx.Select(q < 0, -away, away), bound), -bound)


def quantize(x: Any, scale: float, zero_point: int, bounds: Bounds) -> Any:
    """TFLM's AffineQuantize of the float32 `x`: x / scale in float32, std::round."""

    def element(*index: Any) -> Any:
        # Bounded before the cast: the clamp decides past the type's range.
        rounded = _rounded_half_away(x[index] / tirx.const(scale, "float32"))
        return clamped(rounded.astype("int32") + tirx.const(zero_point, "int32"), *bounds)

    return te.compute(x.shape, element, name="quantize")


def requantize(x: Any, zero_point: int, output: Requantized, bounds: Bounds) -> Any:
    """TFLM's Requantize of the integer `x` (less its `zero_point`) to `output`."""
    offset = tirx.const(zero_point, "int32")
    return te.compute(
        x.shape,
        lambda *i: requantized_within(x[i].astype("int32") - offset, output, bounds),
        name="requantize",
    )


def rectify(x: Any, zero_point: int, slopes: Slopes, bounds: Bounds) -> Any:
    """TFLM's quantized RELU, LEAKY_RELU or ABS of the integer `x` (`Slopes`)."""
    offset = tirx.const(zero_point, "int32")
    zero = tirx.const(0, "int32")

    def element(*index: Any) -> Any:
        value = x[index].astype("int32") - offset
        if slopes.magnitude:
            value = tirx.Select(value < zero, zero - value, value)
        if slopes.negative == slopes.nonnegative:
            return requantized_within(value, slopes.nonnegative, bounds)
        return tirx.Select(
            value >= zero,
            requantized_within(value, slopes.nonnegative, bounds),
            requantized_within(value, slopes.negative, bounds),
        )

    return te.compute(x.shape, element, name="rectify")


def clamp(x: Any, bounds: Bounds) -> Any:
    """The stored values of `x` clamped to `bounds`: TFLM's quantized RELU6."""
    return te.compute(x.shape, lambda *i: clamped(x(*i), *bounds), name="clamp")


_TENTHS = 10  # ResizeBilinearInteger's positions: in 1/2^10ths of an input pixel


def _resize_scale(size: int, out: int, align_corners: bool) -> int:
    """ResizeBilinearInteger's scale_10 of one axis."""
    if align_corners and out > 1:
        return ((1 << _TENTHS) * (size - 1) + (out - 1) // 2) // (out - 1)
    return ((1 << _TENTHS) * size + out // 2) // out


def _resize_axis(index: Any, size: int, scale: int, half_pixel: bool) -> tuple[Any, Any, Any]:
    """ComputeInterpolationValuesInteger of an output `index`: the source position (in
    1/1024ths), the lower and the upper neighbour (C's division truncating)."""
    offset = scale // 2 - (1 << (_TENTHS - 1)) if half_pixel else 0
    position = index * scale + offset
    lower = tirx.max(tirx.truncdiv(position, 1 << _TENTHS), 0)
    upper = tirx.min(tirx.truncdiv(position + (1 << _TENTHS) - 1, 1 << _TENTHS), size - 1)
    return position, lower, upper


def resize_bilinear(x: Any, out_shape: list[int], align_corners: bool, half_pixel: bool) -> Any:
    """TFLM's integer RESIZE_BILINEAR of the NHWC `x` into `out_shape`."""
    _, height, width, _ = (int(d) for d in x.shape)
    scales = [
        _resize_scale(size, out, align_corners)
        for size, out in [(height, out_shape[1]), (width, out_shape[2])]
    ]
    unit = tirx.const(1 << _TENTHS, "int64")

    def element(n: Any, y: Any, xx: Any, c: Any) -> Any:
        in_y, y0, y1 = _resize_axis(y, height, scales[0], half_pixel)
        in_x, x0, x1 = _resize_axis(xx, width, scales[1], half_pixel)
        dy = (in_y - y0 * (1 << _TENTHS)).astype("int64")
        dx = (in_x - x0 * (1 << _TENTHS)).astype("int64")
        total = (
            x[n, y0, x0, c].astype("int64") * (unit - dy) * (unit - dx)
            + x[n, y1, x0, c].astype("int64") * dy * (unit - dx)
            + x[n, y0, x1, c].astype("int64") * (unit - dy) * dx
            + x[n, y1, x1, c].astype("int64") * dy * dx
        )
        half = tirx.const(1 << 19, "int64")
        rounded = tirx.Select(total > tirx.const(0, "int64"), total + half, total - half)
        return tirx.truncdiv(rounded, tirx.const(1 << 20, "int64")).astype(x.dtype)

    return te.compute(out_shape, element, name="resize_bilinear")


def prelu(x: Any, alpha: Any, zero_points: tuple[int, int], slopes: Slopes, bounds: Bounds) -> Any:
    """TFLM's quantized PRELU of `x` by `alpha` (broadcast as numpy does), each less its
    zero point (`zero_points`): below zero the product, by the negative slope."""
    offset, alpha_offset = (tirx.const(z, "int32") for z in zero_points)
    alpha_shape = [int(d) for d in alpha.shape]

    def element(*index: Any) -> Any:
        value = x[index].astype("int32") - offset
        slope = alpha[broadcast_index(alpha_shape, index)].astype("int32") - alpha_offset
        return tirx.Select(
            value >= tirx.const(0, "int32"),
            requantized_within(value, slopes.nonnegative, bounds),
            requantized_within(value * slope, slopes.negative, bounds),
        )

    return te.compute(x.shape, element, name="prelu")
