"""TensorFlow Lite Micro's fixed-point requantization, the arithmetic its int8 kernels end
with, as TE/TIR expressions:

    quantize_multiplier(real) -> (multiplier, shift)       TFLite's QuantizeMultiplier
    multiply_by_quantized_multiplier(x, multiplier, shift)  int32 x -> int32, TFLite's
                                                            MultiplyByQuantizedMultiplier
    multiply_int64_by_quantized_multiplier(x, multiplier, shift)  its int64 overload
                                                            (TFLM's 16x8 kernels)
    requantized(x, multiplier, shift, zero_point)           that, plus a zero point
    clamped(x, low, high, dtype)                            an activation's clamp

A real multiplier m (input scale x weight scale / output scale) is written as a Q31
`multiplier` in [2^30, 2^31) and a power of two `shift`: m = multiplier / 2^31 * 2^shift.
The `tflite-micro` wheel is built with TFLite's default double rounding (not
TFLITE_SINGLE_ROUNDING): x * 2^max(shift, 0) is multiplied by the multiplier, doubled and
its high 32 bits kept, rounded half up (gemmlowp's SaturatingRoundingDoublingHighMul),
then divided by 2^max(-shift, 0), rounded half away from zero (gemmlowp's
RoundingDivideByPOT): tests/test_fixed_point.py, and the int8 models of
tests/test_int8_kernels.py equal to the wheel's outputs (single rounding is a step off on
some).
"""

from __future__ import annotations

import math
from typing import Any

from tvm import tirx

_INT32_MAX = 2**31 - 1


def quantize_multiplier(real: float) -> tuple[int, int]:
    """TFLite's QuantizeMultiplier of `real` (a double): (multiplier, shift), `real` =
    multiplier * 2^(shift - 31); a multiplier below 2^-31 is 0 (flushed, shift 0)."""
    if real == 0.0:
        return 0, 0
    fraction, shift = math.frexp(real)
    scaled = fraction * 2.0**31  # exact: a power of two
    # std::round: half away from zero (exact here, the half is far above the ulp).
    multiplier = int(math.copysign(math.floor(abs(scaled) + 0.5), scaled))
    if multiplier == 2**31:
        multiplier //= 2
        shift += 1
    if shift < -31:
        return 0, 0
    return multiplier, shift


def _int64(value: Any) -> Any:
    return tirx.const(value, "int64") if isinstance(value, int) else value.astype("int64")


def multiply_by_quantized_multiplier(x: Any, multiplier: Any, shift: Any) -> Any:
    """TFLite's MultiplyByQuantizedMultiplier (double rounding) of the int32 expression
    `x` by `multiplier` and `shift` (int32 expressions or ints), as an int32 expression
    computed in int64. gemmlowp's two roundings are written as shifts, each operand read
    twice at most (TE shares no subexpression, and TVM's simplifier takes seconds on a
    kernel whose expression reads them a dozen times): its doubling high multiply, a
    truncating division of product + (2^30 or 1 - 2^30 by the product's sign) by 2^31,
    is (product + 2^30) >> 31; its division by 2^e, rounded half away from zero, is
    (high + 2^(e-1) - [high < 0 and e > 0]) >> e.

    Written so that the C of TVM's code generator has no undefined behaviour (C11 6.5.7,
    6.5p5): the left shift of x, which may be negative, is a multiplication by 2^shift
    (shift at most 31: |x| < 2^32 keeps the product in int64), and its wrap to int32 is
    a mask, not a narrowing cast. What it keeps implementation-defined is `>>` of a
    negative value, which GCC and Clang define as arithmetic (their manuals' "Integers"
    chapter), as every compiler for a two's complement target does."""
    zero, one = _int64(0), _int64(1)
    power = _int64(shift)
    # x * 2^left_shift is int32 arithmetic in TFLite: it wraps past int32.
    scaled = _int64(x) * (one << tirx.min(tirx.max(power, zero), _int64(31)))
    half_range = _int64(1 << 31)
    shifted = ((scaled + half_range) & _int64(0xFFFFFFFF)) - half_range
    factor = _int64(multiplier)
    # Saturated: the one product whose doubled high half overflows int32, INT32_MIN *
    # INT32_MIN, is the one whose high half is 2^31 (a comparison of the operands instead
    # takes TVM's simplifier twice as long on a kernel).
    high = tirx.min((shifted * factor + _int64(1 << 30)) >> _int64(31), _int64(_INT32_MAX))
    exponent = tirx.max(-power, zero)
    below = tirx.Select(tirx.all(high < zero, exponent > zero), one, zero)
    # In int32's range: the cast is exact.
    return ((high + ((one << exponent) >> one) - below) >> exponent).astype("int32")


def multiply_int64_by_quantized_multiplier(x: Any, multiplier: Any, shift: Any) -> Any:
    """TFLite's MultiplyByQuantizedMultiplier of an int64 `x` (the accumulator of TFLM's
    int16-activation kernels), as an int32 expression: the multiplier rounded to 15 bits
    ((multiplier + 2^15) >> 16, 0x7FFF from 0x7FFF0000 on), x times it plus half of
    2^(15 - shift), shifted right by 15 - shift, the int64 result cut to int32 (C's
    conversion, a wrap: TFLM asserts it fits). One rounding, in both of TFLite's builds."""
    factor = _int64(multiplier)
    reduced = tirx.Select(
        factor < _int64(0x7FFF0000), (factor + _int64(1 << 15)) >> _int64(16), _int64(0x7FFF)
    )
    total_shift = _int64(15) - _int64(shift)
    product = _int64(x) * reduced + (_int64(1) << (total_shift - _int64(1)))
    half_range = _int64(1 << 31)
    wrapped = (((product >> total_shift) + half_range) & _int64(0xFFFFFFFF)) - half_range
    return wrapped.astype("int32")


def requantized(x: Any, multiplier: Any, shift: Any, zero_point: int) -> Any:
    """The int32 expression `x` requantized (`multiply_by_quantized_multiplier`) plus the
    output's zero point: how each of TFLM's int8 kernels ends, but for its clamp. An
    int64 expression: the sum may pass int32's range (signed overflow, undefined in C),
    the clamp brings it back."""
    scaled = multiply_by_quantized_multiplier(x, multiplier, shift)
    return scaled.astype("int64") + tirx.const(zero_point, "int64")


def clamped(x: Any, low: int, high: int, dtype: str) -> Any:
    """The integer expression `x` clamped to [low, high] (a fused activation's range in
    output values, within `dtype`'s) and cast to the output's `dtype`: a cast of a value
    in range, exact."""
    integer = str(x.ty)
    bounds = tirx.const(low, integer), tirx.const(high, integer)
    return tirx.min(tirx.max(x, bounds[0]), bounds[1]).astype(dtype)
