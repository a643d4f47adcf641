#!/usr/bin/env python3
"""TensorFlow Lite Micro's multi-tenant arena (several interpreters handed one
`MicroAllocator`, one arena) run by TFLM itself, which the `tflite-micro` wheel's Python API
cannot do (each `Interpreter` makes its own arena and allocator:
python/tflite_micro/interpreter_wrapper.cc, `memory_arena_(new uint8_t[arena_size])` and
`RecordingMicroAllocator::Create(memory_arena_.get(), arena_size)`):
tools/tflm_shared_arena.cc, linked against the wheel's own `_runtime.so`, does it.

    python tools/tflm_shared_arena.py A.tflite B.tflite ...
        the bytes the models take of one shared arena, allocated one after another
    python tools/tflm_shared_arena.py --micro-speech FRONT.tflite CLASSIFIER.tflite
        micro_speech on one arena, as its application runs it (49 frames kept, the classifier
        after each frame), over a second and a half of synthesized audio: the files as they
        are (the frames in an array apart) and planned jointly by us (the frames kept in the
        classifier's input tensor, the front end writing the newest there); its scores
        against each interpreter alone

The joint plan: each file's tensors planned as `--emit-tflite-plan` plans them, but the
classifier's input (the frames) planned apart from every other tensor of both models, above
the front end's whole head (its kernels' scratch, which TFLM places at run time, included)
and above the classifier's other tensors, and the front end's output tensor at its last
frame. TFLM's allocator reads each file's OfflineMemoryAllocation for its interpreter
(`MicroAllocator::CommitStaticMemoryPlan`: `GetOfflinePlannedOffsets`, then `CommitPlan` at
the head's start, shared by the interpreters), so the joint plan holds in the shared arena.
"""

from __future__ import annotations

import argparse
import ctypes
import dataclasses
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from usmp_dialect.planning.budget import DEFAULT_ALGORITHM, Budget  # noqa: E402
from usmp_dialect.tvm.tflm.arena import tflm_arena  # noqa: E402
from usmp_dialect.tvm.tflm.offline_plan import with_offline_plan  # noqa: E402
from usmp_dialect.tvm.tflm.plan import ARENA_ALIGNMENT, plan_for_tflm, tflm_tensors  # noqa: E402

LARGEST_ARENA = 1 << 24
FRAME, STRIDE, RATE = 480, 320, 16000  # micro_speech: 30 ms windows, 20 ms apart, 16 kHz
FEATURES, FRAMES = 40, 49


_LIBRARY: list[ctypes.CDLL] = []


def _library() -> ctypes.CDLL:
    """tools/tflm_shared_arena.cc built against the wheel's `_runtime.so` and loaded."""
    if not _LIBRARY:
        # The wheel's runtime loaded first: the library's symbols resolve to its copy.
        from tflite_micro.python.tflite_micro import runtime

        built = Path(tempfile.mkdtemp()) / "libtflm_shared_arena.so"
        wheel = Path(runtime.__file__).parent
        subprocess.run(
            [
                "g++",
                "-O1",
                "-shared",
                "-fPIC",
                "-o",
                str(built),
                str(ROOT / "tools" / "tflm_shared_arena.cc"),
                f"-L{wheel}",
                "-l:_runtime.so",
                f"-Wl,-rpath,{wheel}",
                "-Wl,--allow-shlib-undefined",
            ],
            check=True,
        )
        _LIBRARY.append(ctypes.CDLL(str(built)))
    return _LIBRARY[0]


def _files(
    models: Sequence[bytes],
) -> tuple[ctypes.Array[ctypes.c_char_p], list[ctypes.Array[ctypes.c_char]]]:
    buffers = [ctypes.create_string_buffer(m, len(m)) for m in models]
    pointers = (ctypes.c_char_p * len(models))(*(ctypes.cast(b, ctypes.c_char_p) for b in buffers))
    return pointers, buffers  # the buffers kept alive with the pointers


def shared_arena_bytes(models: Sequence[bytes]) -> int:
    """Bytes TFLM's multi-tenant allocator takes of one arena for `models` (their
    interpreters allocated one after another, each with the resource variables the wheel
    gives it), the arena grown until they fit (what it takes does not depend on how large
    it is)."""
    from tflite_micro.python.tflite_micro.runtime import count_resource_variables

    pointers, _kept = _files(models)
    variables = (ctypes.c_int * len(models))(*(count_resource_variables(m) for m in models))
    size = sum(10 * len(m) for m in models)  # the wheel's first guess for one model, each
    while size <= LARGEST_ARENA:
        arena = (ctypes.c_uint8 * size)()
        used = ctypes.c_size_t()
        status = _library().shared_arena(
            pointers, len(models), arena, ctypes.c_size_t(size), variables, ctypes.byref(used)
        )
        if status == 0:
            return used.value
        size *= 2
    raise RuntimeError(f"the models do not fit {LARGEST_ARENA} bytes of arena")


@dataclasses.dataclass(frozen=True)
class MicroSpeechRun:
    used: int
    """Bytes of the shared arena."""
    in_place: bool
    """Whether the front end writes its features where the classifier reads the newest."""
    scores: np.ndarray


