"""TFLite's quantized SUB, MUL, DIV, SQUARED_DIFFERENCE and HARD_SWISH, and int16 ADD, as
TensorFlow Lite Micro's reference kernels compute them, in integers, where TVM 0.27's
frontend dequantizes, computes in float32 and quantizes: tools/quantized_sweep.py found
each a step off TFLM's on some inputs (ties, large multipliers):

    convert_quantized_binary(converter, op, name) -> the call of ADD (int16), SUB, MUL,
                                                     DIV or SQUARED_DIFFERENCE, or None
                                                     for a float one (TVM's then)
    hard_swish_table(input, output) -> TFLM's int8 HARD_SWISH of each int8 value
    convert_int8_hard_swish(converter, op) -> HARD_SWISH's call, or None for a float one
    reciprocals() -> (multipliers, shifts)   TFLM's GetReciprocal of 0 .. 255

ADD and SUB (int8 and int16): each input less its zero point, in 20 more bits (int16: 15),
scaled to twice the larger input scale, their sum or difference scaled to the output's
(`int8_unweighted_kernels.add`), the multipliers computed in double (the wheel's
CalculateOpDataSub as its CalculateOpDataAdd: float32 ones are a step off on some int16
inputs). MUL: the product of the inputs less their zero
points, requantized by input scale x input scale / output scale. SQUARED_DIFFERENCE (int8):
both inputs scaled as ADD's in 7 more bits, their difference squared, requantized by
(twice the larger scale)^2 / (2^14 x output scale). DIV (int8): the divisor less its zero
point made positive (both signs flipped), its reciprocal a Q0.31 multiplier and a shift
(gemmlowp's Newton-Raphson `one_over_one_plus_x_for_x_in_0_1`, three steps, looked up in
a 256-entry table computed here at import), the numerator shifted left by its redundant
sign bits times it, and that requantized by input scale / (divisor scale x output scale)
and the shifts; a divisor equal to its zero point divides by zero in TFLM (undefined), and
gives the output's zero point here. HARD_SWISH (int8): TFLM's int16 fixed-point
arithmetic (`hard_swish_table`) of each of the 256 values, looked up. Each result is
clamped to the fused activation's range (the type's where the operator has none).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

import numpy as np
from tvm import relax, te, tirx

from usmp_dialect.tvm.model_files import int8_unweighted_kernels as int8
from usmp_dialect.tvm.model_files.fixed_point import (
    clamped,
    multiply_by_quantized_multiplier,
    quantize_multiplier,
)
from usmp_dialect.tvm.model_files.onnx_operators import OperatorRejected
from usmp_dialect.tvm.model_files.tflite_tensors import scalar_quantization, tensor_shape

_F32 = np.float32
_INT16_ADD_LEFT_SHIFT = 15
_SQUARED_DIFFERENCE_LEFT_SHIFT = 7
_OPTIONS = {"ADD": "AddOptions", "SUB": "SubOptions", "MUL": "MulOptions", "DIV": "DivOptions"}
# The types TFLM computes each operator in (int16 ADD, SUB, MUL with zero points 0).
_TYPES = {
    "ADD": ("int16",),
    "SUB": ("int8", "int16"),
    "MUL": ("int8", "int16"),
    "DIV": ("int8",),
    "SQUARED_DIFFERENCE": ("int8",),
}


def _squared_difference_operands(
    shapes: list[list[int]], scales: list[float], zero_points: list[int], out_scale: float
) -> tuple[list[int8.AddOperand], int, int]:
    """TFLM's squared_difference PrepareQuantized of int8 inputs: ADD's operands in 7
    more bits, the output's multiplier from the square of twice the larger scale."""
    twice_max = 2.0 * float(max(_F32(s) for s in scales))
    operands = [
        int8.AddOperand(shape, zero_point, *quantize_multiplier(float(_F32(scale)) / twice_max))
        for shape, scale, zero_point in zip(shapes, scales, zero_points, strict=True)
    ]
    # (1 << 14) * scale is float32 arithmetic in TFLM.
    denominator = float(_F32(1 << 2 * _SQUARED_DIFFERENCE_LEFT_SHIFT) * _F32(out_scale))
    return operands, *quantize_multiplier(twice_max * twice_max / denominator)


