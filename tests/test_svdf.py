"""TFLite's SVDF as TensorFlow Lite Micro computes it (`model_files.tflite_svdf`): a
streaming model of two SVDFs (tests/svdf_tflite.py), float32 and int8 with an int16 or
int8 activation state, imported, planned with its inputs and outputs in the workspace
pool, built as a C library and run by a firmware-like loop on a stream of 60 frames: each
SVDF's state a variable in the state pool, set once by `model_init_state` and kept from
run to run, every output TFLM's interpreter's exactly, frame by frame. A file whose SVDF
contradicts itself, or that was compiled for an NPU, is one diagnostic."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import numpy as np
import pytest

tvm = pytest.importorskip("tvm")
pytest.importorskip("tflite")
pytestmark = pytest.mark.tvm

from int8_tflite import custom_operator_tflite  # noqa: E402
from svdf_tflite import LAYERS, svdf_tflite  # noqa: E402

from usmp_dialect.pipeline import plan_pools, plan_pools_pipeline  # noqa: E402
from usmp_dialect.tvm import c_check  # noqa: E402
from usmp_dialect.tvm.c_bundle import write_library  # noqa: E402
from usmp_dialect.tvm.model_files.loading import import_model_file  # noqa: E402
from usmp_dialect.tvm.relax.lowering import RelaxImportError  # noqa: E402

STREAM_PROGRAM = r"""
#include <stdio.h>
#include "model.h"

static _Alignas(16) uint8_t workspace[MODEL_GLOBAL_WORKSPACE_WORKSPACE_POOL_SIZE];
static _Alignas(16) uint8_t state[MODEL_GLOBAL_STATE_STATE_POOL_SIZE];

int main(void) {
  struct model_workspace_pools pools = {workspace, state};
  struct model_inputs inputs = model_map_inputs(&pools);
  struct model_outputs outputs = model_map_outputs(&pools);
  model_init_state(&pools);
  while (fread(inputs.input, MODEL_INPUT_INPUT_SIZE, 1, stdin) == 1) {
    if (model_run(&pools, NULL) != 0) return 1;
    fwrite(outputs.svdf1_output, MODEL_OUTPUT_SVDF1_OUTPUT_SIZE, 1, stdout);
  }
  return 0;
}
"""

CASES = {"float32": ("float32", "int16"), "int8-int16-state": ("int8", "int16")}
CASES["int8-int8-state"] = ("int8", "int8")


def _frames(dtype: str, count: int) -> list[np.ndarray]:
    rng = np.random.default_rng(1)
    if dtype == "float32":
        return [rng.uniform(-2, 2, (1, 6)).astype(np.float32) for _ in range(count)]
    return [rng.integers(-128, 128, (1, 6)).astype(np.int8) for _ in range(count)]


@pytest.mark.slow
@pytest.mark.parametrize("case", CASES)
def test_svdf_stream_gives_tflms_outputs_frame_by_frame(case: str, tmp_path: Path) -> None:
    try:
        c_check.require_tools(qemu=False)
    except c_check.MissingTools as error:
        pytest.fail(str(error))
    pytest.importorskip("tflite_micro")
    from tflite_micro.python.tflite_micro import runtime

    dtype, state = CASES[case]
    path = tmp_path / f"svdf-{case}.tflite"
    path.write_bytes(svdf_tflite(dtype, state))
    module = import_model_file(str(path), "tflite")
    plan_pools(module, plan_pools_pipeline(workspace_io=True, constant_pool=True))
    library = tmp_path / "lib"
    write_library(module, str(library), "model")
    header = (library / "model.h").read_text()
    # Each state one buffer in the state pool (aligned to 16 bytes), nothing else there.
    size = {"float32": 4, "int16": 2, "int8": 1}[state if dtype == "int8" else dtype]
    sizes = [rank * units * memory * size for _, rank, memory, units in LAYERS]
    for layer, state_size in enumerate(sizes):
        assert f"#define MODEL_STATE_SVDF{layer}_STATE_SIZE {state_size}\n" in header
    (pool,) = re.findall(r"#define MODEL_GLOBAL_STATE_STATE_POOL_SIZE (\d+)", header)
    assert sum(sizes) <= int(pool) <= sum(-(-s // 16) * 16 for s in sizes)
    (library / "app.c").write_text(STREAM_PROGRAM)
    flags = ["-std=c11", "-Wall", "-Wextra", "-Werror", "-O2"]
    sources = ["app.c", "model.c", "model_constants.c"]
    subprocess.run(["cc", *flags, "-o", "app", *sources, "-lm"], cwd=library, check=True)
    frames = _frames(dtype, 60)
    done = subprocess.run(
        [str(library / "app")], input=b"".join(f.tobytes() for f in frames), capture_output=True
    )
    assert done.returncode == 0, done.stderr
    ours = np.frombuffer(done.stdout, dtype).reshape(len(frames), 1, LAYERS[-1][3])
    interpreter = runtime.Interpreter.from_file(str(path))
    theirs = []
    for frame in frames:
        interpreter.set_input(frame, 0)
        interpreter.invoke()
        theirs.append(interpreter.get_output(0).copy())
    np.testing.assert_array_equal(ours, np.stack(theirs))
    # The stream moves the outputs, and the int8 ones are not saturated throughout.
    assert len({o.tobytes() for o in theirs}) > 50
    if dtype == "int8":
        assert np.mean(np.abs(np.stack(theirs).astype(int)) < 127) > 0.5


@pytest.mark.parametrize(
    ("spoil", "message"),
    [
        ("state-not-variable", "its activation_state is not a variable tensor"),
        ("state-shape", r"its activation_state is \[1, 25\], its options and weights make \[1, 24\]"),
    ],
)
def test_contradicting_svdf_is_one_diagnostic(spoil: str, message: str, tmp_path: Path) -> None:
    path = tmp_path / f"{spoil}.tflite"
    path.write_bytes(svdf_tflite("int8", "int16", spoil=spoil))
    with pytest.raises(RelaxImportError) as raised:
        import_model_file(str(path), "tflite")
    text = str(raised.value)
    assert re.search(f"SVDF operator 0, computing 'svdf0/output': {message}", text), text
    assert "\n" not in text.strip()


def test_file_compiled_for_an_npu_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "vela.tflite"
    path.write_bytes(custom_operator_tflite("ethos-u"))
    with pytest.raises(RelaxImportError, match="compiled for an NPU"):
        import_model_file(str(path), "tflite")
