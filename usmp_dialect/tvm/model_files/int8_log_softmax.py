"""TFLite's int8 LOG_SOFTMAX as TensorFlow Lite Micro's reference kernel computes it
(reference_ops::LogSoftmaxQuantized, gemmlowp's fixed point), where TVM's float path is a
step off on ties (tools/quantized_sweep.py):

    log_softmax_tables(input_scale) -> LogSoftmaxTables   the import-time part
    convert_int8_log_softmax(converter, op) -> LOG_SOFTMAX's call, or None for float32

Along the last axis, each value less its row's largest, d in -255 .. 0, is scaled to Q5.26
by input scale x 2^26 (capped at 2^31 - 1, as a multiplier and a left shift); its exp in
Q0.31 (gemmlowp's exp_on_negative_values) rescaled to Q12.19 is summed over the row where
d is not below the scaling's radius (`diff_min`). Both depend on d alone: 256-entry tables
computed here at import (`exp_terms`, `scaled`). The kernel sums the row's terms, takes
the sum's log in Q5.26 (TFLite's log_x_for_x_greater_than_or_equal_to_1: the sum
normalized by its leading zeros two ways, a rational polynomial in gemmlowp's
multiplications, the reciprocal by `one_over_one_plus_x_for_x_in_0_1`), and writes each
value's scaled d less that log, divided by 2^22 and rounded, plus 127, clamped; -128 where d
is at or below the log scaled back to input steps. TFLM takes an output of scale 16/256
and zero point 127 only; another is refused, as TFLM refuses it.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, NamedTuple

import numpy as np
from tvm import relax, te, tirx

from usmp_dialect.tvm.model_files.fixed_point import (
    multiply_by_quantized_multiplier,
    quantize_multiplier,
)
from usmp_dialect.tvm.model_files.onnx_operators import OperatorRejected
from usmp_dialect.tvm.model_files.quantized_arithmetic import (
    doubling_high_mul,
    saturating_shift_left,
    wrap32,
)
from usmp_dialect.tvm.model_files.tflite_tensors import scalar_quantization, tensor_shape

_INPUT_BITS = 5  # the scaled differences: Q5.26
_OUTPUT_BITS = 4
_ACCUMULATION_BITS = 12  # the sum of exps: Q12.19
_OUTPUT_QUANTIZATION = (16 / 256, 127)
_INT32_MIN, _INT32_MAX = -(2**31), 2**31 - 1
# gemmlowp's exp_on_negative_values: exp(-2^k) in Q0.31 for k = -2 .. 4.
_EXP_BARREL = (1672461947, 1302514674, 790015084, 290630308, 39332535, 720401, 242)
# TFLite's log_x_for_x_greater_than_or_equal_to_1_impl: its Q0.31 constants.
_LOG_2, _SQRT_SQRT_HALF, _SQRT_HALF, _ONE_QUARTER = 1488522236, 1805811301, 1518500250, 1 << 29
_ALPHA_N, _ALPHA_D, _ALPHA_I, _ALPHA_F = 117049297, 127690142, 1057819769, 638450708


class LogSoftmaxTables(NamedTuple):
    """TFLM's LOG_SOFTMAX parameters of an input scale, and its per-difference tables (d =
    -255 .. 0, at d + 255)."""

    exp_terms: np.ndarray
    """exp of the scaled d in Q12.19, 0 below `diff_min`."""
    scaled: np.ndarray
    """d in Q5.26."""
    diff_min: int
    reverse_multiplier: int
    reverse_shift: int


def _rounding_divide(x: int, exponent: int) -> int:
    """gemmlowp's RoundingDivideByPOT: x / 2^exponent rounded half away from zero."""
    mask = (1 << exponent) - 1
    threshold = (mask >> 1) + (1 if x < 0 else 0)
    return (x >> exponent) + (1 if x & mask > threshold else 0)


def _scaled_difference(d: int, multiplier: int, shift: int) -> int:
    """TFLite's MultiplyByQuantizedMultiplier of d, a left shift (d x 2^shift wraps as
    int32 arithmetic does where it does not fit: below `diff_min`, never read)."""
    return doubling_high_mul(wrap32(d << shift), multiplier)


