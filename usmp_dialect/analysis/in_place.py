"""Operators that compute an output correctly in the buffer of an input: the pairs an
operator's `usmp.in_place` declares, and the pairs its TIR proves.

`elementwise_pairs` is conservative: it proves a pair (i, j) only when the operator's
output param j is written by exactly one store, `y[I] = ...`, inside serial loops whose
variables each appear once in I (the other indices constants), so each run of the store
writes an element no other run writes; and input param i is only ever loaded as `x[I]`
with the same indices, inside the innermost of those loops and before the store in
program order, from a view of the same buffer type as `y`. Each element of x is then read
only in the iteration that writes the same element of y, before it writes it: an
elementwise operator, an activation, a requantize, an ADD of either operand (also through
a local accumulator, as TVM's int8 ADD computes). Anything else it is not sure of (a second
store, a load at other indices, a param handed to a call, a loop that is not serial, a
conditional store) proves nothing.
"""

from __future__ import annotations

from xdsl.dialects import arith
from xdsl.dialects.builtin import ArrayAttr, IntegerAttr
from xdsl.ir import Operation, SSAValue

from usmp_dialect.analysis.tir_liveness import io_mark
from usmp_dialect.analysis.tir_params import param_views
from usmp_dialect.diagnostics import UsmpError
from usmp_dialect.dialects import tir
from usmp_dialect.dialects.usmp import IN_PLACE_ATTR

_TRANSPARENT = (tir.AttrOp,)
"""Region ops that run their body once, as it stands."""


def in_place_pairs(function: tir.PrimFuncOp) -> list[tuple[int, int]]:
    """The `(input, output)` param pairs `function`'s `usmp.in_place` declares."""
    pairs = function.attributes.get(IN_PLACE_ATTR)
    if pairs is None:
        return []
    params = len(function.body.block.args)
    found = []
    for pair in pairs if isinstance(pairs, ArrayAttr) else [pairs]:
        entries = list(pair) if isinstance(pair, ArrayAttr) else []
        indices = [
            p.value.data
            for p in entries
            if isinstance(p, IntegerAttr) and 0 <= p.value.data < params
        ]
        if len(indices) != 2 or len(entries) != 2:
            raise UsmpError(
                f"{IN_PLACE_ATTR} must be [[input, output], ...], pairs of the indices of "
                f"@{function.sym_name.data}'s {params} params",
                function,
            )
        found.append((indices[0], indices[1]))
    return found


def _the_view(param: SSAValue) -> SSAValue | None:
    """The one buffer `param` is accessed through: itself (a buffer param) or its one
    view (a pointer param used for nothing else)."""
    if isinstance(param.type, tir.BufferType):
        return param
    views = param_views(param)
    if len(views) != 1 or len(list(param.uses)) != 1:
        return None
    return views[0].buffer


def _same_index(a: SSAValue, b: SSAValue) -> bool:
    if a is b:
        return True
    ca, cb = a.owner, b.owner
    return (
        isinstance(ca, arith.ConstantOp)
        and isinstance(cb, arith.ConstantOp)
        and ca.value == cb.value
    )


def _store_loops(store: tir.StoreOp, function: tir.PrimFuncOp) -> list[tir.ForOp] | None:
    """The serial loops around `store`, outermost first; None when anything else but an
    op that runs its body once stands around it."""
    loops: list[tir.ForOp] = []
    op = store.parent_op()
    while op is not None and op is not function:
        if isinstance(op, tir.ForOp) and op.kind.data == "serial":
            loops.append(op)
        elif not isinstance(op, _TRANSPARENT):
            return None
        op = op.parent_op()
    loops.reverse()
    return loops


def _inside(op: Operation, ancestor: Operation) -> bool:
    current = op.parent_op()
    while current is not None:
        if current is ancestor:
            return True
        current = current.parent_op()
    return False


def _each_run_its_own_element(store: tir.StoreOp, loops: list[tir.ForOp]) -> bool:
    loop_vars = [loop.body.block.args[0] for loop in loops]
    used = [i for i in store.indices if i in loop_vars]
    others = [i for i in store.indices if i not in loop_vars]
    return (
        bool(loops)
        and len(used) == len(set(used)) == len(loop_vars)
        and all(isinstance(i.owner, arith.ConstantOp) for i in others)
    )


def _computes_in_place(function: tir.PrimFuncOp, x: SSAValue, y: SSAValue, order) -> bool:
    if x.type != y.type:
        return False
    stores = [use.operation for use in y.uses]
    if len(stores) != 1 or not isinstance(store := stores[0], tir.StoreOp) or store.buffer is not y:
        return False
    loops = _store_loops(store, function)
    if loops is None or not _each_run_its_own_element(store, loops):
        return False
    for use in x.uses:
        load = use.operation
        if not isinstance(load, tir.LoadOp) or load.buffer is not x:
            return False
        if not _inside(load, loops[-1]) or order[load] > order[store]:
            return False
        if len(load.indices) != len(store.indices) or not all(
            _same_index(a, b) for a, b in zip(load.indices, store.indices, strict=True)
        ):
            return False
    return True


def elementwise_pairs(function: tir.PrimFuncOp) -> list[tuple[int, int]]:
    """The `(input, output)` param pairs `function` provably computes in place (see the
    module's doc)."""
    params = function.body.block.args
    views = [_the_view(p) for p in params]
    order = {op: index for index, op in enumerate(function.walk())}
    pairs = []
    for j, y in enumerate(views):
        if y is None:
            continue
        for i, x in enumerate(views):
            if i != j and x is not None and _computes_in_place(function, x, y, order):
                pairs.append((i, j))
    return pairs


def result_pairs(function: tir.PrimFuncOp) -> list[tuple[int, int]]:
    """The `(input, output)` param pairs `function` computes in place: those it declares
    in `usmp.in_place`, else those its TIR proves."""
    if IN_PLACE_ATTR in function.attributes:
        return in_place_pairs(function)
    return elementwise_pairs(function)


def can_share(x: tir.AllocBufferOp, y: tir.AllocBufferOp) -> bool:
    """Whether allocation `y` may take allocation `x`'s bytes: both the entry's own (not
    its inputs, outputs or state, whose bytes the application owns), of one element type
    and scope, `y` no larger than `x`."""
    xt, yt = x.buffer.type, y.buffer.type
    assert isinstance(xt, tir.BufferType) and isinstance(yt, tir.BufferType)
    return (
        x is not y
        and io_mark(x) is None
        and io_mark(y) is None
        and xt.element_type == yt.element_type
        and xt.scope == yt.scope
        and yt.size_in_bytes() <= xt.size_in_bytes()
    )
