"""TFLite's int16 LOGISTIC, TANH and SOFTMAX, and int8 ELU, as TensorFlow Lite Micro's
reference kernels compute them (reference_integer_ops logistic.h and tanh.h,
reference_ops SoftmaxInt16, elu.cc's lookup table), where TVM's frontend computes them in
float32 and is a step or two off (or, ELU, refuses it):

    squash_scaling(scale, power_of_two_shifts) -> (multiplier, right shift)
    convert_int16_squash(converter, op, name)  -> the operator's call (LOGISTIC, TANH)
    softmax_tables() -> (exp table, 1 / (1 + x) table)   TFLM's LUTPopulate<int16_t>
    convert_int16_softmax(converter, op)       -> SOFTMAX's call
    elu_table(input, output)                    TFLM's int8 ELU table
    convert_int8_elu(converter, op)            -> ELU's call

Each input value is brought to the table's scale, 3 x 2^12 steps a unit (x multiplier +
rounding) >> right shift, then squashed by the interpolated 256-entry sigmoid table the
int8 LSTM reads too (`tflite_lstm_int8`: `int16_logistic`, `int16_tanh`); the output is
in Q0.15. TFLM's prepare step chooses the scaling: for an input scale that is a power of
two with 12 + its log2 a small left shift (0 for LOGISTIC, 0 or 1 for TANH), 3 << that
shift; else the input scale x 3 x 4096 doubled until past 32767 / 2 (at most 31 times),
truncated, and the number of doublings as the right shift. TFLM takes an input and an
output of zero point 0 and an output scale of 2^-15 only: another is refused here, as
TFLM refuses it.

SOFTMAX, along the last axis: each value less its row's largest, multiplied by input
scale x beta / (10 / 65535) (TFLite's MultiplyByQuantizedMultiplier), plus 32767, clamped
to int16, looked up in a 513-entry table of exp over [-10, 0] with 7 bits of
interpolation (TFLM's LUTLookup); the row's sum normalized by its leading zeros
(shifted left by their count less one, then right by 14, rounded), less 3 x 2^15,
clamped, looked up in the table of 1 / (1 + x); each exp times that, shifted right by 31
less the leading zeros, rounded, clamped to [0, 32767]. TFLM fills both tables when it
prepares the operator, in float32 (its LUTPopulate<int16_t>: 512 samples, each less half
the error of interpolating to its interval's midpoint): `softmax_tables` fills them so
at import, constants of the kernel.

int8 ELU: TFLM's prepare step fills a table of the 256 int8 values in float32 (each
dequantized, exp(x) - 1 where it is negative, times 1 / output scale, rounded half away
from zero, plus the output's zero point, clamped); its kernel looks each input up.
`elu_table` fills it so, a constant of the kernel.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import tvm
from tvm import relax, te

from usmp_dialect.tvm.model_files.fixed_point import (
    clamped,
    multiply_by_quantized_multiplier,
    quantize_multiplier,
)
from usmp_dialect.tvm.model_files.onnx_operators import OperatorRejected
from usmp_dialect.tvm.model_files.tflite_lstm_int8 import (
    SIGMOID_TABLE,
    int16_logistic,
    int16_tanh,
)
from usmp_dialect.tvm.model_files.tflite_tensors import scalar_quantization

_SQUASHES = {"LOGISTIC": (int16_logistic, (0,)), "TANH": (int16_tanh, (0, 1))}
_TABLE_BITS = 12  # the table's input: 3 x 2^12 steps a unit (Q3.12 times 3)


def _checked_log2(scale: float) -> tuple[int, bool]:
    """TFLite's CheckedLog2 of a float32 scale: its log2 in float32 rounded half away from
    zero, and whether the scale is a power of two (within 1e-3 of the log)."""
    log2 = np.float32(np.log(np.float32(scale))) * np.float32(1.0 / np.log(np.float32(2.0)))
    rounded = np.copysign(np.floor(np.abs(log2) + np.float32(0.5)), log2)
    return int(rounded), bool(abs(log2 - rounded) < 1e-3)


def squash_scaling(scale: float, power_of_two_shifts: tuple[int, ...]) -> tuple[int, int]:
    """TFLM's (input multiplier, input left shift) of an int16 LOGISTIC or TANH of input
    `scale`, as its kernel applies them: (multiplier, right shift)."""
    log2, power_of_two = _checked_log2(scale)
    shift = 15 - 3 + log2
    if power_of_two and shift in power_of_two_shifts:
        return 3 << shift, 0
    multiplier, shift = float(np.float32(scale)) * 4096.0 * 3.0, 0
    while multiplier <= 32767.0 / 2.0 and shift <= 30:
        shift += 1
        multiplier *= 2.0
    return int(multiplier), shift


def convert_int16_squash(converter: Any, op: Any, name: str) -> Any:
    """The int16 LOGISTIC or TANH (`name`) of `op`, one kernel reading its input and the
    sigmoid table (a constant)."""
    (data,) = converter.get_input_tensors(op)
    (out,) = converter.get_output_tensors(op)
    source, target = scalar_quantization(data), scalar_quantization(out)
    if source is None or target is None or source[1] or target[1]:
        raise OperatorRejected(
            f"int16 {name} with a zero point other than 0 or without one scale (TFLM "
            "takes zero points 0)"
        )
    if np.float32(target[0]) != np.float32(2.0**-15):
        raise OperatorRejected(
            f"int16 {name} of output scale {target[0]:g} (TFLM takes 2^-15 only)"
        )
    squash, shifts = _SQUASHES[name]
    scaling = squash_scaling(source[0], shifts)

    def compute(x: Any, table: Any) -> Any:
        return te.compute(
            x.shape, lambda *i: squash(x[i].astype("int32"), table, scaling), name=name.lower()
        )

    table = relax.const(SIGMOID_TABLE, "uint16")
    return converter.bb.call_te(
        compute,
        converter.get_tensor_expr(data),
        table,
        primfunc_name_hint=f"{name.lower()}_int16",
    )


_F32 = np.float32
_INT16_RANGE = 65535  # int16's max - min
_LUT_STEPS = 512


def _round_half_away(x: np.ndarray) -> np.ndarray:
    """TfLiteRound (std::round) of float32 values."""
    return np.copysign(np.floor(np.abs(x) + _F32(0.5)), x).astype(_F32)


def _lut(input_scale: Any, input_zero_point: int, transform: Any) -> np.ndarray:
    """TFLite's LUTPopulateInt16<float> of `transform` (float32 in, float32 out) to an
    output of scale 2 / 65535 and zero point 0: 513 int16 entries."""
    output_scale = _F32(2.0) / _F32(_INT16_RANGE)
    input_min = input_scale * _F32(-32768 - input_zero_point)
    input_max = input_scale * _F32(32767 - input_zero_point)
    output_min, output_max = output_scale * _F32(-32768), output_scale * _F32(32767)
    step = (input_max - input_min) / _F32(_LUT_STEPS)
    half_step = step / _F32(2)
    inverse = _F32(_INT16_RANGE + 1) / (output_max - output_min)
    at = input_min + np.arange(_LUT_STEPS + 1, dtype=_F32) * step
    values = transform(at)
    midpoints = transform(at[:-1] + half_step)
    samples = _round_half_away(values[:-1] * inverse)
    interpolated = _round_half_away((values[1:] * inverse + samples) / _F32(2))
    errors = interpolated - _round_half_away(midpoints * inverse)
    bias = _round_half_away(errors / _F32(2))
    last = _round_half_away(transform(np.array([input_max], _F32)) * inverse)
    table = np.concatenate([samples - bias, last])
    return np.clip(table, -32768, 32767).astype(np.int16)


def _exp(x: np.ndarray) -> np.ndarray:
    """expf, correctly rounded (C's is within an ulp; no table entry TFLM's tests reach
    lies that close to a rounding boundary)."""
    return np.exp(x.astype(np.float64)).astype(_F32)


def softmax_tables() -> tuple[np.ndarray, np.ndarray]:
    """TFLM's int16 SOFTMAX tables: exp over [-10, 0] (input scale 10 / 65535, zero point
    32767) and 1 / (1 + x) over [0, 1] (scale 1 / 65535, zero point -32768)."""
    exp_table = _lut(_F32(10.0) / _F32(_INT16_RANGE), 32767, _exp)
    reciprocal = _lut(_F32(1.0) / _F32(_INT16_RANGE), -32768, lambda x: _F32(1.0) / (_F32(1.0) + x))
    return exp_table, reciprocal


def _int(value: int, dtype: str = "int32") -> Any:
    return tvm.tirx.const(value, dtype)


def _lookup(value: Any, table: Any) -> Any:
    """TFLite's LUTLookup of the int16 `value` (an int32 expression) in a 513-entry
    table: the high 9 bits index it, the low 7 interpolate, rounded."""
    index = _int(256) + (value >> _int(7))
    offset = value & _int(0x7F)
    base = table[index].astype("int32")
    slope = (table[index + 1].astype("int32") - base).astype("int16").astype("int32")
    delta = (slope * offset + _int(64)) >> _int(7)
    return (base + delta).astype("int16").astype("int32")


def _softmax(x: Any, exp_table: Any, reciprocal: Any, scaling: tuple[int, int]) -> Any:
    """TFLM's SoftmaxInt16 of `x` along its last axis."""
    *outer, depth = (int(d) for d in x.shape)
    c = te.reduce_axis((0, depth), "c")
    largest = te.compute(
        outer, lambda *i: te.max(x[(*i, c)].astype("int32"), axis=c), name="row_max"
    )

    def exp_at(*i: Any) -> Any:
        diff = x[i].astype("int32") - largest[i[:-1]]
        scaled = multiply_by_quantized_multiplier(diff, *scaling) + _int(32767)
        return _lookup(clamped(scaled, -32768, 32767, "int32"), exp_table)

    exps = te.compute(x.shape, exp_at, name="exps")
    k = te.reduce_axis((0, depth), "k")
    sums = te.compute(outer, lambda *i: te.sum(exps[(*i, k)], axis=k), name="sum_of_exps")
    # The sum's leading zeros: how many powers 2^1 .. 2^31 lie above it (it is positive).
    bit = te.reduce_axis((1, 32), "bit")
    zeros = te.compute(
        outer,
        lambda *i: te.sum(
            tvm.tirx.Select(
                sums[i].astype("int64") < (_int(1, "int64") << bit.var.astype("int64")),
                _int(1),
                _int(0),
            ),
            axis=bit,
        ),
        name="leading_zeros",
    )

    def out_at(*i: Any) -> Any:
        row = i[:-1]
        lead = zeros[row].astype("int64")
        shifted = (
            (sums[row].astype("int64") << (lead - _int(1, "int64"))) + _int(1 << 13, "int64")
        ) >> _int(14, "int64")
        centred = shifted.astype("int32") - _int((1 << 15) + (1 << 16))
        scale = _lookup(clamped(centred, -32768, 32767, "int32"), reciprocal).astype("int64")
        right = _int(31, "int64") - lead
        product = exps[i].astype("int64") * scale + (_int(1, "int64") << (right - _int(1, "int64")))
        return clamped(product >> right, 0, 32767, "int16")

    return te.compute(x.shape, out_at, name="softmax")


