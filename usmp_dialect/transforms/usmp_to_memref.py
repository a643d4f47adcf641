"""`usmp-to-memref`: planned pools become function arguments, buffers views into them.

Each pool that holds a buffer becomes a `memref<SIZExi8>` argument (marked
`{usmp.pool = @name}`) of every function that places a buffer in it or calls one that does,
and every call site passes the caller's pool on. Each `usmp.alloc_offset` becomes a
`memref.view` at its byte offset. The `usmp.pool` ops stay as the record of each pool's
planned size; the `usmp.liveness` goes once no buffer is left.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast

from xdsl.context import Context
from xdsl.dialects import arith, func, memref
from xdsl.dialects.builtin import (
    ArrayAttr,
    DictionaryAttr,
    IndexType,
    IntegerAttr,
    MemRefType,
    ModuleOp,
    SymbolRefAttr,
    i8,
)
from xdsl.ir import BlockArgument
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from usmp_dialect.analysis.pool_users import pools_needed
from usmp_dialect.diagnostics import UsmpError
from usmp_dialect.dialects.usmp import (
    POOL_ARG_ATTR,
    AllocOffsetOp,
    PoolOp,
    module_allocs,
    module_liveness,
    module_pools,
)


def _allocs_by_function(functions: list[func.FuncOp]) -> dict[str, list[AllocOffsetOp]]:
    allocs: dict[str, list[AllocOffsetOp]] = {}
    for function in functions:
        found = [op for op in function.walk() if isinstance(op, AllocOffsetOp)]
        for op in found:
            if op.offset is None:
                raise UsmpError(
                    f"buffer '{op.buffer_name.data}' is not planned: run usmp-plan first", op
                )
        allocs[function.sym_name.data] = found
    return allocs


def _calls(function: func.FuncOp) -> list[func.CallOp]:
    return [op for op in function.walk() if isinstance(op, func.CallOp)]


def _add_pool_arguments(function: func.FuncOp, pools: list[PoolOp]) -> dict[str, BlockArgument]:
    block = function.body.blocks[0]
    arguments: dict[str, BlockArgument] = {}
    new_attrs: list[DictionaryAttr] = []
    for pool in pools:
        pool_type = MemRefType(i8, [pool.planned_size or 0])
        argument = block.insert_arg(pool_type, len(block.args))
        argument.name_hint = pool.sym_name.data
        arguments[pool.sym_name.data] = argument
        new_attrs.append(DictionaryAttr({POOL_ARG_ATTR: SymbolRefAttr(pool.sym_name)}))
    old_attrs = (
        list(function.arg_attrs.data)
        if function.arg_attrs is not None
        else [DictionaryAttr({}) for _ in range(len(block.args) - len(pools))]
    )
    function.arg_attrs = ArrayAttr(old_attrs + new_attrs)
    function.update_function_type()
    return arguments


def _lower_alloc(op: AllocOffsetOp, pool_argument: BlockArgument) -> None:
    offset_bytes = op.offset_bytes
    assert offset_bytes is not None, "_allocs_by_function lets no unplanned buffer through"
    offset = arith.ConstantOp(IntegerAttr(offset_bytes, IndexType()))
    view = memref.ViewOp(pool_argument, offset, [], cast(MemRefType, op.buffer.type))
    view.result.name_hint = op.buffer.name_hint
    offset.location = view.location = op.location
    Rewriter.insert_op(offset, InsertPoint.before(op))
    op.release_conflicts()
    Rewriter.replace_op(op, view)


@dataclass(frozen=True)
class UsmpToMemref(ModulePass):
    name = "usmp-to-memref"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        functions = [f for f in op.ops if isinstance(f, func.FuncOp) and not f.is_declaration]
        allocs = _allocs_by_function(functions)
        if not any(allocs.values()):
            return
        callees = {
            f.sym_name.data: [c.callee.root_reference.data for c in _calls(f)] for f in functions
        }
        needed = pools_needed(allocs, callees)
        pool_order = module_pools(op)
        arguments: dict[str, dict[str, BlockArgument]] = {}
        for function in functions:
            pools = [p for p in pool_order if p.sym_name.data in needed[function.sym_name.data]]
            if pools:
                arguments[function.sym_name.data] = _add_pool_arguments(function, pools)
        for function in functions:
            own = arguments.get(function.sym_name.data, {})
            for call in _calls(function):
                callee_pools = arguments.get(call.callee.root_reference.data)
                if callee_pools:
                    call.operands = [*call.operands, *(own[name] for name in callee_pools)]
        for function in functions:
            for alloc in allocs[function.sym_name.data]:
                _lower_alloc(alloc, arguments[function.sym_name.data][alloc.pool_names[0]])
        liveness = module_liveness(op)
        if liveness is not None and not module_allocs(op):
            Rewriter.erase_op(liveness)
