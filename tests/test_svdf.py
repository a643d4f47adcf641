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
from stream_program import stream_program  # noqa: E402
from svdf_tflite import LAYERS, svdf_tflite  # noqa: E402

from tests.support import c_check  # noqa: E402
from usmp_dialect.pipeline import plan_pools, plan_pools_pipeline  # noqa: E402
from usmp_dialect.tvm.c.bundle import write_library  # noqa: E402
from usmp_dialect.tvm.model_files.loading import import_model_file  # noqa: E402
from usmp_dialect.tvm.relax.to_tir import RelaxImportError  # noqa: E402

CASES = {"float32": ("float32", "int16"), "int8-int16-state": ("int8", "int16")}
CASES["int8-int8-state"] = ("int8", "int8")


def _streamed(
    path: Path, frames: list[np.ndarray], tmp_path: Path
) -> tuple[np.ndarray, np.ndarray, str]:
    """The model file's outputs for `frames`, one run each: (ours, by a firmware-like loop
    over its C library, planned with its inputs and outputs in the workspace pool and its
    state set once by `model_init_state`; TFLM's interpreter's; the library's header)."""
    (ours,), (theirs,), header = _streamed_outputs(path, frames, tmp_path, 1)
    return ours, theirs, header


def _streamed_outputs(
    path: Path, frames: list[np.ndarray], tmp_path: Path, count: int
) -> tuple[list[np.ndarray], list[np.ndarray], str]:
    """As `_streamed`, of the model's first `count` outputs: ([ours, by output], [TFLM's,
    by output], the header), each output's values stacked run by run."""
    try:
        c_check.require_tools(qemu=False)
    except c_check.MissingTools as error:
        pytest.fail(str(error))
    pytest.importorskip("tflite_micro")
    from tflite_micro.python.tflite_micro import runtime

    module = import_model_file(str(path), "tflite")
    plan_pools(module, plan_pools_pipeline(workspace_io=True, constant_pool=True))
    library = tmp_path / "lib"
    write_library(module, str(library), "model")
    header = (library / "model.h").read_text()
    (given,), taken = (
        re.findall(rf"struct model_{kind} {{\n((?:\s+\w+\* \w+;\n)+)}}", header)[0].split()[1::2]
        for kind in ("inputs", "outputs")
    )
    taken = [name.rstrip(";") for name in taken][:count]
    given = given.rstrip(";")
    stateful = "model_init_state" in header
    program = stream_program(given, taken[0], stateful, also=tuple(taken[1:]))
    (library / "app.c").write_text(program)
    flags = ["-std=c11", "-Wall", "-Wextra", "-Werror", "-O2"]
    # A model of no constants (a lone SignalDelay) has no constants file.
    sources = [p.name for p in (library / "model_constants.c",) if p.exists()]
    sources = ["app.c", "model.c", *sources]
    subprocess.run(["cc", *flags, "-o", "app", *sources, "-lm"], cwd=library, check=True)
    done = subprocess.run(
        [str(library / "app")], input=b"".join(f.tobytes() for f in frames), capture_output=True
    )
    assert done.returncode == 0, done.stderr
    interpreter = runtime.Interpreter.from_file(str(path))
    theirs: list[list[np.ndarray]] = [[] for _ in range(count)]
    for frame in frames:
        interpreter.set_input(frame, 0)
        interpreter.invoke()
        for i in range(count):
            theirs[i].append(interpreter.get_output(i).copy())
    expected = [np.stack(t) for t in theirs]
    runs = np.frombuffer(done.stdout, np.uint8).reshape(len(frames), -1)
    ours, at = [], 0
    for values in expected:
        width = values[0].nbytes
        ours.append(runs[:, at : at + width].copy().view(values.dtype).reshape(values.shape))
        at += width
    return ours, expected, header


def _frames(dtype: str, count: int) -> list[np.ndarray]:
    rng = np.random.default_rng(1)
    if dtype == "float32":
        return [rng.uniform(-2, 2, (1, 6)).astype(np.float32) for _ in range(count)]
    return [rng.integers(-128, 128, (1, 6)).astype(np.int8) for _ in range(count)]


