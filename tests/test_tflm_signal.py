"""TFLM's signal library (`model_files.tflm_signal`): micro_speech's audio front ends
(tests/data/tflm, int8 and float features), imported, planned with their inputs and
outputs in the workspace pool and built as a C library, run by a firmware-like loop over
a second of audio the test synthesizes (49 frames of 30 ms, 20 ms apart, as micro_speech
frames it): every frame's features TFLM's interpreter's exactly, the spectral
subtraction's noise estimate kept in the state pool from frame to frame; then the
classifier on those features gives TFLM's scores. One-operator models of the other
signal operators (delay, framer with and without prefill, stacker, overlap-add, the
FFTs with radix-2 stages) stream as TFLM, their kept samples (and how full the buffer is,
where output_valid depends on it) in the state pool. A signal operator whose tensors
contradict its options is one diagnostic."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

tvm = pytest.importorskip("tvm")
pytest.importorskip("tflite")
pytestmark = pytest.mark.tvm

from test_svdf import DATA, _streamed, _streamed_outputs  # noqa: E402

from usmp_dialect.tvm.model_files.loading import import_model_file  # noqa: E402
from usmp_dialect.tvm.model_files.tflm_signal import log2_correction_table  # noqa: E402
from usmp_dialect.tvm.model_files.tflm_signal_fft import kiss_factors  # noqa: E402
from usmp_dialect.tvm.relax.to_tir import RelaxImportError  # noqa: E402

RATE = 16000
FRAME, STRIDE = 480, 320  # micro_speech's 30 ms window, 20 ms step
CHANNELS = 40


def _second_of_audio() -> np.ndarray:
    """A rising tone (200 Hz to 2 kHz) that swells in, over noise: int16 at 16 kHz."""
    rng = np.random.default_rng(0)
    t = np.arange(RATE) / RATE
    tone = np.sin(2 * np.pi * (200 + 1800 * t) * t) * np.minimum(1.0, 4 * t) * 8000
    return np.clip(tone + rng.normal(0, 300, t.size), -32768, 32767).astype(np.int16)


def _frames() -> list[np.ndarray]:
    audio = _second_of_audio()
    return [audio[i : i + FRAME][None] for i in range(0, audio.size - FRAME + 1, STRIDE)]


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["int8", "float"])
def test_micro_speech_front_end_streams_as_tflm(kind: str, tmp_path: Path) -> None:
    from usmp_dialect.tvm.tflm.arena import tflm_arena

    path = DATA / f"audio_preprocessor_{kind}.tflite"
    frames = _frames()
    assert len(frames) == 49
    ours, theirs, header = _streamed(path, frames, tmp_path)
    np.testing.assert_array_equal(ours, theirs)
    # The features move with the tone, and the noise estimate carries: not one frame twice.
    assert len({f.tobytes() for f in theirs}) == len(frames)
    # The noise estimate (40 uint32, TFLM's persistent buffer) is the state pool.
    assert f"#define MODEL_GLOBAL_STATE_STATE_POOL_SIZE {CHANNELS * 4}\n" in header
    (workspace,) = re.findall(r"#define MODEL_GLOBAL_WORKSPACE_WORKSPACE_POOL_SIZE (\d+)", header)
    head, _ = tflm_arena(str(path))
    assert int(workspace) <= head
    if kind == "int8":
        _classifier_gives_tflms_scores(theirs.reshape(1, -1), tmp_path / "classifier")


def _classifier_gives_tflms_scores(features: np.ndarray, tmp_path: Path) -> None:
    """micro_speech's classifier on a second's features: our C library's scores, TFLM's."""
    tmp_path.mkdir()
    ours, theirs, _ = _streamed(DATA / "micro_speech_quantized.tflite", [features], tmp_path)
    np.testing.assert_array_equal(ours, theirs)


def _signal_tflite(
    code: str,
    given: tuple[str, list[int], str],
    made: list[tuple[str, list[int], str]],
    options: dict[str, object],
    outputs: int = 1,
) -> bytes:
    """One signal operator `code` reading the tensor `given` (name, shape, type) and
    computing `made`, the first `outputs` of which are the model's outputs; its options a
    FlexBuffer map, as TFLM's signal library writes them."""
    from flatbuffers import flexbuffers
    from int8_tflite import _Writer
    from tflite.TensorType import TensorType

    types = {
        "int16": TensorType.INT16,
        "int32": TensorType.INT32,
        "float32": TensorType.FLOAT32,
        "bool": TensorType.BOOL,
    }
    w = _Writer()
    x = w.tensor(given[0], given[1], types[given[2]])
    outs = [w.tensor(name, shape, types[dtype]) for name, shape, dtype in made]
    written = {0: bytes(flexbuffers.Dumps(options))}
    return w.model([code], [(0, [x], outs, 0, None)], [x], outs[:outputs], code, written)


