"""A small int8 TensorFlow Lite model, written as TFLite's converter writes one for
microcontrollers: int8 activations and weights (per-channel for the convolution, zero
points 0), int32 biases at input scale x weight scale, pooling and reshape keeping their
input's quantization. No wheel we found ships an int8 `.tflite` without pulling in
TensorFlow, so the tests write this one (with the `tflite` package's flatbuffer builders).

    input int8[1,12,12,1] -> CONV_2D 3x3x8 SAME, RELU -> MAX_POOL_2D 2x2
      -> RESHAPE [1,288] -> FULLY_CONNECTED 10 -> output int8[1,10]

and, likewise, a small float model with float16 weights (`float16_weights_tflite`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import flatbuffers
import numpy as np
import tflite
from tflite.ActivationFunctionType import ActivationFunctionType
from tflite.BuiltinOperator import BuiltinOperator
from tflite.BuiltinOptions import BuiltinOptions
from tflite.DimensionType import DimensionType
from tflite.Padding import Padding
from tflite.SparseIndexVector import SparseIndexVector
from tflite.TensorType import TensorType

INPUT_SCALE = 1 / 32


def _vector(builder: Any, start: Any, values: list[Any], prepend: Any) -> int:
    start(builder, len(values))
    for value in reversed(values):
        prepend(value)
    return builder.EndVector()


def _table(builder: Any, table: str, **fields: Any) -> int:
    """A flatbuffer table of the schema's `table` with its scalar or offset `fields`."""
    getattr(tflite, f"{table}Start")(builder)
    for field, value in fields.items():
        getattr(tflite, f"{table}Add{field}")(builder, value)
    return getattr(tflite, f"{table}End")(builder)


class _Writer:
    def __init__(self) -> None:
        self.builder = flatbuffers.Builder(4096)
        self.buffers: list[bytes] = [b""]  # buffer 0: empty, as the converter writes
        self.tensors: list[int] = []
        self.called: list[int] = []
        """The subgraphs ended (`subgraph`): the file's 1, 2, ... after its main one."""

    def buffer(self, data: np.ndarray | None) -> int:
        if data is None:
            return 0
        self.buffers.append(np.ascontiguousarray(data).tobytes())
        return len(self.buffers) - 1

    def tensor(
        self,
        name: str | None,
        shape: list[int],
        dtype: int,
        scales: list[float] | None = None,
        zero_points: list[int] | None = None,
        data: np.ndarray | None = None,
        signature: list[int] | None = None,
        sparsity: int | None = None,
        quantized_dimension: int = 0,
        variable: bool = False,
    ) -> int:
        """A tensor (`name` None: without one, which TFLite's schema allows); `signature`
        its shape signature (-1 a dim a caller may resize),
        `sparsity` its SparsityParameters table (its `data` the non-zero values),
        `quantized_dimension` the axis of its per-channel scales, `variable` whether it is
        a variable tensor (an SVDF's state). A scalar has no shape vector, which TFLite
        reads as rank 0."""
        b = self.builder
        buffer = self.buffer(data)
        name_offset = None if name is None else b.CreateString(name)
        shape_offset = None
        if shape:
            shape_offset = _vector(b, tflite.TensorStartShapeVector, shape, b.PrependInt32)
        signature_offset = None
        if signature is not None:
            signature_offset = _vector(
                b, tflite.TensorStartShapeSignatureVector, signature, b.PrependInt32
            )
        quantization = None
        if scales is not None:
            points = zero_points if zero_points is not None else [0] * len(scales)
            scale_offset = _vector(
                b, tflite.QuantizationParametersStartScaleVector, scales, b.PrependFloat32
            )
            zero_offset = _vector(
                b, tflite.QuantizationParametersStartZeroPointVector, points, b.PrependInt64
            )
            tflite.QuantizationParametersStart(b)
            tflite.QuantizationParametersAddScale(b, scale_offset)
            tflite.QuantizationParametersAddZeroPoint(b, zero_offset)
            tflite.QuantizationParametersAddQuantizedDimension(b, quantized_dimension)
            quantization = tflite.QuantizationParametersEnd(b)
        tflite.TensorStart(b)
        if shape_offset is not None:
            tflite.TensorAddShape(b, shape_offset)
        if signature_offset is not None:
            tflite.TensorAddShapeSignature(b, signature_offset)
        tflite.TensorAddType(b, dtype)
        tflite.TensorAddBuffer(b, buffer)
        if name_offset is not None:
            tflite.TensorAddName(b, name_offset)
        if quantization is not None:
            tflite.TensorAddQuantization(b, quantization)
        if sparsity is not None:
            tflite.TensorAddSparsity(b, sparsity)
        if variable:
            tflite.TensorAddIsVariable(b, True)
        self.tensors.append(tflite.TensorEnd(b))
        return len(self.tensors) - 1

    def model(
        self,
        codes: Sequence[int | str],
        operators: Sequence[tuple[int, list[int], int | list[int], int, int | None]],
        inputs: list[int],
        outputs: list[int],
        description: str,
        custom_options: dict[int, bytes] | None = None,
        versions: int = 1,
    ) -> bytes:
        """The `.tflite` bytes of one subgraph (and those `subgraph` ended before):
        `operators` as (index into `codes`, input tensors, output tensor, builtin options
        type, options), in order; a code that is a string is a custom operator's name,
        `custom_options` its options' bytes by the operator's index; every code of version
        `versions`."""
        b = self.builder
        subgraph = self._subgraph(operators, inputs, outputs, "main", custom_options)
        code_offsets = []
        for opcode in codes:
            custom = b.CreateString(opcode) if isinstance(opcode, str) else None
            code = BuiltinOperator.CUSTOM if isinstance(opcode, str) else opcode
            tflite.OperatorCodeStart(b)
            if custom is not None:
                tflite.OperatorCodeAddCustomCode(b, custom)
            # Codes past 127 (VAR_HANDLE) are in the newer field only, as TFLite writes them.
            tflite.OperatorCodeAddDeprecatedBuiltinCode(
                b, min(code, BuiltinOperator.PLACEHOLDER_FOR_GREATER_OP_CODES)
            )
            tflite.OperatorCodeAddBuiltinCode(b, code)
            tflite.OperatorCodeAddVersion(b, versions)
            code_offsets.append(tflite.OperatorCodeEnd(b))
        buffer_offsets = []
        for data in self.buffers:
            data_offset = b.CreateByteVector(data) if data else None
            tflite.BufferStart(b)
            if data_offset is not None:
                tflite.BufferAddData(b, data_offset)
            buffer_offsets.append(tflite.BufferEnd(b))

        codes_vector = _vector(
            b, tflite.ModelStartOperatorCodesVector, code_offsets, b.PrependUOffsetTRelative
        )
        subgraphs = _vector(
            b,
            tflite.ModelStartSubgraphsVector,
            [subgraph, *self.called],
            b.PrependUOffsetTRelative,
        )
        buffers = _vector(
            b, tflite.ModelStartBuffersVector, buffer_offsets, b.PrependUOffsetTRelative
        )
        description_offset = b.CreateString(description)
        tflite.ModelStart(b)
        tflite.ModelAddVersion(b, 3)
        tflite.ModelAddOperatorCodes(b, codes_vector)
        tflite.ModelAddSubgraphs(b, subgraphs)
        tflite.ModelAddDescription(b, description_offset)
        tflite.ModelAddBuffers(b, buffers)
        b.Finish(tflite.ModelEnd(b), file_identifier=b"TFL3")
        return bytes(b.Output())

    def subgraph(
        self,
        operators: Sequence[tuple[int, list[int], int | list[int], int, int | None]],
        inputs: list[int],
        outputs: list[int],
        name: str,
    ) -> int:
        """Ends a subgraph a control flow operator calls, of the tensors made since the
        last one ended, as `model` takes them; its index in the file."""
        self.called.append(self._subgraph(operators, inputs, outputs, name, None))
        return len(self.called)

    def _subgraph(
        self,
        operators: Sequence[tuple[int, list[int], int | list[int], int, int | None]],
        inputs: list[int],
        outputs: list[int],
        name: str,
        custom_options: dict[int, bytes] | None,
    ) -> int:
        b = self.builder
        operator_offsets = []
        for i, (code, operands, output, options_type, options) in enumerate(operators):
            inputs_offset = _vector(b, tflite.OperatorStartInputsVector, operands, b.PrependInt32)
            results = output if isinstance(output, list) else [output]
            outputs_offset = _vector(b, tflite.OperatorStartOutputsVector, results, b.PrependInt32)
            custom = (custom_options or {}).get(i)
            custom_offset = b.CreateByteVector(custom) if custom is not None else None
            tflite.OperatorStart(b)
            if custom_offset is not None:
                tflite.OperatorAddCustomOptions(b, custom_offset)
            tflite.OperatorAddOpcodeIndex(b, code)
            tflite.OperatorAddInputs(b, inputs_offset)
            tflite.OperatorAddOutputs(b, outputs_offset)
            if options is not None:
                tflite.OperatorAddBuiltinOptionsType(b, options_type)
                tflite.OperatorAddBuiltinOptions(b, options)
            operator_offsets.append(tflite.OperatorEnd(b))
        tensors = _vector(
            b, tflite.SubGraphStartTensorsVector, self.tensors, b.PrependUOffsetTRelative
        )
        inputs_vector = _vector(b, tflite.SubGraphStartInputsVector, inputs, b.PrependInt32)
        outputs_vector = _vector(b, tflite.SubGraphStartOutputsVector, outputs, b.PrependInt32)
        ops = _vector(
            b, tflite.SubGraphStartOperatorsVector, operator_offsets, b.PrependUOffsetTRelative
        )
        name_offset = b.CreateString(name)
        tflite.SubGraphStart(b)
        tflite.SubGraphAddTensors(b, tensors)
        tflite.SubGraphAddInputs(b, inputs_vector)
        tflite.SubGraphAddOutputs(b, outputs_vector)
        tflite.SubGraphAddOperators(b, ops)
        tflite.SubGraphAddName(b, name_offset)
        self.tensors = []
        return tflite.SubGraphEnd(b)


