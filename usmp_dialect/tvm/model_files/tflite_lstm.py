"""TFLite's UNIDIRECTIONAL_SEQUENCE_LSTM as TensorFlow Lite Micro's kernel computes it: the
checks of every LSTM, and the float32 one unrolled over its time steps in Relax operators
(the int8 one: `tflite_lstm_int8`):

    convert_lstm(converter, op, state_before) -> (hidden, cell, hidden after, cell after,
                                                  output)

TFLM's kernel takes the four gates (input, forget, cell, output), each with input and
recurrent weights and a bias, and neither peepholes, a projection nor layer norms. At
each time step each gate is its activation of (input x its input weights + its bias) +
hidden x its recurrent weights (TFLM's order of the sums): TFLM's logistic (1 / (1 +
exp(-x)) between its cutoffs) but for the cell gate's, the options' activation (tanh);
the cell becomes forget x cell + input x cell gate, clipped to the options' cell clip if
it is positive; the hidden state output x tanh(cell), which is the step's output. The
hidden state and the cell are variable tensors TFLM keeps from one invocation to the
next: here variables of the import (`tflite_state`), read at the first step and written
at the last.
"""

from __future__ import annotations

from typing import Any

from tvm import relax

from usmp_dialect.tvm.model_files.onnx_operators import OperatorRejected
from usmp_dialect.tvm.model_files.tflite_lstm_int8 import (
    check_integer_types,
    integer_lstm,
    integer_quantization,
)
from usmp_dialect.tvm.model_files.tflite_options import options_of
from usmp_dialect.tvm.model_files.tflite_tensors import tensor_shape

# The operator's inputs TFLM's kernel reads, by index.
_GATES = ("input", "forget", "cell", "output")
_INPUT_WEIGHTS = dict(zip(_GATES, (1, 2, 3, 4), strict=True))
_RECURRENT_WEIGHTS = dict(zip(_GATES, (5, 6, 7, 8), strict=True))
_BIASES = dict(zip(_GATES, (12, 13, 14, 15), strict=True))
_HIDDEN, _CELL = 18, 19
# Inputs TFLM's kernel does not take: peepholes, projection, layer norms.
_UNSUPPORTED = {
    9: "cell_to_input_weights (a peephole)",
    10: "cell_to_forget_weights (a peephole)",
    11: "cell_to_output_weights (a peephole)",
    16: "projection_weights",
    17: "projection_bias",
    20: "input_layer_norm_coefficients",
    21: "forget_layer_norm_coefficients",
    22: "cell_layer_norm_coefficients",
    23: "output_layer_norm_coefficients",
}
# The schema's ActivationFunctionType code of tanh, the one cell gate activation a file
# can name that TFLM computes (the schema's codes stop at 5, SIGN_BIT: no sigmoid).
_TANH = 4


# TFLM's float Logistic: 1 above this, exp(x) below the lower one.
_LOGISTIC_CUTOFFS = (16.619047164916992, -9.0)


def _logistic(x: Any) -> Any:
    """TFLM's float Logistic (reference_ops::Logistic) of `x`: 1 / (1 + exp(-x)) between its
    cutoffs, 1 above, exp(x) below."""
    upper, lower = (relax.const(v, "float32") for v in _LOGISTIC_CUTOFFS)
    one = relax.const(1.0, "float32")
    middle = relax.op.divide(one, relax.op.add(one, relax.op.exp(relax.op.negative(x))))
    low = relax.op.where(relax.op.less(x, lower), relax.op.exp(x), middle)
    return relax.op.where(relax.op.greater(x, upper), one, low)


def time_step(bb: Any, data: Any, axis: int, step: int) -> Any:
    """The input sequence `data`'s time step `step` ([batch, features]), `axis` its time
    axis, emitted by the block builder `bb`."""

    step_slice = relax.op.strided_slice(data, axes=[axis], begin=[step], end=[step + 1])
    return bb.emit(relax.op.squeeze(step_slice, [axis]))


def _checked(converter: Any, op: Any) -> tuple[list[Any], Any, list[int]]:
    """The operator's input wrappers and output wrapper, and its input shape [batch, time,
    features] (batch-major), checked as TFLM's Prepare checks them."""
    tensors = converter.get_input_tensors(op)
    outputs = converter.get_output_tensors(op)
    if len(tensors) != 24 or len(outputs) != 1:
        raise OperatorRejected(
            f"it has {len(tensors)} inputs and {len(outputs)} outputs "
            "(UNIDIRECTIONAL_SEQUENCE_LSTM's are 24 and 1)"
        )
    for index, what in _UNSUPPORTED.items():
        if tensors[index].tensor_idx != -1:
            raise OperatorRejected(f"it has {what}, which TFLM's kernel does not take")
    for gate in _GATES:
        for table, what in ((_INPUT_WEIGHTS, "input"), (_RECURRENT_WEIGHTS, "recurrent")):
            if tensors[table[gate]].tensor_idx == -1:
                raise OperatorRejected(
                    f"it has no {what} weights of its {gate} gate (TFLM's kernel takes all "
                    "four gates)"
                )
    shape = tensor_shape(tensors[0].tensor)
    if len(shape) != 3:
        raise OperatorRejected(f"its input is of rank {len(shape)}, TFLM's is 3")
    return tensors, outputs[0], shape