def _exp_in_quarter(a: int) -> int:
    """gemmlowp's exp_on_interval_between_negative_one_quarter_and_0_excl (Q0.31)."""
    x = a + (1 << 28)
    x2 = doubling_high_mul(x, x)
    x3 = doubling_high_mul(x2, x)
    x4 = doubling_high_mul(x2, x2)
    poly = doubling_high_mul(_rounding_divide(x4, 2) + x3, 715827883) + x2
    return 1895147668 + doubling_high_mul(1895147668, x + _rounding_divide(poly, 1))


def _exp_on_negative(a: int) -> int:
    """gemmlowp's exp_on_negative_values of a Q5.26 value (Q0.31)."""
    quarter = 1 << (31 - _INPUT_BITS - 2)
    modulo = (a & (quarter - 1)) - quarter
    result = _exp_in_quarter(saturating_shift_left(modulo, _INPUT_BITS))
    remainder = modulo - a
    for exponent, multiplier in zip(range(-2, 5), _EXP_BARREL, strict=True):
        if remainder & (1 << (31 - _INPUT_BITS + exponent)):
            result = doubling_high_mul(result, multiplier)
    return _INT32_MAX if a == 0 else result


def log_softmax_tables(input_scale: float) -> LogSoftmaxTables:
    """TFLM's LogSoftmax prepare step (PreprocessLogSoftmaxScalingExp, beta 1) of
    `input_scale`, and the tables of the 256 differences."""
    real = min(float(input_scale) * (1 << (31 - _INPUT_BITS)), (1 << 31) - 1.0)
    multiplier, shift = quantize_multiplier(real)
    reverse_multiplier, reverse_shift = quantize_multiplier((1 << (31 - shift)) / multiplier)
    radius = ((1 << _INPUT_BITS) - 1) * (1 << (31 - _INPUT_BITS)) / (1 << shift)
    diff_min = -math.floor(radius)
    scaled = [_scaled_difference(d, multiplier, shift) for d in range(-255, 1)]
    exp_terms = [
        _rounding_divide(_exp_on_negative(s), _ACCUMULATION_BITS) if d >= diff_min else 0
        for d, s in zip(range(-255, 1), scaled, strict=True)
    ]
    return LogSoftmaxTables(
        np.array(exp_terms, np.int32),
        np.array(scaled, np.int32),
        diff_min,
        reverse_multiplier,
        reverse_shift,
    )


# ---- gemmlowp's fixed point on TIR int64 expressions holding int32 values


def _i64(value: int) -> Any:
    return tirx.const(value, "int64")


def _high_mul(a: Any, b: Any) -> Any:
    """SaturatingRoundingDoublingHighMul: (a b + 2^30) >> 31, the truncating division
    of gemmlowp's nudged product written as a shift (equal for both signs)."""
    return tirx.min((a * b + _i64(1 << 30)) >> _i64(31), _i64(_INT32_MAX))


def _clamp32(x: Any) -> Any:
    return tirx.max(tirx.min(x, _i64(_INT32_MAX)), _i64(_INT32_MIN))


def _shift_left(x: Any, exponent: Any) -> Any:
    """SaturatingRoundingMultiplyByPOT(Param) of a non-negative exponent."""
    power = _i64(1 << exponent) if isinstance(exponent, int) else _i64(1) << exponent
    return _clamp32(x * power)


def _divide(x: Any, exponent: int) -> Any:
    """RoundingDivideByPOT of a constant exponent."""
    below = tirx.Select(x < _i64(0), _i64(1), _i64(0))
    return (x + _i64(1 << (exponent - 1)) - below) >> _i64(exponent)


def _wrap(x: Any) -> Any:
    """int32 arithmetic's wrap."""
    return ((x + _i64(1 << 31)) & _i64(0xFFFFFFFF)) - _i64(1 << 31)


