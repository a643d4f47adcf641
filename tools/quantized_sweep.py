"""TFLM's integer arithmetic against our C library, on every input (int8) or a dense set
of them (int16), for the quantized operators whose results depend on how requantization
rounds:

    python tools/quantized_sweep.py [--only OPERATOR ...]

For each (operator, type), over several quantization parameter sets (the operator
table's, a large multiplier, a small one with zero points at the type's ends, scales that
put results on ties, fused RELU / RELU6 / RELU_N1_TO_1 where the operator takes one),
one one-operator `.tflite` file is imported, planned and emitted as the C library as
tools/operator_table.py does, run once on all its inputs, and compared with TFLM's
interpreter's outputs. int8 binary operators: every pair of stored values (a [256, 256]
first input, each row one value, the second input [256] broadcast along it); int16 ones:
512 x 512 pairs (every value in -128..127 and 256 spread over the whole range, both ends
among them); unary int8 operators: all 256 values. Left out of DIV's: a divisor at its
zero point (TFLM's kernel divides by zero) and the pairs whose quotient TFLM shifts right
by 32 or more (undefined in C; x86 wraps the count and TFLM's wheel gives the quotient
unscaled, up to 255 steps off; ours is scaled, 0).

Each line: operator, type, parameter set, how many outputs differ of how many.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any, NamedTuple

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tools"))

import numpy as np  # noqa: E402
from builtin_tflite import RELU, RELU6, Case, T  # noqa: E402
from operator_table import Row, case_outputs  # noqa: E402

RELU_N1_TO_1 = 2


class Quantization(NamedTuple):
    """A parameter set: each input's and the output's (scale, zero point), the fused
    activation (None where the operator has no options)."""

    name: str
    inputs: tuple[tuple[float, int], ...]
    output: tuple[float, int]
    activation: int | None = 0


class Sweep(NamedTuple):
    case: Case
    inputs: list[np.ndarray]
    kept: np.ndarray | None = None
    """Which outputs are compared (None: all)."""


# int8 parameter sets of two-input operators.
BINARY_INT8 = [
    Quantization("table", ((0.05, -3), (0.07, 4)), (0.11, 7), RELU6),
    Quantization("large multiplier", ((0.9, 10), (0.8, -20)), (0.05, 3)),
    Quantization("small multiplier", ((0.003, 127), (0.002, -128)), (0.4, -7), RELU),
    Quantization("ties", ((0.25, 0), (0.5, 1)), (1.0, 0)),
    Quantization("relu_n1_to_1", ((0.02, -100), (0.03, 50)), (0.01, 0), RELU_N1_TO_1),
]
# int16: TFLM takes zero points 0 only.
BINARY_INT16 = [
    Quantization("table", ((0.05 / 256, 0), (0.07 / 256, 0)), (0.11 / 256, 0), RELU6),
    Quantization("large multiplier", ((0.9 / 256, 0), (0.8 / 256, 0)), (0.05 / 4096, 0)),
    Quantization("small multiplier", ((0.003 / 256, 0), (0.002 / 256, 0)), (0.4 / 256, 0), RELU),
    Quantization("ties", ((2.0**-10, 0), (2.0**-9, 0)), (2.0**-8, 0)),
]
UNARY_INT8 = [
    Quantization("table", ((0.05, -3),), (0.11, 7), None),
    Quantization("large multiplier", ((0.1, 20),), (0.004, -100), None),
    Quantization("small multiplier", ((0.01, -128),), (0.2, 127), None),
    Quantization("ties", ((0.0625, 0),), (0.125, 0), None),
]
# LOG_SOFTMAX's output is TFLM's fixed 16/256, zero point 127.
LOG_SOFTMAX_INT8 = [
    Quantization("table", ((0.05, -3),), (16 / 256, 127), None),
    Quantization("large scale", ((0.5, 20),), (16 / 256, 127), None),
    Quantization("small scale", ((0.004, -128),), (16 / 256, 127), None),
    Quantization("ties", ((0.0625, 0),), (16 / 256, 127), None),
]

_OPTIONS = {"ADD": "AddOptions", "SUB": "SubOptions", "MUL": "MulOptions", "DIV": "DivOptions"}


def _int16_values() -> np.ndarray:
    rng = np.random.default_rng(11)
    spread = rng.integers(-32768, 32768, 254)
    return np.concatenate([np.arange(-128, 128), spread, [-32768, 32767]]).astype(np.int16)


def _tensor(shape: tuple[int, ...], dtype: str, q: tuple[float, int]) -> T:
    return T(shape, q=q) if dtype == "int8" else T(shape, q16=q)


def binary_sweep(operator: str, dtype: str, q: Quantization) -> Sweep:
    """Every pair of the type's values (int8) or the dense set (int16): a [n, n] first
    input of rows of one value each, the second input [n] broadcast along them."""
    values = np.arange(-128, 128).astype(np.int8) if dtype == "int8" else _int16_values()
    n = values.size
    (q1, q2), qo = q.inputs, q.output
    table = _OPTIONS.get(operator)
    options = None
    if table is not None:
        options = (table, {"FusedActivationFunction": q.activation or 0})
    case = Case(
        operator,
        dtype,
        (_tensor((n, n), dtype, q1), _tensor((n,), dtype, q2)),
        (_tensor((n, n), dtype, qo),),
        options,
    )
    first = np.repeat(values[:, None], n, axis=1)
    kept = None
    if operator == "DIV":
        kept = _div_defined(first, values, q)
    return Sweep(case, [first, values.copy()], kept)


def _div_defined(first: np.ndarray, second: np.ndarray, q: Quantization) -> np.ndarray:
    """Where TFLM's int8 DIV is defined: not by a divisor at its zero point (a division
    by zero), and not where it shifts by 32 or more (`div_exponents`)."""
    from usmp_dialect.tvm.model_files.fixed_point import quantize_multiplier
    from usmp_dialect.tvm.model_files.quantized_arithmetic import div_exponents

    (s1, z1), (s2, z2), so = q.inputs[0], q.inputs[1], q.output[0]
    numerators = first.astype(np.int64) - z1
    divisors = np.broadcast_to(second.astype(np.int64) - z2, numerators.shape)
    _, shift = quantize_multiplier(float(s1) / (float(s2) * float(so)))
    nonzero = np.where(divisors == 0, 1, divisors)
    return (divisors != 0) & (div_exponents(numerators, nonzero, shift) > -32)


def unary_sweep(operator: str, q: Quantization) -> Sweep:
    """All 256 int8 values as one row (LOG_SOFTMAX: rows of 16 that take every value,
    beside a row's largest one anywhere in the range)."""
    ((qi,), qo) = q.inputs, q.output
    values = np.arange(-128, 128).astype(np.int8)
    if operator != "LOG_SOFTMAX":
        case = Case(operator, "int8", (T((256,), q=qi),), (T((256,), q=qo),))
        return Sweep(case, [values])
    rng = np.random.default_rng(5)
    rows: list[np.ndarray] = [values.reshape(16, 16), values.reshape(16, 16).T]
    for top in range(-128, 128, 4):  # each row's max `top`, the rest below it
        below = rng.integers(-128, top + 1, (4, 16))
        below[:, 0] = top
        rows.append(below)
    rows.append(np.full((2, 16), 5))
    data = np.concatenate(rows).astype(np.int8)
    options: tuple[str, dict[str, Any]] = ("LogSoftmaxOptions", {})
    case = Case(operator, "int8", (T(data.shape, q=qi),), (T(data.shape, q=qo),), options)
    return Sweep(case, [data])


def sweeps(operator: str, dtype: str) -> dict[str, Sweep]:
    """The sweeps of (operator, type), by parameter set."""
    if operator == "HARD_SWISH":
        return {q.name: unary_sweep(operator, q) for q in UNARY_INT8}
    if operator == "LOG_SOFTMAX":
        return {q.name: unary_sweep(operator, q) for q in LOG_SOFTMAX_INT8}
    sets = BINARY_INT8 if dtype == "int8" else BINARY_INT16
    if operator == "SQUARED_DIFFERENCE":  # no options: no activation
        sets = [q._replace(activation=None) for q in sets]
    return {q.name: binary_sweep(operator, dtype, q) for q in sets}


OPERATORS = [
    ("ADD", "int8"),
    ("ADD", "int16"),
    ("SUB", "int8"),
    ("SUB", "int16"),
    ("MUL", "int8"),
    ("MUL", "int16"),
    ("DIV", "int8"),
    ("SQUARED_DIFFERENCE", "int8"),
    ("HARD_SWISH", "int8"),
    ("LOG_SOFTMAX", "int8"),
]


def differences(sweep: Sweep) -> tuple[int, int] | Row:
    """How many compared outputs differ from TFLM's, of how many; or the row saying why
    none came."""
    outputs = case_outputs(sweep.case, sweep.inputs)
    if isinstance(outputs, Row):
        return outputs
    (ours,), (theirs,) = outputs
    theirs = np.asarray(theirs)
    kept = np.ones(theirs.shape, bool) if sweep.kept is None else sweep.kept
    if ours.shape != theirs.shape:
        return Row(sweep.case.operator, sweep.case.dtype, "wrong", f"shape {ours.shape}")
    return int(np.count_nonzero((ours != theirs) & kept)), int(np.count_nonzero(kept))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="+", metavar="OPERATOR", help="these operators only")
    args = parser.parse_args()
    for operator, dtype in OPERATORS:
        if args.only and operator not in args.only:
            continue
        for name, sweep in sweeps(operator, dtype).items():
            result = differences(sweep)
            if isinstance(result, Row):
                said = f"{result.result}: {result.detail}"
            else:
                said = f"{result[0]} of {result[1]} differ"
            print(f"{operator:<20}{dtype:<7}{name:<18}{said}", flush=True)


if __name__ == "__main__":
    main()
