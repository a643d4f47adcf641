"""TFLite's int8 UNIDIRECTIONAL_SEQUENCE_LSTM as TensorFlow Lite Micro's kernel computes it
(int8 activations and weights, int32 biases, an int16 cell state), the whole sequence one
kernel:

    integer_lstm(converter, op, tensors, steps, state_before) -> (hidden after, cell after,
                                                                 output)

What TFLM computes, step by step (lstm_eval.h, from the sources, not their code):
- each gate's pre-activation is two fully connected products requantized to int16 at
  scale 2^-12 (Q3.12) and clamped: the input's, (weight - its zero point) x (input - its
  zero point) summed in int32 plus the gate's bias, and the hidden state's, without a
  bias; their sum saturated to int16. The multipliers are TFLite's convolution
  multipliers: float32 input scale x weight scale, then in double over 2^-12.
- the forget, input and output gates are TFLM's int16 logistic, the cell gate its int16
  tanh: both interpolate a 256-entry table of sigmoid(i / 24) in 0.16 fixed point
  (`SIGMOID_TABLE`), the input first multiplied by 3 (tanh's by 3 x 2^shift for a cell
  scale other than 2^-12), output in Q0.15.
- the cell: forget x cell (requantized by 2^-15, the cell's scale cancels), plus input
  gate x cell gate (2^-30 / the cell's scale), each clamped to int16, their sum
  saturated, clipped to the options' cell clip quantized to the cell's scale (the int16
  value truncated: +-32767 at most, so -32768 is clipped too) if it is positive.
- the hidden state: tanh of the cell (its input shift from the cell scale's power of two)
  x the output gate, requantized by 2^-30 / the hidden state's scale plus its zero
  point, clamped to int8; it is also the step's output.

The kernel loops over the steps as TFLM's does, each unit's sums, pre-activations and
gates in registers (TFLM keeps four int16 gate buffers [batch, units]): no buffer of its
own, so the workspace holds the input and output sequences only. The hidden state and the
cell after the run may be those before's buffers (`usmp.in_place`), as TFLM updates its
variable tensors: one buffer each in the state pool (`tir-state-to-allocations`). Each
step's new hidden values are written to the output's step, then copied to the hidden
state (every unit's recurrent sums read the hidden state before it whole). The table is
a constant input of the kernel.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
from tvm import relax, te, tirx
from tvm.script.ir_builder import IRBuilder
from tvm.script.ir_builder import tirx as T

from usmp_dialect.dialects.usmp import IN_PLACE_ATTR
from usmp_dialect.tvm.model_files.fixed_point import clamped, quantize_multiplier, requantized
from usmp_dialect.tvm.model_files.int8_unweighted_kernels import INT_RANGES, OPAQUE
from usmp_dialect.tvm.model_files.onnx_operators import OperatorRejected
from usmp_dialect.tvm.model_files.tflite_tensors import scalar_quantization
from usmp_dialect.tvm.relax.temporaries import SIGNAL_KERNEL_ATTR


def _sigmoid_table() -> np.ndarray:
    """TFLite's `sigmoid_table_uint16` (kernels/internal/common.h, Apache-2.0): sigmoid(i /
    24) x 2^16 for i < 256, at most 65535. It is the rounded value but at the entries
    listed here, which are one above it (TFLite's table is not the rounded curve: these
    44 are its own)."""
    above = [4, 8, 12, 14, 15, 16, 17, 19, 20, 21, 22, 25, 27, 28, 29, 30, 31, 33, 34, 35]
    above += [37, 39, 40, 41, 43, 44, 45, 46, 49, 50, 54, 62, 63, 64, 66, 82, 86, 93, 100]
    above += [103, 112, 116, 135, 255]
    curve = np.round(65536.0 / (1.0 + np.exp(-np.arange(256) / 24.0)))
    curve[above] += 1
    return np.minimum(curve, 65535).astype(np.uint16)


SIGMOID_TABLE = _sigmoid_table()

_GATES = ("input", "forget", "cell", "output")
# The scale of a gate's pre-activation (Q3.12) and of its activation (Q0.15).
_GATE_SCALE, _ACTIVATION_SCALE = 2.0**-12, 2.0**-15
_INT16 = INT_RANGES["int16"]


class Requantization(NamedTuple):
    multiplier: int
    shift: int


class IntegerLstm(NamedTuple):
    """An int8 LSTM's arithmetic: zero points of the input, the hidden state and each
    gate's input and recurrent weights; each gate's input and recurrent multipliers (to
    2^-12); the cell update's (forget x cell, input x cell gate), the hidden state's; the
    cell tanh's input multiplier and right shift; the quantized cell clip (0: none)."""

    input_zero_point: int
    hidden_zero_point: int
    weight_zero_points: dict[str, tuple[int, int]]
    input_fc: dict[str, Requantization]
    recurrent_fc: dict[str, Requantization]
    forget_cell: Requantization
    input_cell: Requantization
    hidden: Requantization
    cell_tanh: tuple[int, int]
    clip: int


