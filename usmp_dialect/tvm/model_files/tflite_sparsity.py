"""A sparse TFLite constant made dense, per TFLite's sparsity format (schema.fbs,
`SparsityParameters`), as its DENSIFY operator does at run time.

    densified(tensor, values) -> np.ndarray   the dense array of the tensor's shape

A sparse tensor of rank n with k block dims (a block of a dim: `block_map[b]` is the dim
block dim n+b divides) is traversed along n+k dims in `traversal_order`; the dim metadata
describes each in that order: DENSE (all of its `dense_size` indices) or SPARSE_CSR (for
each index of the dims before, `array_segments` delimits its indices among
`array_indices`). The stored values are the tensor's non-zero values (whole blocks) in
that traversal. A block dim is dense: its size is that of a block along its dim.
"""

from __future__ import annotations

from typing import Any

import numpy as np

DENSE, SPARSE_CSR = 0, 1


class SparsityError(ValueError):
    """A sparsity format the file's values or shape do not fit."""


def _index_vector(table: Any, kind: int) -> np.ndarray:
    """An `array_segments` or `array_indices` union member as an int64 array."""
    import tflite

    vector_types = {1: tflite.Int32Vector, 2: tflite.Uint16Vector, 3: tflite.Uint8Vector}
    if table is None or kind not in vector_types:
        raise SparsityError(f"a SPARSE_CSR dim without its index vectors (type {kind})")
    vector = vector_types[kind]()
    vector.Init(table.Bytes, table.Pos)
    return vector.ValuesAsNumpy().astype(np.int64) if vector.ValuesLength() else np.zeros(0, int)


def _traversed(sparsity: Any, levels: int) -> np.ndarray:
    """The index along each traversed dim of every stored value, [values, levels], in the
    order the values are stored."""
    indices = np.zeros((1, 0), np.int64)
    positions = np.zeros(1, np.int64)  # of each prefix, in the level's segments
    for level in range(levels):
        metadata = sparsity.DimMetadata(level)
        if metadata.Format() == DENSE:
            size = metadata.DenseSize()
            within = np.tile(np.arange(size), len(positions))
            positions = np.repeat(positions, size) * size + within
            indices = np.column_stack([np.repeat(indices, size, axis=0), within])
            continue
        segments = _index_vector(metadata.ArraySegments(), metadata.ArraySegmentsType())
        found = _index_vector(metadata.ArrayIndices(), metadata.ArrayIndicesType())
        if len(segments) <= positions.max(initial=-1) + 1 or segments[-1] > len(found):
            raise SparsityError(f"dim {level}'s segments do not fit its indices")
        starts, ends = segments[positions], segments[positions + 1]
        counts = ends - starts
        ranges = [np.arange(s, e, dtype=np.int64) for s, e in zip(starts, ends, strict=True)]
        positions = np.concatenate([np.zeros(0, np.int64), *ranges])
        indices = np.column_stack([np.repeat(indices, counts, axis=0), found[positions]])
    return indices


def densified(tensor: Any, values: np.ndarray) -> np.ndarray:
    """The dense array of a sparse flatbuffer `tensor` whose stored non-zero `values` are
    given (see the module docstring)."""
    sparsity = tensor.Sparsity()
    shape = [int(d) for d in tensor.ShapeAsNumpy()]
    rank = len(shape)
    order = (
        [int(d) for d in sparsity.TraversalOrderAsNumpy()]
        if sparsity.TraversalOrderLength()
        else []
    )
    block_map = [int(d) for d in sparsity.BlockMapAsNumpy()] if sparsity.BlockMapLength() else []
    levels = len(order)
    if levels != rank + len(block_map) or sparsity.DimMetadataLength() != levels:
        raise SparsityError(
            f"a traversal of {levels} dims and {sparsity.DimMetadataLength()} dim metadata "
            f"for a tensor of rank {rank} with {len(block_map)} block dims"
        )
    traversed = _traversed(sparsity, levels)
    if len(traversed) != values.size:
        raise SparsityError(
            f"its sparsity format places {len(traversed)} values, the file stores {values.size}"
        )
    dense_index = np.zeros((len(traversed), rank), np.int64)
    for level in range(rank):
        dense_index[:, order[level]] = traversed[:, level]
    for level in range(rank, levels):
        dim = block_map[order[level] - rank]
        block = sparsity.DimMetadata(level).DenseSize()
        dense_index[:, dim] = dense_index[:, dim] * block + traversed[:, level]
    if ((dense_index < 0) | (dense_index >= shape)).any():
        raise SparsityError(f"an index of its sparsity format is outside its shape {shape}")
    dense = np.zeros(shape, values.dtype)
    dense[tuple(dense_index.T)] = values.reshape(-1)
    return dense