def _streams_as_tflm(model: bytes, frames: list[np.ndarray], tmp_path: Path) -> str:
    """The model's C library run on `frames` gives TFLM's outputs, run by run; its header."""
    path = tmp_path / "signal.tflite"
    path.write_bytes(model)
    ours, theirs, header = _streamed(path, frames, tmp_path)
    np.testing.assert_array_equal(ours, theirs)
    assert len({t.tobytes() for t in theirs}) > 1
    return header


def _delay_tflite(shape: list[int], delay: int) -> bytes:
    """One SignalDelay of an int16 `shape` input (its last dim a frame) by `delay` samples."""
    return _signal_tflite(
        "SignalDelay",
        ("frame", shape, "int16"),
        [("delayed", shape, "int16")],
        {"delay_length": delay},
    )


@pytest.mark.parametrize(("shape", "delay"), [([2, 8], 11), ([8], 3)])
def test_signal_delay_streams_as_tflm(shape: list[int], delay: int, tmp_path: Path) -> None:
    """The delayed samples (longer than a frame, or shorter) kept in the state pool from
    frame to frame, first zeros: TFLM's outputs frame by frame."""
    rng = np.random.default_rng(2)
    frames = [rng.integers(-32768, 32768, shape).astype(np.int16) for _ in range(6)]
    header = _streams_as_tflm(_delay_tflite(shape, delay), frames, tmp_path)
    rows = int(np.prod(shape[:-1]))
    assert f"#define MODEL_STATE_DELAYED_SIZE {rows * delay * 2}\n" in header


