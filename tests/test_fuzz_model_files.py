"""Mutated and truncated bytes of real model files (tests/wheel_models.py) through
`usmp-translate --import-tflite/--import-onnx`: each run ends in exit status 0 with IR that
plans, or exit status 1 with exactly one diagnostic naming the file and no output file,
never a traceback (and nothing TVM's frontends print on standard output). Fixed seeds by
default; `USMP_FUZZ_EXAMPLES=N` runs N examples a test with fresh seeds."""

from __future__ import annotations

import pytest

pytest.importorskip("tvm")
pytest.importorskip("tflite")
pytest.importorskip("onnx")
pytestmark = pytest.mark.tvm

from hypothesis import given  # noqa: E402
from test_fuzz_inputs import fuzz_settings, import_and_plan, mutated  # noqa: E402
from wheel_models import wheel_model_path  # noqa: E402


def _seed(name: str) -> bytes:
    path = wheel_model_path(name)
    if path is None:  # only on a Python the wheel does not support
        pytest.skip(f"the wheel of {name} is not installed", allow_module_level=True)
    return path.read_bytes()


TFLITE_SEEDS = [_seed("sine-tflite")]
ONNX_SEEDS = [_seed("conv2d-onnx")]


@fuzz_settings(ci_examples=12)
@given(mutated(TFLITE_SEEDS))
def test_fuzz_tflite(data: bytes) -> None:
    import_and_plan(data, "fuzz.tflite", "--import-tflite")


@fuzz_settings(ci_examples=12)
@given(mutated(ONNX_SEEDS))
def test_fuzz_onnx(data: bytes) -> None:
    import_and_plan(data, "fuzz.onnx", "--import-onnx")
