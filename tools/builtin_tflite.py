"""One-operator `.tflite` files, one for each builtin operator TensorFlow Lite Micro's
interpreter resolves and each tensor type its kernel takes (float32, int8, int16), with
shapes and options that exercise broadcasting, padding and fused activations: the
measurement of `tools/operator_table.py`. Written with tests/int8_tflite.py's writer.

    CASES: dict[(operator, type), Case]    case.tflite() -> bytes, case.inputs_of(seed) -> arrays

A case's type is that of its activations: "float32", "int8" or "int16" (quantized with a
scale and a zero point, int16 symmetric, as TFLite's converter writes them: int8 weights
per channel, an int32 bias for int8, int64 for int16); an operator of other tensors (bool,
int32) has one case named by them.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

import tflite  # noqa: E402
from int8_tflite import (  # type: ignore[import-not-found]  # noqa: E402  (in tests/)
    _table,
    _vector,
    _Writer,
    custom_operator_tflite,  # noqa: F401  (operator_table.npu_row)
)
from tflite.ActivationFunctionType import ActivationFunctionType  # noqa: E402
from tflite.BuiltinOperator import BuiltinOperator  # noqa: E402
from tflite.BuiltinOptions import BuiltinOptions  # noqa: E402
from tflite.Padding import Padding  # noqa: E402
from tflite.TensorType import TensorType  # noqa: E402

CASE = "case"
"""A tensor of the case's own type (its activations')."""
_TYPES = {
    "float32": TensorType.FLOAT32,
    "int8": TensorType.INT8,
    "int16": TensorType.INT16,
    "int32": TensorType.INT32,
    "int64": TensorType.INT64,
    "bool": TensorType.BOOL,
    "uint8": TensorType.UINT8,
}
QUANTIZED = ("int8", "int16")
RELU6 = ActivationFunctionType.RELU6
RELU = ActivationFunctionType.RELU


@dataclass(frozen=True)
class T:
    """A tensor of a one-operator model: `dtype` CASE (the case's type) or a type name;
    `data` a constant's values (floats, quantized at the case's type when it is
    quantized, or already of `dtype`); `q` its int8 (scale, zero point) (int16: the scale
    / 256 and zero point 0, unless `q16`); `values` the float range an input is drawn from
    (None: a quantized input takes every value of its type)."""

    shape: tuple[int, ...]
    dtype: str = CASE
    data: Any = None
    q: tuple[float, int] = (0.05, -3)
    q16: tuple[float, int] | None = None
    values: tuple[float, float] | None = None
    scales: tuple[float, ...] | None = None
    """Per-channel scales (a weight's), along `axis`, zero points 0: `data` already stored."""
    axis: int = 0


@dataclass(frozen=True)
class Case:
    """One operator on one type: its inputs and outputs (`T`s) and its options table."""

    operator: str
    dtype: str
    inputs: tuple[T | None, ...]
    outputs: tuple[T, ...]
    options: tuple[str, dict[str, Any]] | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    def _type(self, tensor: T) -> str:
        return self.dtype if tensor.dtype == CASE else tensor.dtype

    def _quantization(self, tensor: T) -> tuple[float, int] | None:
        if tensor.scales is not None or self._type(tensor) not in QUANTIZED:
            return None
        if tensor.dtype != CASE and tensor.dtype not in QUANTIZED:
            return None
        if self._type(tensor) == "int16":
            return tensor.q16 or (tensor.q[0] / 256, 0)
        return tensor.q

    def tflite(self) -> bytes:
        """The model's `.tflite` bytes: its constants in the file, the rest its inputs."""
        w = _Writer()
        ids: list[int] = []
        inputs = []
        for i, tensor in enumerate(self.inputs):
            if tensor is None:
                ids.append(-1)
                continue
            ids.append(self._tensor(w, f"in{i}", tensor))
            if tensor.data is None:
                inputs.append(ids[-1])
        outputs = [self._tensor(w, f"out{i}", t) for i, t in enumerate(self.outputs)]
        options_type, options = 0, None
        if self.options is not None:
            table, fields = self.options
            options_type = getattr(BuiltinOptions, table)
            options = _options(w.builder, table, fields)
        code = getattr(BuiltinOperator, self.operator)
        out: int | list[int] = outputs if len(outputs) > 1 else outputs[0]
        ops = [(0, ids, out, options_type, options)]
        name = f"usmp_dialect {self.operator} {self.dtype}"
        return w.model([code], ops, inputs, outputs, name)

    def _tensor(self, w: _Writer, name: str, tensor: T) -> int:
        kind = self._type(tensor)
        q = self._quantization(tensor)
        data = tensor.data
        if data is not None and tensor.scales is None:
            data = np.asarray(data)
            if q is not None:
                info = np.iinfo(kind)
                data = np.clip(np.round(data / q[0]) + q[1], info.min, info.max)
            data = data.astype(kind)
        if tensor.scales is not None:
            points = [0] * len(tensor.scales)
            return w.tensor(
                name,
                list(tensor.shape),
                _TYPES[kind],
                list(tensor.scales),
                points,
                data=data,
                quantized_dimension=tensor.axis,
            )
        quantized = {"scales": [q[0]], "zero_points": [q[1]]} if q else {}
        return w.tensor(name, list(tensor.shape), _TYPES[kind], data=data, **quantized)

    def inputs_of(self, seed: int = 0) -> list[np.ndarray]:
        """Random inputs, in the file's order: floats uniform in the tensor's range (-3..3
        by default), quantized ones every value of their type (or the range quantized),
        booleans half true, integers in the tensor's range."""
        rng = np.random.default_rng(seed)
        arrays = []
        for tensor in self.inputs:
            if tensor is None or tensor.data is not None:
                continue
            kind, q = self._type(tensor), self._quantization(tensor)
            shape = tensor.shape
            if kind == "bool":
                arrays.append(rng.random(shape) < 0.5)
            elif kind == "float32":
                low, high = tensor.values or (-3.0, 3.0)
                arrays.append(rng.uniform(low, high, shape).astype(np.float32))
            elif q is not None:
                info = np.iinfo(kind)
                low, high = info.min, info.max
                if tensor.values is not None:
                    low = max(low, int(np.ceil(tensor.values[0] / q[0])) + q[1])
                    high = min(high, int(np.floor(tensor.values[1] / q[0])) + q[1])
                arrays.append(rng.integers(low, high + 1, shape).astype(kind))
            else:
                low, high = tensor.values or (-100, 100)
                arrays.append(rng.integers(int(low), int(high) + 1, shape).astype(kind))
        return arrays


def _options(builder: Any, table: str, fields: dict[str, Any]) -> int:
    """`table`'s options, a list field written as an int32 vector first."""
    scalars = {}
    for name, value in fields.items():
        start = getattr(tflite, f"{table}Start{name}Vector", None)
        is_list = isinstance(value, list)
        scalars[name] = _vector(builder, start, value, builder.PrependInt32) if is_list else value
    return _table(builder, table, **scalars)


def _i32(*values: int) -> T:
    return T((len(values),), "int32", data=np.array(values, np.int32))


ALL = ("float32", "int8", "int16")
F8 = ("float32", "int8")
_RNG = np.random.default_rng(7)


def _weights(dtype: str, shape: tuple[int, ...], axis: int, input_scale: float) -> list[T]:
    """A weighted operator's weight (channels along `axis`) and bias: float32 as they are;
    for int8 and int16 activations int8 weights per channel and an int32 (int8) or int64
    (int16) bias at the input's scale times each weight's, as TFLite's converter writes."""
    weights = _RNG.standard_normal(shape) / np.sqrt(np.prod(shape) / shape[axis])
    channels = shape[axis]
    bias = _RNG.standard_normal(channels) / 4
    if dtype == "float32":
        return [
            T(shape, "float32", data=weights.astype(np.float32)),
            T((channels,), "float32", data=bias.astype(np.float32)),
        ]
    moved = np.moveaxis(weights, axis, 0).reshape(channels, -1)
    scales = np.abs(moved).max(axis=1) / 127
    view = [1] * len(shape)
    view[axis] = channels
    stored = np.clip(np.round(weights / scales.reshape(view)), -127, 127).astype(np.int8)
    bias_scales = scales * input_scale
    bias_type = "int64" if dtype == "int16" else "int32"
    stored_bias = np.round(bias / bias_scales).astype(bias_type)
    return [
        T(shape, "int8", data=stored, scales=tuple(scales), axis=axis),
        T((channels,), bias_type, data=stored_bias, scales=tuple(bias_scales)),
    ]


_IN_Q, _OUT_Q = (0.05, -3), (0.11, 7)
_IN_Q16, _OUT_Q16 = (0.05 / 256, 0), (0.11 / 256, 0)


def _input_scale(dtype: str) -> float:
    return _IN_Q16[0] if dtype == "int16" else _IN_Q[0]


def _conv(dtype: str) -> Case:
    """CONV_2D 3x3, 6 filters of 4 channels, stride 2, SAME (padding one side more),
    RELU6 fused."""
    options = {
        "Padding": Padding.SAME,
        "StrideW": 2,
        "StrideH": 2,
        "DilationWFactor": 1,
        "DilationHFactor": 1,
        "FusedActivationFunction": RELU6,
    }
    return Case(
        "CONV_2D",
        dtype,
        (T((1, 8, 7, 4)), *_weights(dtype, (6, 3, 3, 4), 0, _input_scale(dtype))),
        (T((1, 4, 4, 6), q=_OUT_Q),),
        ("Conv2DOptions", options),
    )


def _depthwise(dtype: str) -> Case:
    """DEPTHWISE_CONV_2D 3x3, depth multiplier 2, dilation 2, SAME, RELU fused."""
    options = {
        "Padding": Padding.SAME,
        "StrideW": 1,
        "StrideH": 1,
        "DilationWFactor": 2,
        "DilationHFactor": 2,
        "DepthMultiplier": 2,
        "FusedActivationFunction": RELU,
    }
    return Case(
        "DEPTHWISE_CONV_2D",
        dtype,
        (T((1, 7, 6, 3)), *_weights(dtype, (1, 3, 3, 6), 3, _input_scale(dtype))),
        (T((1, 7, 6, 6), q=_OUT_Q),),
        ("DepthwiseConv2DOptions", options),
    )


def _fully_connected(dtype: str) -> Case:
    """FULLY_CONNECTED of [3,10] to 5 units, RELU fused."""
    return Case(
        "FULLY_CONNECTED",
        dtype,
        (T((3, 10)), *_weights(dtype, (5, 10), 0, _input_scale(dtype))),
        (T((3, 5), q=_OUT_Q),),
        ("FullyConnectedOptions", {"FusedActivationFunction": RELU}),
    )


def _transpose_conv(dtype: str) -> Case:
    """TRANSPOSE_CONV 3x3, stride 2, SAME, of [1,4,3,4] into [1,8,6,5], with a bias."""
    weight, bias = _weights(dtype, (5, 3, 3, 4), 0, _input_scale(dtype))
    return Case(
        "TRANSPOSE_CONV",
        dtype,
        (_i32(1, 8, 6, 5), weight, T((1, 4, 3, 4)), bias),
        (T((1, 8, 6, 5), q=_OUT_Q),),
        ("TransposeConvOptions", {"Padding": Padding.SAME, "StrideW": 2, "StrideH": 2}),
    )


def _pool(operator: str) -> Callable[[str], Case]:
    def case(dtype: str) -> Case:
        """3x3 windows, stride 2, SAME over [1,7,8,3], RELU6 fused."""
        options = {
            "Padding": Padding.SAME,
            "StrideW": 2,
            "StrideH": 2,
            "FilterWidth": 3,
            "FilterHeight": 3,
            "FusedActivationFunction": RELU6,
        }
        return Case(
            operator, dtype, (T((1, 7, 8, 3)),), (T((1, 4, 4, 3)),), ("Pool2DOptions", options)
        )

    return case


def _binary(operator: str, table: str | None, activation: int | None = RELU6) -> Callable:
    def case(dtype: str) -> Case:
        """[2,3,4] with [3,1] broadcast, into another quantization, an activation fused."""
        fields = {} if activation is None else {"FusedActivationFunction": activation}
        return Case(
            operator,
            dtype,
            (T((2, 3, 4)), T((3, 1), q=(0.07, 4), q16=(0.07 / 256, 0))),
            (T((2, 3, 4), q=_OUT_Q, q16=_OUT_Q16),),
            (table, fields) if table else None,
        )

    return case


def _elementwise(operator: str) -> Callable[[str], Case]:
    def case(dtype: str) -> Case:
        """[2,3,4] with [3,1] broadcast, of one quantization (TFLM compares the stored
        values, as TFLite's converter writes them)."""
        return Case(operator, dtype, (T((2, 3, 4)), T((3, 1))), (T((2, 3, 4)),))

    return case


def _compare(operator: str) -> Callable[[str], Case]:
    def case(dtype: str) -> Case:
        """[2,3,4] against [3,1], broadcast, of other quantizations: a bool output."""
        a, b = T((2, 3, 4)), T((3, 1), q=(0.07, 4), q16=(0.07 / 256, 0))
        return Case(operator, dtype, (a, b), (T((2, 3, 4), "bool"),))

    return case


def _unary(
    operator: str,
    out: tuple[float, int] = _OUT_Q,
    out16: tuple[float, int] | None = None,
    values: tuple[float, float] | None = None,
    options: tuple[str, dict[str, Any]] | None = None,
) -> Callable[[str], Case]:
    def case(dtype: str) -> Case:
        """[2,5,7], into another quantization."""
        x = T((2, 5, 7), values=values)
        return Case(operator, dtype, (x,), (T((2, 5, 7), q=out, q16=out16),), options)

    return case


def _same(operator: str, out: tuple[int, ...], *constants: T, options=None, x=(2, 3, 4)):
    """An operator moving values (no arithmetic): its output of the input's quantization."""

    def case(dtype: str) -> Case:
        return Case(operator, dtype, (T(x), *constants), (T(out),), options)

    return case


def _reduce(operator: str, out_q: tuple[float, int] = _IN_Q) -> Callable[[str], Case]:
    def case(dtype: str) -> Case:
        """Over axes 1 and 2 of [2,3,4,5], kept."""
        return Case(
            operator,
            dtype,
            (T((2, 3, 4, 5)), _i32(1, 2)),
            (T((2, 1, 1, 5), q=out_q, q16=(out_q[0] / 256, 0)),),
            ("ReducerOptions", {"KeepDims": True}),
        )

    return case


def _quantize(dtype: str) -> Case:
    """QUANTIZE of float32 to `dtype`."""
    return Case("QUANTIZE", dtype, (T((3, 40), "float32"),), (T((3, 40)),))


def _dequantize(dtype: str) -> Case:
    return Case("DEQUANTIZE", dtype, (T((3, 40)),), (T((3, 40), "float32"),))


def _concatenation(dtype: str) -> Case:
    """Three tensors along axis 1 (TFLM takes no fused activation)."""
    return Case(
        "CONCATENATION",
        dtype,
        (T((2, 3, 4)), T((2, 1, 4)), T((2, 2, 4))),
        (T((2, 6, 4)),),
        ("ConcatenationOptions", {"Axis": 1}),
    )


def _strided_slice(dtype: str) -> Case:
    """[4,6,5][1:, ::-2, 0] (begin mask on the last dim, shrink on it)."""
    return Case(
        "STRIDED_SLICE",
        dtype,
        (T((4, 6, 5)), _i32(1, -1, 0), _i32(4, -7, 1), _i32(1, -2, 1)),
        (T((3, 3)),),
        ("StridedSliceOptions", {"ShrinkAxisMask": 4}),
    )


def _split(dtype: str) -> Case:
    """Into 2 along axis 1 (a scalar, as TFLite's converter writes it)."""
    return Case(
        "SPLIT",
        dtype,
        (T((), "int32", data=np.array(1, np.int32)), T((2, 6, 3))),
        (T((2, 3, 3)), T((2, 3, 3))),
        ("SplitOptions", {"NumSplits": 2}),
    )


def _split_v(dtype: str) -> Case:
    return Case(
        "SPLIT_V",
        dtype,
        (T((2, 6, 3)), _i32(1, 3, 2), T((), "int32", data=np.array(1, np.int32))),
        (T((2, 1, 3)), T((2, 3, 3)), T((2, 2, 3))),
        ("SplitVOptions", {"NumSplits": 3}),
    )


def _pack(dtype: str) -> Case:
    return Case(
        "PACK",
        dtype,
        (T((2, 3)), T((2, 3))),
        (T((2, 2, 3)),),
        ("PackOptions", {"ValuesCount": 2, "Axis": 1}),
    )


def _unpack(dtype: str) -> Case:
    return Case(
        "UNPACK",
        dtype,
        (T((2, 3, 4)),),
        (T((2, 4)), T((2, 4)), T((2, 4))),
        ("UnpackOptions", {"Num": 3, "Axis": 1}),
    )


def _softmax(dtype: str) -> Case:
    out = (1 / 256, -128)
    return Case(
        "SOFTMAX",
        dtype,
        (T((3, 10)),),
        (T((3, 10), q=out, q16=(1 / 32768, 0)),),
        ("SoftmaxOptions", {"Beta": 1.0}),
    )


def _prelu(dtype: str) -> Case:
    alpha = T((1, 1, 4), data=np.array([[[0.25, -0.5, 0.1, 1.5]]], np.float32), q=(0.02, 0))
    return Case("PRELU", dtype, (T((2, 3, 4)), alpha), (T((2, 3, 4), q=_OUT_Q),))


def _gather(dtype: str) -> Case:
    indices = T((2, 2), "int32", data=np.array([[2, 0], [1, 2]], np.int32))
    return Case(
        "GATHER", dtype, (T((2, 3, 4)), indices), (T((2, 2, 2, 4)),), ("GatherOptions", {"Axis": 1})
    )


def _gather_nd(dtype: str) -> Case:
    indices = T((3, 2), "int32", data=np.array([[0, 2], [1, 0], [1, 1]], np.int32))
    return Case("GATHER_ND", dtype, (T((2, 3, 4)), indices), (T((3, 4)),))


def _arg(operator: str) -> Callable[[str], Case]:
    table = "ArgMaxOptions" if operator == "ARG_MAX" else "ArgMinOptions"

    def case(dtype: str) -> Case:
        return Case(
            operator,
            dtype,
            (T((2, 3, 5)), _i32(2)),
            (T((2, 3), "int32"),),
            (table, {"OutputType": TensorType.INT32}),
        )

    return case


def _resize(operator: str, table: str, half_pixel: bool) -> Callable[[str], Case]:
    def case(dtype: str) -> Case:
        """[1,3,4,2] to [1,5,7,2], half-pixel centers or not."""
        return Case(
            operator,
            dtype,
            (T((1, 3, 4, 2)), _i32(5, 7)),
            (T((1, 5, 7, 2)),),
            (table, {"HalfPixelCenters": half_pixel}),
        )

    return case


def _batch_matmul(dtype: str) -> Case:
    """[2,3,4] x [1,4,5] broadcast over the batch."""
    return Case(
        "BATCH_MATMUL",
        dtype,
        (T((2, 3, 4)), T((1, 4, 5), q=(0.07, 0), q16=(0.07 / 256, 0))),
        (T((2, 3, 5), q=(0.3, 2), q16=(0.3 / 256, 0)),),
        ("BatchMatMulOptions", {}),
    )


def _cast(source: str, target: str) -> Callable[[str], Case]:
    def case(dtype: str) -> Case:
        return Case("CAST", dtype, (T((3, 7), source, values=(-50, 50)),), (T((3, 7), target),))

    return case


def _select(dtype: str) -> Case:
    return Case("SELECT_V2", dtype, (T((3, 1), "bool"), T((3, 4)), T((1, 4))), (T((3, 4)),))


def _cumsum(dtype: str) -> Case:
    return Case(
        "CUMSUM",
        dtype,
        (T((3, 5)), _i32(1)),
        (T((3, 5)),),
        ("CumsumOptions", {"Exclusive": True}),
    )


def _fill(dtype: str) -> Case:
    value = T((), data=np.array(1.5, np.float32))
    return Case("FILL", dtype, (_i32(2, 3), value), (T((2, 3)),))


def _embedding(dtype: str) -> Case:
    table = T((5, 4), "float32", data=_RNG.standard_normal((5, 4)).astype(np.float32))
    return Case("EMBEDDING_LOOKUP", dtype, (T((3,), "int32", values=(0, 4)), table), (T((3, 4)),))


def _logical(operator: str) -> Callable[[str], Case]:
    def case(dtype: str) -> Case:
        return Case(operator, dtype, (T((2, 3), "bool"), T((1, 3), "bool")), (T((2, 3), "bool"),))

    return case


def _dynamic_update_slice(dtype: str) -> Case:
    return Case("DYNAMIC_UPDATE_SLICE", dtype, (T((4, 5)), T((2, 3)), _i32(1, 2)), (T((4, 5)),))


def _l2_norm(dtype: str) -> Case:
    return Case(
        "L2_NORMALIZATION",
        dtype,
        (T((2, 3, 6)),),
        (T((2, 3, 6), q=(1 / 128, 0)),),
        ("L2NormOptions", {}),
    )


def _broadcast_args(dtype: str) -> Case:
    return Case(
        "BROADCAST_ARGS",
        dtype,
        (T((3,), "int32", data=np.array([2, 1, 4], np.int32)), T((2,), "int32", values=(1, 1))),
        (T((3,), "int32"),),
    )


def _shape(dtype: str) -> Case:
    return Case("SHAPE", dtype, (T((2, 3, 4)),), (T((3,), "int32"),), ("ShapeOptions", {}))


def _zeros_like(dtype: str) -> Case:
    return Case("ZEROS_LIKE", dtype, (T((2, 3)),), (T((2, 3)),))


def _reduce_all(dtype: str) -> Case:
    return Case(
        "REDUCE_ALL",
        dtype,
        (T((3, 4), "bool"), _i32(1)),
        (T((3,), "bool"),),
        ("ReducerOptions", {"KeepDims": False}),
    )


def _add_n(dtype: str) -> Case:
    return Case("ADD_N", dtype, (T((2, 3)), T((2, 3)), T((2, 3))), (T((2, 3)),))


def _space_to_batch(dtype: str) -> Case:
    paddings = T((2, 2), "int32", data=np.array([[1, 0], [0, 2]], np.int32))
    return Case(
        "SPACE_TO_BATCH_ND", dtype, (T((1, 3, 4, 2)), _i32(2, 3), paddings), (T((6, 2, 2, 2)),)
    )


def _batch_to_space(dtype: str) -> Case:
    crops = T((2, 2), "int32", data=np.array([[1, 0], [0, 2]], np.int32))
    return Case(
        "BATCH_TO_SPACE_ND", dtype, (T((6, 2, 2, 2)), _i32(2, 3), crops), (T((1, 3, 4, 2)),)
    )


_PADDINGS = T((3, 2), "int32", data=np.array([[0, 1], [2, 1], [1, 0]], np.int32))

_EXP_VALUES = (-3.0, 2.0)
_POSITIVE = (0.1, 6.0)

# (operator, its types, the case of a type)
_OPERATORS: list[tuple[str, tuple[str, ...], Callable[[str], Case]]] = [
    ("ABS", ALL, _unary("ABS", out=_IN_Q, out16=_IN_Q16)),
    ("ADD", ALL, _binary("ADD", "AddOptions")),
    ("ADD_N", F8, _add_n),
    ("ARG_MAX", F8, _arg("ARG_MAX")),
    ("ARG_MIN", F8, _arg("ARG_MIN")),
    ("AVERAGE_POOL_2D", ALL, _pool("AVERAGE_POOL_2D")),
    ("BATCH_MATMUL", ALL, _batch_matmul),
    ("BATCH_TO_SPACE_ND", F8, _batch_to_space),
    ("BROADCAST_ARGS", ("int32",), _broadcast_args),
    ("BROADCAST_TO", F8, _same("BROADCAST_TO", (2, 3, 4), _i32(2, 3, 4), x=(3, 1))),
    ("CAST", ("float32",), _cast("float32", "int32")),
    ("CAST", ("int8",), _cast("int8", "float32")),
    ("CAST", ("int32",), _cast("int32", "float32")),
    ("CEIL", ("float32",), _unary("CEIL")),
    ("CONCATENATION", ALL, _concatenation),
    ("CONV_2D", ALL, _conv),
    ("COS", ("float32",), _unary("COS")),
    ("CUMSUM", F8, _cumsum),
    (
        "DEPTH_TO_SPACE",
        F8,
        _same(
            "DEPTH_TO_SPACE",
            (1, 4, 6, 2),
            options=("DepthToSpaceOptions", {"BlockSize": 2}),
            x=(1, 2, 3, 8),
        ),
    ),
    ("DEPTHWISE_CONV_2D", ALL, _depthwise),
    ("DEQUANTIZE", QUANTIZED, _dequantize),
    ("DIV", F8, _binary("DIV", "DivOptions")),
    ("DYNAMIC_UPDATE_SLICE", F8, _dynamic_update_slice),
    ("ELU", F8, _unary("ELU")),
    ("EMBEDDING_LOOKUP", ("float32",), _embedding),
    ("EQUAL", ALL, _compare("EQUAL")),
    ("EXP", ALL, _unary("EXP", out=(0.03, -128), values=_EXP_VALUES)),
    ("EXPAND_DIMS", F8, _same("EXPAND_DIMS", (2, 1, 3, 4), _i32(1))),
    ("FILL", ("float32",), _fill),
    ("FLOOR", ("float32",), _unary("FLOOR")),
    ("FLOOR_DIV", ("float32",), _binary("FLOOR_DIV", None, None)),
    ("FLOOR_MOD", ("float32",), _binary("FLOOR_MOD", None, None)),
    ("FULLY_CONNECTED", ALL, _fully_connected),
    ("GATHER", F8, _gather),
    ("GATHER_ND", F8, _gather_nd),
    ("GREATER", ALL, _compare("GREATER")),
    ("GREATER_EQUAL", ALL, _compare("GREATER_EQUAL")),
    ("HARD_SWISH", F8, _unary("HARD_SWISH")),
    ("L2_NORMALIZATION", F8, _l2_norm),
    ("L2_POOL_2D", ("float32",), _pool("L2_POOL_2D")),
    ("LEAKY_RELU", ALL, _unary("LEAKY_RELU", options=("LeakyReluOptions", {"Alpha": 0.2}))),
    ("LESS", ALL, _compare("LESS")),
    ("LESS_EQUAL", ALL, _compare("LESS_EQUAL")),
    ("LOG", ("float32",), _unary("LOG", values=_POSITIVE)),
    (
        "LOG_SOFTMAX",
        F8,
        _unary("LOG_SOFTMAX", out=(16 / 256, 127), options=("LogSoftmaxOptions", {})),
    ),
    ("LOGICAL_AND", ("bool",), _logical("LOGICAL_AND")),
    (
        "LOGICAL_NOT",
        ("bool",),
        lambda d: Case("LOGICAL_NOT", d, (T((2, 3), "bool"),), (T((2, 3), "bool"),)),
    ),
    ("LOGICAL_OR", ("bool",), _logical("LOGICAL_OR")),
    ("LOGISTIC", ALL, _unary("LOGISTIC", out=(1 / 256, -128), out16=(1 / 32768, 0))),
    ("MAX_POOL_2D", ALL, _pool("MAX_POOL_2D")),
    ("MAXIMUM", ALL, _elementwise("MAXIMUM")),
    ("MEAN", ALL, _reduce("MEAN", _OUT_Q)),
    ("MINIMUM", ALL, _elementwise("MINIMUM")),
    (
        "MIRROR_PAD",
        F8,
        _same("MIRROR_PAD", (3, 6, 5), _PADDINGS, options=("MirrorPadOptions", {"Mode": 1})),
    ),
    ("MUL", ALL, _binary("MUL", "MulOptions")),
    ("NEG", F8, _unary("NEG", out=_IN_Q)),
    ("NOT_EQUAL", ALL, _compare("NOT_EQUAL")),
    ("PACK", ALL, _pack),
    ("PAD", ALL, _same("PAD", (3, 6, 5), _PADDINGS)),
    (
        "PADV2",
        ALL,
        _same("PADV2", (3, 6, 5), _PADDINGS, T((), data=np.array(0.5, np.float32))),
    ),
    ("PRELU", F8, _prelu),
    ("QUANTIZE", QUANTIZED, _quantize),
    ("REDUCE_MAX", ALL, _reduce("REDUCE_MAX")),
    ("REDUCE_MIN", ALL, _reduce("REDUCE_MIN")),
    ("RELU", ALL, _unary("RELU")),
    ("RELU6", ALL, _unary("RELU6")),
    ("RESHAPE", ALL, _same("RESHAPE", (4, 6), _i32(4, 6))),
    ("RESIZE_BILINEAR", ALL, _resize("RESIZE_BILINEAR", "ResizeBilinearOptions", True)),
    (
        "RESIZE_NEAREST_NEIGHBOR",
        ALL,
        _resize("RESIZE_NEAREST_NEIGHBOR", "ResizeNearestNeighborOptions", False),
    ),
    ("REVERSE_V2", F8, _same("REVERSE_V2", (2, 3, 4), _i32(1, 2))),
    ("ROUND", ("float32",), _unary("ROUND")),
    ("RSQRT", F8, _unary("RSQRT", out=(0.02, -128), values=_POSITIVE)),
    ("SELECT_V2", F8, _select),
    ("SHAPE", ("float32",), _shape),
    ("SIN", ("float32",), _unary("SIN")),
    ("SLICE", ALL, _same("SLICE", (1, 2, 3), _i32(1, 0, 1), _i32(1, 2, -1))),
    ("SOFTMAX", ALL, _softmax),
    (
        "SPACE_TO_DEPTH",
        F8,
        _same(
            "SPACE_TO_DEPTH",
            (1, 2, 3, 8),
            options=("SpaceToDepthOptions", {"BlockSize": 2}),
            x=(1, 4, 6, 2),
        ),
    ),
    ("SPACE_TO_BATCH_ND", F8, _space_to_batch),
    ("SPLIT", ALL, _split),
    ("SPLIT_V", ALL, _split_v),
    ("SQRT", ("float32",), _unary("SQRT", values=_POSITIVE)),
    ("SQUARE", ("float32",), _unary("SQUARE")),
    ("SQUARED_DIFFERENCE", F8, _binary("SQUARED_DIFFERENCE", None, None)),
    (
        "SQUEEZE",
        F8,
        _same("SQUEEZE", (2, 4), options=("SqueezeOptions", {"SqueezeDims": [1]}), x=(2, 1, 4)),
    ),
    ("STRIDED_SLICE", ALL, _strided_slice),
    ("SUB", ALL, _binary("SUB", "SubOptions")),
    ("SUM", ALL, _reduce("SUM", (0.2, 1))),
    ("TANH", ALL, _unary("TANH", out=(1 / 128, 0), out16=(1 / 32768, 0))),
    ("TRANSPOSE", ALL, _same("TRANSPOSE", (4, 2, 3), _i32(2, 0, 1))),
    ("TRANSPOSE_CONV", ALL, _transpose_conv),
    ("UNPACK", ALL, _unpack),
    ("ZEROS_LIKE", ("float32",), _zeros_like),
    ("REDUCE_ALL", ("bool",), _reduce_all),
]

CASES: dict[tuple[str, str], Case] = {}
for _operator, _types, _make in _OPERATORS:
    for _dtype in _types:
        CASES[(_operator, _dtype)] = _make(_dtype)

# Builtins TFLM registers that are not one operator on tensors: a graph's control flow
# and resource variables (subgraphs, handles), and the stateful sequence operators.
NOT_ONE_OPERATOR = {
    "CALL_ONCE": "calls a subgraph once; tests/test_model_files.py runs files with it",
    "IF": "calls subgraphs",
    "WHILE": "calls subgraphs; tests/int8_tflite.py's while_loop_tflite",
    "VAR_HANDLE": "a resource variable's handle, with READ_VARIABLE and ASSIGN_VARIABLE",
    "READ_VARIABLE": "reads a resource variable (VAR_HANDLE)",
    "ASSIGN_VARIABLE": "writes a resource variable (VAR_HANDLE)",
    "SVDF": "stateful: tests/test_svdf.py compares it with TFLM frame by frame",
    "UNIDIRECTIONAL_SEQUENCE_LSTM": "tests/test_lstm.py, tests/test_lstm_int8.py compare it",
}