# ---- gemmlowp's fixed point, in Python ints (int32 raw values)

_INT32_MIN, _INT32_MAX = -(2**31), 2**31 - 1


def wrap32(x: int) -> int:
    return (x + 2**31) % 2**32 - 2**31


def doubling_high_mul(a: int, b: int) -> int:
    """gemmlowp's SaturatingRoundingDoublingHighMul of int32s."""
    if a == b == _INT32_MIN:
        return _INT32_MAX
    product = a * b
    nudge = (1 << 30) if product >= 0 else 1 - (1 << 30)
    total = product + nudge
    quotient = abs(total) // (1 << 31)  # C's division truncates
    return quotient if total >= 0 else -quotient


def saturating_shift_left(x: int, exponent: int) -> int:
    """gemmlowp's SaturatingRoundingMultiplyByPOT of a positive exponent."""
    threshold = (1 << (31 - exponent)) - 1
    if x > threshold:
        return _INT32_MAX
    if x < -threshold:
        return _INT32_MIN
    return x << exponent


def _one_over_one_plus_x(a: int) -> int:
    """gemmlowp's one_over_one_plus_x_for_x_in_0_1 of a Q0.31 raw value: Newton-Raphson
    in Q2.29 from 48/17 - 32/17 x half the denominator, three steps."""
    half_denominator = (a + _INT32_MAX + 1) // 2  # RoundingHalfSum(a, One), the sum > 0
    x = wrap32(1515870810 + doubling_high_mul(half_denominator, -1010580540))
    one = 1 << 29  # F2's one
    for _ in range(3):
        error = wrap32(one - doubling_high_mul(half_denominator, x))
        x = wrap32(x + saturating_shift_left(doubling_high_mul(x, error), 2))
    return saturating_shift_left(x, 1)  # ExactMulByPot<-1>, then Rescale<0>


def reciprocals() -> tuple[np.ndarray, np.ndarray]:
    """TFLM's GetReciprocal(x, 31) of x = 0 .. 255: each Q0.31 multiplier and its number
    of bits over the unit (x = 0, which TFLM never takes, gives 0 and 0)."""
    multipliers, shifts = [0], [0]
    for x in range(1, 256):
        zeros = 32 - x.bit_length()
        shifts.append(31 - zeros)
        shifted_minus_one = wrap32((x << zeros) - (1 << 31))
        multipliers.append(_one_over_one_plus_x(shifted_minus_one))
    return np.array(multipliers, np.int32), np.array(shifts, np.int32)


def div_exponents(numerators: np.ndarray, divisors: np.ndarray, output_shift: int) -> np.ndarray:
    """The exponent TFLM's int8 DIV requantizes each quotient by (the output's shift less
    the reciprocal's and the numerator's redundant sign bits), of numerators and divisors
    less their zero points (divisors not 0). Below -31 TFLM shifts an int32 by 32 or
    more, undefined in C: on x86 the count wraps, the quotient is not scaled down (it is
    here: 0, the value's rounding)."""
    _, shifts = reciprocals()
    numerators = np.where(divisors < 0, -numerators, numerators)
    magnitude = np.where(numerators < 0, -numerators - 1, numerators)
    sign_bits = 31 - np.ceil(np.log2(magnitude + 1)).astype(np.int64)
    return output_shift - shifts[np.abs(divisors)] - sign_bits


# ---- kernels


def _offset(x: Any, zero_point: int) -> Any:
    return x.astype("int32") - tirx.const(zero_point, "int32")


def mul(
    a: Any,
    b: Any,
    zero_points: tuple[int, int],
    output: int8.Requantized,
    bounds: int8.Bounds,
    shape: list[int],
) -> Any:
    """TFLM's quantized MUL of `a` and `b` broadcast into `shape`."""
    shapes = [[int(d) for d in t.shape] for t in (a, b)]

    def element(*i: Any) -> Any:
        left = _offset(a[int8.broadcast_index(shapes[0], i)], zero_points[0])
        right = _offset(b[int8.broadcast_index(shapes[1], i)], zero_points[1])
        return int8.requantized_within(left * right, output, bounds)

    return te.compute(shape, element, name="mul")


