"""The C library of `usmp-translate --emit-c`, built by its own Makefile and run with
every pool prefilled with 0xFF: on this machine it gives the Relax VM's outputs (int8
exactly), and on QEMU's Cortex-M55 (arm-none-eabi-gcc, newlib, semihosting) the host's
bytes. A machine without the toolchain fails these tests with the command that installs
it (CI installs it: .ci/run)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from xdsl.dialects.builtin import ModuleOp

tvm = pytest.importorskip("tvm")
pytestmark = pytest.mark.tvm

from tests.support import c_check  # noqa: E402
from tests.support.model_check import check_model  # noqa: E402
from usmp_dialect.pipeline import plan_pools, plan_pools_pipeline  # noqa: E402
from usmp_dialect.tvm.c.library import c_identifier  # noqa: E402
from usmp_dialect.tvm.relax.model_spec import load_model  # noqa: E402
from usmp_dialect.tvm.relax.to_tir import model_to_tir  # noqa: E402
from usmp_dialect.tvm_options import DEFAULT_TIR_IMPORT  # noqa: E402

ROOT = Path(__file__).parents[1]


def _require_tools(qemu: bool) -> None:
    try:
        c_check.require_tools(qemu)
    except c_check.MissingTools as error:
        pytest.fail(str(error))


def _planned(spec: str) -> tuple[ModuleOp, dict[str, np.ndarray]]:
    """The model planned with its constants in a constant pool, and the constants."""
    mod, weights = load_model(str(ROOT / spec))
    lowered = model_to_tir(mod, weights, spec, DEFAULT_TIR_IMPORT)
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
    from usmp_dialect.tvm.c.library import check_module

    mod, weights = _row_sums()
    x = np.random.default_rng(0).standard_normal((3, 4)).astype(np.float32)
    result = check_model(mod, weights, "<sums>", executor="c", inputs={"x": x})
    assert [(o.name, o.agrees) for o in result.outputs] == [("output", True)]
    assert result.pools == {}
    lowered = model_to_tir(mod, weights, "<sums>", DEFAULT_TIR_IMPORT)
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
    from usmp_dialect.tvm_options import MODEL_FILE_TIR_IMPORT

    path = tmp_path / "int8_cnn.tflite"
    path.write_bytes(int8_cnn_tflite())
    mod, weights = load_model_file(str(path), "tflite")
    result = check_model(
        mod, weights, str(path), tir_import=MODEL_FILE_TIR_IMPORT, tolerance=0, executor="c"
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
    from usmp_dialect.tvm_options import MODEL_FILE_TIR_IMPORT, TirImport

    path = tmp_path / "requantize.tflite"
    path.write_bytes(int8_requantize_tflite(6 / 255, 12 / 255))
    mod, weights = load_model_file(str(path), "tflite")
    every_int8 = np.arange(-128, 128, dtype=np.int8).reshape(1, 256)
    result = check_model(
        mod,
        weights,
        str(path),
        # Unfused, a dequantize and a quantize: a float32 intermediate in the pool.
        tir_import=TirImport(
            MODEL_FILE_TIR_IMPORT.weights, "none", MODEL_FILE_TIR_IMPORT.temporaries
        ),
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


def _negative_shift() -> object:
    """A kernel shifting int32 values left: undefined in C11 (6.5.7) for a negative one."""
    from tvm.script import ir as I
    from tvm.script import tirx as T

    @I.ir_module
    class Module:
        @T.prim_func
        def main(a: T.Buffer((4,), "int32"), b: T.Buffer((4,), "int32")):
            for i in range(4):
                b[i] = a[i] << 3

    return Module


def test_the_sanitized_build_stops_at_undefined_behaviour(tmp_path: Path) -> None:
    """The tier's check (`USMP_SANITIZE_C=1`): the library runs, but its sanitized build
    stops at the left shift of -1, and says so."""
    _require_tools(qemu=False)
    module = c_check.planned_tir_module(_negative_shift(), {})
    plan_pools(module, plan_pools_pipeline())
    inputs = {"a": np.array([1, 2, 3, 4], "int32")}
    plain = c_check.run_planned(module, inputs, str(tmp_path / "plain"), sanitize=False)
    assert plain.outputs["b"].tolist() == [8, 16, 24, 32]
    inputs = {"a": np.array([1, -1, 3, 4], "int32")}
    with pytest.raises(RuntimeError, match="left shift of negative value -1"):
        c_check.run_planned(module, inputs, str(tmp_path / "sanitized"), sanitize=True)


@pytest.mark.slow
def test_cortex_m55_at_o3_gives_the_bytes_of_o2(tmp_path: Path) -> None:
    """The int8 CNN's library (TFLM's fixed-point requantization in every kernel) on QEMU's
    Cortex-M55, built with -O3 instead of the Makefile's -O2, writes the same bytes: on
    inputs over the whole int8 range, its arithmetic leans on nothing C leaves undefined."""
    _require_tools(qemu=True)
    pytest.importorskip("tflite")
    sys.path.insert(0, str(ROOT / "tests"))
    from int8_tflite import int8_cnn_tflite

    from usmp_dialect.tvm.c.library import check_module, interface
    from usmp_dialect.tvm.c.runner import ARM_FLAGS
    from usmp_dialect.tvm.model_files.loading import import_model_file

    path = tmp_path / "int8_cnn.tflite"
    path.write_bytes(int8_cnn_tflite())
    module = import_model_file(str(path), "tflite")
    plan_pools(module, plan_pools_pipeline(constant_pool=True))
    (tensor,) = interface(module, check_module(module), "model").inputs
    rng = np.random.default_rng(0)
    inputs = {tensor.name: rng.integers(-128, 128, tensor.shape).astype(np.int8)}
    directory = str(tmp_path / "board")
    at_o2 = c_check.run_planned(module, inputs, directory, qemu=True)
    assert "-O2" in ARM_FLAGS.split()
    c_check.build(directory, qemu=True, flags=ARM_FLAGS.replace("-O2", "-O3"))
    library = interface(module, check_module(module), "model")
    at_o3 = c_check.run(directory, library, inputs, qemu=True)
    (output,) = at_o2.outputs
    assert len(set(at_o2.outputs[output].tolist()[0])) > 1  # not one clamped value
    assert at_o3[output].tobytes() == at_o2.outputs[output].tobytes()


def test_emit_c_leaves_the_users_files_in_dir(tmp_path: Path) -> None:
    """The issue's case: `--emit-c DIR` into a folder holding the user's `my_main.c` and a
    built binary replaces its own files and nothing else; DIR a file: one diagnostic."""
    module = ROOT / "tests/filecheck/inputs/tir/emit_c/copy.mlir"
    library = tmp_path / "lib"
    library.mkdir()
    (library / "my_main.c").write_text('#include "model.h"\n')
    (library / "app").write_bytes(b"\x7fELF")
    (library / "model.h").write_text("an old header")

    def emit_c(directory: Path) -> subprocess.CompletedProcess[str]:
        command = [sys.executable, str(ROOT / "tools" / "usmp-translate"), "--emit-c"]
        return subprocess.run(
            [*command, str(directory), str(module)], capture_output=True, text=True
        )

    done = emit_c(library)
    assert done.returncode == 0, done.stderr
    assert (library / "my_main.c").read_text() == '#include "model.h"\n'
    assert (library / "app").read_bytes() == b"\x7fELF"
    assert "model_run" in (library / "model.h").read_text()
    assert {"model.c", "run.c", "Makefile"} <= {p.name for p in library.iterdir()}

    a_file = tmp_path / "a_file"
    a_file.write_text("the user's")
    done = emit_c(a_file)
    assert (done.returncode, done.stdout) == (1, "")
    assert (
        done.stderr == f"{a_file}: error: cannot write into the directory: it is not a directory\n"
    )
    assert a_file.read_text() == "the user's"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a_file", "lib"]


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
    """`program` (C, as an application's `app.c`) built against the module's library (as
    `app`, and as `app-sanitized` with the sanitizers when the tier asks for them)."""
    from usmp_dialect.tvm.c.bundle import write_library
    from usmp_dialect.tvm.c.runner import HOST_FLAGS

    library = directory / "lib"
    write_library(module, str(library), "model")
    (library / "app.c").write_text(program)
    sources = ["app.c", "model.c", "model_constants.c"]
    builds = {"app": HOST_FLAGS}
    if c_check.sanitizing():
        builds["app-sanitized"] = f"{HOST_FLAGS} {c_check.SANITIZER_FLAGS}"
    for name, flags in builds.items():
        command = ["cc", *flags.split(), "-o", name, *sources, "-lm"]
        subprocess.run(command, cwd=library, check=True)
    return library / "app"


def _run_application(app: Path, stdin: bytes = b"") -> subprocess.CompletedProcess[bytes]:
    """`app` run on `stdin`; its sanitized build too, if built: the same bytes out."""
    done = subprocess.run([str(app)], input=stdin, capture_output=True)
    sanitized = app.with_name("app-sanitized")
    if sanitized.exists():
        checked = subprocess.run([str(sanitized)], input=stdin, capture_output=True)
        assert checked.returncode == 0, checked.stderr.decode()
        assert (checked.returncode, checked.stdout) == (done.returncode, done.stdout)
    return done


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
    done = _run_application(app)
    assert done.returncode == 0, done.stderr
    by_default, overridden = np.frombuffer(done.stdout, "float32").reshape(2, 4, 10)
    bias = constants["fc3_bias"]
    np.testing.assert_allclose(by_default - overridden, np.broadcast_to(bias, (4, 10)), atol=1e-6)


@pytest.mark.slow
def test_streaming_model_keeps_its_state_in_the_state_pool(tmp_path: Path) -> None:
    """A firmware's loop over microWakeWord's detector as a C library: its state pool set
    once by `model_init_state` (the file's CALL_ONCE values), then kept from run to run
    while the workspace pool, with the input and output, is reused; over 60 feature frames
    its output is TensorFlow Lite Micro's within 2/256 (TVM computes each quantized operator
    in float32, TFLM in fixed point), and the stream moves it."""
    _require_tools(qemu=False)
    pytest.importorskip("tflite_micro")
    from stream_program import stream_program
    from tflite_micro.python.tflite_micro import runtime
    from wheel_models import wheel_model_path

    from usmp_dialect.tvm.model_files.loading import import_model_file

    path = wheel_model_path("wakeword-okay-nabu-tflite")
    assert path is not None, "pip install -e '.[test]' (pymicro-wakeword)"
    module = import_model_file(str(path), "tflite")
    plan_pools(module, plan_pools_pipeline(workspace_io=True, constant_pool=True))
    program = stream_program("serving_default_input_audio_0", "StatefulPartitionedCall_0")
    app = _application(module, program, tmp_path)
    rng = np.random.default_rng(1)
    frames = [
        rng.integers(low, high, (1, 3, 40)).astype(np.int8)
        for low, high in [(-128, -100), (-128, 0), (-60, 60), (0, 127), (-128, 127)]
        for _ in range(12)
    ]
    done = _run_application(app, b"".join(f.tobytes() for f in frames))
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


LONG_OUTPUT_NAME = ";".join(
    f"functional_1/dense_{i}/BiasAdd;functional_1/dense_{i}/MatMul" for i in range(4)
)
"""A TFLite output tensor's name as the converter joins them: 190 characters."""

CPP_MAIN = r"""
#include <cstdio>
#include "model.h"

static MODEL_INPUT_INPUT_TYPE input[MODEL_INPUT_INPUT_ELEMENTS];
static MODEL_OUTPUT_SCORES_TYPE scores[MODEL_OUTPUT_SCORES_ELEMENTS];

int main() {
  const int shape[MODEL_INPUT_INPUT_RANK] = MODEL_INPUT_INPUT_SHAPE;
  for (int i = 0; i < shape[1]; ++i) {  // the reals -12.8 ... 12.7, quantized
    float real = (float)(i - 128) / 10.0f;
    input[i] = (int8_t)(real / MODEL_INPUT_INPUT_SCALE + 0.5f * (real > 0 ? 1 : -1)
                        + MODEL_INPUT_INPUT_ZERO_POINT);
  }
  model_workspace_pools pools{};  // the model plans nothing: no pool
  model_inputs inputs = {input};
  model_outputs outputs = {scores};
  if (model_run(&inputs, &outputs, &pools, nullptr) != 0) return 1;
  for (int i = 0; i < MODEL_OUTPUT_SCORES_ELEMENTS; ++i)
    std::printf("%d %g\n", scores[i],
                MODEL_OUTPUT_SCORES_SCALE * (float)(scores[i] - MODEL_OUTPUT_SCORES_ZERO_POINT));
  return 0;
}
"""

COMPILERS = {"gcc": ("gcc", "g++"), "clang": ("clang", "clang++")}
WARNINGS = ["-Wall", "-Wextra", "-Werror", "-pedantic"]


def _identifiers(path: Path) -> set[str]:
    """The C identifiers of a source, its comments left out (by the preprocessor)."""
    text = subprocess.run(
        ["gcc", "-fpreprocessed", "-dD", "-E", "-P", str(path)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return set(re.findall(r"\b[A-Za-z_]\w*\b", text))


def test_a_cpp_main_calls_the_library_by_its_header(tmp_path: Path) -> None:
    """The header links from C++ (`extern "C"`), says each input's and output's shape,
    element type, scale and zero point; header and library compile without a warning as
    C11 and C++17 under gcc and clang; a name of 190 characters becomes an identifier of
    at most 63 (its full name in a comment)."""
    for c, cpp in COMPILERS.values():
        for tool in (c, cpp):
            if shutil.which(tool) is None:
                pytest.fail(f"{tool} not found: install it with `apt-get install -y clang g++`")
    pytest.importorskip("tflite")
    sys.path.insert(0, str(ROOT / "tests"))
    from int8_tflite import int8_requantize_tflite

    model = tmp_path / "scores.tflite"
    model.write_bytes(int8_requantize_tflite(0.1, 0.2, LONG_OUTPUT_NAME, output_zero_point=-3))
    tool = [sys.executable, str(ROOT / "tools" / "usmp-translate")]
    imported = subprocess.run(
        [*tool, "--import-tflite", str(model)], capture_output=True, check=True
    ).stdout
    planned = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "usmp-opt"), "--plan-pools", "--constant-pool"],
        input=imported,
        capture_output=True,
        check=True,
    ).stdout
    (tmp_path / "planned.mlir").write_bytes(planned)
    library = tmp_path / "lib"
    subprocess.run([*tool, "--emit-c", str(library), str(tmp_path / "planned.mlir")], check=True)
    header = (library / "model.h").read_text()
    member = re.search(r"struct model_outputs \{\n  int8_t\* (\w+);", header)
    assert member is not None and member[1].startswith("dense_0_BiasAdd_dense_0_MatMul_")
    assert f"/* output '{re.sub(r'[/;]', '_', LONG_OUTPUT_NAME)}' */" in header
    assert "#define MODEL_INPUT_INPUT_SCALE 0.1" in header
    assert "#define MODEL_INPUT_INPUT_SHAPE {1, 256}" in header
    # The main reads the header's macros of the output.
    main = CPP_MAIN.replace("MODEL_OUTPUT_SCORES_", f"MODEL_OUTPUT_{member[1].upper()}_")
    (library / "main.cpp").write_text(main)
    for path in (library / "model.h", library / "model.c"):
        assert max(len(name) for name in _identifiers(path)) <= 63
    printed = set()
    for c, cpp in COMPILERS.values():
        subprocess.run([c, "-std=c11", *WARNINGS, "-O2", "-c", "model.c"], cwd=library, check=True)
        flags = ["-std=c++17", *WARNINGS]
        subprocess.run([cpp, *flags, "-c", "main.cpp"], cwd=library, check=True)
        subprocess.run([cpp, "-o", "app", "main.o", "model.o", "-lm"], cwd=library, check=True)
        ran = subprocess.run([library / "app"], capture_output=True, text=True, check=True)
        printed.add(ran.stdout)
    (lines,) = printed
    values = [line.split() for line in lines.splitlines()]
    # The reals -12.8 ... 12.7 at scale 0.2 around -3: -67 ... -3 ... 60, each real read back.
    assert [int(values[i][0]) for i in (0, 128, 254)] == [-67, -3, 60]
    assert [float(values[i][1]) for i in (126, 128, 130, 254)] == [-0.2, 0.0, 0.2, 12.6]