def _types(converter: Any, tensors: list[Any], output: Any) -> dict[str, str]:
    """The type of each tensor the kernel reads and of its output, by what it is."""
    named = {"input": 0, "hidden state": _HIDDEN, "cell state": _CELL}
    for gate in _GATES:
        named[f"{gate} gate's input weights"] = _INPUT_WEIGHTS[gate]
        named[f"{gate} gate's recurrent weights"] = _RECURRENT_WEIGHTS[gate]
        named[f"{gate} gate's bias"] = _BIASES[gate]
    types = {w: converter.get_tensor_type_str(tensors[i].tensor.Type()) for w, i in named.items()}
    types["output"] = converter.get_tensor_type_str(output.tensor.Type())
    return types


def _check_sizes(tensors: list[Any], output: Any, shape: list[int], batch: int) -> int:
    """The units, every weight, bias, state and the output agreeing with them and the
    input's `shape`; else OperatorRejected naming the first that does not."""
    features = shape[2]
    units = tensor_shape(tensors[_INPUT_WEIGHTS["forget"]].tensor)[0]
    expected = {
        **{f"{g} gate's input weights": (i, [units, features]) for g, i in _INPUT_WEIGHTS.items()},
        **{
            f"{g} gate's recurrent weights": (i, [units, units])
            for g, i in _RECURRENT_WEIGHTS.items()
        },
        **{f"{g} gate's bias": (i, [units]) for g, i in _BIASES.items()},
        "hidden state": (_HIDDEN, [batch, units]),
        "cell state": (_CELL, [batch, units]),
    }
    produced = tensor_shape(output.tensor)
    if produced != [shape[0], shape[1], units]:
        raise OperatorRejected(
            f"its output is {produced}, its input and weights make {[shape[0], shape[1], units]}"
        )
    for what, (index, made) in expected.items():
        if tensors[index].tensor_idx == -1:
            raise OperatorRejected(f"it has no {what}")
        found = tensor_shape(tensors[index].tensor)
        if found != made:
            raise OperatorRejected(f"its {what} is {found}, its input and weights make {made}")
    for index, what in ((_HIDDEN, "hidden state"), (_CELL, "cell state")):
        if not tensors[index].tensor.IsVariable():
            raise OperatorRejected(f"its {what} is not a variable tensor (TFLM's must be)")
    return int(units)


def convert_lstm(converter: Any, op: Any, state_before: Any) -> tuple[Any, Any, Any, Any, Any]:
    """A float32 or int8 (`tflite_lstm_int8`) UNIDIRECTIONAL_SEQUENCE_LSTM `op` converted by
    TVM's TFLite `converter`:
    (its hidden state's and cell's wrappers, their values after the run, the output);
    `state_before(wrapper)` is a state's value before the run."""
    from tflite.UnidirectionalSequenceLSTMOptions import UnidirectionalSequenceLSTMOptions

    tensors, output, shape = _checked(converter, op)
    options = options_of(op, UnidirectionalSequenceLSTMOptions)
    time_major = bool(options.TimeMajor())
    steps, batch = (shape[0], shape[1]) if time_major else (shape[1], shape[0])
    _check_sizes(tensors, output, shape, batch)
    activation = options.FusedActivationFunction()
    if activation != _TANH:
        raise OperatorRejected(f"its cell gate's activation {activation} is not tanh")
    types = _types(converter, tensors, output)
    if set(types.values()) != {"float32"}:
        check_integer_types(types)
        weights = {g: (_INPUT_WEIGHTS[g], _RECURRENT_WEIGHTS[g]) for g in _GATES}
        q = integer_quantization(tensors, weights, (_HIDDEN, _CELL), float(options.CellClip()))
        state = (state_before(tensors[_HIDDEN]), state_before(tensors[_CELL]))
        hidden, cell, result = integer_lstm(
            converter, tensors, weights, _BIASES, steps, time_major, q, state
        )
        return tensors[_HIDDEN], tensors[_CELL], hidden, cell, result
    bb = converter.bb

    def read(index: int) -> Any:
        return converter.get_tensor_expr(tensors[index])

    weights = {g: bb.emit(relax.op.permute_dims(read(i))) for g, i in _INPUT_WEIGHTS.items()}
    recurrent = {g: bb.emit(relax.op.permute_dims(read(i))) for g, i in _RECURRENT_WEIGHTS.items()}
    biases = {g: read(i) for g, i in _BIASES.items()}
    data = read(0)
    hidden = state_before(tensors[_HIDDEN])
    cell = state_before(tensors[_CELL])
    clip = float(options.CellClip())
    axis = 0 if time_major else 1
    outputs = []
    for step in range(steps):
        x = time_step(bb, data, axis, step)
        gates = {}
        for gate in _GATES:
            fed = relax.op.add(relax.op.matmul(x, weights[gate]), biases[gate])
            total = relax.op.add(fed, relax.op.matmul(hidden, recurrent[gate]))
            squash = relax.op.tanh if gate == "cell" else _logistic
            gates[gate] = bb.emit(squash(bb.emit(total)))
        kept = relax.op.multiply(gates["forget"], cell)
        cell = relax.op.add(kept, relax.op.multiply(gates["input"], gates["cell"]))
        if clip > 0:
            cell = relax.op.clip(cell, -clip, clip)
        cell = bb.emit(cell)
        hidden = bb.emit(relax.op.multiply(relax.op.tanh(cell), gates["output"]))
        outputs.append(hidden)
    result = relax.op.stack(outputs, axis=axis)
    return tensors[_HIDDEN], tensors[_CELL], hidden, cell, result