def convert_int16_softmax(converter: Any, op: Any) -> Any:
    """The int16 SOFTMAX of `op`: one kernel reading its input and TFLM's two tables."""
    from tflite.SoftmaxOptions import SoftmaxOptions

    (data,) = converter.get_input_tensors(op)
    (out,) = converter.get_output_tensors(op)
    source, target = scalar_quantization(data), scalar_quantization(out)
    if (
        converter.get_tensor_type_str(out.tensor.Type()) != "int16"
        or source is None
        or target is None
        or source[1]
        or target[1]
        or abs(target[0] - 1 / 32768) > 0.001 / 32768
    ):
        raise OperatorRejected(
            "int16 SOFTMAX other than TFLM's (zero points 0, an int16 output of scale 2^-15)"
        )
    options = SoftmaxOptions()
    table = op.BuiltinOptions()
    options.Init(table.Bytes, table.Pos)
    real = float(_F32(source[0])) * float(_F32(options.Beta())) / (10.0 / 65535.0)
    scaling = quantize_multiplier(real)
    exp_table, reciprocal = softmax_tables()

    def compute(x: Any, exps: Any, reciprocals: Any) -> Any:
        return _softmax(x, exps, reciprocals, scaling)

    return converter.bb.call_te(
        compute,
        converter.get_tensor_expr(data),
        relax.const(exp_table, "int16"),
        relax.const(reciprocal, "int16"),
        primfunc_name_hint="softmax_int16",
    )