def _quantized(values: np.ndarray, scales: np.ndarray, dtype: type) -> np.ndarray:
    info = np.iinfo(dtype)
    return np.clip(np.round(values / scales), info.min, info.max).astype(dtype)


def _conv_options(
    b: Any, padding: int, stride: int = 1, activation: int = ActivationFunctionType.NONE
) -> int:
    """A CONV_2D's options table: square stride, no dilation."""
    return _table(
        b,
        "Conv2DOptions",
        Padding=padding,
        StrideW=stride,
        StrideH=stride,
        DilationWFactor=1,
        DilationHFactor=1,
        FusedActivationFunction=activation,
    )


def _int8_conv_constants(
    w: _Writer, name: str, weights: np.ndarray, bias: np.ndarray, input_scale: float
) -> tuple[int, int]:
    """A convolution's weights quantized to int8 per output channel (its first dim) and
    its bias to int32 at the input's scale times each weight scale, as TFLite's converter
    writes them: the two tensors."""
    channels = weights.shape[0]
    scales = np.abs(weights).reshape(channels, -1).max(axis=1) / 127
    cw = w.tensor(
        f"{name}/weights",
        list(weights.shape),
        TensorType.INT8,
        list(scales),
        data=_quantized(weights, scales[:, None, None, None], np.int8),
    )
    bias_scales = scales * input_scale
    cb = w.tensor(
        f"{name}/bias",
        [channels],
        TensorType.INT32,
        list(bias_scales),
        data=_quantized(bias, bias_scales, np.int32),
    )
    return cw, cb


