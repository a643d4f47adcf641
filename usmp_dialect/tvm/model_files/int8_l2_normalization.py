"""TFLite's int8 L2_NORMALIZATION as TensorFlow Lite Micro's reference kernel computes it
(reference_integer_ops l2normalization.h), where TVM's frontend has none:

    l2_normalization(x, zero_point) -> te.Tensor
    convert_int8_l2_normalization(converter, op) -> the operator's call

Along the last axis, each row's sum of squares of (value - zero point), in int32, gives
its inverse square root as a multiplier and shift (TFLite's
GetInvSqrtQuantizedMultiplierExp): the sum brought to [2^27, 2^29) by pairs of bits
(divided by 4 once at 2^29 and above), five Newton-Raphson steps of 1 / sqrt in gemmlowp's
fixed point with 3 integer bits from 1, times sqrt(2) / 2 (a sum of 0 or 1 takes the
largest multiplier). Each value less the zero point is multiplied by it
(MultiplyByQuantizedMultiplier, 7 more bits of left shift: the output is in 1/128ths)
and clamped to int8. TFLM adds no output zero point and reads no output scale.
"""

from __future__ import annotations

from typing import Any

from tvm import te, tirx

from usmp_dialect.tvm.model_files.fixed_point import clamped, multiply_by_quantized_multiplier
from usmp_dialect.tvm.model_files.onnx_operators import OperatorRejected
from usmp_dialect.tvm.model_files.tflite_tensors import scalar_quantization

_INT32_MAX = 2**31 - 1
_NEWTON_STEPS = 5
_HALF_THREE = (1 << 28) + (1 << 27)  # 1.5 with 3 integer bits
_ONE = 1 << 28  # 1.0 with 3 integer bits
_HALF_SQRT_2 = 1518500250  # sqrt(2) / 2 with 0 integer bits
_OUTPUT_BITS = 7


def _i64(value: int) -> Any:
    return tirx.const(value, "int64")


def _doubling_high(a: Any, b: Any) -> Any:
    """gemmlowp's SaturatingRoundingDoublingHighMul of two int64 expressions holding
    int32 values: (a x b + 2^30, or 1 - 2^30 when negative) / 2^31 truncated, saturated."""
    product = a * b
    nudge = tirx.Select(product >= _i64(0), _i64(1 << 30), _i64(1 - (1 << 30)))
    return tirx.min(tirx.truncdiv(product + nudge, _i64(1 << 31)), _i64(_INT32_MAX))


def _saturating_shift_left(x: Any, exponent: int) -> Any:
    """gemmlowp's SaturatingRoundingMultiplyByPOT of a positive `exponent`."""
    threshold = (1 << (31 - exponent)) - 1
    shifted = x * _i64(1 << exponent)
    return tirx.Select(
        x > _i64(threshold),
        _i64(_INT32_MAX),
        tirx.Select(x < _i64(-threshold), _i64(-(1 << 31)), shifted),
    )


