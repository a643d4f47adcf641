"""Which pools a buffer may go into: the pools serving its function's target, and the
alignment it is planned at there (its own or its pools', the stricter). `usmp-assign-pools`
gives workspace buffers their candidates with it, `tir-constants-to-buffers` the constants
theirs; `tir-align-to-pools` then applies TIR's own rule for TVM's default alignment."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import func
from xdsl.dialects.builtin import ArrayAttr, IntegerAttr, StringAttr, SymbolRefAttr, i64
from xdsl.ir import Operation

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


def pools_alignment(pools: Sequence[PoolOp]) -> int:
    """The alignment a buffer gets from its candidate pools: the strictest of theirs."""
    return max(p.alignment.value.data for p in pools)


def set_candidates(op: AllocOffsetOp, candidates: Sequence[PoolOp]) -> None:
    alignment = max(op.alignment_bytes, pools_alignment(candidates))
    op.properties["pools"] = ArrayAttr(SymbolRefAttr(p.sym_name) for p in candidates)
    op.properties["alignment"] = IntegerAttr(alignment, i64)


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
