"""The scale and zero point of a model's quantized inputs and outputs, which a firmware
needs to fill an input from a sensor and read the scores, kept on the entry as

    usmp.io_quantization = {"input_1" = [0.0235 : f64, -128 : i64], ...}

    tflite_io_quantization(graph) -> {name: (scale, zero_point)}   per-tensor ones only
    with_io_quantization(entry, found)                             the attribute set
    io_quantization(entry) -> {name: (scale, zero_point)}          read back
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from xdsl.dialects.builtin import ArrayAttr, DictionaryAttr, FloatAttr, IntegerAttr, f64, i64
from xdsl.ir import Operation

from usmp_dialect.tvm.model_files.tensor_names import tensor_name
from usmp_dialect.tvm.relax.to_tir import sanitize

IO_QUANTIZATION_ATTR = "usmp.io_quantization"


def tflite_io_quantization(graph: Any) -> dict[str, tuple[float, int]]:
    """Each input and output of the TFLite subgraph `graph` quantized per tensor, by its
    name in the lowered module (`sanitize`d)."""
    found = {}
    for index in (*graph.InputsAsNumpy(), *graph.OutputsAsNumpy()):
        tensor = graph.Tensors(int(index))
        quantization = tensor.Quantization()
        if quantization is None or quantization.ScaleLength() != 1:
            continue
        zero_point = int(quantization.ZeroPoint(0)) if quantization.ZeroPointLength() else 0
        found[sanitize(tensor_name(tensor.Name()))] = (float(quantization.Scale(0)), zero_point)
    return found


def with_io_quantization(entry: Operation, found: Mapping[str, tuple[float, int]]) -> None:
    if found:
        entry.attributes[IO_QUANTIZATION_ATTR] = DictionaryAttr(
            {
                name: ArrayAttr([FloatAttr(scale, f64), IntegerAttr(zero_point, i64)])
                for name, (scale, zero_point) in found.items()
            }
        )


def io_quantization(entry: Operation) -> dict[str, tuple[float, int]]:
    record = entry.attributes.get(IO_QUANTIZATION_ATTR)
    if not isinstance(record, DictionaryAttr):
        return {}
    found = {}
    for name, pair in record.data.items():
        if isinstance(pair, ArrayAttr) and len(pair.data) == 2:
            scale, zero_point = pair.data
            if isinstance(scale, FloatAttr) and isinstance(zero_point, IntegerAttr):
                found[name] = (float(scale.value.data), int(zero_point.value.data))
    return found
