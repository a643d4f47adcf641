"""Which pools a buffer may go into: the pools serving its function's target, and the
alignment it is planned at there. `usmp-assign-pools` gives workspace buffers their
candidates with it, `tir-constants-to-buffers` the constants theirs."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import func
from xdsl.dialects.builtin import ArrayAttr, IntegerAttr, StringAttr, SymbolRefAttr, i64
from xdsl.ir import Attribute, Operation
from xdsl.rewriter import Rewriter

from usmp_dialect.diagnostics import UsmpError
from usmp_dialect.dialects import tir
from usmp_dialect.dialects.usmp import TARGET_ATTR, AllocOffsetOp, PoolOp


def function_target(function: Operation) -> str | None:
    """The kind of the function's target: its `usmp.target`, else the kind of TIR's own
    `target` attribute (`T.func_attr({"target": T.target("c")})`)."""
    target = function.attributes.get(TARGET_ATTR)
    if isinstance(target, StringAttr):
        return target.data
    tir_target = function.attributes.get(tir.TARGET_ATTR)
    return tir_target.kind if isinstance(tir_target, tir.TargetAttr) else None


Function = func.FuncOp | tir.PrimFuncOp


def _function_of(op: Operation) -> Function | None:
    found: Operation | None = op
    while found is not None and not isinstance(found, Function):
        found = found.parent_op()
    return found


def planned_alignment(buffer_type: Attribute, requested: int, pool_alignment: int):
    """The byte alignment a buffer is planned at, and the type of the buffer it becomes.

    A buffer is placed at the strictest alignment of its pools or its own. TVM gives every
    buffer `data_alignment` 64 unless told otherwise, while its USMP placed workspace
    buffers at the pool's alignment (16). So a TIR buffer's 64 counts as "not asked for":
    the buffer is planned at the pool's alignment and its type says so (a type must not
    promise an alignment the plan does not give).
    """
    if (
        isinstance(buffer_type, tir.BufferType)
        and requested == buffer_type.alignment.data == tir.DEFAULT_ALIGNMENT
    ):
        return pool_alignment, tir.in_pool(buffer_type, pool_alignment)
    return max(requested, pool_alignment), buffer_type


def set_candidates(op: AllocOffsetOp, candidates: Sequence[PoolOp]) -> None:
    pool_alignment = max(p.alignment.value.data for p in candidates)
    alignment, buffer_type = planned_alignment(op.buffer.type, op.alignment_bytes, pool_alignment)
    op.properties["pools"] = ArrayAttr(SymbolRefAttr(p.sym_name) for p in candidates)
    op.properties["alignment"] = IntegerAttr(alignment, i64)
    if buffer_type != op.buffer.type:
        Rewriter.replace_value_with_new_type(op.buffer, buffer_type)


def assign_serving_pools(ops: Sequence[AllocOffsetOp], pools: Sequence[PoolOp], kind: str) -> None:
    """Each buffer's candidates: the `pools` (of `kind`) that serve its function's target."""
    for op in ops:
        function = _function_of(op)
        target = None if function is None else function_target(function)
        candidates = [p for p in pools if not p.target_names or target in p.target_names]
        if not candidates:
            where = "" if function is None else f" of @{function.sym_name.data}"
            raise UsmpError(f"no {kind} pool serves the target{where}", op)
        set_candidates(op, candidates)