def check_integer_types(types: dict[str, str]) -> None:
    """The LSTM's tensor types (by what each is: "input", "output", "hidden state", "cell
    state", "<gate> gate's input weights", ... "bias") are TFLM's int8 LSTM's; else
    OperatorRejected naming the first that is not."""
    if types["input"] != "int8":
        raise OperatorRejected(
            f"its input is {types['input']}: of TFLM's integer LSTMs only the int8 one "
            "(int8 activations, int16 cell) is converted"
        )
    for what, found in types.items():
        expected = "int16" if what == "cell state" else "int32" if what.endswith("bias") else "int8"
        if found != expected:
            raise OperatorRejected(
                f"its {what} is {found}; with an int8 input TFLM's LSTM takes {expected}"
            )


def _requantization(real: float) -> Requantization:
    return Requantization(*quantize_multiplier(real))


def _log2_rounded(scale: float) -> int:
    """TFLite's CheckedLog2 of a float32 scale, its result whether or not it is a power of
    two (TFLM's LSTM does not check it): log in float32, rounded half away from zero."""
    log2 = np.float32(np.log(np.float32(scale))) * np.float32(1.0 / np.log(np.float32(2.0)))
    return int(np.copysign(np.floor(np.abs(log2) + np.float32(0.5)), log2))


def _tanh_input(cell_scale: float) -> tuple[int, int]:
    """TFLM's int16 tanh of the cell: (multiplier, right shift) of its input, from the power
    of two of the cell's scale (3 x 2^(power + 12) when that is a left shift)."""
    left = 15 + _log2_rounded(cell_scale) - 3
    return (3 << left, 0) if left >= 0 else (3, -left)


def _quantized_clip(clip: float, cell_scale: float) -> int:
    """The cell clip in the cell's int16 steps, as TFLM truncates it (0: no clip)."""
    if clip <= 0:
        return 0
    return int(min(max(float(np.float32(clip)) / float(np.float32(cell_scale)), -32768.0), 32767.0))