def int8_cnn_tflite(seed: int = 0) -> bytes:
    """The model's `.tflite` bytes; weights drawn from `seed`."""
    rng = np.random.default_rng(seed)
    w = _Writer()
    b = w.builder
    int8 = TensorType.INT8

    conv_weights = rng.standard_normal((8, 3, 3, 1)) / 3
    conv_bias = rng.standard_normal(8) / 4
    conv_out_scale, fc_out_scale = 1 / 16, 1 / 8
    fc_weights = rng.standard_normal((10, 288)) / np.sqrt(288)
    fc_scale = float(np.abs(fc_weights).max() / 127)
    fc_bias = rng.standard_normal(10) / 4

    x = w.tensor("input_1", [1, 12, 12, 1], int8, [INPUT_SCALE], [0])
    cw, cb = _int8_conv_constants(w, "conv", conv_weights, conv_bias, INPUT_SCALE)
    conv = w.tensor("conv/relu", [1, 12, 12, 8], int8, [conv_out_scale], [-128])
    pool = w.tensor("pool", [1, 6, 6, 8], int8, [conv_out_scale], [-128])
    new_shape = w.tensor(
        "flatten/shape", [2], TensorType.INT32, data=np.array([1, 288], dtype=np.int32)
    )
    flat = w.tensor("flatten", [1, 288], int8, [conv_out_scale], [-128])
    fw = w.tensor(
        "dense/weights",
        [10, 288],
        int8,
        [fc_scale],
        data=_quantized(fc_weights, np.float64(fc_scale), np.int8),
    )
    fc_bias_scale = fc_scale * conv_out_scale
    fb = w.tensor(
        "dense/bias",
        [10],
        TensorType.INT32,
        [fc_bias_scale],
        data=_quantized(fc_bias, np.float64(fc_bias_scale), np.int32),
    )
    out = w.tensor("Identity", [1, 10], int8, [fc_out_scale], [3])

    conv_options = _conv_options(b, Padding.SAME, activation=ActivationFunctionType.RELU)
    pool_options = _table(
        b,
        "Pool2DOptions",
        Padding=Padding.VALID,
        StrideW=2,
        StrideH=2,
        FilterWidth=2,
        FilterHeight=2,
    )
    reshape_shape = _vector(b, tflite.ReshapeOptionsStartNewShapeVector, [1, 288], b.PrependInt32)
    reshape_options = _table(b, "ReshapeOptions", NewShape=reshape_shape)
    fc_options = _table(b, "FullyConnectedOptions")

    codes = [
        BuiltinOperator.CONV_2D,
        BuiltinOperator.MAX_POOL_2D,
        BuiltinOperator.RESHAPE,
        BuiltinOperator.FULLY_CONNECTED,
    ]
    operators = [
        (0, [x, cw, cb], conv, BuiltinOptions.Conv2DOptions, conv_options),
        (1, [conv], pool, BuiltinOptions.Pool2DOptions, pool_options),
        (2, [pool, new_shape], flat, BuiltinOptions.ReshapeOptions, reshape_options),
        (3, [flat, fw, fb], out, BuiltinOptions.FullyConnectedOptions, fc_options),
    ]
    return w.model(codes, operators, [x], [out], "usmp_dialect int8 test model")


def float16_weights_tflite(seed: int = 0) -> bytes:
    """A float model with float16 weights, as TFLite's converter writes one with
    `target_spec.supported_types = [tf.float16]`: each weight and bias a FLOAT16 constant
    that a DEQUANTIZE turns into the float32 its operator reads; activations float32.

        input float32[1,16] -> FULLY_CONNECTED 8, RELU -> FULLY_CONNECTED 4 -> output float32[1,4]
    """
    rng = np.random.default_rng(seed)
    w = _Writer()
    b = w.builder
    f16, f32 = TensorType.FLOAT16, TensorType.FLOAT32

    def weight(name: str, shape: list[int]) -> tuple[int, int]:
        """A float16 constant and the float32 tensor its DEQUANTIZE computes."""
        scale = np.sqrt(shape[-1]) if len(shape) > 1 else 4.0
        values = (rng.standard_normal(shape) / scale).astype(np.float16)
        return w.tensor(name, shape, f16, data=values), w.tensor(f"{name}/f32", shape, f32)

    x = w.tensor("input", [1, 16], f32)
    w1, w1_f32 = weight("dense/weights", [8, 16])
    b1, b1_f32 = weight("dense/bias", [8])
    hidden = w.tensor("dense/relu", [1, 8], f32)
    w2, w2_f32 = weight("dense_1/weights", [4, 8])
    b2, b2_f32 = weight("dense_1/bias", [4])
    out = w.tensor("Identity", [1, 4], f32)

    relu = _table(b, "FullyConnectedOptions", FusedActivationFunction=ActivationFunctionType.RELU)
    linear = _table(b, "FullyConnectedOptions")
    fc = BuiltinOptions.FullyConnectedOptions
    codes = [BuiltinOperator.DEQUANTIZE, BuiltinOperator.FULLY_CONNECTED]
    operators: list[tuple[int, list[int], int, int, int | None]] = [
        (0, [w1], w1_f32, 0, None),
        (0, [b1], b1_f32, 0, None),
        (0, [w2], w2_f32, 0, None),
        (0, [b2], b2_f32, 0, None),
        (1, [x, w1_f32, b1_f32], hidden, fc, relu),
        (1, [hidden, w2_f32, b2_f32], out, fc, linear),
    ]
    return w.model(codes, operators, [x], [out], "usmp_dialect float16-weight test model")


def unsupported_operator_tflite(out_name: str | None = "skip_gram/out") -> bytes:
    """A float model with an operator TVM 0.27's TFLite frontend does not convert:

    input float32[1,4] -> RELU -> SKIP_GRAM -> output float32[1,4]

    the output named `out_name` (None: unnamed, as some of TFLM's test models leave a
    tensor)."""
    w = _Writer()
    f32 = TensorType.FLOAT32
    x = w.tensor("input", [1, 4], f32)
    hidden = w.tensor("relu", [1, 4], f32)
    out = w.tensor(out_name, [1, 4], f32)
    codes = [BuiltinOperator.RELU, BuiltinOperator.SKIP_GRAM]
    operators: list[tuple[int, list[int], int, int, int | None]] = [
        (0, [x], hidden, 0, None),
        (1, [hidden], out, 0, None),
    ]
    return w.model(codes, operators, [x], [out], "usmp_dialect unsupported-operator model")


def unique_tflite() -> bytes:
    """A float model with an operator whose output's length TVM's frontend leaves to run
    time (a UNIQUE, as `relax.unique`):

    input float32[6] -> RELU -> UNIQUE -> values float32[6], indices int32[6]
    """
    w = _Writer()
    f32, int32 = TensorType.FLOAT32, TensorType.INT32
    x = w.tensor("input", [6], f32)
    hidden = w.tensor("relu", [6], f32)
    values = w.tensor("unique/values", [6], f32)
    indices = w.tensor("unique/indices", [6], int32)
    options = _table(w.builder, "UniqueOptions", IdxOutType=int32)
    codes = [BuiltinOperator.RELU, BuiltinOperator.UNIQUE]
    operators: list[tuple[int, list[int], int | list[int], int, int | None]] = [
        (0, [x], hidden, 0, None),
        (1, [hidden], [values, indices], BuiltinOptions.UniqueOptions, options),
    ]
    return w.model(codes, operators, [x], [values, indices], "usmp_dialect unique model")


