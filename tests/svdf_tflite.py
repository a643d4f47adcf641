"""Small SVDF `.tflite` files, written as TFLite's converter writes a keyword spotter's
(TFLM's keyword benchmark is seven SVDFs): float32, or int8 activations with an int16 (or
int8) activation state and int16 (or int8) time weights, each state a variable tensor.

    svdf_tflite(dtype, state, ...) -> bytes

    input [batch, 6] -> SVDF (rank 2, memory 4, 3 units) -> SVDF (rank 1, memory 3,
      4 units, `activation`) -> output [batch, 4]
"""

from __future__ import annotations

from typing import Any

import numpy as np
from int8_tflite import _table, _Writer
from tflite.ActivationFunctionType import ActivationFunctionType
from tflite.BuiltinOperator import BuiltinOperator
from tflite.BuiltinOptions import BuiltinOptions
from tflite.TensorType import TensorType

_TYPES = {"float32": TensorType.FLOAT32, "int8": TensorType.INT8, "int16": TensorType.INT16}
# (inputs, rank, memory, units) of each layer.
LAYERS = [(6, 2, 4, 3), (3, 1, 3, 4)]


def _svdf_layer(
    w: _Writer,
    x: int,
    layer: int,
    dims: tuple[int, int, int, int],
    batch: int,
    dtype: str,
    state: str,
    rng: np.random.Generator,
    spoil: str,
) -> tuple[list[int], int]:
    """One SVDF's input tensors and output; `spoil` names a tensor to contradict."""
    inputs, rank, memory, units = dims
    filters = rank * units
    name = f"svdf{layer}"
    state_shape = [batch, filters * memory + (spoil == "state-shape")]
    variable = spoil != "state-not-variable"
    if dtype == "float32":
        f32 = TensorType.FLOAT32
        wf = w.tensor(
            f"{name}/weights_feature",
            [filters, inputs],
            f32,
            data=rng.uniform(-1, 1, (filters, inputs)).astype(np.float32),
        )
        wt = w.tensor(
            f"{name}/weights_time",
            [filters, memory],
            f32,
            data=rng.uniform(-1, 1, (filters, memory)).astype(np.float32),
        )
        bias = w.tensor(
            f"{name}/bias", [units], f32, data=rng.uniform(-1, 1, units).astype(np.float32)
        )
        s = w.tensor(f"{name}/state", state_shape, f32, variable=variable)
        out = w.tensor(f"{name}/output", [batch, units], f32)
        return [x, wf, wt, bias, s], out
    int8 = TensorType.INT8
    wf = w.tensor(
        f"{name}/weights_feature",
        [filters, inputs],
        int8,
        [0.02],
        [0],
        data=rng.integers(-127, 128, (filters, inputs)).astype(np.int8),
    )
    state_scale, state_zero = (1 / 512, 0) if state == "int16" else (1 / 4, 3)
    time_type = np.int16 if state == "int16" else np.int8
    time_scale = 1 / 4096 if state == "int16" else 1 / 64
    info = np.iinfo(time_type)
    wt = w.tensor(
        f"{name}/weights_time",
        [filters, memory],
        _TYPES[state],
        [time_scale],
        [0],
        data=rng.integers(info.min // 4, info.max // 4, (filters, memory)).astype(time_type),
    )
    bias_scale = state_scale * time_scale
    bound = round(1 / bias_scale)  # biases within [-1, 1)
    bias = w.tensor(
        f"{name}/bias",
        [units],
        TensorType.INT32,
        [bias_scale],
        [0],
        data=rng.integers(-bound, bound, units).astype(np.int32),
    )
    if spoil == "state-type":  # the other integer type than the time weights'
        state = "int8" if state == "int16" else "int16"
    s = w.tensor(
        f"{name}/state", state_shape, _TYPES[state], [state_scale], [state_zero], variable=variable
    )
    out = w.tensor(f"{name}/output", [batch, units], int8, [0.05 + 0.1 * layer], [2 - layer])
    return [x, wf, wt, bias, s], out


def svdf_tflite(
    dtype: str = "float32",
    state: str = "int16",
    batch: int = 1,
    activation: int = ActivationFunctionType.RELU,
    spoil: str = "",
    seed: int = 0,
    doubled: bool = False,
) -> bytes:
    """Two SVDFs in a row (`LAYERS`); `dtype` float32 or int8, `state` the int8 model's
    state and time weights' type; `spoil` (a test of bad input): "state-not-variable",
    "state-shape" (the first state one element too long) or "state-type" (an int8 model's
    states of the other integer type than the time weights'); `doubled` (float32): the first
    SVDF's input is the model's input added to itself (an elementwise producer)."""
    w = _Writer()
    rng = np.random.default_rng(seed)
    x = (
        w.tensor("input", [batch, 6], TensorType.FLOAT32)
        if dtype == "float32"
        else w.tensor("input", [batch, 6], TensorType.INT8, [1 / 32], [-3])
    )
    operators: list[Any] = []
    first = x
    if doubled:
        x = w.tensor("doubled", [batch, 6], TensorType.FLOAT32)
        options = _table(w.builder, "AddOptions", FusedActivationFunction=0)
        operators.append((1, [first, first], x, BuiltinOptions.AddOptions, options))
    for layer, dims in enumerate(LAYERS):
        operands, out = _svdf_layer(
            w, x, layer, dims, batch, dtype, state, rng, spoil if layer == 0 else ""
        )
        fused = activation if layer == 1 else ActivationFunctionType.NONE
        options = _table(w.builder, "SVDFOptions", Rank=dims[1], FusedActivationFunction=fused)
        operators.append((0, operands, out, BuiltinOptions.SVDFOptions, options))
        x = out
    codes = [BuiltinOperator.SVDF, BuiltinOperator.ADD]
    return w.model(codes, operators, [first], [x], "usmp_dialect svdf model")