def integer_quantization(
    tensors: list[Any], weights: dict[str, tuple[int, int]], state: tuple[int, int], clip: float
) -> IntegerLstm:
    """An int8 LSTM's arithmetic from its tensor wrappers (the operator's 24 inputs), the
    indices of each gate's (input, recurrent) weights and of the (hidden state, cell);
    OperatorRejected naming a tensor without one scale and zero point (per-channel
    weights: TFLM's LSTM reads one scale)."""

    def quantization(index: int, what: str) -> tuple[np.float32, int]:
        found = scalar_quantization(tensors[index])
        if found is None:
            raise OperatorRejected(
                f"its {what} has no one scale and zero point (TFLM's integer LSTM reads one)"
            )
        return np.float32(found[0]), found[1]

    x_scale, x_zero = quantization(0, "input")
    h_scale, h_zero = quantization(state[0], "hidden state")
    c_scale, _ = quantization(state[1], "cell state")
    input_fc, recurrent_fc, zero_points = {}, {}, {}
    for gate, (w, r) in weights.items():
        w_scale, w_zero = quantization(w, f"{gate} gate's input weights")
        r_scale, r_zero = quantization(r, f"{gate} gate's recurrent weights")
        # TFLite's convolution multiplier: the scales' float32 product, in double / 2^-12.
        input_fc[gate] = _requantization(float(x_scale * w_scale) / _GATE_SCALE)
        recurrent_fc[gate] = _requantization(float(h_scale * r_scale) / _GATE_SCALE)
        zero_points[gate] = (w_zero, r_zero)
    return IntegerLstm(
        x_zero,
        h_zero,
        zero_points,
        input_fc,
        recurrent_fc,
        _requantization(_ACTIVATION_SCALE * float(c_scale) / float(c_scale)),
        _requantization(_ACTIVATION_SCALE * _ACTIVATION_SCALE / float(c_scale)),
        _requantization(_ACTIVATION_SCALE * _ACTIVATION_SCALE / float(h_scale)),
        _tanh_input(float(c_scale)),
        _quantized_clip(clip, float(c_scale)),
    )


def _int(value: int) -> Any:

    return tirx.const(value, "int32")


def _squashed(x: Any, table: Any, bits: int, past: int, rounding: tuple[int, int, int]) -> Any:
    """TFLM's table interpolation of the int32 expression `x` (a buffer's value, read a
    few times): |x| looked up in `table` with `bits` bits of interpolation (`past` the
    value beyond the table's last interval), then, for x >= 0 and x < 0, value +
    rounding[0] and rounding[1] - value, shifted right by rounding[2]."""

    magnitude = tirx.Select(x < _int(0), _int(0) - x, x)
    entry = magnitude >> _int(bits)
    index = tirx.min(entry, _int(254))  # read within the table: past it, the value is fixed
    low = table[index].astype("int32")
    high = table[index + 1].astype("int32")
    fraction = magnitude & _int((1 << bits) - 1)
    value = tirx.Select(
        entry >= _int(255), _int(past), (low << _int(bits)) + fraction * (high - low)
    )
    # One read of the interpolated value: the sign a factor, each offset a constant.
    positive = x >= _int(0)
    sign = tirx.Select(positive, _int(1), _int(-1))
    offset = tirx.Select(positive, _int(rounding[0]), _int(rounding[1]))
    return (value * sign + offset) >> _int(rounding[2])


def _scaled_input(pre: Any, scaling: tuple[int, int]) -> Any:
    """(input x multiplier + rounding) >> right shift (`scaling`): how TFLM's int16
    logistic and tanh bring their input to the table's scale."""
    multiplier, shift = scaling
    half = (1 << (shift - 1)) if shift > 0 else 0
    return (pre * _int(multiplier) + _int(half)) >> _int(shift)


def int16_logistic(pre: Any, table: Any, scaling: tuple[int, int] = (3, 0)) -> Any:
    """TFLM's int16 Logistic of the int16 value `pre` (an int32 load), int16 in Q0.15: the
    input scaled (`scaling`: times 3 for an input in Q3.12), 9 bits of interpolation."""
    rounding = (1 << 9, (1 << 25) + (1 << 9) - 1, 10)
    scaled = _scaled_input(pre, scaling)
    return _squashed(scaled, table, 9, 0x7FFF << 10, rounding).astype("int16")


def int16_tanh(pre: Any, table: Any, scaling: tuple[int, int]) -> Any:
    """TFLM's int16 Tanh of the int16 value `pre` (an int32 load), int16 in Q0.15: the
    input scaled (`scaling`), 8 bits of interpolation."""
    rounding = ((1 << 7) - (1 << 23), (1 << 23) + (1 << 7) - 1, 8)
    scaled = _scaled_input(pre, scaling)
    return _squashed(scaled, table, 8, 0xFFFF << 8, rounding).astype("int16")


def _int16(value: Any) -> Any:
    return clamped(value, *_INT16, "int32")