def random_uniform_tflite() -> bytes:
    """A float model with an operator TVM's frontend converts to a call of its runtime's
    packed function (`relax.call_dps_packed` of `tvm.contrib.random.uniform`), which no
    lowering makes a TIR operator:

    shape int32[2] (constant) -> RANDOM_UNIFORM -> noise float32[2,3]
    input float32[2,3], noise -> ADD -> output float32[2,3]
    """
    w = _Writer()
    f32, int32 = TensorType.FLOAT32, TensorType.INT32
    x = w.tensor("input", [2, 3], f32)
    shape = w.tensor("noise/shape", [2], int32, data=np.array([2, 3], dtype=np.int32))
    noise = w.tensor("noise", [2, 3], f32)
    out = w.tensor("output", [2, 3], f32)
    options = _table(w.builder, "RandomOptions", Seed=1, Seed2=2)
    codes = [BuiltinOperator.RANDOM_UNIFORM, BuiltinOperator.ADD]
    operators: list[tuple[int, list[int], int, int, int | None]] = [
        (0, [shape], noise, BuiltinOptions.RandomOptions, options),
        (1, [x, noise], out, 0, None),
    ]
    return w.model(codes, operators, [x], [out], "usmp_dialect random-uniform model")


def requantizing_slice_tflite() -> bytes:
    """An int8 STRIDED_SLICE whose output has a scale other than its input's, which
    TFLite's converter never writes (its kernel copies the int8 values):

    input int8[1,4] (scale 1/32) -> STRIDED_SLICE [0:1, 0:2] -> output int8[1,2] (scale 1/16)
    """
    w = _Writer()
    int8, int32 = TensorType.INT8, TensorType.INT32
    x = w.tensor("input", [1, 4], int8, [INPUT_SCALE], [0])
    bounds = [
        w.tensor(name, [2], int32, data=np.array(values, dtype=np.int32))
        for name, values in [
            ("slice/begin", [0, 0]),
            ("slice/end", [1, 2]),
            ("slice/strides", [1, 1]),
        ]
    ]
    out = w.tensor("slice", [1, 2], int8, [2 * INPUT_SCALE], [0])
    options = _table(w.builder, "StridedSliceOptions")
    operators: list[tuple[int, list[int], int, int, int | None]] = [
        (0, [x, *bounds], out, BuiltinOptions.StridedSliceOptions, options),
    ]
    codes = [BuiltinOperator.STRIDED_SLICE]
    return w.model(codes, operators, [x], [out], "usmp_dialect requantizing-slice model")


def batch_matmul_tflite(weight: np.ndarray) -> bytes:
    """A float BATCH_MATMUL of both operands' swapped last axes, the second the constant
    `weight` [1, N, K] (its batch broadcast), then an EXPAND_DIMS at a negative axis:

    input float32[2,K,M] -> BATCH_MATMUL adj_x adj_y -> [2,M,N] -> EXPAND_DIMS -2
      -> output float32[2,M,1,N]
    """
    w = _Writer()
    f32, int32 = TensorType.FLOAT32, TensorType.INT32
    _, n, k = weight.shape
    m = 3
    x = w.tensor("input", [2, k, m], f32)
    rhs = w.tensor("weight", [1, n, k], f32, data=weight.astype(np.float32))
    product = w.tensor("matmul", [2, m, n], f32)
    axis = w.tensor("expand/axis", [1], int32, data=np.array([-2], dtype=np.int32))
    out = w.tensor("expand", [2, m, 1, n], f32)
    adjoint = _table(w.builder, "BatchMatMulOptions", AdjX=True, AdjY=True)
    operators: list[tuple[int, list[int], int, int, int | None]] = [
        (0, [x, rhs], product, BuiltinOptions.BatchMatMulOptions, adjoint),
        (1, [product, axis], out, 0, None),
    ]
    codes = [BuiltinOperator.BATCH_MATMUL, BuiltinOperator.EXPAND_DIMS]
    return w.model(codes, operators, [x], [out], "usmp_dialect batch-matmul model")


def split_v_tflite(sizes: list[int], length: int = 4) -> bytes:
    """A float SPLIT_V of constant `sizes` along the dim a caller may resize:

    input float32[1,length] (signature [1,-1]) -> SPLIT_V sizes, axis 1 -> part_0, part_1, ...
    each output written as the file's converter would for the file's length.
    """
    w = _Writer()
    f32, int32 = TensorType.FLOAT32, TensorType.INT32
    x = w.tensor("input", [1, length], f32, signature=[1, -1])
    size_tensor = w.tensor("split/sizes", [len(sizes)], int32, data=np.array(sizes, np.int32))
    axis = w.tensor("split/axis", [], int32, data=np.array(1, np.int32))
    rest = length - sum(s for s in sizes if s != -1)
    parts = [w.tensor(f"part_{i}", [1, rest if s == -1 else s], f32) for i, s in enumerate(sizes)]
    options = _table(w.builder, "SplitVOptions", NumSplits=len(sizes))
    operators: list[tuple[int, list[int], int | list[int], int, int | None]] = [
        (0, [x, size_tensor, axis], parts, BuiltinOptions.SplitVOptions, options),
    ]
    return w.model([BuiltinOperator.SPLIT_V], operators, [x], parts, "usmp_dialect split-v model")


def _variable(w: _Writer, name: str) -> tuple[int, tuple[int, list[int], int, int, int]]:
    """A resource variable `name`: its handle tensor, and the VAR_HANDLE computing it (of
    code 0, as in `_state_codes`)."""
    handle = w.tensor(f"{name}/handle", [], TensorType.RESOURCE)
    options = _table(w.builder, "VarHandleOptions", SharedName=w.builder.CreateString(name))
    return handle, (0, [], handle, BuiltinOptions.VarHandleOptions, options)


