"""The C library of `usmp-translate --emit-c`, built by its own Makefile and run with
every pool prefilled with 0xFF: on this machine it gives the Relax VM's outputs (int8
exactly), and on QEMU's Cortex-M55 (arm-none-eabi-gcc, newlib, semihosting) the host's
bytes. A machine without the toolchain fails these tests with the command that installs
it (CI installs it: .ci/run)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from xdsl.dialects.builtin import ModuleOp

tvm = pytest.importorskip("tvm")
pytestmark = pytest.mark.tvm

from usmp_dialect.pipeline import plan_pools, plan_pools_pipeline  # noqa: E402
from usmp_dialect.tvm import c_check  # noqa: E402
from usmp_dialect.tvm.c_library import c_identifier  # noqa: E402
from usmp_dialect.tvm.model_check import check_model  # noqa: E402
from usmp_dialect.tvm.relax.lowering import DEFAULT_LOWERING, lower_model  # noqa: E402
from usmp_dialect.tvm.relax.model_spec import load_model  # noqa: E402

ROOT = Path(__file__).parents[1]


def _require_tools(qemu: bool) -> None:
    try:
        c_check.require_tools(qemu)
    except c_check.MissingTools as error:
        pytest.fail(str(error))


def _planned(spec: str) -> tuple[ModuleOp, dict[str, np.ndarray]]:
    """The model planned with its constants in a constant pool, and the constants."""
    mod, weights = load_model(str(ROOT / spec))
    lowered = lower_model(mod, weights, spec, DEFAULT_LOWERING)
    module = c_check.planned_tir_module(lowered.tir, lowered.constants)
    plan_pools(module, plan_pools_pipeline(constant_pool=True))
    return module, lowered.constants


def test_identifiers_are_c_and_deterministic() -> None:
    assert c_identifier("fc1.weight") == "fc1_weight"
    assert c_identifier("0") == "t0"
    assert c_identifier("int") == "int_"
    assert c_identifier("_x") == "t_x"
    assert c_identifier("serving_default_input:0") == "serving_default_input_0"
    assert c_identifier("NULL") == "NULL_"  # a macro's name, as a member, would expand
    assert c_identifier("errno") == "errno_"
    assert c_identifier("class") == "class_"  # the header is C++'s too (extern "C")
    assert c_identifier("X") == "X_"


@pytest.mark.slow
@pytest.mark.parametrize(
    ("model", "workspace_io"),
    [("mlp.py:mlp", False), ("mlp.py:mlp", True), ("cnn.py:cnn", False)],
)
def test_library_matches_relax_vm(model: str, workspace_io: bool) -> None:
    """The bundle's outputs are the Relax VM's; its `.bss` holds the pools (and, without
    --use-workspace-io, the runner's input and output arrays) and little else."""
    _require_tools(qemu=False)
    mod, weights = load_model(str(ROOT / "examples" / "models" / model))
    result = check_model(mod, weights, model, workspace_io=workspace_io, executor="c")
    assert all(out.agrees for out in result.outputs), result.outputs
    workspace = sum(size for name, size in result.pools.items() if name != result.constant_pool)
    assert result.constant_pool is not None
    assert result.library.sizes.bss >= workspace
    assert result.library.sizes.rodata >= result.pools[result.constant_pool]


def _summed_products() -> tuple[object, dict[str, np.ndarray]]:
    """A reduction into the model's output: its kernel zeroes each output element, then
    adds each product to it, reading back what it wrote."""
    from tvm.script import ir as I
    from tvm.script import relax as R

    @I.ir_module
    class Module:
        @R.function
        def forward(x: R.Tensor((2, 6), "float32"), w: R.Tensor((6, 3), "float32")):
            R.func_attr({"num_input": 1})
            with R.dataflow():
                products = R.matmul(x, w)
                y = R.sum(products, axis=[1])
                R.output(y)
            return y

    return Module, {"w": np.arange(18, dtype=np.float32).reshape(6, 3) / 8}


@pytest.mark.parametrize("workspace_io", [False, True])
def test_an_output_read_back_stays_an_output(workspace_io: bool) -> None:
    """The model's signature says what is an input and what an output, not how the kernels
    use a buffer: an output the reduction reads back is a member of the outputs struct (and
    of the pools' outputs), and the library gives the Relax VM's values."""
    _require_tools(qemu=False)
    mod, weights = _summed_products()
    x = np.random.default_rng(0).standard_normal((2, 6)).astype(np.float32)
    result = check_model(
        mod, weights, "<summed>", workspace_io=workspace_io, executor="c", inputs={"x": x}
    )
    assert [(o.name, o.agrees) for o in result.outputs] == [("output", True)]


def _row_sums() -> tuple[object, dict[str, np.ndarray]]:
    """One kernel reading the input and writing the output: no buffer for a pool."""
    from tvm.script import ir as I
    from tvm.script import relax as R

    @I.ir_module
    class Module:
        @R.function
        def forward(x: R.Tensor((3, 4), "float32")):
            with R.dataflow():
                y = R.sum(x, axis=[1])
                R.output(y)
            return y

    return Module, {}


def test_a_model_with_nothing_to_plan_is_a_library_without_pools() -> None:
    """A one-kernel model is planned with no pool: its C library (without
    --use-workspace-io) gives the Relax VM's sums; the same module never planned is still
    refused, saying so."""
    _require_tools(qemu=False)
    from usmp_dialect.diagnostics import UsmpError
    from usmp_dialect.tvm.c_library import check_module

    mod, weights = _row_sums()
    x = np.random.default_rng(0).standard_normal((3, 4)).astype(np.float32)
    result = check_model(mod, weights, "<sums>", executor="c", inputs={"x": x})
    assert [(o.name, o.agrees) for o in result.outputs] == [("output", True)]
    assert result.pools == {}
    lowered = lower_model(mod, weights, "<sums>", DEFAULT_LOWERING)
    with pytest.raises(UsmpError, match="@main is not planned"):
        check_module(c_check.planned_tir_module(lowered.tir, lowered.constants))


def _sorted_rows() -> tuple[object, dict[str, np.ndarray]]:
    """`R.sort` and `R.argsort`, which TVM lowers to calls of its runtime's sort."""
    from tvm.script import ir as I
    from tvm.script import relax as R

    @I.ir_module
    class Module:
        @R.function
        def forward(x: R.Tensor((3, 6), "float32")):
            with R.dataflow():
                ascending = R.sort(x, axis=1)
                order = R.argsort(x, axis=1, descending=True, dtype="int32")
                R.output(ascending, order)
            return (ascending, order)

    return Module, {}


def test_sort_and_argsort_run_in_the_c_library() -> None:
    """A sort and an argsort are plain loops in the C library, not calls of TVM's runtime:
    the Relax VM's values, ties in the order of their indices (TVM's stable sort)."""
    _require_tools(qemu=False)
    mod, weights = _sorted_rows()
    rng = np.random.default_rng(0)
    x = rng.integers(-3, 3, (3, 6)).astype(np.float32)  # ties in every row
    result = check_model(mod, weights, "<sorted>", executor="c", inputs={"x": x}, tolerance=0)
    assert [(o.name, o.agrees) for o in result.outputs] == [("output0", True), ("output1", True)]


@pytest.mark.slow
def test_int8_model_is_exact(tmp_path: Path) -> None:
    """The int8 CNN (a .tflite written by tests/int8_tflite.py) through the bundle equals
    the Relax VM to the bit."""
    _require_tools(qemu=False)
    pytest.importorskip("tflite")
    sys.path.insert(0, str(ROOT / "tests"))
    from int8_tflite import int8_cnn_tflite

    from usmp_dialect.tvm.model_files.loading import load_model_file
    from usmp_dialect.tvm.relax.lowering import MODEL_FILE_LOWERING

    path = tmp_path / "int8_cnn.tflite"
    path.write_bytes(int8_cnn_tflite())
    mod, weights = load_model_file(str(path), "tflite")
    result = check_model(
        mod, weights, str(path), lowering=MODEL_FILE_LOWERING, tolerance=0, executor="c"
    )
    assert [(o.dtype, o.max_error) for o in result.outputs] == [("int8", 0.0)]


@pytest.mark.parametrize("executor", ["c", "tvm"])
def test_float_constants_keep_every_digit(tmp_path: Path, executor: str) -> None:
    """A requantize from ReLU6's int8 scale (6/255) to twice it, over every int8 value,
    equals the Relax VM, in the C library and in TVM's build for target `c`
    (`check_relax_model.py --target c`): TVM's C code generator prints the scales with 7
    digits, other floats, and values rounded one step off (4 steps at the output of MLTK's
    keyword spotter with transfer learning)."""
    _require_tools(qemu=False)
    pytest.importorskip("tflite")
    sys.path.insert(0, str(ROOT / "tests"))
    from int8_tflite import int8_requantize_tflite

    from usmp_dialect.tvm.model_files.loading import load_model_file
    from usmp_dialect.tvm.relax.lowering import MODEL_FILE_LOWERING, Lowering

    path = tmp_path / "requantize.tflite"
    path.write_bytes(int8_requantize_tflite(6 / 255, 12 / 255))
    mod, weights = load_model_file(str(path), "tflite")
    every_int8 = np.arange(-128, 128, dtype=np.int8).reshape(1, 256)
    result = check_model(
        mod,
        weights,
        str(path),
        # Unfused, a dequantize and a quantize: a float32 intermediate in the pool.
        lowering=Lowering(MODEL_FILE_LOWERING.weights, "none", MODEL_FILE_LOWERING.temporaries),
        target="c",
        tolerance=0,
        executor=executor,
        inputs={"input": every_int8},
    )
    assert [(o.dtype, o.max_error) for o in result.outputs] == [("int8", 0.0)]


@pytest.mark.slow
def test_cortex_m55_gives_the_host_bytes(tmp_path: Path) -> None:
    """The same library, cross-compiled for the Cortex-M55 and run under
    qemu-system-arm -M mps3-an547 (semihosting file I/O), writes the host's bytes."""
    _require_tools(qemu=True)
    module, _ = _planned("examples/models/mlp.py:mlp")
    rng = np.random.default_rng(0)
    inputs = {"x": rng.standard_normal((4, 32)).astype("float32")}
    host = c_check.run_planned(module, inputs, str(tmp_path / "host"))
    board = c_check.run_planned(module, inputs, str(tmp_path / "board"), qemu=True)
    assert host.outputs.keys() == board.outputs.keys() == {"output"}
    assert host.outputs["output"].tobytes() == board.outputs["output"].tobytes()
    # RAM: the pools are the image's .bss, next to the runner's I/O arrays.
    workspace = host.pools["global_workspace"]
    assert workspace <= board.sizes.bss <= workspace + 1024 + 4 * 4 * (32 + 10)
    # And a run's stack: the operators' loops keep their values in registers.
    assert board.stack is not None and 0 < board.stack <= 256


@pytest.mark.slow
def test_make_qemu_reads_files_relative_to_the_callers_directory(tmp_path: Path) -> None:
    """`make -C DIR qemu ARGS="in.bin out.bin"` as a user types it, from another directory."""
    _require_tools(qemu=True)
    module = tmp_path / "copy.mlir"
    module.write_text((ROOT / "tests/filecheck/inputs/tir/emit_c/copy.mlir").read_text())
    subprocess.run(
        [sys.executable, str(ROOT / "tools" / "usmp-translate"), "--emit-c", "lib", str(module)],
        cwd=tmp_path,
        check=True,
    )
    np.array([1, 2, 3, 4], "float32").tofile(tmp_path / "a.bin")
    np.array([10, 0, 0, 0], "float32").tofile(tmp_path / "b.bin")
    done = subprocess.run(
        ["make", "-s", "-C", "lib", "qemu", "ARGS=a.bin b.bin out.bin"],
        cwd=tmp_path,
        env={**os.environ, "PWD": str(tmp_path)},  # as a shell sets it for make
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert np.fromfile(tmp_path / "out.bin", "float32")[0] == 11


def _application(module: ModuleOp, program: str, directory: Path) -> Path:
    """`program` (C, as an application's `app.c`) built against the module's library."""
    from usmp_dialect.tvm.c_bundle import write_library

    library = directory / "lib"
    write_library(module, str(library), "model")
    (library / "app.c").write_text(program)
    flags = ["-std=c11", "-Wall", "-Wextra", "-Werror", "-O2"]
    sources = ["app.c", "model.c", "model_constants.c"]
    subprocess.run(["cc", *flags, "-o", "app", *sources, "-lm"], cwd=library, check=True)
    return library / "app"


OVERRIDE_PROGRAM = r"""
#include <stdio.h>
#include <string.h>
#include "model.h"

static _Alignas(16) uint8_t pool[MODEL_GLOBAL_WORKSPACE_WORKSPACE_POOL_SIZE];
static float x[4 * 32], by_default[4 * 10], overridden[4 * 10];
static const float zero_bias[10];

int main(void) {
  for (int i = 0; i < 4 * 32; ++i) x[i] = (float)(i % 7) - 3.0f;
  struct model_workspace_pools pools = {pool};
  struct model_inputs inputs = {x};
  struct model_outputs first = {by_default}, second = {overridden};
  struct model_constants overrides;
  memset(&overrides, 0, sizeof overrides);
  overrides.fc3_bias = zero_bias;
  if (model_run(&inputs, &first, &pools, NULL) != 0) return 1;
  if (model_run(&inputs, &second, &pools, &overrides) != 0) return 1;
  fwrite(by_default, sizeof by_default, 1, stdout);
  fwrite(overridden, sizeof overridden, 1, stdout);
  return 0;
}
"""


@pytest.mark.slow
def test_a_users_tensor_overrides_a_constant(tmp_path: Path) -> None:
    """An application links the library itself and replaces the last bias by zeros for one
    run (`struct model_constants`); the other constants still come from the constant pool:
    the outputs differ by exactly that bias."""
    _require_tools(qemu=False)
    module, constants = _planned("examples/models/mlp.py:mlp")
    app = _application(module, OVERRIDE_PROGRAM, tmp_path)
    done = subprocess.run([str(app)], capture_output=True, check=True)
    by_default, overridden = np.frombuffer(done.stdout, "float32").reshape(2, 4, 10)
    bias = constants["fc3_bias"]
    np.testing.assert_allclose(by_default - overridden, np.broadcast_to(bias, (4, 10)), atol=1e-6)


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
  int8_t* frame = inputs.serving_default_input_audio_0;
  while (fread(frame, MODEL_INPUT_SERVING_DEFAULT_INPUT_AUDIO_0_SIZE, 1, stdin) == 1) {
    if (model_run(&pools, NULL) != 0) return 1;
    fwrite(outputs.StatefulPartitionedCall_0, 1, 1, stdout);
  }
  return 0;
}
"""


@pytest.mark.slow
def test_streaming_model_keeps_its_state_in_the_state_pool(tmp_path: Path) -> None:
    """A firmware's loop over microWakeWord's detector as a C library: its state pool set
    once by `model_init_state` (the file's CALL_ONCE values), then kept from run to run
    while the workspace pool, with the input and output, is reused; over 60 feature frames
    its output is TensorFlow Lite Micro's within 2/256 (TVM computes each quantized operator
    in float32, TFLM in fixed point), and the stream moves it."""
    _require_tools(qemu=False)
    pytest.importorskip("tflite_micro")
    from tflite_micro.python.tflite_micro import runtime
    from wheel_models import wheel_model_path

    from usmp_dialect.tvm.model_files.loading import import_model_file

    path = wheel_model_path("wakeword-okay-nabu-tflite")
    assert path is not None, "pip install -e '.[test]' (pymicro-wakeword)"
    module = import_model_file(str(path), "tflite")
    plan_pools(module, plan_pools_pipeline(workspace_io=True, constant_pool=True))
    app = _application(module, STREAM_PROGRAM, tmp_path)
    rng = np.random.default_rng(1)
    frames = [
        rng.integers(low, high, (1, 3, 40)).astype(np.int8)
        for low, high in [(-128, -100), (-128, 0), (-60, 60), (0, 127), (-128, 127)]
        for _ in range(12)
    ]
    done = subprocess.run(
        [str(app)], input=b"".join(f.tobytes() for f in frames), capture_output=True
    )
    assert done.returncode == 0, done.stderr
    ours = list(done.stdout)
    interpreter = runtime.Interpreter.from_file(str(path))
    theirs = []
    for frame in frames:
        interpreter.set_input(frame, 0)
        interpreter.invoke()
        theirs.append(int(interpreter.get_output(0)[0, 0]))
    assert len(ours) == len(theirs)
    assert max(abs(a - b) for a, b in zip(ours, theirs, strict=True)) <= 2, (ours, theirs)
    assert len(set(theirs)) > 1, theirs