def squared_difference(
    a: Any,
    b: Any,
    operands: list[int8.AddOperand],
    output: int8.Requantized,
    bounds: int8.Bounds,
    shape: list[int],
) -> Any:
    """TFLM's int8 SQUARED_DIFFERENCE of `a` and `b` broadcast into `shape`."""
    tensors = (a, b)
    shift = _SQUARED_DIFFERENCE_LEFT_SHIFT

    def scaled(term: int, index: tuple[Any, ...]) -> Any:
        return int8.scaled_at(tensors[term], operands[term], index, shift)

    # The difference a reduction of two terms, kept in a local (as `int8.add`'s sum).
    term = te.reduce_axis((0, 2), "term")
    zero = tirx.const(0, "int32")
    difference = te.compute(
        shape,
        lambda *i: te.sum(tirx.Select(term == 0, scaled(0, i), zero - scaled(1, i)), axis=term),
        name="scaled_difference",
    )
    return te.compute(
        shape,
        lambda *i: int8.requantized_within(difference[i] * difference[i], output, bounds),
        name="squared_difference",
    )


def _redundant_sign_bits(x: Any) -> Any:
    """TFLite's CountLeadingSignBits of an int32 `x` in [-256, 255]: 31 less the bit length
    of x (of -x - 1 where x is negative)."""
    magnitude = tirx.Select(x < 0, tirx.const(-1, "int32") - x, x)
    length = sum(
        (
            tirx.Select(magnitude >= (1 << k), tirx.const(1, "int32"), tirx.const(0, "int32"))
            for k in range(9)
        ),
        tirx.const(0, "int32"),
    )
    return tirx.const(31, "int32") - length


def _kept(shape: list[int], value: Any, name: str) -> Any:
    """A stage of `value`'s elements written as a sum of one term: the lowering keeps a
    reduction in a local, where it inlines an elementwise stage into each of its readers
    (the DIV's quotient reads its operands a dozen times: TVM's simplifier then takes
    minutes)."""
    one = te.reduce_axis((0, 1), f"{name}_term")
    return te.compute(shape, lambda *i: te.sum(value(*i), axis=one), name=name)


def div(
    a: Any,
    b: Any,
    tables: tuple[Any, Any],
    zero_points: tuple[int, int],
    output: int8.Requantized,
    bounds: int8.Bounds,
    shape: list[int],
) -> Any:
    """TFLM's int8 DIV of `a` by `b` broadcast into `shape`; `tables` the reciprocals'
    multipliers and shifts (`reciprocals`)."""
    shapes = [[int(d) for d in t.shape] for t in (a, b)]
    multipliers, shifts = tables
    zero = tirx.const(0, "int32")

    def divisor(i: tuple[Any, ...]) -> Any:
        return _offset(b[int8.broadcast_index(shapes[1], i)], zero_points[1])

    def signed(*i: Any) -> Any:  # the numerator, its sign flipped with the divisor's
        numerator = _offset(a[int8.broadcast_index(shapes[0], i)], zero_points[0])
        return tirx.Select(divisor(i) < zero, zero - numerator, numerator)

    def magnitude(*i: Any) -> Any:
        return tirx.Select(divisor(i) < zero, zero - divisor(i), divisor(i))

    numerators = _kept(shape, signed, "numerator")
    divisors = _kept(shape, magnitude, "divisor")
    headrooms = _kept(shape, lambda *i: _redundant_sign_bits(numerators[i]), "headroom")

    def unscaled(*i: Any) -> Any:
        return multiply_by_quantized_multiplier(
            numerators[i], multipliers[divisors[i]], headrooms[i]
        )

    quotients = _kept(shape, unscaled, "quotient")
    exponents = _kept(
        shape,
        lambda *i: tirx.const(output.shift, "int32") - shifts[divisors[i]] - headrooms[i],
        "exponent",
    )

    def element(*i: Any) -> Any:
        scaled = multiply_by_quantized_multiplier(quotients[i], output.multiplier, exponents[i])
        return clamped(scaled.astype("int64") + tirx.const(output.zero_point, "int64"), *bounds)

    return te.compute(shape, element, name="div")