@pytest.mark.slow
def test_a_pool_goes_in_the_section_and_memory_it_names(tmp_path: Path) -> None:
    """`--pools 'sram:...:section=.dtcm,dram:section=.ext_ram'`: the runner puts each pool's
    array in its section, the AN547's linker script places the sections in DTCM and DDR,
    the header says so, and the board computes the host's bytes."""
    _require_tools(qemu=True)
    mod, weights = load_model(str(ROOT / "examples/models/cnn.py:cnn"))
    lowered = model_to_tir(mod, weights, "cnn.py:cnn", DEFAULT_TIR_IMPORT)
    module = c_check.planned_tir_module(lowered.tir, lowered.constants)
    pools = "sram:size_hint=1K:section=.dtcm,dram:section=.ext_ram"
    plan_pools(module, plan_pools_pipeline(constant_pool=True, pools=pools))
    rng = np.random.default_rng(0)
    inputs = {"x": rng.standard_normal((1, 3, 8, 8)).astype("float32")}
    host = c_check.run_planned(module, inputs, str(tmp_path / "host"))
    board = c_check.run_planned(module, inputs, str(tmp_path / "board"), qemu=True)
    assert all(np.array_equal(host.outputs[k], board.outputs[k]) for k in host.outputs)
    header = (tmp_path / "board" / "model.h").read_text()
    assert '#define MODEL_SRAM_SECTION ".dtcm"' in header
    assert '#define MODEL_DRAM_SECTION ".ext_ram"' in header
    symbols = subprocess.run(
        ["arm-none-eabi-nm", "run.elf"], cwd=tmp_path / "board", capture_output=True, text=True
    ).stdout
    addresses = {line.split()[-1]: int(line.split()[0], 16) for line in symbols.splitlines()}
    assert 0x20000000 <= addresses["pool_sram"] < 0x20080000  # the DTCM
    assert 0x60000000 <= addresses["pool_dram"] < 0x70000000  # the DDR


