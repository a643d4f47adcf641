"""Weights computed at compile time, named after the weights they are computed from.

    fold_named_weights(func, tensors, keep_expansions) -> (func, tensors)
    expanded_constants_hidden(mod, entry, tensors) -> (mod, hidden)
    expanded_constants_restored(mod, entry, hidden) -> mod

TVM's `FoldConstant` computes every expression of weights alone (a transposed, reshaped or
cast weight) into a new constant that keeps no trace of the weight it came from. Here such
a binding of `forward`, `lv = R.permute_dims(fc1_weight)`, is computed first, binding by
binding in order, and becomes `lv = <constant>`: TVM's pipeline then reads the constant
through `lv` and keeps its tensor, which `tensors` names `fc1_weight_permute_dims` (the
first named constant among its arguments, then the Relax op's name). A binding of
constants none of which is named is left to TVM's `FoldConstant`.

With `keep_expansions` a weight stays as the model file stores it, as TensorFlow Lite
Micro keeps it: an expansion of one weight into a tensor no smaller is not computed at compile
time, but by the operator that reads it, element by element: a decoding (`R.dequantize`
of an int8 weight, `R.astype` of a float16 one to float32: any cast to a type no narrower)
or a broadcast (`R.broadcast_to` of a PReLU's per-channel alpha to the whole input). A
layout change of a decoded weight (`permute_dims`, `reshape`, ...) is computed on the
stored tensor instead, then decoded (`astype(w)` transposed is `astype(w_permute_dims)`,
`w_permute_dims` float16): the two commute exactly, as a layout change moves elements and
a decoding maps each one alone, all alike (a dequantize only if its scale and zero point
are one for the whole tensor; a per-channel dequantize's scales are named
`w_scale`, `w_zero_point`). TVM's `FoldConstant` would still fold the expansion: the
stored constant is hidden from TVM's pipeline as a param of `forward`
(`expanded_constants_hidden`) while the expansion is fused into the operator that reads it
(`tvm.relax.temporaries`), and bound back after (`expanded_constants_restored`), when an
expansion the fusion left unfused (of a reader with too many arguments) is folded. One read
by two operators, which neither can compute alone, is folded from the start, as before, and
so is a layout change of a decoded weight read by two (`w_astype_permute_dims`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

import numpy as np
import tvm
from tvm import relax

from usmp_dialect.tvm.relax.fused_names import renamed
from usmp_dialect.tvm.relax.names import fresh_name
from usmp_dialect.tvm.relax.temporaries import tensor_bytes

_EXPANSIONS = frozenset({"relax.astype", "relax.dequantize", "relax.broadcast_to"})
# Ops that move a tensor's elements without computing any.
LAYOUT_OPS = frozenset(
    {"relax.permute_dims", "relax.reshape", "relax.expand_dims", "relax.squeeze", "relax.flatten"}
)


def leaves_of(expr: Any) -> list[Any]:
    """The tensors a call argument holds: itself, or a tuple's fields, flattened; not the
    prim values (a strided slice's begin and end, which compare by value)."""
    if isinstance(expr, tvm.ir.Tuple):
        return [leaf for field in expr.fields for leaf in leaves_of(field)]
    return [] if tvm.ir.is_prim_expr(expr) else [expr]


def op_name(value: Any) -> str | None:
    if isinstance(value, tvm.ir.Call) and isinstance(value.op, tvm.ir.Op):
        return str(value.op.name)
    return None


def _is_expansion(value: Any) -> bool:
    """Whether `value` computes a tensor no smaller than the one tensor it reads, which
    it decodes or broadcasts."""

    if op_name(value) not in _EXPANSIONS:
        return False
    tys = (value.ty, value.args[0].ty)
    return all(map(is_static, tys)) and tensor_bytes(tys[0]) >= tensor_bytes(tys[1])


def is_static(ty: Any) -> bool:
    """Whether `ty` is a tensor type of a shape of constants alone."""
    shape = getattr(ty, "shape", None)
    return isinstance(shape, relax.ShapeExpr) and all(
        isinstance(d, tvm.tirx.IntImm) for d in shape.values
    )


def _is_scalar(expr: Any) -> bool:
    return is_static(expr.ty) and int(np.prod([int(d) for d in expr.ty.shape.values])) == 1


def _commutes(expansion: Any) -> bool:
    """Whether `expansion` maps every element alone and alike (a cast, a per-tensor
    dequantize), so that it commutes with a layout change."""
    op = op_name(expansion)
    return op == "relax.astype" or (
        op == "relax.dequantize" and all(_is_scalar(a) for a in expansion.args[1:])
    )


def _expanded(expansion: Any, stored: Any) -> Any:
    """`expansion` applied to the constant `stored` instead, normalized; one that commutes
    with layout changes reads any layout (a per-tensor dequantize's axis is free)."""
    if op_name(expansion) == "relax.astype":
        call = relax.op.astype(stored, expansion.attrs.dtype)
    elif _commutes(expansion):
        _, scale, zero_point = expansion.args
        call = relax.op.dequantize(stored, scale, zero_point, out_dtype=expansion.attrs.out_dtype)
    else:
        call = tvm.ir.Call(expansion.op, [stored, *expansion.args[1:]], expansion.attrs)
    return relax.BlockBuilder().normalize(call)


def _folded(value: Any, bound: list[tuple[Any, Any]]) -> Any:
    """`value` computed by TVM's `FoldConstant`, the vars it reads bound to their constants
    (`bound`); None if it does not fold to one constant tensor. A layout change, or an int
    tensor's dequantize to float32, is computed with numpy instead (`_computed`): the same
    values, where `FoldConstant` builds each with LLVM (0.1-0.2 s each, the most of an
    int8 model's check)."""
    computed = _computed(value, dict(bound))
    if computed is not None:
        return computed
    builder = relax.BlockBuilder()
    with builder.function("fold", []):
        with builder.dataflow():
            for var, constant in bound:
                builder.emit_normalized(relax.VarBinding(var, constant))
            result = builder.emit_output(value)
        builder.emit_func_output(result)
    body = relax.transform.FoldConstant()(builder.get())["fold"].body
    folded = body.body if not body.blocks else None
    return folded if isinstance(folded, tvm.ir.Constant) else None


def _computed(value: Any, bound: dict[Any, Any]) -> Any:
    """`value` as a constant computed with numpy, if it is a layout change of a constant (its
    elements moved, none computed) or the dequantize of an int constant to float32 (TVM's
    legalization computes
    `float32(int32(x) - zero_point) * float32(scale)`, each step exact or rounded once
    to float32, as numpy rounds it); None for anything else."""

    def array(expr: Any) -> Any:
        constant = bound.get(expr, expr)
        return constant.value.numpy() if isinstance(constant, tvm.ir.Constant) else None

    op = op_name(value)
    if op not in LAYOUT_OPS | {"relax.dequantize"}:
        return None
    if not is_static(value.ty):
        return None
    data = array(value.args[0])
    if data is None:
        return None
    shape = tuple(int(d) for d in value.ty.shape.values)
    if op in LAYOUT_OPS:
        if op == "relax.permute_dims":
            axes = value.attrs.axes
            data = data.transpose(None if axes is None else [int(a) for a in axes])
        if data.size != int(np.prod(shape)) or str(data.dtype) != str(value.ty.dtype):
            return None
        # Every layout change but a transpose keeps the elements' row-major order.
        return relax.const(np.ascontiguousarray(data).reshape(shape), str(value.ty.dtype))
    scale, zero_point = (array(a) for a in value.args[1:])
    if scale is None or zero_point is None or value.attrs.out_dtype != "float32":
        return None
    if data.dtype.kind not in "iu" or zero_point.dtype.kind not in "iu":
        return None
    axis = int(value.attrs.axis) % data.ndim
    per_channel = [1] * data.ndim
    per_channel[axis] = -1

    def along_axis(q: Any) -> Any:
        return q.reshape(()) if q.size == 1 else q.reshape(per_channel)

    difference = data.astype(np.int32) - along_axis(zero_point).astype(np.int32)
    decoded = difference.astype(np.float32) * along_axis(scale).astype(np.float32)
    return relax.const(decoded, "float32")


def _bound(value: Any, folded: dict[Any, tuple[Any, str]]) -> list[tuple[Any, Any]]:
    """The folded vars `value` reads, each with its constant."""
    leaves = [leaf for arg in value.args for leaf in leaves_of(arg)]
    return [(var, constant) for var, (constant, _) in folded.items() if var in leaves]


def _source_name(
    value: Any, named: list[tuple[Any, str]], folded: dict[Any, tuple[Any, str]]
) -> str | None:
    """The name a folded `value` is derived from: that of its first named constant
    argument; None if an argument is a var not folded (an input, an intermediate). Other
    arguments (shapes, scalars) are static."""
    if op_name(value) is None:
        return None
    names = []
    for leaf in (leaf for arg in value.args for leaf in leaves_of(arg)):
        if isinstance(leaf, tvm.ir.Constant):
            names.append(next((n for t, n in named if leaf.value.same_as(t)), None))
        elif isinstance(leaf, tvm.ir.Var):
            if leaf not in folded:
                return None
            names.append(folded[leaf][1])
    return next((n for n in names if n is not None), None)


class _Folding:
    """`fold_named_weights` along `forward`'s bindings, in order."""

    def __init__(self, tensors: dict[str, Any], readers: Counter[Any] | None) -> None:
        self.named = [(tensor, name) for name, tensor in tensors.items()]
        self.taken = set(tensors)
        # With expansions kept, how many bindings (or the result) read each var: an
        # expansion read twice cannot be fused into its reader and is folded.
        self.readers = readers
        self.folded: dict[Any, tuple[Any, str]] = {}  # var -> its constant, named
        self.expanded: dict[Any, tuple[Any, str]] = {}  # var -> its expansion, of what

    def _named(self, constant: Any, name: str) -> str:
        name = fresh_name(name, self.taken)
        self.named.append((constant.value, name))
        return name

    def value(self, var: Any, value: Any) -> Any:
        """What `var` is bound to: `value` computed at compile time if it can be, else
        `value` itself (an expansion kept, or a computation not of weights alone)."""
        op = op_name(value)
        if op is None:
            return value
        reads = [leaf for arg in value.args for leaf in leaves_of(arg)]
        decoded = [leaf for leaf in reads if leaf in self.expanded]
        if op in LAYOUT_OPS and len(decoded) == 1 and _commutes(self.expanded[decoded[0]][0]):
            if self.readers and self.readers[var] == 1:
                return self._laid_out_before_expansion(var, value, *self.expanded[decoded[0]])
            return self._folded_after_expansion(var, value, decoded[0])
        source = _source_name(value, self.named, self.folded)
        if source is None:
            return value
        if self.readers and self.readers[var] == 1 and _is_expansion(value):
            stored = value.args[0]
            stored = self.folded[stored][0] if stored in self.folded else stored
            self.expanded[var] = (_expanded(value, stored), source)
            self._name_quantization(value, source)
            return self.expanded[var][0]
        constant = _folded(value, _bound(value, self.folded))
        if constant is None:
            return value
        self.folded[var] = (constant, self._named(constant, f"{source}_{op.rsplit('.', 1)[-1]}"))
        return constant

    def _name_quantization(self, expansion: Any, source: str) -> None:
        """A dequantize's scale and zero point, when they are tensors (one per channel),
        named after the weight they decode."""
        if op_name(expansion) != "relax.dequantize":
            return
        for arg, what in zip(expansion.args[1:], ("scale", "zero_point"), strict=True):
            if not isinstance(arg, tvm.ir.Constant) or _is_scalar(arg):
                continue
            if not any(arg.value.same_as(t) for t, _ in self.named):
                self._named(arg, f"{source}_{what}")

    def _laid_out_before_expansion(self, var: Any, value: Any, expansion: Any, source: str) -> Any:
        """A layout change `value` of a decoded weight, as the decoding of the weight's
        stored tensor laid out at compile time."""
        op = value.op.name.rsplit(".", 1)[-1]
        laid_out = tvm.ir.Call(value.op, [expansion.args[0], *value.args[1:]], value.attrs)
        constant = _folded(laid_out, [])
        if constant is None:
            return value
        name = self._named(constant, f"{source}_{op}")
        self.expanded[var] = (_expanded(expansion, constant), name)
        return self.expanded[var][0]

    def _folded_after_expansion(self, var: Any, value: Any, decoded: Any) -> Any:
        """A layout change `value` of the decoded weight `decoded`, read by more than one
        operator, none of which can compute it alone: decoding and layout change folded."""
        expansion, source = self.expanded[decoded]
        constant = _folded(value, [(decoded, expansion)])
        if constant is None:
            return value
        ops = "_".join(str(call.op.name).rsplit(".", 1)[-1] for call in (expansion, value))
        self.folded[var] = (constant, self._named(constant, f"{source}_{ops}"))
        return constant


def readers(func: Any) -> Counter[Any]:
    """How many bindings of `func` (and its result) read each var."""
    values = [b.value for block in func.body.blocks for b in block.bindings]
    return Counter(v for e in [*values, func.body.body] for v in relax.analysis.free_vars(e))


def fold_named_weights(
    func: Any, tensors: dict[str, Any], keep_expansions: bool = False
) -> tuple[Any, dict[str, Any]]:
    """`func` (a Relax function, its weights bound) with each binding of named constants
    alone computed into a named constant (with `keep_expansions`, each expansion of one
    kept, see above), and `tensors` (name -> the tensor a constant holds) with their names
    added; a new name taken gets `_` appended."""
    folding = _Folding(tensors, readers(func) if keep_expansions else None)
    blocks = []
    for block in func.body.blocks:
        bindings = []
        for binding in block.bindings:
            if not isinstance(binding, relax.VarBinding):
                bindings.append(binding)
                continue
            value = folding.value(binding.var, binding.value)
            unchanged = value.same_as(binding.value)
            bindings.append(binding if unchanged else relax.VarBinding(binding.var, value))
        kind = relax.DataflowBlock if isinstance(block, relax.DataflowBlock) else relax.BindingBlock
        blocks.append(kind(bindings))
    if len(folding.named) == len(tensors):
        return func, tensors
    body = relax.SeqExpr(blocks, func.body.body)
    func = relax.Function(func.params, body, func.ret_ty, func.is_pure, func.attrs)
    # A decoding laid out anew leaves the one it replaced unread.
    func = relax.analysis.remove_all_unused(func)
    named = {name: tensor for tensor, name in folding.named}
    return func, named


def expanded_constants_hidden(
    mod: Any, entry: str, tensors: Mapping[str, Any]
) -> tuple[Any, dict[Any, Any]]:
    """`mod` with each constant an expansion of `entry` reads replaced by a new param of
    `entry` (TVM's `FoldConstant` folds no param), named as `tensors` names its tensor
    (the operators that read it name theirs after it), and each such param's tensor."""
    func = mod[entry]
    taken = {str(p.name) for p in func.params}
    hidden: dict[Any, Any] = {}  # constant -> its param
    for stored in _read_by_expansions(func):
        if stored not in hidden:
            name = next((n for n, t in tensors.items() if stored.value.same_as(t)), "stored")
            hidden[stored] = relax.Var(fresh_name(name, taken), stored.ty)
    if not hidden:
        return mod, {}
    out = mod.clone()
    out[entry] = relax.Function(
        [*func.params, *hidden.values()],
        renamed(func.body, hidden, {}),
        func.ret_ty,
        func.is_pure,
        func.attrs,
    )
    return out, {param: constant.value for constant, param in hidden.items()}


def _read_by_expansions(func: Any) -> list[Any]:
    """The constants an expansion of `func` reads: its stored tensor, a dequantize's scale
    and zero point per channel, and those of a per-channel scale computed of constants
    (a bias's, `derived_scales`): all would be folded into the expansion's result."""
    bindings = [b for block in func.body.blocks for b in block.bindings]
    expansions = [b.value for b in bindings if _is_expansion(b.value)]
    scales = {e.args[1] for e in expansions if op_name(e) == "relax.dequantize"}
    computed_scales = [
        b.value for b in bindings if b.var in scales and op_name(b.value) == "relax.multiply"
    ]
    read = [e.args[0] for e in expansions]
    read += [a for e in expansions if op_name(e) == "relax.dequantize" for a in e.args[1:]]
    read += [a for value in computed_scales for a in value.args]
    return [a for a in read if isinstance(a, tvm.ir.Constant) and not _is_scalar(a)]


def expanded_constants_restored(mod: Any, entry: str, hidden: dict[Any, Any]) -> Any:
    """`mod` with the params `expanded_constants_hidden` made bound back to their tensors,
    and what is then of constants alone (an expansion left unfused) folded."""
    if not hidden:
        return mod
    return relax.transform.FoldConstant()(relax.transform.BindParams(entry, hidden)(mod))
