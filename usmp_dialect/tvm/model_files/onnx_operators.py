"""ONNX operators TVM 0.27's Relax frontend lacks, converted by us.

    onnx_converters() -> {op_type: converter}   ours, by the frontend's converter protocol
    our_onnx_converters()                       TVM's frontend using them meanwhile
    OperatorRejected                            an attribute or input we do not convert

LSTM and GRU: unrolled over the sequence, whose length is static once the input shapes
are fixed, into the matmuls, gates and activations ONNX's definition gives (the inputs'
product with every gate's weights computed for all steps at once, the recurrent product
step by step), forward, reverse or bidirectional, with the optional biases, initial
states, peepholes (LSTM), `clip`, `layout` 1 and any of the outputs. `sequence_lens` is
taken when it is a constant equal to the sequence length for every batch entry (what
exporters write); other lengths, `input_forget`, and activations other than Sigmoid, Tanh
and Relu are an `OperatorRejected`, which the loader names with the node.
ConvInteger: the operands widened to int32, their zero points subtracted, then TVM's own
Conv converter (its padding, strides, dilations, groups, `auto_pad`): zero padding after
the subtraction is ONNX's padding with the input's zero point.
Clip: TVM's own converter, but a bound that is a constant (an initializer, as exporters
write `Clip`'s min and max) has its NaN replaced by the unbounded value here, in numpy,
not by `where(isnan(bound), inf, bound)` kernels that TVM's constant folding builds with
LLVM one by one (56 of them, most of the import of PaddleOCR's recognizer): the same
values, the bound left as it is when it holds no NaN.
CumSum reversed: one scan kernel (`onnx_cumsum`).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import tvm
from tvm import relax
from tvm.relax.frontend.onnx import onnx_frontend
from tvm.relax.frontend.onnx.onnx_frontend import Conv, OnnxOpConverter

from usmp_dialect.tvm.model_files.onnx_cumsum import cumsum_converter


class OperatorRejected(ValueError):
    """An ONNX node whose attributes or inputs our converter does not take; the message
    says which."""


_ACTIVATIONS = {"Sigmoid": "sigmoid", "Tanh": "tanh", "Relu": "relu"}
_DIRECTIONS = {"forward": 1, "reverse": 1, "bidirectional": 2}


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


def _activations(attr: dict[str, Any], defaults: tuple[str, ...], directions: int) -> list[Any]:
    """The activation functions of each direction (`defaults` per direction unless the
    node lists them), as Relax ops."""
    if "activation_alpha" in attr or "activation_beta" in attr:
        raise OperatorRejected("activation_alpha/activation_beta are not supported")
    names = [_text(n) for n in attr.get("activations", defaults * directions)]
    if len(names) != len(defaults) * directions:
        raise OperatorRejected(
            f"{len(names)} activations given, {len(defaults) * directions} expected"
        )
    unknown = [n for n in names if n not in _ACTIVATIONS]
    if unknown:
        raise OperatorRejected(
            f"activation '{unknown[0]}' is not supported (only {', '.join(_ACTIVATIONS)})"
        )
    ops = {
        "sigmoid": relax.op.sigmoid,
        "tanh": relax.op.tanh,
        "relu": relax.op.nn.relu,
    }
    return [ops[_ACTIVATIONS[n]] for n in names]


def _dims(expr: Any) -> list[int]:
    return [int(d) for d in expr.ty.shape.values]


class _Recurrence:
    """What LSTM and GRU share: the inputs by direction, the step-by-step unrolling, and
    the outputs' layout."""

    gates: int
    activation_defaults: tuple[str, ...]
    states: int  # hidden state, and the cell state for LSTM

    def __init__(self, bb: Any, inputs: list[Any], attr: dict[str, Any]) -> None:
        self.bb, self.attr = bb, attr
        direction = _text(attr.get("direction", b"forward"))
        if direction not in _DIRECTIONS:
            raise OperatorRejected(f"direction '{direction}' is not one ONNX defines")
        self.direction, self.directions = direction, _DIRECTIONS[direction]
        self.layout = int(attr.get("layout", 0))
        x = inputs[0]
        if self.layout:
            x = bb.emit(relax.op.permute_dims(x, [1, 0, 2]))
        self.x = x
        self.steps, self.batch, _ = _dims(x)
        self.hidden = _dims(inputs[2])[-1]
        if "hidden_size" in attr and int(attr["hidden_size"]) != self.hidden:
            raise OperatorRejected(
                f"hidden_size {attr['hidden_size']} unlike the recurrence weights' {self.hidden}"
            )
        self.clip = float(attr["clip"]) if "clip" in attr else None
        self.functions = _activations(attr, self.activation_defaults, self.directions)
        self._check_sequence_lens(inputs[4] if len(inputs) > 4 else None)

    def _check_sequence_lens(self, lens: Any) -> None:
        if lens is None:
            return
        if not isinstance(lens, tvm.ir.Constant):
            raise OperatorRejected(
                "sequence_lens computed at run time is not supported (only a constant equal "
                "to the sequence length)"
            )
        values = lens.value.numpy()
        if not np.all(values == self.steps):
            raise OperatorRejected(
                f"sequence_lens {values.tolist()} unlike the sequence length {self.steps} "
                "is not supported"
            )

    def emit(self, expr: Any) -> Any:
        return self.bb.emit(expr)

    def direction_of(self, tensor: Any, d: int) -> Any:
        """Direction `d`'s slice of a [directions, ...] input, its first axis dropped."""
        if tensor is None:
            return None
        part = relax.op.strided_slice(tensor, axes=[0], begin=[d], end=[d + 1])
        return self.emit(relax.op.squeeze(part, axis=[0]))

    def gate_parts(self, value: Any) -> list[Any]:
        """`value` [..., gates * hidden] split into its gates, in ONNX's order."""
        parts = self.emit(relax.op.split(value, self.gates, axis=-1))
        return [self.emit(relax.TupleGetItem(parts, i)) for i in range(self.gates)]

    def clipped(self, value: Any) -> Any:
        if self.clip is None:
            return value
        return self.emit(relax.op.clip(value, -self.clip, self.clip))

    def input_products(self, w: Any, bias: Any) -> list[Any]:
        """X_t W^T (+ the input bias) for every step t, computed at once: [batch, gates*H]
        each."""
        product = relax.op.matmul(self.x, relax.op.permute_dims(w, [1, 0]))
        if bias is not None:
            product = relax.op.add(product, bias)
        products = self.emit(product)
        return [
            self.emit(
                relax.op.squeeze(
                    relax.op.strided_slice(products, axes=[0], begin=[t], end=[t + 1]), axis=[0]
                )
            )
            for t in range(self.steps)
        ]

    def initial(self, state: Any, d: int, dtype: str) -> Any:
        """Direction `d`'s initial state [batch, H], zeros if the node gives none (given
        [batch, directions, H] in layout 1)."""
        if state is None:
            return relax.const(np.zeros((self.batch, self.hidden), dtype))
        if self.layout:
            state = self.emit(relax.op.permute_dims(state, [1, 0, 2]))
        return self.direction_of(state, d)

    def outputs(self, per_direction: list[tuple[list[Any], list[Any]]]) -> Any:
        """Y [steps, directions, batch, H] and each final state [directions, batch, H]
        (`layout` 1: [batch, steps, directions, H] and [batch, directions, H]), from each
        direction's hidden states in time order and its final states."""
        sequences = [relax.op.stack(hs, axis=0) for hs, _ in per_direction]
        y = relax.op.stack(sequences, axis=1)
        finals = [
            relax.op.stack([finals[k] for _, finals in per_direction], axis=0)
            for k in range(self.states)
        ]
        if self.layout:
            y = relax.op.permute_dims(y, [2, 0, 1, 3])
            finals = [relax.op.permute_dims(f, [1, 0, 2]) for f in finals]
        return relax.Tuple([self.emit(y), *(self.emit(f) for f in finals)])

    def times(self, d: int) -> list[int]:
        """The order direction `d` visits the steps in."""
        reverse = self.direction == "reverse" or (self.direction == "bidirectional" and d == 1)
        return list(range(self.steps))[::-1] if reverse else list(range(self.steps))


