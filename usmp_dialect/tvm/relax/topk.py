"""`relax.topk`, `relax.sort` and `relax.argsort` as loops of plain TIR, not packed calls
of TVM's runtime.

    sorting_in_loops() -> pass      before TVM's `DispatchSortScan`

TVM lowers a `topk` on the CPU to an extern call of `tvm.contrib.sort.topk` (a `sort`, an
`argsort` of `tvm.contrib.sort.sort`, `argsort`), a function of its runtime: the C library
cannot call it (no TVM runtime on a microcontroller), and TVM's own C code generator
declares the call's shape array inside an expression (the C does not compile). Here each
`topk` (a `sort` or `argsort`: all n of them, the values or the indices) becomes
block-based TIR the rest of the pipeline takes like any operator's: the rank of each
element along the axis (the count of those before it in the order: larger, or equal at a
lower index; smaller for the smallest), the index of the element of each rank below k,
and its value gathered. Ties keep the lower index first, as ONNX's TopK and TVM's (stable)
sort do. It costs n² comparisons a row of n (a sort n log n): no buffer but the ranks, one
int32 an element. The values are gathered through the indices output (the model's
signature, not the kernel's reads, makes it an output of the C library's run).
"""

from __future__ import annotations

from typing import Any

import tvm
from tvm import relax, te, tirx


def _topk(data: Any, k: int, axis: int, ret_type: str, largest: bool, dtype: str) -> Any:
    """The TE tensors of `relax.topk` (see the module docstring)."""
    rank = len(data.shape)
    axis = axis % rank
    n = data.shape[axis]
    count = n if k < 1 else k
    out_shape = [*data.shape[:axis], count, *data.shape[axis + 1 :]]

    def along(index: Any, i: Any) -> tuple[Any, ...]:
        return (*index[:axis], i, *index[axis + 1 :])

    def before(other: Any, i: Any, index: Any) -> Any:
        """Whether the element `other` along the axis comes before the one at `index`."""
        a, b = data[along(index, other)], data[index]
        ahead = a > b if largest else a < b
        return tirx.Or(ahead, tirx.And(a == b, other < i))

    e = te.reduce_axis((0, n), "e")
    ranks = te.compute(
        data.shape,
        lambda *index: te.sum(
            tirx.Select(before(e, index[axis], index), 1, 0).astype("int32"), axis=e
        ),
        name="rank",
    )
    i = te.reduce_axis((0, n), "i")
    indices = te.compute(
        out_shape,
        lambda *index: te.sum(
            tirx.Select(
                ranks[along(index, i)] == index[axis].astype("int32"),
                i.astype(dtype),
                tirx.const(0, dtype),
            ),
            axis=i,
        ),
        name="indices",
    )
    values = te.compute(out_shape, lambda *index: data[along(index, indices[index])], name="values")
    return {"both": [values, indices], "values": values, "indices": indices}[ret_type]


def sorting_in_loops() -> Any:
    """A module pass: each `relax.topk`, `relax.sort` and `relax.argsort` call of a Relax
    function as `R.call_tir` of `_topk`'s PrimFunc."""

    def topk(call: Any) -> tuple[Any, ...]:
        a = call.attrs
        return int(a.k), int(a.axis), str(a.ret_type), bool(a.largest), str(a.dtype)

    def sort(call: Any) -> tuple[Any, ...]:
        # The indices stay inside the kernel: int32 holds any position along an axis.
        return 0, int(call.attrs.axis), "values", bool(call.attrs.descending), "int32"

    def argsort(call: Any) -> tuple[Any, ...]:
        a = call.attrs
        return 0, int(a.axis), "indices", bool(a.descending), str(a.dtype)

    arguments = {
        tvm.ir.Op.get(f"relax.{name}"): of
        for name, of in (("topk", topk), ("sort", sort), ("argsort", argsort))
    }

    @relax.expr_functor.mutator
    class SortingInLoops(relax.PyExprMutator):
        def visit_call_(self, call: Any) -> Any:
            call = super().visit_call_(call)
            of = next((f for op, f in arguments.items() if call.op.same_as(op)), None)
            if of is None:
                return call
            return self.builder_.call_te(
                _topk, call.args[0], *of(call), primfunc_name_hint=call.op.name[len("relax.") :]
            )

    def rewrite(mod: Any, _: Any) -> Any:
        mutator = SortingInLoops(mod)
        for gvar, func in mod.functions.items():
            if isinstance(func, relax.Function):
                mutator.builder_.update_func(gvar, mutator.visit_expr(func))
        return mutator.builder_.get()

    return tvm.transform.module_pass(rewrite, opt_level=0, name="SortingInLoops")
