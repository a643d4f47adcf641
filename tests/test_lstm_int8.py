"""TFLite's int8 UNIDIRECTIONAL_SEQUENCE_LSTM as TensorFlow Lite Micro computes it
(`model_files.tflite_lstm_int8`: int8 activations, its int16 cell and integer gates):
an LSTM file the tests write (`lstm_tflite`) and TFLM's int8 mnist_lstm example
(tests/data/tflm), imported, planned with their inputs and outputs in the workspace pool
and the hidden state and cell in the state pool, run as a C library frame after frame:
every frame TFLM's interpreter's outputs exactly. An LSTM whose tensors contradict its
options is one diagnostic."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

tvm = pytest.importorskip("tvm")
pytest.importorskip("tflite")
pytestmark = pytest.mark.tvm

from lstm_tflite import FEATURES, int8_lstm_tflite  # noqa: E402
from test_svdf import DATA, _exposing, _streamed  # noqa: E402

from usmp_dialect.tvm.model_files.loading import import_model_file  # noqa: E402
from usmp_dialect.tvm.relax.to_tir import RelaxImportError  # noqa: E402

MNIST_LSTM_INT8 = DATA / "trained_lstm_int8.tflite"


def _holds_the_state(header: str, path: Path) -> bool:
    """Whether the library's state pool holds the file's variable tensors (TFLM's variable
    buffers), the hidden state and the cell one buffer each, the second aligned to 16
    bytes."""
    from usmp_dialect.tvm.tflm.arena import variable_bytes

    (size,) = re.findall(r"#define MODEL_GLOBAL_STATE_STATE_POOL_SIZE (\d+)", header)
    state = variable_bytes(str(path))
    return state <= int(size) < state + 16


def _within_tflm_head(header: str, path: Path) -> bool:
    """Whether the library's workspace pool (the input and output sequences in it, the
    kernel's sums and gates in registers) is at or below TFLM's non-persistent arena for the
    file (its input and output, and its kernel's four int16 gate buffers)."""
    from usmp_dialect.tvm.tflm.arena import tflm_arena

    (size,) = re.findall(r"#define MODEL_GLOBAL_WORKSPACE_WORKSPACE_POOL_SIZE (\d+)", header)
    head, _ = tflm_arena(str(path))
    return int(size) <= head


@pytest.mark.slow
@pytest.mark.parametrize(
    "case",
    [
        # Time-major, two rows; the cell at 2^-14 (tanh's input shifted right, rounded),
        # clipped; three steps.
        {
            "steps": 3,
            "batch": 2,
            "time_major": True,
            "cell_power": 14,
            "hidden_zero_point": -7,
            "cell_clip": 1.5,
        },
        # Batch-major, one step a call as dtln runs (each state read and written by one
        # kernel call); the cell at 2^-11 (tanh's input shifted left), no clip.
        {"steps": 1, "batch": 2, "cell_power": 11, "hidden_zero_point": 5, "cell_clip": 0},
    ],
    ids=["time-major", "one-step"],
)
def test_int8_lstm_streams_as_tflm(case: dict, tmp_path: Path) -> None:
    """8 frames in a row, the hidden state and cell carried from each call to the next in
    the state pool (TFLM's variable buffers): each frame's output sequence TFLM's exactly,
    and the state moves them; the workspace pool at or below TFLM's head."""
    path = tmp_path / "lstm.tflite"
    path.write_bytes(int8_lstm_tflite(**case))
    rng = np.random.default_rng(1)
    sequence = [case["steps"], case["batch"]]
    if not case.get("time_major"):
        sequence.reverse()
    frames = [rng.integers(-128, 128, (*sequence, FEATURES)).astype(np.int8) for _ in range(8)]
    ours, theirs, header = _streamed(path, frames, tmp_path)
    np.testing.assert_array_equal(ours, theirs)
    assert len({frame.tobytes() for frame in theirs}) == len(frames)
    assert _holds_the_state(header, path)
    assert _within_tflm_head(header, path)


@pytest.mark.slow
def test_mnist_lstm_int8_streams_as_tflm(tmp_path: Path) -> None:
    """TFLM's int8 mnist_lstm, 4 images in a row, the file made to return its LSTM's output
    sequence (what its scores are computed from): TFLM's exactly; the state pool TFLM's
    variables, the workspace pool at or below TFLM's head."""
    path = tmp_path / "mnist_lstm_int8.tflite"
    path.write_bytes(_exposing(MNIST_LSTM_INT8.read_bytes(), 0))
    rng = np.random.default_rng(0)
    frames = [rng.integers(-128, 128, (1, 28, 28)).astype(np.int8) for _ in range(4)]
    ours, theirs, header = _streamed(path, frames, tmp_path)
    np.testing.assert_array_equal(ours, theirs)
    assert _holds_the_state(header, MNIST_LSTM_INT8)
    assert _within_tflm_head(header, path)


@pytest.mark.parametrize(
    ("spoil", "message"),
    [
        ("cell-not-variable", "its cell state is not a variable tensor"),
        ("no-recurrent-weights", "it has no recurrent weights of its output gate"),
        ("hidden-shape", r"its hidden state is \[2, 6\], its input and weights make \[2, 5\]"),
        ("output-rank", r"its output is \[6, 5\], its input and weights make \[2, 3, 5\]"),
        ("cell-int8", "its cell state is int8; with an int8 input TFLM's LSTM takes int16"),
    ],
)
def test_contradicting_int8_lstm_is_one_diagnostic(spoil: str, message: str, tmp_path: Path):
    path = tmp_path / f"{spoil}.tflite"
    path.write_bytes(int8_lstm_tflite(spoil=spoil))
    with pytest.raises(RelaxImportError) as raised:
        import_model_file(str(path), "tflite")
    text = str(raised.value)
    assert re.search(
        f"UNIDIRECTIONAL_SEQUENCE_LSTM operator 0, computing 'lstm/output': {message}", text
    ), text
    assert "\n" not in text.strip()


def test_contradicting_lstm_exits_1_with_one_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`usmp-translate --import-tflite` of an LSTM whose cell is not variable: one error
    line naming the operator, exit 1, nothing written."""
    from usmp_dialect.tools.usmp_translate import main

    path = tmp_path / "spoiled.tflite"
    path.write_bytes(int8_lstm_tflite(spoil="cell-not-variable"))
    output = tmp_path / "out.mlir"
    with pytest.raises(SystemExit) as exited:
        main(["--import-tflite", str(path), "-o", str(output)])
    assert exited.value.code == 1
    captured = capsys.readouterr()
    errors = [line for line in captured.err.splitlines() if ": error: " in line]
    assert len(errors) == 1, captured.err
    assert (
        "UNIDIRECTIONAL_SEQUENCE_LSTM operator 0, computing 'lstm/output': its cell state is "
        "not a variable tensor (TFLM's must be)" in errors[0]
    )
    assert "Traceback" not in captured.err
    assert not output.exists()
