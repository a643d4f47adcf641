"""Small `.tflite` files, one for each operator our own converters convert
(`usmp_dialect.tvm.model_files.tflite_operators`), written with int8_tflite's writer.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import tflite
from int8_tflite import _table, _vector, _Writer
from tflite.BuiltinOperator import BuiltinOperator
from tflite.BuiltinOptions import BuiltinOptions
from tflite.DimensionType import DimensionType
from tflite.Padding import Padding
from tflite.TensorType import TensorType

_Operators = list[tuple[int, list[int], int | list[int], int, int | None]]


def shape_tflite(int8: bool = False) -> bytes:
    """SHAPE of the input, read by a RESHAPE and itself an output, and sliced and packed
    with a -1 into the shape of another RESHAPE, as a Keras Reshape layer of a model with
    a free batch dim is written (MLPerf Tiny's anomaly detector):

    input float32[2,3] -> SHAPE -> shape int32[2] (an output)
    input -> RELU -> RESHAPE (shape) -> STRIDED_SLICE shape [0] -> PACK [it, -1]
      -> RESHAPE -> output float32[2,3]

    With `int8` the input, RELU and RESHAPEs are int8 (one scale and zero point).
    """
    w = _Writer()
    b = w.builder
    int32 = TensorType.INT32
    values = TensorType.INT8 if int8 else TensorType.FLOAT32
    quantized = {"scales": [1 / 16], "zero_points": [-3]} if int8 else {}
    x = w.tensor("input", [2, 3], values, **quantized)
    relu = w.tensor("relu", [2, 3], values, **quantized)
    shape = w.tensor("shape", [2], int32)
    same = w.tensor("reshape", [2, 3], values, **quantized)
    bounds = [
        w.tensor(f"slice/{name}", [1], int32, data=np.array([value], np.int32))
        for name, value in [("begin", 0), ("end", 1), ("strides", 1)]
    ]
    rows = w.tensor("rows", [], int32)
    rest = w.tensor("rest", [], int32, data=np.array(-1, np.int32))
    packed = w.tensor("packed", [2], int32)
    out = w.tensor("reshape_1", [2, 3], values, **quantized)
    shape_options = _table(b, "ShapeOptions", OutType=int32)
    slice_options = _table(b, "StridedSliceOptions", ShrinkAxisMask=1)
    pack_options = _table(b, "PackOptions", ValuesCount=2, Axis=0)
    operators: _Operators = [
        (0, [x], relu, 0, None),
        (1, [x], shape, BuiltinOptions.ShapeOptions, shape_options),
        (2, [relu, shape], same, 0, None),
        (3, [shape, *bounds], rows, BuiltinOptions.StridedSliceOptions, slice_options),
        (4, [rows, rest], packed, BuiltinOptions.PackOptions, pack_options),
        (2, [same, packed], out, 0, None),
    ]
    codes = [
        BuiltinOperator.RELU,
        BuiltinOperator.SHAPE,
        BuiltinOperator.RESHAPE,
        BuiltinOperator.STRIDED_SLICE,
        BuiltinOperator.PACK,
    ]
    return w.model(codes, operators, [x], [out, shape], "usmp_dialect shape model")


def _index_vector(builder: Any, kind: int, values: list[int]) -> int:
    """A SparseIndexVector union member of `kind` (Int32Vector, Uint16Vector, Uint8Vector)."""
    name = {1: "Int32Vector", 2: "Uint16Vector", 3: "Uint8Vector"}[kind]
    prepend = {1: builder.PrependInt32, 2: builder.PrependUint16, 3: builder.PrependUint8}[kind]
    data = _vector(builder, getattr(tflite, f"{name}StartValuesVector"), values, prepend)
    return _table(builder, name, Values=data)


def sparse_encoded(
    builder: Any, dense: np.ndarray, order: list[int], block: int | None, kind: int
) -> tuple[int, np.ndarray]:
    """A 2-D `dense` matrix in TFLite's sparsity format, as its converter writes pruned
    weights: traversed along `order` (a permutation of its dims), the first dense, the
    second SPARSE_CSR with index vectors of `kind`; with a `block`, the second dim in
    blocks of that many columns (a third, dense, traversed dim; a block is stored whole if
    any of it is non-zero). The SparsityParameters table and the stored values."""
    inner = order[1]
    rows, cols = dense.shape
    width = block or 1
    blocks = dense.reshape(rows, cols // width, width) if inner == 1 else None
    if blocks is None:  # columns outer: the transposed matrix, without blocks
        blocks = dense.T.reshape(cols, rows, 1)
    kept = np.abs(blocks).max(axis=2) != 0
    segments = [0, *np.cumsum(kept.sum(axis=1)).tolist()]
    indices = [int(j) for row in kept for j in np.flatnonzero(row)]
    values = blocks[kept].reshape(-1)
    metadata = [
        _table(builder, "DimensionMetadata", Format=DimensionType.DENSE, DenseSize=blocks.shape[0]),
        _table(
            builder,
            "DimensionMetadata",
            Format=DimensionType.SPARSE_CSR,
            ArraySegmentsType=kind,
            ArraySegments=_index_vector(builder, kind, segments),
            ArrayIndicesType=kind,
            ArrayIndices=_index_vector(builder, kind, indices),
        ),
    ]
    traversal, block_map = list(order), None
    if block:
        metadata.append(
            _table(builder, "DimensionMetadata", Format=DimensionType.DENSE, DenseSize=block)
        )
        traversal.append(2)
        block_map = _vector(
            builder, tflite.SparsityParametersStartBlockMapVector, [1], builder.PrependInt32
        )
    order_vector = _vector(
        builder, tflite.SparsityParametersStartTraversalOrderVector, traversal, builder.PrependInt32
    )
    dims = _vector(
        builder,
        tflite.SparsityParametersStartDimMetadataVector,
        metadata,
        builder.PrependUOffsetTRelative,
    )
    fields = {"TraversalOrder": order_vector, "DimMetadata": dims}
    if block_map is not None:
        fields["BlockMap"] = block_map
    return _table(builder, "SparsityParameters", **fields), values


def densify_tflite(dense: np.ndarray, order: list[int], block: int | None, kind: int) -> bytes:
    """A FULLY_CONNECTED whose weight `dense` [units, K] is stored sparse (`sparse_encoded`)
    and made dense by a DENSIFY:

    weights (sparse) -> DENSIFY -> dense/weights float32[units,K]
    input float32[1,K] -> FULLY_CONNECTED -> output float32[1,units]
    """
    w = _Writer()
    f32 = TensorType.FLOAT32
    units, k = dense.shape
    sparsity, values = sparse_encoded(w.builder, dense, order, block, kind)
    sparse = w.tensor("weights_sparse", [units, k], f32, data=values, sparsity=sparsity)
    weights = w.tensor("dense/weights", [units, k], f32)
    x = w.tensor("input", [1, k], f32)
    out = w.tensor("dense", [1, units], f32)
    options = _table(w.builder, "FullyConnectedOptions")
    operators: _Operators = [
        (0, [sparse], weights, 0, None),
        (1, [x, weights, -1], out, BuiltinOptions.FullyConnectedOptions, options),
    ]
    codes = [BuiltinOperator.DENSIFY, BuiltinOperator.FULLY_CONNECTED]
    return w.model(codes, operators, [x], [out], "usmp_dialect densify model")


def transpose_conv_bias_tflite(
    weights: np.ndarray, bias: np.ndarray, in_shape: list[int], padding: int, stride: int
) -> bytes:
    """MediaPipe's custom Convolution2DTransposeBias (its options the C struct of padding,
    stride width and height, int32 each), its output shape as its kernel computes it:

    input float32[in_shape] -> CUSTOM 'Convolution2DTransposeBias' (weights OHWI, bias)
      -> output float32[1, H, W, O]
    """
    w = _Writer()
    f32 = TensorType.FLOAT32
    out_channels, kernel_h, kernel_w, _ = weights.shape
    _, in_h, in_w, _ = in_shape
    totals = [0, 0]
    if padding == Padding.SAME:
        totals = [max(0, k - (n - 1) % stride - 1) for k, n in [(kernel_h, in_h), (kernel_w, in_w)]]
    out_h = stride * (in_h - 1) + kernel_h - totals[0]
    out_w = stride * (in_w - 1) + kernel_w - totals[1]
    x = w.tensor("input", in_shape, f32)
    kernel = w.tensor("segment/Kernel", list(weights.shape), f32, data=weights)
    biases = w.tensor("segment/Bias", list(bias.shape), f32, data=bias)
    out = w.tensor("segment", [1, out_h, out_w, out_channels], f32)
    operators: _Operators = [(0, [x, kernel, biases], out, 0, None)]
    options = np.array([padding, stride, stride], "<i4").tobytes()
    return w.model(
        ["Convolution2DTransposeBias"],
        operators,
        [x],
        [out],
        "usmp_dialect transpose-conv-bias model",
        custom_options={0: options},
    )


def max_pool_unpool_tflite(in_shape: list[int], padding: int, relu: bool) -> bytes:
    """MediaPipe's custom MaxPoolingWithArgmax2D (2x2, stride 2) and MaxUnpooling2D of its
    values at its indices, as a segmentation network pools and unpools (their options the
    C struct TfLitePoolParams: padding, strides, filter size, activation, int32 each):

    input float32[in_shape] -> CUSTOM 'MaxPoolingWithArgmax2D' -> pooled, indices
      -> CUSTOM 'MaxUnpooling2D' -> unpooled float32[1, 2 * H', 2 * W', C]
    """
    w = _Writer()
    f32 = TensorType.FLOAT32
    _, height, width, channels = in_shape
    if padding == Padding.SAME:
        out_h, out_w = -(-height // 2), -(-width // 2)
    else:
        out_h, out_w = height // 2, width // 2
    x = w.tensor("input", in_shape, f32)
    pooled = w.tensor("pooled", [1, out_h, out_w, channels], f32)
    indices = w.tensor("indices", [1, out_h, out_w, channels], f32)
    unpooled = w.tensor("unpooled", [1, 2 * out_h, 2 * out_w, channels], f32)
    options = np.array([padding, 2, 2, 2, 2, 1 if relu else 0], "<i4").tobytes()
    operators: _Operators = [
        (0, [x], [pooled, indices], 0, None),
        (1, [pooled, indices], unpooled, 0, None),
    ]
    return w.model(
        ["MaxPoolingWithArgmax2D", "MaxUnpooling2D"],
        operators,
        [x],
        [pooled, indices, unpooled],
        "usmp_dialect max-pool-argmax model",
        custom_options={0: options, 1: options},
    )


LANDMARK_OPTIONS = {
    "left_rotation_idx": 1,
    "right_rotation_idx": 4,
    "output_height": 4,
    "output_width": 5,
    "scale_x": 1.5,
    "scale_y": 1.25,
    "subset_idxs": [0, 2, 3, 5, 1, 4],
    "target_rotation_radians": 0.25,
}


def landmark_crop_tflite(count: int, features: list[int], points: int, version: int = 2) -> bytes:
    """MediaPipe's custom operators (of `version`) of its face mesh with attention: a transform
    matrix from landmarks, a bilinear crop of a feature map by it, and points moved by it
    (their options FlexBuffer maps, `LANDMARK_OPTIONS` the first's):

    landmarks float32[1,count,3] -> CUSTOM 'Landmarks2TransformMatrix' -> matrix [1,4,4]
    features float32[features], matrix -> CUSTOM 'TransformTensorBilinear'
      -> crop [1,4,5,C]
    points float32[1,points,2], matrix -> CUSTOM 'TransformLandmarks' -> moved [1,points,2]
    """
    from flatbuffers import flexbuffers

    w = _Writer()
    f32 = TensorType.FLOAT32
    landmarks = w.tensor("landmarks", [1, count, 3], f32)
    feature_map = w.tensor("features", features, f32)
    point_tensor = w.tensor("points", [1, points, 2], f32)
    matrix = w.tensor("matrix", [1, 4, 4], f32)
    height, width = LANDMARK_OPTIONS["output_height"], LANDMARK_OPTIONS["output_width"]
    crop = w.tensor("crop", [1, height, width, features[3]], f32)
    moved = w.tensor("moved", [1, points, 2], f32)
    operators: _Operators = [
        (0, [landmarks], matrix, 0, None),
        (1, [feature_map, matrix], crop, 0, None),
        (2, [point_tensor, matrix], moved, 0, None),
    ]
    size = {"output_height": height, "output_width": width}
    return w.model(
        ["Landmarks2TransformMatrix", "TransformTensorBilinear", "TransformLandmarks"],
        operators,
        [landmarks, feature_map, point_tensor],
        [matrix, crop, moved],
        "usmp_dialect landmark crop model",
        custom_options={0: flexbuffers.Dumps(LANDMARK_OPTIONS), 1: flexbuffers.Dumps(size)},
        versions=version,
    )