class _LSTM(_Recurrence):
    gates, states = 4, 2
    activation_defaults = ("Sigmoid", "Tanh", "Tanh")

    def convert(self, inputs: list[Any]) -> Any:
        if int(self.attr.get("input_forget", 0)):
            raise OperatorRejected("input_forget 1 is not supported")
        w, r, b = inputs[1], inputs[2], inputs[3] if len(inputs) > 3 else None
        initial_h = inputs[5] if len(inputs) > 5 else None
        initial_c = inputs[6] if len(inputs) > 6 else None
        peepholes = inputs[7] if len(inputs) > 7 else None
        dtype = str(self.x.ty.dtype)
        per_direction = []
        for d in range(self.directions):
            f, g, h = self.functions[3 * d : 3 * d + 3]
            bias = self.direction_of(b, d)
            if bias is not None:
                halves = self.emit(relax.op.split(bias, 2, axis=0))
                bias = self.emit(
                    relax.op.add(relax.TupleGetItem(halves, 0), relax.TupleGetItem(halves, 1))
                )
            xw = self.input_products(self.direction_of(w, d), bias)
            r_t = self.emit(relax.op.permute_dims(self.direction_of(r, d), [1, 0]))
            p = self.direction_of(peepholes, d)
            p_i, p_o, p_f = (
                [
                    self.emit(relax.TupleGetItem(self.emit(relax.op.split(p, 3)), k))
                    for k in range(3)
                ]
                if p is not None
                else (None, None, None)
            )
            hidden, cell = self.initial(initial_h, d, dtype), self.initial(initial_c, d, dtype)
            hs: dict[int, Any] = {}
            for t in self.times(d):
                gates = self.emit(relax.op.add(xw[t], relax.op.matmul(hidden, r_t)))
                i, o, fo, c = self.gate_parts(gates)
                if p_i is not None:
                    i = relax.op.add(i, relax.op.multiply(p_i, cell))
                    fo = relax.op.add(fo, relax.op.multiply(p_f, cell))
                i = self.emit(f(self.clipped(self.emit(i))))
                fo = self.emit(f(self.clipped(self.emit(fo))))
                c = self.emit(g(self.clipped(c)))
                cell = self.emit(relax.op.add(relax.op.multiply(fo, cell), relax.op.multiply(i, c)))
                if p_o is not None:
                    o = relax.op.add(o, relax.op.multiply(p_o, cell))
                o = self.emit(f(self.clipped(self.emit(o))))
                hidden = hs[t] = self.emit(relax.op.multiply(o, h(cell)))
            per_direction.append(([hs[t] for t in range(self.steps)], [hidden, cell]))
        return self.outputs(per_direction)