def _product(a: Any, b: Any, scale: Requantization, zero_point: int = 0) -> Any:
    """TFLM's int16 Mul of two int16 values, requantized plus `zero_point`, as int64."""
    return requantized(a.astype("int32") * b.astype("int32"), *scale, zero_point)


class _Layout(NamedTuple):
    """An LSTM's sizes: its time steps, batch, input features and units; whether its
    sequences are time-major ([steps, batch, ...]; else [batch, steps, ...])."""

    steps: int
    batch: int
    features: int
    units: int
    time_major: bool

    def at(self, b: Any, t: Any, i: Any) -> tuple[Any, Any, Any]:
        return (t, b, i) if self.time_major else (b, t, i)

    def sequence(self, width: int) -> tuple[int, int, int]:
        return self.at(self.batch, self.steps, width)


def _gate_activation(
    gate: str, at: Any, operands: list[Any], registers: Any, q: IntegerLstm, lut: Any
) -> Any:
    """A gate's activation at unit `u` of batch row `b` and step `t` (`at` = (data, h, b,
    t, u, layout)), int16 in Q0.15: its two sums in `registers` 0 and 1 (the input's plus
    the bias, the hidden state's), each requantized to Q3.12, their saturated sum in
    register 2, its logistic (the cell gate's tanh)."""
    data, h, b, t, u, layout = at
    w, r, bias = operands
    w_zero, r_zero = q.weight_zero_points[gate]
    registers[0] = bias[u]
    with T.serial(0, layout.features) as k:
        fed = data[layout.at(b, t, k)].astype("int32") - _int(q.input_zero_point)
        registers[0] = registers[0] + (w[u, k].astype("int32") - _int(w_zero)) * fed
    registers[1] = _int(0)
    with T.serial(0, layout.units) as k:
        kept = h[b, k].astype("int32") - _int(q.hidden_zero_point)
        registers[1] = registers[1] + (r[u, k].astype("int32") - _int(r_zero)) * kept
    own = _int16(requantized(registers[0], *q.input_fc[gate], 0))
    recurrent = _int16(requantized(registers[1], *q.recurrent_fc[gate], 0))
    registers[2] = _int16(own + recurrent)
    # The cell gate's tanh takes Q3.12: TFLM's input shift 15 - 12 - 3 = 0.
    return (
        int16_tanh(registers[2], lut, (3, 0))
        if gate == "cell"
        else int16_logistic(registers[2], lut)
    )


def _cell_update(gates: Any, cell: Any, q: IntegerLstm) -> Any:
    """The cell after a step (int16) from its value before and the gates' activations
    (`gates`: input, forget, cell, output)."""
    kept = _int16(_product(gates[1], cell, q.forget_cell))
    new = _int16(_product(gates[0], gates[2], q.input_cell))
    total = _int16(kept + new)
    if q.clip:
        total = tirx.max(tirx.min(total, _int(q.clip)), _int(-q.clip))
    return total.astype("int16")


def _local(name: str, length: int, dtype: str) -> Any:
    """A register array of the kernel being built (`local` scope: no plan places it)."""
    return IRBuilder.name(name, T.alloc_buffer((length,), dtype, scope="local"))