def elu_table(source: tuple[float, int], target: tuple[float, int]) -> np.ndarray:
    """TFLM's int8 ELU table (elu.cc's PopulateLookupTable, in float32) from an input and
    an output (scale, zero point): the outputs of -128 .. 127, in that order."""
    values = np.arange(-128, 128, dtype=np.int32)
    dequantized = _F32(source[0]) * (values - source[1]).astype(_F32)
    negative = dequantized < 0
    transformed = np.where(negative, _exp(np.minimum(dequantized, 0)) - _F32(1), dequantized)
    rescaled = _round_half_away(transformed * (_F32(1) / _F32(target[0])))
    quantized = (rescaled + _F32(target[1])).astype(np.int64)
    return np.clip(quantized, -128, 127).astype(np.int8)


def convert_int8_elu(converter: Any, op: Any) -> Any:
    """The int8 ELU of `op`: one kernel looking each input up in `elu_table`."""
    (data,) = converter.get_input_tensors(op)
    (out,) = converter.get_output_tensors(op)
    source, target = scalar_quantization(data), scalar_quantization(out)
    dtype = converter.get_tensor_type_str(data.tensor.Type())
    if dtype != "int8" or source is None or target is None:
        raise OperatorRejected(
            f"{dtype} ELU other than TFLM's (int8, one scale and zero point a tensor)"
        )

    def compute(x: Any, table: Any) -> Any:
        return te.compute(x.shape, lambda *i: table[x[i].astype("int32") + 128], name="elu")

    return converter.bb.call_te(
        compute,
        converter.get_tensor_expr(data),
        relax.const(elu_table(source, target), "int8"),
        primfunc_name_hint="elu_int8",
    )
