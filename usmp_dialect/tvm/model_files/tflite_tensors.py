"""What the TFLite converters read of a flatbuffer tensor, in a module of its own: the
operator converters split into modules by kind import it, and the converter class
imports them."""

from __future__ import annotations

from typing import Any


def tensor_shape(tensor: Any) -> list[int]:
    """A flatbuffer tensor's shape as the file writes it: `ShapeAsNumpy()` is 0, not an
    empty array, for a scalar (a tensor without a shape vector)."""
    return [int(d) for d in tensor.ShapeAsNumpy()] if tensor.ShapeLength() else []


def scalar_quantization(tensor: Any) -> tuple[float, int] | None:
    """A tensor wrapper's one scale and zero point, None if it has none or one per
    channel."""
    quantization = tensor.tensor.Quantization()
    if quantization is None or quantization.ScaleLength() != 1:
        return None
    zero_point = int(quantization.ZeroPoint(0)) if quantization.ZeroPointLength() else 0
    return float(quantization.Scale(0)), zero_point
