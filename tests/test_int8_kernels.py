"""Quantized CONV_2D, DEPTHWISE_CONV_2D and FULLY_CONNECTED (`model_files.int8_weighted_kernels`):
one kernel each, TensorFlow Lite Micro's fixed-point arithmetic, so that an int8 model of
them gives TFLM's outputs exactly, where TVM's converters (dequantize, float32 operator,
quantize) rounded a step or more apart now and then. Each file is written here
(tests/int8_tflite.py), imported as `usmp-translate --import-tflite` imports it, planned,
built for c and checked equal to the Relax VM, whose outputs on random int8 inputs
covering the whole range are compared with TFLM's."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

tvm = pytest.importorskip("tvm")
pytest.importorskip("tflite")
pytestmark = pytest.mark.tvm

from int8_tflite import conv_stack_tflite, int8_cnn_tflite, int8_kernel_tflite  # noqa: E402
from tflite.ActivationFunctionType import ActivationFunctionType as Act  # noqa: E402
from tflite.Padding import Padding  # noqa: E402

from tests.support.model_check import check_model  # noqa: E402
from tests.support.reference_runtime import reference_outputs  # noqa: E402
from usmp_dialect.tvm.model_files.loading import load_model_file  # noqa: E402
from usmp_dialect.tvm.relax.to_tir import relax_vm_outputs  # noqa: E402
from usmp_dialect.tvm_options import MODEL_FILE_TIR_IMPORT  # noqa: E402

CASES = {
    "conv-same-relu6": lambda: int8_kernel_tflite("conv", activation=Act.RELU6),
    "conv-stride2-dilated-valid-per-tensor": lambda: int8_kernel_tflite(
        "conv", stride=2, dilation=2, padding=Padding.VALID, per_channel=False
    ),
    "conv-grouped-no-bias-relu": lambda: int8_kernel_tflite(
        "conv", groups=2, bias=False, activation=Act.RELU
    ),
    "depthwise-multiplier2-stride2-relu": lambda: int8_kernel_tflite(
        "depthwise", depth_multiplier=2, stride=2, activation=Act.RELU
    ),
    "depthwise-dilated-valid-relu-n1-to-1": lambda: int8_kernel_tflite(
        "depthwise", dilation=2, padding=Padding.VALID, activation=Act.RELU_N1_TO_1
    ),
    "dense-per-tensor-flattened": lambda: int8_kernel_tflite("dense", per_channel=False),
    "dense-per-channel-keep-dims-relu": lambda: int8_kernel_tflite(
        "dense", keep_num_dims=True, activation=Act.RELU
    ),
    "int8-cnn": int8_cnn_tflite,
    "conv-stack": lambda: conv_stack_tflite(int8=True),
}


def _random_inputs(mod: object, rng: np.random.Generator) -> dict[str, np.ndarray]:
    forward = mod["forward"]  # type: ignore[index]
    count = int(forward.attrs["num_input"])
    return {
        p.name: rng.integers(-128, 128, [int(d) for d in p.ty.shape]).astype(np.int8)
        for p in list(forward.params)[:count]
    }


@pytest.mark.parametrize("case", CASES)
def test_int8_operator_gives_tflms_outputs_exactly(case: str, tmp_path: Path) -> None:
    path = tmp_path / f"{case}.tflite"
    path.write_bytes(CASES[case]())
    mod, weights = load_model_file(str(path), "tflite")
    # One kernel an operator: no dequantize or quantize left to legalize.
    text = mod.script()
    assert "dequantize" not in text and "R.quantize" not in text
    result = check_model(mod, weights, str(path), tir_import=MODEL_FILE_TIR_IMPORT, target="c")
    assert [o.max_error for o in result.outputs] == [0] * len(result.outputs)
    rng = np.random.default_rng(0)
    for _ in range(4):
        inputs = _random_inputs(mod, rng)
        ours = relax_vm_outputs(mod, weights, inputs)
        theirs = reference_outputs(str(path), list(inputs.values()))
        for mine, reference in zip(ours, theirs, strict=True):
            assert mine.dtype == reference.dtype and mine.shape == reference.shape
            np.testing.assert_array_equal(mine, reference)


def test_a_weight_of_another_zero_point_is_left_to_tvms_converter(tmp_path: Path) -> None:
    """TFLM's int8 FULLY_CONNECTED takes a weight zero point other than 0, our kernels do
    not: TVM's converter computes it (dequantize, float32, quantize), within a step of TFLM."""
    path = tmp_path / "dense-weight-zero-point.tflite"
    path.write_bytes(int8_kernel_tflite("dense", per_channel=False, weight_zero_point=5))
    mod, weights = load_model_file(str(path), "tflite")
    assert "fully_connected" not in str(mod.get_global_vars())
    inputs = _random_inputs(mod, np.random.default_rng(0))
    (ours,) = relax_vm_outputs(mod, weights, inputs)
    (theirs,) = reference_outputs(str(path), list(inputs.values()))
    steps = np.abs(ours.astype(np.int32) - theirs.astype(np.int32))
    assert ours.shape == theirs.shape and steps.max() <= 1