def micro_speech(
    front: bytes, classifier: bytes, frames: np.ndarray, in_input: bool
) -> MicroSpeechRun:
    """micro_speech on one arena (see the library's `micro_speech`)."""
    pointers, _kept = _files([front, classifier])
    audio = np.ascontiguousarray(frames, np.int16)
    scores = np.zeros((len(frames), 4), np.int8)
    used = ctypes.c_size_t()
    places = (ctypes.c_int64 * 2)()
    size = 1 << 16
    arena = (ctypes.c_uint8 * size)()
    status = _library().micro_speech(
        pointers,
        arena,
        ctypes.c_size_t(size),
        audio.ctypes.data_as(ctypes.c_void_p),
        len(frames),
        scores.ctypes.data_as(ctypes.c_void_p),
        ctypes.byref(used),
        int(in_input),
        places,
    )
    if status:
        raise RuntimeError(f"micro_speech on one TFLM arena failed at step {status}")
    newest = places[1] + FEATURES * (FRAMES - 1)
    return MicroSpeechRun(used.value, places[0] == newest, scores)


def micro_speech_alone(front: str, classifier: str, frames: np.ndarray) -> np.ndarray:
    """The scores of the wheel's two interpreters, each on its own arena, the frames kept
    as micro_speech keeps them (oldest first, the newest appended)."""
    from tflite_micro.python.tflite_micro import runtime

    heard = runtime.Interpreter.from_file(front)
    scored = runtime.Interpreter.from_file(classifier)
    kept = np.zeros((FRAMES, FEATURES), np.int8)
    scores = []
    for frame in frames:
        heard.set_input(frame[None], 0)
        heard.invoke()
        kept = np.concatenate([kept[1:], heard.get_output(0).reshape(1, FEATURES)])
        scored.set_input(kept.reshape(1, -1), 0)
        scored.invoke()
        scores.append(scored.get_output(0).ravel().copy())
    return np.stack(scores)


def audio_frames() -> np.ndarray:
    """A second and a half of a rising tone over noise (tests/test_tflm_signal.py's second,
    then half of it backwards), in micro_speech's frames."""
    rng = np.random.default_rng(0)
    t = np.arange(RATE) / RATE
    tone = np.sin(2 * np.pi * (200 + 1800 * t) * t) * np.minimum(1.0, 4 * t) * 8000
    second = np.clip(tone + rng.normal(0, 300, t.size), -32768, 32767).astype(np.int16)
    audio = np.concatenate([second, second[::-1][: RATE // 2]])
    return np.stack([audio[i : i + FRAME] for i in range(0, audio.size - FRAME + 1, STRIDE)])


def _io(data: bytes, output: bool) -> tuple[int, int]:
    """The index of the model's first input (or output) tensor, and its bytes."""
    import tflite

    from usmp_dialect.tvm.tflm.plan import _TYPE_SIZES

    graph = tflite.Model.GetRootAsModel(data, 0).Subgraphs(0)
    index = int(graph.Outputs(0) if output else graph.Inputs(0))
    tensor = graph.Tensors(index)
    return index, int(np.prod(tensor.ShapeAsNumpy())) * _TYPE_SIZES[tensor.Type()]


def joint_stacked(front_path: str, classifier_path: str) -> tuple[bytes, bytes]:
    """The two files with our joint plan (the module's docstring): the classifier's input
    holds the front end's outputs of its last runs, the newest last."""
    front, classifier = Path(front_path).read_bytes(), Path(classifier_path).read_bytes()
    tensors = tflm_tensors(front, front_path)
    front_plan = plan_for_tflm(tensors, DEFAULT_ALGORITHM, Budget(), front_path)
    with tempfile.TemporaryDirectory() as work:
        alone = Path(work) / "front.tflite"
        alone.write_bytes(with_offline_plan(front, front_plan.offsets, front_path))
        front_head, _ = tflm_arena(str(alone))  # with its kernels' scratch
    tensors = tflm_tensors(classifier, classifier_path)
    given, stacked = _io(classifier, output=False)
    written, newest = _io(front, output=True)
    others = tensors.planned.copy()
    others[given] = False
    plan = plan_for_tflm(
        dataclasses.replace(tensors, planned=others), DEFAULT_ALGORITHM, Budget(), classifier_path
    )
    stack = -(-max(plan.size, front_head) // ARENA_ALIGNMENT) * ARENA_ALIGNMENT
    classifier_offsets = plan.offsets.copy()
    classifier_offsets[given] = stack
    front_offsets = front_plan.offsets.copy()
    front_offsets[written] = stack + stacked - newest
    return (
        with_offline_plan(front, front_offsets, front_path),
        with_offline_plan(classifier, classifier_offsets, classifier_path),
    )


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("files", nargs="+", help=".tflite files")
    parser.add_argument("--micro-speech", action="store_true", help="FRONT CLASSIFIER: run them")
    args = parser.parse_args(argv)
    if not args.micro_speech:
        print(shared_arena_bytes([Path(f).read_bytes() for f in args.files]))
        return 0
    front, classifier = args.files
    frames = audio_frames()
    alone = micro_speech_alone(front, classifier, frames)
    cases = {
        "the files as they are, the frames in an array apart": (
            Path(front).read_bytes(),
            Path(classifier).read_bytes(),
            False,
        ),
        "our joint plan, the frames in the classifier's input tensor": (
            *joint_stacked(front, classifier),
            True,
        ),
    }
    for label, (a, b, in_input) in cases.items():
        run = micro_speech(a, b, frames, in_input)
        apart = 0 if in_input else FEATURES * FRAMES
        print(
            f"{label}: arena {run.used} B + {apart} B apart = {run.used + apart} B; front end's "
            f"features written in place: {'yes' if run.in_place else 'no (copied)'}; "
            f"{len(frames)} scores as each interpreter alone: "
            f"{'yes' if np.array_equal(run.scores, alone) else 'NO'}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
