"""TFLM's integer arithmetic converted bit for bit (int16 LOGISTIC, TANH and SOFTMAX and
int8 ELU by TFLM's tables; 16x8 convolutions; quantized TRANSPOSE_CONV and BATCH_MATMUL;
int8 L2_NORMALIZATION, CUMSUM; DYNAMIC_UPDATE_SLICE), each a one-operator file imported,
planned with its inputs and outputs in the workspace, its C library built and run and its
outputs compared with TFLM's interpreter's, as tools/operator_table.py does: rows of its
table, and cases beside them that take the paths its rows do not (a power-of-two input
scale, VALID padding with an activation, adjoint operands, start indices clamped, a
reverse inclusive sum along the last axis); and ELU's table, every int8 value of it,
against TFLM's outputs."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

tvm = pytest.importorskip("tvm")
pytest.importorskip("tflite")
pytestmark = [pytest.mark.tvm, pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))

from builtin_tflite import CASES, RELU, Case, T, _weights  # noqa: E402
from operator_table import EXACT, run_case  # noqa: E402
from tflite.Padding import Padding  # noqa: E402

from tests.support.reference_runtime import reference_outputs  # noqa: E402
from usmp_dialect.tvm.model_files.int16_table_kernels import elu_table  # noqa: E402


def _tanh_of_power_of_two_scale() -> Case:
    """TANH of input scale 2^-11: TFLM's multiplier 3 << 1, no rounding shift."""
    return Case(
        "TANH",
        "int16",
        (T((4, 40), q16=(2.0**-11, 0)),),
        (T((4, 40), q16=(2.0**-15, 0)),),
    )


def _transpose_conv_valid_relu() -> Case:
    """int8 TRANSPOSE_CONV 2x3, strides 2 and 1, VALID, RELU fused, no bias."""
    weight, _ = _weights("int8", (3, 2, 3, 2), 0, 0.05)
    return Case(
        "TRANSPOSE_CONV",
        "int8",
        (T((4,), "int32", data=np.array([1, 6, 7, 3], np.int32)), weight, T((1, 3, 5, 2))),
        (T((1, 6, 7, 3), q=(0.11, 7)),),
        (
            "TransposeConvOptions",
            {
                "Padding": Padding.VALID,
                "StrideW": 1,
                "StrideH": 2,
                "FusedActivationFunction": RELU,
            },
        ),
    )


def _adjoint_batch_matmul() -> Case:
    """int16 BATCH_MATMUL of [2,4,3]^T by [5,4]^T."""
    return Case(
        "BATCH_MATMUL",
        "int16",
        (T((2, 4, 3)), T((5, 4), q16=(0.07 / 256, 0))),
        (T((2, 3, 5), q16=(0.3 / 256, 0)),),
        ("BatchMatMulOptions", {"AdjX": True, "AdjY": True}),
    )


def _clamped_update() -> Case:
    """int8 DYNAMIC_UPDATE_SLICE at start indices given at run time, often outside."""
    return Case(
        "DYNAMIC_UPDATE_SLICE",
        "int8",
        (T((4, 5, 3)), T((2, 3, 3)), T((3,), "int32", values=(-4, 6))),
        (T((4, 5, 3)),),
    )


def _reverse_inclusive_cumsum() -> Case:
    """int8 CUMSUM of [2,4,3] along axis -1, each element's sum of itself and those
    after it, into another quantization."""
    return Case(
        "CUMSUM",
        "int8",
        (T((2, 4, 3)), T((1,), "int32", data=np.array([-1], np.int32))),
        (T((2, 4, 3), q=(0.11, 9)),),
        ("CumsumOptions", {"Exclusive": False, "Reverse": True}),
    )


CASES_BESIDE = {
    "tanh-int16-power-of-two": _tanh_of_power_of_two_scale,
    "transpose_conv-int8-valid-relu": _transpose_conv_valid_relu,
    "batch_matmul-int16-adjoint": _adjoint_batch_matmul,
    "dynamic_update_slice-int8-clamped": _clamped_update,
    "cumsum-int8-reverse-inclusive": _reverse_inclusive_cumsum,
}


@pytest.mark.parametrize(
    "key",
    [("SOFTMAX", "int16"), ("L2_NORMALIZATION", "int8"), ("DEPTHWISE_CONV_2D", "int16")],
    ids="-".join,
)
def test_table_row_equals_tflm(key: tuple[str, str]) -> None:
    pytest.importorskip("tflite_micro")
    assert run_case(CASES[key])[2:] == (EXACT, "")


@pytest.mark.parametrize("name", sorted(CASES_BESIDE))
def test_case_beside_the_table_equals_tflm(name: str) -> None:
    pytest.importorskip("tflite_micro")
    assert run_case(CASES_BESIDE[name]())[2:] == (EXACT, "")


@pytest.mark.parametrize("source, target", [((0.05, -3), (0.03, 7)), ((0.2, 50), (0.0077, 127))])
def test_elu_table_equals_tflm_on_every_int8_value(
    tmp_path: Path, source: tuple[float, int], target: tuple[float, int]
) -> None:
    pytest.importorskip("tflite_micro")
    path = tmp_path / "elu.tflite"
    path.write_bytes(Case("ELU", "int8", (T((256,), q=source),), (T((256,), q=target),)).tflite())
    (theirs,) = reference_outputs(str(path), [np.arange(-128, 128, dtype=np.int8)])
    np.testing.assert_array_equal(elu_table(source, target), theirs)


def test_operator_tflm_refuses_is_refused_naming_it(tmp_path: Path) -> None:
    """An int16 LOGISTIC of an output scale TFLM does not take (only 2^-15): one
    diagnostic naming the operator, its index and the tensor it computes."""
    from usmp_dialect.tvm.model_files.loading import load_model_file
    from usmp_dialect.tvm.relax.to_tir import RelaxImportError

    path = tmp_path / "logistic.tflite"
    path.write_bytes(
        Case("LOGISTIC", "int16", (T((2, 3)),), (T((2, 3), q16=(1 / 256, 0)),)).tflite()
    )
    with pytest.raises(RelaxImportError) as refused:
        load_model_file(str(path), "tflite")
    assert refused.value.message == (
        "LOGISTIC operator 0, computing 'out0': int16 LOGISTIC of output scale 0.00390625 "
        "(TFLM takes 2^-15 only)"
    )
