"""`tir-constants-to-buffers`: the entry function's constants become buffers of a
constant pool.

With a constant pool (`usmp.pool @flash constant` in the IR, or one `usmp-assign-pools`
added: `pools="flash:kind=constant"`, `constant-pool=true`), the constants of the entry
function (the params its `usmp.constants` names: a model's weights) leave its signature and
become `usmp.alloc_offset`s in the constant pools that serve its target, marked
`#usmp.io<"w", constant>` and live for the whole run, so the planner places them all at
bytes of their own; `usmp-to-tir` then publishes where each lives (`usmp.io_offsets`).
Without a constant pool the constants stay params. Runs once `tir-to-usmp` has (a program
with nothing else to plan gets a `usmp.liveness` of its own); the `--plan-pools` pipeline
runs it after `usmp-assign-pools`.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import BlockArgument, Operation
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from usmp_dialect.analysis.pool_candidates import assign_serving_pools
from usmp_dialect.analysis.tir_entry import prim_funcs
from usmp_dialect.analysis.tir_params import (
    constant_params,
    param_allocation,
    param_buffer_type,
    param_views,
)
from usmp_dialect.diagnostics import UsmpError
from usmp_dialect.dialects import tir
from usmp_dialect.dialects.usmp import (
    CONSTANTS_ATTR,
    IO_ATTR,
    AllocOffsetOp,
    IOAttr,
    IOKind,
    LivenessOp,
    PoolKind,
    module_allocs,
    module_liveness,
    module_pools,
)
from usmp_dialect.lowering.allocations_to_usmp import (
    BufferNames,
    lower_alloc_buffer,
    pending_allocations,
)


def _constants_to_allocations(entry: tir.PrimFuncOp, names: BufferNames) -> list[AllocOffsetOp]:
    """The entry's constant params as allocations at the top of its body, in param order,
    named uniquely among the module's buffers and marked `#usmp.io<"param", constant>`;
    the params and the `usmp.constants` attribute go."""
    constants = constant_params(entry)
    block = entry.body.block
    moved: list[tuple[BlockArgument, list[Operation]]] = []
    for arg, name in list(zip(block.args, entry.param_names(), strict=True)):
        if name is None or name not in constants:
            continue
        views = param_views(arg)
        buffer_type = param_buffer_type(arg, name, views)
        if buffer_type is None:
            raise UsmpError(
                f"constant '{name}' is not a buffer (a scalar, or a pointer never viewed): "
                "its size is unknown",
                entry,
            )
        moved.append((arg, param_allocation(arg, name, buffer_type, views, entry)))
    Rewriter.insert_op([op for _, created in moved for op in created], InsertPoint.at_start(block))
    for arg, _ in reversed(moved):
        entry.erase_param(arg)
    del entry.attributes[CONSTANTS_ATTR]
    placed = []
    for _, (alloc, *_) in moved:
        assert isinstance(alloc, tir.AllocBufferOp) and alloc.buffer_name is not None
        name = alloc.buffer_name.data
        alloc.attributes[IO_ATTR] = IOAttr(name, IOKind.CONSTANT)
        placed.append(lower_alloc_buffer(alloc, names.unique(name, name)))
    return placed


def _place_constants(module: ModuleOp) -> None:
    pools = [p for p in module_pools(module) if p.kind.data == PoolKind.CONSTANT]
    if not pools:
        return
    liveness = module_liveness(module)
    if liveness is None and (pending := pending_allocations(module)):
        raise UsmpError(
            "the constants join the buffers tir-to-usmp lowers: run tir-to-usmp first",
            pending[0],
        )
    existing = module_allocs(module)
    names = BufferNames()
    names.used.update(op.buffer_name.data for op in existing)
    placed = [
        alloc
        for function in prim_funcs(module).values()
        if CONSTANTS_ATTR in function.attributes
        for alloc in _constants_to_allocations(function, names)
    ]
    if not placed:
        return
    assign_serving_pools(placed, pools, PoolKind.CONSTANT)
    run_end = max((max(op.live_bounds(), default=1) for op in existing), default=1)
    for alloc in placed:
        alloc.set_live([0, run_end])
    if liveness is None:
        module.body.block.add_op(LivenessOp())


@dataclass(frozen=True)
class TirConstantsToBuffers(ModulePass):
    name = "tir-constants-to-buffers"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        _place_constants(op)
