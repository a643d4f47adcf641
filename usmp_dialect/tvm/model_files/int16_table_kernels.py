"""TFLite's int16 LOGISTIC and TANH as TensorFlow Lite Micro's reference kernels compute
them (reference_integer_ops logistic.h and tanh.h), where TVM's frontend computes them in
float32 and is a step or two off:

    squash_scaling(scale, power_of_two_shifts) -> (multiplier, right shift)
    convert_int16_squash(converter, op, name)  -> the operator's call (LOGISTIC, TANH)

Each input value is brought to the table's scale, 3 x 2^12 steps a unit (x multiplier +
rounding) >> right shift, then squashed by the interpolated 256-entry sigmoid table the
int8 LSTM reads too (`tflite_lstm_int8`: `int16_logistic`, `int16_tanh`); the output is
in Q0.15. TFLM's prepare step chooses the scaling: for an input scale that is a power of
two with 12 + its log2 a small left shift (0 for LOGISTIC, 0 or 1 for TANH), 3 << that
shift; else the input scale x 3 x 4096 doubled until past 32767 / 2 (at most 31 times),
truncated, and the number of doublings as the right shift. TFLM takes an input and an
output of zero point 0 and an output scale of 2^-15 only: another is refused here, as
TFLM refuses it.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import tvm
from tvm import relax, te

from usmp_dialect.tvm.model_files.tflite_lstm_int8 import (
    SIGMOID_TABLE,
    int16_logistic,
    int16_tanh,
)
from usmp_dialect.tvm.model_files.tflite_operators import scalar_quantization

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
        raise tvm.error.OpNotImplemented(
            f"int16 {name} with a zero point other than 0 or without one scale (TFLM "
            "takes zero points 0)"
        )
    if np.float32(target[0]) != np.float32(2.0**-15):
        raise tvm.error.OpNotImplemented(
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
