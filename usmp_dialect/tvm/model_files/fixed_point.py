"""TensorFlow Lite Micro's fixed-point requantization, the arithmetic its int8 kernels end
with, as TE/TIR expressions:

    quantize_multiplier(real) -> (multiplier, shift)       TFLite's QuantizeMultiplier
    multiply_by_quantized_multiplier(x, multiplier, shift)  int32 x -> int32, TFLite's
                                                            MultiplyByQuantizedMultiplier
    multiply_wide_by_quantized_multiplier(x, multiplier, shift)
                                                            int64 x (16x8 kernels) -> int32

A real multiplier m (input scale x weight scale / output scale) is written as a Q31
`multiplier` in [2^30, 2^31) and a power of two `shift`: m = multiplier / 2^31 * 2^shift.
The `tflite-micro` wheel is built with TFLite's default double rounding (not
TFLITE_SINGLE_ROUNDING): x * 2^max(shift, 0) is multiplied by the multiplier, doubled and
its high 32 bits kept, rounded half up (gemmlowp's SaturatingRoundingDoublingHighMul),
then divided by 2^max(-shift, 0), rounded half away from zero (gemmlowp's
RoundingDivideByPOT): tests/test_fixed_point.py, and the int8 models of
tests/test_int8_kernels.py equal to the wheel's outputs. The int64 accumulator of a 16x8 kernel is
multiplied by the multiplier rounded to 16 bits instead, then shifted with one rounding
(half up), the same in both builds.
"""

from __future__ import annotations

import math
from typing import Any

_INT32_MIN = -(2**31)
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
    from tvm import tirx

    return tirx.const(value, "int64") if isinstance(value, int) else value.astype("int64")


def multiply_by_quantized_multiplier(x: Any, multiplier: Any, shift: Any) -> Any:
    """TFLite's MultiplyByQuantizedMultiplier (double rounding) of the int32 expression
    `x` by `multiplier` and `shift` (int32 expressions or ints), as an int32 expression
    computed in int64."""
    from tvm import tirx

    wide, factor, power = _int64(x), _int64(multiplier), _int64(shift)
    zero = tirx.const(0, "int64")
    # x * 2^left_shift is int32 arithmetic in TFLite: it wraps past int32.
    shifted = (wide << tirx.max(power, zero)).astype("int32").astype("int64")
    product = shifted * factor
    nudge = tirx.Select(
        product >= zero, tirx.const(1 << 30, "int64"), tirx.const(1 - (1 << 30), "int64")
    )
    high = tirx.truncdiv(product + nudge, tirx.const(1 << 31, "int64"))
    # The one product whose doubled high half overflows: INT32_MIN * INT32_MIN.
    overflow = tirx.all(
        shifted == tirx.const(_INT32_MIN, "int64"), factor == tirx.const(_INT32_MIN, "int64")
    )
    high = tirx.Select(overflow, tirx.const(_INT32_MAX, "int64"), high)
    exponent = tirx.max(-power, zero)
    mask = (tirx.const(1, "int64") << exponent) - tirx.const(1, "int64")
    remainder = high & mask
    threshold = (mask >> tirx.const(1, "int64")) + tirx.Select(
        high < zero, tirx.const(1, "int64"), zero
    )
    rounded = (high >> exponent) + tirx.Select(remainder > threshold, tirx.const(1, "int64"), zero)
    return rounded.astype("int32")


def multiply_wide_by_quantized_multiplier(x: Any, multiplier: Any, shift: Any) -> Any:
    """TFLite's MultiplyByQuantizedMultiplier of the int64 expression `x` (a 16x8
    kernel's accumulator, within +-2^47): the multiplier rounded to its high 16 bits
    (0x7FFF from 0x7FFF0000 up), x times it shifted right by 15 - shift with one rounding
    half up; an int32 expression."""
    from tvm import tirx

    factor, power = _int64(multiplier), _int64(shift)
    one = tirx.const(1, "int64")
    reduced = tirx.Select(
        factor < tirx.const(0x7FFF0000, "int64"),
        (factor + tirx.const(1 << 15, "int64")) >> tirx.const(16, "int64"),
        tirx.const(0x7FFF, "int64"),
    )
    total = tirx.const(15, "int64") - power
    return ((_int64(x) * reduced + (one << (total - one))) >> total).astype("int32")