def _state_codes(last: int) -> list[int]:
    """The operator codes of a model with a variable: VAR_HANDLE, READ_VARIABLE, ADD and
    `last`."""
    return [
        BuiltinOperator.VAR_HANDLE,
        BuiltinOperator.READ_VARIABLE,
        BuiltinOperator.ADD,
        last,
    ]


def failing_stateful_tflite() -> bytes:
    """A float model with a resource variable, whose last operator TVM's frontend fails
    on (a RESHAPE to a shape of another size):

    VAR_HANDLE 'state' -> READ_VARIABLE -> state float32[1,4]
    input float32[1,4] + state -> RESHAPE [3] -> output float32[3]
    """
    w = _Writer()
    f32, int32 = TensorType.FLOAT32, TensorType.INT32
    x = w.tensor("input", [1, 4], f32)
    handle, var_handle = _variable(w, "state")
    state = w.tensor("state/read", [1, 4], f32)
    total = w.tensor("add", [1, 4], f32)
    shape = w.tensor("reshape/shape", [1], int32, data=np.array([3], np.int32))
    out = w.tensor("reshape", [3], f32)
    operators: list[tuple[int, list[int], int, int, int | None]] = [
        var_handle,
        (1, [handle], state, 0, None),
        (2, [x, state], total, 0, None),
        (3, [total, shape], out, 0, None),
    ]
    codes = _state_codes(BuiltinOperator.RESHAPE)
    return w.model(codes, operators, [x], [out], "usmp_dialect failing stateful model")


def scalar_state_tflite(order: str = "read, write") -> bytes:
    """A float model adding a scalar variable (rank 0: no shape vector) to its input, and
    writing the variable, as `order` says: "read, write" (doubled), "read" (never written),
    or "write, read" (0 written before it is read):

    VAR_HANDLE 'offset' -> READ_VARIABLE -> offset float32[]
    input float32[2] + offset -> output float32[2]
    offset + offset -> ASSIGN_VARIABLE 'offset' (the tensor 'doubled')
    """
    w = _Writer()
    f32 = TensorType.FLOAT32
    x = w.tensor("input", [2], f32)
    handle, var_handle = _variable(w, "offset")
    offset = w.tensor("offset/read", [], f32)
    out = w.tensor("add", [2], f32)
    doubled = w.tensor("doubled", [], f32)
    zero = w.tensor("zero", [], f32, data=np.float32(0))
    steps: dict[str, list[tuple[int, list[int], int | list[int], int, int | None]]] = {
        "read": [(1, [handle], offset, 0, None), (2, [x, offset], out, 0, None)],
        "write": [(2, [offset, offset], doubled, 0, None), (3, [handle, doubled], [], 0, None)],
    }
    if order == "write, read":
        steps["write"] = [(3, [handle, zero], [], 0, None)]
    operators = [var_handle, *(op for step in order.split(", ") for op in steps[step])]
    codes = _state_codes(BuiltinOperator.ASSIGN_VARIABLE)
    return w.model(codes, operators, [x], [out], "usmp_dialect scalar-state model")


def custom_operator_tflite(code: str = "FlexErf") -> bytes:
    """An int8 model whose second operator is a custom one neither TVM's frontend nor ours
    converts (a TensorFlow op kept by TFLite's converter as a Flex one; TVM's frontend
    rejects every custom operator before converting any), after a DEQUANTIZE it converts;
    `code` its name ("ethos-u": Vela's NPU operator):

    input int8[1,4] -> DEQUANTIZE -> float32[1,4] -> CUSTOM 'FlexErf' -> output float32[1,4]
    """
    w = _Writer()
    x = w.tensor("input", [1, 4], TensorType.INT8, [INPUT_SCALE], [0])
    real = w.tensor("dense/Kernel_dequantize", [1, 4], TensorType.FLOAT32)
    out = w.tensor("erf/out", [1, 4], TensorType.FLOAT32)
    operators: list[tuple[int, list[int], int, int, int | None]] = [
        (0, [x], real, 0, None),
        (1, [real], out, 0, None),
    ]
    codes = [BuiltinOperator.DEQUANTIZE, code]
    return w.model(codes, operators, [x], [out], "usmp_dialect custom-operator model")


def _csr_sparsity(builder: Any, rows: int, segments: list[int], indices: list[int]) -> int:
    """SparsityParameters of a [rows, N] matrix in CSR: dim 0 dense, dim 1 sparse (row
    `r`'s non-zero values at columns `indices[segments[r]:segments[r + 1]]`)."""

    def int32_vector(values: list[int]) -> int:
        data = _vector(builder, tflite.Int32VectorStartValuesVector, values, builder.PrependInt32)
        return _table(builder, "Int32Vector", Values=data)

    dense = _table(builder, "DimensionMetadata", Format=DimensionType.DENSE, DenseSize=rows)
    segment_vector, index_vector = int32_vector(segments), int32_vector(indices)
    csr = _table(
        builder,
        "DimensionMetadata",
        Format=DimensionType.SPARSE_CSR,
        ArraySegmentsType=SparseIndexVector.Int32Vector,
        ArraySegments=segment_vector,
        ArrayIndicesType=SparseIndexVector.Int32Vector,
        ArrayIndices=index_vector,
    )
    order = _vector(
        builder, tflite.SparsityParametersStartTraversalOrderVector, [0, 1], builder.PrependInt32
    )
    dims = _vector(
        builder,
        tflite.SparsityParametersStartDimMetadataVector,
        [dense, csr],
        builder.PrependUOffsetTRelative,
    )
    return _table(builder, "SparsityParameters", TraversalOrder=order, DimMetadata=dims)


