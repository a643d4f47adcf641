"""TFLite's SVDF as TensorFlow Lite Micro's reference kernels compute it, float32 and
int8 (its activation state int16 or int8), as two TE kernels:

    svdf_layout(shapes, rank, variable) -> SvdfLayout   the file's tensors checked
    state_update(x, weights_feature, state, layout, q)  -> te.Tensor   the state after
    svdf_output(state, weights_time, bias, layout, q)   -> te.Tensor   the output

An SVDF keeps, for each batch row and filter, the filter's last `memory` activations in
its activation state (a variable tensor, [batch, filters x memory], the newest last).
TFLM's kernel shifts the state left by one, writes each filter's new activation (the
input times its feature weights) into the last column, then sums each filter's row of
the state times its time weights, and each unit's `rank` filters, plus the bias.

The state is a variable of the import (`tflite_state`): the first kernel reads the state
before the run and writes the state after, element i from element i + 1 (ahead of it:
in place on one buffer, as TFLM updates it, once `tir-state-to-allocations` makes the
pair one buffer in a state pool); the second reads the state after. The feature sums are
the first kernel's own stage (TFLM's scratch buffer: filters values a row), the time sums
the second's.

float32: every sum in TFLM's order (the time sum from 0, the unit's sum from its bias), the
fused activation a clamp. int8: each feature sum of (input - zero point) x weight, in
int32, requantized to the state's scale (`fixed_point`, TFLM's effective scale 1: input
scale x feature scale / state scale, in float32) plus the state's zero point, clamped to
the state's type; each time sum of (state - its zero point) x time weight in int32, plus
the bias, requantized to the output (effective scale 2: state scale x time scale / output
scale) plus its zero point, clamped to int8: TFLM's integer kernel applies no fused
activation.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
from tvm import te, tirx

from usmp_dialect.dialects.usmp import IN_PLACE_ATTR
from usmp_dialect.tvm.model_files.fixed_point import clamped, quantize_multiplier, requantized
from usmp_dialect.tvm.model_files.int8_unweighted_kernels import INT_RANGES
from usmp_dialect.tvm.model_files.onnx_operators import OperatorRejected
from usmp_dialect.tvm.model_files.tflite_options import options_of
from usmp_dialect.tvm.model_files.tflite_tensors import scalar_quantization, tensor_shape

# TFLM's fused activations for float SVDF (ActivationValFloat): those that clamp.
FLOAT_CLAMPS = {0: None, 1: (0.0, None), 2: (-1.0, 1.0), 3: (0.0, 6.0)}


class SvdfLayout(NamedTuple):
    """An SVDF's sizes: batch rows, input features, filters, memory (time steps kept),
    and rank (filters a unit)."""

    batch: int
    inputs: int
    filters: int
    memory: int
    rank: int

    @property
    def units(self) -> int:
        return self.filters // self.rank

    @property
    def state_shape(self) -> list[int]:
        return [self.batch, self.filters * self.memory]


class IntegerSvdf(NamedTuple):
    """An int8 SVDF's quantization: the input's and state's zero points, the feature sum's
    multiplier and shift (to the state's scale), the output's (from state x time scale),
    the output's zero point, and the state's dtype."""

    input_zero_point: int
    state_zero_point: int
    feature: tuple[int, int]
    output: tuple[int, int]
    output_zero_point: int
    state_dtype: str


def svdf_layout(shapes: dict[str, list[int]], rank: int) -> SvdfLayout:
    """The layout of an SVDF whose tensors (input, weights_feature, weights_time, bias or
    absent, activation_state, output) have `shapes`, as TFLM's Prepare checks them;
    ValueError naming the first tensor that contradicts the others or the options."""
    for name in ("input", "weights_feature", "weights_time", "activation_state", "output"):
        if len(shapes[name]) != 2:
            raise ValueError(f"its {name} is of rank {len(shapes[name])}, SVDF's is 2")
    batch, inputs = shapes["input"]
    filters, feature_inputs = shapes["weights_feature"]
    if feature_inputs != inputs:
        raise ValueError(
            f"its weights_feature {shapes['weights_feature']} does not read its input's "
            f"{inputs} features"
        )
    if rank < 1 or filters % rank:
        raise ValueError(f"its {filters} filters are not a multiple of its rank {rank}")
    time_filters, memory = shapes["weights_time"]
    if time_filters != filters:
        raise ValueError(f"its weights_time {shapes['weights_time']} has not {filters} filters")
    layout = SvdfLayout(batch, inputs, filters, memory, rank)
    expected = {
        "bias": [layout.units],
        "activation_state": layout.state_shape,
        "output": [batch, layout.units],
    }
    for name, shape in expected.items():
        if name in shapes and shapes[name] != shape:
            raise ValueError(f"its {name} is {shapes[name]}, its options and weights make {shape}")
    return layout


def state_update(
    x: Any, weights_feature: Any, state: Any, layout: SvdfLayout, q: IntegerSvdf | None
) -> Any:
    """The activation state after the run: the state before shifted left by one, each
    filter's newest activation last (`q` None: float32)."""

    def feature_at(b: Any, f: Any, k: Any) -> tuple[Any, Any]:
        return x[b, k], weights_feature[f, k]

    zero_point = None if q is None else q.input_zero_point
    total = _filter_sums(layout, layout.inputs, feature_at, zero_point, "feature_sum")
    if q is None:
        feature = total
    else:
        state_range = INT_RANGES[q.state_dtype]

        def activation(b: Any, f: Any) -> Any:
            value = requantized(total[b, f], *q.feature, q.state_zero_point)
            return clamped(value, *state_range, q.state_dtype)

        feature = te.compute((layout.batch, layout.filters), activation, name="feature")
    memory = layout.memory

    def shifted(b: Any, i: Any) -> Any:
        newest = tirx.indexmod(i, memory) == memory - 1
        # Element i + 1 read only where it is in the state (the newest column is not).
        ahead = tirx.min(i + 1, layout.filters * memory - 1)
        return tirx.Select(newest, feature[b, tirx.indexdiv(i, memory)], state[b, ahead])

    return te.compute(layout.state_shape, shifted, name="state_after")


def svdf_output(
    state: Any,
    weights_time: Any,
    bias: Any,
    layout: SvdfLayout,
    q: IntegerSvdf | None,
    bounds: tuple[float | None, float | None] | None = None,
) -> Any:
    """The output [batch, units] from the state after the run (`q` None: float32, clamped
    to `bounds` if given)."""
    memory, rank = layout.memory, layout.rank

    def time_at(b: Any, f: Any, t: Any) -> tuple[Any, Any]:
        return state[b, f * memory + t], weights_time[f, t]

    zero_point = None if q is None else q.state_zero_point
    time = _filter_sums(layout, memory, time_at, zero_point, "time")
    dtype = "float32" if q is None else "int32"

    # TFLM sums a unit's filters onto its bias, in order: the bias is the sum's first term
    # (TE's reduction takes no initial value of the caller's).
    def unit_sum(b: Any, u: Any) -> Any:
        if bias is None:
            r = te.reduce_axis((0, rank), "r")
            return te.sum(time[b, u * rank + r], axis=r)
        r = te.reduce_axis((0, rank + 1), "r")
        filter_at = time[b, u * rank + tirx.max(r - 1, 0)]
        return te.sum(tirx.Select(r == 0, bias[u].astype(dtype), filter_at), axis=r)

    unit = te.compute((layout.batch, layout.units), unit_sum, name="unit")
    if q is None:
        if bounds is None:
            return unit
        low, high = bounds

        def clamp(b: Any, u: Any) -> Any:
            value = unit[b, u]
            if low is not None:
                value = tirx.max(value, tirx.const(low, "float32"))
            if high is not None:
                value = tirx.min(value, tirx.const(high, "float32"))
            return value

        return te.compute((layout.batch, layout.units), clamp, name="activation")

    def output(b: Any, u: Any) -> Any:
        value = requantized(unit[b, u], *q.output, q.output_zero_point)
        return clamped(value, *INT_RANGES["int8"], "int8")

    return te.compute((layout.batch, layout.units), output, name="output")


def _filter_sums(
    layout: SvdfLayout, length: int, operands: Any, zero_point: int | None, name: str
) -> Any:
    """[batch, filters]: each the sum over k < `length` of a x w, (a, w) =
    `operands(b, f, k)`; of integers (`zero_point` not None) in int32, a less the zero
    point."""
    k = te.reduce_axis((0, length), "k")

    def total(b: Any, f: Any) -> Any:
        a, w = operands(b, f, k)
        if zero_point is not None:
            a = a.astype("int32") - tirx.const(zero_point, "int32")
            w = w.astype("int32")
        return te.sum(a * w, axis=k)

    return te.compute((layout.batch, layout.filters), total, name=name)


_TENSORS = ("input", "weights_feature", "weights_time", "bias", "activation_state")


def convert_svdf(converter: Any, op: Any, state_before: Any) -> tuple[Any, Any, Any]:
    """An SVDF operator `op` converted by TVM's TFLite `converter`: (its activation state's
    tensor wrapper, the state after the run, the output), two kernel calls;
    `state_before(wrapper)` is the state's value before the run. OperatorRejected naming
    the tensor that contradicts the others, the options or TFLM's kernel."""
    from tflite.SVDFOptions import SVDFOptions

    tensors = converter.get_input_tensors(op)
    outputs = converter.get_output_tensors(op)
    if len(tensors) != len(_TENSORS) or len(outputs) != 1:
        raise OperatorRejected(
            f"it has {len(tensors)} inputs and {len(outputs)} outputs (SVDF's are 5 and 1)"
        )
    named = dict(zip(_TENSORS, tensors, strict=True))
    if named["bias"].tensor_idx == -1:
        del named["bias"]
    named["output"] = outputs[0]
    state = named["activation_state"]
    if not state.tensor.IsVariable():
        raise OperatorRejected("its activation_state is not a variable tensor (TFLM's must be)")
    options = options_of(op, SVDFOptions)
    try:
        layout = svdf_layout({n: tensor_shape(t.tensor) for n, t in named.items()}, options.Rank())
    except ValueError as error:
        raise OperatorRejected(str(error)) from None
    types = {n: converter.get_tensor_type_str(t.tensor.Type()) for n, t in named.items()}
    expected = _expected_types(types)
    wrong = [n for n, allowed in expected.items() if n in types and types[n] not in allowed]
    if wrong:
        raise OperatorRejected(
            f"its {wrong[0]} is {types[wrong[0]]}; with a {types['input']} input TFLM's SVDF "
            f"takes {' or '.join(expected[wrong[0]])}"
        )
    if types["activation_state"] != types["weights_time"]:
        # TFLM picks its integer kernel by the time weights' type and reads the state buffer
        # as that type too: a state of the other type has no meaning there.
        raise OperatorRejected(
            f"its activation_state is {types['activation_state']} and its weights_time "
            f"{types['weights_time']}: TFLM's int8 SVDF reads its state as its time weights' "
            "type"
        )
    q = None
    bounds = None
    activation = options.FusedActivationFunction()
    if types["input"] == "int8":
        quantization = {n: scalar_quantization(t) for n, t in named.items() if n != "bias"}
        unquantized = [n for n, v in quantization.items() if v is None]
        if unquantized:
            raise OperatorRejected(f"its {unquantized[0]} has no one scale and zero point")
        scales = {n: np.float32(v[0]) for n, v in quantization.items() if v is not None}
        points = {n: v[1] for n, v in quantization.items() if v is not None}
        # TFLM's effective scales are float32 products, then doubles.
        feature = scales["input"] * scales["weights_feature"] / scales["activation_state"]
        output = scales["activation_state"] * scales["weights_time"] / scales["output"]
        q = IntegerSvdf(
            points["input"],
            points["activation_state"],
            quantize_multiplier(float(feature)),
            quantize_multiplier(float(output)),
            points["output"],
            types["activation_state"],
        )
    elif activation not in FLOAT_CLAMPS:
        raise OperatorRejected(f"its fused activation {activation} is not a clamp")
    else:
        bounds = FLOAT_CLAMPS[activation]
    read = [n for n in named if n not in ("activation_state", "output")]
    expr = {n: converter.get_tensor_expr(named[n]) for n in read}
    bb = converter.bb
    after = bb.call_te(
        lambda x, wf, s: state_update(x, wf, s, layout, q),
        expr["input"],
        expr["weights_feature"],
        state_before(state),
        primfunc_name_hint="svdf_state",
        # The state after (param 3) may be the state before's buffer (param 2).
        primfunc_attrs={IN_PLACE_ATTR: [[2, 3]]},
    )
    after = bb.emit(after)
    kind = "svdf_int8" if q is not None else "svdf"
    if "bias" in expr:
        result = bb.call_te(
            lambda s, wt, b: svdf_output(s, wt, b, layout, q, bounds),
            after,
            expr["weights_time"],
            expr["bias"],
            primfunc_name_hint=kind,
        )
    else:
        result = bb.call_te(
            lambda s, wt: svdf_output(s, wt, None, layout, q, bounds),
            after,
            expr["weights_time"],
            primfunc_name_hint=kind,
        )
    return state, after, result


def _expected_types(types: dict[str, str]) -> dict[str, tuple[str, ...]]:
    """The types TFLM's SVDF takes for each tensor, given its input's."""
    if types["input"] != "int8":
        return dict.fromkeys((*_TENSORS, "output"), ("float32",))
    return {
        "input": ("int8",),
        "weights_feature": ("int8",),
        "weights_time": ("int8", "int16"),
        "bias": ("int32",),
        "activation_state": ("int8", "int16"),
        "output": ("int8",),
    }