def l2_normalization(x: Any, zero_point: int) -> Any:
    """TFLM's int8 L2Normalization of `x` along its last axis."""
    *outer, depth = (int(d) for d in x.shape)
    zero = tirx.const(zero_point, "int32")
    c = te.reduce_axis((0, depth), "c")

    def centred(index: tuple[Any, ...]) -> Any:
        return x[index].astype("int32") - zero

    squares = te.compute(
        outer,
        lambda *i: te.sum(centred((*i, c)) * centred((*i, c)), axis=c),
        name="sum_of_squares",
    )
    big = 1 << 29

    def reduced(i: tuple[Any, ...]) -> Any:  # below 2^29, as an int64
        total = squares[i].astype("int64")
        return tirx.Select(total >= _i64(big), tirx.truncdiv(total, _i64(4)), total)

    bit = te.reduce_axis((1, 32), "bit")
    zeros = te.compute(
        outer,
        lambda *i: te.sum(
            tirx.Select(reduced(i) < (_i64(1) << bit.var.astype("int64")), _i64(1), _i64(0)),
            axis=bit,
        ),
        name="leading_zeros",
    )

    def pairs(i: tuple[Any, ...]) -> Any:  # the bit pairs the sum is shifted left by
        return tirx.truncdiv(zeros[i] - _i64(1), _i64(2)) - _i64(1)

    half_input = _kept(
        outer,
        lambda *i: _rounding_half((reduced(i) << (_i64(2) * pairs(i))) >> _i64(1)),
        "half_input",
    )
    estimate = te.compute(outer, lambda *i: _i64(_ONE), name="inv_sqrt_0")
    for step in range(_NEWTON_STEPS):
        estimate = _newton_step(estimate, half_input, step)

    def scaling(i: tuple[Any, ...]) -> tuple[Any, Any]:
        """The row's multiplier and left shift (int64)."""
        shift = _i64(11) + tirx.Select(squares[i] >= big, _i64(1), _i64(0)) - pairs(i)
        raw = _doubling_high(estimate[i], _i64(_HALF_SQRT_2))
        negative = shift < _i64(0)
        multiplier = tirx.Select(negative, raw << (_i64(0) - shift), raw)
        shift = tirx.Select(negative, _i64(0), shift)
        tiny = squares[i] <= 1
        return (
            tirx.Select(tiny, _i64(_INT32_MAX), multiplier),
            tirx.Select(tiny, _i64(0), _i64(0) - shift),
        )

    def element(*index: Any) -> Any:
        multiplier, shift = scaling(index[:-1])
        scaled = multiply_by_quantized_multiplier(
            centred(index), multiplier.astype("int32"), shift + _i64(_OUTPUT_BITS)
        )
        return clamped(scaled, -128, 127, "int8")

    return te.compute(x.shape, element, name="l2_normalization")


def _kept(shape: Any, value: Any, name: str) -> Any:
    """A stage of `value(*index)` the lowering keeps in a buffer of its own: a reduction
    of one term (an elementwise stage is inlined where it is read, and the Newton steps,
    each reading the last a few times, would grow an expression of 4^5 copies)."""
    one = te.reduce_axis((0, 1), f"{name}_term")
    return te.compute(shape, lambda *i: te.sum(value(*i), axis=one), name=name)


def _newton_step(estimate: Any, half_input: Any, step: int) -> Any:
    """One Newton-Raphson step of 1 / sqrt in 3 integer bits: x (3 - input x x^2) / 2,
    the cube and the difference brought back from 9 and 6 integer bits."""
    shape = estimate.shape

    def cubed(*i: Any) -> Any:
        x = estimate[i]
        return _saturating_shift_left(_doubling_high(_doubling_high(x, x), x), 6)

    cube = _kept(shape, cubed, f"cube_{step}")

    def stepped(*i: Any) -> Any:
        halves = _doubling_high(_i64(_HALF_THREE), estimate[i])
        return _saturating_shift_left(halves - _doubling_high(half_input[i], cube[i]), 3)

    return _kept(shape, stepped, f"inv_sqrt_{step + 1}")


def _rounding_half(x: Any) -> Any:
    """gemmlowp's RoundingDivideByPOT by 2 of a non-negative int64 expression."""
    return (x + _i64(1)) >> _i64(1)


def convert_int8_l2_normalization(converter: Any, op: Any) -> Any:
    """The int8 L2_NORMALIZATION of `op`, one kernel."""
    from tflite.L2NormOptions import L2NormOptions

    (data,) = converter.get_input_tensors(op)
    (out,) = converter.get_output_tensors(op)
    source = scalar_quantization(data)
    types = {converter.get_tensor_type_str(t.tensor.Type()) for t in (data, out)}
    if types != {"int8"} or source is None:
        raise OperatorRejected(
            "quantized L2_NORMALIZATION other than TFLM's int8 one (int8 input and output, "
            "one scale)"
        )
    if op.BuiltinOptionsType():
        options = L2NormOptions()
        table = op.BuiltinOptions()
        options.Init(table.Bytes, table.Pos)
        if options.FusedActivationFunction():
            raise OperatorRejected("L2_NORMALIZATION with a fused activation (TFLM takes none)")
    zero_point = source[1]
    return converter.bb.call_te(
        lambda x: l2_normalization(x, zero_point),
        converter.get_tensor_expr(data),
        primfunc_name_hint="l2_normalization_int8",
    )