def _leading_zeros(x: Any) -> Any:
    """CountLeadingZeros of a positive int32."""
    one, zero = _i64(1), _i64(0)
    return _i64(32) - sum((tirx.Select(x >= _i64(1 << k), one, zero) for k in range(31)), zero)


def _log_of_sum(total: Any, kept: Callable[[Callable[..., Any], str], Any]) -> Any:
    """TFLite's log_x_for_x_greater_than_or_equal_to_1<5> of the Q12.19 `total` (a per-row
    stage): a stage of its Q5.26 logs. `kept(value, name)` makes a stage of each step
    (each reads the one before several times)."""
    quarter = _i64(_ONE_QUARTER >> (_INPUT_BITS + 1))  # Rescale<6>(1/4), exact
    z = lambda *i: total[i].astype("int64")  # noqa: E731
    headroom_a = kept(lambda *i: _leading_zeros(z(*i)), "log_headroom_a")
    z_b = kept(lambda *i: _high_mul(z(*i), _i64(_SQRT_HALF)), "log_z_b")
    headroom_b = kept(lambda *i: _leading_zeros(z_b[i]) - _i64(1), "log_headroom_b")

    def fraction(*i: Any) -> Any:
        r_a = _shift_left(
            _high_mul(_shift_left(z(*i), headroom_a[i] - _i64(1)), _i64(_SQRT_HALF)), 1
        )
        return tirx.min(r_a, _shift_left(z(*i), headroom_b[i]))

    def power_of_two(*i: Any) -> Any:
        scaled = 31 - _INPUT_BITS - 1
        a = _clamp32(_shift_left(_i64(_ACCUMULATION_BITS) - headroom_a[i], scaled) + quarter)
        b = _clamp32(_shift_left(_i64(_ACCUMULATION_BITS) - headroom_b[i], scaled) - quarter)
        return tirx.max(a, b)

    r = kept(fraction, "log_r")
    exponent = kept(power_of_two, "log_power_of_two")
    q = kept(lambda *i: _wrap(2 * _wrap(r[i] - _i64(_SQRT_SQRT_HALF))), "log_q")
    square = kept(lambda *i: _high_mul(q[i], q[i]), "log_q_squared")

    def numerator(*i: Any) -> Any:
        cubic = _high_mul(_high_mul(q[i], square[i]), _i64(_ALPHA_N))
        return _wrap(_high_mul(q[i], r[i]) + cubic)

    def denominator(*i: Any) -> Any:
        total_sum = r[i] + _i64(_SQRT_SQRT_HALF)  # RoundingHalfSum
        p = tirx.Select(
            total_sum >= _i64(0), (total_sum + 1) >> _i64(1), -((_i64(1) - total_sum) >> _i64(1))
        )
        inner = _wrap(_i64(_ALPHA_I) + q[i] + _high_mul(_i64(_ALPHA_D), square[i]))
        return _wrap(_high_mul(p, inner) + _high_mul(_i64(_ALPHA_F), q[i]))

    num = kept(numerator, "log_numerator")
    reciprocal = _one_over_one_plus(kept(denominator, "log_denominator"), kept)

    def log(*i: Any) -> Any:
        whole = _high_mul(exponent[i], _i64(_LOG_2))
        part = _high_mul(_divide(num[i], _INPUT_BITS + 1), reciprocal[i])
        return _shift_left(_wrap(whole + part), 1)

    return kept(log, "log_of_sum")


def _one_over_one_plus(a: Any, kept: Callable[[Callable[..., Any], str], Any]) -> Any:
    """gemmlowp's one_over_one_plus_x_for_x_in_0_1 of a Q0.31 stage: Newton-Raphson in
    Q2.29, three steps, each a stage."""
    half = kept(lambda *i: (a[i] + _i64(1 << 31)) >> _i64(1), "reciprocal_half")
    x = kept(
        lambda *i: _wrap(_i64(1515870810) + _high_mul(half[i], _i64(-1010580540))), "reciprocal_0"
    )
    for step in range(3):
        previous = x

        def refined(*i: Any, x: Any = previous) -> Any:
            error = _wrap(_i64(1 << 29) - _high_mul(half[i], x[i]))
            return _wrap(x[i] + _shift_left(_high_mul(x[i], error), 2))

        x = kept(refined, f"reciprocal_{step + 1}")
    final = x
    return kept(lambda *i: _shift_left(final[i], 1), "reciprocal")