@pytest.mark.slow
@pytest.mark.parametrize("case", CASES)
def test_svdf_stream_gives_tflms_outputs_frame_by_frame(case: str, tmp_path: Path) -> None:
    dtype, state = CASES[case]
    path = tmp_path / f"svdf-{case}.tflite"
    path.write_bytes(svdf_tflite(dtype, state))
    ours, theirs, header = _streamed(path, _frames(dtype, 60), tmp_path)
    np.testing.assert_array_equal(ours, theirs)
    # Each state one buffer in the state pool (aligned to 16 bytes), nothing else there.
    size = {"float32": 4, "int16": 2, "int8": 1}[state if dtype == "int8" else dtype]
    sizes = [rank * units * memory * size for _, rank, memory, units in LAYERS]
    for layer, state_size in enumerate(sizes):
        assert f"#define MODEL_STATE_SVDF{layer}_STATE_SIZE {state_size}\n" in header
    (pool,) = re.findall(r"#define MODEL_GLOBAL_STATE_STATE_POOL_SIZE (\d+)", header)
    assert sum(sizes) <= int(pool) <= sum(-(-s // 16) * 16 for s in sizes)
    # The stream moves the outputs, and the int8 ones are not saturated throughout.
    assert len({o.tobytes() for o in theirs}) > 50
    if dtype == "int8":
        assert np.mean(np.abs(theirs.astype(int)) < 127) > 0.5


@pytest.mark.slow
def test_svdf_after_an_elementwise_operator_keeps_its_state(tmp_path: Path) -> None:
    """The ADD before the first SVDF is fused into its state update (`--temporaries=inline`):
    the state must still be one buffer of the state pool, kept from run to run, not an
    input and an output the caller would have to copy."""
    path = tmp_path / "doubled.tflite"
    path.write_bytes(svdf_tflite("float32", doubled=True))
    ours, theirs, header = _streamed(path, _frames("float32", 20), tmp_path)
    np.testing.assert_array_equal(ours, theirs)
    assert "#define MODEL_STATE_SVDF0_STATE_SIZE 96\n" in header


@pytest.mark.parametrize(
    ("spoil", "message"),
    [
        ("state-not-variable", "its activation_state is not a variable tensor"),
        ("state-shape", r"its activation_state is \[1, 25\], its options and weights make \["),
        (
            "state-type",
            "its activation_state is int8 and its weights_time int16: TFLM's int8 SVDF reads "
            "its state as its time weights' type",
        ),
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


DATA = Path(__file__).parent / "data" / "tflm"
# TFLM's arena threshold test: keyword_scrambled.tflite's non-persistent arena (head).
TFLM_KEYWORD_HEAD = 672


def _exposing(model: bytes, operator: int) -> bytes:
    """`model` whose one output is `operator`'s output instead (the scrambled weights make
    the keyword models' scores one value whatever the input; the SVDFs' outputs move)."""
    import tflite

    data = bytearray(model)
    graph = tflite.Model.GetRootAsModel(data, 0).Subgraphs(0)
    at = graph._tab.Vector(graph._tab.Offset(8))  # SubGraph.outputs, one int32
    data[at : at + 4] = np.int32(graph.Operators(operator).Outputs(0)).tobytes()
    return bytes(data)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("name", "operator"),
    [
        ("keyword_scrambled", None),
        ("keyword_scrambled", 10),
        ("keyword_scrambled_8bit", None),
    ],
)
def test_tflms_keyword_benchmark_streams_as_tflm(
    name: str, operator: int | None, tmp_path: Path
) -> None:
    """TFLM's keyword benchmark (seven SVDFs), its inputs and outputs in the workspace pool:
    the workspace pool at or below TFLM's non-persistent arena (672 bytes by TFLM's own
    threshold test), the state pool exactly TFLM's variable buffers, and 60 frames of
    random int16 audio features give TFLM's outputs exactly, frame by frame (the scores,
    or an SVDF's output the file is made to return; the 8-bit file's SVDFs saturate on
    every input, their outputs one value)."""
    from usmp_dialect.tvm.tflm.arena import tflm_arena, variable_bytes

    model = (DATA / f"{name}.tflite").read_bytes()
    path = tmp_path / f"{name}.tflite"
    path.write_bytes(model if operator is None else _exposing(model, operator))
    rng = np.random.default_rng(0)
    frames = [rng.integers(-32768, 32768, (1, 96)).astype(np.int16) for _ in range(60)]
    ours, theirs, header = _streamed(path, frames, tmp_path)
    np.testing.assert_array_equal(ours, theirs)
    (workspace,) = re.findall(r"#define MODEL_GLOBAL_WORKSPACE_WORKSPACE_POOL_SIZE (\d+)", header)
    (state,) = re.findall(r"#define MODEL_GLOBAL_STATE_STATE_POOL_SIZE (\d+)", header)
    assert int(state) == variable_bytes(str(path))
    if operator is None:
        head, _ = tflm_arena(str(path))
        assert head == TFLM_KEYWORD_HEAD
        assert int(workspace) <= head
    else:
        assert len({t.tobytes() for t in theirs}) > 1