def test_a_pool_name_too_long_for_its_macros_is_one_diagnostic(tmp_path: Path) -> None:
    """A pool's macro adds the most to its name (`MODEL_<POOL>_WORKSPACE_POOL_ALIGNMENT`):
    a pool named at length is one diagnostic naming it, exit 1, no library written (it
    was a header whose macros passed the 63 characters C keeps apart)."""
    pool = "tightly_coupled_data_memory_of_the_cortex_m55"
    source = tmp_path / "planned.mlir"
    source.write_text(
        "builtin.module {\n"
        f'  tir.prim_func @main(%p: !tir.buffer<32xui8> {{tir.name = "{pool}"}}) attributes '
        f"{{runner_function = true, usmp.pools = #usmp.pool_sizes<{pool} = 32>, "
        f'usmp.io_offsets = #usmp.io_offsets<x = input "{pool}"[0] : memref<4xf32>, '
        f'y = output "{pool}"[16] : memref<4xf32>>}} {{\n'
        "    %0 = arith.constant 0 : i32\n  }\n}\n"
    )
    library = tmp_path / "lib"
    tool = [sys.executable, str(ROOT / "tools" / "usmp-translate")]
    ran = subprocess.run(
        [*tool, "--emit-c", str(library), str(source)], capture_output=True, text=True
    )
    assert ran.returncode == 1
    assert ran.stderr.count("error:") == 1
    assert f"pool '{pool}' makes the macro MODEL_" in ran.stderr
    assert "give the pool a shorter name" in ran.stderr
    assert not library.exists()
