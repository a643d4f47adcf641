"""Small int8 `.tflite` files of one quantized operator each, as TFLite's converter
quantizes them for microcontrollers (int8 activations, a scale and a zero point per
tensor): the operators of real int8 files besides convolutions and fully-connected
layers. TFLM computes them in integers; ADD, AVERAGE_POOL_2D, MEAN and QUANTIZE (to
int8 or uint8) our converters compute alike
(`usmp_dialect.tvm.model_files.int8_unweighted_kernels`), SOFTMAX and LOGISTIC TVM's float32
path gets right. Written
with int8_tflite's writer.

    quantized_operator_tflite(name, **quantization) -> bytes
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from int8_tflite import INPUT_SCALE, _conv_options, _int8_conv_constants, _table, _Writer
from tflite.ActivationFunctionType import ActivationFunctionType
from tflite.BuiltinOperator import BuiltinOperator
from tflite.BuiltinOptions import BuiltinOptions
from tflite.Padding import Padding
from tflite.TensorType import TensorType

_Operators = list[tuple[int, list[int], int | list[int], int, int | None]]
INT8, UINT8, F32 = TensorType.INT8, TensorType.UINT8, TensorType.FLOAT32


def _add(w: _Writer, broadcast: bool = False) -> tuple[int, list[int], int, _Operators]:
    """ADD of two int8 tensors of other scales and zero points, RELU fused: the first
    residual add of MLPerf Tiny's image classifier, its quantization (where TVM's float32
    sum is a step off TFLM's); with `broadcast`, the second a row broadcast along the rows
    and RELU6 fused."""
    rows = 1 if broadcast else 64
    a = w.tensor("a", [1, 64, 64, 16], INT8, [0.03412248194217682], [-128])
    b = w.tensor("b", [1, rows, 64, 16], INT8, [0.08185600489377975], [20])
    out = w.tensor("sum", [1, 64, 64, 16], INT8, [0.049982473254203796], [-128])
    activation = ActivationFunctionType.RELU6 if broadcast else ActivationFunctionType.RELU
    options = _table(w.builder, "AddOptions", FusedActivationFunction=activation)
    ops: _Operators = [(0, [a, b], out, BuiltinOptions.AddOptions, options)]
    return BuiltinOperator.ADD, [a, b], out, ops


def _average_pool(w: _Writer) -> tuple[int, list[int], int, _Operators]:
    """AVERAGE_POOL_2D 3x3, stride 2, SAME: windows clipped at the border average fewer."""
    x = w.tensor("x", [1, 9, 9, 8], INT8, [0.07], [5])
    out = w.tensor("pooled", [1, 5, 5, 8], INT8, [0.07], [5])
    options = _table(
        w.builder,
        "Pool2DOptions",
        Padding=Padding.SAME,
        StrideW=2,
        StrideH=2,
        FilterWidth=3,
        FilterHeight=3,
    )
    ops: _Operators = [(0, [x], out, BuiltinOptions.Pool2DOptions, options)]
    return BuiltinOperator.AVERAGE_POOL_2D, [x], out, ops


def global_average_pool_tflite() -> bytes:
    """AVERAGE_POOL_2D over a whole 6x6x18 map, VALID, RELU fused (a global pooling as
    vww and person_detect end with): one window of 36 taps, values below the zero point
    clamped, a tail of channels past a multiple of 4."""
    w = _Writer()
    x = w.tensor("x", [1, 6, 6, 18], INT8, [0.05], [-7])
    out = w.tensor("pooled", [1, 1, 1, 18], INT8, [0.05], [-7])
    options = _table(
        w.builder,
        "Pool2DOptions",
        Padding=Padding.VALID,
        StrideW=1,
        StrideH=1,
        FilterWidth=6,
        FilterHeight=6,
        FusedActivationFunction=ActivationFunctionType.RELU,
    )
    ops: _Operators = [(0, [x], out, BuiltinOptions.Pool2DOptions, options)]
    code = BuiltinOperator.AVERAGE_POOL_2D
    return w.model([code], ops, [x], [out], "usmp_dialect int8 global average pool")


def _mean(w: _Writer) -> tuple[int, list[int], int, _Operators]:
    """MEAN over height and width, kept as dims, into another scale (a global pooling)."""
    x = w.tensor("x", [1, 5, 7, 16], INT8, [0.07], [-3])
    axes = w.tensor("mean/axes", [2], TensorType.INT32, data=np.array([1, 2], np.int32))
    out = w.tensor("mean", [1, 1, 1, 16], INT8, [0.03], [9])
    options = _table(w.builder, "ReducerOptions", KeepDims=True)
    ops: _Operators = [(0, [x, axes], out, BuiltinOptions.ReducerOptions, options)]
    return BuiltinOperator.MEAN, [x], out, ops


def _softmax(w: _Writer) -> tuple[int, list[int], int, _Operators]:
    """SOFTMAX of 4 rows of 12 logits, into TFLite's int8 probabilities (1/256, -128)."""
    x = w.tensor("logits", [4, 12], INT8, [0.09], [-10])
    out = w.tensor("probabilities", [4, 12], INT8, [1 / 256], [-128])
    options = _table(w.builder, "SoftmaxOptions", Beta=1.0)
    ops: _Operators = [(0, [x], out, BuiltinOptions.SoftmaxOptions, options)]
    return BuiltinOperator.SOFTMAX, [x], out, ops


