"""Small `.tflite` files, one for each operator our own converters convert
(`usmp_dialect.tvm.model_files.tflite_operators`), written with int8_tflite's writer.
"""

from __future__ import annotations

import numpy as np
from int8_tflite import _table, _Writer
from tflite.BuiltinOperator import BuiltinOperator
from tflite.BuiltinOptions import BuiltinOptions
from tflite.TensorType import TensorType

_Operators = list[tuple[int, list[int], int | list[int], int, int | None]]


def shape_tflite() -> bytes:
    """SHAPE of the input, read by a RESHAPE and itself an output, and sliced and packed
    with a -1 into the shape of another RESHAPE, as a Keras Reshape layer of a model with
    a free batch dim is written (MLPerf Tiny's anomaly detector):

    input float32[2,3] -> SHAPE -> shape int32[2] (an output)
    input -> RELU -> RESHAPE (shape) -> STRIDED_SLICE shape [0] -> PACK [it, -1]
      -> RESHAPE -> output float32[2,3]
    """
    w = _Writer()
    b = w.builder
    f32, int32 = TensorType.FLOAT32, TensorType.INT32
    x = w.tensor("input", [2, 3], f32)
    relu = w.tensor("relu", [2, 3], f32)
    shape = w.tensor("shape", [2], int32)
    same = w.tensor("reshape", [2, 3], f32)
    bounds = [
        w.tensor(f"slice/{name}", [1], int32, data=np.array([value], np.int32))
        for name, value in [("begin", 0), ("end", 1), ("strides", 1)]
    ]
    rows = w.tensor("rows", [], int32)
    rest = w.tensor("rest", [], int32, data=np.array(-1, np.int32))
    packed = w.tensor("packed", [2], int32)
    out = w.tensor("reshape_1", [2, 3], f32)
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