def densify_tflite(stored: Sequence[bool] = (True,)) -> bytes:
    """A float model with sparse weights, as TFLite's converter writes one for pruned
    layers: each layer's weight [4,4] stored in CSR (4 non-zero values), a DENSIFY making
    it dense for the FULLY_CONNECTED reading it, one layer for each entry of `stored`, the
    DENSIFYs first:

    weights float32[4,4] (CSR) -> DENSIFY -> dense/weights float32[4,4]  (dense_1/..., ...)
    input float32[1,4] -> FULLY_CONNECTED -> dense float32[1,4] -> ... FULLY_CONNECTED

    A layer whose `stored` is False has its sparse weight's buffer empty: a file the
    import rejects (TVM's own DENSIFY converter crashed inside numpy on it).
    """
    w = _Writer()
    f32 = TensorType.FLOAT32
    values = np.array([1.0, -2.0, 0.5, 0.25], np.float32)
    options = _table(w.builder, "FullyConnectedOptions")
    x = w.tensor("input", [1, 4], f32)
    densifies: list[tuple[int, list[int], int, int, int | None]] = []
    layers: list[tuple[int, list[int], int, int, int | None]] = []
    layer_input = x
    for layer, values_stored in enumerate(stored):
        name = "dense" if layer == 0 else f"dense_{layer}"
        sparsity = _csr_sparsity(w.builder, 4, segments=[0, 2, 3, 3, 4], indices=[0, 3, 1, 2])
        data = values if values_stored else None
        sparse = w.tensor(f"{name}/weights_sparse", [4, 4], f32, data=data, sparsity=sparsity)
        weights = w.tensor(f"{name}/weights", [4, 4], f32)
        out = w.tensor(name, [1, 4], f32)
        densifies.append((0, [sparse], weights, 0, None))
        layers.append(
            (1, [layer_input, weights, -1], out, BuiltinOptions.FullyConnectedOptions, options)
        )
        layer_input = out
    codes = [BuiltinOperator.DENSIFY, BuiltinOperator.FULLY_CONNECTED]
    operators = densifies + layers
    return w.model(codes, operators, [x], [layer_input], "usmp_dialect sparse-weights model")


def large_activations_tflite(size: int = 64, channels: int = 8) -> bytes:
    """A float model with no weights and large activations, whose arena is far above the
    10x its file size that the `tflite-micro` wheel's interpreter defaults to:

    input float32[1,size,size,channels] -> RELU -> output float32[1,size,size,channels]
    """
    w = _Writer()
    shape = [1, size, size, channels]
    x = w.tensor("input", shape, TensorType.FLOAT32)
    out = w.tensor("relu", shape, TensorType.FLOAT32)
    operators: list[tuple[int, list[int], int, int, int | None]] = [(0, [x], out, 0, None)]
    return w.model([BuiltinOperator.RELU], operators, [x], [out], "usmp_dialect large activations")


def int8_pad_tflite(zero_point: int = -5) -> bytes:
    """An int8 PAD, padding with the zero point as TFLite's kernel does:

    input int8[1,3,3,2] (zero point `zero_point`) -> PAD [[0,0],[1,1],[2,0],[0,0]]
      -> output int8[1,5,5,2]
    """
    w = _Writer()
    int8, int32 = TensorType.INT8, TensorType.INT32
    x = w.tensor("input", [1, 3, 3, 2], int8, [INPUT_SCALE], [zero_point])
    widths = np.array([[0, 0], [1, 1], [2, 0], [0, 0]], np.int32)
    paddings = w.tensor("pad/paddings", [4, 2], int32, data=widths)
    padded = w.tensor("padded", [1, 5, 5, 2], int8, [INPUT_SCALE], [zero_point])
    operators: list[tuple[int, list[int], int, int, int | None]] = [
        (0, [x, paddings], padded, 0, None),
    ]
    return w.model([BuiltinOperator.PAD], operators, [x], [padded], "usmp_dialect int8 pad")


def float_input_int8_conv_tflite(stride: int, seed: int = 0) -> bytes:
    """An int8 convolution behind a float32 input, as TFLite's converter writes a model
    whose caller feeds floats: its QUANTIZE then the int8 kernel.

    input float32[1,8,8,4] -> QUANTIZE -> int8[1,8,8,4]
      -> CONV_2D 1x1x8, stride `stride` -> output int8[1,8/stride,8/stride,8]

    At stride 1 the convolution's output (512 B) is larger than the quantized input (256
    B): the float input (1024 B) is best freed before it is written. At stride 2 it is
    smaller (128 B): the quantized input is best never held.
    """
    rng = np.random.default_rng(seed)
    w = _Writer()
    int8 = TensorType.INT8
    side = 8 // stride
    weights = rng.standard_normal((8, 1, 1, 4)) / 2
    bias = rng.standard_normal(8) / 4

    x = w.tensor("input", [1, 8, 8, 4], TensorType.FLOAT32)
    quantized = w.tensor("quantized", [1, 8, 8, 4], int8, [INPUT_SCALE], [0])
    cw, cb = _int8_conv_constants(w, "conv", weights, bias, INPUT_SCALE)
    out = w.tensor("conv", [1, side, side, 8], int8, [1 / 16], [-3])
    conv_options = _conv_options(w.builder, Padding.VALID, stride)
    codes = [BuiltinOperator.QUANTIZE, BuiltinOperator.CONV_2D]
    operators: list[tuple[int, list[int], int, int, int | None]] = [
        (0, [x], quantized, 0, None),
        (1, [quantized, cw, cb], out, BuiltinOptions.Conv2DOptions, conv_options),
    ]
    return w.model(codes, operators, [x], [out], "usmp_dialect float input, int8 conv")


