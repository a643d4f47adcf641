"""TensorFlow Lite Micro's fixed-point requantization (`usmp_dialect.tvm.model_files.
fixed_point`), built by TVM and run, equal to the same arithmetic in numpy int64 (TFLite's
QuantizeMultiplier and double-rounding MultiplyByQuantizedMultiplier, as gemmlowp writes
them) on its edge cases: the int32 extremes, ties, every shift from -31 to 31 (a left shift
wraps, as int32 arithmetic does), the one saturating product."""

from __future__ import annotations

import math

import numpy as np
import pytest

tvm = pytest.importorskip("tvm")
pytestmark = pytest.mark.tvm

from usmp_dialect.tvm.model_files.fixed_point import (  # noqa: E402
    multiply_by_quantized_multiplier,
    quantize_multiplier,
)

INT32_MIN, INT32_MAX = -(2**31), 2**31 - 1


def _high_mul(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """gemmlowp's SaturatingRoundingDoublingHighMul, in numpy int64."""
    product = a * b
    nudged = product + np.where(product >= 0, 1 << 30, 1 - (1 << 30))
    # C's integer division truncates towards zero.
    high = np.sign(nudged) * (np.abs(nudged) // (1 << 31))
    return np.where((a == INT32_MIN) & (b == INT32_MIN), INT32_MAX, high)


def _divide_by_power_of_two(x: np.ndarray, exponent: np.ndarray) -> np.ndarray:
    """gemmlowp's RoundingDivideByPOT, in numpy int64."""
    mask = (np.int64(1) << exponent) - 1
    threshold = (mask >> 1) + (x < 0)
    return (x >> exponent) + ((x & mask) > threshold)


def _numpy_requantized(x: np.ndarray, multiplier: np.ndarray, shift: np.ndarray) -> np.ndarray:
    wide = x.astype(np.int64)
    shifted = (wide << np.maximum(shift, 0)).astype(np.int32).astype(np.int64)
    high = _high_mul(shifted, multiplier.astype(np.int64))
    return _divide_by_power_of_two(high, np.maximum(-shift, 0).astype(np.int64))


def _built(requantize: object, dtype: str) -> object:
    """`requantize` over three vectors (x of `dtype`, multiplier and shift int32) as a
    function TVM built for the host."""
    from tvm import te

    x = te.placeholder((te.var("n"),), dtype, "x")
    multiplier = te.placeholder(x.shape, "int32", "multiplier")
    shift = te.placeholder(x.shape, "int32", "shift")
    out = te.compute(x.shape, lambda i: requantize(x[i], multiplier[i], shift[i]), "out")  # type: ignore[operator]
    return tvm.compile(te.create_prim_func([x, multiplier, shift, out]), target="llvm")


def _run(built: object, x: np.ndarray, multiplier: np.ndarray, shift: np.ndarray) -> np.ndarray:
    device = tvm.cpu()
    out = tvm.runtime.tensor(np.zeros(x.shape, np.int32), device)
    args = [tvm.runtime.tensor(a, device) for a in (x, multiplier, shift)]
    built(*args, out)  # type: ignore[operator]
    return out.numpy()


def _cases(xs: list[int], multipliers: list[int], shifts: list[int]) -> tuple[np.ndarray, ...]:
    grid = np.meshgrid(xs, multipliers, shifts, indexing="ij")
    return tuple(g.reshape(-1).astype(np.int32) for g in grid)


def test_multiply_by_quantized_multiplier_equals_gemmlowp() -> None:
    rng = np.random.default_rng(0)
    xs = [INT32_MIN, INT32_MIN + 1, -(2**30), -3, -2, -1, 0, 1, 2, 3, 2**30, INT32_MAX]
    xs += [int(v) for v in rng.integers(INT32_MIN, INT32_MAX, 40)]
    xs += [int(v) for v in rng.integers(-(2**16), 2**16, 40)]
    multipliers = [0, 1, 1 << 30, (1 << 30) + 1, 1518500250, INT32_MAX - 1, INT32_MAX]
    multipliers += [INT32_MIN]  # the saturating product, with x = INT32_MIN
    multipliers += [int(v) for v in rng.integers(1 << 30, INT32_MAX, 8)]
    shifts = list(range(-31, 32))  # every shift TFLite's int32 multiplier takes
    x, multiplier, shift = _cases(xs, multipliers, shifts)
    built = _built(multiply_by_quantized_multiplier, "int32")
    expected = _numpy_requantized(x, multiplier, shift)
    np.testing.assert_array_equal(_run(built, x, multiplier, shift), expected.astype(np.int32))


def test_ties_round_as_gemmlowp_rounds_them() -> None:
    """Exact halves: at multiplier 2^30 (a half) and shift 0, x = +-(2k+1) is halved by
    the high multiplication alone, which rounds a tie up (-0.5 to 0); at shift -1 (a
    quarter), x = +-2 and +-6 are halved by it exactly, then once more by the division by
    a power of two, which rounds a tie away from zero (-0.5 to -1)."""
    built = _built(multiply_by_quantized_multiplier, "int32")
    x = np.array([1, 3, 5, -1, -3, -5, 2, -2, 6, -6], np.int32)
    multiplier = np.full(x.shape, 1 << 30, np.int32)
    shift = np.array([0] * 6 + [-1] * 4, np.int32)
    np.testing.assert_array_equal(
        _run(built, x, multiplier, shift), [1, 2, 3, 0, -1, -2, 1, -1, 2, -2]
    )


@pytest.mark.parametrize(
    ("real", "expected"),
    [
        (0.0, (0, 0)),
        (0.5, (1 << 30, 0)),
        (1.0, (1 << 30, 1)),
        (0.75, (3 << 29, 0)),
        (2.0**-31, (1 << 30, -30)),
        (2.0**-32, (1 << 30, -31)),
        (2.0**-33, (0, 0)),  # a shift below -31: flushed to zero
        (1 - 2.0**-40, (1 << 30, 1)),  # rounds up to 2^31: halved, the shift one more
        (-0.75, (-(3 << 29), 0)),
        (3.0, (3 << 29, 2)),
    ],
)
def test_quantize_multiplier_edge_cases(real: float, expected: tuple[int, int]) -> None:
    assert quantize_multiplier(real) == expected


def test_quantize_multiplier_rounds_half_away_from_zero() -> None:
    """A fraction whose Q31 value is k + 1/2 rounds to k + 1 (std::round), and its value
    multiplier * 2^(shift - 31) is within half a Q31 step of the real one."""
    rng = np.random.default_rng(2)
    half = (1 << 30) + 0.5  # in Q31 units of a fraction in [0.5, 1)
    assert quantize_multiplier(half / 2**31 * 2**-7) == ((1 << 30) + 1, -7)
    for real in rng.uniform(1e-6, 4.0, 200):
        multiplier, shift = quantize_multiplier(float(real))
        assert 1 << 30 <= multiplier < 1 << 31
        assert math.isclose(multiplier * 2.0 ** (shift - 31), real, rel_tol=2.0**-30)
