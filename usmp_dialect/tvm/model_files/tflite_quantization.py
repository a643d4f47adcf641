"""A `.tflite` file's quantization parameters checked before TVM's frontend reads them, as
TFLite's runtime requires them of a tensor of an integer type: as many zero points as
scales (or none: each 0), one of each or one per channel of its quantized dimension; each
scale finite and not negative, and an activation's (not a constant's) positive and
normal (a requantization divides by it: 0 or a denormal makes its multiplier infinite,
NaN makes every value NaN; a constant's scale 0, a weight channel of zeros, multiplies
it by 0); each zero point within
its tensor's type. A file breaking one is one diagnostic naming the tensor, where the
frontend would fail on a Python error of its own (an int32 overflow, "Quantized type
ndarray not supported") or import a model that computes NaN."""

from __future__ import annotations

from typing import Any

import numpy as np

from usmp_dialect.tvm.model_files.tensor_names import tensor_name
from usmp_dialect.tvm.model_files.tflite_tensors import tensor_shape
from usmp_dialect.tvm.relax.to_tir import RelaxImportError

_INTEGERS: dict[str, type[np.integer]] = {"INT4": np.int8, "INT8": np.int8, "UINT8": np.uint8}
_INTEGERS |= {"INT16": np.int16, "INT32": np.int32, "UINT16": np.uint16, "INT64": np.int64}
"""The tensor types quantization applies to, and the type each one's zero point fits."""
_SMALLEST_SCALE = float(np.finfo(np.float32).tiny)
_LARGEST_SCALE = float(np.finfo(np.float32).max)


def _type_name(code: int) -> str:
    from tflite.TensorType import TensorType

    return next((n for n, v in vars(TensorType).items() if v == code), str(code))


def _constant(model: Any, tensor: Any) -> bool:
    buffer = tensor.Buffer()
    return 0 < buffer < model.BuffersLength() and model.Buffers(buffer).DataLength() > 0


def check_quantization(model: Any, graph: Any, path: str) -> None:
    """Each quantized tensor of `graph`, a subgraph of `model` (flatbuffers), as the
    module's docstring says, else a `RelaxImportError` at `path` naming the tensor."""
    for t in range(graph.TensorsLength()):
        tensor = graph.Tensors(t)
        quantization = tensor.Quantization()
        kind = _type_name(tensor.Type())
        if quantization is None or kind not in _INTEGERS:
            continue  # a float tensor's parameters are a record of its range, unused
        name = f"tensor {t} ('{tensor_name(tensor.Name())}')"
        if not quantization.ScaleLength():
            if quantization.ZeroPointLength():
                raise RelaxImportError(
                    f"{name} has zero points and no scale; TFLite's quantization has one "
                    "scale per zero point",
                    path,
                )
            continue
        try:
            scales = quantization.ScaleAsNumpy().astype(np.float64)
            zero_points = quantization.ZeroPointAsNumpy() if quantization.ZeroPointLength() else []
        except ValueError:  # numpy: "buffer is smaller than requested size"
            raise RelaxImportError(
                f"not a valid TensorFlow Lite model (truncated or corrupt: the quantization "
                f"of {name} runs past the file's end)",
                path,
            ) from None
        if len(zero_points) not in (0, len(scales)):  # none: each is 0
            raise RelaxImportError(
                f"{name} has {len(scales)} scales and {len(zero_points)} zero points; "
                "TFLite's quantization has one of each per channel",
                path,
            )
        if len(scales) > 1:
            shape = tensor_shape(tensor)
            axis = quantization.QuantizedDimension()
            # TFLM's person_detect writes a bias's dimension as its weight's (3 of [8]).
            channels = [shape[axis]] if 0 <= axis < len(shape) else shape
            if len(scales) not in channels:
                raise RelaxImportError(
                    f"{name} of shape {shape} has {len(scales)} scales, one a channel of its "
                    f"quantized dimension {axis}",
                    path,
                )
        constant = _constant(model, tensor)
        smallest = 0.0 if constant else _SMALLEST_SCALE
        if bad := [s for s in scales if not smallest <= s <= _LARGEST_SCALE]:
            rule = (
                "a constant's scales are finite and not negative"
                if constant
                else "an activation's scales are positive, finite and normal float32"
            )
            raise RelaxImportError(f"{name} has scale {bad[0]:g}; {rule}", path)
        info = np.iinfo(_INTEGERS[kind])
        if outside := [int(z) for z in zero_points if not info.min <= z <= info.max]:
            raise RelaxImportError(
                f"{name} of type {kind.lower()} has zero point {outside[0]}, outside "
                f"[{info.min}, {info.max}]",
                path,
            )