def log_softmax(x: Any, exp_terms: Any, scaled: Any, tables: LogSoftmaxTables) -> Any:
    """TFLM's int8 LOG_SOFTMAX of `x` (rank 2 or more) along its last axis; `exp_terms`
    and `scaled` the tables' tensors."""
    shape = [int(d) for d in x.shape]
    rows, depth = shape[:-1], shape[-1]

    def kept(value: Callable[..., Any], name: str) -> Any:
        # A stage written as a sum of one term: the lowering keeps a reduction in a
        # local (an elementwise stage it inlines into each reader: minutes of TVM's
        # simplifier here).
        one = te.reduce_axis((0, 1), f"{name}_term")
        return te.compute(rows, lambda *i: te.sum(value(*i), axis=one), name=name)

    k = te.reduce_axis((0, depth), "k")
    largest = te.compute(
        rows, lambda *i: te.max(x[(*i, k)].astype("int32"), axis=k), name="row_max"
    )
    j = te.reduce_axis((0, depth), "j")

    def term(*i: Any) -> Any:
        return exp_terms[x[(*i, j)].astype("int32") - largest[i] + 255].astype("int64")

    total = te.compute(rows, lambda *i: te.sum(term(*i), axis=j), name="sum_of_exps")
    logs = _log_of_sum(total, kept)

    def bound(*i: Any) -> Any:
        shifted = _wrap(logs[i] + _i64(_INT32_MIN)).astype("int32")
        back = multiply_by_quantized_multiplier(
            shifted, tables.reverse_multiplier, tables.reverse_shift
        ).astype("int64")
        return tirx.max(_i64(tables.diff_min - 1), back)

    bounds = kept(bound, "log_bound")

    def element(*index: Any) -> Any:
        i = index[:-1]
        d = x[index].astype("int32") - largest[i]
        value = _divide(scaled[d + 255].astype("int64") - logs[i], 31 - _INPUT_BITS - _OUTPUT_BITS)
        inside = tirx.max(tirx.min(value + _i64(127), _i64(127)), _i64(-128)).astype("int8")
        return tirx.Select(d.astype("int64") > bounds[i], inside, tirx.const(-128, "int8"))

    return te.compute(shape, element, name="log_softmax")


def _written(quantization: tuple[float, int] | None) -> str:
    return "none" if quantization is None else f"({quantization[0]:g}, {quantization[1]})"


def convert_int8_log_softmax(converter: Any, op: Any) -> Any:
    """The int8 LOG_SOFTMAX of `op` as TFLM computes it; None for a float one."""
    (data,) = converter.get_input_tensors(op)
    (out,) = converter.get_output_tensors(op)
    if converter.get_tensor_type_str(data.tensor.Type()) != "int8":
        return None
    source, target = scalar_quantization(data), scalar_quantization(out)
    if source is None or target is None or not np.allclose(target, _OUTPUT_QUANTIZATION, 0, 0):
        raise OperatorRejected(
            f"int8 LOG_SOFTMAX of output quantization {_written(target)} (TFLM takes "
            "(0.0625, 127) only, and an input of one scale and zero point)"
        )
    tables = log_softmax_tables(source[0])
    shape = tensor_shape(data.tensor)
    expr = converter.get_tensor_expr(data)
    if len(shape) < 2:  # rows of the last axis: one row
        expr = converter.bb.emit(relax.op.reshape(expr, [1, *shape]))

    def compute(x: Any, exp_terms: Any, scaled: Any) -> Any:
        return log_softmax(x, exp_terms, scaled, tables)

    call = converter.bb.call_te(
        compute,
        expr,
        relax.const(tables.exp_terms, "int32"),
        relax.const(tables.scaled, "int32"),
        primfunc_name_hint="log_softmax_int8",
    )
    return relax.op.reshape(call, shape) if len(shape) < 2 else call
