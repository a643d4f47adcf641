"""Mutated and truncated bytes of real model files (tests/wheel_models.py) and of the int8
models the tests write (tests/int8_tflite.py) through `usmp-translate
--import-tflite/--import-onnx`: each run ends in exit status 0 with IR that plans, or exit
status 1 with exactly one diagnostic naming the file and no output file, never a traceback
(and nothing TVM's frontends print on standard output). `test_fuzz_tflite_quantization`
rewrites the int8 models' quantization in place: scales 0, denormal, infinite, NaN,
negative or huge; zero points out of their type's range; a scale or zero-point vector
shorter or longer than its tensor's channels. `test_fuzz_model_files_in_a_child` runs a
few through the real console script, its address space limited: a crash (a signal), a
hang or memory past the limit would fail it. Fixed seeds by default;
`USMP_FUZZ_EXAMPLES=N` runs N examples a test with fresh seeds."""

from __future__ import annotations

import pytest

pytest.importorskip("tvm")
pytest.importorskip("tflite")
pytest.importorskip("onnx")
pytestmark = pytest.mark.tvm

import re  # noqa: E402
import struct  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
from pathlib import Path  # noqa: E402

import tflite  # noqa: E402
from hypothesis import given  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from int8_tflite import int8_cnn_tflite, int8_kernel_tflite  # noqa: E402
from quantized_operator_tflite import quantized_operator_tflite  # noqa: E402
from test_bad_inputs import limit_address_space  # noqa: E402
from test_fuzz_inputs import fuzz_settings, import_and_plan, mutated  # noqa: E402
from wheel_models import wheel_model_path  # noqa: E402


def _seed(name: str) -> bytes:
    path = wheel_model_path(name)
    if path is None:  # only on a Python the wheel does not support
        pytest.skip(f"the wheel of {name} is not installed", allow_module_level=True)
    return path.read_bytes()


INT8_SEEDS = [
    int8_cnn_tflite(),
    int8_kernel_tflite("conv"),
    int8_kernel_tflite("depthwise"),
    int8_kernel_tflite("dense", per_channel=False),
    quantized_operator_tflite("softmax"),
    quantized_operator_tflite("add"),
]
TFLITE_SEEDS = [_seed("sine-tflite"), *INT8_SEEDS]
ONNX_SEEDS = [_seed("conv2d-onnx")]


@fuzz_settings(ci_examples=12)
@given(mutated(TFLITE_SEEDS))
def test_fuzz_tflite(data: bytes) -> None:
    import_and_plan(data, "fuzz.tflite", "--import-tflite")


@fuzz_settings(ci_examples=12)
@given(mutated(ONNX_SEEDS))
def test_fuzz_onnx(data: bytes) -> None:
    import_and_plan(data, "fuzz.onnx", "--import-onnx")


SCALES = [0.0, -0.0, 1e-45, 1e-40, float("inf"), float("-inf"), float("nan"), -0.5, 3.0e38]
ZERO_POINTS = [-129, 128, 255, -(2**31), 2**31, 2**40, -(2**63), 2**63 - 1]


def _quantization_vectors(data: bytes) -> list[tuple[str, int, int]]:
    """Each quantized tensor's scale and zero-point vectors in `data`: (kind, byte offset
    of the vector's length word, length)."""
    graph = tflite.Model.GetRootAsModel(data, 0).Subgraphs(0)
    found = []
    for t in range(graph.TensorsLength()):
        quantization = graph.Tensors(t).Quantization()
        if quantization is None:
            continue
        table = quantization._tab
        for kind, field in (("scale", 8), ("zero_point", 10)):
            if offset := table.Offset(field):
                start = table.Vector(offset)  # the first element, after the length word
                found.append((kind, start - 4, table.VectorLen(offset)))
    return found


@st.composite
def quantization_rewritten(draw: st.DrawFn) -> bytes:
    data = bytearray(draw(st.sampled_from(INT8_SEEDS)))
    vectors = _quantization_vectors(bytes(data))
    for _ in range(draw(st.integers(1, 3))):
        kind, at, length = draw(st.sampled_from(vectors))
        if draw(st.integers(0, 3)) == 0:  # the vector's length: shorter or longer
            new_length = draw(st.sampled_from([0, 1, max(0, length - 1), length + 1, 1 << 30]))
            struct.pack_into("<I", data, at, new_length)
        elif length:
            element = at + 4 + draw(st.integers(0, length - 1)) * (4 if kind == "scale" else 8)
            if kind == "scale":
                struct.pack_into("<f", data, element, draw(st.sampled_from(SCALES)))
            else:
                struct.pack_into("<q", data, element, draw(st.sampled_from(ZERO_POINTS)))
    return bytes(data)


@fuzz_settings(ci_examples=12)
@given(quantization_rewritten())
def test_fuzz_tflite_quantization(data: bytes) -> None:
    import_and_plan(data, "fuzz.tflite", "--import-tflite")


@pytest.mark.slow
@fuzz_settings(ci_examples=3)
@given(
    st.one_of(
        st.tuples(st.just("tflite"), mutated(TFLITE_SEEDS) | quantization_rewritten()),
        st.tuples(st.just("onnx"), mutated(ONNX_SEEDS)),
    )
)
def test_fuzz_model_files_in_a_child(case: tuple[str, bytes]) -> None:
    kind, data = case
    with tempfile.TemporaryDirectory() as directory:
        path = Path(directory) / f"fuzz.{kind}"
        path.write_bytes(data)
        output = Path(directory) / "out.mlir"
        tool = Path(sys.executable).parent / "usmp-translate"
        done = subprocess.run(
            [str(tool), f"--import-{kind}", str(path), "-o", str(output)],
            capture_output=True,
            text=True,
            timeout=300,
            preexec_fn=limit_address_space,
        )
        assert done.returncode in (0, 1), done.stderr
        assert "Traceback" not in done.stderr
        if done.returncode == 1:
            assert re.fullmatch(rf"{re.escape(str(path))}: error: [^\n]*\n", done.stderr)
            assert not output.exists()