def _framer_tflite(
    shape: list[int], size: int, step: int, prefill: bool = True, outputs: int = 1
) -> bytes:
    """One SignalFramer of an int16 `shape` input into frames of `size`, `step` apart; the
    model's outputs the frames, then (`outputs` 2) output_valid."""
    return _signal_tflite(
        "SignalFramer",
        ("samples", shape, "int16"),
        [
            ("framed", [*shape[:-1], shape[-1] // step, size], "int16"),
            ("framed_valid", [], "bool"),
        ],
        {"frame_size": size, "frame_step": step, "prefill": prefill},
        outputs,
    )


@pytest.mark.parametrize(("shape", "size", "step"), [([2, 6], 5, 3), ([8], 8, 4)])
def test_prefilled_signal_framer_streams_as_tflm(
    shape: list[int], size: int, step: int, tmp_path: Path
) -> None:
    """Frames cut from the samples kept from the run before (first zeros) and the run's own,
    the kept samples in the state pool: TFLM's frames, run by run, and its output_valid,
    always true."""
    rng = np.random.default_rng(5)
    frames = [rng.integers(-32768, 32768, shape).astype(np.int16) for _ in range(5)]
    path = tmp_path / "framer.tflite"
    path.write_bytes(_framer_tflite(shape, size, step, outputs=2))
    (ours, ours_valid), (theirs, their_valid), header = _streamed_outputs(path, frames, tmp_path, 2)
    np.testing.assert_array_equal(ours, theirs)
    assert ours_valid.all() and their_valid.all()
    rows = int(np.prod(shape[:-1]))
    assert f"#define MODEL_STATE_FRAMED_SIZE {rows * (size - step) * 2}\n" in header


def _valid_streams_as_tflm(model: bytes, frames: list[np.ndarray], tmp_path: Path) -> str:
    """The model (outputs: values, then output_valid) streamed through our C library gives
    TFLM's output_valid run by run, and TFLM's values in each run it says valid (in the
    others both leave the output's bytes as they were); the header."""
    path = tmp_path / "signal.tflite"
    path.write_bytes(model)
    (ours, ours_valid), (theirs, their_valid), header = _streamed_outputs(path, frames, tmp_path, 2)
    np.testing.assert_array_equal(ours_valid, their_valid)
    assert not their_valid.all() and their_valid.any()
    np.testing.assert_array_equal(ours[their_valid], theirs[their_valid])
    return header


@pytest.mark.parametrize(
    ("shape", "size", "step"),
    [
        ([2, 6], 5, 3),  # a buffer of 2 steps: the run's first frame invalid, then all valid
        ([4], 10, 4),  # 3 steps, a frame a run: two runs invalid; frames lag 2 samples
    ],
)
def test_signal_framer_without_prefill_streams_as_tflm(
    shape: list[int], size: int, step: int, tmp_path: Path
) -> None:
    """Without prefill the buffer fills first: output_valid false until it holds a
    frame (a count of the steps seen, in the state pool), then TFLM's frames."""
    rng = np.random.default_rng(6)
    frames = [rng.integers(-32768, 32768, shape).astype(np.int16) for _ in range(6)]
    model = _framer_tflite(shape, size, step, prefill=False, outputs=2)
    header = _valid_streams_as_tflm(model, frames, tmp_path)
    rows, steps = int(np.prod(shape[:-1])), -(-size // step)
    assert f"#define MODEL_STATE_FRAMED_SIZE {rows * (steps - 1) * step * 2}\n" in header
    assert "#define MODEL_STATE_FRAMED_VALID_SIZE 4\n" in header


def _stacker_tflite(channels: int, left: int, right: int, step: int) -> bytes:
    """One SignalStacker of `channels`-value frames; its outputs the stack, output_valid."""
    width = (left + right + 1) * channels
    return _signal_tflite(
        "SignalStacker",
        ("frame", [channels], "int16"),
        [("stacked", [width], "int16"), ("stacked_valid", [], "bool")],
        {
            "num_channels": channels,
            "stacker_left_context": left,
            "stacker_right_context": right,
            "stacker_step": step,
        },
        2,
    )


@pytest.mark.parametrize(
    ("left", "right", "step"),
    [
        (2, 2, 2),  # first valid at the third run, then every other run
    ],
)
def test_signal_stacker_streams_as_tflm(left: int, right: int, step: int, tmp_path: Path) -> None:
    """The first frame stands in for the left context; a stack once left + right + 1
    frames are held, then each `step` runs: TFLM's output_valid and stacks, run by run,
    the held frames and their count in the state pool."""
    rng = np.random.default_rng(7)
    frames = [rng.integers(-32768, 32768, [3]).astype(np.int16) for _ in range(9)]
    header = _valid_streams_as_tflm(_stacker_tflite(3, left, right, step), frames, tmp_path)
    assert f"#define MODEL_STATE_STACKED_SIZE {(left + right) * 3 * 2}\n" in header


def test_contradicting_signal_operators_are_one_diagnostic(tmp_path: Path) -> None:
    """A stack the options make longer than the output, a prefilled framer whose frame is
    shorter than its step (TFLM's prefill would be negative), an FFT that would take
    kissfft's generic butterfly (which crashes TFLM's): one line each, naming the
    operator and the tensor it computes."""
    stacker = _signal_tflite(
        "SignalStacker",
        ("frame", [3], "int16"),
        [("stacked", [10], "int16"), ("stacked_valid", [], "bool")],
        {
            "num_channels": 3,
            "stacker_left_context": 2,
            "stacker_right_context": 1,
            "stacker_step": 1,
        },
    )
    cases = [
        (
            stacker,
            r"CUSTOM 'SignalStacker' operator 0, computing 'stacked': its output is \[10\], "
            r"its options make \[12\]",
        ),
        (
            _framer_tflite([6], 2, 3),
            "CUSTOM 'SignalFramer' operator 0, computing 'framed': its frame_size 2 is less "
            "than its frame_step 3",
        ),
        (
            _fft_tflite("SignalRfft", [28], [30], 28),
            "CUSTOM 'SignalRfft' operator 0, computing 'transformed': its fft_length 28 takes "
            "kissfft's generic radix-7 butterfly",
        ),
    ]
    for model, message in cases:
        path = tmp_path / "signal.tflite"
        path.write_bytes(model)
        with pytest.raises(RelaxImportError) as raised:
            import_model_file(str(path), "tflite")
        text = str(raised.value)
        assert re.search(message, text), text
        assert "\n" not in text.strip()


def _overlap_add_tflite(shape: list[int], step: int, dtype: str) -> bytes:
    """One SignalOverlapAdd of `shape` frames ([..., n_frames, frame_size]) `step` apart."""
    return _signal_tflite(
        "SignalOverlapAdd",
        ("frames", shape, dtype),
        [("overlapped", [*shape[:-2], shape[-2] * step], dtype)],
        {"T": {"int16": 7, "float32": 0}[dtype], "frame_step": step},
    )


@pytest.mark.parametrize(
    ("shape", "step", "dtype"), [([2, 3, 8], 4, "int16"), ([3, 8], 3, "float32")]
)
def test_signal_overlap_add_streams_as_tflm(
    shape: list[int], step: int, dtype: str, tmp_path: Path
) -> None:
    """Frames overlapped and added (int16 saturating: loud frames), the samples not yet
    given out kept in the state pool from run to run: TFLM's outputs frame by frame."""
    rng = np.random.default_rng(3)
    if dtype == "int16":
        frames = [rng.integers(-20000, 20000, shape).astype(np.int16) for _ in range(6)]
    else:
        frames = [rng.uniform(-1, 1, shape).astype(np.float32) for _ in range(6)]
    header = _streams_as_tflm(_overlap_add_tflite(shape, step, dtype), frames, tmp_path)
    rows = int(np.prod(shape[:-2]))
    size = rows * shape[-1] * np.dtype(dtype).itemsize
    assert f"#define MODEL_STATE_OVERLAPPED_SIZE {size}\n" in header


_TENSOR_TYPES = {"int16": 7, "int32": 2, "float32": 0}


def _fft_tflite(
    code: str, shape: list[int], out_shape: list[int], fft_length: int, dtype: str = "int16"
) -> bytes:
    """One SignalRfft or SignalIrfft of `fft_length` in `dtype`."""
    return _signal_tflite(
        code,
        ("given", shape, dtype),
        [("transformed", out_shape, dtype)],
        {"T": _TENSOR_TYPES[dtype], "fft_length": fft_length},
    )


@pytest.mark.slow
@pytest.mark.parametrize(
    ("code", "length", "fft_length"),
    [
        ("SignalRfft", 50, 64),  # radices 4, 4, 2; zero-padded
        ("SignalIrfft", 34, 32),  # 4, 4
        ("SignalIrfft", 66, 64),  # 4, 4, 2
    ],
)
def test_fixed_point_ffts_give_tflms_values(
    code: str, length: int, fft_length: int, tmp_path: Path
) -> None:
    """kissfft's fixed-point real FFT and its inverse (radix-2 and radix-4 stages, TFLM's
    int16 arithmetic) on loud and quiet random inputs: TFLM's values exactly."""
    out_length = (fft_length // 2 + 1) * 2 if code == "SignalRfft" else fft_length
    rng = np.random.default_rng(4)
    frames = [rng.integers(-a, a, [length]).astype(np.int16) for a in (32768, 3000, 40, 32768)]
    model = _fft_tflite(code, [length], [out_length], fft_length)
    _streams_as_tflm(model, frames, tmp_path)


def _fft_chain_tflite(dtype: str, shape: list[int], fft_length: int) -> bytes:
    """A SignalRfft of `fft_length` in `dtype` over frames `shape`, then the SignalIrfft of
    its bins: fft_length samples a frame out."""
    from flatbuffers import flexbuffers
    from int8_tflite import _Writer
    from tflite.TensorType import TensorType

    tensor_type = {"int16": TensorType.INT16, "int32": TensorType.INT32}.get(
        dtype, TensorType.FLOAT32
    )
    w = _Writer()
    x = w.tensor("given", shape, tensor_type)
    bins = w.tensor("bins", [*shape[:-1], fft_length + 2], tensor_type)
    back = w.tensor("back", [*shape[:-1], fft_length], tensor_type)
    options = bytes(flexbuffers.Dumps({"T": _TENSOR_TYPES[dtype], "fft_length": fft_length}))
    operators = [(0, [x], [bins], 0, None), (1, [bins], [back], 0, None)]
    codes = ["SignalRfft", "SignalIrfft"]
    return w.model(codes, operators, [x], [back], "fft", {0: options, 1: options})


def _fft_frames(dtype: str, shape: list[int]) -> list[np.ndarray]:
    """Loud, quiet and tiny random inputs of `dtype` (int32: sums that fit int32)."""
    rng = np.random.default_rng(8)
    if dtype == "float32":
        return [rng.uniform(-a, a, shape).astype(np.float32) for a in (1e4, 1.0, 1e-3)]
    loud = {"int16": 2**15, "int32": 2**29}[dtype]
    return [rng.integers(-a, a, shape).astype(dtype) for a in (loud, 2**10, 40)]


@pytest.mark.slow
@pytest.mark.parametrize(
    ("dtype", "fft_length"),
    [("int16", 60), ("int32", 80), ("float32", 48)],  # radices 2, 3, 5; 4, 2, 5; 4, 2, 3
)
def test_ffts_of_each_type_and_radix_give_tflms_values(
    dtype: str, fft_length: int, tmp_path: Path
) -> None:
    """A real FFT, then its inverse (int16: the FFT), two frames a run (TFLM's kernels
    take any leading dims), in kissfft's int16, FIXED_POINT 32 (Q31 products in int64;
    inputs whose sums fit int32: past that kissfft's C overflows, undefined) and float
    arithmetic, of lengths whose radices cover kissfft's butterflies: integers TFLM's
    exactly, float32 within float rounding (the operations in kissfft's order: equal on
    x86-64, which has no FMA to contract them)."""
    shape = [2, fft_length - 4]
    path = tmp_path / "fft.tflite"
    if dtype == "int16":  # the inverse's int16 radices 2 and 4 are another test's
        model = _fft_tflite("SignalRfft", shape, [2, fft_length + 2], fft_length, dtype)
    else:
        model = _fft_chain_tflite(dtype, shape, fft_length)
    path.write_bytes(model)
    ours, theirs, _ = _streamed(path, _fft_frames(dtype, shape), tmp_path)
    assert len({t.tobytes() for t in theirs}) == len(theirs)
    if dtype != "float32":
        np.testing.assert_array_equal(ours, theirs)
    else:  # a few float ulps of each frame's largest value at most
        largest = np.abs(theirs).max(axis=(1, 2), keepdims=True)
        assert (np.abs(ours - theirs) <= 1e-6 * largest).all()


def _spoiled(model: bytes, tensor: int, dim: int) -> bytes:
    """`model` whose tensor `tensor` (first subgraph) has `dim` as its first dimension."""
    import tflite

    data = bytearray(model)
    found = tflite.Model.GetRootAsModel(data, 0).Subgraphs(0).Tensors(tensor)
    at = found._tab.Vector(found._tab.Offset(4))  # Tensor.shape, int32s
    data[at : at + 4] = np.int32(dim).tobytes()
    return bytes(data)


@pytest.mark.parametrize(
    ("tensor", "dim", "message"),
    [
        (
            29,
            41,
            "CUSTOM 'SignalFilterBank' operator 9, computing 'signal_filter_bank': its output "
            r"is \[41\], its num_channels 40 makes \[40\]",
        ),
        (
            33,
            39,
            "CUSTOM 'SignalPCAN' operator 12, computing 'signal_pcan': its output is "
            r"\[39\], its input \[40\]",
        ),
    ],
)
def test_contradicting_signal_operator_is_one_diagnostic(
    tensor: int, dim: int, message: str, tmp_path: Path
) -> None:
    path = tmp_path / "spoiled.tflite"
    path.write_bytes(_spoiled((DATA / "audio_preprocessor_int8.tflite").read_bytes(), tensor, dim))
    with pytest.raises(RelaxImportError) as raised:
        import_model_file(str(path), "tflite")
    text = str(raised.value)
    assert re.search(message, text), text
    assert "\n" not in text.strip()


def test_kissfft_radices_and_log_table() -> None:
    """kissfft's factoring (4s first, then 2, then odd radices) and TFLM's log2 correction
    table, at a few of TFLM's entries."""
    assert kiss_factors(256) == [4, 4, 4, 4]
    assert kiss_factors(512) == [4, 4, 4, 4, 2]
    assert kiss_factors(30) == [2, 3, 5]
    table = log2_correction_table()
    assert len(table) == 130
    assert [table[i] for i in (0, 1, 64, 127, 128, 129)] == [0, 224, 5568, 142, 0, 0]
