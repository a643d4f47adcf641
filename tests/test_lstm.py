"""TFLite's float32 UNIDIRECTIONAL_SEQUENCE_LSTM as TensorFlow Lite Micro computes it
(`model_files.tflite_lstm`): TFLM's mnist_lstm example model (tests/data/tflm), whose
hidden state and cell are variable tensors TFLM keeps from one invocation to the next,
imported, planned with its inputs and outputs in the workspace pool and its state in the
state pool, run as a C library on 10 images in a row: each run's scores and the LSTM's
own outputs TFLM's exactly (TFLM's logistic, its cutoffs included). An LSTM whose tensors
contradict its options is one diagnostic."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

tvm = pytest.importorskip("tvm")
pytest.importorskip("tflite")
pytestmark = pytest.mark.tvm

from test_svdf import DATA, _exposing, _streamed  # noqa: E402

from usmp_dialect.tvm.model_files.loading import import_model_file  # noqa: E402
from usmp_dialect.tvm.relax.to_tir import RelaxImportError  # noqa: E402

MNIST_LSTM = DATA / "trained_lstm.tflite"


@pytest.mark.slow
@pytest.mark.parametrize("operator", [None, 0])
def test_mnist_lstm_streams_as_tflm(operator: int | None, tmp_path: Path) -> None:
    """The scores (`operator` None) or the LSTM's output sequence (operator 0) of 10
    images in a row, the state carried from each run to the next in the state pool: TFLM's
    exactly, the workspace pool at or below TFLM's non-persistent arena."""
    from usmp_dialect.tvm.tflm.arena import tflm_arena, variable_bytes

    model = MNIST_LSTM.read_bytes()
    path = tmp_path / "mnist_lstm.tflite"
    path.write_bytes(model if operator is None else _exposing(model, operator))
    rng = np.random.default_rng(0)
    frames = [rng.uniform(0, 1, (1, 28, 28)).astype(np.float32) for _ in range(10)]
    ours, theirs, header = _streamed(path, frames, tmp_path)
    np.testing.assert_array_equal(ours, theirs)
    (workspace,) = re.findall(r"#define MODEL_GLOBAL_WORKSPACE_WORKSPACE_POOL_SIZE (\d+)", header)
    (state,) = re.findall(r"#define MODEL_GLOBAL_STATE_STATE_POOL_SIZE (\d+)", header)
    assert int(state) == variable_bytes(str(MNIST_LSTM))
    head, _ = tflm_arena(str(MNIST_LSTM))
    assert int(workspace) <= head


def _one_step(model: bytes) -> bytes:
    """`model`'s LSTM alone, over one time step (a streaming LSTM's one step a call, as
    TFLM runs one): its input and output of one step, its output the model's."""
    import tflite

    data = bytearray(model)
    graph = tflite.Model.GetRootAsModel(data, 0).Subgraphs(0)
    lstm = graph.Operators(0)
    for index in (lstm.Inputs(0), lstm.Outputs(0)):
        tensor = graph.Tensors(index)
        at = tensor._tab.Vector(tensor._tab.Offset(4)) + 4  # Tensor.shape[1], the steps
        data[at : at + 4] = np.int32(1).tobytes()
    at = graph._tab.Vector(graph._tab.Offset(10)) - 4  # SubGraph.operators' length
    data[at : at + 4] = np.uint32(1).tobytes()
    at = graph._tab.Vector(graph._tab.Offset(8))  # SubGraph.outputs, one int32
    data[at : at + 4] = np.int32(lstm.Outputs(0)).tobytes()
    return bytes(data)


@pytest.mark.slow
def test_one_step_lstm_streams_as_tflm(tmp_path: Path) -> None:
    """An LSTM of one time step returns its hidden state after the step as its output and
    as the state TFLM keeps: the output its own buffer in the workspace pool, the state
    its in the state pool, and 10 calls in a row TFLM's outputs exactly."""
    from usmp_dialect.tvm.tflm.arena import variable_bytes

    path = tmp_path / "one_step_lstm.tflite"
    path.write_bytes(_one_step(MNIST_LSTM.read_bytes()))
    rng = np.random.default_rng(0)
    frames = [rng.uniform(0, 1, (1, 1, 28)).astype(np.float32) for _ in range(10)]
    ours, theirs, header = _streamed(path, frames, tmp_path)
    np.testing.assert_array_equal(ours, theirs)
    assert len({frame.tobytes() for frame in theirs}) == len(frames)  # the state moves them
    (state,) = re.findall(r"#define MODEL_GLOBAL_STATE_STATE_POOL_SIZE (\d+)", header)
    assert int(state) == variable_bytes(str(path))


def _with_input(model: bytes, operator: int, position: int, tensor: int) -> bytes:
    """`model` whose operator reads `tensor` as its input `position`."""
    import tflite

    data = bytearray(model)
    op = tflite.Model.GetRootAsModel(data, 0).Subgraphs(0).Operators(operator)
    at = op._tab.Vector(op._tab.Offset(6)) + 4 * position  # Operator.inputs
    data[at : at + 4] = np.int32(tensor).tobytes()
    return bytes(data)


@pytest.mark.parametrize(
    ("position", "message"),
    [
        # The cell state: the output gate's bias, of another shape and not variable.
        (19, r"its cell state is \[20\], its input and weights make \[1, 20\]"),
        # A peephole TFLM's kernel does not take.
        (9, r"it has cell_to_input_weights \(a peephole\)"),
    ],
)
def test_contradicting_lstm_is_one_diagnostic(position: int, message: str, tmp_path: Path) -> None:
    """The LSTM reads the output gate's bias at `position` instead."""
    import tflite

    model = MNIST_LSTM.read_bytes()
    bias = int(tflite.Model.GetRootAsModel(model, 0).Subgraphs(0).Operators(0).Inputs(15))
    path = tmp_path / "spoiled.tflite"
    path.write_bytes(_with_input(model, 0, position, bias))
    with pytest.raises(RelaxImportError) as raised:
        import_model_file(str(path), "tflite")
    text = str(raised.value)
    assert re.search(
        rf"UNIDIRECTIONAL_SEQUENCE_LSTM operator 0, computing '[^']+': {message}", text
    )
    assert "\n" not in text.strip()


@pytest.mark.parametrize("activation", [1, 6])
def test_cell_activation_other_than_tanh_is_refused(activation: int, tmp_path: Path) -> None:
    """A cell gate's activation TFLM does not compute (relu; 6, past the schema's last
    code, SIGN_BIT) is one diagnostic, not an LSTM computed with another activation."""
    import tflite
    from tflite.UnidirectionalSequenceLSTMOptions import UnidirectionalSequenceLSTMOptions

    data = bytearray(MNIST_LSTM.read_bytes())
    table = tflite.Model.GetRootAsModel(data, 0).Subgraphs(0).Operators(0).BuiltinOptions()
    options = UnidirectionalSequenceLSTMOptions()
    options.Init(table.Bytes, table.Pos)
    assert options.FusedActivationFunction() == 4  # tanh, stored in the file
    at = options._tab.Pos + options._tab.Offset(4)  # fused_activation_function
    data[at] = activation
    path = tmp_path / "activation.tflite"
    path.write_bytes(bytes(data))
    with pytest.raises(RelaxImportError) as raised:
        import_model_file(str(path), "tflite")
    assert str(raised.value).endswith(
        "UNIDIRECTIONAL_SEQUENCE_LSTM operator 0, computing 'tfl.unidirectional_sequence_lstm': "
        f"its cell gate's activation {activation} is not tanh"
    )
