"""A `.tflite` model's resource variables as state it reads and writes, and the quantized
operators a streaming model copies its state with, for TVM 0.27's TFLite frontend.

    stateful_converter() -> (converter, variables)   `from_tflite(..., op_converter=converter)`
    with_state(mod, variables) -> mod                 each variable an input and an output
    state_output_names(variables) -> [name]           the file's names of the values after

A streaming model (microWakeWord's, in pymicro-wakeword) keeps what it has seen of its
input in variables: each run reads them (READ_VARIABLE), computes, and writes them back
(ASSIGN_VARIABLE) for the next run; a CALL_ONCE subgraph sets their first values. TVM's
frontend takes only that first assignment (its values become constants), and declines
the quantized operators such a model moves its state with.

A variable here is an input of `forward`, its value before the run (named as the file
names the variable), and an output, its value after, after the model's own outputs (named
as the file names the tensor last assigned to the variable, `model_1/stream_6/strided_slice1`
for `stream_6/states`), both in the order the model first reads or writes its variables:
each variable is read, then written (one written before it is read, or neither written nor
set by CALL_ONCE, is declined), so the outputs pair with the inputs, in order.
Relax functions are pure: a value before and after a run is exactly a parameter and a
result, the Relax VM checks them as it checks any output, and the plan holds what one run
computes. A buffer that
outlives the run belongs to its caller, as TFLM keeps variables in its persistent arena,
not in the non-persistent one the tensors of a run share: the function's
`usmp.state_count` says how many of its last inputs and outputs are state, which the
lowering records as the entry's `usmp.state` and `tir-state-to-allocations` makes one
buffer a variable, in a state pool. Its `usmp.state_initial` holds the CALL_ONCE values
(microWakeWord's: each int8 -128, its zero point: real zeros), which the import keeps as
`main`'s `usmp.state_values` and the C library's `<m>_init_state` writes into the state
before the first run. A variable the model only reads, which CALL_ONCE sets, is that
constant, as TVM's frontend takes it.

Quantized READ_VARIABLE, ASSIGN_VARIABLE, STRIDED_SLICE and SPLIT_V copy their int8
values unchanged, as TFLite's kernels do, and are converted as they are for float tensors:
READ_VARIABLE and ASSIGN_VARIABLE whatever the quantization of the tensors they read and
write (TFLite's kernels do not look at it either), STRIDED_SLICE and SPLIT_V when their
input and outputs are quantized alike (declined otherwise). A SPLIT_V of constant sizes is
one slice a part.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

import numpy as np
import tvm
import tvm_ffi
from tvm import relax
from tvm.relax.frontend.tflite.tflite_frontend import get_tensor_name

from usmp_dialect.tvm.model_files.tensor_names import tflite_tensor_label
from usmp_dialect.tvm.model_files.tflite_lstm import convert_lstm
from usmp_dialect.tvm.model_files.tflite_operators import CorrectedConverter
from usmp_dialect.tvm.model_files.tflite_svdf import convert_svdf
from usmp_dialect.tvm.model_files.tflite_tensors import tensor_shape
from usmp_dialect.tvm.model_files.tflm_signal import CARRYING_SIGNAL_CONVERTERS, signal_converters
from usmp_dialect.tvm.relax.to_tir import STATE_COUNT_ATTR, STATE_INITIAL_ATTR

# Quantized operators converted here (an integer LSTM is refused by `tflite_lstm`, saying
# why, where TVM's check says only that it is quantized).
_OURS = frozenset({"SVDF", "UNIDIRECTIONAL_SEQUENCE_LSTM"})
# Operators that copy their quantized input's values unchanged, as TFLite's kernels do.
_COPYING = frozenset({"READ_VARIABLE", "ASSIGN_VARIABLE", "STRIDED_SLICE", "SPLIT_V"})


@dataclass
class Variable:
    """A resource variable: its value before the run (an input of the function if the run
    reads it before writing it), its value now (its value after the run, once converted),
    the constant its CALL_ONCE subgraph assigns it if one does, whether the run read
    `before` and whether it wrote the variable, and the file's name for the tensor the run
    last assigned it ("" if none)."""

    before: Any
    value: Any
    initial: Any = None
    read: bool = False
    written: bool = False
    assigned: str = ""

    @property
    def constant(self) -> bool:
        """Only read, and set by CALL_ONCE: its value is that constant in every run."""
        return self.read and not self.written and self.initial is not None


class _Operators:
    """A TFLite subgraph whose operators are its own but those of the codes left out."""

    def __init__(self, subgraph: Any, code: Any, left_out: set[str]) -> None:
        self._subgraph = subgraph
        self._kept = [
            subgraph.Operators(i)
            for i in range(subgraph.OperatorsLength())
            if code(subgraph.Operators(i)) not in left_out
        ]

    # The flatbuffer reader's method names.
    def OperatorsLength(self) -> int:
        return len(self._kept)

    def Operators(self, i: int) -> Any:
        return self._kept[i]

    def __getattr__(self, name: str) -> Any:
        return getattr(self._subgraph, name)


class StatefulConverter(CorrectedConverter):
    """TVM's TFLite `OperatorConverter` with variables as state (and the operators
    `tflite_operators` corrects): each variable it finds goes into `variables`, by
    resource key, in the order the model first reads or writes them (a subclass of
    `stateful_converter`'s own: TVM makes the converter, the caller reads them after)."""

    variables: dict[Any, Variable]
    _SUPPORTED_QUANTIZED_OPS = CorrectedConverter._SUPPORTED_QUANTIZED_OPS | _COPYING | _OURS
    subgraph: Any

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.convert_map.update(signal_converters(self))
        for code, convert in CARRYING_SIGNAL_CONVERTERS.items():
            self.convert_map[code] = functools.partial(self._convert_carrying, convert)

    def check_unsupported_ops(self) -> None:
        """TVM's check of every operator but ASSIGN_VARIABLE, whose quantized value and
        no output it takes for dynamic range quantization; the conversion checks it."""
        subgraph = self.subgraph
        self.subgraph = _Operators(subgraph, self.get_op_code_str, {"ASSIGN_VARIABLE"})
        try:
            super().check_unsupported_ops()
        finally:
            self.subgraph = subgraph

    def _initializing(self) -> bool:
        return bool(self.conversion_state["in_call_once_init"])

    def _variable(self, handle: Any, op_name: str, tensor: Any) -> Variable:
        key = self._get_resource_key_for_handle(handle, op_name)
        if key not in self.variables:
            before = relax.Var(
                key[1] or str(key),
                relax.TensorType(
                    tensor_shape(tensor.tensor),
                    self.get_tensor_type_str(tensor.tensor.Type()),
                ),
            )
            initial = self.conversion_state["resource_values"].get(key)
            self.variables[key] = Variable(before, before, initial)
        return self.variables[key]

    def _tensor_variable(self, tensor: Any) -> Variable:
        """A variable tensor (an SVDF's activation state, an LSTM's hidden state and
        cell) as a variable, read before
        it is written: its value before the run named as the file names the tensor,
        first TFLM's reset value (an int8 one's zero point, else 0)."""
        key = ("variable tensor", tensor.tensor_idx)
        if key not in self.variables:
            dtype = self.get_tensor_type_str(tensor.tensor.Type())
            shape = tensor_shape(tensor.tensor)
            name = get_tensor_name(self.subgraph, tensor.tensor_idx)
            before = relax.Var(name, relax.TensorType(shape, dtype))
            fill = tensor.qnn_params["zero_point"].value.numpy() if dtype == "int8" else 0
            initial = relax.const(np.full(shape, fill, dtype), dtype)
            self.variables[key] = Variable(before, before, initial, read=True)
        return self.variables[key]

    def convert_svdf(self, op: Any) -> Any:
        """TFLM's SVDF (`tflite_svdf`), its activation state a variable."""
        state, after, output = convert_svdf(
            self, op, lambda tensor: self._tensor_variable(tensor).value
        )
        variable = self._tensor_variable(state)
        variable.value, variable.written = after, True
        return output

    def _kernel_state(self, tensor: Any, initial: np.ndarray) -> Any:
        """The value before the run of the state a signal kernel keeps from run to run
        (TFLM's persistent buffers): a variable named after `tensor`, first `initial`
        (TFLM's reset value)."""
        key = ("kernel state", tensor.tensor_idx)
        if key not in self.variables:
            name = get_tensor_name(self.subgraph, tensor.tensor_idx)
            dtype = str(initial.dtype)
            var = relax.Var(name, relax.TensorType(list(initial.shape), dtype))
            self.variables[key] = Variable(var, var, relax.const(initial, dtype), read=True)
        return self.variables[key].value

    def _convert_carrying(self, convert: Any, op: Any) -> Any:
        """A signal operator whose kernel keeps state, converted by `convert`
        (`tflm_signal`), which names each state's tensor and gives its value after."""
        states, output = convert(self, op, self._kernel_state)
        for tensor, after in states:
            variable = self.variables[("kernel state", tensor.tensor_idx)]
            variable.value, variable.written = after, True
        return output

    def convert_unidirectional_sequence_lstm(self, op: Any) -> Any:
        """TFLM's float32 LSTM (`tflite_lstm`), its hidden state and cell variables."""
        hidden, cell, hidden_after, cell_after, output = convert_lstm(
            self, op, lambda tensor: self._tensor_variable(tensor).value
        )
        for tensor, after in ((hidden, hidden_after), (cell, cell_after)):
            variable = self._tensor_variable(tensor)
            variable.value, variable.written = after, True
        return output

    def convert_read_variable(self, op: Any) -> Any:
        if self._initializing():
            return super().convert_read_variable(op)
        inputs, outputs = self.get_input_tensors(op), self.get_output_tensors(op)
        if len(inputs) != 1 or len(outputs) != 1:
            raise tvm.error.OpNotImplemented("READ_VARIABLE expects one input and one output")
        variable = self._variable(inputs[0], "READ_VARIABLE", outputs[0])
        variable.read |= not variable.written
        return variable.value

    def convert_assign_variable(self, op: Any) -> Any:
        if self._initializing():
            return super().convert_assign_variable(op)
        inputs = self.get_input_tensors(op)
        if len(inputs) != 2 or self.get_output_tensors(op):
            raise tvm.error.OpNotImplemented(
                "ASSIGN_VARIABLE expects a resource handle and a value, and no outputs"
            )
        variable = self._variable(inputs[0], "ASSIGN_VARIABLE", inputs[1])
        value = self.get_tensor_expr(inputs[1])
        if not tvm_ffi.structural_equal(value.ty, variable.before.ty):
            raise tvm.error.OpNotImplemented(
                f"ASSIGN_VARIABLE of a {value.ty} to variable '{variable.before.name}' "
                f"of {variable.before.ty}"
            )
        variable.value, variable.written = value, True
        variable.assigned = get_tensor_name(self.subgraph, inputs[1].tensor_idx)
        return None

    def _copies_quantization(self, op: Any, op_name: str) -> None:
        """The data input and every output are quantized alike, or none is."""
        source = self.get_input_tensors(op)[0]
        for output in self.get_output_tensors(op):
            if (source.qnn_params is None) != (output.qnn_params is None) or (
                source.qnn_params is not None and not self.has_same_qnn_params(source, output)
            ):
                label = tflite_tensor_label(output.tensor, output.tensor_idx)
                raise tvm.error.OpNotImplemented(
                    f"quantized {op_name} computing {label} is quantized unlike its input"
                    " (TFLite's kernel copies the values)"
                )

    def convert_strided_slice(self, op: Any) -> Any:
        self._copies_quantization(op, "STRIDED_SLICE")
        return super().convert_strided_slice(op)

    def convert_split_v(self, op: Any) -> Any:
        """Static sizes: one slice a part (TVM's split makes a tuple, which the lowering
        takes only as a function's result), each as long as its size, a -1 the rest of
        the dim (of the data as converted: `--input-shape` may have resized it)."""
        self._copies_quantization(op, "SPLIT_V")
        data, sizes, axis = self.get_input_tensors(op)
        if self.has_expr(sizes.tensor_idx):
            return super().convert_split_v(op)
        outputs = self.get_output_tensors(op)
        expr = self.get_expr(data.tensor_idx)
        shape = [int(d) for d in expr.ty.shape.values]
        dim = int(self.get_tensor_value(axis)) % len(shape)
        name = get_tensor_name(self.subgraph, outputs[0].tensor_idx)
        lengths = _split_lengths(
            [int(s) for s in np.asarray(self.get_tensor_value(sizes)).reshape(-1)],
            len(outputs),
            shape[dim],
            name,
        )
        begin = 0
        for output, length in zip(outputs, lengths, strict=True):
            part = relax.op.strided_slice(expr, axes=[dim], begin=[begin], end=[begin + length])
            self.exp_tab.set_expr(
                get_tensor_name(self.subgraph, output.tensor_idx), self.bb.normalize(part)
            )
            begin += length
        return None


def stateful_converter() -> tuple[type, dict[Any, Variable]]:
    """TVM's TFLite `OperatorConverter` with variables as state (and the operators
    `tflite_operators` corrects), and the variables it finds (by resource key, in the order
    the model first reads or writes them)."""
    variables: dict[Any, Variable] = {}
    return type("StatefulConverter", (StatefulConverter,), {"variables": variables}), variables


def _split_lengths(sizes: list[int], parts: int, length: int, name: str) -> list[int]:
    """SPLIT_V's `sizes` of a dim of `length` into `parts` parts, a -1 resolved to the
    rest of the dim; sizes TFLite's kernel rejects are an error naming the first part."""
    unknown = [i for i, size in enumerate(sizes) if size == -1]
    rest = length - sum(size for size in sizes if size != -1)
    if len(unknown) == 1 and rest >= 0:
        sizes = [rest if size == -1 else size for size in sizes]
    if len(sizes) != parts or any(size < 0 for size in sizes) or sum(sizes) != length:
        raise tvm.error.OpNotImplemented(
            f"SPLIT_V computing '{name}' splits a dim of {length} into sizes {sizes} "
            f"({parts} parts)"
        )
    return sizes


def _check_carried(variables: dict[Any, Variable]) -> None:
    """Every variable but a constant one is read, then written: its value after a run is
    the next run's input, so the state outputs pair with the state inputs, in order. The
    first other is an error naming it."""
    for variable in variables.values():
        name = variable.before.name
        if variable.written and not variable.read:
            raise tvm.error.OpNotImplemented(
                f"variable '{name}' is written before the run reads it: no run reads the "
                "value a run leaves in it, which the import carries as state from run to run"
            )
        if not variable.written and not variable.constant:
            raise tvm.error.OpNotImplemented(
                f"variable '{name}' is read but neither written nor set by a CALL_ONCE "
                "subgraph: it has no value"
            )


def with_state(mod: Any, variables: dict[Any, Variable]) -> Any:
    """`mod` whose `main` takes each variable's value before the run after its inputs (but
    a constant one's, bound to its constant) and returns each written variable's value
    after the run after its outputs; with each carried variable's first value (its
    CALL_ONCE constant) as `usmp.state_initial` when every one has one."""
    if not variables:
        return mod
    _check_carried(variables)
    func = mod["main"]
    *blocks, last = func.body.blocks
    *bindings, output = last.bindings
    value = output.value
    outputs = list(value.fields) if isinstance(value, relax.Tuple) else [value]
    states = [v.value for v in variables.values() if v.written]
    fields = [*outputs, *states]
    result = relax.Tuple(fields)
    returned = relax.Var(output.var.name, relax.TupleType([f.ty for f in fields]))
    block = relax.DataflowBlock([*bindings, relax.VarBinding(returned, result)])
    constants = [relax.VarBinding(v.before, v.initial) for v in variables.values() if v.constant]
    if constants:
        blocks = [relax.DataflowBlock(constants), *blocks]
    carried = [v.before for v in variables.values() if v.read and not v.constant]
    params = [*func.params, *carried]
    main = (
        relax.Function(
            params, relax.SeqExpr([*blocks, block], returned), returned.ty, func.is_pure, func.attrs
        )
        .with_attr("num_input", len(params))
        .with_attr(STATE_COUNT_ATTR, len(carried))
    )
    initial = [v.initial for v in variables.values() if v.read and not v.constant]
    if all(isinstance(value, tvm.ir.Constant) for value in initial):
        main = main.with_attr(STATE_INITIAL_ATTR, [value.value for value in initial])
    mod["main"] = main
    return mod


def state_output_names(variables: dict[Any, Variable]) -> list[str]:
    """The names of the outputs `with_state` adds: each the file's name for the tensor last
    assigned to its variable, else the variable's (the output is then made unique)."""
    return [v.assigned or v.before.name for v in variables.values() if v.written]