# ---- converters


def _activation(op: Any, name: str) -> int:
    """The fused activation of `op`'s options (SQUARED_DIFFERENCE has none)."""
    table = _OPTIONS.get(name)
    builtin = op.BuiltinOptions()
    if table is None or builtin is None:
        return 0
    options = getattr(importlib.import_module(f"tflite.{table}"), table)()
    options.Init(builtin.Bytes, builtin.Pos)
    return int(options.FusedActivationFunction())


def convert_quantized_binary(
    converter: Any, op: Any, name: str, bounds_of: Callable[[Any, int], int8.Bounds]
) -> Any:
    """The quantized ADD (int16), SUB, MUL, DIV or SQUARED_DIFFERENCE of `op` as TFLM
    computes it; None for other types (float32, int8 ADD: the caller's). `bounds_of`:
    an output tensor's clamp under a fused activation."""
    lhs, rhs = converter.get_input_tensors(op)
    (out,) = converter.get_output_tensors(op)
    quantizations = [scalar_quantization(t) for t in (lhs, rhs, out)]
    types = {converter.get_tensor_type_str(t.tensor.Type()) for t in (lhs, rhs, out)}
    dtype = types.pop()
    if types or dtype not in _TYPES[name] or None in quantizations:
        return None
    (s1, z1), (s2, z2), (so, zo) = (q for q in quantizations if q is not None)
    bounds = bounds_of(out, _activation(op, name))
    shapes = [tensor_shape(lhs.tensor), tensor_shape(rhs.tensor)]
    shape = tensor_shape(out.tensor)
    args = [converter.get_tensor_expr(lhs), converter.get_tensor_expr(rhs)]
    if name in ("ADD", "SUB"):
        left_shift = _INT16_ADD_LEFT_SHIFT if dtype == "int16" else int8.ADD_LEFT_SHIFT
        operands, multiplier, shift = int8.add_operands(shapes, [s1, s2], [z1, z2], so, left_shift)
        output = int8.Requantized(multiplier, shift, zo)

        def compute(a: Any, b: Any) -> Any:
            return int8.add(a, b, operands, output, bounds, shape, left_shift, name == "SUB")

    elif name == "MUL":
        output = int8.Requantized(*quantize_multiplier(float(s1) * float(s2) / float(so)), zo)

        def compute(a: Any, b: Any) -> Any:
            return mul(a, b, (z1, z2), output, bounds, shape)

    elif name == "SQUARED_DIFFERENCE":
        operands, multiplier, shift = _squared_difference_operands(shapes, [s1, s2], [z1, z2], so)
        output = int8.Requantized(multiplier, shift, zo)

        def compute(a: Any, b: Any) -> Any:
            return squared_difference(a, b, operands, output, bounds, shape)

    else:  # DIV: the multiplier in double (the wheel's CalculateOpDataDiv; float32 is off)
        real = float(s1) / (float(s2) * float(so))
        output = int8.Requantized(*quantize_multiplier(float(real)), zo)
        multipliers, shifts = reciprocals()
        args += [relax.const(multipliers, "int32"), relax.const(shifts, "int32")]

        def compute(a: Any, b: Any, inverses: Any, exponents: Any) -> Any:  # type: ignore[misc]
            return div(a, b, (inverses, exponents), (z1, z2), output, bounds, shape)

    hint = f"{name.lower()}_{dtype}"
    return converter.bb.call_te(compute, *args, primfunc_name_hint=hint)


# ---- HARD_SWISH