def conv_stack_tflite(
    int8: bool,
    layers: int = 6,
    channels: int = 16,
    seed: int = 0,
    shared: bool = False,
    uniform: bool = False,
) -> bytes:
    """A stack of convolutions, int8 as TFLite's converter quantizes one (per-channel
    weights, int32 biases) or its float32 twin with the same weights unquantized, to
    weigh what int8 costs the import and the check:

    input [1,16,16,channels] -> `layers` x (CONV_2D 3x3xchannels SAME, RELU)
      -> output [1,16,16,channels]

    With `shared`, every layer has the first one's weights and bias, each layer's its own
    tensors in the file (int8: the same bytes, and the bias's too from the second layer
    on, whose input scale is the same). With `uniform`, every output channel's weights
    have the same largest magnitude: int8, each weight's per-channel scales are all equal.
    """
    rng = np.random.default_rng(seed)
    w = _Writer()
    dtype = TensorType.INT8 if int8 else TensorType.FLOAT32
    shape = [1, 16, 16, channels]
    activation = [1 / 16] if int8 else None
    x = w.tensor("input", shape, dtype, [INPUT_SCALE] if int8 else None, [0] if int8 else None)
    options = _conv_options(w.builder, Padding.SAME, activation=ActivationFunctionType.RELU)
    operators: list[tuple[int, list[int], int, int, int | None]] = []
    previous, previous_scale = x, INPUT_SCALE
    for layer in range(layers):
        if layer == 0 or not shared:
            weights = rng.standard_normal((channels, 3, 3, channels)) / np.sqrt(9 * channels)
            bias = rng.standard_normal(channels) / 4
            if uniform:
                largest = np.abs(weights).reshape(channels, -1).max(axis=1)
                weights *= 0.5 / largest[:, None, None, None]
        if int8:
            cw, cb = _int8_conv_constants(w, f"conv{layer}", weights, bias, previous_scale)
        else:
            cw = w.tensor(
                f"conv{layer}/weights",
                list(weights.shape),
                dtype,
                data=weights.astype(np.float32),
            )
            cb = w.tensor(f"conv{layer}/bias", [channels], dtype, data=bias.astype(np.float32))
        out = w.tensor(f"conv{layer}/relu", shape, dtype, activation, [-128] if int8 else None)
        operators.append((0, [previous, cw, cb], out, BuiltinOptions.Conv2DOptions, options))
        previous, previous_scale = out, 1 / 16
    kind = "int8" if int8 else "float32"
    return w.model(
        [BuiltinOperator.CONV_2D], operators, [x], [previous], f"usmp_dialect {kind} convs"
    )


def int8_requantize_tflite(
    input_scale: float,
    output_scale: float,
    output_name: str = "requantized",
    output_zero_point: int = 0,
) -> bytes:
    """An int8 QUANTIZE from one scale to another (TFLite's requantize), every int8 value
    in:

    input int8[1,256] (scale `input_scale`) -> QUANTIZE -> output int8[1,256] (`output_scale`)
    """
    w = _Writer()
    x = w.tensor("input", [1, 256], TensorType.INT8, [input_scale], [0])
    out = w.tensor(output_name, [1, 256], TensorType.INT8, [output_scale], [output_zero_point])
    operators: list[tuple[int, list[int], int, int, int | None]] = [(0, [x], out, 0, None)]
    return w.model([BuiltinOperator.QUANTIZE], operators, [x], [out], "usmp_dialect requantize")