class _GRU(_Recurrence):
    gates, states = 3, 1
    activation_defaults = ("Sigmoid", "Tanh")

    def convert(self, inputs: list[Any]) -> Any:
        w, r, b = inputs[1], inputs[2], inputs[3] if len(inputs) > 3 else None
        initial_h = inputs[5] if len(inputs) > 5 else None
        linear_before_reset = int(self.attr.get("linear_before_reset", 0))
        dtype = str(self.x.ty.dtype)
        per_direction = []
        for d in range(self.directions):
            f, g = self.functions[2 * d : 2 * d + 2]
            bias = self.direction_of(b, d)
            w_bias = r_bias = None
            if bias is not None:
                halves = self.emit(relax.op.split(bias, 2, axis=0))
                w_bias = self.emit(relax.TupleGetItem(halves, 0))
                r_bias = self.emit(relax.TupleGetItem(halves, 1))
            xw = self.input_products(self.direction_of(w, d), w_bias)
            r_z, r_r, r_h = self._recurrence_parts(self.direction_of(r, d))
            rb_z, rb_r, rb_h = self.gate_parts(r_bias) if r_bias is not None else (None,) * 3
            hidden = self.initial(initial_h, d, dtype)
            hs: dict[int, Any] = {}
            for t in self.times(d):
                x_z, x_r, x_h = self.gate_parts(xw[t])
                z = self._gate(x_z, relax.op.matmul(hidden, r_z), rb_z, f)
                reset = self._gate(x_r, relax.op.matmul(hidden, r_r), rb_r, f)
                if linear_before_reset:
                    recurrent = relax.op.matmul(hidden, r_h)
                    if rb_h is not None:
                        recurrent = relax.op.add(recurrent, rb_h)
                    candidate = relax.op.add(x_h, relax.op.multiply(reset, recurrent))
                else:
                    candidate = relax.op.add(
                        x_h, relax.op.matmul(relax.op.multiply(reset, hidden), r_h)
                    )
                    if rb_h is not None:
                        candidate = relax.op.add(candidate, rb_h)
                h_t = self.emit(g(self.clipped(self.emit(candidate))))
                one = relax.const(np.ones((), dtype))
                hidden = hs[t] = self.emit(
                    relax.op.add(
                        relax.op.multiply(relax.op.subtract(one, z), h_t),
                        relax.op.multiply(z, hidden),
                    )
                )
            per_direction.append(([hs[t] for t in range(self.steps)], [hidden]))
        return self.outputs(per_direction)

    def _recurrence_parts(self, r: Any) -> list[Any]:
        """R [3H, H] as each gate's transposed weights [H, H]."""
        parts = self.emit(relax.op.split(r, 3, axis=0))
        return [
            self.emit(relax.op.permute_dims(relax.TupleGetItem(parts, k), [1, 0])) for k in range(3)
        ]

    def _gate(self, x_part: Any, recurrent: Any, bias: Any, f: Callable[[Any], Any]) -> Any:
        value = relax.op.add(x_part, recurrent)
        if bias is not None:
            value = relax.op.add(value, bias)
        return self.emit(f(self.clipped(self.emit(value))))