def _doubling_high_mul16(a: np.ndarray, b: int) -> np.ndarray:
    """gemmlowp's SaturatingRoundingDoublingHighMul of int16s (`a` an array)."""
    product = a.astype(np.int64) * b
    nudge = np.where(product >= 0, 1 << 14, 1 - (1 << 14))
    total = product + nudge
    result = np.sign(total) * (np.abs(total) // (1 << 15))
    return np.where((a == -32768) & (b == -32768), 32767, result).astype(np.int64)


def _rounding_divide16(x: np.ndarray, exponent: int) -> np.ndarray:
    """gemmlowp's RoundingDivideByPOT: x / 2^exponent, rounded half away from zero."""
    mask = (1 << exponent) - 1
    remainder = x & mask
    threshold = (mask >> 1) + (x < 0)
    return (x >> exponent) + (remainder > threshold)


def _saturating_left_shift16(x: np.ndarray, amount: int) -> np.ndarray:
    return np.clip(x * (1 << amount), -32768, 32767)


def _down_scaled(multiplier: int) -> int:
    """TFLite's DownScaleInt32ToInt16Multiplier."""
    if multiplier >= _INT32_MAX - (1 << 15):
        return 32767
    return (multiplier + (1 << 15)) >> 16


def hard_swish_table(source: tuple[float, int], target: tuple[float, int]) -> np.ndarray:
    """TFLM's int8 HARD_SWISH (HardSwishPrepare's multipliers, reference_ops::HardSwish's
    int16 arithmetic) of -128 .. 127, in that order. ValueError where TFLM refuses the
    scales (an output multiplier of 1 or more)."""
    hires = _F32(1 / 128) * _F32(source[0])
    output_multiplier, output_exponent = quantize_multiplier(float(hires / _F32(target[0])))
    if output_exponent > 0:
        raise ValueError("int8 HARD_SWISH of an input scale over 128 x its output scale's")
    reluish_multiplier, reluish_exponent = quantize_multiplier(float(hires / _F32(3 / 32768)))
    output16, reluish16 = _down_scaled(output_multiplier), _down_scaled(reluish_multiplier)
    hires_values = (np.arange(-128, 128, dtype=np.int64) - source[1]) * (1 << 7)
    preshift = _doubling_high_mul16(hires_values, output16)
    reluish = hires_values
    if reluish_exponent > 0:
        reluish = _saturating_left_shift16(reluish, reluish_exponent - 1)
    reluish = _doubling_high_mul16(reluish, reluish16)
    if reluish_exponent > 0:
        reluish = _saturating_left_shift16(reluish, 1)
    if reluish_exponent < 0:
        reluish = _rounding_divide16(reluish, -reluish_exponent)
    reluish = (reluish + (1 << 15)) >> 1
    # TFLite's SaturatingDoublingHighMul: the product / 2^15, truncated, no rounding.
    product = reluish * preshift
    truncated = np.sign(product) * (np.abs(product) // (1 << 15))
    outputs = _rounding_divide16(truncated, -output_exponent) + target[1]
    return np.clip(outputs, -128, 127).astype(np.int8)


def convert_int8_hard_swish(converter: Any, op: Any) -> Any:
    """The int8 HARD_SWISH of `op`: one kernel looking each input up in
    `hard_swish_table`; None for a float one."""
    (data,) = converter.get_input_tensors(op)
    (out,) = converter.get_output_tensors(op)
    source, target = scalar_quantization(data), scalar_quantization(out)
    if converter.get_tensor_type_str(data.tensor.Type()) != "int8":
        return None
    if source is None or target is None:
        raise OperatorRejected(
            "int8 HARD_SWISH other than TFLM's (one scale and zero point a tensor)"
        )
    try:
        table = hard_swish_table(source, target)
    except ValueError as error:
        raise OperatorRejected(f"{error} (TFLM refuses it)") from None

    def compute(x: Any, values: Any) -> Any:
        return te.compute(x.shape, lambda *i: values[x[i].astype("int32") + 128], name="hard_swish")

    return converter.bb.call_te(
        compute,
        converter.get_tensor_expr(data),
        relax.const(table, "int8"),
        primfunc_name_hint="hard_swish_int8",
    )
