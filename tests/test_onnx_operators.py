"""ONNX operators TVM's Relax frontend lacks or we lowered wrongly, each imported as
`usmp-translate --import-onnx` imports it, planned, built, run with every pool prefilled
with 0xFF, and compared with onnxruntime, ONNX's reference runtime: `Split` and `TopK`
(operators computing a tuple), `LSTM`, `GRU`, `ConvInteger`, `MatMulInteger`, `If` and
`Loop`. The models are built here with `onnx.helper`."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

tvm = pytest.importorskip("tvm")
onnx = pytest.importorskip("onnx")
pytest.importorskip("onnxruntime")
pytestmark = pytest.mark.tvm

from onnx import TensorProto, helper, numpy_helper  # noqa: E402

from tests.support.reference_runtime import reference_outputs  # noqa: E402
from usmp_dialect.parsing import print_module  # noqa: E402
from usmp_dialect.tvm.model_files.loading import import_model_file, load_model_file  # noqa: E402
from usmp_dialect.tvm.relax.to_tir import RelaxImportError, model_to_tir, sanitize  # noqa: E402
from usmp_dialect.tvm.tvmscript.planned_module import plan_module  # noqa: E402
from usmp_dialect.tvm.tvmscript.run import run_module  # noqa: E402
from usmp_dialect.tvm_options import MODEL_FILE_TIR_IMPORT  # noqa: E402

# float32 sums in another order than onnxruntime's: a few units in the last place of
# values near 1, over the handful of products each output sums.
TOLERANCE = 1e-5


def _tensor(name: str, dtype: int, shape: list[int]) -> Any:
    return helper.make_tensor_value_info(name, dtype, shape)


def _save(
    tmp_path: Path,
    nodes: list[Any],
    inputs: list[Any],
    outputs: list[Any],
    initializers: dict[str, np.ndarray] | None = None,
    opset: int = 17,
) -> Path:
    graph = helper.make_graph(
        nodes,
        "model",
        inputs,
        outputs,
        [numpy_helper.from_array(v, k) for k, v in (initializers or {}).items()],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    onnx.checker.check_model(model)
    path = tmp_path / "model.onnx"
    path.write_bytes(model.SerializeToString())
    return path


def _ours(path: Path, inputs: dict[str, np.ndarray], target: str = "llvm") -> list[np.ndarray]:
    """The model imported, planned, built for `target` and run: its outputs in the graph's
    order."""
    mod, weights = load_model_file(str(path), "onnx")
    tir, constants = model_to_tir(mod, weights, str(path), MODEL_FILE_TIR_IMPORT)
    planned = plan_module(tir)
    arguments = {**{sanitize(k): v for k, v in inputs.items()}, **constants}
    results = run_module(planned, arguments, target)
    params = [p.name for p in tir["main"].params]
    outputs = params[len(inputs) + len(constants) :]
    return [results[name] for name in outputs]


def _onnxruntime(path: Path, inputs: dict[str, np.ndarray]) -> list[np.ndarray]:
    """The file's outputs from onnxruntime, run as every model file's reference is."""
    names = [i.name for i in onnx.load(str(path), load_external_data=False).graph.input]
    return reference_outputs(str(path), [inputs[name] for name in names if name in inputs])


def _onnx_reference(path: Path, inputs: dict[str, np.ndarray]) -> list[np.ndarray]:
    """ONNX's own reference implementation, where onnxruntime lacks an operator's case."""
    from onnx.reference import ReferenceEvaluator

    return [np.asarray(v) for v in ReferenceEvaluator(str(path)).run(None, inputs)]


def _max_differences(
    path: Path,
    inputs: dict[str, np.ndarray],
    reference_run: Any = _onnxruntime,
    target: str = "llvm",
) -> list[float]:
    """Ours (built for `target`) against onnxruntime (or `reference_run`), output by
    output: the largest absolute difference (the dtypes and shapes equal)."""
    import_model_file(str(path), "onnx")  # `usmp-translate --import-onnx` takes the file
    ours, reference = _ours(path, inputs, target), reference_run(path, inputs)
    assert [(o.dtype, o.shape) for o in ours] == [(r.dtype, r.shape) for r in reference]
    return [
        float(np.max(np.abs(o.astype(np.float64) - r))) if r.size else 0.0
        for o, r in zip(ours, reference, strict=True)
    ]


def _assert_close(
    path: Path,
    inputs: dict[str, np.ndarray],
    tolerance: float = 0.0,
    reference_run: Any = _onnxruntime,
    target: str = "llvm",
) -> None:
    differences = _max_differences(path, inputs, reference_run, target)
    assert all(d <= tolerance for d in differences), differences


RNG = np.random.default_rng(0)
# The console scripts beside this interpreter (the venv's).
TOOLS = Path(sys.executable).parent


def _normal(*shape: int) -> np.ndarray:
    return RNG.standard_normal(shape).astype(np.float32)


@pytest.mark.parametrize("sizes", [None, [1, 4, 1]])
def test_split_elements_are_buffers_of_their_own(sizes: list[int] | None, tmp_path: Path) -> None:
    """A `Split` (in equal parts, or by its sizes) is one operator computing a tuple; each
    element is a buffer of its own, read by the next operator, returned, or read by none
    (`c`)."""
    parts = sizes or [2, 2, 2]
    initializers = {"sizes": np.array(sizes, np.int64)} if sizes else {}
    path = _save(
        tmp_path,
        [
            helper.make_node("Split", ["x", "sizes"] if sizes else ["x"], ["a", "b", "c"], axis=1),
            helper.make_node("Relu", ["a"], ["r"]),
        ],
        [_tensor("x", TensorProto.FLOAT, [2, 6])],
        [_tensor(n, TensorProto.FLOAT, [2, p]) for n, p in zip("rb", parts, strict=False)],
        initializers,
    )
    _assert_close(path, {"x": _normal(2, 6)})


@pytest.mark.parametrize(("largest", "target"), [(0, "c"), (1, "c"), (1, "llvm")])
def test_topk_values_and_indices(largest: int, target: str, tmp_path: Path) -> None:
    """A `TopK`, largest or smallest, gives onnxruntime's values and int64 indices, built
    for C (no call of TVM's runtime sort: the C library could not make it) as for LLVM."""
    path = _save(
        tmp_path,
        [helper.make_node("TopK", ["x", "k"], ["values", "indices"], axis=1, largest=largest)],
        [_tensor("x", TensorProto.FLOAT, [2, 6])],
        [
            _tensor("values", TensorProto.FLOAT, [2, 3]),
            _tensor("indices", TensorProto.INT64, [2, 3]),
        ],
        {"k": np.array([3], np.int64)},
    )
    _assert_close(path, {"x": _normal(2, 6)}, target=target)


def test_topk_ties_along_a_middle_axis(tmp_path: Path) -> None:
    """Equal values keep the lower index first, as onnxruntime's; the axis is not the last,
    and each value feeds another operator."""
    path = _save(
        tmp_path,
        [
            helper.make_node("TopK", ["x", "k"], ["values", "indices"], axis=1),
            helper.make_node("Neg", ["values"], ["negated"]),
        ],
        [_tensor("x", TensorProto.FLOAT, [2, 7, 3])],
        [
            _tensor("negated", TensorProto.FLOAT, [2, 4, 3]),
            _tensor("indices", TensorProto.INT64, [2, 4, 3]),
        ],
        {"k": np.array([4], np.int64)},
    )
    ties = RNG.integers(0, 3, (2, 7, 3)).astype(np.float32)
    _assert_close(path, {"x": ties}, target="c")


def test_topk_runs_in_the_c_library(tmp_path: Path) -> None:
    """A `TopK` goes into the C library (`usmp-translate --emit-c`, built and run here):
    plain loops, no call of TVM's runtime, its outputs written and never read back (an
    output read back counts as an input of the library's run); onnxruntime's values."""
    from tests.support.model_check import check_model

    path = _save(
        tmp_path,
        [
            helper.make_node("TopK", ["x", "k"], ["values", "indices"], axis=1),
            helper.make_node("Relu", ["values"], ["relu"]),
        ],
        [_tensor("x", TensorProto.FLOAT, [2, 6])],
        [
            _tensor("relu", TensorProto.FLOAT, [2, 3]),
            _tensor("indices", TensorProto.INT64, [2, 3]),
        ],
        {"k": np.array([3], np.int64)},
    )
    inputs = {"x": _normal(2, 6)}
    mod, weights = load_model_file(str(path), "onnx")
    checked = check_model(
        mod, weights, str(path), tir_import=MODEL_FILE_TIR_IMPORT, executor="c", inputs=inputs
    )
    assert checked.values is not None
    ours = [checked.values[name] for name in ("relu", "indices")]
    for got, expected in zip(ours, _onnxruntime(path, inputs), strict=True):
        np.testing.assert_array_equal(got, expected)


def test_cumsum_runs_in_the_c_library(tmp_path: Path) -> None:
    """A `CumSum` (topi's extern, its input of a symbolic offset) fused with its producer
    goes into the C library, the inputs and outputs in its pool (one kernel leaves no
    other buffer to plan): the kernel reads back each sum it wrote into the model's
    output, which stays an output of the library's run; onnxruntime's values."""
    from tests.support.model_check import check_model

    path = _save(
        tmp_path,
        [
            helper.make_node("Relu", ["x"], ["relu"]),
            helper.make_node("CumSum", ["relu", "axis"], ["sums"]),
        ],
        [_tensor("x", TensorProto.FLOAT, [2, 6])],
        [_tensor("sums", TensorProto.FLOAT, [2, 6])],
        {"axis": np.array(1, np.int64)},
    )
    inputs = {"x": _normal(2, 6)}
    mod, weights = load_model_file(str(path), "onnx")
    checked = check_model(
        mod,
        weights,
        str(path),
        tir_import=MODEL_FILE_TIR_IMPORT,
        workspace_io=True,
        executor="c",
        inputs=inputs,
    )
    assert checked.values is not None and list(checked.values) == ["sums"]
    (expected,) = _onnxruntime(path, inputs)
    np.testing.assert_allclose(checked.values["sums"], expected, rtol=0, atol=TOLERANCE)


@pytest.mark.parametrize(("exclusive", "reverse", "axis"), [(0, 1, 1), (1, 1, -1), (1, 0, 0)])
def test_cumsum_exclusive_or_reverse_runs_fused(
    exclusive: int, reverse: int, axis: int, tmp_path: Path
) -> None:
    """A `CumSum` reversed, exclusive or both, fused with its producer (a reverse one
    made TVM's FuseTIR fail: "Inconsistent buffers"): one kernel, onnxruntime's values."""
    from tests.support.model_check import check_model

    path = _save(
        tmp_path,
        [
            helper.make_node("Relu", ["x"], ["relu"]),
            helper.make_node(
                "CumSum", ["relu", "axis"], ["sums"], exclusive=exclusive, reverse=reverse
            ),
        ],
        [_tensor("x", TensorProto.FLOAT, [2, 3, 5])],
        [_tensor("sums", TensorProto.FLOAT, [2, 3, 5])],
        {"axis": np.array(axis, np.int64)},
    )
    inputs = {"x": _normal(2, 3, 5)}
    mod, weights = load_model_file(str(path), "onnx")
    checked = check_model(
        mod, weights, str(path), tir_import=MODEL_FILE_TIR_IMPORT, executor="c", inputs=inputs
    )
    assert checked.values is not None
    assert "tir.call @fused_relu_cumsum(" in print_module(import_model_file(str(path), "onnx"))
    (expected,) = _onnxruntime(path, inputs)
    np.testing.assert_allclose(checked.values["sums"], expected, rtol=0, atol=TOLERANCE)


def test_non_max_suppression_is_named_by_its_node(tmp_path: Path) -> None:
    """TVM types a NonMaxSuppression's result statically and legalizes it to a length read
    from the boxes: `check_relax_model` names the ONNX node (op type, index, name, output),
    as `usmp-translate --import-onnx` does, not the lowering's binding; exit status 1."""
    path = _save(
        tmp_path,
        [
            helper.make_node("Relu", ["boxes"], ["relu_boxes"]),
            helper.make_node(
                "NonMaxSuppression", ["relu_boxes", "scores", "k"], ["selected"], name="nms"
            ),
        ],
        [
            _tensor("boxes", TensorProto.FLOAT, [1, 6, 4]),
            _tensor("scores", TensorProto.FLOAT, [1, 1, 6]),
        ],
        [_tensor("selected", TensorProto.INT64, [None, 3])],
        {"k": np.array([2], np.int64)},
    )
    tool = Path(__file__).parents[1] / "tools" / "check_relax_model.py"
    checked = subprocess.run([sys.executable, str(tool), str(path)], capture_output=True, text=True)
    assert (checked.returncode, checked.stdout, checked.stderr) == (
        1,
        "",
        f"{path}: error: NonMaxSuppression node 1 'nms', computing 'selected': TVM's "
        "'relax.vision.all_class_non_max_suppression' computes its result's shape from the "
        "input values, at run time (it stays dynamic with the input shapes fixed); a plan "
        "needs every shape static\n",
    )


def test_scalar_constant_output_is_copied(tmp_path: Path) -> None:
    """A `Size`, which the import folds to a scalar constant the model returns: copied into
    its 0-d output buffer by an operator, onnxruntime's value."""
    path = _save(
        tmp_path,
        [helper.make_node("Size", ["x"], ["count"])],
        [_tensor("x", TensorProto.FLOAT, [2, 4])],
        [_tensor("count", TensorProto.INT64, [])],
    )
    _assert_close(path, {"x": _normal(2, 4)})


@pytest.mark.parametrize(("low", "high"), [(-0.5, 0.5), (np.nan, 0.5), (-0.5, np.nan)])
def test_clip_of_constant_bounds_computes_no_isnan(low: float, high: float, tmp_path: Path) -> None:
    """A `Clip` of constant bounds gives onnxruntime's values, a NaN bound unbounded, with
    the bounds' NaN replaced at the import: no `isnan` left for TVM to fold kernel by
    kernel (PaddleOCR's recognizer has 28 such `Clip`s)."""
    bounds = {"low": np.array(low, np.float32), "high": np.array(high, np.float32)}
    path = _save(
        tmp_path,
        [helper.make_node("Clip", ["x", "low", "high"], ["y"])],
        [_tensor("x", TensorProto.FLOAT, [2, 6])],
        [_tensor("y", TensorProto.FLOAT, [2, 6])],
        bounds,
    )
    mod, _ = load_model_file(str(path), "onnx")
    assert "isnan" not in mod.script()
    _assert_close(path, {"x": _normal(2, 6)})


def _recurrence(
    tmp_path: Path,
    op: str,
    directions: int,
    attributes: dict[str, Any],
    optional: list[str],
    outputs: list[str],
    gates: int,
    steps: int = 3,
    batch: int = 2,
    size: int = 4,
    hidden: int = 5,
) -> tuple[Path, dict[str, np.ndarray]]:
    """An `op` (LSTM or GRU) node of random weights over an input X [steps, batch, size]
    (layout 1: [batch, steps, size]), its optional inputs `optional` (B, initial_h,
    initial_c, P, sequence_lens) given, `outputs` (Y, Y_h, Y_c) listed."""
    layout = attributes.get("layout", 0)
    x_shape = [batch, steps, size] if layout else [steps, batch, size]
    state = [batch, directions, hidden] if layout else [directions, batch, hidden]
    optional_shapes = {
        "B": [directions, 2 * gates * hidden],
        "initial_h": state,
        "initial_c": state,
        "P": [directions, 3 * hidden],
    }
    weights = {
        "W": _normal(directions, gates * hidden, size) / 2,
        "R": _normal(directions, gates * hidden, hidden) / 2,
        **{name: _normal(*optional_shapes[name]) / 2 for name in optional if name in {"B", "P"}},
    }
    if "sequence_lens" in optional:
        weights["sequence_lens"] = np.full([batch], steps, np.int32)
    order = ["X", "W", "R", "B", "sequence_lens", "initial_h"] + (
        ["initial_c", "P"] if op == "LSTM" else []
    )
    given = {"X", "W", "R", *optional}
    node_inputs = [name if name in given else "" for name in order]
    while not node_inputs[-1]:
        node_inputs.pop()
    graph_inputs = [
        _tensor("X", TensorProto.FLOAT, x_shape),
        *(_tensor(n, TensorProto.FLOAT, state) for n in ("initial_h", "initial_c") if n in given),
    ]
    y_shape = [batch, steps, directions, hidden] if layout else [steps, directions, batch, hidden]
    output_shapes = {"Y": y_shape, "Y_h": state, "Y_c": state}
    all_outputs = ["Y", "Y_h", "Y_c"] if op == "LSTM" else ["Y", "Y_h"]
    node_outputs = [name if name in outputs else "" for name in all_outputs]
    while not node_outputs[-1]:
        node_outputs.pop()
    node = helper.make_node(op, node_inputs, node_outputs, hidden_size=hidden, **attributes)
    path = _save(
        tmp_path,
        [node],
        graph_inputs,
        [_tensor(n, TensorProto.FLOAT, output_shapes[n]) for n in outputs],
        weights,
    )
    inputs = {
        "X": _normal(*x_shape),
        **{n: _normal(*state) for n in ("initial_h", "initial_c") if n in given},
    }
    return path, inputs


@pytest.mark.slow
@pytest.mark.parametrize(
    ("direction", "attributes", "optional", "outputs"),
    [
        ("forward", {}, [], ["Y", "Y_h", "Y_c"]),
        ("bidirectional", {}, ["B"], ["Y", "Y_h", "Y_c"]),
        ("bidirectional", {}, ["B", "initial_h", "initial_c"], ["Y", "Y_h", "Y_c"]),
        ("reverse", {"clip": 0.5}, ["B", "P", "initial_c"], ["Y_h"]),
        ("forward", {"layout": 1}, ["B", "sequence_lens", "initial_h"], ["Y", "Y_c"]),
        (
            "bidirectional",
            {"activations": ["Sigmoid", "Relu", "Tanh", "Sigmoid", "Tanh", "Relu"]},
            ["B"],
            ["Y"],
        ),
    ],
)
def test_lstm_matches_onnxruntime(
    direction: str,
    attributes: dict[str, Any],
    optional: list[str],
    outputs: list[str],
    tmp_path: Path,
) -> None:
    """An LSTM, unrolled over its steps: onnxruntime's outputs within float32 rounding
    (ONNX's reference implementation's for layout 1),
    in every direction, with and without biases, initial states, peepholes, clip,
    layout 1, a constant sequence_lens, other activations, and any of its outputs."""
    directions = 2 if direction == "bidirectional" else 1
    path, inputs = _recurrence(
        tmp_path, "LSTM", directions, {"direction": direction, **attributes}, optional, outputs, 4
    )
    # onnxruntime does not take layout 1; ONNX's reference implementation does.
    reference_run = _onnx_reference if attributes.get("layout") else _onnxruntime
    _assert_close(path, inputs, TOLERANCE, reference_run)


@pytest.mark.slow
@pytest.mark.parametrize("linear_before_reset", [0, 1])
@pytest.mark.parametrize(
    ("direction", "optional", "outputs"),
    [
        ("forward", [], ["Y", "Y_h"]),
        ("bidirectional", ["B", "initial_h"], ["Y", "Y_h"]),
        ("reverse", ["B"], ["Y_h"]),
    ],
)
def test_gru_matches_onnxruntime(
    linear_before_reset: int,
    direction: str,
    optional: list[str],
    outputs: list[str],
    tmp_path: Path,
) -> None:
    """A GRU, its reset gate applied before or after the recurrent product: onnxruntime's
    outputs within float32 rounding, in every direction."""
    directions = 2 if direction == "bidirectional" else 1
    attributes = {"direction": direction, "linear_before_reset": linear_before_reset}
    path, inputs = _recurrence(tmp_path, "GRU", directions, attributes, optional, outputs, 3)
    _assert_close(path, inputs, TOLERANCE)


def _with_zero_points(
    a: str, b: str, weights: np.ndarray, zero_points: tuple[Any, Any]
) -> tuple[list[str], dict[str, np.ndarray]]:
    """An integer operator's inputs `a`, `b` and the zero points given (None: left out),
    and its initializers: the weights `b`, the zero points."""
    initializers = {b: weights}
    names = [a, b]
    for name, point in zip((f"{a}_zero_point", f"{b}_zero_point"), zero_points, strict=True):
        if point is not None:
            initializers[name] = np.asarray(point)
        names.append(name if point is not None else "")
    while not names[-1]:
        names.pop()
    return names, initializers


@pytest.mark.parametrize(
    ("dtype", "attributes", "zero_points", "out"),
    [
        (np.uint8, {}, (None, None), [4, 4]),
        (np.uint8, {"pads": [1, 1, 1, 1]}, (np.uint8(128), np.uint8(3)), [6, 6]),
        (np.int8, {"strides": [2, 2], "auto_pad": "SAME_UPPER"}, (np.int8(-5), None), [3, 3]),
        (
            np.uint8,
            {"group": 2, "dilations": [2, 1]},
            (np.uint8(7), np.array([1, 2, 3, 4], np.uint8)),
            [2, 4],
        ),
    ],
)
def test_conv_integer_matches_onnxruntime(
    dtype: Any,
    attributes: dict[str, Any],
    zero_points: tuple[Any, Any],
    out: list[int],
    tmp_path: Path,
) -> None:
    """A ConvInteger, its zero points scalar, per output channel or absent, its input
    padded with its zero point: onnxruntime's int32 values exactly (ONNX's reference
    implementation's for a per-channel zero point, which onnxruntime does not take)."""
    info = np.iinfo(dtype)
    groups = attributes.get("group", 1)
    x = RNG.integers(info.min, info.max, (1, 4, 6, 6), endpoint=True).astype(dtype)
    w = RNG.integers(0, 10, (4, 4 // groups, 3, 3)).astype(np.uint8)
    names, initializers = _with_zero_points("x", "w", w, zero_points)
    path = _save(
        tmp_path,
        [helper.make_node("ConvInteger", names, ["y"], kernel_shape=[3, 3], **attributes)],
        [_tensor("x", helper.np_dtype_to_tensor_dtype(np.dtype(dtype)), list(x.shape))],
        [_tensor("y", TensorProto.INT32, [1, 4, *out])],
        initializers,
    )
    per_channel = np.ndim(zero_points[1]) > 0
    _assert_close(path, {"x": x}, reference_run=_onnx_reference if per_channel else _onnxruntime)


@pytest.mark.parametrize(
    ("a_dtype", "b_dtype", "zero_points"),
    [
        (np.uint8, np.uint8, (None, None)),
        (np.uint8, np.int8, (np.uint8(100), np.int8(-3))),
        (np.int8, np.uint8, (np.int8(2), np.array([1, 2, 3, 4, 5], np.uint8))),
    ],
)
def test_matmul_integer_matches_onnxruntime(
    a_dtype: Any, b_dtype: Any, zero_points: tuple[Any, Any], tmp_path: Path
) -> None:
    """A MatMulInteger of a batch of int8/uint8 rows by weights of either type, with
    scalar or per-column zero points: onnxruntime's int32 values exactly."""
    a_info, b_info = np.iinfo(a_dtype), np.iinfo(b_dtype)
    a = RNG.integers(a_info.min, a_info.max, (2, 3, 4), endpoint=True).astype(a_dtype)
    b = RNG.integers(b_info.min, b_info.max, (4, 5), endpoint=True).astype(b_dtype)
    names, initializers = _with_zero_points("a", "b", b, zero_points)
    path = _save(
        tmp_path,
        [helper.make_node("MatMulInteger", names, ["y"])],
        [_tensor("a", helper.np_dtype_to_tensor_dtype(np.dtype(a_dtype)), list(a.shape))],
        [_tensor("y", TensorProto.INT32, [2, 3, 5])],
        initializers,
    )
    _assert_close(path, {"a": a})


def _if_model(tmp_path: Path, condition: list[Any], inputs: list[Any]) -> Path:
    """`y = If(cond) then Relu(x) + w else x * w`, the branches reading the graph's `x`
    and weight `w`; the nodes `condition` compute `cond` (and `x`), with the constants
    `two`, `x_shape` and `zero`."""
    then_branch = helper.make_graph(
        [helper.make_node("Relu", ["x"], ["relu"]), helper.make_node("Add", ["relu", "w"], ["t"])],
        "then",
        [],
        [_tensor("t", TensorProto.FLOAT, [2, 3])],
    )
    else_branch = helper.make_graph(
        [helper.make_node("Mul", ["x", "w"], ["e"])],
        "else",
        [],
        [_tensor("e", TensorProto.FLOAT, [2, 3])],
    )
    node = helper.make_node(
        "If", ["cond"], ["y"], "choose", then_branch=then_branch, else_branch=else_branch
    )
    return _save(
        tmp_path,
        [*condition, node],
        inputs,
        [_tensor("y", TensorProto.FLOAT, [2, 3])],
        {
            "w": _normal(2, 3),
            "two": np.array(2, np.int64),
            "x_shape": np.array([2, 3], np.int64),
            "zero": np.array(0, np.float32),
        },
    )


@pytest.mark.parametrize("rank", [2, 3])
def test_if_of_a_shape_condition_is_its_taken_branch(rank: int, tmp_path: Path) -> None:
    """An `If` whose condition folds once the input shapes are fixed (the input's rank is
    2), its branches reading the graph's values: the branch it takes, onnxruntime's
    values."""
    shape = [2, 3] if rank == 2 else [2, 3, 1]
    condition = [
        helper.make_node("Shape", ["x_in"], ["shape"]),
        helper.make_node("Size", ["shape"], ["rank"]),
        helper.make_node("Equal", ["rank", "two"], ["cond"]),
        helper.make_node("Reshape", ["x_in", "x_shape"], ["x"]),
    ]
    path = _if_model(tmp_path, condition, [_tensor("x_in", TensorProto.FLOAT, shape)])
    _assert_close(path, {"x_in": _normal(*shape)}, TOLERANCE)


def test_if_of_a_run_time_condition_is_one_diagnostic(tmp_path: Path) -> None:
    """An `If` whose condition is computed at run time: one diagnostic naming the node
    and the input its condition comes from, exit status 1, nothing written."""
    condition = [helper.make_node("Greater", ["flag", "zero"], ["cond"])]
    inputs = [_tensor("x", TensorProto.FLOAT, [2, 3]), _tensor("flag", TensorProto.FLOAT, [])]
    path = _if_model(tmp_path, condition, inputs)
    output = tmp_path / "out.mlir"
    run = subprocess.run(
        [str(TOOLS / "usmp-translate"), "--import-onnx", str(path), "-o", str(output)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert (run.returncode, run.stdout, output.exists()) == (1, "", False)
    assert run.stderr == (
        f"{path}: error: If node 1 'choose', computing 'y': its condition 'cond' is computed "
        "at run time from the input(s) 'flag'; the lowering takes operators on tensors only, "
        "not control flow\n"
    )


@pytest.mark.parametrize(
    ("op", "attributes", "message"),
    [
        ("LSTM", {"input_forget": 1}, "input_forget 1 is not supported"),
        (
            "GRU",
            {"activations": ["HardSigmoid", "Tanh"]},
            "activation 'HardSigmoid' is not supported (only Sigmoid, Tanh, Relu)",
        ),
    ],
)
def test_unsupported_recurrence_attribute_names_the_node(
    op: str, attributes: dict[str, Any], message: str, tmp_path: Path
) -> None:
    """An attribute our LSTM or GRU converter does not take: one diagnostic at the file
    naming the node by op type, index and output, and the attribute."""
    gates = 4 if op == "LSTM" else 3
    path, _ = _recurrence(tmp_path, op, 1, attributes, [], ["Y"], gates)
    with pytest.raises(RelaxImportError) as raised:
        load_model_file(str(path), "onnx")
    assert raised.value.location == str(path)
    assert raised.value.message == f"{op} node 0, computing 'Y': {message}"


@pytest.mark.parametrize("condition", ["", "true"])
def test_loop_of_a_constant_trip_count_is_unrolled(condition: str, tmp_path: Path) -> None:
    """A `Loop` of 3 iterations (its condition absent, or a constant true the body passes
    on): `acc = acc * w + x + i` carried from one iteration to the next, each
    iteration's `acc` a scan output, the body reading the graph's `x` and `w`: unrolled,
    onnxruntime's values."""
    state = [2, 3]
    body = helper.make_graph(
        [
            helper.make_node("Identity", ["cond_in"], ["cond_out"]),
            helper.make_node("Cast", ["i"], ["i_float"], to=TensorProto.FLOAT),
            helper.make_node("Mul", ["acc_in", "w"], ["scaled"]),
            helper.make_node("Add", ["scaled", "x"], ["summed"]),
            helper.make_node("Add", ["summed", "i_float"], ["acc_out"]),
            helper.make_node("Relu", ["acc_out"], ["scan"]),
        ],
        "body",
        [
            _tensor("i", TensorProto.INT64, []),
            _tensor("cond_in", TensorProto.BOOL, []),
            _tensor("acc_in", TensorProto.FLOAT, state),
        ],
        [
            _tensor("cond_out", TensorProto.BOOL, []),
            _tensor("acc_out", TensorProto.FLOAT, state),
            _tensor("scan", TensorProto.FLOAT, state),
        ],
    )
    loop = helper.make_node("Loop", ["trips", condition, "acc0"], ["acc", "scans"], body=body)
    path = _save(
        tmp_path,
        [loop],
        [_tensor("x", TensorProto.FLOAT, state), _tensor("acc0", TensorProto.FLOAT, state)],
        [
            _tensor("acc", TensorProto.FLOAT, state),
            _tensor("scans", TensorProto.FLOAT, [3, *state]),
        ],
        {"trips": np.array(3, np.int64), "true": np.array(True), "w": _normal(*state)},
    )
    _assert_close(path, {"x": _normal(*state), "acc0": _normal(*state)}, TOLERANCE)