def _logistic(w: _Writer) -> tuple[int, list[int], int, _Operators]:
    """LOGISTIC of every int8 value, into (1/256, -128)."""
    x = w.tensor("x", [1, 256], INT8, [0.06], [3])
    out = w.tensor("sigmoid", [1, 256], INT8, [1 / 256], [-128])
    return BuiltinOperator.LOGISTIC, [x], out, [(0, [x], out, 0, None)]


def _quantize(w: _Writer) -> tuple[int, list[int], int, _Operators]:
    """QUANTIZE of float32 values to int8."""
    x = w.tensor("x", [1, 64], F32)
    out = w.tensor("quantized", [1, 64], INT8, [0.05], [-6])
    return BuiltinOperator.QUANTIZE, [x], out, [(0, [x], out, 0, None)]


def _requantize(w: _Writer) -> tuple[int, list[int], int, _Operators]:
    """QUANTIZE of int8 values to int8 of another scale and zero point."""
    x = w.tensor("x", [1, 256], INT8, [0.05], [-6])
    out = w.tensor("requantized", [1, 256], INT8, [0.13], [4])
    return BuiltinOperator.QUANTIZE, [x], out, [(0, [x], out, 0, None)]


def _to_uint8(w: _Writer) -> tuple[int, list[int], int, _Operators]:
    """QUANTIZE of int8 values to uint8 (microWakeWord's output): the zero point moved."""
    x = w.tensor("x", [1, 256], INT8, [1 / 256], [-128])
    out = w.tensor("probability", [1, 256], UINT8, [1 / 256], [0])
    return BuiltinOperator.QUANTIZE, [x], out, [(0, [x], out, 0, None)]


_BUILDERS: dict[str, Callable[..., tuple[int, list[int], int, _Operators]]] = {
    "add": _add,
    "add_broadcast": lambda w: _add(w, broadcast=True),
    "average_pool": _average_pool,
    "mean": _mean,
    "softmax": _softmax,
    "logistic": _logistic,
    "quantize": _quantize,
    "requantize": _requantize,
    "int8_to_uint8": _to_uint8,
}
QUANTIZED_OPERATORS = tuple(_BUILDERS)


def quantized_operator_tflite(name: str) -> bytes:
    """The `.tflite` bytes of the one-operator model `name` (one of QUANTIZED_OPERATORS)."""
    w = _Writer()
    code, inputs, out, operators = _BUILDERS[name](w)
    return w.model([code], operators, inputs, [out], f"usmp_dialect int8 {name}")


def operator_inputs(name: str, seed: int = 0) -> list[Any]:
    """Inputs of the model `name` covering its range: int8 values (every pair of them
    for two inputs of 65536 values), or floats around the quantized grid (its halfway
    points included)."""
    import tflite

    model = tflite.Model.GetRootAsModel(quantized_operator_tflite(name), 0)
    graph = model.Subgraphs(0)
    rng = np.random.default_rng(seed)
    arrays = []
    for i in range(graph.InputsLength()):
        tensor = graph.Tensors(graph.Inputs(i))
        shape = tuple(int(d) for d in tensor.ShapeAsNumpy())
        if tensor.Type() == F32:
            quarters = rng.integers(-600, 600, shape) / 4  # on the grid and between, halfway too
            arrays.append((quarters * 0.05).astype("float32"))
        else:
            arrays.append(rng.integers(-128, 128, shape).astype(np.int8))
    if [a.size for a in arrays] == [65536, 65536]:
        pairs = np.arange(65536)
        arrays = [
            (v % 256 - 128).astype(np.int8).reshape(a.shape)
            for v, a in zip([pairs, pairs // 256], arrays, strict=True)
        ]
    return arrays


def residual_add_tflite(seed: int = 0) -> bytes:
    """A residual block as a ResNet's int8 file has it, the convolution's output added to
    its input:

    input int8[1,16,16,8] -> CONV_2D 3x3x8 SAME, RELU -> conv int8[1,16,16,8]
      -> ADD (conv, input), RELU -> output int8[1,16,16,8]
    """
    rng = np.random.default_rng(seed)
    w = _Writer()
    shape = [1, 16, 16, 8]
    x = w.tensor("input", shape, INT8, [INPUT_SCALE], [-3])
    weights = rng.standard_normal((8, 3, 3, 8)) / np.sqrt(72)
    cw, cb = _int8_conv_constants(w, "conv", weights, rng.standard_normal(8) / 4, INPUT_SCALE)
    conv = w.tensor("conv", shape, INT8, [1 / 16], [-128])
    out = w.tensor("add", shape, INT8, [1 / 12], [-128])
    relu = ActivationFunctionType.RELU
    conv_options = _conv_options(w.builder, Padding.SAME, activation=relu)
    add_options = _table(w.builder, "AddOptions", FusedActivationFunction=relu)
    operators: _Operators = [
        (0, [x, cw, cb], conv, BuiltinOptions.Conv2DOptions, conv_options),
        (1, [conv, x], out, BuiltinOptions.AddOptions, add_options),
    ]
    codes = [BuiltinOperator.CONV_2D, BuiltinOperator.ADD]
    return w.model(codes, operators, [x], [out], "usmp_dialect int8 residual block")
