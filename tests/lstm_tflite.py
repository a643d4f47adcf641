"""A small int8 UNIDIRECTIONAL_SEQUENCE_LSTM `.tflite` file, written as TFLite's converter
writes one for TensorFlow Lite Micro (mnist_lstm's, dtln's): int8 input, weights and
hidden state, int32 biases, an int16 cell state at a power-of-two scale, the hidden state
and the cell variable tensors, the output quantized as the hidden state.

    int8_lstm_tflite(...) -> bytes

    input [batch, steps, 4] (time major: [steps, batch, 4]) -> LSTM of 5 units
      -> output [batch, steps, 5] ([steps, batch, 5])
"""

from __future__ import annotations

import numpy as np
from int8_tflite import _table, _Writer
from tflite.ActivationFunctionType import ActivationFunctionType
from tflite.BuiltinOperator import BuiltinOperator
from tflite.BuiltinOptions import BuiltinOptions
from tflite.TensorType import TensorType

FEATURES, UNITS = 4, 5
INPUT_SCALE, INPUT_ZERO_POINT = 1 / 32, -3
HIDDEN_SCALE = 1 / 128
_GATES = ("input", "forget", "cell", "output")


def int8_lstm_tflite(
    steps: int = 3,
    batch: int = 2,
    time_major: bool = False,
    cell_power: int = 11,
    hidden_zero_point: int = 5,
    cell_clip: float = 1.5,
    spoil: str = "",
    seed: int = 0,
) -> bytes:
    """One int8 LSTM: its cell at scale 2^-`cell_power`, its hidden state's zero point
    `hidden_zero_point`, its options' `cell_clip`. `spoil` (a test of bad input):
    "cell-not-variable", "no-recurrent-weights" (the output gate's), "hidden-shape" (one
    unit too many), "output-rank" (the output [batch x steps, units]), "cell-int8" (an int8
    cell state)."""
    w = _Writer()
    rng = np.random.default_rng(seed)
    i8, i16, i32 = TensorType.INT8, TensorType.INT16, TensorType.INT32
    sequence = [steps, batch] if time_major else [batch, steps]
    x = w.tensor("input", [*sequence, FEATURES], i8, [INPUT_SCALE], [INPUT_ZERO_POINT])

    def weights(name: str, columns: int, scale: float) -> int:
        data = rng.integers(-127, 128, (UNITS, columns)).astype(np.int8)
        return w.tensor(name, [UNITS, columns], i8, [scale], [0], data=data)

    scales = {g: 0.01 * (1 + n) for n, g in enumerate(_GATES)}
    own = [weights(f"lstm/{g}_input_weights", FEATURES, scales[g]) for g in _GATES]
    recurrent = [weights(f"lstm/{g}_recurrent_weights", UNITS, scales[g] / 2) for g in _GATES]
    if spoil == "no-recurrent-weights":
        recurrent[3] = -1
    biases = []
    for g in _GATES:
        bias_scale = INPUT_SCALE * scales[g]
        bound = round(0.5 / bias_scale)  # biases within [-0.5, 0.5)
        data = rng.integers(-bound, bound, UNITS).astype(np.int32)
        biases.append(w.tensor(f"lstm/{g}_bias", [UNITS], i32, [bias_scale], [0], data=data))
    hidden_units = UNITS + (spoil == "hidden-shape")
    hidden = w.tensor(
        "lstm/hidden_state",
        [batch, hidden_units],
        i8,
        [HIDDEN_SCALE],
        [hidden_zero_point],
        variable=True,
    )
    cell = w.tensor(
        "lstm/cell_state",
        [batch, UNITS],
        i8 if spoil == "cell-int8" else i16,
        [2.0**-cell_power],
        [0],
        variable=spoil != "cell-not-variable",
    )
    out_shape = [batch * steps, UNITS] if spoil == "output-rank" else [*sequence, UNITS]
    out = w.tensor("lstm/output", out_shape, i8, [HIDDEN_SCALE], [hidden_zero_point])
    absent = [-1, -1, -1]  # peepholes
    operands = [x, *own, *recurrent, *absent, *biases, -1, -1, hidden, cell, -1, -1, -1, -1]
    options = _table(
        w.builder,
        "UnidirectionalSequenceLSTMOptions",
        FusedActivationFunction=ActivationFunctionType.TANH,
        CellClip=cell_clip,
        TimeMajor=time_major,
    )
    operator = (0, operands, out, BuiltinOptions.UnidirectionalSequenceLSTMOptions, options)
    return w.model(
        [BuiltinOperator.UNIDIRECTIONAL_SEQUENCE_LSTM],
        [operator],
        [x],
        [out],
        "usmp_dialect int8 lstm model",
    )
