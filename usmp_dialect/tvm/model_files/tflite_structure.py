"""A `.tflite` file's flatbuffer walked before anything else reads it, as TFLite's own
verifier would: the Python reader checks nothing, so a corrupt offset or length reaches
TVM's frontend as an `AttributeError` of a missing table, a `TypeError` of an absent
vector, numpy's "buffer is smaller than requested size", or a loop over a length of 2**32
(hours). Here every table the import reads is present, every vector's length fits in the
file (so that each later loop over one is bounded by the file's size), and every index
(a tensor of an operator or of the graph's inputs and outputs, an operator code, a
buffer) points at something; else one diagnostic: not a valid TensorFlow Lite model."""

from __future__ import annotations

import struct
from typing import Any

import numpy as np

from usmp_dialect.tvm.relax.to_tir import RelaxImportError


class _Corrupt(Exception):
    pass


def _length(table: Any, what: str, size: int, element_bytes: int = 4) -> int:
    """A vector's length, checked to fit in a file of `size` bytes."""
    length = int(getattr(table, f"{what}Length")())
    if length * element_bytes > size:
        raise _Corrupt(f"{what.lower()} holds {length} entries, more than the file's bytes")
    return length


def _present(item: Any, what: str) -> Any:
    if item is None:
        raise _Corrupt(f"{what} is missing")
    return item


def _indices(table: Any, what: str, size: int, low: int, high: int, owner: str) -> None:
    """`owner`'s int32 vector of indices `what`, each in [low, high)."""
    if not _length(table, what, size):
        return
    values = np.asarray(getattr(table, f"{what}AsNumpy")())
    if values.size and (values.min() < low or values.max() >= high):
        bad = next(int(v) for v in values.reshape(-1) if not low <= v < high)
        raise _Corrupt(f"{owner}'s {what.lower()} name {bad}, not one of 0..{high - 1}")


def _check_subgraph(model: Any, graph: Any, g: int, size: int) -> None:
    tensors = _length(graph, "Tensors", size)
    buffers = _length(model, "Buffers", size)
    for t in range(tensors):
        tensor = _present(graph.Tensors(t), f"tensor {t} of subgraph {g}")
        if not 0 <= tensor.Buffer() < max(buffers, 1):
            raise _Corrupt(f"tensor {t} of subgraph {g} names buffer {tensor.Buffer()}")
        _length(tensor, "Shape", size)
    _indices(graph, "Inputs", size, 0, tensors, f"subgraph {g}")
    _indices(graph, "Outputs", size, 0, tensors, f"subgraph {g}")
    codes = _length(model, "OperatorCodes", size)
    for o in range(_length(graph, "Operators", size)):
        operator = _present(graph.Operators(o), f"operator {o} of subgraph {g}")
        if not 0 <= operator.OpcodeIndex() < codes:
            raise _Corrupt(f"operator {o} of subgraph {g} names code {operator.OpcodeIndex()}")
        owner = f"operator {o} of subgraph {g}"
        _indices(operator, "Inputs", size, -1, tensors, owner)  # -1: an optional input left out
        _indices(operator, "Outputs", size, 0, tensors, owner)


def check_structure(model: Any, size: int, path: str) -> None:
    """The flatbuffer `model` of a file of `size` bytes as the module's docstring says,
    else a `RelaxImportError` at `path`."""
    try:
        subgraphs = _length(model, "Subgraphs", size)
        if not subgraphs:
            raise _Corrupt("it has no subgraph")
        for code in range(_length(model, "OperatorCodes", size)):
            _present(model.OperatorCodes(code), f"operator code {code}")
        for buffer in range(_length(model, "Buffers", size)):
            _length(_present(model.Buffers(buffer), f"buffer {buffer}"), "Data", size, 1)
        for g in range(subgraphs):
            _check_subgraph(model, _present(model.Subgraphs(g), f"subgraph {g}"), g, size)
    except _Corrupt as error:
        raise RelaxImportError(
            f"not a valid TensorFlow Lite model (truncated or corrupt: {error})", path
        ) from None
    except (struct.error, ValueError, TypeError, IndexError) as error:  # an offset past the end
        raise RelaxImportError(
            f"not a valid TensorFlow Lite model (truncated or corrupt: {error})", path
        ) from None