def _recurrence_converter(recurrence: type[_Recurrence]) -> type:
    class Converter(OnnxOpConverter):
        @classmethod
        def _impl_v7(cls, bb: Any, inputs: Any, attr: dict[str, Any], params: Any) -> Any:
            inputs = list(inputs)
            return recurrence(bb, inputs, attr).convert(inputs)  # type: ignore[attr-defined]

    Converter.__name__ = recurrence.__name__.removeprefix("_")
    return Converter


def _conv_integer_converter() -> type:
    def centred(bb: Any, value: Any, zero_point: Any, rank: int) -> Any:
        """`value` as int32, its zero point subtracted (a per-channel one along axis 0 of
        the `rank`-dim weights)."""
        wide = bb.emit(relax.op.astype(value, "int32"))
        if zero_point is None:
            return wide
        point = bb.emit(relax.op.astype(zero_point, "int32"))
        if _dims(zero_point) not in ([], [1]):
            point = bb.emit(relax.op.reshape(point, [-1] + [1] * (rank - 1)))
        return bb.emit(relax.op.subtract(wide, point))

    class ConvInteger(OnnxOpConverter):
        @classmethod
        def _impl_v10(cls, bb: Any, inputs: Any, attr: dict[str, Any], params: Any) -> Any:
            x, w = inputs[0], inputs[1]
            x_zero = inputs[2] if len(inputs) > 2 else None
            w_zero = inputs[3] if len(inputs) > 3 else None
            if x_zero is not None and _dims(x_zero) not in ([], [1]):
                raise OperatorRejected("a per-channel x_zero_point is not one ONNX allows")
            rank = len(_dims(w))
            data = centred(bb, x, x_zero, rank)
            weight = centred(bb, w, w_zero, rank)
            return Conv._impl_v11(bb, [data, weight, None], attr, params)

    return ConvInteger


def _clip_converter() -> type:
    class Clip(onnx_frontend.Clip):
        @staticmethod
        def _sanitize_nan_clip_bound(bb: Any, bound: Any, *, for_min: bool) -> Any:
            if not isinstance(bound, tvm.ir.Constant):
                return onnx_frontend.Clip._sanitize_nan_clip_bound(bb, bound, for_min=for_min)
            value = bound.value.numpy()
            nan = np.isnan(value) if np.issubdtype(value.dtype, np.floating) else None
            if nan is None or not nan.any():
                return bound
            return relax.const(np.where(nan, -np.inf if for_min else np.inf, value), value.dtype)

    return Clip


def onnx_converters() -> dict[str, type]:
    """Our converters of the operators TVM's frontend lacks or converts slowly, by ONNX op
    type."""
    return {
        "LSTM": _recurrence_converter(_LSTM),
        "GRU": _recurrence_converter(_GRU),
        "ConvInteger": _conv_integer_converter(),
        "Clip": _clip_converter(),
        "CumSum": cumsum_converter(),
    }


@contextlib.contextmanager
def our_onnx_converters() -> Iterator[None]:
    """TVM's ONNX frontend with our converters in its map, meanwhile (the frontend looks
    the map up by module function, with no parameter to extend it)."""
    tvms = onnx_frontend._get_convert_map
    ours = onnx_converters()
    onnx_frontend._get_convert_map = lambda: {**tvms(), **ours}
    try:
        yield
    finally:
        onnx_frontend._get_convert_map = tvms
