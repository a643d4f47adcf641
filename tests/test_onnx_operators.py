"""ONNX operators TVM's Relax frontend lacks or we lowered wrongly, each imported as
`usmp-translate --import-onnx` imports it, planned, built, run with every pool prefilled
with 0xFF, and compared with onnxruntime, ONNX's reference runtime: `Split` and `TopK`
(operators computing a tuple), `LSTM`, `GRU`, `ConvInteger`, `MatMulInteger`, `If` and
`Loop`. The models are built here with `onnx.helper`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

tvm = pytest.importorskip("tvm")
onnx = pytest.importorskip("onnx")
ort = pytest.importorskip("onnxruntime")
pytestmark = pytest.mark.tvm

from onnx import TensorProto, helper, numpy_helper  # noqa: E402

from usmp_dialect.tvm.model_files.loading import import_model_file, load_model_file  # noqa: E402
from usmp_dialect.tvm.planned_module import plan_module  # noqa: E402
from usmp_dialect.tvm.relax.lowering import (  # noqa: E402
    MODEL_FILE_LOWERING,
    lower_model,
    sanitize,
)
from usmp_dialect.tvm.runtime import run_module  # noqa: E402

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


def _ours(path: Path, inputs: dict[str, np.ndarray]) -> list[np.ndarray]:
    """The model imported, planned, built and run: its outputs in the graph's order."""
    mod, weights = load_model_file(str(path), "onnx")
    tir, constants = lower_model(mod, weights, str(path), MODEL_FILE_LOWERING)
    planned = plan_module(tir)
    # LLVM: TVM's C codegen cannot declare the packed call `TopK`'s sort makes.
    arguments = {**{sanitize(k): v for k, v in inputs.items()}, **constants}
    results = run_module(planned, arguments, "llvm")
    params = [p.name for p in tir["main"].params]
    outputs = params[len(inputs) + len(constants) :]
    return [results[name] for name in outputs]


def _onnxruntime(path: Path, inputs: dict[str, np.ndarray]) -> list[np.ndarray]:
    session = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    return [np.asarray(v) for v in session.run(None, inputs)]


def _max_differences(path: Path, inputs: dict[str, np.ndarray]) -> list[float]:
    """Ours against onnxruntime, output by output: the largest absolute difference (the
    dtypes and shapes equal)."""
    import_model_file(str(path), "onnx")  # `usmp-translate --import-onnx` takes the file
    ours, reference = _ours(path, inputs), _onnxruntime(path, inputs)
    assert [(o.dtype, o.shape) for o in ours] == [(r.dtype, r.shape) for r in reference]
    return [
        float(np.max(np.abs(o.astype(np.float64) - r))) if r.size else 0.0
        for o, r in zip(ours, reference, strict=True)
    ]


def _assert_close(path: Path, inputs: dict[str, np.ndarray], tolerance: float = 0.0) -> None:
    differences = _max_differences(path, inputs)
    assert all(d <= tolerance for d in differences), differences


RNG = np.random.default_rng(0)


def _normal(*shape: int) -> np.ndarray:
    return RNG.standard_normal(shape).astype(np.float32)


@pytest.mark.parametrize("sizes", [None, [1, 4, 1]])
def test_split_elements_are_buffers_of_their_own(sizes: list[int] | None, tmp_path: Path) -> None:
    """A `Split` (in equal parts, or by its sizes) is one operator computing a tuple; each
    element is a buffer of its own, read by the next operator or returned."""
    parts = sizes or [2, 2, 2]
    initializers = {"sizes": np.array(sizes, np.int64)} if sizes else {}
    path = _save(
        tmp_path,
        [
            helper.make_node("Split", ["x", "sizes"] if sizes else ["x"], ["a", "b", "c"], axis=1),
            helper.make_node("Relu", ["a"], ["r"]),
        ],
        [_tensor("x", TensorProto.FLOAT, [2, 6])],
        [_tensor(n, TensorProto.FLOAT, [2, p]) for n, p in zip("rbc", parts, strict=True)],
        initializers,
    )
    _assert_close(path, {"x": _normal(2, 6)})


@pytest.mark.parametrize("largest", [0, 1])
def test_topk_values_and_indices(largest: int, tmp_path: Path) -> None:
    """A `TopK`, largest or smallest, gives onnxruntime's values and int64 indices."""
    path = _save(
        tmp_path,
        [helper.make_node("TopK", ["x", "k"], ["values", "indices"], axis=1, largest=largest)],
        [_tensor("x", TensorProto.FLOAT, [2, 6])],
        [_tensor("values", TensorProto.FLOAT, [2, 3]), _tensor("indices", TensorProto.INT64, [2, 3])],
        {"k": np.array([3], np.int64)},
    )
    _assert_close(path, {"x": _normal(2, 6)})