def int8_kernel_tflite(
    kind: str,
    *,
    stride: int = 1,
    dilation: int = 1,
    padding: int = Padding.SAME,
    activation: int = ActivationFunctionType.NONE,
    depth_multiplier: int = 1,
    groups: int = 1,
    per_channel: bool = True,
    bias: bool = True,
    keep_num_dims: bool = False,
    weight_zero_point: int = 0,
    in_channels: int = 4,
    filters: int = 8,
    seed: int = 0,
) -> bytes:
    """One quantized operator as TFLite's converter writes it (int8 activations of scales
    that are no power of two and nonzero zero points, int8 weights with per-channel or
    per-tensor scales, an int32 bias at input scale x weight scale), `kind` one of:

    "conv":      input int8[1,9,9,4] -> CONV_2D 3x3, 8 filters (of 4 / `groups` channels;
                 `in_channels` and `filters` change the 4 and the 8)
    "pointwise": input int8[1,9,9,20] -> CONV_2D 1x1, 8 filters (81 pixels, 20 channels:
                 a matrix product with a tail of rows and of columns)
    "depthwise": input int8[1,9,9,4] -> DEPTHWISE_CONV_2D 3x3, `depth_multiplier` (and
                 `in_channels`)
    "dense":     input int8[1,3,16] -> FULLY_CONNECTED 6 (`keep_num_dims`: [1,3,6], else
                 [3,6])

    `weight_zero_point`: the weight's (0 as TFLite's converter writes it; TFLM's
    FULLY_CONNECTED takes another too).
    """
    rng = np.random.default_rng(seed)
    w = _Writer()
    b = w.builder
    int8 = TensorType.INT8
    input_scale, output_scale = 0.0173, 0.0411
    if kind == "dense":
        in_shape, weights = [1, 3, 16], rng.standard_normal((6, 16)) / 4
    elif kind == "conv":
        in_shape = [1, 9, 9, in_channels]
        weights = rng.standard_normal((filters, 3, 3, in_channels // groups)) / 6
    elif kind == "pointwise":
        in_shape, weights = [1, 9, 9, 20], rng.standard_normal((8, 1, 1, 20)) / 6
    else:
        in_shape = [1, 9, 9, in_channels]
        weights = rng.standard_normal((1, 3, 3, in_channels * depth_multiplier)) / 3
    channel_axis = 3 if kind == "depthwise" else 0
    channels = weights.shape[channel_axis]
    moved = np.moveaxis(weights, channel_axis, 0).reshape(channels, -1)
    scales = np.abs(moved).max(axis=1) / 127
    if not per_channel:
        scales = np.full(channels, scales.max())
    shape = [1] * weights.ndim
    shape[channel_axis] = channels
    x = w.tensor("input", in_shape, int8, [input_scale], [-3])
    weight = w.tensor(
        "weights",
        list(weights.shape),
        int8,
        list(scales) if per_channel else [float(scales[0])],
        [weight_zero_point] * (channels if per_channel else 1),
        data=_quantized(weights, scales.reshape(shape), np.int8),
        quantized_dimension=channel_axis,
    )
    operands = [x, weight]
    if bias:
        bias_scales = scales * input_scale
        values = _quantized(rng.standard_normal(channels) / 2, bias_scales, np.int32)
        operands.append(
            w.tensor("bias", [channels], TensorType.INT32, list(bias_scales), data=values)
        )
    else:
        operands.append(-1)
    if kind == "dense":
        out_shape = [1, 3, channels] if keep_num_dims else [3, channels]
        code = BuiltinOperator.FULLY_CONNECTED
        options_type = BuiltinOptions.FullyConnectedOptions
        options = _table(
            b,
            "FullyConnectedOptions",
            FusedActivationFunction=activation,
            KeepNumDims=keep_num_dims,
        )
    else:
        side = 9 if padding == Padding.SAME else 9 - 2 * dilation
        side = -(-side // stride)
        out_shape = [1, side, side, channels]
        convolution = kind in ("conv", "pointwise")
        table = "Conv2DOptions" if convolution else "DepthwiseConv2DOptions"
        fields = {"DepthMultiplier": depth_multiplier} if kind == "depthwise" else {}
        options = _table(
            b,
            table,
            Padding=padding,
            StrideW=stride,
            StrideH=stride,
            DilationWFactor=dilation,
            DilationHFactor=dilation,
            FusedActivationFunction=activation,
            **fields,
        )
        code = BuiltinOperator.CONV_2D if convolution else BuiltinOperator.DEPTHWISE_CONV_2D
        options_type = (
            BuiltinOptions.Conv2DOptions if convolution else BuiltinOptions.DepthwiseConv2DOptions
        )
    out = w.tensor("output", out_shape, int8, [output_scale], [5])
    operators: list[tuple[int, list[int], int, int, int | None]] = [
        (0, operands, out, options_type, options)
    ]
    return w.model([code], operators, [x], [out], f"usmp_dialect int8 {kind}")


def dynamic_shape_tflite() -> bytes:
    """A float model whose input's stored shape has a dimension of -1 (known only when a
    runtime resizes it), which TFLM cannot plan:

    input float32[-1,4] -> RELU -> output float32[-1,4]
    """
    w = _Writer()
    x = w.tensor("input", [-1, 4], TensorType.FLOAT32, signature=[-1, 4])
    out = w.tensor("relu", [-1, 4], TensorType.FLOAT32, signature=[-1, 4])
    operators: list[tuple[int, list[int], int, int, int | None]] = [(0, [x], out, 0, None)]
    return w.model([BuiltinOperator.RELU], operators, [x], [out], "usmp_dialect dynamic shape")


def missing_subgraph_tflite() -> bytes:
    """A float model whose WHILE calls subgraphs 3 and 4 of a file that has one:

    input float32[4] -> WHILE (cond 3, body 4) -> output float32[4]
    """
    w = _Writer()
    x = w.tensor("input", [4], TensorType.FLOAT32)
    out = w.tensor("loop", [4], TensorType.FLOAT32)
    options = _table(w.builder, "WhileOptions", CondSubgraphIndex=3, BodySubgraphIndex=4)
    operators: list[tuple[int, list[int], int, int, int | None]] = [
        (0, [x], out, BuiltinOptions.WhileOptions, options)
    ]
    return w.model([BuiltinOperator.WHILE], operators, [x], [out], "usmp_dialect bad WHILE")


def mean_relu_tflite() -> bytes:
    """A float model whose MEAN asks TFLM for scratch buffers at run time (its kernel's
    index iterators: 4 bytes per input dimension and per axis):

    input float32[1,4,4,2] -> MEAN over [1,2], kept -> RELU -> output float32[1,1,1,2]
    """
    w = _Writer()
    f32 = TensorType.FLOAT32
    x = w.tensor("input", [1, 4, 4, 2], f32)
    axes = w.tensor("axes", [2], TensorType.INT32, data=np.array([1, 2], np.int32))
    mean = w.tensor("mean", [1, 1, 1, 2], f32)
    out = w.tensor("relu", [1, 1, 1, 2], f32)
    options = _table(w.builder, "ReducerOptions", KeepDims=True)
    operators: list[tuple[int, list[int], int, int, int | None]] = [
        (0, [x, axes], mean, BuiltinOptions.ReducerOptions, options),
        (1, [mean], out, 0, None),
    ]
    codes = [BuiltinOperator.MEAN, BuiltinOperator.RELU]
    return w.model(codes, operators, [x], [out], "usmp_dialect mean with scratch")


def while_loop_tflite(iterations: int = 3) -> bytes:
    """A float model whose WHILE runs its body `iterations` times, the cond and body
    subgraphs with intermediates of their own (TFLM copies the WHILE's inputs into the
    cond's, its outputs into the body's and the body's outputs back):

    main:  (i = 0, x float32[16]) -> WHILE (cond 1, body 2) -> (i', output x')
    cond:  (i, x) -> ADD(x, x) -> unused; LESS(i, iterations) -> bool
    body:  (i, x) -> ADD(i, 1); ADD(x, x) -> ADD(it, x) -> ADD(it, it)
    """
    w = _Writer()
    add = _table(w.builder, "AddOptions")
    i, x = w.tensor("cond_i", [1], TensorType.INT32), w.tensor("cond_x", [16], TensorType.FLOAT32)
    limit = w.tensor("limit", [1], TensorType.INT32, data=np.array([iterations], np.int32))
    doubled = w.tensor("cond_doubled", [16], TensorType.FLOAT32)
    going = w.tensor("going", [1], TensorType.BOOL)
    cond = w.subgraph(
        [(1, [x, x], doubled, BuiltinOptions.AddOptions, add), (2, [i, limit], going, 0, None)],
        [i, x],
        [going],
        "cond",
    )
    i, x = w.tensor("body_i", [1], TensorType.INT32), w.tensor("body_x", [16], TensorType.FLOAT32)
    one = w.tensor("one", [1], TensorType.INT32, data=np.array([1], np.int32))
    steps = [w.tensor(f"body_{k}", [16], TensorType.FLOAT32) for k in range(3)]
    after = w.tensor("body_next_i", [1], TensorType.INT32)
    body = w.subgraph(
        [
            (1, [i, one], after, BuiltinOptions.AddOptions, add),
            (1, [x, x], steps[0], BuiltinOptions.AddOptions, add),
            (1, [steps[0], x], steps[1], BuiltinOptions.AddOptions, add),
            (1, [steps[1], steps[1]], steps[2], BuiltinOptions.AddOptions, add),
        ],
        [i, x],
        [after, steps[2]],
        "body",
    )
    start = w.tensor("start", [1], TensorType.INT32, data=np.array([0], np.int32))
    x = w.tensor("input", [16], TensorType.FLOAT32)
    count = w.tensor("count", [1], TensorType.INT32)
    out = w.tensor("output", [16], TensorType.FLOAT32)
    options = _table(w.builder, "WhileOptions", CondSubgraphIndex=cond, BodySubgraphIndex=body)
    operators: list[tuple[int, list[int], int | list[int], int, int | None]] = [
        (0, [start, x], [count, out], BuiltinOptions.WhileOptions, options)
    ]
    codes = [BuiltinOperator.WHILE, BuiltinOperator.ADD, BuiltinOperator.LESS]
    return w.model(codes, operators, [x], [out], "usmp_dialect WHILE loop")