def _lstm_kernel(
    x: Any, hidden: Any, cell: Any, table: Any, weights: list[Any], q: IntegerLstm, layout: _Layout
) -> list[Any]:
    """The whole sequence as one kernel, as TFLM's kernel runs it: (the hidden state after,
    the cell after, the output sequence), from the input sequence `x`, the hidden state and
    the cell before, the table and each gate's (input weights, recurrent weights, bias) in
    `_GATES` order. The state after is first a copy of the state before (the same buffer
    once `usmp.in_place` makes it one), updated step by step: each unit's sums, gates and
    tanh of its cell are registers, its new hidden value goes to the output's step (the
    hidden state before is read whole by every unit's recurrent sums until the step ends),
    copied to the hidden state after the step. No buffer but the operands: TFLM's kernel
    has four int16 gate buffers [batch, units] besides."""

    def body(ins: Any, outs: Any) -> Any:
        with IRBuilder() as builder:
            data, before_h, before_c, lut = (T.buffer_proxy(b) for b in ins[:4])
            operands = [T.buffer_proxy(b) for b in ins[4:]]
            h, c, out = (T.buffer_proxy(b) for b in outs)
            with T.serial(0, 1):  # one frame holding the statements
                with T.serial(0, layout.batch) as b, T.serial(0, layout.units) as u:
                    h[b, u] = before_h[b, u]
                    c[b, u] = before_c[b, u]
                registers = T.buffer_proxy(_local("lstm_sums", 3, "int32"))
                gates = T.buffer_proxy(_local("lstm_gates", len(_GATES), "int16"))
                with T.serial(0, layout.steps) as t:
                    with T.serial(0, layout.batch) as b, T.serial(0, layout.units) as u:
                        at = (data, h, b, t, u, layout)
                        for g, gate in enumerate(_GATES):
                            gate_operands = operands[3 * g : 3 * g + 3]
                            gates[g] = _gate_activation(gate, at, gate_operands, registers, q, lut)
                        c[b, u] = _cell_update(gates, c[b, u], q)
                        registers[2] = c[b, u].astype("int32")
                        squashed = int16_tanh(registers[2], lut, q.cell_tanh)
                        value = _product(squashed, gates[3], q.hidden, q.hidden_zero_point)
                        out[layout.at(b, t, u)] = clamped(value, *INT_RANGES["int8"], "int8")
                    with T.serial(0, layout.batch) as b, T.serial(0, layout.units) as u:
                        h[b, u] = out[layout.at(b, t, u)]
            return builder.get()

    return te.extern(
        [hidden.shape, cell.shape, layout.sequence(layout.units)],
        [x, hidden, cell, table, *weights],
        body,
        dtype=["int8", "int16", "int8"],
        name="lstm_int8",
    )


def integer_lstm(
    converter: Any,
    tensors: list[Any],
    weights: dict[str, tuple[int, int]],
    biases: dict[str, int],
    steps: int,
    time_major: bool,
    q: IntegerLstm,
    state: tuple[Any, Any],
) -> tuple[Any, Any, Any]:
    """The int8 LSTM of `tensors` (its 24 input wrappers; `weights` and `biases` each
    gate's indices among them) converted by TVM's TFLite `converter`: (the hidden state
    and the cell after the run, the output sequence), from `state` (their values before)."""

    bb = converter.bb

    def read(index: int) -> Any:
        return converter.get_tensor_expr(tensors[index])

    def operands(gate: str) -> list[Any]:
        return [read(weights[gate][0]), read(weights[gate][1]), read(biases[gate])]

    weights_in_order = [e for g in _GATES for e in operands(g)]
    table = relax.const(SIGMOID_TABLE, "uint16")
    data = read(0)
    hidden, cell = state
    features = int(data.ty.shape[-1])
    units = int(hidden.ty.shape[-1])
    batch = int(hidden.ty.shape[0])
    layout = _Layout(steps, batch, features, units, time_major)
    inputs = [data, hidden, cell, table, *weights_in_order]
    after = bb.emit(
        bb.call_te(
            lambda x, h, c, t, *w: _lstm_kernel(x, h, c, t, list(w), q, layout),
            *inputs,
            primfunc_name_hint="lstm_int8",
            # The hidden state and the cell after (params n, n + 1) may be those before's
            # buffers (params 1, 2); the kernel is fused with nothing (it reads the
            # hidden state and its weights many times a step).
            primfunc_attrs={
                IN_PLACE_ATTR: [[1, len(inputs)], [2, len(inputs) + 1]],
                "op_pattern": OPAQUE,
                SIGNAL_KERNEL_ATTR: 1,
            },
        )
    )
    hidden_after, cell_after, output = (bb.emit(relax.TupleGetItem(after, i)) for i in range(3))
    return hidden_after, cell_after, output
